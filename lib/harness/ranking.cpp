// Experiment type "ranking" (thesis §5.3, Table XII and Figure 8): LETOR data sets of five
// subsets S1..S5 and the LETOR 5-fold rotation, fold K: train S_K, S_K+1, S_K+2, validation
// S_K+3, test S_K+4 (indices mod 5). Every (data set, fold, method, grid value) is a cached
// validation cell: train on the training subsets, score on the validation subset. The best grid
// value per (data set, fold, method) is scored on the test subset (one cached test cell); the
// tables average the test metrics over the folds, as LETOR reports them. Boosters (AdaRank,
// RankBoost) also choose their number of rounds on the validation subset.
#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>

#include "baselines/rankers.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/common.hpp"
#include "lib/harness/progress.hpp"
#include "lib/base/io.hpp"
#include "lib/data/letor.hpp"
#include "lib/models/ranking_mpg.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxK = 10;  // NDCG@1..10, P@1..10
// Label suffix of MPG's second decision rule (ranking by expected gain under Q*).
constexpr const char* kGainRuleSuffix = " (E[gain] rule)";
const std::set<std::string> kKinds = {"mpg", "ranksvm", "listnet", "adarank", "rankboost"};

// The grid key of a method kind ("" = no grid: one cell).
std::string grid_key(const std::string& kind) {
  if (kind == "mpg" || kind == "listnet") return "lambda";
  if (kind == "ranksvm") return "C";
  return "";
}

// "mean_ndcg", "map" or "ndcg@k" (1 <= k <= 10): the validation score that selects.
double selection_score(const RankingMetrics& m, const std::string& measure) {
  if (measure == "mean_ndcg") return m.mean_ndcg;
  if (measure == "map") return m.map;
  return m.ndcg_at[static_cast<std::size_t>(std::stoi(measure.substr(5)) - 1)];
}

bool valid_selection(const std::string& measure) {
  if (measure == "mean_ndcg" || measure == "map") return true;
  for (std::size_t k = 1; k <= kMaxK; ++k)
    if (measure == fmt::format("ndcg@{}", k)) return true;
  return false;
}

}  // namespace

void validate_ranking_spec(const json& spec, const std::string& path) {
  const SpecValidator v(path);
  v.keys(spec, "",
         {"task", "name", "title", "source", "datasets", "folds", "discount", "selection_metric", "methods",
          "published", "quick", "notes"},
         {"name", "datasets", "methods"});
  v.string(spec, "name", "");
  for (const char* key : {"title", "source"})
    if (spec.contains(key)) v.string(spec, key, "");
  if (spec.contains("discount")) {
    const std::string d = v.string(spec, "discount", "").get<std::string>();
    if (d != "letor" && d != "thesis") v.fail("discount", "expected 'letor' (DCG'') or 'thesis' (Eq. 4.13), got '" + d + "'");
  }
  if (spec.contains("selection_metric")) {
    const std::string s = v.string(spec, "selection_metric", "").get<std::string>();
    if (!valid_selection(s)) v.fail("selection_metric", "expected 'mean_ndcg', 'map' or 'ndcg@k' with k in 1..10, got '" + s + "'");
  }
  if (spec.contains("folds")) {
    const json& folds = spec["folds"];
    if (!folds.is_array() || folds.empty()) v.fail("folds", "expected a non-empty array of fold numbers 1..5");
    std::set<int> seen;
    for (const auto& f : folds)
      if (!f.is_number_integer() || f.get<int>() < 1 || f.get<int>() > 5 || !seen.insert(f.get<int>()).second)
        v.fail("folds", "every fold must be a distinct integer in 1..5, got " + f.dump());
  }
  if (!spec["datasets"].is_object() || spec["datasets"].empty()) v.fail("datasets", "expected a non-empty object");
  for (const auto& [label, d] : spec["datasets"].items()) {
    const std::string where = "datasets." + label;
    v.keys(d, where, {"registry", "variant"}, {"registry"});
    v.registry_dataset(d, where);
    if (dataset_registry()[d["registry"].get<std::string>()].value("format", "") != "letor")
      v.fail(where + ".registry", "dataset '" + d["registry"].get<std::string>() + "' is not a LETOR data set");
  }
  if (!spec["methods"].is_object() || spec["methods"].empty()) v.fail("methods", "expected a non-empty object");
  for (const auto& [label, m] : spec["methods"].items()) {
    const std::string where = "methods." + label;
    if (!m.is_object() || !m.contains("kind")) v.fail(where, "expected an object with a 'kind'");
    const std::string kind = v.string(m, "kind", where).get<std::string>();
    if (!kKinds.count(kind)) v.fail(where + ".kind", "unknown kind '" + kind + "' (known: mpg, ranksvm, listnet, adarank, rankboost)");
    if (kind == "mpg") {
      v.keys(m, where,
             {"kind", "lambda", "max_seconds", "max_iterations", "optimizer", "objective_tolerance", "game_solver",
              "decision_game_solver", "game_tolerance", "game_max_seconds"},
             {"lambda"});
      for (const char* key : {"game_solver", "decision_game_solver"})
        if (m.contains(key)) {
          const std::string solver = v.string(m, key, where).get<std::string>();
          if (solver != "greedy" && solver != "lp" && solver != "double_oracle")
            v.fail(where + "." + key, "expected 'greedy', 'lp' or 'double_oracle', got '" + solver + "'");
        }
      if (m.contains("max_seconds")) v.number(m, "max_seconds", where, 0.0, 1e9);
      if (m.contains("optimizer")) {
        const std::string optimizer = v.string(m, "optimizer", where).get<std::string>();
        if (optimizer != "lbfgs" && optimizer != "adadelta" && optimizer != "cutting_plane")
          v.fail(where + ".optimizer", "expected 'lbfgs', 'adadelta' or 'cutting_plane', got '" + optimizer + "'");
      }
      if (m.contains("objective_tolerance")) v.number(m, "objective_tolerance", where, 0.0, 1.0, true);
      if (m.contains("game_max_seconds")) v.number(m, "game_max_seconds", where, 0.0, 1e9);
      if (m.contains("game_tolerance")) v.number(m, "game_tolerance", where, 0.0, 1.0, true);
    } else if (kind == "ranksvm") {
      v.keys(m, where, {"kind", "C", "max_iterations"}, {"C"});
    } else if (kind == "listnet") {
      v.keys(m, where, {"kind", "lambda", "max_iterations"}, {"lambda"});
    } else if (kind == "adarank") {
      v.keys(m, where, {"kind", "measure", "rounds", "ndcg_k"}, {"measure"});
      const std::string measure = v.string(m, "measure", where).get<std::string>();
      if (measure != "ndcg" && measure != "map") v.fail(where + ".measure", "expected 'ndcg' or 'map', got '" + measure + "'");
      if (m.contains("ndcg_k")) v.number(m, "ndcg_k", where, 1, 1000);
    } else {
      v.keys(m, where, {"kind", "rounds", "thresholds"});
      if (m.contains("thresholds")) v.number(m, "thresholds", where, 1, 1e6);
    }
    if (m.contains("rounds")) v.number(m, "rounds", where, 1, 1e6);
    if (m.contains("max_iterations")) v.number(m, "max_iterations", where, 1, 1e7);
    const std::string grid = grid_key(kind);
    if (!grid.empty()) v.positive_grid(m, grid, where);
  }
  if (spec.contains("published")) {
    const json& p = spec["published"];
    v.keys(p, "published", {"dataset", "source", "mean_ndcg", "ndcg_at"}, {"dataset"});
    v.string(p, "dataset", "published");
    if (p.contains("mean_ndcg")) {
      if (!p["mean_ndcg"].is_object()) v.fail("published.mean_ndcg", "expected {method: value}");
      for (const auto& [method, value] : p["mean_ndcg"].items())
        if (!value.is_number()) v.fail("published.mean_ndcg." + method, "expected a number");
    }
    if (p.contains("ndcg_at")) {
      if (!p["ndcg_at"].is_object()) v.fail("published.ndcg_at", "expected {method: {k: value}}");
      for (const auto& [method, values] : p["ndcg_at"].items()) {
        if (!values.is_object()) v.fail("published.ndcg_at." + method, "expected {k: value}");
        for (const auto& [k, value] : values.items()) {
          const bool good_k = std::all_of(k.begin(), k.end(), ::isdigit) && !k.empty() && std::stoi(k) >= 1 &&
                              std::stoi(k) <= static_cast<int>(kMaxK);
          if (!good_k || !value.is_number())
            v.fail("published.ndcg_at." + method + "." + k, "expected k in 1..10 and a number");
        }
      }
    }
  }
  if (spec.contains("notes") && !spec["notes"].is_array()) v.fail("notes", "expected an array of strings");
}

