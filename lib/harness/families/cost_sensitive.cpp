// Family "cost_sensitive" (Parambath's thesis ch. 2, Tables 2.2-2.7): F-measures by reduction to
// cost-sensitive classification (baselines/f_measure_reduction.hpp, Algorithms 1-4). A cell is one
// (data set, split, method[, gamma]): it trains the whole cost grid t x C of every label on the
// training part (2/3 of the training data), scores the validation part (1/3) and the test set,
// and caches only confusion counts per model. Every table entry — the variants "-", "T", "CS",
// "CS&T", binary F, macro-F (each label tuned alone), micro-F "C_min" (shared t, C and one global
// threshold, Alg. 3) and "F_max" (the macro choices scored by micro-F), under the two-loop
// selection of Algorithms 1-4 or one-grid maximum validation F — is then a selection over the
// cached counts, averaged over the splits. There is no test phase: a cell already scores the test
// set, and the selection uses validation counts only.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "baselines/cost_sensitive_learners.hpp"
#include "lib/base/error.hpp"
#include "lib/data/adult.hpp"
#include "lib/data/content_split.hpp"
#include "lib/data/galaxy.hpp"
#include "lib/data/multilabel.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"

namespace mpg::harness {
namespace {

using nlohmann::json;

// ---- Methods -----------------------------------------------------------------------------------

json powers_of_two(int from, int to) {
  json values = json::array();
  for (int k = from; k <= to; ++k) values.push_back(std::ldexp(1.0, k));
  return values;
}

// A list parameter with a default (trained inside one cell, not one cell per value).
Parameter list_parameter(std::string name, json default_value, double low, double high, std::string help) {
  Parameter p = grid_parameter(std::move(name), low, high, std::move(help));
  p.default_value = std::move(default_value);
  return p;
}

ParameterTable cost_grid_parameters(bool cost_sensitive) {
  std::vector<Parameter> entries = {
      list_parameter("C", powers_of_two(-6, 6), 0.0, 1e9,
                     "regularization values C, increasing; all of them are trained inside one cell (warm starts "
                     "along C); the thesis' grid is 2^-6..2^6")};
  if (cost_sensitive) {
    entries.push_back(list_parameter("costs", json(default_cost_grid()), 0.0, 2.0,
                                     "cost parameters t in (0, 2), increasing, containing 1 (the cost-insensitive "
                                     "model of \"-\" and \"T\"); FN weight (2 - t) / t, FP weight 1; the thesis' "
                                     "grid is 0.1, 0.2, ..., 1.9"));
    entries.push_back(choice_parameter(
        "search", "full", {"full", "bracket"},
        "`full`: every t (the thesis' experiments); `bracket`: the bracketing search of §2.5.4 over the t grid (at "
        "most about half of it), maximizing the best validation F (CS&T) over C — per label for binary F, macro-F "
        "and F_max, and a second search over the pooled micro-F for C_min (multilabel data: two grids per cell)"));
  }
  return ParameterTable(std::move(entries));
}

const std::vector<MethodKind>& cost_sensitive_methods() {
  static const std::vector<MethodKind> kinds = {
      {"svm",
       "Class-weighted L2-regularized hinge-loss linear SVM, LIBLINEAR -s 3's problem with U_i = C c_{y_i}, solved by "
       "the in-tree dual coordinate descent (baselines/weighted_svm.hpp) to a certified duality gap, warm-started "
       "along C. The constant feature is the problem's offset. Debian's LIBLINEAR -s 3 is kind `liblinear_svm`.",
       ParameterTable::join(
           cost_grid_parameters(true),
           ParameterTable({integer_parameter("max_passes", 50000, 1, 1000000000,
                                             "cap on coordinate-descent passes of one training (the thesis raised "
                                             "LIBLINEAR's 1,000 to 50,000); reaching it is counted as not converged"),
                           number_parameter("relative_gap", 1e-4, 0.0, 1.0,
                                            "stop when the duality gap <= this x the primal objective", true),
                           flag_parameter("warm_start", true, "start each C from the model of the previous C")}))},
      {"liblinear_svm",
       "The same weighted hinge SVM by Debian's LIBLINEAR 2.3 -s 3 (1,000-pass cap fixed at compile time, eps 0.1, "
       "no warm start), for comparison only: it stops at its cap on problems with the constant feature 100.",
       ParameterTable::join(cost_grid_parameters(true),
                            ParameterTable({number_parameter("epsilon", 0.1, 0.0, 1.0, "LIBLINEAR's -e", true)}))},
      {"lr",
       "Class-weighted L2-regularized logistic regression, Debian LIBLINEAR -s 0 (trust-region Newton); the constant "
       "feature is a regularized feature as with LIBLINEAR's appended column.",
       ParameterTable::join(
           cost_grid_parameters(true),
           ParameterTable({number_parameter("epsilon", 0.01, 0.0, 1.0, "LIBLINEAR's -e (its default for -s 0)", true),
                           flag_parameter("warm_start", false,
                                          "start each C from the previous C's weights (off: LIBLINEAR 2.3's stopping "
                                          "test is relative to the start point's gradient, so warm starts cost more "
                                          "Newton steps)")}))},
      {"rbf_svm",
       "Class-weighted RBF-kernel SVM without offset (thesis §2.5: \"trained without a bias\"): box-constrained dual "
       "0 <= a_i <= C c_{y_i} solved by greedy coordinate descent with subspace Newton steps on the free set "
       "(baselines/kernel_svm.hpp), one cell per gamma "
       "with its Gram matrix shared by every t, C and label; tables select over gamma too.",
       ParameterTable::join(
           cost_grid_parameters(true),
           ParameterTable({list_parameter("gamma", powers_of_two(-6, 6), 0.0, 1e9,
                                          "RBF widths γ of exp(−γ ‖x − z‖²), one cell per value; the thesis' grid "
                                          "is 2^-6..2^6"),
                           number_parameter("epsilon", 1e-3, 0.0, 1.0,
                                            "stop when the largest absolute projected gradient <= this (LIBSVM's -e)", true),
                           integer_parameter("max_updates", 10000000, 1, 1000000000000L,
                                             "cap on coordinate updates of one training (not converged when reached)"),
                           flag_parameter("subspace_newton", true,
                                          "interleave Newton steps on the free set with the coordinate updates "
                                          "(off: plain coordinate descent, the same optimum to epsilon, 33x the "
                                          "CPU of a Yeast cell at gamma 2^-6)"),
                           flag_parameter("warm_start", true, "start each C from the duals of the previous C")}))},
      {"svm_perf",
       "SVMperf's F1 structural SVM (baselines/structured_svm.hpp, one-slack cutting planes), cost-insensitive only: "
       "the table's \"-\" and \"T\" columns. C is in SVMperf's units (the thesis does not state its convention).",
       ParameterTable::join(
           cost_grid_parameters(false),
           ParameterTable({number_parameter("epsilon", 1e-3, 0.0, 1.0, "cutting-plane tolerance (SVMperf's -e 0.1 %)",
                                            true),
                           integer_parameter("max_iterations", 2000, 1, 1000000000, "cutting-plane iterations"),
                           flag_parameter("warm_start", false,
                                          "start each C from the cuts of the previous C: valid at every C, the same "
                                          "optimum within the certified tolerance, fewer iterations; the test F then "
                                          "moves within what that tolerance allows (off: the tables' numbers)")}))},
  };
  return kinds;
}

bool is_kernel(const std::string& kind) { return kind == "rbf_svm"; }

std::vector<FVariant> variants_of(const std::string& kind) {
  if (kind == "svm_perf") return {FVariant::plain, FVariant::thresholded};
  return {FVariant::plain, FVariant::thresholded, FVariant::cost_sensitive, FVariant::cost_sensitive_thresholded};
}

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

std::vector<int> binary_labels(const std::vector<double>& raw) {
  std::vector<int> out;
  out.reserve(raw.size());
  for (double l : raw) out.push_back(l > 0 ? 1 : 0);
  return out;
}

std::vector<std::vector<int>> select_columns(const std::vector<std::vector<int>>& columns, const std::vector<long>& rows) {
  std::vector<std::vector<int>> out;
  for (const auto& c : columns) out.push_back(select_entries(c, rows));
  return out;
}

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d, double bias,
                                      const std::vector<int>& default_splits) {
  auto data = std::make_unique<Dataset>();
  data->label = label;
  data->splits = d.value("splits", default_splits);
  if (d.contains("generator")) {
    data->source = "generated (galaxy, lib/data/galaxy.hpp)";
    data->fidelity = "substitute geometry: four isotropic Gaussians (sd 0.5) at (-2, 2), (-2, -2), (2, 2), (2, -2) "
                     "with the thesis' masses and positive rates; the thesis gives no geometry";
    data->generated_train = d.value("train", 18000L);
    data->generated_test = d.value("test", 7000L);
    data->features = 2;
    data->hashes = {fmt::format("galaxy {} {}", data->generated_train, data->generated_test)};
    return data;
  }
  const RegistryChoice choice = registry_choice(d);
  data->source = fmt::format("registry `{}` (`{}`)", choice.dataset, choice.variant);
  data->fidelity = choice.fidelity();
  data->exact = choice.exact();
  const std::string format = choice.entry().value("format", std::string());
  const std::string what = fmt::format("dataset '{}' ({})", choice.dataset, choice.variant);
  auto verified = [&](const json& file, const std::string& part) {
    VerifiedFile f = read_verified_file(file, what + " " + part);
    data->hashes.push_back(f.sha256);
    return f.path;  // parsed from the file by its reader; the hash is what was needed
  };
  if (format == "adult") {
    LibsvmReadOptions o;
    o.bias = bias;
    const LibsvmData train = read_adult(verified(choice.variant_entry().at("train"), "train"), o);
    const LibsvmData test = read_adult(verified(choice.variant_entry().at("test"), "test"), o);
    data->train = train.features;
    data->test = test.features;
    data->train_labels = {binary_labels(train.labels)};
    data->test_labels = {binary_labels(test.labels)};
    data->features = kAdultFeatures;
    return data;
  }
  data->multilabel = true;
  MultilabelReadOptions o;
  o.labels = choice.variant_entry().value("labels", choice.entry().value("labels", 0L));
  o.min_features = choice.entry().value("features", 0L);
  o.bias = bias;
  data->labels = o.labels;
  if (format == "multilabel_csv") {
    const MultilabelData train = read_multilabel_csv(verified(choice.variant_entry().at("train"), "train"), o);
    const MultilabelData test = read_multilabel_csv(verified(choice.variant_entry().at("test"), "test"), o);
    data->train = train.features;
    data->test = test.features;
    data->train_labels = train.labels;
    data->test_labels = test.labels;
  } else {  // multilabel_svm: one file split by rows (train_rows), or subsets without a test set
    const json& subsets = choice.variant_entry().at("subsets");
    const long train_rows = choice.variant_entry().value("train_rows", 0L);
    for (std::size_t s = 0; s < subsets.size(); ++s) {
      MultilabelData part = read_multilabel_svm(verified(subsets[s], fmt::format("subset {}", s + 1)), o);
      if (train_rows == 0) {
        data->subsets.push_back(std::move(part));
        continue;
      }
      if (part.examples() <= train_rows)
        throw InputError(part.path, fmt::format("has {} rows; the registry's train_rows is {}", part.examples(), train_rows));
      std::vector<long> train, test;
      for (long i = 0; i < part.examples(); ++i) (i < train_rows ? train : test).push_back(i);
      data->train = select_rows(part.features, train);
      data->test = select_rows(part.features, test);
      data->train_labels = select_columns(part.labels, train);
      data->test_labels = select_columns(part.labels, test);
    }
  }
  const SparseRowMatrix& any = data->subsets.empty() ? data->train : data->subsets.front().features;
  data->features = any.cols() - (bias > 0 ? 1 : 0);
  return data;
}

// Split k of a data set: test set (fixed, generated, or 1/4 of subset k), then 1/3 of the
// training data held out for validation, both content-keyed (row order does not matter).
SplitParts make_split(const Dataset& d, int split, double bias) {
  SparseRowMatrix train, test;
  std::vector<std::vector<int>> train_labels, test_labels;
  if (d.generated_train > 0) {
    const GalaxySample tr = generate_galaxy(d.generated_train, kGalaxyTrainSeed + static_cast<std::uint64_t>(split));
    const GalaxySample te = generate_galaxy(d.generated_test, kGalaxyTestSeed + static_cast<std::uint64_t>(split));
    train = tr.features(bias);
    test = te.features(bias);
    train_labels = {tr.labels};
    test_labels = {te.labels};
  } else if (!d.subsets.empty()) {
    const MultilabelData& all = d.subsets.at(static_cast<std::size_t>(split - 1));
    const ContentSplit parts =
        content_split(content_keys(all.features, all.labels, kTestSeedOffset + static_cast<std::uint64_t>(split)),
                      kTestFraction);
    train = select_rows(all.features, parts.kept);
    test = select_rows(all.features, parts.held_out);
    train_labels = select_columns(all.labels, parts.kept);
    test_labels = select_columns(all.labels, parts.held_out);
  } else {
    train = d.train;
    test = d.test;
    train_labels = d.train_labels;
    test_labels = d.test_labels;
  }
  const ContentSplit parts =
      content_split(content_keys(train, train_labels, static_cast<std::uint64_t>(split)), kValidationFraction);
  SplitParts out;
  out.features.train = select_rows(train, parts.kept);
  out.features.validation = select_rows(train, parts.held_out);
  out.features.test = std::move(test);
  out.features.train_labels = select_columns(train_labels, parts.kept);
  out.validation_labels = select_columns(train_labels, parts.held_out);
  out.test_labels = std::move(test_labels);
  return out;
}

// Table 2.2's attributes of a data set, computed from its data (split 1 for generated data and
// subsets): training and test sizes, features, and the min / max label frequency in training.
struct Attributes {
  long train = 0, test = 0;
  double min_frequency = 0.0, max_frequency = 0.0;  // percent
  double positive_ratio = 0.0;                      // positives / negatives (binary data)
};

Attributes attributes_of(const Dataset& d, double bias) {
  Attributes a;
  std::vector<std::vector<int>> labels;
  if (d.generated_train > 0 || !d.subsets.empty()) {
    const SplitParts parts = make_split(d, 1, bias);
    a.train = parts.features.train.rows() + parts.features.validation.rows();
    a.test = parts.features.test.rows();
    for (std::size_t k = 0; k < parts.features.train_labels.size(); ++k) {
      std::vector<int> all = parts.features.train_labels[k];
      all.insert(all.end(), parts.validation_labels[k].begin(), parts.validation_labels[k].end());
      labels.push_back(std::move(all));
    }
  } else {
    a.train = d.train.rows();
    a.test = d.test.rows();
    labels = d.train_labels;
  }
  a.min_frequency = 100.0;
  for (const auto& column : labels) {
    long positives = 0;
    for (int y : column) positives += y;
    const double f = column.empty() ? 0.0 : 100.0 * static_cast<double>(positives) / static_cast<double>(column.size());
    a.min_frequency = std::min(a.min_frequency, f);
    a.max_frequency = std::max(a.max_frequency, f);
    const long negatives = static_cast<long>(column.size()) - positives;
    a.positive_ratio = negatives > 0 ? static_cast<double>(positives) / static_cast<double>(negatives) : 0.0;
  }
  return a;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// ---- Selection over cached grids ---------------------------------------------------------------

// The measures of the tables: binary F (Table 2.3), macro-F (2.4, 2.5), micro-F C_min and F_max
// (2.6, 2.7).
enum class Measure { f1, macro, micro_cmin, micro_fmax };

struct Selected {
  double test_f = 0.0;        // fraction
  std::string choice;         // "t=0.3 C=2" (binary and C_min; macro: the number of labels)
};

std::string choice_text(const Choice& c) {
  std::string text = fmt::format("t={:g} C={:g}", c.t, c.C);
  if (c.gamma > 0) text += fmt::format(" γ={:g}", c.gamma);
  if (c.thresholded) text += fmt::format(" θ={:.3g}", c.threshold);
  return text;
}

// A split's grids: `grid` for binary F, macro-F and F_max; `micro` for C_min (the same grid
// unless the cost search was bracketed per label on multilabel data).
struct SplitGrids {
  GridEvaluation grid, micro;
};

Selected select_entry(const SplitGrids& g, Measure measure, FVariant variant, FSelection rule, double empty_f) {
  SelectionOptions o;
  o.variant = variant;
  o.rule = rule;
  o.empty_f = empty_f;
  switch (measure) {
    case Measure::f1: {
      const Choice c = select_binary(g.grid.models, o);
      return {c.test_f, choice_text(c)};
    }
    case Measure::macro: return {select_macro(g.grid.models, g.grid.label_count, o).test_f, ""};
    case Measure::micro_fmax: return {select_macro(g.grid.models, g.grid.label_count, o).test_micro_f, ""};
    case Measure::micro_cmin: {
      const Choice c = select_micro(g.micro.pooled, o);
      return {c.test_f, choice_text(c)};
    }
  }
  return {};
}

// ---- The experiment ----------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  int split;
  std::string method;  // spec label
  std::string kind;
  double gamma = 0.0;
};

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
  std::unique_ptr<CostSensitiveLearner> make_learner(const Cell& cell, const ParameterValues& p,
                                                     const SplitParts& parts, std::vector<Eigen::MatrixXd>& dense) const;

