// Family "ranking" (thesis §5.3, Table XII and Figure 8): LETOR data sets of five subsets S1..S5
// and the LETOR 5-fold rotation, fold K: train S_K, S_K+1, S_K+2, validation S_K+3, test S_K+4
// (indices mod 5). Every (data set, fold, method, grid value) is a validation cell: train on the
// training subsets, score on the validation subset. The best grid value per (data set, fold,
// method) is scored on the test subset; the tables average the test metrics over the folds, as
// LETOR reports them. Boosters (AdaRank, RankBoost) also choose their number of rounds on the
// validation subset.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>

#include "baselines/rankers.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/letor.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/models/ranking_mpg.hpp"

namespace mpg {
// RankingMetrics as JSON {mean_ndcg, map, ndcg_at, precision_at, queries}, in the cells and tables.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankingMetrics, mean_ndcg, map, ndcg_at, precision_at, queries)
}  // namespace mpg

namespace mpg::harness {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxK = 10;  // NDCG@1..10, P@1..10
// MPG's other rankings of the same test games, each a row "<label> (<rule>)" of its own:
// {key in the test cell, rule}. The E[gain] rule is a second decision rule; the θ·x sort is a
// diagnostic (documents by the top level's learned potential, no game).
const std::vector<std::pair<std::string, std::string>> kMpgRules = {{"expected_gain_rule", "E[gain] rule"},
                                                                    {"score_sort", "θ·x sort"}};
// Method kinds that are diagnostics, not methods of the thesis' table: no ordering claim uses them.
bool diagnostic_kind(const std::string& kind) { return kind == "file_order" || kind == "best_feature"; }

// ---- Methods -----------------------------------------------------------------------------------

Parameter required(Parameter p) {
  p.default_value = nullptr;
  return p;
}

const Parameter kLambda = grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ (one cell per value)");

const std::vector<MethodKind>& ranking_methods() {
  static const std::vector<MethodKind> kinds = {
      {"mpg",
       "MPG with the DCG game (thesis §4.2.4): one game per query, the adversary with one weight vector per relevance "
       "level over the features plus a bias; the objective is the negated dual averaged over queries plus λ/2‖θ‖². "
       "The validation and test rankings follow the decision rule of lib/metrics/dcg.hpp: the most probable "
       "permutation of the canonical equilibrium strategy, the same for every exact solver, ties by the top level's "
       "potential and then a hash of the features (never file order). The table adds the ranking by expected gain "
       "under the adversary's marginals as the row `<label> (E[gain] rule)` and, as a diagnostic, the documents "
       "sorted by the top level's learned potential θ·x as `<label> (θ·x sort)`.",
       ParameterTable({
           kLambda,
           choice_parameter("optimizer", "lbfgs", {"lbfgs", "adadelta", "cutting_plane"},
                            "training optimizer; `cutting_plane` is exact: it stops when the objective is certified "
                            "within `objective_tolerance` × max(1, objective)"),
           integer_parameter("max_iterations", 200, 1, 1000000000, "iterations of the optimizer"),
           number_parameter("objective_tolerance", 1e-6, 0.0, 1.0, "`cutting_plane`: the certified relative gap",
                            true),
           number_parameter("max_seconds", 0.0, 0.0, 1e9, "wall-clock cap of a training (0 = none)"),
           choice_parameter("game_solver", "greedy", {"greedy", "lp", "double_oracle"},
                            "solver of the query games in training: `greedy` (exact, the polymatroid greedy over "
                            "expected discounts, no LP), `lp` (exact compact LP) or `double_oracle`"),
           choice_parameter("decision_game_solver", "same", {"same", "greedy", "lp", "double_oracle"},
                            "the solver that solves the validation and test games and certifies their values "
                            "(`same`: `game_solver`); the rankings are the decision rule's and do not depend on it"),
           number_parameter("game_tolerance", 1e-6, 0.0, 1.0, "equilibrium gap of each query game", true),
           number_parameter("max_game_seconds", 0.0, 0.0, 1e9, "wall-clock cap per query game (0 = none)"),
       })},
      {"ranksvm", "Pairwise L2-loss (squared hinge) RankSVM, L-BFGS on the primal (baselines/rankers.hpp).",
       ParameterTable({grid_parameter("C", 0.0, 1e9, "grid of the pair-loss weight C (one cell per value)"),
                       integer_parameter("max_iterations", 500, 1, 1000000000, "L-BFGS iterations")})},
      {"listnet", "ListNet: top-1 cross-entropy with an L2 penalty, L-BFGS (baselines/rankers.hpp).",
       ParameterTable({kLambda, integer_parameter("max_iterations", 500, 1, 1000000000, "L-BFGS iterations")})},
      {"adarank",
       "AdaRank over single-feature weak rankers (baselines/rankers.hpp); the validation subset chooses the number of "
       "rounds.",
       ParameterTable({required(choice_parameter("measure", "ndcg", {"ndcg", "map"},
                                                 "the boosted query measure: NDCG@`ndcg_k` or average precision")),
                       integer_parameter("ndcg_k", 10, 1, 1000, "k of NDCG@k (`measure` `ndcg`)"),
                       integer_parameter("rounds", 200, 1, 1000000, "boosting rounds")})},
      {"file_order",
       "Diagnostic: the documents in the order of the data file (no learning). Shows how much a ranking that "
       "breaks ties by file order could gain from it; every method here breaks ties by content instead.",
       ParameterTable(std::vector<Parameter>{})},
      {"best_feature",
       "Diagnostic: the single LETOR feature (either sign) whose ranking scores best on the validation subset "
       "(baselines/rankers.hpp, best_single_feature).",
       ParameterTable(std::vector<Parameter>{})},
      {"rankboost",
       "RankBoost with binary threshold weak rankers on quantile thresholds (baselines/rankers.hpp); the validation "
       "subset chooses the number of rounds.",
       ParameterTable({integer_parameter("rounds", 200, 1, 1000000, "boosting rounds"),
                       integer_parameter("thresholds", 16, 1, 1000000, "candidate thresholds per feature")})},
  };
  return kinds;
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

// A fold's (or query's) metrics as one more entry of an average.
QueryMetrics as_entry(const RankingMetrics& m) { return {m.ndcg_at, m.precision_at, m.mean_ndcg, m.map}; }

RankingMetrics average(const std::vector<QueryMetrics>& entries) {
  RankingMetrics m;
  for (const auto& e : entries) m.add(e);
  m.finish();
  return m;
}

// ---- Data --------------------------------------------------------------------------------------

struct Dataset {
  std::string label;
  RegistryChoice choice;
  std::vector<std::vector<RankingQuery>> subsets;  // S1..S5
  std::vector<VerifiedFile> files;                 // their files (content dropped)
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

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d) {
  auto data = std::make_unique<Dataset>();
  data->label = label;
  data->choice = registry_choice(d);
  data->levels = data->choice.entry().value("levels", 3);
  const long declared = data->choice.entry().value("features", 0L);
  const json& subsets = data->choice.variant_entry().at("subsets");
  for (std::size_t s = 0; s < subsets.size(); ++s) {
    VerifiedFile file = read_verified_file(
        subsets[s], fmt::format("dataset '{}' ({}, subset S{})", data->choice.dataset, data->choice.variant, s + 1));
    file.content.clear();  // parsed from the file below; the hash is what was needed
    const LetorData letor = read_letor(file.path, declared);
    if (declared > 0 && letor.features > declared)
      throw InputError(file.path, fmt::format("has feature index {} beyond the registry's {} features", letor.features,
                                              declared));
    std::vector<RankingQuery> queries;
    for (const auto& q : letor.queries) {
      for (int r : q.relevance)
        if (r < 0 || r >= data->levels)
          throw InputError(file.path, fmt::format("query {}: relevance {} outside the registry's levels 0..{}", q.id,
                                                  r, data->levels - 1));
      queries.push_back({q.features, q.relevance});
    }
    data->features = letor.features;
    data->subsets.push_back(std::move(queries));
    data->files.push_back(std::move(file));
  }
  return data;
}

bool has_relevant(const RankingQuery& q) {
  return std::any_of(q.relevance.begin(), q.relevance.end(), [](int r) { return r > 0; });
}

// A method's metrics over a query set: all queries (Table XII, as LETOR averages) and only the
// queries with at least one relevant document (the evaluation variant; the others score 0 for
// every ranking).
struct QuerySetMetrics {
  RankingMetrics all, with_relevant;
};

// Averages ranking_of(q) over the queries. Every measure follows lib/eval/ranking_measures.hpp:
// identical documents (equal feature vectors) are averaged, so no ranking gains from file order.
template <class RankQuery>
QuerySetMetrics evaluate_queries(const std::vector<RankingQuery>& queries, DcgDiscount discount, RankQuery ranking_of) {
  QuerySetMetrics m;
  for (const auto& q : queries) {
    const std::vector<DocumentKey> keys = document_keys(q.features);
    const QueryMetrics one = evaluate_ranking(ranking_of(q, keys), q.relevance, discount, kMaxK, keys);
    m.all.add(one);
    if (has_relevant(q)) m.with_relevant.add(one);
  }
  m.all.finish();
  m.with_relevant.finish();
  return m;
}

// The same for rankings by a score per document, ties by the documents' keys.
template <class ScoreQuery>
QuerySetMetrics evaluate_scores(const std::vector<RankingQuery>& queries, DcgDiscount discount, ScoreQuery scores_of) {
  return evaluate_queries(queries, discount, [&](const RankingQuery& q, const std::vector<DocumentKey>& keys) {
    return ranking_by_scores(scores_of(q), keys);
  });
}

Ranking file_order(Eigen::Index n) {
  Ranking order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

json metrics_json(const QuerySetMetrics& m) { return {{"all", m.all}, {"with_relevant", m.with_relevant}}; }

// ---- The experiment ----------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  int fold;
  std::string kind;
};

class RankingRun : public FamilyRun {
 public:
  explicit RankingRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& validation) const override {
    return {{group(*cells_[cell].dataset, cells_[cell].fold, plans_[cell].method), score(validation)}};
  }
  std::string validation_line(const json& v) const override {
    return fmt::format("validation {} {:.4f}  ({:.1f} s)", selection_, score(v),
                       v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  json test(std::size_t cell, const json& validation) const override;
  std::string test_line(const json& t) const override {
    return fmt::format("test mean NDCG {:.4f}", t["test"]["mean_ndcg"].get<double>());
  }
  Tables tables(const Outcome& outcome) const override;

 private:
  static std::string group(const Dataset& d, int fold, const std::string& method) {
    return fmt::format("{}\n{}\n{}", d.label, fold, method);
  }
  double score(const json& validation) const { return selection_score(validation["validation"].get<RankingMetrics>(), selection_); }
  std::vector<RankingQuery> training_queries(const Dataset& d, int fold) const {
    std::vector<RankingQuery> out;
    for (int s : fold_parts(fold).train)
      out.insert(out.end(), d.subsets[static_cast<std::size_t>(s)].begin(), d.subsets[static_cast<std::size_t>(s)].end());
    return out;
  }
  // Each query's MPG game with the learned potentials, solved by the decision solver: the metrics of
  // the thesis' rule (the most probable permutation) and of the expected-gain rule, and the games.
  struct MpgRankings {
    QuerySetMetrics order;                         // the decision rule
    std::map<std::string, QuerySetMetrics> rules;  // kMpgRules' keys
    json games;  // per query: seconds, iterations, documents; and how many did not converge
  };
  MpgRankings mpg_rankings(const RankingMpgModel& model, const std::vector<RankingQuery>& queries,
                           const ParameterValues& p) const;
  // The number of rounds of a booster the validation subset chooses, the first best by the
  // selection measure; add_round(r, q, scores) adds round r to the scores of validation query q.
  // Returns {rounds used, their validation metrics}.
  std::pair<std::size_t, RankingMetrics> choose_rounds(const std::vector<RankingQuery>& validation, std::size_t rounds,
                                                       const std::function<void(std::size_t, std::size_t, Eigen::VectorXd&)>& add_round) const;

  json spec_;
  std::string selection_;
  DcgDiscount discount_;
  std::vector<int> folds_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

RankingRun::RankingRun(json spec) : spec_(std::move(spec)) {
  selection_ = spec_.value("selection_metric", std::string("mean_ndcg"));
  discount_ = parse_dcg_discount(spec_.value("discount", std::string("letor")));
  folds_ = spec_.value("folds", std::vector<int>{1, 2, 3, 4, 5});
  for (const auto& [label, d] : spec_["datasets"].items()) datasets_.push_back(load_dataset(label, d));
  for (const auto& d : datasets_) {
    std::vector<std::string> hashes;
    for (const auto& f : d->files) hashes.push_back(f.sha256);
    for (int fold : folds_)
      for (const auto& [method, m] : spec_["methods"].items()) {
        const MethodKind& kind = family_named("ranking").method(m["kind"].get<std::string>());
        const ParameterValues values(kind.parameters, m);
        const json key = {{"data", {d->choice.dataset, d->choice.variant, hashes}}, {"levels", d->levels},
                          {"fold", fold}, {"discount", to_string(discount_)}, {"selection", selection_}};
        const Parameter* grid = kind.parameters.grid();  // none: one cell
        for (const auto& value : grid ? m[grid->name] : json::array({nullptr})) {
          cells_.push_back({d.get(), fold, kind.kind});
          plans_.push_back({method,
                            fmt::format("{:<8} fold {} {:<13} {}", d->label, fold, method,
                                        grid ? fmt::format("{}={}", grid->name, value.get<double>()) : ""),
                            key, grid ? values.with(grid->name, value) : values});
        }
      }
  }
}

OptimizerOptions optimizer_of(const ParameterValues& p) {
  OptimizerOptions o;
  o.max_iterations = static_cast<int>(p.integer("max_iterations"));
  return o;
}

DoubleOracleOptions game_options_of(const ParameterValues& p) {
  DoubleOracleOptions g;
  g.tolerance = p.number("game_tolerance");
  g.max_seconds = p.number("max_game_seconds");
  return g;
}

// The solver whose predictor strategy makes the validation and test rankings.
DcgGameSolver decision_solver_of(const ParameterValues& p) {
  const std::string decision = p.choice("decision_game_solver");
  return parse_dcg_game_solver(decision == "same" ? p.choice("game_solver") : decision);
}

RankingRun::MpgRankings RankingRun::mpg_rankings(const RankingMpgModel& model, const std::vector<RankingQuery>& queries,
                                                 const ParameterValues& p) const {
  const DcgGameSolver solver = decision_solver_of(p);
  const DoubleOracleOptions game = game_options_of(p);
  std::vector<RankingMpgPrediction> predictions(queries.size());
  tbb::parallel_for(std::size_t{0}, queries.size(), [&](std::size_t q) {
    predictions[q] = predict_ranking_mpg(model, queries[q].features, solver, game);
  });
  auto index_of = [&](const RankingQuery& q) { return static_cast<std::size_t>(&q - queries.data()); };
  MpgRankings out;
  out.order = evaluate_queries(queries, discount_, [&](const RankingQuery& q, const std::vector<DocumentKey>&) {
    return predictions[index_of(q)].order;
  });
  out.rules["expected_gain_rule"] = evaluate_queries(
      queries, discount_,
      [&](const RankingQuery& q, const std::vector<DocumentKey>&) { return predictions[index_of(q)].expected_gain_order; });
  out.rules["score_sort"] = evaluate_queries(queries, discount_, [&](const RankingQuery& q, const std::vector<DocumentKey>&) {
    return predictions[index_of(q)].score_order;
  });
  std::vector<double> seconds;
  std::vector<int> iterations, documents;
  int unconverged = 0;
  for (const auto& prediction : predictions) {
    seconds.push_back(prediction.game.seconds);
    iterations.push_back(prediction.game.iterations);
    documents.push_back(static_cast<int>(prediction.order.size()));
    unconverged += prediction.game.converged ? 0 : 1;
  }
  out.games = {{"seconds", seconds}, {"iterations", iterations}, {"documents", documents}, {"unconverged", unconverged}};
  return out;
}

std::pair<std::size_t, RankingMetrics> RankingRun::choose_rounds(
    const std::vector<RankingQuery>& validation, std::size_t rounds,
    const std::function<void(std::size_t, std::size_t, Eigen::VectorXd&)>& add_round) const {
  std::vector<Eigen::VectorXd> scores;
  std::vector<std::vector<DocumentKey>> keys;
  for (const auto& q : validation) {
    scores.push_back(Eigen::VectorXd::Zero(q.features.rows()));
    keys.push_back(document_keys(q.features));
  }
  if (rounds == 0) return {0, evaluate_scores(validation, discount_, [](const RankingQuery& q) {
                             return Eigen::VectorXd(Eigen::VectorXd::Zero(q.features.rows()));
                           }).all};
  std::size_t best = 0;
  double best_score = -1.0;
  RankingMetrics best_metrics;
  for (std::size_t r = 0; r < rounds; ++r) {
    RankingMetrics m;
    for (std::size_t q = 0; q < validation.size(); ++q) {
      add_round(r, q, scores[q]);
      m.add(evaluate_ranking(ranking_by_scores(scores[q], keys[q]), validation[q].relevance, discount_, kMaxK, keys[q]));
    }
    m.finish();
    if (selection_score(m, selection_) > best_score) {
      best_score = selection_score(m, selection_);
      best = r;
      best_metrics = m;
    }
  }
  return {best + 1, best_metrics};
}

json RankingRun::validate(std::size_t cell) const {
  const Cell& c = cells_[cell];
  const Dataset& d = *c.dataset;
  const ParameterValues& p = plans_[cell].parameters;
  const std::vector<RankingQuery> train = training_queries(d, c.fold);
  const std::vector<RankingQuery>& validation = d.subsets[static_cast<std::size_t>(fold_parts(c.fold).validation)];
  json result;
  RankingMetrics metrics;
  const auto start = clock_type::now();
  auto trained = start;  // then the validation subset is scored
  if (c.kind == "mpg") {
    RankingMpgOptions options;
    options.lambda = p.number("lambda");
    options.levels = d.levels;
    options.discount = discount_;
    options.optimizer = optimizer_of(p);
    options.optimizer.kind = parse_optimizer_kind(p.choice("optimizer"));
    options.optimizer.cutting_plane_tolerance = p.number("objective_tolerance");
    options.game = game_options_of(p);
    options.solver = parse_dcg_game_solver(p.choice("game_solver"));
    options.max_seconds = p.number("max_seconds");
    RankingMpgSummary summary;
    const RankingMpgModel model = train_ranking_mpg(train, options, &summary);
    trained = clock_type::now();
    result["training"] = summary.to_json();
    result["weights"] = to_std_vector(model.theta);
    metrics = mpg_rankings(model, validation, p).order.all;
  } else if (c.kind == "ranksvm" || c.kind == "listnet") {
    LinearRanker model;
    if (c.kind == "ranksvm") {
      RankSvmOptions options;
      options.C = p.number("C");
      options.optimizer = optimizer_of(p);
      model = train_ranksvm(train, options);
    } else {
      ListNetOptions options;
      options.lambda = p.number("lambda");
      options.optimizer = optimizer_of(p);
      model = train_listnet(train, options);
    }
    trained = clock_type::now();
    result["weights"] = to_std_vector(model.weights);
    metrics = evaluate_scores(validation, discount_, [&](const RankingQuery& q) { return model.scores(q.features); }).all;
  } else if (c.kind == "file_order") {
    trained = clock_type::now();
    metrics = evaluate_queries(validation, discount_, [](const RankingQuery& q, const std::vector<DocumentKey>&) {
                return file_order(q.features.rows());
              }).all;
  } else if (c.kind == "best_feature") {
    int feature = 0;
    double sign = 1.0;
    const LinearRanker model = best_single_feature(
        d.features,
        [&](const LinearRanker& candidate) {
          return selection_score(
              evaluate_scores(validation, discount_, [&](const RankingQuery& q) { return candidate.scores(q.features); })
                  .all,
              selection_);
        },
        &feature, &sign);
    trained = clock_type::now();
    result["weights"] = to_std_vector(model.weights);
    result["feature"] = fmt::format("{}feature {}", sign < 0.0 ? "−" : "", feature + 1);
    metrics = evaluate_scores(validation, discount_, [&](const RankingQuery& q) { return model.scores(q.features); }).all;
  } else if (c.kind == "adarank") {
    AdaRankOptions options;
    options.measure = p.choice("measure") == "map" ? AdaRankMeasure::map : AdaRankMeasure::ndcg;
    options.ndcg_k = static_cast<std::size_t>(p.integer("ndcg_k"));
    options.discount = discount_;
    options.rounds = static_cast<int>(p.integer("rounds"));
    const AdaRankModel model = train_adarank(train, options);
    trained = clock_type::now();
    const auto [used, best] = choose_rounds(validation, model.weights_after.size(),
                                               [&](std::size_t r, std::size_t q, Eigen::VectorXd& scores) {
                                                 scores = validation[q].features * model.weights_after[r];
                                               });
    result["rounds_used"] = used;
    result["weights"] = to_std_vector(used > 0 ? Eigen::VectorXd(model.weights_after[used - 1])
                                                 : Eigen::VectorXd(Eigen::VectorXd::Zero(d.features)));
    metrics = best;
  } else {
    RankBoostOptions options;
    options.rounds = static_cast<int>(p.integer("rounds"));
    options.thresholds = static_cast<int>(p.integer("thresholds"));
    const RankBoostModel model = train_rankboost(train, options);
    trained = clock_type::now();
    // Validation scores grow round by round.
    const auto [used, best] = choose_rounds(validation, model.rounds.size(),
                                               [&](std::size_t r, std::size_t q, Eigen::VectorXd& scores) {
                                                 const ThresholdRanker& h = model.rounds[r];
                                                 for (Eigen::Index j = 0; j < scores.size(); ++j)
                                                   if (validation[q].features(j, h.feature) > h.threshold) scores[j] += h.alpha;
                                               });
    json rankers = json::array();
    for (std::size_t r = 0; r < used && r < model.rounds.size(); ++r)
      rankers.push_back({model.rounds[r].feature, model.rounds[r].threshold, model.rounds[r].alpha});
    result["rounds_used"] = rankers.size();
    result["rankers"] = rankers;
    metrics = best;
  }
  result["train_seconds"] = std::chrono::duration<double>(trained - start).count();
  result["validation"] = metrics;
  result["validation_seconds"] = seconds_since(trained);
  return result;
}

json RankingRun::test(std::size_t cell, const json& validation) const {
  const Cell& c = cells_[cell];
  const Dataset& d = *c.dataset;
  const ParameterValues& p = plans_[cell].parameters;
  const std::vector<RankingQuery>& test = d.subsets[static_cast<std::size_t>(fold_parts(c.fold).test)];
  json result;
  const auto start = clock_type::now();
  QuerySetMetrics m;
  if (c.kind == "mpg") {
    RankingMpgModel model;
    model.levels = d.levels;
    model.discount = discount_;
    const auto w = validation["weights"].get<std::vector<double>>();
    model.theta = Eigen::Map<const Eigen::MatrixXd>(w.data(), d.features + 1, d.levels - 1);
    const MpgRankings rankings = mpg_rankings(model, test, p);
    m = rankings.order;
    for (const auto& [key, metrics] : rankings.rules) result["rules"][key] = metrics_json(metrics);
    result["games"] = rankings.games;
  } else if (c.kind == "file_order") {
    m = evaluate_queries(test, discount_, [](const RankingQuery& q, const std::vector<DocumentKey>&) {
      return file_order(q.features.rows());
    });
  } else if (c.kind == "rankboost") {
    RankBoostModel model;
    for (const auto& r : validation["rankers"]) model.rounds.push_back({r[0].get<int>(), r[1].get<double>(), r[2].get<double>()});
    m = evaluate_scores(test, discount_, [&](const RankingQuery& q) { return model.scores(q.features); });
  } else {
    const auto w = validation["weights"].get<std::vector<double>>();
    const Eigen::VectorXd weights = Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
    m = evaluate_scores(test, discount_, [&](const RankingQuery& q) { return Eigen::VectorXd(q.features * weights); });
  }
  result["test"] = m.all;
  result["test_with_relevant"] = m.with_relevant;
  result["test_seconds"] = seconds_since(start);
  return result;
}

std::string number(double x, int digits = 4) { return fixed(x, digits); }

// One row of Table XII: a method's test metrics on one data set, averaged over the folds.
struct MethodRow {
  RankingMetrics metrics;
  RankingMetrics with_relevant;  // over the test queries with >= 1 relevant document
  std::vector<double> fold_mean_ndcg;
  double train_seconds = 0.0, test_seconds = 0.0;
  std::vector<std::string> selected;  // per fold
  std::vector<double> game_seconds;   // MPG: per test query
  std::vector<int> game_documents;
  int unconverged_games = 0, unconverged_trainings = 0;
  bool ran() const { return metrics.queries > 0; }
  double fold_sd() const {
    double sd = 0.0;
    for (double x : fold_mean_ndcg) sd += (x - metrics.mean_ndcg) * (x - metrics.mean_ndcg);
    return fold_mean_ndcg.size() > 1 ? std::sqrt(sd / static_cast<double>(fold_mean_ndcg.size() - 1)) : 0.0;
  }
};

Tables RankingRun::tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  const std::string published_dataset = published.value("dataset", std::string());
  const bool published_is_ours = spec_["datasets"].contains(published_dataset);
  const json published_mean = published.value("mean_ndcg", json::object());
  const json published_at = published.value("ndcg_at", json::object());
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  std::map<std::string, std::map<std::string, MethodRow>> rows;  // dataset -> method -> row
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    MethodRow& row = rows[cells_[i].dataset->label][plans_[i].method];
    const json& v = outcome.validation[i];
    row.train_seconds += v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0);
    if (v.contains("training") && !v["training"].value("converged", true)) ++row.unconverged_trainings;
  }
  // MPG's other rankings of its test games (kMpgRules) become rows of their own; they and the
  // diagnostic kinds are `secondary`: not baselines in the ordering checks, not in Figure 8 unless
  // a rule of MPG's.
  std::vector<std::string> rule_rows;
  std::set<std::string> secondary, off_figure;
  for (const auto& method : methods)
    if (diagnostic_kind(spec_["methods"][method]["kind"].get<std::string>())) {
      secondary.insert(method);
      off_figure.insert(method);
    }
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      MethodRow& row = rows[d->label][method];
      std::vector<QueryMetrics> folds, folds_with_relevant;
      std::map<std::string, std::vector<QueryMetrics>> rule_folds, rule_folds_with_relevant;
      for (int fold : folds_) {
        const auto found = outcome.selected.find(group(*d, fold, method));
        if (found == outcome.selected.end()) continue;
        const std::size_t i = found->second;
        const json& r = outcome.test.at(i);
        folds.push_back(as_entry(r["test"].get<RankingMetrics>()));
        folds_with_relevant.push_back(as_entry(r["test_with_relevant"].get<RankingMetrics>()));
        row.fold_mean_ndcg.push_back(folds.back().mean_ndcg);
        row.test_seconds += r.value("test_seconds", 0.0);
        const Parameter* grid = plans_[i].parameters.table().grid();
        std::string choice = grid ? fmt::format("{} = {}", grid->name, plans_[i].parameters.number(grid->name)) : "";
        if (outcome.validation[i].contains("rounds_used"))
          choice += fmt::format("{}rounds = {}", choice.empty() ? "" : ", ", outcome.validation[i]["rounds_used"].get<int>());
        if (outcome.validation[i].contains("feature"))
          choice += fmt::format("{}{}", choice.empty() ? "" : ", ", outcome.validation[i]["feature"].get<std::string>());
        row.selected.push_back(fmt::format("fold {}: {}", fold, choice));
        if (!r.contains("games")) continue;
        for (const auto& s : r["games"]["seconds"]) row.game_seconds.push_back(s.get<double>());
        for (const auto& n : r["games"]["documents"]) row.game_documents.push_back(n.get<int>());
        row.unconverged_games += r["games"]["unconverged"].get<int>();
        for (const auto& [key, rule] : kMpgRules) {
          if (!r.contains("rules") || !r["rules"].contains(key)) continue;
          rule_folds[key].push_back(as_entry(r["rules"][key]["all"].get<RankingMetrics>()));
          rule_folds_with_relevant[key].push_back(as_entry(r["rules"][key]["with_relevant"].get<RankingMetrics>()));
          rows[d->label][fmt::format("{} ({})", method, rule)].fold_mean_ndcg.push_back(rule_folds[key].back().mean_ndcg);
        }
      }
      row.metrics = average(folds);
      row.with_relevant = average(folds_with_relevant);
      for (const auto& [key, rule] : kMpgRules) {
        if (!rule_folds.contains(key)) continue;
        const std::string label = fmt::format("{} ({})", method, rule);
        rows[d->label][label].metrics = average(rule_folds[key]);
        rows[d->label][label].with_relevant = average(rule_folds_with_relevant[key]);
        secondary.insert(label);
        if (key == "score_sort") off_figure.insert(label);
        if (std::find(rule_rows.begin(), rule_rows.end(), label) == rule_rows.end()) rule_rows.push_back(label);
      }
    }
  methods.insert(methods.end(), rule_rows.begin(), rule_rows.end());
  auto row_of = [&](const Dataset& d, const std::string& method) -> const MethodRow& { return rows[d.label][method]; };

