// MPG for binary multivariate metrics (F1, precision@k): the whole data file is one game over
// its n examples with Phi(x, y) = sum_i y_i x_i (x_i with an appended bias feature), so
// psi_i = theta . x_i. Learning minimizes the negated dual of thesis Eq. 3.9,
//     f(theta) = -theta . Phi(x, y_gold) - v(theta) + lambda/2 ||theta||^2,
//     grad f   = E_{Q*}[Phi(x, Y_check)] - Phi(x, y_gold) + lambda theta          (Eq. 3.10)
// where v(theta) is the game value and Q* the adversary's equilibrium strategy. The metric is a
// plug-in (lib/metrics/binary_metric.hpp): this file asks its game for an exact equilibrium or
// its solver over marginals, and never switches on the metric.
#pragma once

#include <limits>

#include <Eigen/SparseCore>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/learn/game_statistics.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/metrics/binary_metric.hpp"

namespace mpg {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// One binary data file: features (bias column last) and 0/1 labels.
struct BinaryProblem {
  std::string path;
  SparseRowMatrix features;        // n x (d + 1)
  std::vector<int> labels;         // 1 = positive
  std::vector<long> source_lines = {};  // the file's line of each example (empty: not from a file)
  std::vector<double> raw_labels = {};  // the file's labels
  std::size_t positives() const;
  // Throws mpg::InputError naming the file and its label counts unless both classes occur
  // (a training file without positive or without negative examples has no game to learn from).
  void require_both_classes(double positive_label) const;
  // psi = features theta, each |psi_i| <= kMaxPotential, else an mpg::InputError naming the
  // example's line and its potential.
  Eigen::VectorXd potentials(const Eigen::VectorXd& theta) const;
};

// Reads a LIBSVM file; label == positive_label is 1, every other label 0. At least
// min_features feature columns (before the bias). Throws mpg::InputError.
BinaryProblem load_binary_problem(const std::string& path, double positive_label,
                                  long min_features = 0, double bias = 1.0);

// The problem restricted to the feature columns that hold a non-zero value (the bias column, last,
// always kept), and those columns of the original (0-based, ascending, the bias not listed): a
// trainer's vectors and cuts on it take memory in the non-zeros, not in the largest feature
// index (issue 56). A column without a value has weight 0 in any trained model, so training on
// the compact problem learns the same theta.
struct CompactProblem {
  BinaryProblem problem;
  std::vector<long> columns;
};
CompactProblem compact_columns(const BinaryProblem& problem);

// Throws mpg::Error unless lambda is a positive finite number, as the certified trainers need
// (`trainer` names one); only lambda = 0 is pointed to --optimizer lbfgs, which takes it.
void require_certified_lambda(const std::string& trainer, double lambda);

// Phi(x, y) = sum_{i in y} x_i (bias included: it is the last column of x).
Eigen::VectorXd features_of(const SparseRowMatrix& x, const BinaryAction& action);

// f(theta) and its gradient for one training file (see the header comment).
class BinaryMpgObjective : public Objective {
 public:
  BinaryMpgObjective(const BinaryProblem& problem, MetricSettings settings, double lambda,
                     DoubleOracleOptions game_options);

  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override;

  const Eigen::VectorXd& gold_features() const { return gold_features_; }

  // Statistics over all games solved so far.
  const GameStatistics& statistics() const { return statistics_; }

 private:
  const BinaryProblem& problem_;
  MetricSettings settings_;
  double lambda_;
  DoubleOracleOptions game_options_;
  BinaryAction gold_;
  Eigen::VectorXd gold_features_;  // Phi(x, y_gold)
  // The previous equilibrium's supports seed the next game (theta moves little between calls).
  std::vector<BinaryAction> warm_predictor_;
  std::vector<BinaryAction> warm_adversary_;
  GameStatistics statistics_;
};

struct BinaryModel {
  MetricSettings settings;
  double lambda = 0.0;
  double bias = 1.0;
  double positive_label = 1.0;
  long feature_count = 0;  // d, without the bias
  Eigen::VectorXd theta;   // d + 1 weights, bias last; with `columns`, one per listed column and the bias
  // Empty: theta is dense. Else the columns (0-based, ascending) theta's weights belong to, every
  // other column weighing 0 (a model trained on a CompactProblem; its file lists them 1-based
  // under "theta_columns", version 2).
  std::vector<long> columns;

  // A learned model: theta holds d + 1 weights, the bias last.
  static BinaryModel trained(const MetricSettings& settings, double lambda, Eigen::VectorXd theta);

  nlohmann::json to_json() const;
  static BinaryModel from_json(const nlohmann::json& json, const std::string& source);
  // Reads a model file written by `mpg train`; throws mpg::InputError naming the file.
  static BinaryModel read(const std::string& path);
  // The text of a model file, validated whole (every key, its type and range) before any use.
  static BinaryModel parse(const std::string& text, const std::string& source);
  // theta laid out for a file with `features` columns before the bias: the weights of its first
  // d columns, zeros for columns the model has no weight for, the bias weight last.
  Eigen::VectorXd aligned_theta(long features) const;
};

// Training by a gradient method over exactly solved games (train_binary_mpg): the optimizer's
// summary and the games' statistics.
struct TrainSummary : GameStatistics {
  OptimizerSummary optimizer;