  json spec_;
  double bias_;
  double empty_f_;
  FSelection rule_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

CostSensitiveRun::CostSensitiveRun(json spec) : spec_(std::move(spec)) {
  bias_ = spec_.value("constant_feature", 100.0);
  empty_f_ = spec_.value("empty_f", 1.0);
  rule_ = parse_f_selection(spec_.value("selection", std::string("two_loop")));
  const std::vector<int> splits = spec_.value("splits", std::vector<int>{1, 2, 3, 4, 5});
  for (const auto& [label, d] : spec_["datasets"].items()) datasets_.push_back(load_dataset(label, d, bias_, splits));
  for (const auto& d : datasets_)
    for (int split : d->splits)
      for (const auto& [method, m] : spec_["methods"].items()) {
        const std::string kind = m["kind"].get<std::string>();
        const ParameterValues values(family_named("cost_sensitive").method(kind).parameters, m);
        const json key = {{"data", {d->source, d->hashes}},
                          {"split", split},
                          {"protocol",
                           {{"validation_fraction", kValidationFraction},
                            {"test_fraction", kTestFraction},
                            {"constant_feature", bias_},
                            {"empty_f", empty_f_}}}};
        // Cost of a cell, for the launch order: labels x examples x grid size.
        const double size = static_cast<double>(d->labels) *
                            static_cast<double>(d->train.rows() + d->generated_train +
                                                (d->subsets.empty() ? 0 : d->subsets.front().examples())) *
                            static_cast<double>(values.grid("C").size());
        const int priority = static_cast<int>(std::log2(1.0 + size));
        const std::vector<double> gammas = is_kernel(kind) ? values.grid("gamma") : std::vector<double>{0.0};
        for (double gamma : gammas) {
          cells_.push_back({d.get(), split, method, kind, gamma});
          plans_.push_back({method,
                            fmt::format("{:<7} split {} {:<8}{}", d->label, split, method,
                                        gamma > 0 ? fmt::format(" γ={:g}", gamma) : ""),
                            key, gamma > 0 ? values.with("gamma", gamma) : values, priority});
        }
      }
}

std::unique_ptr<CostSensitiveLearner> CostSensitiveRun::make_learner(const Cell& cell, const ParameterValues& p,
                                                                     const SplitParts& parts,
                                                                     std::vector<Eigen::MatrixXd>& dense) const {
  if (cell.kind == "svm" || cell.kind == "liblinear_svm" || cell.kind == "lr") {
    LinearLearnerOptions o;
    o.kind = parse_linear_learner(cell.kind);
    if (cell.kind == "svm") {
      o.svm.offset_feature = bias_;
      o.svm.max_iterations = p.integer("max_passes");
      o.svm.relative_gap = p.number("relative_gap");
    } else {
      o.liblinear.epsilon = p.number("epsilon");
    }
    return std::make_unique<LinearCostSensitiveLearner>(parts.features, o);
  }
  if (cell.kind == "svm_perf") {
    StructuredSvmOptions o;
    o.epsilon = p.number("epsilon");
    o.max_iterations = static_cast<int>(p.integer("max_iterations"));
    return std::make_unique<StructuredSvmCostLearner>(parts.features, o);
  }
  // RBF: dense points without the constant feature (it cancels in ||x - z||).
  const long columns = parts.features.train.cols() - (bias_ > 0 ? 1 : 0);
  for (const SparseRowMatrix* m : {&parts.features.train, &parts.features.validation, &parts.features.test})
    dense.push_back(Eigen::MatrixXd(*m).leftCols(columns));
  KernelSvmOptions o;
  o.epsilon = p.number("epsilon");
  o.max_iterations = p.integer("max_updates");
  o.subspace_newton = p.flag("subspace_newton");
  return std::make_unique<KernelCostSensitiveLearner>(dense[0], parts.features.train_labels, dense[1], dense[2],
                                                      cell.gamma, o);
}

namespace {

// Replays the trainings already done in a cell. The two bracketing searches of a multilabel cell
// (per label for macro-F, then pooled for C_min) probe many of the same (label, t) columns, at
// least t = 0.1, 1.9 and 1 for every label. A column's trainings do not depend on what ran before
// it (its first C starts cold, every other C warm from the previous C of the same column), so a
// replayed training returns exactly what retraining would.
class ReplayingLearner final : public CostSensitiveLearner {
 public:
  explicit ReplayingLearner(CostSensitiveLearner& inner) : inner_(inner) {}
  TrainedScores train(int label, double positive_weight, double C, bool warm) override {
    const auto key = std::make_tuple(label, positive_weight, C, warm);
    if (const auto found = done_.find(key); found != done_.end()) {
      ++replayed_;
      if (!found->second.converged) ++replayed_not_converged_;
      return found->second;
    }
    return done_.emplace(key, inner_.train(label, positive_weight, C, warm)).first->second;
  }
  double gamma() const override { return inner_.gamma(); }
  long replayed() const { return replayed_; }
  long replayed_not_converged() const { return replayed_not_converged_; }