  Tables out;
  std::string& md = out.markdown;
  md += fmt::format("Test metrics averaged over LETOR folds {} (each fold: mean over its test queries), DCG discount "
                    "`{}`{}; hyper-parameters and boosting rounds chosen on each fold's validation subset by {}.\n\n",
                    fmt::join(folds_, ", "), to_string(discount_),
                    discount_ == DcgDiscount::letor ? " (DCG'': gain 2^rel - 1, positions 1 and 2 undiscounted, then 1/log2(r))" : "",
                    selection_);
  // Table XII in the thesis' layout: methods x data sets, the published column beside ours.
  md += "## Table XII: Mean NDCG\n\n| method |";
  for (const auto& d : datasets_) md += fmt::format(" {} (ours) |", d->label);
  if (!published_mean.empty())
    md += fmt::format(" {} (published{}) |", published_dataset, published_is_ours ? "" : "; a different data set");
  md += "\n|---|";
  for (std::size_t i = 0; i < datasets_.size() + (published_mean.empty() ? 0 : 1); ++i) md += "---|";
  md += "\n";
  std::string csv = "dataset,method,measure,value,source\n";
  std::string figure = "dataset,method,k,ndcg,source\n";  // Figure 8: NDCG@k per data set and method
  json out_rows = json::array();
  for (const auto& method : methods) {
    md += fmt::format("| {} |", method);
    for (const auto& d : datasets_) {
      const MethodRow& row = row_of(*d, method);
      const RankingMetrics& m = row.metrics;
      md += row.ran() ? fmt::format(" {} (± {}) |", number(m.mean_ndcg), number(row.fold_sd(), 3)) : " - |";
      if (!row.ran()) continue;
      csv += fmt::format("{},{},mean_ndcg,{:.6f},ours\n{},{},map,{:.6f},ours\n", d->label, method, m.mean_ndcg, d->label,
                         method, m.map);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},ndcg@{},{:.6f},ours\n", d->label, method, k + 1, m.ndcg_at[k]);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},p@{},{:.6f},ours\n", d->label, method, k + 1, m.precision_at[k]);
      csv += fmt::format("{},{},mean_ndcg_with_relevant,{:.6f},ours\n{},{},map_with_relevant,{:.6f},ours\n", d->label,
                         method, row.with_relevant.mean_ndcg, d->label, method, row.with_relevant.map);
      out_rows.push_back({{"dataset", d->label}, {"method", method}, {"mean_ndcg", m.mean_ndcg},
                          {"mean_ndcg_fold_sd", row.fold_sd()}, {"map", m.map}, {"ndcg_at", m.ndcg_at},
                          {"precision_at", m.precision_at}, {"folds", m.queries},
                          {"with_relevant", row.with_relevant},
                          {"seconds", row.train_seconds + row.test_seconds}, {"selected", row.selected}});
    }
    if (!published_mean.empty())
      md += published_mean.contains(method) ? fmt::format(" {} |", number(published_mean[method].get<double>())) : " |";
    md += "\n";
  }
  md += "\n(± the standard deviation over folds.)\n\n";
  // The evaluation variant: only the queries that have a relevant document (LETOR's averages keep
  // the others, which score 0 whatever the ranking).
  md += "## Evaluation variant (not the LETOR convention): Mean NDCG and MAP over the test queries with at least one "
        "relevant document\n\n| method |";
  for (const auto& d : datasets_) {
    std::size_t kept = 0, total = 0;
    for (int fold : folds_)
      for (const auto& q : d->subsets[static_cast<std::size_t>(fold_parts(fold).test)]) {
        kept += has_relevant(q) ? 1 : 0;
        ++total;
      }
    md += fmt::format(" {} Mean NDCG ({} of {} test queries) | {} MAP |", d->label, kept, total, d->label);
  }
  md += fmt::format("\n|---|{}\n", fmt::join(std::vector<std::string>(2 * datasets_.size(), "---|"), ""));
  for (const auto& method : methods) {
    md += fmt::format("| {} |", method);
    for (const auto& d : datasets_) {
      const MethodRow& row = row_of(*d, method);
      md += row.ran() ? fmt::format(" {} | {} |", number(row.with_relevant.mean_ndcg), number(row.with_relevant.map))
                      : " - | - |";
    }
    md += "\n";
  }
  md += "\n";
  for (const auto& d : datasets_) {
    md += fmt::format("## NDCG@k on {} (Figure 8)\n\n| method |", d->label);
    for (std::size_t k = 1; k <= kMaxK; ++k) md += fmt::format(" @{} |", k);
    md += fmt::format(" MAP |\n|---|{}\n", fmt::join(std::vector<std::string>(kMaxK + 1, "---|"), ""));
    for (const auto& method : methods) {
      const RankingMetrics& m = row_of(*d, method).metrics;
      if (!row_of(*d, method).ran()) continue;
      md += fmt::format("| {} |", method);
      for (std::size_t k = 0; k < kMaxK; ++k) {
        md += fmt::format(" {} |", number(m.ndcg_at[k]));
        if (!off_figure.contains(method))
          figure += fmt::format("{},{},{},{:.6f},ours\n", d->label, method, k + 1, m.ndcg_at[k]);
      }
      md += fmt::format(" {} |\n", number(m.map));
    }
    md += "\n";
  }
  // Every published number beside ours on the data set it was measured on (when the spec runs it).
  ComparisonTable comparison({{"dataset", "dataset"}, {"method", "method"}, {"measure", "measure"}}, {},
                             tolerance_of(spec_, 0.01), 4);
  auto ours = [&](const std::string& method, auto value_of) -> std::optional<double> {
    for (const auto& d : datasets_)
      if (d->label == published_dataset && row_of(*d, method).ran()) return value_of(row_of(*d, method).metrics);
    return std::nullopt;
  };
  for (const auto& [method, value] : published_mean.items()) {
    comparison.add({published_dataset, method, "mean_ndcg"},
                   ours(method, [](const RankingMetrics& m) { return m.mean_ndcg; }), value.get<double>());
    csv += fmt::format("{},{},mean_ndcg,{:.6f},published\n", published_dataset, method, value.get<double>());
  }
  for (const auto& [method, values] : published_at.items())
    for (std::size_t k = 1; k <= kMaxK; ++k)
      if (values.contains(std::to_string(k))) {
        const double value = values[std::to_string(k)].get<double>();
        comparison.add({published_dataset, method, fmt::format("ndcg@{}", k)},
                       ours(method, [&](const RankingMetrics& m) { return m.ndcg_at[k - 1]; }), value);
        csv += fmt::format("{},{},ndcg@{},{:.6f},published\n", published_dataset, method, k, value);
        figure += fmt::format("{} (published),{},{},{:.6f},published\n", published_dataset, method, k, value);
      }
  if (!comparison.rows().empty())
    md += fmt::format("## Published numbers on {} ({}{})\n\n{}\n", published_dataset,
                      published_is_ours ? "" : "a different data set, not run here: nothing is compared; ",
                      published.value("source", std::string("see the spec")), comparison.markdown());
  out.tally = comparison.tally();

  // The claims of the thesis to check: MPG best in Mean NDCG, weaker than the best baseline at k = 1, 2.
  md += "## Ordering checks (the thesis' claims on MQ2007)\n\n";
  const std::string mpg = spec_["methods"].contains("MPG") ? "MPG" : methods.front();
  for (const auto& d : datasets_) {
    const RankingMetrics& ours_m = row_of(*d, mpg).metrics;
    // The best baseline (not MPG, its other rules or a diagnostic) by value_of: {value, method}, {-1, ""} if none.
    auto best_baseline = [&](auto value_of) {
      std::pair<double, std::string> best{-1.0, ""};
      for (const auto& method : methods)
        if (method != mpg && !secondary.contains(method) && row_of(*d, method).ran() &&
            value_of(row_of(*d, method).metrics) > best.first)
          best = {value_of(row_of(*d, method).metrics), method};
      return best;
    };
    std::vector<std::pair<double, std::string>> order;
    for (const auto& method : methods)
      if (row_of(*d, method).ran()) order.push_back({row_of(*d, method).metrics.mean_ndcg, method});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string ranking;
    for (const auto& [v, method] : order) ranking += (ranking.empty() ? "" : " > ") + fmt::format("{} {}", method, number(v));
    const bool best = row_of(*d, mpg).ran() &&
                      best_baseline([](const RankingMetrics& m) { return m.mean_ndcg; }).first <= ours_m.mean_ndcg;
    md += fmt::format("- {}: Mean NDCG order {}. {} best in Mean NDCG: **{}**.", d->label, ranking, mpg, best ? "yes" : "no");
    if (row_of(*d, mpg).ran()) {
      for (std::size_t k : {std::size_t{1}, std::size_t{2}}) {
        const auto [value, name] = best_baseline([&](const RankingMetrics& m) { return m.ndcg_at[k - 1]; });
        if (value >= 0.0)
          md += fmt::format(" NDCG@{}: {} {} vs best baseline {} {} ({}).", k, mpg, number(ours_m.ndcg_at[k - 1]), name,
                            number(value), ours_m.ndcg_at[k - 1] < value ? "weaker, as the thesis reports" : "not weaker");
      }
      if (!best) out.tally.outside.push_back(fmt::format("{}: {} is not best in Mean NDCG ({})", d->label, mpg, ranking));
    }
    md += "\n";
  }
  md += "\n## Selected hyper-parameters and times\n\n| data set | method | selected on validation | training + validation, "
        "all grid points and folds (s) | test (s) |\n|---|---|---|---|---|\n";
  std::string notes;
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const MethodRow& row = row_of(*d, method);
      if (row.selected.empty()) continue;  // a second decision rule: MPG's row has its times
      md += fmt::format("| {} | {} | {} | {:.1f} | {:.2f} |\n", d->label, method, fmt::join(row.selected, "; "),
                        row.train_seconds, row.test_seconds);
      if (row.unconverged_trainings > 0)
        notes += fmt::format("- {} {}: {} of its trainings stopped before the optimizer's tolerance (iteration or time "
                             "cap).\n", d->label, method, row.unconverged_trainings);
      if (row.game_seconds.empty()) continue;
      const auto longest = static_cast<std::size_t>(
          std::max_element(row.game_seconds.begin(), row.game_seconds.end()) - row.game_seconds.begin());
      notes += fmt::format("- {} {} test games (one per query, {} queries): median {:.4f} s, max {:.4f} s (a query of "
                           "{} documents); {} not converged (time cap).\n",
                           d->label, method, row.game_seconds.size(), median(row.game_seconds),
                           row.game_seconds[longest], row.game_documents[longest], row.unconverged_games);
    }
  md += "\n## Data\n\n";
  for (const auto& d : datasets_) {
    std::size_t queries = 0, documents = 0;
    for (const auto& s : d->subsets) {
      queries += s.size();
      for (const auto& q : s) documents += q.relevance.size();
    }
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}); {} queries, {} documents, {} features, relevance 0..{}.",
                      d->label, d->choice.dataset, d->choice.variant, d->choice.fidelity(), queries, documents,
                      d->features, d->levels - 1);
    for (const auto& f : d->files) md += fmt::format(" `{}` sha256 `{}`;", f.name, f.sha256.substr(0, 16));
    md += "\n";
  }
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);
  md += notes;
  out.csv = csv;
  out.extra_files = {{".figure8.csv", figure}};
  out.fields = {{"discount", to_string(discount_)}, {"folds", folds_},         {"selection", selection_},
                {"rows", out_rows},                  {"published", published}, {"comparison", comparison.rows_json()}};
  return out;
}

