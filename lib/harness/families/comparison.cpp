// Family "comparison" (SVMcompare, Venuto, Hocking et al., seed 004, §4: Figures 3, 4 and 5): labeled
// pairs from the simulated squared norms r(x) = ||x||_j^2 (lib/data/simulated_pairs) or the SUSHI
// preferences (lib/data/sushi). For every data set, figure point (Fig. 4: n at a fixed rho; Fig. 5:
// rho at a fixed n), test seed and method, one cell draws disjoint train / validation / test sets
// of n pairs with round(rho n) equality pairs each (stratified_pair_sets), fits the method on every
// (sigma, C) of its Gaussian-kernel grid, selects on validation (Fig. 4: minimum zero-one error;
// Fig. 5: maximum AUC; ties: smaller C, then smaller sigma) and scores the selected model on the
// test set. The grid search is inside the cell because one kernel matrix serves every C of a
// sigma; only validation scores choose, so there is no separate test phase. The tables give mean
// and sd over the seeds, the papers' claims checked against them (the text gives no numbers), and
// the figures as CSV + gnuplot scripts (Fig. 3: level curves of the selected models).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "baselines/svm_compare.hpp"
#include "baselines/svm_rank.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/simulated_pairs.hpp"
#include "lib/data/sushi.hpp"
#include "lib/eval/comparison.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/harness/families/comparison.hpp"

namespace mpg::harness::comparison_impl {

// ---- Methods -----------------------------------------------------------------------------------

// n log-spaced values from 10^a to 10^b (R's base^seq(a, b, length.out = n)).
json log_grid(double base, double from, double to, int count) {
  json values = json::array();
  for (int i = 0; i < count; ++i) values.push_back(std::pow(base, from + (to - from) * i / (count - 1)));
  return values;
}

Parameter with_default(Parameter p, json value) {
  p.default_value = std::move(value);
  return p;
}

ParameterTable grid_table(std::vector<Parameter> own) {
  std::vector<Parameter> entries = {
      with_default(grid_parameter("C", 0.0, 1e12,
                                  "grid of the cost C (§4.1: 10^-3..10^3; the authors' code: 10 log-spaced values, "
                                  "10^seq(-3, 3, l = 10))"),
                   log_grid(10.0, -3.0, 3.0, 10)),
      with_default(grid_parameter("sigma", 0.0, 1e12,
                                  "grid of the Gaussian kernel's sigma in exp(-sigma ‖a − b‖²) (kernlab's rbfdot; the "
                                  "paper's \"width\" 2^-7..2^4, the code's 2^seq(-7, 4, l = 10))"),
                   log_grid(2.0, -7.0, 4.0, 10)),
      integer_parameter("grid_stride", 1, 1, 100,
                        "use every k-th value of the C and sigma grids, from the first (1 = all; `--quick` uses 3: "
                        "a 4 × 4 grid)"),
  };
  entries.insert(entries.end(), own.begin(), own.end());
  return ParameterTable(entries);
}

const std::vector<MethodKind>& comparison_methods() {
  static const std::vector<MethodKind> kinds = {
      {"compare",
       "SVMcompare (Algorithm 1, baselines/svm_compare.hpp): flipped pairs, libsvm C-SVC with the precomputed kernel "
       "K~ = MᵀKM, inputs standardized on the stacked training rows [X; X']; predicts c_1(x, x') = t_1(r(x') − r(x)). A "
       "grid point whose bias is not negative (Lemma 3.1) has no ranking function: it is skipped and counted.",
       grid_table({number_parameter("tolerance", 1e-3, 0.0, 1.0, "libsvm's stopping tolerance (its and kernlab's default)",
                                    true)})},
      {"rank",
       "SVMrank (Eq. 3, baselines/svm_rank.hpp): the inequality pairs only, no bias, dual coordinate descent; "
       "predicts with the threshold tau-hat of Eq. (6) fit on the training pairs.",
       grid_table({number_parameter("tolerance", 1e-3, 0.0, 1.0, "largest dual violation at the solution (SVMlight -e)",
                                    true),
                   integer_parameter("max_sweeps", 20000, 1, 1000000000, "coordinate-descent passes (a cap: reported)")})},
      {"rank2",
       "SVMrank with each equality pair as two opposite ranking pairs (§2.2), otherwise as `rank`.",
       grid_table({number_parameter("tolerance", 1e-3, 0.0, 1.0, "largest dual violation at the solution (SVMlight -e)",
                                    true),
                   integer_parameter("max_sweeps", 20000, 1, 1000000000, "coordinate-descent passes (a cap: reported)")})},
  };
  return kinds;
}

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d, const json& simulation) {
  auto data = std::make_unique<Dataset>();
  data->label = label;
  if (d.contains("simulated")) {
    SimulatedPairsOptions o;
    o.norm = parse_squared_norm(d["simulated"].get<std::string>());
    o.pairs = simulation.value("pool_pairs", std::size_t{20000});
    o.noise_sd = simulation.value("noise_sd", 0.25);
    o.seed = simulation.value("pool_seed", std::uint64_t{1});
    data->norm = o.norm;
    data->pool = simulate_norm_pairs(o).pairs;
    data->key = {{"simulated", to_string(o.norm)}, {"pairs", o.pairs}, {"noise_sd", o.noise_sd}, {"seed", o.seed}};
    data->about = fmt::format(
        "simulated r(x) = ‖x‖_{}², pool of {} pairs (seed {}): x ~ U(−2, 2)², x' = x + δ with δ uniform on the norm's "
        "box (the authors' code), y = t_1(r(x') − r(x) + ε), ε ~ N(0, {}²); {} equality pairs",
        to_string(o.norm).substr(1), o.pairs, o.seed, o.noise_sd, data->pool.count(0));
    return data;
  }
  const RegistryChoice choice = registry_choice(d);
  const VerifiedFile scores = choice.read("scores"), items = choice.read("items"), users = choice.read("users");
  data->pool = read_sushi_pairs(scores.path, items.path, users.path).pairs;
  data->key = {{"registry", choice.dataset}, {"variant", choice.variant},
               {"sha256", {scores.sha256, items.sha256, users.sha256}}};
  data->about = fmt::format("registry `{}`, variant `{}` ({}): {} pairs, {} equality, {} features; `{}` sha256 `{}`",
                            choice.dataset, choice.variant, choice.fidelity(), data->pool.size(), data->pool.count(0),
                            data->pool.features(), scores.name, scores.sha256.substr(0, 16));
  return data;
}