 private:
  CostSensitiveLearner& inner_;
  std::map<std::tuple<int, double, double, bool>, TrainedScores> done_;
  long replayed_ = 0, replayed_not_converged_ = 0;
};

}  // namespace

json CostSensitiveRun::validate(std::size_t index) const {
  const Cell& cell = cells_[index];
  const ParameterValues& p = plans_[index].parameters;
  const double cpu_start = thread_cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  const SplitParts parts = make_split(*cell.dataset, cell.split, bias_);
  std::vector<Eigen::MatrixXd> dense;
  const std::unique_ptr<CostSensitiveLearner> learner = make_learner(cell, p, parts, dense);
  CostGridOptions o;
  o.Cs = p.grid("C");
  o.costs = p.table().contains("costs") ? p.grid("costs") : std::vector<double>{1.0};
  o.empty_f = empty_f_;
  o.warm_start = p.table().contains("warm_start") && p.flag("warm_start");
  const bool bracket = p.table().contains("search") && p.choice("search") == "bracket";
  const bool multilabel = cell.dataset->multilabel;
  o.search = bracket ? CostSearch::bracket_per_label : CostSearch::full;
  // Bracketed multilabel cells run two searches (C_min brackets the pooled micro-F): the second
  // replays the columns the first trained.
  const bool two_searches = bracket && multilabel;
  ReplayingLearner replaying(*learner);
  CostSensitiveLearner& trainer = two_searches ? static_cast<CostSensitiveLearner&>(replaying) : *learner;
  const GridEvaluation grid = run_cost_grid(trainer, parts.validation_labels, parts.test_labels, o);
  json out = {{"grid", grid_to_json(grid)}};
  long trainings = grid.trainings, not_converged = grid.not_converged;
  if (two_searches) {
    o.search = CostSearch::bracket_pooled;
    const GridEvaluation micro = run_cost_grid(replaying, parts.validation_labels, parts.test_labels, o);
    out["micro_grid"] = grid_to_json(micro);
    // Trainings actually run: the replayed ones are not counted twice.
    trainings += micro.trainings - replaying.replayed();
    not_converged += micro.not_converged - replaying.replayed_not_converged();
    out["replayed_trainings"] = replaying.replayed();
  }
  const long full = static_cast<long>(parts.validation_labels.size() * o.costs.size() * o.Cs.size());
  out["trainings"] = trainings;
  out["full_grid_trainings"] = full;
  out["not_converged"] = not_converged;
  out["cpu_seconds"] = thread_cpu_seconds() - cpu_start;
  out["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return out;
}

// ---- Tables ------------------------------------------------------------------------------------

// One row of a thesis table: a data set (with its measure) and a learner; per variant the mean
// test F over splits under the spec's rule and under the other rule, and the sd over splits.
struct VariantResult {
  double mean = 0.0, sd = 0.0, other_rule = 0.0;
  std::vector<std::string> choices;  // per split (binary / C_min)
};

struct MethodTotals {
  long trainings = 0, full = 0, not_converged = 0;
  double cpu_seconds = 0.0;
  int cells = 0;
};

double mean_of(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double m = mean_of(v);
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::string one(double x) { return fmt::format("{:.1f}", x); }

struct TableSpec {
  std::string id;  // "2.3"
  std::string title;
  bool kernel;
};

Tables CostSensitiveRun::tables(const Outcome& outcome) const {
  const FSelection other = rule_ == FSelection::two_loop ? FSelection::max_f : FSelection::two_loop;
  const std::string rule_name = rule_ == FSelection::two_loop ? "two_loop" : "max_f";
  const std::string other_name = rule_ == FSelection::two_loop ? "max_f" : "two_loop";
  const json published = published_of(spec_);
  const double tolerance = tolerance_of(spec_, 1.0);

  // Grids per (data set, method, split): RBF cells of one split are merged over gamma.
  std::map<std::tuple<std::string, std::string, int>, std::vector<std::size_t>> groups;
  std::map<std::pair<std::string, std::string>, MethodTotals> totals;
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    groups[{cells_[i].dataset->label, cells_[i].method, cells_[i].split}].push_back(i);
    MethodTotals& t = totals[{cells_[i].dataset->label, cells_[i].method}];
    const json& v = outcome.validation[i];
    t.trainings += v["trainings"].get<long>();
    t.full += v["full_grid_trainings"].get<long>();
    t.not_converged += v["not_converged"].get<long>();
    t.cpu_seconds += v["cpu_seconds"].get<double>();
    ++t.cells;
  }
  auto split_grids = [&](const std::vector<std::size_t>& members) {
    std::vector<GridEvaluation> grids, micros;
    for (std::size_t i : members) {
      const json& v = outcome.validation[i];
      grids.push_back(grid_from_json(v["grid"]));
      micros.push_back(v.contains("micro_grid") ? grid_from_json(v["micro_grid"]) : grids.back());
    }
    return grids.size() == 1 ? SplitGrids{grids[0], micros[0]} : SplitGrids{merge_grids(grids), merge_grids(micros)};
  };

  // results[table row][method][variant]
  struct RowKey {
    std::string table, row;
    const Dataset* dataset;
    Measure measure;
  };
  std::vector<RowKey> rows;
  for (const auto& d : datasets_) {
    if (!d->multilabel) {
      rows.push_back({"2.3", d->label, d.get(), Measure::f1});
      continue;
    }
    for (bool kernel : {false, true}) {
      rows.push_back({kernel ? "2.5" : "2.4", d->label, d.get(), Measure::macro});
      rows.push_back({kernel ? "2.7" : "2.6", d->label + " C_min", d.get(), Measure::micro_cmin});
      rows.push_back({kernel ? "2.7" : "2.6", d->label + " F_max", d.get(), Measure::micro_fmax});
    }
  }
  std::map<std::string, std::map<std::string, std::map<std::string, VariantResult>>> results;  // table\nrow, method, variant
  // Methods in the thesis' column order (SVMperf, SVM, LR; RBF), then by label.
  std::vector<std::string> method_labels;
  for (const auto& [method, m] : spec_["methods"].items()) method_labels.push_back(method);
  auto column_rank = [&](const std::string& method) {
    const std::string kind = spec_["methods"][method]["kind"].get<std::string>();
    for (int k = 0; const char* known : {"svm_perf", "svm", "liblinear_svm", "lr", "rbf_svm"}) {
      if (kind == known) return k;
      ++k;
    }
    return 5;
  };
  std::stable_sort(method_labels.begin(), method_labels.end(),
                   [&](const std::string& a, const std::string& b) { return column_rank(a) < column_rank(b); });
  // Grids are parsed once per (data set, method, split).
  std::map<std::tuple<std::string, std::string, int>, SplitGrids> parsed;
  for (const auto& [key, members] : groups) parsed.emplace(key, split_grids(members));
  for (const RowKey& r : rows) {
    const bool kernel_table = r.table == "2.5" || r.table == "2.7";
    for (const auto& method : method_labels) {
      const std::string kind = spec_["methods"][method]["kind"].get<std::string>();
      if (is_kernel(kind) != kernel_table && r.table != "2.3") continue;  // binary data: every method in 2.3
      for (FVariant variant : variants_of(kind)) {
        std::vector<double> ours, theirs;
        VariantResult result;
        for (int split : r.dataset->splits) {
          const auto found = parsed.find({r.dataset->label, method, split});
          if (found == parsed.end()) continue;
          const Selected s = select_entry(found->second, r.measure, variant, rule_, empty_f_);
          ours.push_back(100.0 * s.test_f);
          theirs.push_back(100.0 * select_entry(found->second, r.measure, variant, other, empty_f_).test_f);
          if (!s.choice.empty()) result.choices.push_back(s.choice);
        }
        if (ours.empty()) continue;
        result.mean = mean_of(ours);
        result.sd = sd_of(ours);
        result.other_rule = mean_of(theirs);
        results[r.table + "\n" + r.row][method][f_variant_name(variant)] = result;
      }
    }
  }

  const std::vector<TableSpec> table_specs = {
      {"2.3", "Table 2.3: F1 (%) on binary data (an RBF method, which the thesis did not run here, adds columns)", false},
      {"2.4", "Table 2.4: macro-F1 MF1 (%), linear models", false},
      {"2.5", "Table 2.5: macro-F1 MF1 (%), RBF SVM without bias", true},
      {"2.6", "Table 2.6: micro-F1 mF1 (%), linear models (C_min: Alg. 3; F_max: the MF1 choices)", false},
      {"2.7", "Table 2.7: micro-F1 mF1 (%), RBF SVM without bias", true}};

  Tables out;
  std::string md = fmt::format(
      "Test F in % averaged over the splits; selection on the validation part only (1/3 of the training data) by "
      "**{}** ({}); the column `{}` gives the same cell under the other rule. \"-\": t = 1, score > 0; \"T\": t = 1, "
      "best validation threshold; \"CS\": every t, score > 0; \"CS&T\": every t, thresholded. Rows on substitute "
      "data (not the thesis' data, or Galaxy's chosen geometry) are marked *substitute* and are compared without a "
      "tolerance; the others within ±{} F point.\n\n",
      rule_name,
      rule_ == FSelection::two_loop
          ? "Algorithms 1-4: per actual cost the model of minimum validation cost, then the best (thresholded) "
            "validation F"
          : "one grid, maximum validation F",
      other_name, one(tolerance));
  ComparisonTable exact({{"table", "table"}, {"row", "data set"}, {"method", "method"}, {"variant", "variant"}},
                        {{"sd", "sd over splits", 1}, {other_name, other_name, 1}, {"splits", "splits", 0}}, tolerance,
                        1);
  ComparisonTable substitute({{"table", "table"}, {"row", "data set"}, {"method", "method"}, {"variant", "variant"}},
                             {{"thesis", "thesis (other data)", 1}, {"difference", "ours − thesis", 1},
                              {"sd", "sd over splits", 1}, {other_name, other_name, 1}, {"splits", "splits", 0}},
                             tolerance, 1);
  std::string csv = "table,row,method,variant,ours,sd,other_rule,published,substitute\n";
  json rows_json = json::array();
  for (const TableSpec& t : table_specs) {
    std::vector<std::string> table_rows;
    for (const RowKey& r : rows)
      if (r.table == t.id && results.count(t.id + "\n" + r.row)) table_rows.push_back(r.row);
    if (table_rows.empty()) continue;
    // The thesis' layout: one column per method and variant, "ours (published)".
    std::vector<std::pair<std::string, std::string>> columns;
    for (const auto& method : method_labels) {
      const std::string kind = spec_["methods"][method]["kind"].get<std::string>();
      if (is_kernel(kind) != t.kernel && t.id != "2.3") continue;
      for (FVariant v : variants_of(kind)) columns.push_back({method, f_variant_name(v)});
    }
    md += fmt::format("## {}\n\nours (thesis)\n\n| data set |", t.title);
    for (const auto& [method, variant] : columns) md += fmt::format(" {} {} |", method, variant);
    md += "\n|---|";
    for (std::size_t i = 0; i < columns.size(); ++i) md += "---|";
    md += "\n";
    for (const std::string& row : table_rows) {
      const RowKey& r = *std::find_if(rows.begin(), rows.end(), [&](const RowKey& k) { return k.table == t.id && k.row == row; });
      md += fmt::format("| {}{} |", row, r.dataset->exact ? "" : " *substitute*");
      for (const auto& [method, variant] : columns) {
        const auto& by_method = results[t.id + "\n" + row];
        const auto m = by_method.find(method);
        std::optional<double> pub;
        const std::string column = t.kernel ? variant : method + " " + variant;
        if (published.contains(t.id) && published[t.id].contains(row) && published[t.id][row].contains(column))
          pub = published[t.id][row][column].get<double>();
        if (m == by_method.end() || !m->second.count(variant)) {
          md += pub ? fmt::format(" – ({}) |", one(*pub)) : " – |";
          continue;
        }
        const VariantResult& v = m->second.at(variant);
        md += fmt::format(" {}{} |", one(v.mean), pub ? " (" + one(*pub) + ")" : "");
        csv += fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f},{},{}\n", t.id, row, method, variant, v.mean, v.sd,
                           v.other_rule, pub ? fmt::format("{:.1f}", *pub) : "", r.dataset->exact ? 0 : 1);
        const std::vector<std::string> ids = {t.id, row, method, variant};
        if (r.dataset->exact) {
          ComparisonTable::Row& cmp = exact.add(ids, v.mean, pub);
          cmp.extra = {{"sd", v.sd}, {other_name, v.other_rule}, {"splits", r.dataset->splits.size()}};
          const MethodTotals& tot = totals[{r.dataset->label, method}];
          if (tot.not_converged > 0)
            cmp.causes.push_back(fmt::format("{} of {} trainings not converged", tot.not_converged, tot.trainings));
          if (r.dataset->splits.size() < 5) cmp.causes.push_back(fmt::format("{} of 5 splits", r.dataset->splits.size()));
        } else {
          ComparisonTable::Row& cmp = substitute.add(ids, v.mean, std::nullopt);
          cmp.extra = {{"sd", v.sd}, {other_name, v.other_rule}, {"splits", r.dataset->splits.size()}};
          if (pub) {
            cmp.extra["thesis"] = *pub;
            cmp.extra["difference"] = v.mean - *pub;
          }
        }
        rows_json.push_back({{"table", t.id}, {"row", row}, {"method", method}, {"variant", variant},
                             {"ours", v.mean}, {"sd", v.sd}, {other_name, v.other_rule},
                             {"published", pub ? json(*pub) : json()}, {"substitute", !r.dataset->exact},
                             {"choices", v.choices}});
      }
      md += "\n";
    }
    md += "\n";
  }
  if (!exact.rows().empty())
    md += "## Ours vs published (the thesis' data)\n\n" + exact.markdown() + "\n";
  if (!substitute.rows().empty())
    md += "## Substitute data (no tolerance: a different data set or geometry)\n\n" + substitute.markdown() + "\n";
  out.tally = exact.tally();

