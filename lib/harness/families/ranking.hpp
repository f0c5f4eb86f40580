// The ranking family's own header (private to lib/harness/families/ranking*.cpp): its run class and the
// types and functions its files share.
#pragma once

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
#include "lib/harness/unit_samples.hpp"
#include "lib/models/ranking_mpg.hpp"

namespace mpg {
// RankingMetrics as JSON {mean_ndcg, map, ndcg_at, precision_at, queries}, in the cells and tables.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankingMetrics, mean_ndcg, map, ndcg_at, precision_at, queries)
}  // namespace mpg

namespace mpg::harness::ranking_impl {

using nlohmann::json;

constexpr std::size_t kMaxK = 10;  // NDCG@1..10, P@1..10
// MPG's other rankings of the same test games, each a row "<label> (<rule>)" of its own:
// {key in the test cell, rule}. The E[gain] rule is a second decision rule; the θ·x sort is a
// diagnostic (documents by the top level's learned potential, no game).
const std::vector<std::pair<std::string, std::string>> kMpgRules = {{"expected_gain_rule", "E[gain] rule"},
                                                                    {"score_sort", "θ·x sort"}};
// Method kinds that are diagnostics, not methods of the thesis' table: no ordering claim uses them.
bool diagnostic_kind(const std::string& kind);

// ---- Methods -----------------------------------------------------------------------------------

Parameter required(Parameter p);

const Parameter kLambda = grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ (one cell per value)");

const std::vector<MethodKind>& ranking_methods();

// "mean_ndcg", "map" or "ndcg@k" (1 <= k <= 10): the validation score that selects.
double selection_score(const RankingMetrics& m, const std::string& measure);

bool valid_selection(const std::string& measure);

// A fold's (or query's) metrics as one more entry of an average.
QueryMetrics as_entry(const RankingMetrics& m);

RankingMetrics average(const std::vector<QueryMetrics>& entries);

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

FoldParts fold_parts(int fold);

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d);

bool has_relevant(const RankingQuery& q);

// A method's metrics over a query set: all queries (Table XII, as LETOR averages) and only the
// queries with at least one relevant document (the evaluation variant; the others score 0 for
// every ranking).
struct QuerySetMetrics {
  RankingMetrics all, with_relevant;
  std::vector<double> query_mean_ndcg;  // per query of `all`, in order: the units of paired comparisons
};

// Averages ranking_of(q) over the queries. Every measure follows lib/eval/ranking_measures.hpp:
// identical documents (equal feature vectors) are averaged, so no ranking gains from file order.
// How the tables score a ranking: the DCG discount and NDCG@k past the end of a query's list.
struct Scoring {
  DcgDiscount discount = DcgDiscount::letor;
  NdcgPastEnd past_end = NdcgPastEnd::zero;
};

template <class RankQuery>
QuerySetMetrics evaluate_queries(const std::vector<RankingQuery>& queries, const Scoring& scoring, RankQuery ranking_of) {
  QuerySetMetrics m;
  for (const auto& q : queries) {
    const std::vector<DocumentKey> keys = document_keys(q.features);
    const QueryMetrics one =
        evaluate_ranking(ranking_of(q, keys), q.relevance, scoring.discount, kMaxK, keys, scoring.past_end);
    m.all.add(one);
    m.query_mean_ndcg.push_back(one.mean_ndcg);
    if (has_relevant(q)) m.with_relevant.add(one);
  }
  m.all.finish();
  m.with_relevant.finish();
  return m;
}

// The same for rankings by a score per document, ties by the documents' keys.
template <class ScoreQuery>
QuerySetMetrics evaluate_scores(const std::vector<RankingQuery>& queries, const Scoring& scoring, ScoreQuery scores_of) {
  return evaluate_queries(queries, scoring, [&](const RankingQuery& q, const std::vector<DocumentKey>& keys) {
    return ranking_by_scores(scores_of(q), keys);
  });
}

Ranking file_order(Eigen::Index n);

json metrics_json(const QuerySetMetrics& m);

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
  Scoring scoring_;
  std::vector<int> folds_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

std::string number(double x, int digits = 4);

// One row of Table XII: a method's test metrics on one data set, averaged over the folds.
struct MethodRow {
  RankingMetrics metrics;
  RankingMetrics with_relevant;  // over the test queries with >= 1 relevant document
  std::vector<double> fold_mean_ndcg;
  std::vector<std::vector<double>> query_mean_ndcg;  // per test query, folds in order (paired comparisons)
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

}  // namespace mpg::harness::ranking_impl
