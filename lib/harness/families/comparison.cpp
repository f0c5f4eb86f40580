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

namespace mpg::harness {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

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

// ---- Data --------------------------------------------------------------------------------------

struct Dataset {
  std::string label;
  std::optional<SquaredNorm> norm;  // simulated r(x) = ||x||_j^2; none: SUSHI
  PairData pool;
  json key;          // what the pool depends on
  std::string about;  // the Data section's line
};

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

// ---- Cells -------------------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  int figure;  // 4 or 5
  std::size_t n;
  double rho;
  std::uint64_t seed;
  std::string method, kind;
  bool level_curves;  // Fig. 3: record r of the selected model on a grid
};

struct Figure3 {
  std::string dataset;
  std::size_t n = 100;
  std::uint64_t seed = 1;
  int resolution = 61;
  double low = -3.0, high = 3.0;
};

// The zero-one error (%) of the constant prediction of the training set's most common label
// (0 on a tie): the sushi panel's "trivial model" (undefined in the paper).
double trivial_error_percent(const PairData& train, const PairData& test) {
  int best = 0;
  for (int label : {-1, 1})
    if (train.count(label) > train.count(best)) best = label;
  return comparison_errors(std::vector<int>(test.size(), best), test.labels).error_percent();
}

class ComparisonRun : public FamilyRun {
 public:
  explicit ComparisonRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t, const json&) const override { return {}; }
  std::string validation_line(const json& v) const override {
    return fmt::format("C={:.3g} sigma={:.3g}  test error {:.1f} %  AUC {:.3f}  ({:.1f} s)", v["selected"]["C"].get<double>(),
                       v["selected"]["sigma"].get<double>(), v["test_error"].get<double>(), v["test_auc"].get<double>(),
                       v["seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override;

 private:
  json spec_;
  std::vector<std::uint64_t> seeds_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::optional<Figure3> figure3_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

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
  json out = {{"selected", {{"C", best.C}, {"sigma", best.sigma}}},
              {"validation_score", by_auc ? best.score : -best.score},
              {"validation_measure", by_auc ? "auc" : "error_percent"},
              {"grid_points", points},
              {"unusable_grid_points", unusable},
              {"unconverged_grid_points", unconverged},
              {"test_error", comparison_errors(model.predict(test), test.labels).error_percent()},
              {"test_auc", comparison_roc(test_differences, test.labels).auc},
              {"trivial_error", trivial_error_percent(train, test)}};
  if (cell.dataset->norm) {
    std::vector<double> truth(test.size());
    for (std::size_t i = 0; i < test.size(); ++i)
      truth[i] = squared_norm_rank(*cell.dataset->norm, test.second.row(static_cast<long>(i)).transpose()) -
                 squared_norm_rank(*cell.dataset->norm, test.first.row(static_cast<long>(i)).transpose());
    out["truth_error"] = true_ranking_error_percent(*cell.dataset->norm, test);
    out["truth_auc"] = comparison_roc(truth, test.labels).auc;
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

// ---- Tables ------------------------------------------------------------------------------------

struct Summary {
  double mean = 0.0, sd = 0.0;
  std::size_t count = 0;
};
Summary summarize(const std::vector<double>& values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(values.size());
  if (values.size() > 1) {
    for (double v : values) s.sd += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(s.sd / static_cast<double>(values.size() - 1));
  }
  return s;
}

// A gnuplot script for a figure CSV (columns dataset, series, x, mean, sd, seeds; each curve's rows
// consecutive and sorted by x): one panel per data set, every series with error bars (sd over the
// seeds). It finds its CSV and names its PNG from its own file name (ARG0), so the same script text
// serves the full and the --quick tables.
std::string gnuplot_curves(const std::string& figure, const std::vector<std::string>& datasets,
                           const std::vector<std::vector<std::string>>& series, const std::string& x_label,
                           const std::string& y_label, const std::string& title, bool log_x) {
  std::string gp = fmt::format(
      "# Generated by mpg run (lib/harness/families/comparison.cpp); run from results/ (./run_all.sh does).\n"
      "stem = ARG0[1:strstrt(ARG0, '.{0}.gp') - 1]\ndata = stem.'.{0}.csv'\n"
      "set datafile separator ','\nset terminal pngcairo size {1},440 font ',10'\nset output stem.'.{0}.png'\n"
      "set multiplot layout 1,{2} title \"{3}\"\nset key top right\nset grid\nset xlabel '{4}'\nset ylabel '{5}'\n{6}",
      figure, 380 * datasets.size(), datasets.size(), title, x_label, y_label, log_x ? "set logscale x 2\n" : "");
  for (std::size_t d = 0; d < datasets.size(); ++d) {
    gp += fmt::format("set title '{}'\nplot ", datasets[d]);
    for (std::size_t s = 0; s < series[d].size(); ++s)
      gp += fmt::format(
          "{}data using 3:((strcol(1) eq '{}' && strcol(2) eq '{}') ? $4 : NaN):5 skip 1 with yerrorlines lt {} title '{}'",
          s ? ", \\\n     " : "", datasets[d], series[d][s], s + 1, series[d][s]);
    gp += "\n";
  }
  return gp + "unset multiplot\n";
}

// Fig. 3: level curves of r for every method (index blocks of the CSV, in the order of `methods`)
// beside the training pairs' segments.
std::string gnuplot_level_curves(const std::vector<std::string>& methods, const std::string& title) {
  std::string gp = fmt::format(
      "# Generated by mpg run (lib/harness/families/comparison.cpp); run from results/ (./run_all.sh does).\n"
      "stem = ARG0[1:strstrt(ARG0, '.figure3.gp') - 1]\n"
      "set datafile separator ','\nset terminal pngcairo size {},420 font ',10'\nset output stem.'.figure3.png'\n"
      "set multiplot layout 1,{} title \"{}\"\nset view map\nunset surface\nset contour base\n"
      "set cntrparam levels auto 8\nunset key\nset size ratio -1\nset xrange [-3:3]\nset yrange [-3:3]\n",
      380 * methods.size(), methods.size(), title);
  for (std::size_t m = 0; m < methods.size(); ++m)
    gp += fmt::format(
        "set title '{}'\nsplot stem.'.figure3.csv' index {} using 2:3:4 with lines lt {}, "
        "stem.'.figure3_training.csv' using 1:2:(0):($3-$1):($4-$2):(0) skip 1 with vectors nohead lc rgb '#999999'\n",
        methods[m], m, m + 1);
  return gp + "unset multiplot\n";
}

Tables ComparisonRun::tables(const Outcome& outcome) const {
  Tables out;
  const double tolerance = tolerance_of(spec_, 0.02);
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  // Per (figure, dataset, series, x): the values over seeds. Series: the methods, "truth", "trivial".
  std::map<std::tuple<int, std::string, std::string, double>, std::vector<double>> values;
  std::map<std::tuple<int, std::string, std::string>, std::vector<json>> selected;
  int unusable = 0, unconverged = 0, points = 0;
  double seconds = 0.0;
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const Cell& c = cells_[i];
    const json& v = outcome.validation[i];
    const double x = c.figure == 4 ? static_cast<double>(c.n) : c.rho;
    const char* measure = c.figure == 4 ? "test_error" : "test_auc";
    values[{c.figure, c.dataset->label, c.method, x}].push_back(v[measure].get<double>());
    selected[{c.figure, c.dataset->label, c.method}].push_back(
        {{"x", x}, {"seed", c.seed}, {"C", v["selected"]["C"]}, {"sigma", v["selected"]["sigma"]}});
    unusable += v["unusable_grid_points"].get<int>();
    unconverged += v["unconverged_grid_points"].get<int>();
    points += v["grid_points"].get<int>();
    seconds += v["seconds"].get<double>();
    // The truth and trivial lines do not depend on the method: take them from the first method's cells.
    if (c.method != methods.front()) continue;
    if (v.contains("truth_error"))
      values[{c.figure, c.dataset->label, "truth", x}].push_back(v[c.figure == 4 ? "truth_error" : "truth_auc"].get<double>());
    else if (c.figure == 4)
      values[{c.figure, c.dataset->label, "trivial", x}].push_back(v["trivial_error"].get<double>());
  }
  std::vector<std::string> labels;
  for (const auto& d : datasets_) labels.push_back(d->label);
  auto series_of = [&](int figure, const std::string& dataset) {
    std::vector<std::string> s = methods;
    for (const char* extra : {"truth", "trivial"})
      if (std::any_of(values.begin(), values.end(), [&](const auto& e) {
            return std::get<0>(e.first) == figure && std::get<1>(e.first) == dataset && std::get<2>(e.first) == extra;
          }))
        s.push_back(extra);
    return s;
  };
  auto stat = [&](int figure, const std::string& dataset, const std::string& series, double x) -> std::optional<Summary> {
    const auto found = values.find({figure, dataset, series, x});
    if (found == values.end()) return std::nullopt;
    return summarize(found->second);
  };
  std::vector<double> xs4, xs5;
  if (spec_.contains("figure4"))
    for (std::size_t n : spec_["figure4"]["n"].get<std::vector<std::size_t>>()) xs4.push_back(static_cast<double>(n));
  if (spec_.contains("figure5")) xs5 = spec_["figure5"]["rho"].get<std::vector<double>>();

  std::string md = fmt::format(
      "Mean ± sd over the test seeds {} (one train / validation / test draw per seed, each of n pairs with round(ρ n) "
      "equality pairs). Fig. 4 selects the grid point of minimum validation zero-one error and reports the test "
      "error (%); Fig. 5 selects by maximum validation AUC and reports the test AUC. The published figures have no "
      "numbers (digest B.7): the papers' claims are checked below instead.\n\n",
      fmt::join(seeds_, ", "));
  std::string csv = "figure,dataset,series,x,mean,sd,seeds\n";
  std::map<int, std::string> figure_csv;
  json rows = json::array();
  for (int figure : {4, 5}) {
    const std::vector<double>& xs = figure == 4 ? xs4 : xs5;
    if (xs.empty()) continue;
    figure_csv[figure] = "dataset,series,x,mean,sd,seeds\n";
    md += figure == 4 ? fmt::format("## Figure 4: test error (%) vs n, ρ = {}\n\n", spec_["figure4"].value("rho", 0.5))
                      : fmt::format("## Figure 5: test AUC vs ρ, n = {}\n\n", spec_["figure5"].value("n", 400));
    for (const auto& d : labels) {
      const auto series = series_of(figure, d);
      md += fmt::format("**{}**\n\n| {} |", d, figure == 4 ? "n" : "ρ");
      for (const auto& s : series) md += fmt::format(" {} |", s);
      md += fmt::format("\n|---|{}\n", fmt::join(std::vector<std::string>(series.size(), "---|"), ""));
      for (double x : xs) {
        md += figure == 4 ? fmt::format("| {} |", x) : fmt::format("| {:.2f} |", x);
        for (const auto& s : series) {
          const auto st = stat(figure, d, s, x);
          if (!st) {
            md += " |";
            continue;
          }
          md += figure == 4 ? fmt::format(" {:.1f} ± {:.1f} |", st->mean, st->sd)
                            : fmt::format(" {:.3f} ± {:.3f} |", st->mean, st->sd);
          figure_csv[figure] += fmt::format("{},{},{},{:.6g},{:.6g},{}\n", d, s, x, st->mean, st->sd, st->count);
          csv += fmt::format("{},{},{},{},{:.6g},{:.6g},{}\n", figure, d, s, x, st->mean, st->sd, st->count);
          rows.push_back({{"figure", std::to_string(figure)}, {"dataset", d}, {"series", s},
                          {"x", fmt::format("{}", x)}, {"mean", st->mean}, {"sd", st->sd}, {"seeds", st->count}});
        }
        md += "\n";
      }
      md += "\n";
    }
  }
  // Re-sort the figure CSVs' rows by (dataset, series, x) so that each curve is consecutive.
  for (auto& [figure, text] : figure_csv) {
    std::vector<std::tuple<std::string, std::string, double, std::string>> lines;
    std::size_t start = text.find('\n') + 1;
    const std::string header = text.substr(0, start);
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      const std::string line = text.substr(start, end - start);
      const std::size_t a = line.find(','), b = line.find(',', a + 1), c = line.find(',', b + 1);
      lines.emplace_back(line.substr(0, a), line.substr(a + 1, b - a - 1), std::stod(line.substr(b + 1, c - b - 1)), line);
      start = end + 1;
    }
    std::stable_sort(lines.begin(), lines.end(), [](const auto& p, const auto& q) {
      return std::tie(std::get<0>(p), std::get<1>(p), std::get<2>(p)) < std::tie(std::get<0>(q), std::get<1>(q), std::get<2>(q));
    });
    text = header;
    for (const auto& l : lines) text += std::get<3>(l) + "\n";
  }

  // ---- The papers' claims ----
  md += fmt::format("## The papers' claims\n\n\"Similar\" and \"close\" mean within {} in AUC (the spec's `tolerance`; "
                    "ours, the paper gives no number).\n\n",
                    tolerance);
  Claims claims;
  auto claim = [&](const std::string& figure, const std::string& text, const std::string& dataset, bool holds,
                   const std::string& evidence) {
    claims.add(text, holds, evidence, {{"figure", figure}, {"dataset", dataset}});
    ++out.tally.published_cells;
    if (holds)
      ++out.tally.within_tolerance;
    else
      out.tally.outside.push_back(fmt::format("{} {}: {} ({})", figure, dataset, text, evidence));
  };
  auto mean_of = [&](int figure, const std::string& d, const std::string& s, double x) {
    const auto st = stat(figure, d, s, x);
    return st ? st->mean : std::numeric_limits<double>::quiet_NaN();
  };
  auto has = [&](const std::string& m) { return std::find(methods.begin(), methods.end(), m) != methods.end(); };
  const bool all_three = has("rank") && has("rank2") && has("compare");
  if (!xs4.empty()) {
    for (const auto& d : labels) {
      // Error falls as n grows (first vs last n, every method).
      std::string evidence;
      bool falls = true;
      for (const auto& m : methods) {
        const double a = mean_of(4, d, m, xs4.front()), b = mean_of(4, d, m, xs4.back());
        falls = falls && b < a;
        evidence += fmt::format("{}{} {:.1f} → {:.1f}", evidence.empty() ? "" : "; ", m, a, b);
      }
      if (xs4.size() > 1) claim("Fig. 4", "test error decreases as n increases", d, falls, evidence);
      if (!all_three) continue;
      // rank > rank2 > compare in error, at each n: counted.
      int ordered = 0;
      double sum[3] = {0, 0, 0};
      for (double x : xs4) {
        const double r = mean_of(4, d, "rank", x), r2 = mean_of(4, d, "rank2", x), c = mean_of(4, d, "compare", x);
        ordered += r > r2 && r2 > c;
        sum[0] += r / static_cast<double>(xs4.size());
        sum[1] += r2 / static_cast<double>(xs4.size());
        sum[2] += c / static_cast<double>(xs4.size());
      }
      claim("Fig. 4", "rank has the highest test error, rank2 next, compare the lowest (mean over n)", d,
            sum[0] > sum[1] && sum[1] > sum[2],
            fmt::format("mean over n: rank {:.1f}, rank2 {:.1f}, compare {:.1f}; strict order at {} of {} n", sum[0],
                        sum[1], sum[2], ordered, xs4.size()));
      if (d == "l2" || (datasets_.size() == 1 && false)) {
        const auto c = stat(4, d, "compare", xs4.back());
        const double t = mean_of(4, d, "truth", xs4.back());
        if (c)
          claim("Fig. 4", "compare reaches the truth's test error for ‖x‖₂² (largest n, within compare's sd)", d,
                c->mean - t <= c->sd,
                fmt::format("n = {}: compare {:.1f} ± {:.1f}, truth {:.1f}", xs4.back(), c->mean, c->sd, t));
      }
    }
  }
  if (!xs5.empty() && all_three) {
    for (const auto& d : labels) {
      const bool simulated = std::any_of(datasets_.begin(), datasets_.end(),
                                         [&](const auto& ds) { return ds->label == d && ds->norm.has_value(); });
      auto spread = [&](double x) {
        double low = 1e9, high = -1e9;
        for (const auto& m : {"rank", "rank2", "compare"}) {
          low = std::min(low, mean_of(5, d, m, x));
          high = std::max(high, mean_of(5, d, m, x));
        }
        return high - low;
      };
      if (d == "l2") {
        double worst = 0.0;
        for (double x : xs5)
          for (const auto& m : {"rank", "rank2", "compare"})
            worst = std::max(worst, mean_of(5, d, "truth", x) - mean_of(5, d, m, x));
        claim("Fig. 5", "all methods close to the true ranking function for ‖x‖₂² (every ρ)", d, worst <= tolerance,
              fmt::format("largest AUC below the truth's: {:.3f}", worst));
      }
      if (simulated) {
        claim("Fig. 5", "all methods similar at ρ = 0.1", d, spread(xs5.front()) <= tolerance,
              fmt::format("ρ = {:.2f}: AUC spread {:.3f}", xs5.front(), spread(xs5.front())));
        const double x = xs5.back();
        const double r = mean_of(5, d, "rank", x), r2 = mean_of(5, d, "rank2", x), c = mean_of(5, d, "compare", x);
        claim("Fig. 5", "at ρ = 0.9 compare and rank2 clearly outperform rank (by more than the tolerance)", d,
              c - r > tolerance && r2 - r > tolerance,
              fmt::format("ρ = {:.2f}: rank {:.3f}, rank2 {:.3f}, compare {:.3f}", x, r, r2, c));
        double gap = 0.0;
        for (double rho : xs5) gap += std::abs(mean_of(5, d, "rank2", rho) - mean_of(5, d, "compare", rho));
        gap /= static_cast<double>(xs5.size());
        claim("Fig. 5", "rank2 and compare perform similarly (mean absolute AUC difference over ρ)", d, gap <= tolerance,
              fmt::format("{:.3f}", gap));
      } else {
        double worst = 0.0;
        for (double rho : xs5) worst = std::max(worst, spread(rho));
        claim("Fig. 5", "sushi: test AUC about the same for all models (largest spread over ρ)", d, worst <= tolerance,
              fmt::format("{:.3f}", worst));
      }
    }
  }
  md += claims.markdown({{"figure", "figure"}, {"claim", "claim"}, {"dataset", "data set"}}) + "\n";

  // ---- Figure files ----
  for (const auto& [figure, text] : figure_csv) {
    const std::string name = fmt::format("figure{}", figure);
    std::vector<std::vector<std::string>> series;
    for (const auto& d : labels) series.push_back(series_of(figure, d));
    out.extra_files.push_back({"." + name + ".csv", text});
    out.extra_files.push_back(
        {"." + name + ".gp",
         figure == 4 ? gnuplot_curves(name, labels, series, "n (pairs per set)", "test error (%)",
                                      fmt::format("SVMcompare Fig. 4: test error vs n, rho = {} (mean and sd over {} seeds)",
                                                  spec_["figure4"].value("rho", 0.5), seeds_.size()),
                                      true)
                     : gnuplot_curves(name, labels, series, "rho (share of equality pairs)", "test AUC",
                                      fmt::format("SVMcompare Fig. 5: test AUC vs rho, n = {} (mean and sd over {} seeds)",
                                                  spec_["figure5"].value("n", 400), seeds_.size()),
                                      false)});
  }

  // ---- Fig. 3: level curves ----
  if (figure3_) {
    std::string curves = "method,x1,x2,r\n";
    std::string train_csv = "x1,x2,x1_prime,x2_prime,y\n";
    bool found = false;
    std::vector<std::string> curve_methods;
    const int r = figure3_->resolution;
    // The true ranking function first.
    for (const auto& d : datasets_)
      if (d->label == figure3_->dataset && d->norm) {
        curve_methods.push_back("truth");
        for (int a = 0; a < r; ++a) {
          for (int b = 0; b < r; ++b) {
            Eigen::Vector2d x(figure3_->low + (figure3_->high - figure3_->low) * a / (r - 1),
                              figure3_->low + (figure3_->high - figure3_->low) * b / (r - 1));
            curves += fmt::format("truth,{:.6g},{:.6g},{:.6g}\n", x(0), x(1), squared_norm_rank(*d->norm, x));
          }
          curves += "\n";
        }
      }
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!cells_[i].level_curves) continue;
      const json& v = outcome.validation[i];
      const auto& level = v["level_curves"];
      if (!curve_methods.empty()) curves += "\n";  // two blank lines: gnuplot's index blocks, one per method
      curve_methods.push_back(cells_[i].method);
      for (int a = 0; a < r; ++a) {
        for (int b = 0; b < r; ++b) {
          const double x1 = figure3_->low + (figure3_->high - figure3_->low) * a / (r - 1);
          const double x2 = figure3_->low + (figure3_->high - figure3_->low) * b / (r - 1);
          curves += fmt::format("{},{:.6g},{:.6g},{:.6g}\n", cells_[i].method, x1, x2, level[static_cast<std::size_t>(a * r + b)].get<double>());
        }
        curves += "\n";
      }
      if (!found)
        for (const auto& t : v["training_pairs"])
          train_csv += fmt::format("{:.6g},{:.6g},{:.6g},{:.6g},{}\n", t[0].get<double>(), t[1].get<double>(),
                                   t[2].get<double>(), t[3].get<double>(), t[4].get<int>());
      found = true;
    }
    if (found) {
      out.extra_files.push_back({".figure3.csv", curves});
      out.extra_files.push_back({".figure3_training.csv", train_csv});
      out.extra_files.push_back(
          {".figure3.gp", gnuplot_level_curves(curve_methods, fmt::format("SVMcompare Fig. 3: level curves of r, {} data, n = {}, "
                                                                          "seed {} (training pairs in grey)",
                                                                          figure3_->dataset, figure3_->n, figure3_->seed))});
    }
  }

  md += "## Selected grid points and cost\n\n";
  md += fmt::format("{} cells, {} grid points fitted in {:.0f} s (sum over cells); {} SVMcompare grid points had a "
                    "nonnegative bias (skipped, Lemma 3.1); {} fits stopped at a solver cap.\n\n",
                    cells_.size(), points, seconds, unusable, unconverged);
  md += "| figure | data set | method | selected (x: C, sigma) per seed |\n|---|---|---|---|\n";
  for (const auto& [key, list] : selected) {
    std::string text;
    for (const auto& s : list)
      text += fmt::format("{}{} s{}: {:.3g}, {:.3g}", text.empty() ? "" : "; ", s["x"].get<double>(),
                          s["seed"].get<std::uint64_t>(), s["C"].get<double>(), s["sigma"].get<double>());
    md += fmt::format("| {} | {} | {} | {} |\n", std::get<0>(key), std::get<1>(key), std::get<2>(key), text);
  }
  md += "\n## Data\n\n";
  for (const auto& d : datasets_) md += fmt::format("- **{}**: {}.\n", d->label, d->about);
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);
  out.markdown = md;
  out.csv = csv;
  out.fields = {{"seeds", seeds_}, {"rows", rows}, {"claims", claims.to_json()}, {"unusable_grid_points", unusable},
                {"unconverged_grid_points", unconverged}, {"published", published_of(spec_)}};
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

}  // namespace

const Family& comparison_family() {
  static const ComparisonFamily family;
  return family;
}

}  // namespace mpg::harness