  // The claims of §2.5 checked on our numbers.
  md += "## The thesis' claims, checked\n\n";
  Claims claims;
  auto value = [&](const std::string& key, const std::string& method, const std::string& variant) -> std::optional<double> {
    const auto r = results.find(key);
    if (r == results.end() || !r->second.count(method) || !r->second.at(method).count(variant)) return std::nullopt;
    return r->second.at(method).at(variant).mean;
  };
  for (const auto& [key, by_method] : results) {
    const std::string row = key.substr(key.find('\n') + 1), table = key.substr(0, key.find('\n'));
    for (const auto& [method, variants] : by_method) {
      const auto plain = value(key, method, "-"), thresholded = value(key, method, "T");
      const auto cs = value(key, method, "CS"), cst = value(key, method, "CS&T");
      std::string line = fmt::format("- Table {} {} {}:", table, row, method);
      if (plain && thresholded)
        line += fmt::format(" thresholding T − \"-\" = {:+.1f};", *thresholded - *plain);
      if (cs && cst && plain && thresholded) {
        const double best_cs = std::max(*cs, *cst), best_other = std::max(*plain, *thresholded);
        const bool holds = best_cs >= best_other - tolerance;
        line += fmt::format(" best of CS, CS&T {} vs best of -, T {}: {}.", one(best_cs), one(best_other),
                            holds ? "best or within the tolerance (holds)" : "**not near the best**");
        claims.add("cs_best_or_near", holds, "", {{"table", table}, {"row", row}, {"method", method}, {"margin", best_cs - best_other}});
      }
      if (plain && thresholded)
        claims.add("thresholding_gain", std::nullopt, "",
                   {{"table", table}, {"row", row}, {"method", method}, {"gain", *thresholded - *plain}});
      md += line + "\n";
    }
  }
  // F_max below C_min (micro-F): compare the pairs of rows.
  for (const auto& [key, by_method] : results) {
    if (!key.ends_with(" C_min")) continue;
    const std::string fmax_key = key.substr(0, key.size() - 5) + "F_max";
    for (const auto& [method, variants] : by_method)
      for (const auto& [variant, v] : variants) {
        const auto f = value(fmax_key, method, variant);
        if (!f) continue;
        const bool holds = v.mean >= *f;
        claims.add("fmax_below_cmin", holds, "",
                   {{"row", key.substr(key.find('\n') + 1)}, {"method", method}, {"variant", variant}, {"margin", v.mean - *f}});
      }
  }
  {
    int holds = 0, total = 0;
    std::string misses;
    for (const Claim& claim : claims.list())
      if (claim.claim == "fmax_below_cmin") {
        const json& c = claim.context;
        ++total;
        if (*claim.holds) ++holds;
        else misses += fmt::format(" {} {} {} ({:+.1f});", c["row"].get<std::string>(), c["method"].get<std::string>(),
                                   c["variant"].get<std::string>(), c["margin"].get<double>());
      }
    if (total > 0)
      md += fmt::format("- F_max sub-optimal for micro-F (C_min ≥ F_max): holds in {} of {} cells.{}\n", holds, total,
                        misses.empty() ? "" : " Exceptions:" + misses);
  }