namespace {

struct Dataset {
  std::string label, registry, variant;
  std::vector<std::vector<RankingQuery>> subsets;  // S1..S5
  std::vector<std::vector<std::string>> query_ids;
  std::vector<std::string> files, sha256;
  std::vector<bool> verified;
  int levels = 3;
  long features = 0;
};

// Training, validation and test subsets (0-based) of LETOR fold K (1-based).
struct FoldParts {
  std::vector<int> train;
  int validation, test;
};
FoldParts fold_parts(int fold) {
  const int k = fold - 1;
  return {{k % 5, (k + 1) % 5, (k + 2) % 5}, (k + 3) % 5, (k + 4) % 5};
}

Dataset load_dataset(const std::string& label, const json& d) {
  Dataset data;
  data.label = label;
  data.registry = d["registry"].get<std::string>();
  const json& entry = dataset_registry()[data.registry];
  data.variant = d.value("variant", entry["default_variant"].get<std::string>());
  const json& variant = entry["variants"][data.variant];
  data.levels = entry.value("levels", 3);
  const long declared = entry.value("features", 0L);
  const json& subsets = variant.at("subsets");
  if (!subsets.is_array() || subsets.size() != 5)
    throw Error("datasets/registry.json: " + data.registry + " " + data.variant + " must list 5 subsets");
  for (const auto& s : subsets) {
    const std::string path = (std::filesystem::path(data_directory()) / s.at("file").get<std::string>()).string();
    if (!std::filesystem::exists(path))
      throw InputError(path, "missing data file of dataset '" + data.registry + "' (" + data.variant +
                                 "); set MPG_DATA_DIR or see datasets/README.md");
    const std::string content_hash = sha256_hex(read_file(path));
    const json& expected = s.at("sha256");
    if (expected.is_string() && expected.get<std::string>() != content_hash)
      throw InputError(path, "sha256 mismatch: expected " + expected.get<std::string>() + ", got " + content_hash +
                                 " (wrong or corrupt file for dataset '" + data.registry + "' " + data.variant + ")");
    if (!expected.is_string())
      std::cerr << path << ": warning: datasets/registry.json has no sha256 for this file yet; its content hash is "
                << content_hash << " (unverified)\n";
    const LetorData letor = read_letor(path, declared);
    if (declared > 0 && letor.features > declared)
      throw InputError(path, fmt::format("has feature index {} beyond the registry's {} features", letor.features, declared));
    std::vector<RankingQuery> queries;
    std::vector<std::string> ids;
    for (const auto& q : letor.queries) {
      for (int r : q.relevance)
        if (r >= data.levels)
          throw InputError(path, fmt::format("query {}: relevance {} outside the registry's levels 0..{}", q.id, r,
                                             data.levels - 1));
      queries.push_back({q.features, q.relevance});
      ids.push_back(q.id);
    }
    data.features = letor.features;
    data.subsets.push_back(std::move(queries));
    data.query_ids.push_back(std::move(ids));
    data.files.push_back(s.at("file").get<std::string>());
    data.sha256.push_back(content_hash);
    data.verified.push_back(expected.is_string());
  }
  return data;
}

struct Cell {
  const Dataset* dataset;
  int fold;
  std::string method;
  json method_spec;
  double parameter = 0.0;  // grid value (0 when the kind has no grid)
};

json to_json(const RankingMetrics& m) {
  return {{"mean_ndcg", m.mean_ndcg}, {"map", m.map}, {"ndcg_at", m.ndcg_at}, {"precision_at", m.precision_at},
          {"queries", m.queries}};
}

RankingMetrics from_json(const json& j) {
  RankingMetrics m;
  m.mean_ndcg = j["mean_ndcg"].get<double>();
  m.map = j["map"].get<double>();
  m.ndcg_at = j["ndcg_at"].get<std::vector<double>>();
  m.precision_at = j["precision_at"].get<std::vector<double>>();
  m.queries = j["queries"].get<int>();
  return m;
}

template <class ScoreQuery>
RankingMetrics evaluate_scores(const std::vector<RankingQuery>& queries, DcgDiscount discount, ScoreQuery scores_of) {
  RankingMetrics m;
  for (const auto& q : queries) m.add(evaluate_ranking(ranking_by_scores(scores_of(q)), q.relevance, discount, kMaxK));
  m.finish();
  return m;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class RankingExperiment {
 public:
  RankingExperiment(json spec, const std::string& path, const RunOptions& options)
      : spec_(std::move(spec)), options_(options), spec_file_(std::filesystem::path(path).stem().string()) {
    name_ = spec_["name"].get<std::string>();
    discount_ = parse_dcg_discount(spec_.value("discount", "letor"));
    selection_ = spec_.value("selection_metric", "mean_ndcg");
    folds_ = spec_.value("folds", std::vector<int>{1, 2, 3, 4, 5});
    revision_ = source_revision();
    results_dir_ = results_directory(options);
    cache_ = CellCache(cache_directory(options, name_));
  }
  RunSummary run();

 private:
  std::vector<RankingQuery> training_queries(const Dataset& d, int fold) const {
    std::vector<RankingQuery> out;
    for (int s : fold_parts(fold).train) out.insert(out.end(), d.subsets[static_cast<std::size_t>(s)].begin(),
                                                    d.subsets[static_cast<std::size_t>(s)].end());
    return out;
  }
  const std::vector<RankingQuery>& validation_queries(const Dataset& d, int fold) const {
    return d.subsets[static_cast<std::size_t>(fold_parts(fold).validation)];
  }
  const std::vector<RankingQuery>& test_queries(const Dataset& d, int fold) const {
    return d.subsets[static_cast<std::size_t>(fold_parts(fold).test)];
  }
  json cell_key(const Cell& c, const std::string& phase) const {
    json method = c.method_spec;
    const std::string grid = grid_key(method["kind"].get<std::string>());
    if (!grid.empty()) method.erase(grid);
    return {{"phase", phase}, {"revision", revision_}, {"discount", to_string(discount_)}, {"selection", selection_},
            {"data", {c.dataset->registry, c.dataset->variant, c.dataset->sha256}}, {"fold", c.fold},
            {"method", method}, {"parameter", c.parameter}};
  }
  json run_validation_cell(const Cell& c) const;
  json run_test_cell(const Cell& c, const json& validation) const;
  void write_tables(RunSummary& summary, const std::vector<Cell>& cells, const std::vector<json>& validation,
                    const std::map<std::string, json>& tests, double seconds) const;

  json spec_;
  RunOptions options_;
  std::string spec_file_;  // the spec's file name without .json (the name may be overridden)
  std::string name_, selection_, revision_, results_dir_;
  DcgDiscount discount_ = DcgDiscount::letor;
  std::vector<int> folds_;
  CellCache cache_{""};
  std::vector<std::unique_ptr<Dataset>> datasets_;
};

OptimizerOptions optimizer_for(const json& m, int default_iterations) {
  OptimizerOptions o;
  o.max_iterations = m.value("max_iterations", default_iterations);
  return o;
}

DoubleOracleOptions game_options_for(const json& m) {
  DoubleOracleOptions g;
  g.tolerance = m.value("game_tolerance", 1e-6);
  g.max_seconds = m.value("game_max_seconds", 0.0);
  return g;
}

// The solver whose predictor strategy makes the validation and test rankings (the most probable
// permutation depends on how the equilibrium's marginals are decomposed): `game_solver` unless
// `decision_game_solver` says otherwise.
DcgGameSolver decision_solver_for(const json& m) {
  return parse_dcg_game_solver(m.value("decision_game_solver", m.value("game_solver", std::string("greedy"))));
}

json RankingExperiment::run_validation_cell(const Cell& c) const {
  const Dataset& d = *c.dataset;
  const std::vector<RankingQuery> train = training_queries(d, c.fold);
  const std::vector<RankingQuery>& validation = validation_queries(d, c.fold);
  const std::string kind = c.method_spec["kind"].get<std::string>();
  json result;
  const auto start = clock_type::now();
  if (kind == "mpg") {
    RankingMpgOptions options;
    options.lambda = c.parameter;
    options.levels = d.levels;
    options.discount = discount_;
    options.optimizer = optimizer_for(c.method_spec, 200);
    options.optimizer.kind = parse_optimizer_kind(c.method_spec.value("optimizer", std::string("lbfgs")));
    options.optimizer.cutting_plane_tolerance = c.method_spec.value("objective_tolerance", 1e-6);
    options.game = game_options_for(c.method_spec);
    options.solver = parse_dcg_game_solver(c.method_spec.value("game_solver", "greedy"));
    const DcgGameSolver decision = decision_solver_for(c.method_spec);
    options.max_seconds = c.method_spec.value("max_seconds", 0.0);
    RankingMpgSummary summary;
    const RankingMpgModel model = train_ranking_mpg(train, options, &summary);
    result["train_seconds"] = seconds_since(start);
    result["training"] = summary.to_json();
    result["weights"] = std::vector<double>(model.theta.data(), model.theta.data() + model.theta.size());
    const auto t = clock_type::now();
    std::vector<QueryMetrics> per_query(validation.size());
    tbb::parallel_for(std::size_t{0}, validation.size(), [&](std::size_t q) {
      const RankingMpgPrediction p = predict_ranking_mpg(model, validation[q].features, decision, options.game);
      per_query[q] = evaluate_ranking(p.order, validation[q].relevance, discount_, kMaxK);
    });
    RankingMetrics m;
    for (const auto& q : per_query) m.add(q);
    m.finish();
    result["validation_seconds"] = seconds_since(t);
    result["validation"] = to_json(m);
  } else if (kind == "ranksvm" || kind == "listnet") {
    LinearRanker model;
    if (kind == "ranksvm") {
      RankSvmOptions options;
      options.C = c.parameter;
      options.optimizer = optimizer_for(c.method_spec, 500);
      model = train_ranksvm(train, options);
    } else {
      ListNetOptions options;
      options.lambda = c.parameter;
      options.optimizer = optimizer_for(c.method_spec, 500);
      model = train_listnet(train, options);
    }
    result["train_seconds"] = seconds_since(start);
    result["weights"] = std::vector<double>(model.weights.data(), model.weights.data() + model.weights.size());
    const auto t = clock_type::now();
    result["validation"] = to_json(evaluate_scores(validation, discount_, [&](const RankingQuery& q) { return model.scores(q.features); }));
    result["validation_seconds"] = seconds_since(t);
  } else if (kind == "adarank") {
    AdaRankOptions options;
    options.measure = c.method_spec["measure"] == "map" ? AdaRankMeasure::map : AdaRankMeasure::ndcg;
    options.ndcg_k = static_cast<std::size_t>(c.method_spec.value("ndcg_k", 10));
    options.discount = discount_;
    options.rounds = c.method_spec.value("rounds", 200);
    const AdaRankModel model = train_adarank(train, options);
    result["train_seconds"] = seconds_since(start);
    // The validation subset chooses the number of rounds (first best).
    const auto t = clock_type::now();
    std::size_t best = 0;
    double best_score = -1.0;
    RankingMetrics best_metrics;
    for (std::size_t r = 0; r < model.weights_after.size(); ++r) {
      const Eigen::VectorXd& w = model.weights_after[r];
      const RankingMetrics m = evaluate_scores(validation, discount_, [&](const RankingQuery& q) { return Eigen::VectorXd(q.features * w); });
      if (selection_score(m, selection_) > best_score) {
        best_score = selection_score(m, selection_);
        best = r;
        best_metrics = m;
      }
    }
    result["rounds_used"] = best + 1;
    result["weights"] = std::vector<double>(model.weights_after[best].data(),
                                            model.weights_after[best].data() + model.weights_after[best].size());
    result["validation"] = to_json(best_metrics);
    result["validation_seconds"] = seconds_since(t);
  } else {
    RankBoostOptions options;
    options.rounds = c.method_spec.value("rounds", 200);
    options.thresholds = c.method_spec.value("thresholds", 16);
    const RankBoostModel model = train_rankboost(train, options);
    result["train_seconds"] = seconds_since(start);
    const auto t = clock_type::now();
    // Validation scores grow round by round; the validation subset chooses the rounds.
    std::vector<Eigen::VectorXd> scores;
    for (const auto& q : validation) scores.push_back(Eigen::VectorXd::Zero(q.features.rows()));
    std::size_t best = 0;
    double best_score = -1.0;
    RankingMetrics best_metrics;
    for (std::size_t r = 0; r < model.rounds.size(); ++r) {
      const ThresholdRanker& h = model.rounds[r];
      RankingMetrics m;
      for (std::size_t q = 0; q < validation.size(); ++q) {
        for (Eigen::Index j = 0; j < scores[q].size(); ++j)
          if (validation[q].features(j, h.feature) > h.threshold) scores[q][j] += h.alpha;
        m.add(evaluate_ranking(ranking_by_scores(scores[q]), validation[q].relevance, discount_, kMaxK));
      }
      m.finish();
      if (selection_score(m, selection_) > best_score) {
        best_score = selection_score(m, selection_);
        best = r;
        best_metrics = m;
      }
    }
    json rounds = json::array();
    for (std::size_t r = 0; r <= best && r < model.rounds.size(); ++r)
      rounds.push_back({model.rounds[r].feature, model.rounds[r].threshold, model.rounds[r].alpha});
    result["rounds_used"] = rounds.size();
    result["rankers"] = rounds;
    result["validation"] = to_json(best_metrics);
    result["validation_seconds"] = seconds_since(t);
  }
  return result;
}

json RankingExperiment::run_test_cell(const Cell& c, const json& validation) const {
  const Dataset& d = *c.dataset;
  const std::vector<RankingQuery>& test = test_queries(d, c.fold);
  const std::string kind = c.method_spec["kind"].get<std::string>();
  json result;
  const auto start = clock_type::now();
  RankingMetrics m;
  if (kind == "mpg") {
    RankingMpgModel model;
    model.levels = d.levels;
    model.discount = discount_;
    const auto w = validation["weights"].get<std::vector<double>>();
    model.theta = Eigen::Map<const Eigen::MatrixXd>(w.data(), d.features + 1, d.levels - 1);
    const DoubleOracleOptions game = game_options_for(c.method_spec);
    const DcgGameSolver solver = decision_solver_for(c.method_spec);
    std::vector<QueryMetrics> per_query(test.size()), per_query_gain(test.size());
    std::vector<double> game_seconds(test.size());
    std::vector<int> iterations(test.size()), converged(test.size());
    tbb::parallel_for(std::size_t{0}, test.size(), [&](std::size_t q) {
      const RankingMpgPrediction p = predict_ranking_mpg(model, test[q].features, solver, game);
      per_query[q] = evaluate_ranking(p.order, test[q].relevance, discount_, kMaxK);
      per_query_gain[q] = evaluate_ranking(p.expected_gain_order, test[q].relevance, discount_, kMaxK);
      game_seconds[q] = p.game.seconds;
      iterations[q] = p.game.iterations;
      converged[q] = p.game.converged;
    });
    for (const auto& q : per_query) m.add(q);
    m.finish();
    RankingMetrics by_gain;
    for (const auto& q : per_query_gain) by_gain.add(q);
    by_gain.finish();
    result["test_expected_gain_rule"] = to_json(by_gain);
    std::vector<int> sizes;
    for (const auto& q : test) sizes.push_back(static_cast<int>(q.relevance.size()));
    result["games"] = {{"seconds", game_seconds}, {"iterations", iterations}, {"documents", sizes},
                       {"unconverged", static_cast<int>(std::count(converged.begin(), converged.end(), 0))}};
  } else if (kind == "rankboost") {
    RankBoostModel model;
    for (const auto& r : validation["rankers"]) model.rounds.push_back({r[0].get<int>(), r[1].get<double>(), r[2].get<double>()});
    m = evaluate_scores(test, discount_, [&](const RankingQuery& q) { return model.scores(q.features); });
  } else {
    const auto w = validation["weights"].get<std::vector<double>>();
    const Eigen::VectorXd weights = Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
    m = evaluate_scores(test, discount_, [&](const RankingQuery& q) { return Eigen::VectorXd(q.features * weights); });
  }
  result["test"] = to_json(m);
  result["test_seconds"] = seconds_since(start);
  return result;
}

RunSummary RankingExperiment::run() {
  const auto start = clock_type::now();
  for (const auto& [label, d] : spec_["datasets"].items())
    datasets_.push_back(std::make_unique<Dataset>(load_dataset(label, d)));
  std::vector<Cell> cells;
  for (const auto& d : datasets_)
    for (int fold : folds_)
      for (const auto& [method, m] : spec_["methods"].items()) {
        const std::string grid = grid_key(m["kind"].get<std::string>());
        if (grid.empty()) {
          cells.push_back({d.get(), fold, method, m, 0.0});
        } else {
          for (const auto& value : m[grid]) cells.push_back({d.get(), fold, method, m, value.get<double>()});
        }
      }
  RunSummary summary;
  summary.name = name_;
  summary.cells = static_cast<int>(cells.size());
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, cell_threads(options_));
  std::atomic<int> from_cache{0};
  CellProgress progress(name_, options_.progress, options_.heartbeat_seconds);
  auto describe = [](const Cell& c) {
    const std::string grid = grid_key(c.method_spec["kind"].get<std::string>());
    return fmt::format("{:<8} fold {} {:<13} {}", c.dataset->label, c.fold, c.method,
                       grid.empty() ? std::string() : fmt::format("{}={}", grid, c.parameter));
  };
  std::vector<json> validation(cells.size());
  progress.start_phase(static_cast<int>(cells.size()));
  tbb::parallel_for(std::size_t{0}, cells.size(), [&](std::size_t i) {
    const long token = progress.begin(describe(cells[i]));
    auto [result, cached] = cache_.get_or_compute(cell_key(cells[i], "validation"), [&] { return run_validation_cell(cells[i]); });
    from_cache += cached;
    progress.finish(token,
                    describe(cells[i]) + fmt::format("  validation {} {:.4f}  ({:.1f} s)", selection_,
                                                     selection_score(from_json(result["validation"]), selection_),
                                                     result.value("train_seconds", 0.0) + result.value("validation_seconds", 0.0)),
                    cached);
    validation[i] = std::move(result);
  });
  // Selection per (data set, fold, method): best validation score, first in grid order.
  std::map<std::string, std::size_t> selected;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string key = fmt::format("{}\n{}\n{}", cells[i].dataset->label, cells[i].fold, cells[i].method);
    const double s = selection_score(from_json(validation[i]["validation"]), selection_);
    const auto found = selected.find(key);
    if (found == selected.end() || s > selection_score(from_json(validation[found->second]["validation"]), selection_))
      selected[key] = i;
  }
  std::vector<std::pair<std::string, std::size_t>> chosen(selected.begin(), selected.end());
  std::map<std::string, json> tests;
  std::mutex tests_mutex;
  progress.start_phase(static_cast<int>(chosen.size()));
  tbb::parallel_for(std::size_t{0}, chosen.size(), [&](std::size_t j) {
    const Cell& c = cells[chosen[j].second];
    const long token = progress.begin(describe(c) + "  test");
    auto [result, cached] = cache_.get_or_compute(cell_key(c, "test"), [&] { return run_test_cell(c, validation[chosen[j].second]); });
    from_cache += cached;
    progress.finish(token, describe(c) + fmt::format("  test mean NDCG {:.4f}", result["test"]["mean_ndcg"].get<double>()),
                    cached);
    const std::lock_guard<std::mutex> lock(tests_mutex);
    tests[chosen[j].first] = {{"cell", chosen[j].second}, {"result", result}};
  });
  summary.cached_cells = from_cache;
  write_tables(summary, cells, validation, tests, seconds_since(start));
  return summary;
}

