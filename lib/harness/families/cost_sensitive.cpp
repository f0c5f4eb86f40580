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
#include "lib/harness/families/cost_sensitive.hpp"

namespace mpg::harness::cost_sensitive_impl {

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
       "the in-tree solvers of baselines/weighted_svm.hpp (Newton on the smoothed primal up to 600 columns, dual "
       "coordinate descent with shrinking and subspace Newton steps above) to a certified duality gap, warm-started "
       "along C. The constant feature is the problem's offset. Debian's LIBLINEAR -s 3 is kind `liblinear_svm`.",
       ParameterTable::join(
           cost_grid_parameters(true),
           ParameterTable({choice_parameter("solver", "auto", {"auto", "primal_newton", "dual_cd"},
                                            "`auto`: primal_newton up to 600 columns (the constant one included), "
                                            "dual_cd above; both stop at the same certified gap, so the optimum is the "
                                            "same within it (dual_cd alone hits the pass cap at large C x FN weight)"),
                           integer_parameter("max_passes", 50000, 1, 1000000000,
                                             "dual_cd: cap on coordinate-descent passes of one training (the thesis "
                                             "raised LIBLINEAR's 1,000 to 50,000); reaching it is counted as not "
                                             "converged"),
                           number_parameter("relative_gap", 1e-4, 0.0, 1.0,
                                            "stop when the duality gap <= this x the primal objective", true),
                           flag_parameter("subspace_newton", true,
                                          "interleave Newton steps on the free set with the coordinate-descent passes "
                                          "(off: coordinate descent with shrinking alone; the same certified optimum, "
                                          "5-20x the passes on Yeast and Scene at C >= 4)"),
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

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::string choice_text(const Choice& c) {
  std::string text = fmt::format("t={:g} C={:g}", c.t, c.C);
  if (c.gamma > 0) text += fmt::format(" γ={:g}", c.gamma);
  if (c.thresholded) text += fmt::format(" θ={:.3g}", c.threshold);
  return text;
}

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

CostSensitiveRun::CostSensitiveRun(json spec) : spec_(std::move(spec)) {
  bias_ = spec_.value("constant_feature", 100.0);
  empty_f_ = spec_.value("empty_f", 1.0);
  rule_ = parse_f_selection(spec_.value("selection", std::string("two_loop")));
  scaling_ = parse_feature_scaling(spec_.value("feature_scaling", std::string("none")));
  const std::vector<int> splits = spec_.value("splits", std::vector<int>{1, 2, 3, 4, 5});
  const std::optional<FigureSpec> boundaries = figure_spec(spec_, "2.3"), cost_curves = figure_spec(spec_, "2.4");
  auto in = [](const std::optional<FigureSpec>& f, const Dataset& d, int split) {
    return f && f->split == split && std::find(f->datasets.begin(), f->datasets.end(), d.label) != f->datasets.end();
  };
  for (const auto& [label, d] : spec_["datasets"].items()) datasets_.push_back(load_dataset(label, d, bias_, splits));
  for (const char* figure : {"2.3", "2.4"}) {
    const std::optional<FigureSpec> f = figure_spec(spec_, figure);
    if (!f) continue;
    for (const std::string& label : f->datasets) {
      const Dataset& d = **std::find_if(datasets_.begin(), datasets_.end(), [&](const auto& x) { return x->label == label; });
      if (std::find(d.splits.begin(), d.splits.end(), f->split) == d.splits.end())
        throw Error(fmt::format("figures.{}: split {} is not one of data set {}'s splits", figure, f->split, label));
      if (figure == std::string("2.4") && !d.multilabel)
        throw Error(fmt::format("figures.2.4: data set {} is not multilabel (micro-F)", label));
      if (figure == std::string("2.3") && (d.multilabel || d.features != 2 || scaling_ != FeatureScaling::none))
        throw Error(fmt::format("figures.2.3: data set {} must be binary with 2 features (Galaxy), unscaled", label));
    }
  }
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
                            {"empty_f", empty_f_},
                            {"feature_scaling", feature_scaling_name(scaling_)}}}};
        // Cost of a cell, for the launch order: labels x examples x grid size.
        const double size = static_cast<double>(d->labels) *
                            static_cast<double>(d->train.rows() + d->generated_train +
                                                (d->subsets.empty() ? 0 : d->subsets.front().examples())) *
                            static_cast<double>(values.grid("C").size());
        const int priority = static_cast<int>(std::log2(1.0 + size));
        const std::vector<double> gammas = is_kernel(kind) ? values.grid("gamma") : std::vector<double>{0.0};
        // What the figures need beyond the tables: linear models' weights (2.3), the pooled grid
        // over every cost (2.4, cost-sensitive linear methods); it is part of the cell's key.
        const bool keep_weights = !is_kernel(kind) && in(boundaries, *d, split);
        const bool full_micro = !is_kernel(kind) && kind != "svm_perf" && d->multilabel && in(cost_curves, *d, split);
        json cell_key = key;
        if (keep_weights) cell_key["figure"] = "2.3 weights";
        if (full_micro) cell_key["figure"] = "2.4 full pooled grid";
        for (double gamma : gammas) {
          cells_.push_back({d.get(), split, method, kind, gamma, keep_weights, full_micro});
          plans_.push_back({method,
                            fmt::format("{:<7} split {} {:<8}{}", d->label, split, method,
                                        gamma > 0 ? fmt::format(" γ={:g}", gamma) : ""),
                            cell_key, gamma > 0 ? values.with("gamma", gamma) : values, priority});
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
      o.svm.subspace_newton = p.flag("subspace_newton");
      o.svm.solver = parse_weighted_svm_solver(p.choice("solver"));
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
// least t = 0.1, 1.9 and 1 for every label, and Figure 2.4's grid over every t holds them all. A column's trainings do not depend on what ran before
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
  const std::map<std::tuple<int, double, double, bool>, TrainedScores>& trained() const { return done_; }
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
  const SplitParts parts = make_split(*cell.dataset, cell.split, bias_, scaling_);
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
  CostSensitiveLearner& trainer = two_searches || cell.keep_weights || cell.full_micro
                                      ? static_cast<CostSensitiveLearner&>(replaying)
                                      : *learner;
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
  if (cell.full_micro) {
    // Figure 2.4: the pooled micro-F of every cost t (the columns already trained are replayed).
    const long replayed = replaying.replayed(), replayed_not_converged = replaying.replayed_not_converged();
    o.search = CostSearch::full;
    const GridEvaluation every_cost = run_cost_grid(replaying, parts.validation_labels, parts.test_labels, o);
    json pooled = grid_to_json(every_cost);
    pooled["models"] = json::array();  // the figure reads the pooled entries only
    out["figure_grid"] = std::move(pooled);
    trainings += every_cost.trainings - (replaying.replayed() - replayed);
    not_converged += every_cost.not_converged - (replaying.replayed_not_converged() - replayed_not_converged);
    out["replayed_trainings"] = replaying.replayed();
  }
  if (cell.keep_weights) {
    // Figure 2.3: [t, C, w_1 .. w_d] of every model trained (one label: binary data).
    json weights = json::array();
    for (const auto& [key, scores] : replaying.trained()) {
      if (scores.weights.size() == 0) continue;
      const double positive_weight = std::get<1>(key);
      double t = 0.0;
      for (double cost : o.costs)
        if (fn_weight(cost) == positive_weight) t = cost;
      json row = {t, std::get<2>(key)};
      for (double w : scores.weights) row.push_back(w);
      weights.push_back(std::move(row));
    }
    out["weights"] = std::move(weights);
  }
  const long full = static_cast<long>(parts.validation_labels.size() * o.costs.size() * o.Cs.size());
  out["trainings"] = trainings;
  out["full_grid_trainings"] = full;
  out["not_converged"] = not_converged;
  out["cpu_seconds"] = thread_cpu_seconds() - cpu_start;
  out["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
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
            {"tolerance", false, "a published F (%) is matched when \\|ours − published\\| ≤ this (default 1)"},
            {"feature_scaling", false,
             "`none` (default; the thesis states no scaling), `unit_range` (each feature mapped to [0, 1] by the "
             "min and max of the split's training part) or `standardize` (mean 0, sd 1 on the training part); "
             "fitted on the 2/3 the models are trained on, applied to validation and test; the constant feature "
             "is not scaled"},
            {"figures", false,
             "`{\"2.3\": {datasets, split}, \"2.4\": {datasets, split}}`: Figure 2.3 (decision boundaries of the "
             "selected linear models before and after thresholding, on 2-feature binary data such as Galaxy) and "
             "Figure 2.4 (validation and test micro-F against the FN cost, best C per cost, of the cost-sensitive "
             "linear methods on multilabel data; those cells also train every cost t) for one split; written as "
             "`results/<name>[.quick].figure2_3.{csv,gp}` / `figure2_4.{csv,gp}`"}};
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
  if (spec.contains("feature_scaling")) {
    const std::string s = v.string(spec, "feature_scaling", "").get<std::string>();
    try {
      parse_feature_scaling(s);
    } catch (const Error& e) {
      v.fail("feature_scaling", e.what());
    }
  }
  if (spec.contains("figures")) {
    v.keys(spec["figures"], "figures", {"2.3", "2.4"});
    for (const auto& [figure, f] : spec["figures"].items()) {
      const std::string where = "figures." + figure;
      v.keys(f, where, {"datasets", "split"}, {"datasets", "split"});
      if (!f["datasets"].is_array() || f["datasets"].empty()) v.fail(where + ".datasets", "expected a non-empty array");
      for (const auto& label : f["datasets"])
        if (!label.is_string() || !spec["datasets"].contains(label.get<std::string>()))
          v.fail(where + ".datasets", "every entry must be a data set label of `datasets`, got " + label.dump());
      if (!f["split"].is_number_integer()) v.fail(where + ".split", "expected a split number");
    }
  }
  if (spec.contains("published")) {
    v.keys(spec["published"], "published", {"2.3", "2.4", "2.5", "2.6", "2.7"});
    for (const auto& [table, rows] : spec["published"].items()) v.number_table(rows, "published." + table, 2);
  }
  if (spec.contains("published_attributes") && !spec["published_attributes"].is_object())
    v.fail("published_attributes", "expected an object {label: {attribute: value}}");
}

}  // namespace mpg::harness::cost_sensitive_impl

namespace mpg::harness {
const Family& cost_sensitive_family() {
  static const cost_sensitive_impl::CostSensitiveFamily family;
  return family;
}

}  // namespace mpg::harness