  // Table 2.2 and the cost of each (data set, method).
  md += "\n## Table 2.2: attributes of the data (computed; thesis in parentheses)\n\n"
        "| data set | type | labels | train | test | features | label freq. % (min/max) | source |\n"
        "|---|---|---|---|---|---|---|---|\n";
  const json attributes = spec_.value("published_attributes", json::object());
  json attributes_json = json::array();
  for (const auto& d : datasets_) {
    const Attributes a = attributes_of(*d, bias_);
    const json pub = attributes.value(d->label, json::object());
    auto with = [&](const std::string& ours, const char* key) {
      return pub.contains(key) ? fmt::format("{} ({})", ours, pub[key].is_string() ? pub[key].get<std::string>() : pub[key].dump())
                               : ours;
    };
    const std::string frequency = d->multilabel
                                      ? fmt::format("{:.2f}/{:.2f}", a.min_frequency, a.max_frequency)
                                      : fmt::format("{:.2f} (pos./neg. {:.3f})", a.min_frequency, a.positive_ratio);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {}; {} |\n", d->label,
                      with(d->multilabel ? "multilabel" : "binary", "type"), with(std::to_string(d->multilabel ? d->labels : 2), "labels"),
                      with(std::to_string(a.train), "train"), with(std::to_string(a.test), "test"),
                      with(std::to_string(d->features), "features"), with(frequency, "label_freq"), d->source,
                      d->fidelity);
    attributes_json.push_back({{"dataset", d->label}, {"labels", d->labels}, {"train", a.train}, {"test", a.test},
                               {"features", d->features}, {"min_label_frequency", a.min_frequency},
                               {"max_label_frequency", a.max_frequency}, {"positive_ratio", a.positive_ratio}});
  }
  md += "\n(Generated data and subsets without a test set: the sizes of split 1.)\n";
  for (const auto& d : datasets_)
    if (d->generated_train > 0) {
      const GalaxyBayesF1 bayes = galaxy_bayes_f1(GalaxyOptions{}, 400000, 1);
      const double half = bayes.f1 / 2;
      const bool inside = half > bayes.threshold_below && half <= bayes.threshold;
      md += fmt::format(
          "\n**Galaxy's optimal F1.** Estimated on 400,000 draws of x with the generator's exact posterior η(x) "
          "(expected counts, no label noise): the best rule 1[η(x) ≥ θ] has F1 {:.2f} %; it is the same rule on "
          "the draws for every θ in ({:.3f}, {:.3f}] (no drawn η lies inside), so the draws locate the optimal "
          "threshold only to that range, which {} Corollary 7's F*/2 = {:.3f}. The exact population F1 of the "
          "cluster rule \"predict z1 ∪ z3\" is {:.2f} %; the estimate differs from it by the sampling error of "
          "the draws' cluster counts (z3 holds 0.1 % of the mass: about 400 draws). The thesis states 67.5 % as the optimal F1 of one sample of 100,000 (that F1 varies by "
          "about a point from sample to sample, tests/test_galaxy.cpp).\n",
          100 * bayes.f1, bayes.threshold_below, bayes.threshold, inside ? "contains" : "does NOT contain", half,
          100 * galaxy_cluster_rule_f1(GalaxyOptions{}, {0, 2}));
      break;
    }

  md += "\n## Cost of the runs\n\n| data set | method | cells | trainings (full grid) | not converged | CPU s |\n"
        "|---|---|---|---|---|---|\n";
  json cost_json = json::array();
  for (const auto& [key, t] : totals) {
    md += fmt::format("| {} | {} | {} | {} ({}) | {} | {:.1f} |\n", key.first, key.second, t.cells, t.trainings, t.full,
                      t.not_converged, t.cpu_seconds);
    cost_json.push_back({{"dataset", key.first}, {"method", key.second}, {"cells", t.cells}, {"trainings", t.trainings},
                         {"full_grid_trainings", t.full}, {"not_converged", t.not_converged},
                         {"cpu_seconds", t.cpu_seconds}});
  }
  md += "\n(Full grid: labels × costs × C values of the spec, per cell; a bracketed search trains fewer, and on "
        "multilabel data runs a second search for C_min, which replays the (label, t) columns the first one trained "
        "instead of training them again; they are counted once.)\n\n## Notes\n\n";
  md += notes_markdown(spec_);
  out.markdown = md;
  out.csv = csv;
  out.fields = {{"selection", rule_name},       {"empty_f", empty_f_},           {"constant_feature", bias_},
                {"rows", rows_json},            {"comparison", exact.rows_json()}, {"substitute", substitute.rows_json()},
                {"claims", claims.to_json()},             {"attributes", attributes_json}, {"cost", cost_json}};
  return out;
}