  bool converged() const { return optimizer.converged(); }
  nlohmann::json to_json() const;
  // "<converged|stopped> after <n> iterations (<why>), objective <f>, <games> games (...), <s> s".
  std::string report() const;
};

// Where the optimizer starts. At theta = 0 every potential is equal, the most symmetric game:
// the F1 equilibrium then mixes over all n singletons (value 2/(n+3), digest §2.3), which no
// double oracle solves quickly for large n. The objective is convex, so the start changes only
// the path: by default it is the unit step along Phi(x, y_gold), the steepest-descent direction
// of f at 0 up to the O(1/n) term E_Q*[Phi].
enum class TrainStart { gold_direction, zero };
TrainStart parse_train_start(const std::string& name);  // "gold_direction" | "zero"
std::string to_string(TrainStart start);

struct TrainOptions {
  double lambda = 0.0;
  TrainStart start = TrainStart::gold_direction;
  OptimizerOptions optimizer;
  DoubleOracleOptions game;
};

BinaryModel train_binary_mpg(const BinaryProblem& problem, const MetricSettings& settings,
                             const TrainOptions& options, TrainSummary* summary = nullptr);

// How a binary game is solved for a prediction.
//   automatic:     the metric's exact equilibrium where its game has one (P@k's closed form), else
//                  its solver over marginals where it has one (F1), else the double oracle;
//   double_oracle: the metric's exact equilibrium where its game has one
//                  (BinaryGame::exact_equilibrium, e.g. P@k's closed form), else the double oracle;
//   marginals:     the metric's solver over marginals (BinaryGame::solve_over_marginals; F1), an
//                  mpg::Error for a metric without one.
enum class BinaryGameSolver { automatic, double_oracle, marginals };
BinaryGameSolver parse_binary_game_solver(const std::string& name);  // "auto" | "double_oracle" | "marginals"
std::string to_string(BinaryGameSolver solver);

// Which pure action is the prediction of an F1 model (docs/methods.md, "The decision (F1)"):
//   maximin:   the pure action with the best guarantee min_y F1(a, y) - psi(y)
//              (lib/metrics/f1_decision.hpp): a function of psi alone, so no solver or solver
//              setting can change it;
//   likeliest: the papers' rule, the likeliest action of the predictor strategy the solver
//              returns; the predictor's optimal strategies form a polytope, so it depends on
//              which of them a solver lands on.
// Other metrics use their equilibrium's likeliest action (P@k: the top k by psi, which is also its
// maximin action).
enum class DecisionRule { maximin, likeliest };
DecisionRule parse_decision_rule(const std::string& name);  // "maximin" | "likeliest"
std::string to_string(DecisionRule rule);

struct BinaryPredictOptions {
  BinaryGameSolver solver = BinaryGameSolver::automatic;
  DecisionRule decision = DecisionRule::maximin;
  // Also the tolerance an exact equilibrium's certificate must meet to count as converged.
  DoubleOracleOptions double_oracle;
  MarginalSolverOptions marginals;
};

// The summary of whichever solver solved a prediction's game, with the accessors they share.
class BinaryGameSummary {
 public:
  using Summary = std::variant<DoubleOracleSummary, ExactSolveSummary, MarginalSolverSummary>;
  BinaryGameSummary() = default;
  explicit BinaryGameSummary(Summary summary) : summary_(std::move(summary)) {}

  const Summary& summary() const { return summary_; }
  // "double oracle", the exact method's name (e.g. "closed form"), or "marginals".
  std::string solver() const;
  bool converged() const;
  int iterations() const;  // double-oracle iterations, rounds over marginals; 0 for an exact solve
  double gap() const;
  double seconds() const;
  nlohmann::json to_json() const;  // the solver's summary and "solver"
  std::string report() const;      // the solver's one-line report

 private:
  Summary summary_;
};

struct BinaryPrediction {
  BinaryAction action;           // the prediction, by options.decision
  DecisionRule decision = DecisionRule::likeliest;  // the rule that chose `action`
  double guarantee = std::numeric_limits<double>::quiet_NaN();  // maximin: min_y metric(action, y) - psi(y) (exact)
  BinaryAction likeliest_action; // the likeliest action of the solver's predictor strategy
  double likeliest_score = 0.0;  // its metric against the gold labels
  double probability = 0.0;      // its probability in that strategy
  Eigen::VectorXd marginals;     // P(Y_hat_i = 1) under the equilibrium strategy
  double score = 0.0;            // metric of `action` against the gold labels
  double expected_score = 0.0;   // E_{P*}[metric(Y_hat, y_gold)]
  std::size_t k = 0;             // the metric's k on this file (metric_k), 0 if it has none
  BinaryGameSummary game;
};

// Plays the test file's game with the learned theta (no gold in the seed sets).
BinaryPrediction predict_binary_mpg(const BinaryModel& model, const BinaryProblem& problem,
                                    const BinaryPredictOptions& options = {});

}  // namespace mpg