// ---- The family --------------------------------------------------------------------------------

class RankingFamily : public Family {
 public:
  std::string name() const override { return "ranking"; }
  std::string summary() const override {
    return "LETOR learning-to-rank tables (thesis Table XII and Figure 8). A data set is five subsets S1..S5 "
           "(registry format `letor`, key `subsets`); fold K trains on S_K, S_K+1, S_K+2, validates on S_K+3 and "
           "tests on S_K+4 (indices mod 5), the LETOR rotation. Every (data set, fold, method, grid value) is a cell "
           "trained on the training subsets and scored on the validation subset; the best grid value per (data set, "
           "fold, method) (first in grid order among ties) is scored on the test subset, and the tables average the "
           "test metrics over the folds. Also writes `results/<name>[.quick].figure8.csv` (NDCG@k per method, ours "
           "and published), which `./run_all.sh` plots.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"datasets", true, "`{label: {registry, variant}}`: LETOR data sets of the registry (format `letor`)"},
            {"folds", false, "LETOR folds to run, distinct integers 1..5 (default all five)"},
            {"discount", false,
             "`letor` (default; DCG'': gain 2^rel − 1, positions 1 and 2 undiscounted, then 1/log2 r) or `thesis` "
             "(1/log2(r + 1), Eq. 4.13); used by the MPG game, AdaRank-NDCG and every NDCG in the tables"},
            {"selection_metric", false,
             "validation score that selects grid values and boosting rounds: `mean_ndcg` (default), `map` or `ndcg@k` "
             "(k in 1..10)"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"published", false,
             "`{dataset, source, mean_ndcg: {method: value}, ndcg_at: {method: {k: value}}}`: the paper's numbers and "
             "the data set they were measured on; compared with ours when the spec runs that data set"},
            {"tolerance", false, "a published number is matched when \\|ours − published\\| ≤ this (default 0.01)"}};
  }
  const std::vector<MethodKind>& methods() const override { return ranking_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<RankingRun>(spec); }
};