// ---- The family --------------------------------------------------------------------------------

class CostSensitiveFamily : public Family {
 public:
  std::string name() const override { return "cost_sensitive"; }
  std::string summary() const override {
    return "F-measures by cost-sensitive classification (Parambath's thesis ch. 2, Tables 2.2–2.7). A cell is one "
           "(data set, split, method[, γ]): the cost grid t × C of every label (binary relevance) trained on 2/3 of "
           "the training data, scored on the other 1/3 (validation) and on the test set, cached as confusion counts. "
           "The tables select, per split, by the spec's `selection` rule from those counts — variants \"-\", \"T\", "
           "\"CS\", \"CS&T\"; binary F (2.3), macro-F (2.4, 2.5), micro-F C_min and F_max (2.6, 2.7; RBF methods go "
           "to 2.5 and 2.7) — and average the test F over the splits. Splits are content-keyed (seed = split "
           "number), so permuting a file's rows changes nothing; Table 2.2 is computed from the data. No test phase.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"datasets", true,
             "`{label: {registry, variant, splits}}` (registry formats `adult`, `multilabel_csv`, `multilabel_svm`; "
             "a `multilabel_svm` variant with `train_rows` is one file cut into train and test rows, one without is "
             "subsets of which split k uses subset k with 1/4 held out for test) or `{generator: \"galaxy\", train, "
             "test, splits}` (fresh samples per split, seeds 1000 + k and 2000 + k); `splits` overrides the top-level "
             "list for one data set"},
            {"splits", false, "split numbers (distinct integers ≥ 1, default 1..5); split k's validation seed is k"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below; published columns are `<label> <variant>`"},
            {"selection", false,
             "`two_loop` (default: Algorithms 1-4, inner minimum validation cost per actual cost, outer maximum "
             "validation F) or `max_f` (one grid, maximum validation F); the tables show the other beside it"},
            {"empty_f", false, "F of a label with no positive and none predicted: 1 (default) or 0"},
            {"constant_feature", false, "value of the constant feature appended to every data set (default 100, the "
                                        "thesis'; 0: none)"},
            {"published", false,
             "`{table: {row: {column: value}}}`: tables \"2.3\"..\"2.7\"; rows are data set labels (2.6, 2.7: "
             "`<label> C_min` / `<label> F_max`); columns `<method> <variant>` (2.5, 2.7: the variant alone)"},
            {"published_attributes", false, "`{label: {type, labels, train, test, features, label_freq}}`: Table 2.2"},
            {"tolerance", false, "a published F (%) is matched when \\|ours − published\\| ≤ this (default 1)"}};
  }
  const std::vector<MethodKind>& methods() const override { return cost_sensitive_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override {
    return std::make_unique<CostSensitiveRun>(spec);
  }
};

