// Family "chess" (SVMcompare §5, Figure 6; seed 004): yearly chess data sets of comparison pairs
// (white, black) from a game list (lib/features/chess_features: train = the first `train_months`
// months of a year, test = the rest, 16 features per player from earlier games, Elo and Glicko
// rank differences). The protocol (spec keys `history`, `min_games_in`, `rating_updates`,
// `train_months`, `elo_k_new`) defaults to the paper's; `variants` run the same methods under other
// protocols as extra rows. Every (protocol, year, method) is a cell: the method's (kernel
// parameter, C) grid is chosen by the mean validation AUC over time-ordered splits of the first
// `cv_months` months (the first {0.50, 0.75, 0.80, 0.85} of the pairs train, the rest validate;
// ties: smaller C, then smaller kernel parameter), then SVMcompare is trained on the whole train
// window and scored by its test AUC (Table 3's ROC, comparison_roc). The Elo, Glicko and trivial
// (Eq. 20) baselines need no training and are computed for the tables. Every AUC carries a 95 %
// bootstrap interval over the year's test matches, the medians over years one over the test
// matches of every year (lib/stats/auc_bootstrap.hpp). Figure 6 (AUC boxplots over the years) is
// written as CSV and a gnuplot script, the authors' plotted values beside ours.
#include "lib/harness/families/chess.hpp"

