// The cost_sensitive family's own header (private to lib/harness/families/cost_sensitive*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "baselines/cost_sensitive_learners.hpp"
#include "lib/base/error.hpp"
#include "lib/data/adult.hpp"
#include "lib/data/content_split.hpp"
#include "lib/data/feature_scaling.hpp"
#include "lib/data/galaxy.hpp"
#include "lib/data/multilabel.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"

namespace mpg::harness::cost_sensitive_impl {

using nlohmann::json;

// ---- Methods -----------------------------------------------------------------------------------

json powers_of_two(int from, int to);

// A list parameter with a default (trained inside one cell, not one cell per value).
Parameter list_parameter(std::string name, json default_value, double low, double high, std::string help);

ParameterTable cost_grid_parameters(bool cost_sensitive);

const std::vector<MethodKind>& cost_sensitive_methods();

bool is_kernel(const std::string& kind);

std::vector<FVariant> variants_of(const std::string& kind);

// ---- Data --------------------------------------------------------------------------------------

// A data set as loaded once; each split's parts are cut from it in the cell (content-keyed).
struct Dataset {
  std::string label;
  std::string source;    // "registry adult_uci (a9a)" or "generated (galaxy)"
  std::string fidelity;  // the registry's "matches", or the generator's description
  bool exact = false;    // the thesis' data (a tolerance applies)
  bool multilabel = false;
  std::vector<std::string> hashes;
  std::vector<int> splits;
  long features = 0;  // before the constant feature
  long labels = 1;
  // Fixed train / test files (Adult, Scene, Yeast, Siam's row ranges).
  SparseRowMatrix train, test;
  std::vector<std::vector<int>> train_labels, test_labels;
  // Data sets without a test set (RCV1 subsets): split k uses subsets[k - 1], 1/4 held out.
  std::vector<MultilabelData> subsets;
  // Generated (Galaxy): fresh samples per split.
  long generated_train = 0, generated_test = 0;
};

// One split's parts for binary relevance.
struct SplitParts {
  SplitFeatures features;
  std::vector<std::vector<int>> validation_labels, test_labels;
};

constexpr double kValidationFraction = 1.0 / 3.0;  // "1/3 of training held out for validation"
constexpr double kTestFraction = 0.25;              // data sets without a test set
constexpr std::uint64_t kTestSeedOffset = 7000;     // seed of split k's test part: 7000 + k
constexpr std::uint64_t kGalaxyTrainSeed = 1000, kGalaxyTestSeed = 2000;

std::vector<int> binary_labels(const std::vector<double>& raw);

std::vector<std::vector<int>> select_columns(const std::vector<std::vector<int>>& columns, const std::vector<long>& rows);

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d, double bias,
                                      const std::vector<int>& default_splits);

// Split k of a data set: test set (fixed, generated, or 1/4 of subset k), then 1/3 of the
// training data held out for validation, both content-keyed (row order does not matter); then
// the spec's `feature_scaling` (lib/data/feature_scaling.hpp; the thesis states none) fitted on the
// training part (the 2/3 the models are trained on), the constant feature left out.
SplitParts make_split(const Dataset& d, int split, double bias, FeatureScaling scaling = FeatureScaling::none);

// Table 2.2's attributes of a data set, computed from its data (split 1 for generated data and
// subsets): training and test sizes, features, and the min / max label frequency in training.
struct Attributes {
  long train = 0, test = 0;
  double min_frequency = 0.0, max_frequency = 0.0;  // percent
  double positive_ratio = 0.0;                      // positives / negatives (binary data)
};

Attributes attributes_of(const Dataset& d, double bias);

double thread_cpu_seconds();

// ---- Selection over cached grids ---------------------------------------------------------------

// The measures of the tables: binary F (Table 2.3), macro-F (2.4, 2.5), micro-F C_min and F_max
// (2.6, 2.7).
enum class Measure { f1, macro, micro_cmin, micro_fmax };

struct Selected {
  double test_f = 0.0;        // fraction
  std::string choice;         // "t=0.3 C=2" (binary and C_min; macro: the number of labels)
};

std::string choice_text(const Choice& c);

// A split's grids: `grid` for binary F, macro-F and F_max; `micro` for C_min (the same grid
// unless the cost search was bracketed per label on multilabel data).
struct SplitGrids {
  GridEvaluation grid, micro;
};

Selected select_entry(const SplitGrids& g, Measure measure, FVariant variant, FSelection rule, double empty_f);

// ---- The experiment ----------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  int split;
  std::string method;  // spec label
  std::string kind;
  double gamma = 0.0;
  bool keep_weights = false;  // Figure 2.3: the cell also caches every model's weights
  bool full_micro = false;    // Figure 2.4: the cell also runs the pooled grid over every cost t
};

// The spec's `figures` entry for a figure ("2.3", "2.4"): its data sets and split, or nullopt.
struct FigureSpec {
  std::vector<std::string> datasets;
  int split = 1;
};
std::optional<FigureSpec> figure_spec(const json& spec, const std::string& figure);

class CostSensitiveRun : public FamilyRun {
 public:
  explicit CostSensitiveRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  // Selection is over the cached grid inside the tables (every variant and rule from the same cells).
  std::vector<std::pair<std::string, double>> selection(std::size_t, const json&) const override { return {}; }
  std::string validation_line(const json& v) const override {
    return fmt::format("{} trainings ({} not converged), {:.1f} s CPU", v["trainings"].get<long>(),
                       v["not_converged"].get<long>(), v["cpu_seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override;

 private:
  // The figures' files and text (lib/harness/families/cost_sensitive_figures.cpp).
  void figure_2_3(const Outcome& outcome, Tables& out, std::string& md) const;
  void figure_2_4(const Outcome& outcome, Tables& out, std::string& md, Claims& claims) const;
  std::unique_ptr<CostSensitiveLearner> make_learner(const Cell& cell, const ParameterValues& p,
                                                     const SplitParts& parts, std::vector<Eigen::MatrixXd>& dense) const;

  json spec_;
  double bias_;
  FeatureScaling scaling_ = FeatureScaling::none;
  double empty_f_;
  FSelection rule_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

// ---- Tables ------------------------------------------------------------------------------------

// One row of a thesis table: a data set (with its measure) and a learner; per variant the mean
// test F over splits under the spec's rule and under the other rule, and the sd over splits.
struct VariantResult {
  double mean = 0.0, sd = 0.0, other_rule = 0.0;
  std::vector<double> per_split;     // test F (%) of each split: the units of the row's interval
  std::vector<std::string> choices;  // per split (binary / C_min)
};

struct MethodTotals {
  long trainings = 0, full = 0, not_converged = 0;
  double cpu_seconds = 0.0;
  int cells = 0;
};

double mean_of(const std::vector<double>& v);

double sd_of(const std::vector<double>& v);

std::string one(double x);

struct TableSpec {
  std::string id;  // "2.3"
  std::string title;
  bool kernel;
};

}  // namespace mpg::harness::cost_sensitive_impl