void check_splits(const json& splits, const std::string& where, const SpecValidator& v) {
  if (!splits.is_array() || splits.empty()) v.fail(where, "expected a non-empty array of split numbers");
  std::set<int> seen;
  for (const auto& s : splits)
    if (!s.is_number_integer() || s.get<int>() < 1 || s.get<int>() > 1000 || !seen.insert(s.get<int>()).second)
      v.fail(where, "every split must be a distinct integer in 1..1000, got " + s.dump());
}

void check_increasing(const json& values, const std::string& where, const SpecValidator& v) {
  for (std::size_t i = 1; i < values.size(); ++i)
    if (!(values[i].get<double>() > values[i - 1].get<double>())) v.fail(where, "values must be strictly increasing");
}

void CostSensitiveFamily::validate(const json& spec, const SpecValidator& v) const {
  if (spec.contains("selection")) {
    const std::string s = v.string(spec, "selection", "").get<std::string>();
    if (s != "two_loop" && s != "max_f") v.fail("selection", "expected 'two_loop' or 'max_f', got '" + s + "'");
  }
  if (spec.contains("empty_f")) {
    const double f = v.number(spec, "empty_f", "", 0.0, 1.0);
    if (f != 0.0 && f != 1.0) v.fail("empty_f", "expected 0 or 1");
  }
  if (spec.contains("constant_feature")) v.number(spec, "constant_feature", "", 0.0, 1e6);
  validate_tolerance(spec, v, 100.0);
  if (spec.contains("splits")) check_splits(spec["splits"], "splits", v);
  if (!spec["datasets"].is_object() || spec["datasets"].empty()) v.fail("datasets", "expected a non-empty object");
  for (const auto& [label, d] : spec["datasets"].items()) {
    const std::string where = "datasets." + label;
    if (d.is_object() && d.contains("generator")) {
      v.keys(d, where, {"generator", "train", "test", "splits"}, {"generator"});
      if (d["generator"] != "galaxy") v.fail(where + ".generator", "the only generator is 'galaxy'");
      for (const char* part : {"train", "test"})
        if (d.contains(part) && (!d[part].is_number_integer() || d[part].get<long>() < 3 || d[part].get<long>() > 10000000))
          v.fail(where + "." + part, "expected an integer in 3..10,000,000");
    } else {
      v.keys(d, where, {"registry", "variant", "splits"}, {"registry"});
      v.registry_dataset(d, where, {"adult", "multilabel_csv", "multilabel_svm"});
      const RegistryChoice choice = registry_choice(d);
      if (choice.entry().value("format", std::string()) == "multilabel_svm" &&
          !choice.variant_entry().contains("train_rows")) {
        const std::size_t subsets = choice.variant_entry().value("subsets", json::array()).size();
        for (const auto& s : d.value("splits", spec.value("splits", json::array({1, 2, 3, 4, 5}))))
          if (s.is_number_integer() && (s.get<int>() < 1 || static_cast<std::size_t>(s.get<int>()) > subsets))
            v.fail(where + ".splits", fmt::format("split {} needs subset {}, the registry lists {}", s.get<int>(),
                                                  s.get<int>(), subsets));
      }
    }
    if (d.contains("splits")) check_splits(d["splits"], where + ".splits", v);
  }
  for (const auto& [label, m] : spec["methods"].items()) {
    const std::string where = "methods." + label;
    for (const char* list : {"C", "costs", "gamma"})
      if (m.contains(list)) check_increasing(m[list], where + "." + list, v);
    if (m.contains("costs")) {
      bool has_one = false;
      for (const auto& t : m["costs"]) {
        has_one = has_one || t.get<double>() == 1.0;
        if (t.get<double>() >= 2.0) v.fail(where + ".costs", "every cost t must be in (0, 2), got " + t.dump());
      }
      if (!has_one) v.fail(where + ".costs", "must contain 1 (the cost-insensitive model of the \"-\" and \"T\" columns)");
    }
  }
  if (spec.contains("published")) {
    v.keys(spec["published"], "published", {"2.3", "2.4", "2.5", "2.6", "2.7"});
    for (const auto& [table, rows] : spec["published"].items()) v.number_table(rows, "published." + table, 2);
  }
  if (spec.contains("published_attributes") && !spec["published_attributes"].is_object())
    v.fail("published_attributes", "expected an object {label: {attribute: value}}");
}

}  // namespace

const Family& cost_sensitive_family() {
  static const CostSensitiveFamily family;
  return family;
}

}  // namespace mpg::harness
