// No ranking depends on file order (lib/eval/ranking_measures.hpp conventions): ties in scores go
// by the documents' content keys, identical documents are averaged by the measures, and
// permuting every query's documents (in training and test data) permutes every method's ranking
// the same way: RankSVM, ListNet, AdaRank, RankBoost, the best single feature and MPG-DCG.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "baselines/rankers.hpp"
#include "lib/eval/ranking_measures.hpp"
#include "lib/models/ranking_mpg.hpp"
#include "tests/ranking_queries.hpp"

using mpg::DcgDiscount;
using mpg::RankingQuery;
using Approx = Catch::Detail::Approx;

namespace {

// The shared synthetic queries with every feature rounded to a coarse grid (0, 0.25, ..., 1):
// many ties in scores; and in every fourth query an identical pair of documents.
std::vector<RankingQuery> coarse_queries(int count, int documents, std::uint64_t seed) {
  std::vector<RankingQuery> queries = mpg::testing::synthetic_queries(count, documents, seed);
  for (std::size_t q = 0; q < queries.size(); ++q) {
    Eigen::MatrixXd& x = queries[q].features;
    x = (4.0 * x.array()).round().min(4.0) / 4.0;
    if (q % 4 == 0) x.row(x.rows() - 1) = x.row(0);
  }
  return queries;
}

// Every query's documents in a seeded random order; `moved[q][i]` = old index of new row i.
std::vector<RankingQuery> permuted(const std::vector<RankingQuery>& queries, std::uint64_t seed,
                                   std::vector<std::vector<int>>& moved) {
  std::mt19937_64 rng(seed);
  std::vector<RankingQuery> out;
  moved.clear();
  for (const auto& q : queries) {
    std::vector<int> order(q.relevance.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    RankingQuery p;
    p.features.resize(q.features.rows(), q.features.cols());
    for (std::size_t i = 0; i < order.size(); ++i) {
      p.features.row(static_cast<Eigen::Index>(i)) = q.features.row(order[i]);
      p.relevance.push_back(q.relevance[static_cast<std::size_t>(order[i])]);
    }
    out.push_back(std::move(p));
    moved.push_back(std::move(order));
  }
  return out;
}

// A ranking as the sequence of its documents' keys: equal for two orders of one query exactly
// when they place the same documents (identical documents being interchangeable) at each position.
std::vector<mpg::DocumentKey> key_sequence(const mpg::Ranking& order, const Eigen::MatrixXd& features) {
  const auto keys = mpg::document_keys(features);
  std::vector<mpg::DocumentKey> out;
  for (int j : order) out.push_back(keys[static_cast<std::size_t>(j)]);
  return out;
}

double mean_ndcg(const std::vector<RankingQuery>& queries, const std::vector<mpg::Ranking>& rankings) {
  mpg::RankingMetrics m;
  for (std::size_t q = 0; q < queries.size(); ++q)
    m.add(mpg::evaluate_ranking(rankings[q], queries[q].relevance, DcgDiscount::letor, 10,
                                mpg::document_keys(queries[q].features)));
  m.finish();
  return m.mean_ndcg;
}

}  // namespace

TEST_CASE("Ties by content key; identical documents are averaged by every measure", "[ranking_ties]") {
  SECTION("ties in scores go by key, not by index") {
    Eigen::VectorXd scores(4);
    scores << 1.0, 0.5, 1.0, 0.5;
    const std::vector<mpg::DocumentKey> keys = {9, 3, 2, 7};
    CHECK(mpg::ranking_by_scores(scores, keys) == mpg::Ranking{2, 0, 1, 3});
    // Equal feature rows, equal keys; -0.0 reads as 0.0; a changed value changes the key.
    Eigen::MatrixXd x(3, 2);
    x << 0.0, 1.5, -0.0, 1.5, 0.0, 1.25;
    const auto k = mpg::document_keys(x);
    CHECK(k[0] == k[1]);
    CHECK(k[0] != k[2]);
  }
  SECTION("two identical documents, one relevant: the expectation over their two orders") {
    // Gains 0 and 3 at positions 1 and 2 (both undiscounted in DCG''): each position earns 1.5.
    const std::vector<mpg::DocumentKey> keys = {5, 5};
    const auto m = mpg::evaluate_ranking({0, 1}, {0, 2}, DcgDiscount::letor, 2, keys);
    CHECK(m.ndcg_at[0] == Approx(0.5));
    CHECK(m.ndcg_at[1] == Approx(1.0));
    CHECK(m.precision_at[0] == Approx(0.5));
    CHECK(m.average_precision == Approx(0.75));  // AP 1 or 1/2, equally likely
    CHECK(mpg::evaluate_ranking({1, 0}, {0, 2}, DcgDiscount::letor, 2, keys).ndcg_at[0] == Approx(0.5));
  }
  SECTION("three identical documents, two relevant: exact expected AP") {
    // The irrelevant one at position 1, 2 or 3: AP 7/12, 5/6 or 1; mean 29/36.
    const auto m = mpg::evaluate_ranking({2, 0, 1}, {1, 1, 0}, DcgDiscount::letor, 3, {4, 4, 4});
    CHECK(m.average_precision == Approx(29.0 / 36.0));
    CHECK(m.precision_at[1] == Approx(2.0 / 3.0));
    // A document of another class in between keeps the expectation exact: a relevant document
    // (class B) at position 2, the class A pair (relevances 1, 0) at positions 1 and 3.
    const auto mixed = mpg::evaluate_ranking({0, 1, 2}, {1, 1, 0}, DcgDiscount::letor, 3, {4, 8, 4});
    // Order (rel 1 at 1, rel 0 at 3): hits at 1 and 2: AP = (1 + 1) / 2 = 1.
    // Order (rel 0 at 1, rel 1 at 3): hits at 2 and 3: AP = (1/2 + 2/3) / 2 = 7/12.
    CHECK(mixed.average_precision == Approx((1.0 + 7.0 / 12.0) / 2.0));
  }
}

TEST_CASE("Permuting each query's documents permutes every method's ranking the same way", "[ranking_ties]") {
  const std::vector<RankingQuery> train = coarse_queries(12, 8, 11), test = coarse_queries(6, 9, 12);
  std::vector<std::vector<int>> moved_train, moved_test;
  const std::vector<RankingQuery> train_p = permuted(train, 3, moved_train), test_p = permuted(test, 4, moved_test);

  // Each method trained on the original and on the permuted training data ranks the original and
  // the permuted test queries: the rankings must place the same documents (by key) everywhere.
  auto check_same = [&](const std::string& method, auto rank_original, auto rank_permuted) {
    INFO(method);
    std::vector<mpg::Ranking> original, permuted_rankings;
    for (std::size_t q = 0; q < test.size(); ++q) {
      original.push_back(rank_original(test[q]));
      permuted_rankings.push_back(rank_permuted(test_p[q]));
      CHECK(key_sequence(original.back(), test[q].features) == key_sequence(permuted_rankings.back(), test_p[q].features));
    }
    CHECK(mean_ndcg(test, original) == Approx(mean_ndcg(test_p, permuted_rankings)).epsilon(1e-12));
  };
  auto by_scores = [](const auto& score) {
    return [score](const RankingQuery& q) { return mpg::ranking_by_scores(score(q), mpg::document_keys(q.features)); };
  };

  mpg::RankSvmOptions svm;
  const auto svm_a = mpg::train_ranksvm(train, svm), svm_b = mpg::train_ranksvm(train_p, svm);
  check_same("RankSVM", by_scores([&](const RankingQuery& q) { return svm_a.scores(q.features); }),
             by_scores([&](const RankingQuery& q) { return svm_b.scores(q.features); }));
  mpg::ListNetOptions listnet;
  const auto ln_a = mpg::train_listnet(train, listnet), ln_b = mpg::train_listnet(train_p, listnet);
  check_same("ListNet", by_scores([&](const RankingQuery& q) { return ln_a.scores(q.features); }),
             by_scores([&](const RankingQuery& q) { return ln_b.scores(q.features); }));
  mpg::AdaRankOptions ada;
  ada.rounds = 20;
  const auto ada_a = mpg::train_adarank(train, ada), ada_b = mpg::train_adarank(train_p, ada);
  CHECK(ada_a.features == ada_b.features);
  check_same("AdaRank", by_scores([&](const RankingQuery& q) { return Eigen::VectorXd(q.features * ada_a.weights_after.back()); }),
             by_scores([&](const RankingQuery& q) { return Eigen::VectorXd(q.features * ada_b.weights_after.back()); }));
  mpg::RankBoostOptions boost;
  boost.rounds = 20;
  const auto rb_a = mpg::train_rankboost(train, boost), rb_b = mpg::train_rankboost(train_p, boost);
  check_same("RankBoost", by_scores([&](const RankingQuery& q) { return rb_a.scores(q.features); }),
             by_scores([&](const RankingQuery& q) { return rb_b.scores(q.features); }));
  // The best single feature, chosen on the (permuted) training queries.
  auto chosen = [&](const std::vector<RankingQuery>& queries) {
    return mpg::best_single_feature(3, [&](const mpg::LinearRanker& r) {
      std::vector<mpg::Ranking> rankings;
      for (const auto& q : queries) rankings.push_back(mpg::ranking_by_scores(r.scores(q.features), mpg::document_keys(q.features)));
      return mean_ndcg(queries, rankings);
    });
  };
  const auto single_a = chosen(train), single_b = chosen(train_p);
  CHECK(single_a.weights == single_b.weights);
  check_same("file order (constant score)", by_scores([](const RankingQuery& q) { return Eigen::VectorXd(Eigen::VectorXd::Zero(q.features.rows())); }),
             by_scores([](const RankingQuery& q) { return Eigen::VectorXd(Eigen::VectorXd::Zero(q.features.rows())); }));
  // MPG-DCG: training (certified cutting planes) and the decision rule, and its other rankings.
  mpg::RankingMpgOptions options;
  options.lambda = 0.1;
  options.optimizer.kind = mpg::OptimizerKind::cutting_plane;
  options.optimizer.cutting_plane_tolerance = 1e-6;
  options.optimizer.max_iterations = 2000;
  const auto mpg_a = mpg::train_ranking_mpg(train, options), mpg_b = mpg::train_ranking_mpg(train_p, options);
  CHECK((mpg_a.theta - mpg_b.theta).cwiseAbs().maxCoeff() <= 1e-9);
  // The decision with one model on both orders of the test data (exactly equivariant), then with
  // the two models (equal up to rounding).
  for (const auto* model : {&mpg_a, &mpg_b}) {
    check_same("MPG decision rule", [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(mpg_a, q.features).order; },
               [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(*model, q.features).order; });
    check_same("MPG E[gain] rule",
               [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(mpg_a, q.features).expected_gain_order; },
               [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(*model, q.features).expected_gain_order; });
    check_same("MPG θ·x sort", [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(mpg_a, q.features).score_order; },
               [&](const RankingQuery& q) { return mpg::predict_ranking_mpg(*model, q.features).score_order; });
  }
}