// The training set's most common label (0 on a tie): the sushi panel's "trivial model" predicts it
// everywhere (undefined in the paper).
int trivial_label(const PairData& train) {
  int best = 0;
  for (int label : {-1, 1})
    if (train.count(label) > train.count(best)) best = label;
  return best;
}

double trivial_error_percent(const PairData& train, const PairData& test) {
  return comparison_errors(std::vector<int>(test.size(), trivial_label(train)), test.labels).error_percent();
}

ComparisonRun::ComparisonRun(json spec) : spec_(std::move(spec)) {
  seeds_ = spec_.value("seeds", std::vector<std::uint64_t>{1, 2, 3, 4});
  const json simulation = spec_.value("simulation", json::object());
  for (const auto& [label, d] : spec_["datasets"].items()) datasets_.push_back(load_dataset(label, d, simulation));
  if (spec_.contains("figure3")) {
    const json& f = spec_["figure3"];
    Figure3 g;
    g.dataset = f["dataset"].get<std::string>();
    g.n = f.value("n", g.n);
    g.seed = f.value("seed", g.seed);
    g.resolution = f.value("resolution", g.resolution);
    figure3_ = g;
  }
  struct Point {
    int figure;
    std::size_t n;
    double rho;
  };
  std::vector<Point> points;
  if (spec_.contains("figure4"))
    for (std::size_t n : spec_["figure4"]["n"].get<std::vector<std::size_t>>())
      points.push_back({4, n, spec_["figure4"].value("rho", 0.5)});
  if (spec_.contains("figure5"))
    for (double rho : spec_["figure5"]["rho"].get<std::vector<double>>())
      points.push_back({5, spec_["figure5"].value("n", std::size_t{400}), rho});
  for (const auto& d : datasets_)
    for (const Point& p : points)
      for (std::uint64_t seed : seeds_)
        for (const auto& [method, m] : spec_["methods"].items()) {
          const std::string kind = m["kind"].get<std::string>();
          const bool curves = figure3_ && p.figure == 4 && figure3_->dataset == d->label && figure3_->n == p.n &&
                              figure3_->seed == seed;
          cells_.push_back({d.get(), p.figure, p.n, p.rho, seed, method, kind, curves});
          json key = {{"data", d->key}, {"figure", p.figure}, {"n", p.n}, {"rho", p.rho}, {"seed", seed}};
          if (curves) key["level_curves"] = {figure3_->resolution, figure3_->low, figure3_->high};
          plans_.push_back({method,
                            fmt::format("{:<6} Fig. {} n={:<4} rho={:.2f} seed {} {:<8}", d->label, p.figure, p.n, p.rho,
                                        seed, method),
                            key, ParameterValues(family_named("comparison").method(kind).parameters, m),
                            // The largest problems first, so that the threads finish together.
                            static_cast<int>(p.n)});
        }
}