namespace mpg::harness::chess_impl {

using Clock = std::chrono::steady_clock;

const std::vector<double> kCvFractions = {0.50, 0.75, 0.80, 0.85};  // [S]

Parameter with_default(Parameter p, json value) {
  p.default_value = std::move(value);
  return p;
}

json c_grid() {
  json values = json::array();
  for (int e = -20; e <= 0; e += 2) values.push_back(std::pow(10.0, e));
  return values;
}

const std::vector<MethodKind>& chess_methods() {
  static const std::vector<MethodKind> kinds = {
      {"svm_compare",
       "SVMcompare (Algorithm 1, libsvm C-SVC on the flipped pairs with the precomputed kernel K~) on the chess "
       "features; the grid is chosen by the mean validation AUC over the time-ordered splits of the first `cv_months` "
       "months, then the model is trained on the whole train window.",
       ParameterTable({
           choice_parameter("kernel", "linear", {"linear", "polynomial", "gaussian"},
                            "kernel: linear, polynomial (a·b + 1)^degree (kernlab polydot defaults) or Gaussian "
                            "exp(−sigma ‖a − b‖²)"),
           choice_parameter("features", "all", {"all", "elo_glicko"},
                            "all 16 player features, or only Elo and Glicko (the paper's 2-feature variant)"),
           with_default(grid_parameter("C", 0.0, 1e12, "grid of C (§5.2: 10^-20, 10^-18, ..., 10^0)"), c_grid()),
           with_default(grid_parameter("degree", 0.0, 20.0, "polynomial degrees tried (§5.2: 1..4)"), json({1, 2, 3, 4})),
           with_default(grid_parameter("sigma", 0.0, 1e12, "Gaussian sigma values tried (§5.2: 0.1, 1, 10)"),
                        json({0.1, 1.0, 10.0})),
           number_parameter("tolerance", 1e-3, 0.0, 1.0, "libsvm's stopping tolerance (its and kernlab's default)", true),
       })},
  };
  return kinds;
}

// ---- Protocols ---------------------------------------------------------------------------------

// The keys that make a protocol: the spec's own, and each variant's overrides of them.
const std::vector<std::string> kProtocolKeys = {"years",   "min_games",    "cv_months",      "train_months",
                                                "history", "min_games_in", "rating_updates", "elo_k_new"};


Protocol protocol_of(const json& spec, const json& variant, std::string label) {
  auto get = [&](const std::string& k, const json& fallback) { return variant.contains(k) ? variant[k] : spec.value(k, fallback); };
  Protocol p;
  p.label = std::move(label);
  p.years = get("years", json::array()).get<std::vector<int>>();
  p.options.min_games = get("min_games", 10).get<int>();
  p.cv_months = get("cv_months", 3).get<int>();
  p.options.train_months = get("train_months", 4).get<int>();
  const std::string history = get("history", "year").get<std::string>();
  const std::string counted = get("min_games_in", "train_window").get<std::string>();
  const std::string updates = get("rating_updates", "match").get<std::string>();
  p.options.history = history == "year" ? ChessHistory::year : ChessHistory::all;
  p.options.count = counted == "train_window" ? ChessGameCount::train_window : ChessGameCount::history;
  p.options.updates = updates == "match" ? RatingUpdates::match : RatingUpdates::month;
  p.options.elo.k_new = get("elo_k_new", 30.0).get<double>();
  p.key = {{"min_games", p.options.min_games}, {"cv_months", p.cv_months},      {"cv_fractions", kCvFractions},
           {"train_months", p.options.train_months}, {"history", history},   {"min_games_in", counted},
           {"rating_updates", updates},          {"elo_k_new", p.options.elo.k_new}};
  p.description = fmt::format(
      "train months 1-{} of a year, test {}-12; players with >= {} games {}; features and ratings from {}, "
      "updated {}; Elo from 1200 with K = 10 / 15 / {:g}",
      p.options.train_months, p.options.train_months + 1, p.options.min_games,
      counted == "train_window" ? "in the train window" : "up to the end of the train window (all history)",
      history == "year" ? "the year's kept games only (from 1200)" : "every earlier game of the file",
      updates == "match" ? "after every match" : "once per month", p.options.elo.k_new);
  return p;
}

// ---- The run -----------------------------------------------------------------------------------



ChessRun::ChessRun(json spec) : spec_(std::move(spec)) {
  choice_ = registry_choice(spec_["dataset"]);
  file_ = choice_.read("games");
  file_.content.clear();
  const std::vector<ChessGame> games = read_chess_games(file_.path);
  protocols_.push_back(protocol_of(spec_, json::object(), "paper"));
  const json variants = spec_.value("variants", json::object());
  for (const auto& [label, variant] : variants.items()) protocols_.push_back(protocol_of(spec_, variant, label));
  for (std::size_t p = 0; p < protocols_.size(); ++p) {
    const Protocol& pr = protocols_[p];
    const int blocks = *std::max_element(pr.years.begin(), pr.years.end()) + 1;
    std::vector<ChessYear> all = chess_year_splits(games, blocks, pr.options);
    years_.emplace_back();
    for (int y : pr.years) years_.back().push_back(std::move(all[static_cast<std::size_t>(y)]));
    for (std::size_t y = 0; y < pr.years.size(); ++y)
      for (const auto& [method, m] : spec_["methods"].items()) {
        cells_.push_back({p, y, method});
        json key = {{"data", {choice_.dataset, choice_.variant, file_.sha256}}, {"year", pr.years[y]}, {"protocol", pr.key}};
        plans_.push_back({method, fmt::format("{} year {} {:<9}", pr.label, pr.years[y], method), key,
                          ParameterValues(family_named("chess").method(m["kind"].get<std::string>()).parameters, m),
                          static_cast<int>(years_[p][y].train.size())});
      }
  }
}

// The pairs restricted to some columns.
PairData columns_of(const PairData& pairs, const std::vector<long>& columns) {
  PairData out;
  out.labels = pairs.labels;
  out.first.resize(pairs.first.rows(), static_cast<long>(columns.size()));
  out.second.resize(pairs.second.rows(), static_cast<long>(columns.size()));
  for (std::size_t j = 0; j < columns.size(); ++j) {
    out.first.col(static_cast<long>(j)) = pairs.first.col(columns[j]);
    out.second.col(static_cast<long>(j)) = pairs.second.col(columns[j]);
  }
  return out;
}

json ChessRun::validate(std::size_t index) const {
  const auto start = Clock::now();
  const Cell& cell = cells_[index];
  const Protocol& protocol = protocols_[cell.protocol];
  const ChessYear& year = years_[cell.protocol][cell.year];
  const ParameterValues& p = plans_[index].parameters;
  const bool two = p.choice("features") == "elo_glicko";
  const PairData train = two ? columns_of(year.train, {kChessEloFeature, kChessGlickoFeature}) : year.train;
  const PairData test = two ? columns_of(year.test, {kChessEloFeature, kChessGlickoFeature}) : year.test;
  json out = {{"fits", 0}, {"unusable_fits", 0}, {"unconverged_fits", 0}, {"skipped_splits", 0},
              {"train_pairs", train.size()}, {"test_pairs", test.size()}, {"selected", nullptr},
              {"test_auc", nullptr}, {"test_differences", json::array()}};
  auto finish = [&](const std::string& status) {
    out["status"] = status;
    out["seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
  };
  if (!both_kinds(train) || !both_kinds(test))
    return finish(fmt::format("{} train and {} test pairs: both need draws and decisive games", train.size(), test.size()));
  // Cross-validation pairs: the first cv_months months of the train window, in time order (month,
  // then the canonical game order of chess_year_splits).
  std::vector<std::size_t> cv;
  for (std::size_t i = 0; i < train.size(); ++i)
    if (year.train_months[i] < year.first_month + protocol.cv_months) cv.push_back(i);
  std::stable_sort(cv.begin(), cv.end(), [&](std::size_t a, std::size_t b) { return year.train_months[a] < year.train_months[b]; });
  out["cv_pairs"] = cv.size();
  struct Split {
    PairData fit, check;
  };
  std::vector<Split> splits;
  int skipped = 0;
  for (double f : kCvFractions) {
    const auto cut = static_cast<std::size_t>(std::lround(f * static_cast<double>(cv.size())));
    Split s{train.subset({cv.begin(), cv.begin() + static_cast<long>(cut)}), train.subset({cv.begin() + static_cast<long>(cut), cv.end()})};
    // A split whose fitting part or validation part lacks a kind of pair cannot be scored: skipped.
    if (both_kinds(s.fit) && both_kinds(s.check))
      splits.push_back(std::move(s));
    else
      ++skipped;
  }
  out["skipped_splits"] = skipped;
  if (splits.empty()) return finish("no validation split has draws and decisive games on both sides");
  const KernelKind kind = parse_kernel_kind(p.choice("kernel"));
  std::vector<double> parameters = {0.0};  // linear: none
  if (kind == KernelKind::polynomial) parameters = p.grid("degree");
  if (kind == KernelKind::gaussian) parameters = p.grid("sigma");
  auto kernel_of = [&](double parameter) {
    Kernel k;
    k.kind = kind;
    if (kind == KernelKind::polynomial) k.degree = static_cast<int>(parameter);
    if (kind == KernelKind::gaussian) k.sigma = parameter;
    return k;
  };
  const std::vector<double> Cs = p.grid("C");
  // Mean validation AUC per (parameter, C) over the usable splits; NaN when a split's model has no
  // ranking function.
  std::vector<std::vector<double>> score(parameters.size(), std::vector<double>(Cs.size(), 0.0));
  int unusable = 0, unconverged = 0, fits = 0;
  for (const Split& s : splits) {
    for (std::size_t a = 0; a < parameters.size(); ++a) {
      const SvmCompareProblem problem = prepare_svm_compare(s.fit, kernel_of(parameters[a]));
      for (std::size_t c = 0; c < Cs.size(); ++c) {
        SvmCompareOptions o;
        o.C = Cs[c];
        o.tolerance = p.number("tolerance");
        SvmCompareSummary summary;
        const ComparisonModel model = train_svm_compare(problem, o, &summary);
        ++fits;
        unconverged += !summary.converged;
        if (!summary.usable) {
          ++unusable;
          score[a][c] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        score[a][c] += comparison_roc(model.differences(s.check), s.check.labels).auc / static_cast<double>(splits.size());
      }
    }
  }
  out["fits"] = fits;
  out["unusable_fits"] = unusable;
  out["unconverged_fits"] = unconverged;
  // The best mean; ties: smaller C, then smaller kernel parameter.
  std::optional<std::pair<std::size_t, std::size_t>> best;
  for (std::size_t c = 0; c < Cs.size(); ++c)
    for (std::size_t a = 0; a < parameters.size(); ++a)
      if (!std::isnan(score[a][c]) && (!best || score[a][c] > score[best->first][best->second])) best = {a, c};
  if (!best) return finish("every grid point has a nonnegative bias (Lemma 3.1)");
  const double parameter = parameters[best->first], C = Cs[best->second];
  out["selected"] = {{"C", C}, {"parameter", parameter}, {"validation_auc", score[best->first][best->second]}};
  SvmCompareOptions o;
  o.C = C;
  o.kernel = kernel_of(parameter);
  o.tolerance = p.number("tolerance");
  SvmCompareSummary summary;
  const ComparisonModel model = train_svm_compare(train, o, &summary);
  out["final_converged"] = summary.converged;
  if (!summary.usable) return finish("the final model has a nonnegative bias (Lemma 3.1)");
  // The test pairs' rank differences: the per-unit statistics of the AUC's bootstrap interval.
  const std::vector<double> differences = model.differences(test);
  out["test_auc"] = comparison_roc(differences, test.labels).auc;
  out["test_differences"] = differences;
  return finish("ok");
}

// ---- The family --------------------------------------------------------------------------------

// The protocol keys of `spec` (the spec itself, or a variant merged over it; `prefix` names where).
void validate_protocol(const json& spec, const std::string& prefix, const SpecValidator& v) {
  const json& years = spec["years"];
  if (!years.is_array() || years.empty()) v.fail(prefix + "years", "expected a non-empty array of block indices");
  std::set<int> seen;
  for (const auto& y : years)
    if (!y.is_number_integer() || y.get<int>() < 0 || y.get<int>() > 1000 || !seen.insert(y.get<int>()).second)
      v.fail(prefix + "years", "every year must be a distinct integer >= 0, got " + y.dump());
  auto integer = [&](const std::string& key, double low, double high) {
    if (!spec.contains(key)) return;
    if (!spec[key].is_number_integer()) v.fail(prefix + key, "expected an integer, got " + spec[key].dump());
    v.number(spec, key, prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1), low, high);
  };
  integer("min_games", 0, 1e6);
  integer("train_months", 1, 11);
  integer("cv_months", 1, 3);
  if (spec.value("cv_months", 3) > spec.value("train_months", 4))
    v.fail(prefix + "cv_months", "the validation months must lie in the train window (cv_months <= train_months)");
  auto choice = [&](const std::string& key, const std::set<std::string>& allowed) {
    if (!spec.contains(key)) return;
    if (!spec[key].is_string() || !allowed.count(spec[key].get<std::string>()))
      v.fail(prefix + key, fmt::format("expected one of {}, got {}", fmt::join(allowed, ", "), spec[key].dump()));
  };
  choice("history", {"year", "all"});
  choice("min_games_in", {"train_window", "history"});
  choice("rating_updates", {"match", "month"});
  if (spec.contains("elo_k_new")) v.number(spec, "elo_k_new", prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1), 0, 100, true);
}

class ChessFamily : public Family {
 public:
  std::string name() const override { return "chess"; }
  std::string summary() const override {
    return "SVMcompare §5 (Figure 6): yearly chess data sets from a game list (registry format `chess_games`; train = "
           "months 1-`train_months` of a 12-month block, test = the rest; players with `min_games` games in the train "
           "window; 16 features per player from the year's earlier games, Elo and Glicko updated after every match: "
           "the paper's protocol, with the earlier ones as `variants`). Every (protocol, year, method) is a cell: the "
           "grid is chosen by the mean validation AUC over time-ordered splits of the first `cv_months` months, the "
           "model trained on the train window and scored by its test AUC (95 % bootstrap interval over the test "
           "matches). Elo, Glicko and the trivial model (Eq. 20) are computed for the tables; also writes "
           "`results/<name>[.quick].figure6.{csv,gp}` (boxplots, ours beside the authors' plotted values).";
  }
  std::vector<SpecKey> keys() const override {
    return {{"dataset", true, "`{registry, variant}`: a game list of the registry (format `chess_games`, file `games`)"},
            {"years", true, "0-based 12-month blocks to run (distinct, >= 0)"},
            {"min_games", false, "games a player needs (default 10, §5.1), counted as `min_games_in` says"},
            {"min_games_in", false,
             "`train_window` (default, §5.1: \"less than 10 matches ... in the train set\") or `history` (every game of "
             "the file up to the end of the train window)"},
            {"train_months", false, "months of a year that train, the rest test (default 4, §5.1; 3: the authors' readme)"},
            {"history", false,
             "what features and ratings are computed from: `year` (default: the year's kept games from its first month, "
             "ratings from 1200) or `all` (every earlier game of the file)"},
            {"rating_updates", false, "`match` (default, §5.1: \"updated after every match\") or `month`"},
            {"elo_k_new", false, "Elo's K for a player with fewer than 30 games (default 30, PlayerRatings' kfide; 25: FIDE before 2011)"},
            {"cv_months", false, "months at the start of a year used by the validation splits (default 3, §5.2; at most train_months)"},
            {"variants", false,
             "`{label: {protocol keys}}`: the same methods under another protocol (any of years, min_games, min_games_in, "
             "train_months, history, rating_updates, elo_k_new, cv_months), shown as rows beside the paper's protocol"},
            {"methods", true,
             "`{label: {kind, parameters}}`; labels Lin-16, Lin-2, Poly-16, Poly-2, Gauss-16, Gauss-2 match the "
             "published columns and the claims"},
            {"published", false,
             "`{source, columns: [...], rows: {set: [AUC per column]}, median: [...], draw_shares: {before_filter, "
             "median_after_filter}}`: the authors' plotted values (a median must be its column's), the paper's draw shares"},
            {"tolerance", false, "a median is matched when \\|ours − published\\| ≤ this (default 0.03)"}};
  }
  const std::vector<MethodKind>& methods() const override { return chess_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override {
    v.keys(spec["dataset"], "dataset", {"registry", "variant"}, {"registry"});
    v.registry_dataset(spec["dataset"], "dataset", {"chess_games"});
    validate_protocol(spec, "", v);
    const json variants = spec.value("variants", json::object());
    if (!variants.is_object()) v.fail("variants", "expected an object {label: {protocol keys}}");
    for (const auto& [label, variant] : variants.items()) {
      const std::string where = "variants." + label;
      if (label == "paper") v.fail(where, "the label 'paper' names the spec's own protocol");
      v.keys(variant, where, std::set<std::string>(kProtocolKeys.begin(), kProtocolKeys.end()));
      json merged = spec;
      for (const auto& [key, value] : variant.items()) merged[key] = value;
      validate_protocol(merged, where + ".", v);
    }
    validate_tolerance(spec, v, 1.0);
    if (spec.contains("published")) {
      const json& p = spec["published"];
      v.keys(p, "published", {"source", "columns", "rows", "median", "draw_shares"}, {"columns", "rows"});
      if (p.contains("draw_shares")) {
        v.keys(p["draw_shares"], "published.draw_shares", {"before_filter", "median_after_filter"}, {"before_filter", "median_after_filter"});
        v.number(p["draw_shares"], "before_filter", "published.draw_shares", 0, 1);
        v.number(p["draw_shares"], "median_after_filter", "published.draw_shares", 0, 1);
      }
      if (!p["columns"].is_array()) v.fail("published.columns", "expected an array of model names");
      for (const auto& [set, values] : p["rows"].items()) {
        if (!values.is_array() || values.size() != p["columns"].size())
          v.fail("published.rows." + set, "expected one number per column");
        for (const auto& x : values)
          if (!x.is_number()) v.fail("published.rows." + set, "expected numbers, got " + x.dump());
      }
      // A transcribed median must be the median of its column's rows (to its 4 decimals).
      if (p.contains("median")) {
        if (!p["median"].is_array() || p["median"].size() != p["columns"].size())
          v.fail("published.median", "expected one number per column");
        for (std::size_t c = 0; c < p["columns"].size(); ++c) {
          std::vector<double> column;
          for (const auto& [set, values] : p["rows"].items()) column.push_back(values[c].get<double>());
          const json& given = p["median"][c];
          if (!given.is_number() || column.empty() || std::abs(given.get<double>() - median(column)) > 5e-5)
            v.fail("published.median", fmt::format("{}: {} is not the median {:.4f} of its rows", p["columns"][c].dump(),
                                                   given.dump(), column.empty() ? kNaN : median(column)));
        }
      }
    }
  }
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<ChessRun>(spec); }
};

}  // namespace mpg::harness::chess_impl

namespace mpg::harness {
const Family& chess_family() {
  static const chess_impl::ChessFamily family;
  return family;
}

}  // namespace mpg::harness
