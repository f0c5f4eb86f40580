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
#include "lib/harness/families/ranking.hpp"

namespace mpg::harness::ranking_impl {
// Method kinds that are diagnostics, not methods of the thesis' table: no ordering claim uses them.
bool diagnostic_kind(const std::string& kind) { return kind == "file_order" || kind == "best_feature"; }

// ---- Methods -----------------------------------------------------------------------------------

Parameter required(Parameter p) {
  p.default_value = nullptr;
  return p;
}

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
           choice_parameter("protocol", "certified", training_protocol_names(),
                            "how θ is found (lib/learn/protocol.hpp, issue 53): `certified` (`optimizer` as set) or "
                            "the authors' code's training from θ = 0: `authors_lbfgs` (L-BFGS, 5 corrections, 200 "
                            "iterations) or `authors_adadelta` (AdaDelta over mini-batches of `batch_size` queries, "
                            "200 passes, the reference's two stop tests); `optimizer`, `max_iterations` and "
                            "`objective_tolerance` then do not apply. The query games keep their exact solver "
                            "(`greedy`/`lp`: nothing to stop early; `double_oracle`: the reference's stop rule)"),
           integer_parameter("batch_size", 9, 1, 1000000,
                             "`authors_adadelta`: queries per mini-batch (the reference's thread-pool size, #cpus + "
                             "1 of an unstated machine; default: 8 threads)"),
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

Ranking file_order(Eigen::Index n) {
  Ranking order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

json metrics_json(const QuerySetMetrics& m) { return {{"all", m.all}, {"with_relevant", m.with_relevant}}; }

RankingRun::RankingRun(json spec) : spec_(std::move(spec)) {
  selection_ = spec_.value("selection_metric", std::string("mean_ndcg"));
  scoring_.discount = parse_dcg_discount(spec_.value("discount", std::string("letor")));
  scoring_.past_end = parse_ndcg_past_end(spec_.value("ndcg_past_end", std::string("zero")));
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
                          {"fold", fold}, {"discount", to_string(scoring_.discount)},
                          {"ndcg_past_end", to_string(scoring_.past_end)}, {"selection", selection_}};
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
  out.order = evaluate_queries(queries, scoring_, [&](const RankingQuery& q, const std::vector<DocumentKey>&) {
    return predictions[index_of(q)].order;
  });
  out.rules["expected_gain_rule"] = evaluate_queries(
      queries, scoring_,
      [&](const RankingQuery& q, const std::vector<DocumentKey>&) { return predictions[index_of(q)].expected_gain_order; });
  out.rules["score_sort"] = evaluate_queries(queries, scoring_, [&](const RankingQuery& q, const std::vector<DocumentKey>&) {
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
  if (rounds == 0) return {0, evaluate_scores(validation, scoring_, [](const RankingQuery& q) {
                             return Eigen::VectorXd(Eigen::VectorXd::Zero(q.features.rows()));
                           }).all};
  std::size_t best = 0;
  double best_score = -1.0;
  RankingMetrics best_metrics;
  for (std::size_t r = 0; r < rounds; ++r) {
    RankingMetrics m;
    for (std::size_t q = 0; q < validation.size(); ++q) {
      add_round(r, q, scores[q]);
      m.add(evaluate_ranking(ranking_by_scores(scores[q], keys[q]), validation[q].relevance, scoring_.discount, kMaxK,
                             keys[q], scoring_.past_end));
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
    options.discount = scoring_.discount;
    options.optimizer = optimizer_of(p);
    options.optimizer.kind = parse_optimizer_kind(p.choice("optimizer"));
    options.optimizer.cutting_plane_tolerance = p.number("objective_tolerance");
    // BMRM's masters solved exactly (active set): the coordinate-descent master had taken 92 % of
    // the certified trainings' time (docs/methods.md, "How θ is learned").
    options.optimizer.cutting_plane_exact_master = true;
    options.game = game_options_of(p);
    options.solver = parse_dcg_game_solver(p.choice("game_solver"));
    options.max_seconds = p.number("max_seconds");
    options.protocol = parse_training_protocol(p.choice("protocol"), "ranking MPG");
    options.batch_size = static_cast<int>(p.integer("batch_size"));
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
    metrics = evaluate_scores(validation, scoring_, [&](const RankingQuery& q) { return model.scores(q.features); }).all;
  } else if (c.kind == "file_order") {
    trained = clock_type::now();
    metrics = evaluate_queries(validation, scoring_, [](const RankingQuery& q, const std::vector<DocumentKey>&) {
                return file_order(q.features.rows());
              }).all;
  } else if (c.kind == "best_feature") {
    int feature = 0;
    double sign = 1.0;
    const LinearRanker model = best_single_feature(
        d.features,
        [&](const LinearRanker& candidate) {
          return selection_score(
              evaluate_scores(validation, scoring_, [&](const RankingQuery& q) { return candidate.scores(q.features); })
                  .all,
              selection_);
        },
        &feature, &sign);
    trained = clock_type::now();
    result["weights"] = to_std_vector(model.weights);
    result["feature"] = fmt::format("{}feature {}", sign < 0.0 ? "−" : "", feature + 1);
    metrics = evaluate_scores(validation, scoring_, [&](const RankingQuery& q) { return model.scores(q.features); }).all;
  } else if (c.kind == "adarank") {
    AdaRankOptions options;
    options.measure = p.choice("measure") == "map" ? AdaRankMeasure::map : AdaRankMeasure::ndcg;
    options.ndcg_k = static_cast<std::size_t>(p.integer("ndcg_k"));
    options.discount = scoring_.discount;
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
    model.discount = scoring_.discount;
    const auto w = validation["weights"].get<std::vector<double>>();
    model.theta = Eigen::Map<const Eigen::MatrixXd>(w.data(), d.features + 1, d.levels - 1);
    const MpgRankings rankings = mpg_rankings(model, test, p);
    m = rankings.order;
    for (const auto& [key, metrics] : rankings.rules) result["rules"][key] = metrics_json(metrics);
    result["games"] = rankings.games;
  } else if (c.kind == "file_order") {
    m = evaluate_queries(test, scoring_, [](const RankingQuery& q, const std::vector<DocumentKey>&) {
      return file_order(q.features.rows());
    });
  } else if (c.kind == "rankboost") {
    RankBoostModel model;
    for (const auto& r : validation["rankers"]) model.rounds.push_back({r[0].get<int>(), r[1].get<double>(), r[2].get<double>()});
    m = evaluate_scores(test, scoring_, [&](const RankingQuery& q) { return model.scores(q.features); });
  } else {
    const auto w = validation["weights"].get<std::vector<double>>();
    const Eigen::VectorXd weights = Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
    m = evaluate_scores(test, scoring_, [&](const RankingQuery& q) { return Eigen::VectorXd(q.features * weights); });
  }
  result["test"] = m.all;
  result["test_with_relevant"] = m.with_relevant;
  result["test_query_mean_ndcg"] = m.query_mean_ndcg;
  result["test_seconds"] = seconds_since(start);
  return result;
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
            {"ndcg_past_end", false,
             "NDCG@k of a query with fewer than k documents: `zero` (default; LETOR's Eval-Score-3.0.pl and 4.0.pl "
             "average the positions past the list's end as 0) or `carry` (NDCG@n carried forward); Mean NDCG, MAP "
             "and P@k do not depend on it"},
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
  if (spec.contains("ndcg_past_end")) {
    const std::string e = v.string(spec, "ndcg_past_end", "").get<std::string>();
    if (e != "zero" && e != "carry")
      v.fail("ndcg_past_end", "expected 'zero' (LETOR's scripts) or 'carry' (NDCG@n carried forward), got '" + e + "'");
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

}  // namespace mpg::harness::ranking_impl

namespace mpg::harness {
const Family& ranking_family() {
  static const ranking_impl::RankingFamily family;
  return family;
}

}  // namespace mpg::harness