// Every `stride`-th value of a grid, from the first.
std::vector<double> strided(const std::vector<double>& values, long stride) {
  std::vector<double> out;
  for (std::size_t i = 0; i < values.size(); i += static_cast<std::size_t>(stride)) out.push_back(values[i]);
  return out;
}

json ComparisonRun::validate(std::size_t index) const {
  const Cell& cell = cells_[index];
  const ParameterValues& p = plans_[index].parameters;
  const auto start = Clock::now();
  const PairData& pool = cell.dataset->pool;
  const auto sets = stratified_pair_sets(pool, cell.n, cell.rho, 3, cell.seed);
  const PairData train = pool.subset(sets[0]), valid = pool.subset(sets[1]), test = pool.subset(sets[2]);
  const bool by_auc = cell.figure == 5;
  // The validation score to maximize: -error (Fig. 4) or AUC (Fig. 5).
  auto score = [&](const ComparisonModel& model) {
    if (by_auc) return comparison_roc(model.differences(valid), valid.labels).auc;
    return -comparison_errors(model.predict(valid), valid.labels).error_percent();
  };
  struct Best {
    double score = -std::numeric_limits<double>::infinity(), C = 0.0, sigma = 0.0;
    std::optional<ComparisonModel> model;
  } best;
  int points = 0, unusable = 0, unconverged = 0;
  const std::vector<double> Cs = strided(p.grid("C"), p.integer("grid_stride"));
  const std::vector<double> sigmas = strided(p.grid("sigma"), p.integer("grid_stride"));
  for (double sigma : sigmas) {
    const Kernel kernel{KernelKind::gaussian, sigma};
    std::optional<SvmCompareProblem> compare;
    std::optional<SvmRankProblem> rank;
    if (cell.kind == "compare")
      compare = prepare_svm_compare(train, kernel);
    else
      rank = prepare_svm_rank(train, parse_svm_rank_variant(cell.kind), kernel);
    for (double C : Cs) {
      ++points;
      std::optional<ComparisonModel> model;
      if (compare) {
        SvmCompareOptions o;
        o.C = C;
        o.tolerance = p.number("tolerance");
        SvmCompareSummary s;
        model = train_svm_compare(*compare, o, &s);
        unconverged += !s.converged;
        if (!s.usable) {
          ++unusable;
          continue;
        }
      } else {
        SvmRankOptions o;
        o.C = C;
        o.tolerance = p.number("tolerance");
        o.max_sweeps = static_cast<int>(p.integer("max_sweeps"));
        SvmRankSummary s;
        model = train_svm_rank(*rank, o, &s);
        unconverged += !s.converged;
      }
      const double value = score(*model);
      // Ties: the smaller C, then the smaller sigma.
      if (value > best.score || (value == best.score && (C < best.C || (C == best.C && sigma < best.sigma))))
        best = {value, C, sigma, std::move(model)};
    }
  }
  if (!best.model)
    throw Error(fmt::format("{}: every one of the {} grid points has a nonnegative bias (Lemma 3.1): no ranking function",
                            plans_[index].description, points));
  const ComparisonModel& model = *best.model;
  const std::vector<double> test_differences = model.differences(test);
  const std::vector<int> test_predictions = model.predict(test);
  // The test pairs' labels, predictions and rank differences (and the truth's, the trivial
  // label) are the per-unit statistics of the tables' bootstrap intervals.
  json out = {{"selected", {{"C", best.C}, {"sigma", best.sigma}}},
              {"validation_score", by_auc ? best.score : -best.score},
              {"validation_measure", by_auc ? "auc" : "error_percent"},
              {"grid_points", points},
              {"unusable_grid_points", unusable},
              {"unconverged_grid_points", unconverged},
              {"test_error", comparison_errors(test_predictions, test.labels).error_percent()},
              {"test_auc", comparison_roc(test_differences, test.labels).auc},
              {"trivial_error", trivial_error_percent(train, test)},
              {"trivial_label", trivial_label(train)},
              {"test_labels", test.labels},
              {"test_predictions", test_predictions},
              {"test_differences", test_differences}};
  if (cell.dataset->norm) {
    std::vector<double> truth(test.size());
    for (std::size_t i = 0; i < test.size(); ++i)
      truth[i] = squared_norm_rank(*cell.dataset->norm, test.second.row(static_cast<long>(i)).transpose()) -
                 squared_norm_rank(*cell.dataset->norm, test.first.row(static_cast<long>(i)).transpose());
    out["truth_error"] = true_ranking_error_percent(*cell.dataset->norm, test);
    out["truth_auc"] = comparison_roc(truth, test.labels).auc;
    out["truth_differences"] = truth;
  }
  if (cell.level_curves) {
    const int r = figure3_->resolution;
    Eigen::MatrixXd grid(r * r, 2);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < r; ++j) {
        grid(i * r + j, 0) = figure3_->low + (figure3_->high - figure3_->low) * i / (r - 1);
        grid(i * r + j, 1) = figure3_->low + (figure3_->high - figure3_->low) * j / (r - 1);
      }
    const Eigen::VectorXd values = model.rank(grid);
    out["level_curves"] = to_std_vector(values);
    json points_json = json::array();
    for (std::size_t i = 0; i < train.size(); ++i) {
      const auto row = static_cast<long>(i);
      points_json.push_back({train.first(row, 0), train.first(row, 1), train.second(row, 0), train.second(row, 1),
                             train.labels[i]});
    }
    out["training_pairs"] = points_json;
  }
  out["seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

// ---- The family --------------------------------------------------------------------------------

class ComparisonFamily : public Family {
 public:
  std::string name() const override { return "comparison"; }
  std::string summary() const override {
    return "SVMcompare figures 3-5 (Venuto, Hocking et al., §4): pair data sets (simulated squared norms, SUSHI), "
           "for every (data set, figure point, test seed, method) a cell that draws disjoint train / validation / "
           "test sets of n pairs with round(ρ n) equality pairs, fits the method's Gaussian-kernel (C, sigma) grid, "
           "selects on validation (Fig. 4: zero-one error; Fig. 5: AUC; ties: smaller C, then smaller sigma) and "
           "scores the test set. Tables: mean ± sd over the seeds, the papers' claims checked; also writes "
           "`results/<name>[.quick].figure{3,4,5}.csv` and gnuplot scripts that `./run_all.sh` plots.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"datasets", true,
             "`{label: {simulated: l1 \\| l2 \\| linf}}` or `{label: {registry, variant}}` (format `sushi`); the claims of "
             "the paper about ‖x‖₂² apply to the label `l2`"},
            {"simulation", false, "`{pool_pairs, pool_seed, noise_sd}` of the simulated pools (default 20,000, 1, 0.25)"},
            {"seeds", false, "test seeds, one train / validation / test draw each (default [1, 2, 3, 4])"},
            {"figure4", false, "`{n: [...], rho}`: test error vs n at a fixed ρ (default ρ 0.5)"},
            {"figure5", false, "`{rho: [...], n}`: test AUC vs ρ at a fixed n (default n 400)"},
            {"figure3", false,
             "`{dataset, n, seed, resolution}`: level curves of the models selected for that Fig. 4 cell on a "
             "resolution² grid of [−3, 3]² (n must be one of figure4.n)"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"tolerance", false, "AUC difference below which methods count as similar in the claims (default 0.02)"},
            {"published", false, "the paper's description of the figures and its claims (text: the figures have no numbers)"}};
  }
  const std::vector<MethodKind>& methods() const override { return comparison_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<ComparisonRun>(spec); }
};