std::string number(double x, int digits = 4) { return fmt::format("{:.{}f}", x, digits); }

void RankingExperiment::write_tables(RunSummary& summary, const std::vector<Cell>& cells,
                                     const std::vector<json>& validation, const std::map<std::string, json>& tests,
                                     double seconds) const {
  const json published = spec_.value("published", json::object());
  const std::string published_dataset = published.value("dataset", "");
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  // Fold-averaged test metrics per (data set, method), and times.
  struct Row {
    RankingMetrics metrics;
    std::vector<double> fold_mean_ndcg;
    double train_seconds = 0.0, test_seconds = 0.0;
    std::vector<std::string> selected;  // per fold
    std::vector<double> game_seconds;   // MPG: per test query
    std::vector<int> game_documents;
    int unconverged_games = 0, unconverged_trainings = 0;
  };
  std::map<std::string, std::map<std::string, Row>> rows;  // dataset -> method -> row
  for (std::size_t i = 0; i < cells.size(); ++i) {
    Row& row = rows[cells[i].dataset->label][cells[i].method];
    row.train_seconds += validation[i].value("train_seconds", 0.0) + validation[i].value("validation_seconds", 0.0);
    if (validation[i].contains("training") && !validation[i]["training"].value("converged", true)) ++row.unconverged_trainings;
  }
  std::vector<std::string> extra_methods;
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      Row& row = rows[d->label][method];
      for (int fold : folds_) {
        const auto found = tests.find(fmt::format("{}\n{}\n{}", d->label, fold, method));
        if (found == tests.end()) continue;
        const json& r = found->second["result"];
        const Cell& c = cells[found->second["cell"].get<std::size_t>()];
        const RankingMetrics m = from_json(r["test"]);
        QueryMetrics as_query{m.ndcg_at, m.precision_at, m.mean_ndcg, m.map};
        row.metrics.add(as_query);  // mean over folds
        row.fold_mean_ndcg.push_back(m.mean_ndcg);
        row.test_seconds += r.value("test_seconds", 0.0);
        const json& v = validation[found->second["cell"].get<std::size_t>()];
        const std::string grid = grid_key(c.method_spec["kind"].get<std::string>());
        std::string choice = grid.empty() ? "" : fmt::format("{} = {}", grid, c.parameter);
        if (v.contains("rounds_used")) choice += fmt::format("{}rounds = {}", choice.empty() ? "" : ", ", v["rounds_used"].get<int>());
        row.selected.push_back(fmt::format("fold {}: {}", fold, choice));
        if (r.contains("games")) {
          for (const auto& s : r["games"]["seconds"]) row.game_seconds.push_back(s.get<double>());
          for (const auto& n : r["games"]["documents"]) row.game_documents.push_back(n.get<int>());
          row.unconverged_games += r["games"]["unconverged"].get<int>();
        }
      }
      row.metrics.finish();
      // MPG's second decision rule, from the same test games: a row of its own.
      RankingMetrics by_gain;
      std::vector<double> gain_fold_means;
      for (int fold : folds_) {
        const auto found = tests.find(fmt::format("{}\n{}\n{}", d->label, fold, method));
        if (found == tests.end() || !found->second["result"].contains("test_expected_gain_rule")) continue;
        const RankingMetrics m = from_json(found->second["result"]["test_expected_gain_rule"]);
        by_gain.add(QueryMetrics{m.ndcg_at, m.precision_at, m.mean_ndcg, m.map});
        gain_fold_means.push_back(m.mean_ndcg);
      }
      if (by_gain.queries > 0) {
        by_gain.finish();
        const std::string pseudo = method + kGainRuleSuffix;
        rows[d->label][pseudo].metrics = by_gain;
        rows[d->label][pseudo].fold_mean_ndcg = gain_fold_means;
        if (std::find(extra_methods.begin(), extra_methods.end(), pseudo) == extra_methods.end())
          extra_methods.push_back(pseudo);
      }
    }
  methods.insert(methods.end(), extra_methods.begin(), extra_methods.end());

  const std::string quick_text = options_.quick ? " with --quick (reduced folds, grids and rounds; a smoke test)" : "";
  std::string folds_text;
  for (int f : folds_) folds_text += (folds_text.empty() ? "" : ", ") + std::to_string(f);
  std::string md = fmt::format("# {}\n\n", spec_.value("title", name_));
  const std::string overrides = overrides_text(options_);
  md += fmt::format(
      "Generated by `mpg run experiments/{}.json{}`{} with the code of revision `{}`. Test metrics averaged over "
      "LETOR folds {} (each fold: mean over its test queries), DCG discount `{}`{}; hyper-parameters and boosting "
      "rounds chosen on each fold's validation subset by {}.\n\n",
      spec_file_, overrides, quick_text, revision_, folds_text, to_string(discount_),
      discount_ == DcgDiscount::letor ? " (DCG'': gain 2^rel - 1, positions 1 and 2 undiscounted, then 1/log2(r))" : "",
      selection_);
  // Table XII.
  md += "## Table XII: Mean NDCG\n\n| method |";
  for (const auto& d : datasets_) md += fmt::format(" {} (ours) |", d->label);
  const bool has_published_mean = published.contains("mean_ndcg");
  const bool published_is_ours = spec_["datasets"].contains(published_dataset);
  if (has_published_mean)
    md += fmt::format(" {} (published{}) |", published_dataset, published_is_ours ? "" : "; a different data set");
  md += "\n|---|";
  for (std::size_t i = 0; i < datasets_.size() + (has_published_mean ? 1 : 0); ++i) md += "---|";
  md += "\n";
  std::string csv = "dataset,method,measure,value,source\n";
  json out_rows = json::array();
  for (const auto& method : methods) {
    md += fmt::format("| {} |", method);
    for (const auto& d : datasets_) {
      const Row& row = rows[d->label][method];
      double sd = 0.0;
      for (double x : row.fold_mean_ndcg) sd += (x - row.metrics.mean_ndcg) * (x - row.metrics.mean_ndcg);
      sd = row.fold_mean_ndcg.size() > 1 ? std::sqrt(sd / static_cast<double>(row.fold_mean_ndcg.size() - 1)) : 0.0;
      md += row.metrics.queries > 0 ? fmt::format(" {} (± {}) |", number(row.metrics.mean_ndcg), number(sd, 3)) : " - |";
      if (row.metrics.queries == 0) continue;
      csv += fmt::format("{},{},mean_ndcg,{:.6f},ours\n", d->label, method, row.metrics.mean_ndcg);
      csv += fmt::format("{},{},map,{:.6f},ours\n", d->label, method, row.metrics.map);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},ndcg@{},{:.6f},ours\n", d->label, method, k + 1, row.metrics.ndcg_at[k]);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},p@{},{:.6f},ours\n", d->label, method, k + 1, row.metrics.precision_at[k]);
      out_rows.push_back({{"dataset", d->label}, {"method", method}, {"mean_ndcg", row.metrics.mean_ndcg},
                          {"mean_ndcg_fold_sd", sd}, {"map", row.metrics.map}, {"ndcg_at", row.metrics.ndcg_at},
                          {"precision_at", row.metrics.precision_at}, {"folds", row.metrics.queries},
                          {"seconds", row.train_seconds + row.test_seconds}, {"selected", row.selected}});
    }
    if (has_published_mean) {
      if (published["mean_ndcg"].contains(method)) {
        md += fmt::format(" {} |", number(published["mean_ndcg"][method].get<double>()));
        csv += fmt::format("{},{},mean_ndcg,{:.6f},published\n", published_dataset, method, published["mean_ndcg"][method].get<double>());
      } else {
        md += " |";
      }
    }
    md += "\n";
  }
  md += "\n(± the standard deviation over folds.)\n\n";
  // NDCG@k tables, one per data set, with the published values at the known positions.
  for (const auto& d : datasets_) {
    md += fmt::format("## NDCG@k on {} (Figure 8)\n\n| method |", d->label);
    for (std::size_t k = 1; k <= kMaxK; ++k) md += fmt::format(" @{} |", k);
    md += " MAP |\n|---|";
    for (std::size_t k = 0; k <= kMaxK; ++k) md += "---|";
    md += "\n";
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      if (row.metrics.queries == 0) continue;
      md += fmt::format("| {} |", method);
      for (double v : row.metrics.ndcg_at) md += fmt::format(" {} |", number(v));
      md += fmt::format(" {} |\n", number(row.metrics.map));
    }
    md += "\n";
  }
  if (published.contains("ndcg_at")) {
    md += fmt::format("## Published NDCG@k on {} ({}{})\n\n| method |", published_dataset,
                      spec_["datasets"].contains(published_dataset) ? "" : "a different data set; ",
                      published.value("source", "see the spec"));
    for (std::size_t k = 1; k <= kMaxK; ++k) md += fmt::format(" @{} |", k);
    md += "\n|---|";
    for (std::size_t k = 0; k < kMaxK; ++k) md += "---|";
    md += "\n";
    for (const auto& [method, values] : published["ndcg_at"].items()) {
      md += fmt::format("| {} |", method);
      for (std::size_t k = 1; k <= kMaxK; ++k) {
        const std::string key = std::to_string(k);
        md += values.contains(key) ? fmt::format(" {} |", number(values[key].get<double>(), 3)) : std::string(" |");
        if (values.contains(key))
          csv += fmt::format("{},{},ndcg@{},{:.6f},published\n", published_dataset, method, k, values[key].get<double>());
      }
      md += "\n";
    }
    md += "\n";
  }
  // The claims of the thesis to check: MPG best in Mean NDCG, weaker than the best baseline at k = 1, 2.
  md += "## Ordering checks (the thesis' claims on MQ2007)\n\n";
  const std::string ours = spec_["methods"].contains("MPG") ? "MPG" : methods.front();
  for (const auto& d : datasets_) {
    std::vector<std::pair<double, std::string>> order;
    for (const auto& method : methods)
      if (rows[d->label][method].metrics.queries > 0) order.push_back({rows[d->label][method].metrics.mean_ndcg, method});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string ranking;
    for (const auto& [v, method] : order) ranking += (ranking.empty() ? "" : " > ") + fmt::format("{} {}", method, number(v));
    // MPG against the baselines only (not against its own second decision rule).
    bool best = rows[d->label][ours].metrics.queries > 0;
    for (const auto& [v, method] : order)
      if (method != ours && !method.ends_with(kGainRuleSuffix) && v > rows[d->label][ours].metrics.mean_ndcg) best = false;
    md += fmt::format("- {}: Mean NDCG order {}. {} best in Mean NDCG: **{}**.", d->label, ranking, ours, best ? "yes" : "no");
    const Row& mpg = rows[d->label][ours];
    if (mpg.metrics.queries > 0) {
      for (std::size_t k : {std::size_t{1}, std::size_t{2}}) {
        double best_baseline = -1.0;
        std::string best_name;
        for (const auto& method : methods)
          if (method != ours && !method.ends_with(kGainRuleSuffix) && rows[d->label][method].metrics.queries > 0 &&
              rows[d->label][method].metrics.ndcg_at[k - 1] > best_baseline) {
            best_baseline = rows[d->label][method].metrics.ndcg_at[k - 1];
            best_name = method;
          }
        if (best_baseline >= 0.0)
          md += fmt::format(" NDCG@{}: {} {} vs best baseline {} {} ({}).", k, ours, number(mpg.metrics.ndcg_at[k - 1]),
                            best_name, number(best_baseline),
                            mpg.metrics.ndcg_at[k - 1] < best_baseline ? "weaker, as the thesis reports" : "not weaker");
      }
      if (!best) summary.outside.push_back(fmt::format("{} {}: {} is not best in Mean NDCG ({})", name_, d->label, ours, ranking));
    }
    md += "\n";
  }
  // Times.
  md += "\n## Times\n\n| data set | method | training + validation, all grid points and folds (s) | test (s) |\n|---|---|---|---|\n";
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      md += fmt::format("| {} | {} | {:.1f} | {:.2f} |\n", d->label, method, row.train_seconds, row.test_seconds);
    }
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      if (row.game_seconds.empty()) continue;
      const auto longest = std::max_element(row.game_seconds.begin(), row.game_seconds.end()) - row.game_seconds.begin();
      md += fmt::format("\n{} {} test games (one per query, {} queries): median {:.4f} s, max {:.4f} s (a query of {} documents); {} not converged.\n",
                        d->label, method, row.game_seconds.size(), median(row.game_seconds), row.game_seconds[static_cast<std::size_t>(longest)],
                        row.game_documents[static_cast<std::size_t>(longest)], row.unconverged_games);
    }
  // Data.
  md += "\n## Data\n\n";
  for (const auto& d : datasets_) {
    const json& entry = dataset_registry()[d->registry];
    std::size_t queries = 0, documents = 0;
    for (const auto& s : d->subsets) {
      queries += s.size();
      for (const auto& q : s) documents += q.relevance.size();
    }
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}); {} queries, {} documents, {} features, relevance 0..{}.",
                      d->label, d->registry, d->variant, entry["variants"][d->variant].value("matches", ""), queries,
                      documents, d->features, d->levels - 1);
    for (std::size_t s = 0; s < d->files.size(); ++s)
      md += fmt::format(" `{}` sha256 `{}`{};", d->files[s], d->sha256[s].substr(0, 16), d->verified[s] ? "" : " (unverified)");
    md += "\n";
  }
  md += "\n## Selected hyper-parameters\n\n";
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      std::string text;
      for (const auto& s : row.selected) text += (text.empty() ? "" : "; ") + s;
      md += fmt::format("- {} {}: {}\n", d->label, method, text);
    }
  md += "\n## Notes\n\n";
  for (const auto& note : spec_.value("notes", json::array())) md += "- " + note.get<std::string>() + "\n";
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      if (row.unconverged_trainings > 0)
        md += fmt::format("- {} {}: {} of its trainings stopped before the optimizer's tolerance (iteration or time cap).\n",
                          d->label, method, row.unconverged_trainings);
      if (row.unconverged_games > 0)
        md += fmt::format("- {} {}: {} test games stopped before the double-oracle tolerance (time cap).\n", d->label,
                          method, row.unconverged_games);
    }

  // Figure 8 data: NDCG@k per data set and method, ours and published.
  std::string figure = "dataset,method,k,ndcg,source\n";
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const Row& row = rows[d->label][method];
      if (row.metrics.queries == 0) continue;
      for (std::size_t k = 0; k < kMaxK; ++k)
        figure += fmt::format("{},{},{},{:.6f},ours\n", d->label, method, k + 1, row.metrics.ndcg_at[k]);
    }
  if (published.contains("ndcg_at"))
    for (const auto& [method, values] : published["ndcg_at"].items())
      for (std::size_t k = 1; k <= kMaxK; ++k)
        if (values.contains(std::to_string(k)))
          figure += fmt::format("{} (published),{},{},{:.6f},published\n", published_dataset, method, k,
                                values[std::to_string(k)].get<double>());
  const std::string figure_path = results_dir_ + "/" + name_ + (options_.quick ? ".quick" : "") + ".figure8.csv";

  json out = {{"name", name_}, {"title", spec_.value("title", name_)}, {"revision", revision_}, {"quick", options_.quick},
              {"overrides", options_.overrides},
              {"discount", to_string(discount_)}, {"folds", folds_}, {"selection", selection_}, {"seconds", seconds},
              {"rows", out_rows}, {"published", published}};
  summary.result_files = write_result_files(results_dir_, name_, options_.quick, md, csv, out);
  write_file_atomically(figure_path, figure);
  summary.result_files.push_back(figure_path);
}

}  // namespace

RunSummary run_ranking_experiment(json spec, const std::string& path, const RunOptions& options) {
  RankingExperiment experiment(std::move(spec), path, options);
  return experiment.run();
}

}  // namespace mpg::harness
