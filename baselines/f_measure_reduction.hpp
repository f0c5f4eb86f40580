// F-measure optimization by reduction to cost-sensitive classification (Parambath's thesis
// ch. 2, Algorithms 1-4; Parambath, Usunier & Grandvalet, NIPS 2014).
//
// Costs. A cost parameter t in (0, 1 + beta^2) gives the cost vector a(t) = (1 + beta^2 - t, t)
// (FN cost, FP cost; Prop. 6 and 8); a learner is trained with class weights FN weight
// (1 + beta^2 - t) / t for positives and 1 for negatives. The thesis' grid is t in {0.1, ..., 1.9}
// (19 values, FN weights 19 ... 0.0526, t = 1 the unweighted problem) with C in {2^-6 ... 2^6}.
//
// A grid (run_cost_grid) trains one model per (label, t, C) on the training part, scores the
// validation and test parts and keeps, per model, only counts: the validation and test confusion
// of the default rule (score > 0), the best validation threshold (best_threshold: among the
// validation scores, ties to the higher one) and the validation and test confusion at it; and per
// (t, C) shared by all labels the pooled (micro) counts with ONE global threshold. Every table
// variant and selection rule is then computed from these counts (select_*), without retraining:
//   variants  "-"    cost-insensitive (t = 1), default rule;   "T"    t = 1, thresholded;
//             "CS"   every t, default rule;                      "CS&T" every t, thresholded;
//   rules     max_f    one grid, everything by maximum validation F (what the experiments ran);
//             two_loop Algorithms 1-2 (3-4 for micro-F): for each actual cost t_a of
//                      `actual_costs`, the inner loop picks the model of minimum validation cost
//                      (1 + beta^2 - t_a) FN + t_a FP (default rule), then its (thresholded)
//                      validation F is computed; the outer loop keeps the t_a of maximum F.
//   measures  binary F; macro-F (each label tuned alone, mean of the labels' test F); micro-F
//             "C_min" (Alg. 3: t, C and the threshold shared by all labels, pooled counts) and
//             "F_max" (the macro-F choices scored by pooled micro-F, Fan & Lin 2007).
// Tie-breaks (never by the order of models or rows): higher validation F; then smaller C; then
// smaller gamma; then t closer to 1; then smaller t. For two_loop the inner minimum cost breaks
// ties the same way, and the outer loop keeps, among equal F, the model first by that order
// (one model chosen for several actual costs keeps the smallest of them).
// A threshold tie inside one model keeps the higher threshold (lib/eval/f_measure.hpp).
//
// Bracketing (thesis §2.5.4): F is unimodal in the cost, so instead of all of the t grid,
// bracket_search evaluates the two ends and the middle, then repeatedly the midpoints on both
// sides of the best point so far, and stops when the best point's evaluated neighbours are
// adjacent; each evaluation of a t trains every C for it (per label for macro-F, all labels
// for micro-F).
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <nlohmann/json.hpp>
#include <limits>
#include <string>
#include <vector>

#include "lib/eval/f_measure.hpp"