void ComparisonFamily::validate(const json& spec, const SpecValidator& v) const {
  if (!spec["datasets"].is_object() || spec["datasets"].empty()) v.fail("datasets", "expected a non-empty object");
  for (const auto& [label, d] : spec["datasets"].items()) {
    const std::string where = "datasets." + label;
    if (d.is_object() && d.contains("simulated")) {
      v.keys(d, where, {"simulated"}, {"simulated"});
      const std::string norm = v.string(d, "simulated", where).get<std::string>();
      if (norm != "l1" && norm != "l2" && norm != "linf")
        v.fail(where + ".simulated", "expected l1, l2 or linf, got '" + norm + "'");
    } else {
      v.keys(d, where, {"registry", "variant"}, {"registry"});
      v.registry_dataset(d, where, {"sushi"});
    }
  }
  if (spec.contains("simulation")) {
    const json& s = spec["simulation"];
    v.keys(s, "simulation", {"pool_pairs", "pool_seed", "noise_sd"});
    if (s.contains("pool_pairs")) v.number(s, "pool_pairs", "simulation", 1, 1e7);
    if (s.contains("pool_seed")) v.number(s, "pool_seed", "simulation", 0, 1e15);
    if (s.contains("noise_sd")) v.number(s, "noise_sd", "simulation", 0, 100);
  }
  auto positive_integers = [&](const json& object, const std::string& key, const std::string& where) {
    const json& a = object[key];
    if (!a.is_array() || a.empty()) v.fail(where + "." + key, "expected a non-empty array of positive integers");
    for (const auto& x : a)
      if (!x.is_number_integer() || x.get<long>() < 1) v.fail(where + "." + key, "expected positive integers, got " + x.dump());
  };
  if (spec.contains("seeds")) positive_integers(spec, "seeds", "");
  if (!spec.contains("figure4") && !spec.contains("figure5")) v.fail("figure4", "a spec needs figure4 or figure5");
  if (spec.contains("figure4")) {
    v.keys(spec["figure4"], "figure4", {"n", "rho"}, {"n"});
    positive_integers(spec["figure4"], "n", "figure4");
    if (spec["figure4"].contains("rho")) v.number(spec["figure4"], "rho", "figure4", 0.0, 1.0, true);
  }
  if (spec.contains("figure5")) {
    v.keys(spec["figure5"], "figure5", {"n", "rho"}, {"rho"});
    const json& rho = spec["figure5"]["rho"];
    if (!rho.is_array() || rho.empty()) v.fail("figure5.rho", "expected a non-empty array of shares in (0, 1)");
    for (const auto& x : rho)
      if (!x.is_number() || x.get<double>() <= 0.0 || x.get<double>() >= 1.0)
        v.fail("figure5.rho", "every share must be in (0, 1), got " + x.dump());
    if (spec["figure5"].contains("n")) v.number(spec["figure5"], "n", "figure5", 1, 1e7);
  }
  if (spec.contains("figure3")) {
    const json& f = spec["figure3"];
    v.keys(f, "figure3", {"dataset", "n", "seed", "resolution"}, {"dataset"});
    const std::string d = v.string(f, "dataset", "figure3").get<std::string>();
    if (!spec["datasets"].contains(d) || !spec["datasets"][d].contains("simulated"))
      v.fail("figure3.dataset", "expected the label of a simulated data set of the spec, got '" + d + "'");
    if (f.contains("resolution")) v.number(f, "resolution", "figure3", 2, 1000);
    const auto n = f.value("n", 100L);
    if (!spec.contains("figure4") ||
        std::find(spec["figure4"]["n"].begin(), spec["figure4"]["n"].end(), json(n)) == spec["figure4"]["n"].end())
      v.fail("figure3.n", fmt::format("n = {} is not one of figure4.n", n));
  }
  validate_tolerance(spec, v, 1.0);
  if (spec.contains("published") && !spec["published"].is_object()) v.fail("published", "expected an object");
}

}  // namespace mpg::harness::comparison_impl

namespace mpg::harness {
const Family& comparison_family() {
  static const comparison_impl::ComparisonFamily family;
  return family;
}

}  // namespace mpg::harness