void RankingFamily::validate(const json& spec, const SpecValidator& v) const {
  if (spec.contains("discount")) {
    const std::string d = v.string(spec, "discount", "").get<std::string>();
    if (d != "letor" && d != "thesis") v.fail("discount", "expected 'letor' (DCG'') or 'thesis' (Eq. 4.13), got '" + d + "'");
  }
  if (spec.contains("selection_metric")) {
    const std::string s = v.string(spec, "selection_metric", "").get<std::string>();
    if (!valid_selection(s)) v.fail("selection_metric", "expected 'mean_ndcg', 'map' or 'ndcg@k' with k in 1..10, got '" + s + "'");
  }
  validate_tolerance(spec, v, 1.0);
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
    v.registry_dataset(d, where, {"letor"});
    const json& subsets = registry_choice(d).variant_entry().value("subsets", json());
    if (!subsets.is_array() || subsets.size() != 5)
      v.fail(where + ".registry", "the registry (" + registry_path() + ") must list the variant's 5 subsets S1..S5");
  }
  if (!spec.contains("published")) return;
  const json& p = spec["published"];
  v.keys(p, "published", {"dataset", "source", "mean_ndcg", "ndcg_at"}, {"dataset"});
  v.string(p, "dataset", "published");
  if (p.contains("source")) v.string(p, "source", "published");
  if (p.contains("mean_ndcg")) v.number_table(p["mean_ndcg"], "published.mean_ndcg", 1);
  if (p.contains("ndcg_at")) {
    v.number_table(p["ndcg_at"], "published.ndcg_at", 2);
    for (const auto& [method, values] : p["ndcg_at"].items())
      for (const auto& [k, value] : values.items())
        if (const int n = std::atoi(k.c_str()); std::to_string(n) != k || n < 1 || n > static_cast<int>(kMaxK))
          v.fail("published.ndcg_at." + method + "." + k, "expected k in 1..10");
  }
}

}  // namespace

const Family& ranking_family() {
  static const RankingFamily family;
  return family;
}

}  // namespace mpg::harness