namespace mpg {

// {0.1, 0.2, ..., 1.9} (each k / 10 exactly rounded).
std::vector<double> default_cost_grid();
// {2^-6, ..., 2^6}.
std::vector<double> default_c_grid();
// The FN class weight (1 + beta^2 - t) / t of cost parameter t (FP weight 1); throws mpg::Error
// unless 0 < t < 1 + beta^2.
double fn_weight(double t, double beta = 1.0);

enum class FVariant { plain, thresholded, cost_sensitive, cost_sensitive_thresholded };
// "-" / "T" / "CS" / "CS&T" (also "plain", "thresholded", "cs", "cs_t"); throws mpg::Error.
FVariant parse_f_variant(const std::string& name);
std::string f_variant_name(FVariant variant);  // "-", "T", "CS", "CS&T"
bool is_thresholded(FVariant variant);
bool is_cost_sensitive(FVariant variant);

enum class FSelection { max_f, two_loop };
FSelection parse_f_selection(const std::string& name);  // "max_f" / "two_loop"

// One trained model (one label, one (t, C[, gamma])) reduced to what selection needs.
struct ModelEvaluation {
  int label = 0;
  double t = 1.0;
  double C = 1.0;
  double gamma = 0.0;  // 0 for linear models
  bool converged = true;
  Confusion validation;              // default rule, score > 0
  Confusion test;
  double threshold = std::numeric_limits<double>::infinity();  // best validation threshold
  Confusion validation_thresholded;  // score >= threshold
  Confusion test_thresholded;
};

// The same for a (t, C[, gamma]) shared by every label, with one global threshold (micro-F).
struct PooledEvaluation {
  double t = 1.0;
  double C = 1.0;
  double gamma = 0.0;
  Confusion validation;  // summed over labels, default rule
  Confusion test;
  double threshold = std::numeric_limits<double>::infinity();
  Confusion validation_thresholded;
  Confusion test_thresholded;
};

// Counts of one model from its validation and test scores.
ModelEvaluation evaluate_scores(int label, double t, double C, double gamma,
                                const Eigen::VectorXd& validation_scores,
                                const std::vector<int>& validation_labels,
                                const Eigen::VectorXd& test_scores, const std::vector<int>& test_labels,
                                double beta = 1.0, double empty_f = 1.0);

struct SelectionOptions {
  FVariant variant = FVariant::cost_sensitive_thresholded;
  FSelection rule = FSelection::max_f;
  double beta = 1.0;
  // F when a label has no positive and none is predicted (lib/eval/f_measure.hpp).
  double empty_f = 1.0;
  // two_loop: the actual costs t_a of the outer loop (empty: every t value among the models,
  // also for "-" and "T", whose inner loop then chooses among the t = 1 models only).
  std::vector<double> actual_costs;
};

struct Choice {
  double t = 1.0;
  double C = 1.0;
  double gamma = 0.0;
  bool thresholded = false;
  double threshold = 0.0;    // the rule: score >= threshold if thresholded, else score > 0
  double actual_cost = 0.0;  // two_loop: the t_a whose inner choice won (else 0)
  double validation_f = 0.0;
  double test_f = 0.0;
  Confusion validation;      // under the chosen rule
  Confusion test;
};

// Binary F: the best model among `models` (all of one label). Throws mpg::Error if the variant
// leaves no candidate (e.g. no t = 1 model for "-" / "T").
Choice select_binary(const std::vector<ModelEvaluation>& models, const SelectionOptions& options);

struct MacroChoice {
  std::vector<Choice> labels;   // per label, label order
  double validation_f = 0.0;    // mean over labels
  double test_f = 0.0;          // macro-F on test: mean of the labels' test F
  double test_micro_f = 0.0;    // F_max: micro-F of the pooled test counts of these choices
};

// Macro-F with each label tuned alone; `models` may hold every label (label_count of them).
MacroChoice select_macro(const std::vector<ModelEvaluation>& models, int label_count,
                         const SelectionOptions& options);

// Micro-F "C_min": the best shared (t, C[, gamma]) with its global threshold.
Choice select_micro(const std::vector<PooledEvaluation>& pooled, const SelectionOptions& options);

// Lazily maximizes f over the indices 0..m-1 of a grid on which it is unimodal (see the header
// comment); f is called at most once per index. Ties between evaluated values go to the index
// closer to `preferred` (then the smaller index).
struct BracketResult {
  int best = 0;
  std::vector<int> evaluated;  // indices in evaluation order
};
BracketResult bracket_search(int m, const std::function<double(int)>& f, int preferred);

// ---- The grid driver --------------------------------------------------------------------------

// What one training returns: the scores of the validation and test examples.
struct TrainedScores {
  Eigen::VectorXd validation;
  Eigen::VectorXd test;
  bool converged = true;
  Eigen::VectorXd weights;  // a linear model's weights over the feature columns (score = x . w); empty otherwise
};

// A learner trained per label with class weights (fn_weight, 1) and regularization C. `warm`
// asks it to start from its previous model of the same label and t (the previous, smaller C of
// the grid) if it has one; learners without warm starts ignore it.
class CostSensitiveLearner {
 public:
  virtual ~CostSensitiveLearner() = default;
  virtual TrainedScores train(int label, double positive_weight, double C, bool warm) = 0;
  virtual double gamma() const { return 0.0; }
};

enum class CostSearch { full, bracket_per_label, bracket_pooled };
CostSearch parse_cost_search(const std::string& name);  // "full", "bracket_per_label", "bracket_pooled"

struct CostGridOptions {
  std::vector<double> costs = default_cost_grid();  // t values; must include 1 for "-" / "T"
  std::vector<double> Cs = default_c_grid();        // trained in increasing order per (label, t)
  double beta = 1.0;
  double empty_f = 1.0;
  bool warm_start = true;  // along C within one (label, t)
  CostSearch search = CostSearch::full;
  // Bracketing maximizes, per probed t, the best validation F over C of this variant
  // (per label for bracket_per_label, pooled micro-F for bracket_pooled).
  FVariant bracket_variant = FVariant::cost_sensitive_thresholded;
};

struct GridEvaluation {
  int label_count = 0;
  std::vector<ModelEvaluation> models;   // ordered by (label, gamma, t, C)
  std::vector<PooledEvaluation> pooled;  // (t, C) trained for every label; by (gamma, t, C)
  long trainings = 0;
  long not_converged = 0;
  double seconds = 0.0;
};

// Runs the grid. validation_labels[k] / test_labels[k] are label k's 0/1 labels on the
// validation and test parts (one vector for binary problems). `progress`, if given, is called
// after every training with (trainings so far, trainings of the full grid).
GridEvaluation run_cost_grid(CostSensitiveLearner& learner,
                             const std::vector<std::vector<int>>& validation_labels,
                             const std::vector<std::vector<int>>& test_labels,
                             const CostGridOptions& options,
                             const std::function<void(long, long)>& progress = {});

// Concatenates grids of the same labels run at different gammas (RBF), for selection over gamma.
GridEvaluation merge_grids(const std::vector<GridEvaluation>& grids);

// A grid as JSON (the cache of one cell) and back: models and pooled entries as arrays of
// [label,] t, C, gamma, threshold, then the confusion counts [tp, fp, fn, tn] of validation,
// test, validation thresholded, test thresholded (and converged for models); a threshold of
// +infinity ("predict none") is written as null. grid_from_json throws mpg::Error on a malformed
// document.
nlohmann::json grid_to_json(const GridEvaluation& grid);
GridEvaluation grid_from_json(const nlohmann::json& json);

}  // namespace mpg
