// Ranking measures under the pinned LETOR conventions (hand-computed examples): discounts, DCG,
// NDCG@k, P@k, Mean NDCG, AP and their averages over queries.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"
#include "lib/eval/ranking_measures.hpp"

using mpg::DcgDiscount;
using Approx = Catch::Detail::Approx;

namespace {

// Relevances 2,1,2,0,0,2,1,0 already in ranked order (digest §3 worked example).
const std::vector<int> kExample = {2, 1, 2, 0, 0, 2, 1, 0};
mpg::Ranking identity(std::size_t n) {
  mpg::Ranking order(n);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

}  // namespace

TEST_CASE("DCG discounts: thesis log2(r+1) and LETOR DCG'' with positions 1 and 2 undiscounted", "[ranking_measures]") {
  CHECK(mpg::dcg_discount(DcgDiscount::thesis, 1) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::thesis, 3) == Approx(0.5));
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 1) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 2) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 4) == Approx(0.5));
  CHECK(mpg::relevance_gain(0) == 0.0);
  CHECK(mpg::relevance_gain(2) == 3.0);
  CHECK(mpg::parse_dcg_discount("letor") == DcgDiscount::letor);
  CHECK_THROWS_AS(mpg::parse_dcg_discount("trec"), mpg::Error);
}

TEST_CASE("NDCG@k of the worked example, both discounts (digest §3)", "[ranking_measures]") {
  const auto thesis = mpg::evaluate_ranking(identity(8), kExample, DcgDiscount::thesis, 8);
  const std::vector<double> expected_thesis = {1.0, 0.7420981285, 0.8026120594, 0.7519536098,
                                               0.7116092949, 0.8598165541, 0.9060465961, 0.9060465961};
  const auto letor = mpg::evaluate_ranking(identity(8), kExample, DcgDiscount::letor, 8);
  const std::vector<double> expected_letor = {1.0, 2.0 / 3.0, 0.7466041555, 0.7021252503,
                                              0.6678542629, 0.7993851653, 0.8397556042, 0.8397556042};
  for (std::size_t k = 0; k < 8; ++k) {
    CHECK(thesis.ndcg_at[k] == Approx(expected_thesis[k]).epsilon(1e-9));
    CHECK(letor.ndcg_at[k] == Approx(expected_letor[k]).epsilon(1e-9));
  }
  // DCG@3 = 3 + 1/log2(3) + 3/2 under the thesis discount; DCG''@3 = 3 + 1 + 3/log2(3).
  CHECK(mpg::dcg(identity(8), kExample, DcgDiscount::thesis, 3) == Approx(3.0 + 1.0 / std::log2(3.0) + 1.5));
  CHECK(mpg::dcg(identity(8), kExample, DcgDiscount::letor, 3) == Approx(4.0 + 3.0 / std::log2(3.0)));
  // Mean NDCG = mean of NDCG@1..n over the list length n = 8.
  CHECK(thesis.mean_ndcg == Approx(0.8350228549).epsilon(1e-9));
  CHECK(letor.mean_ndcg == Approx(0.7827683386).epsilon(1e-9));
  // AP: relevant at positions 1, 2, 3, 6, 7 -> (1 + 1 + 1 + 4/6 + 5/7) / 5.
  CHECK(letor.average_precision == Approx((3.0 + 4.0 / 6.0 + 5.0 / 7.0) / 5.0));
  CHECK(letor.precision_at[2] == Approx(1.0));
  CHECK(letor.precision_at[5] == Approx(4.0 / 6.0));
}

TEST_CASE("Evaluation conventions: empty queries, k beyond the list, unkeyed ties", "[ranking_measures]") {
  SECTION("a query without relevant documents scores 0 everywhere") {
    const auto m = mpg::evaluate_ranking(identity(3), {0, 0, 0}, DcgDiscount::letor, 10);
    for (double v : m.ndcg_at) CHECK(v == 0.0);
    for (double v : m.precision_at) CHECK(v == 0.0);
    CHECK(m.mean_ndcg == 0.0);
    CHECK(m.average_precision == 0.0);
  }
  SECTION("k > n: NDCG@k = 0 (LETOR's scripts), P@k divides by k, Mean NDCG averages over n only") {
    // Ranking (doc 1, doc 0) of relevances {1, 0}: DCG'' = 0 + 1 (position 2 undiscounted).
    const auto m = mpg::evaluate_ranking({1, 0}, {1, 0}, DcgDiscount::letor, 5);
    CHECK(m.ndcg_at[0] == 0.0);
    CHECK(m.ndcg_at[1] == 1.0);  // DCG''@2 equals the ideal's: both undiscounted
    CHECK(m.ndcg_at[2] == 0.0);  // positions 3..5 do not exist: Eval-Score-4.0.pl averages them as 0
    CHECK(m.ndcg_at[4] == 0.0);
    CHECK(m.precision_at[1] == 0.5);
    CHECK(m.precision_at[4] == Approx(0.2));
    CHECK(m.mean_ndcg == 0.5);
    CHECK(m.average_precision == 0.5);
  }
  SECTION("k > n with the carry option: NDCG@k = NDCG@n, nothing else changes") {
    const auto m = mpg::evaluate_ranking({1, 0}, {1, 0}, DcgDiscount::letor, 5, {}, mpg::NdcgPastEnd::carry);
    CHECK(m.ndcg_at[1] == 1.0);
    CHECK(m.ndcg_at[2] == 1.0);
    CHECK(m.ndcg_at[4] == 1.0);
    CHECK(m.precision_at[4] == Approx(0.2));
    CHECK(m.mean_ndcg == 0.5);
    CHECK(mpg::parse_ndcg_past_end("carry") == mpg::NdcgPastEnd::carry);
    CHECK(mpg::to_string(mpg::NdcgPastEnd::zero) == "zero");
    CHECK_THROWS_AS(mpg::parse_ndcg_past_end("last"), mpg::Error);
  }
  SECTION("without keys (values only), ties in the scores keep index order; keyed ties: tests/test_ranking_ties.cpp") {
    Eigen::VectorXd scores(4);
    scores << 0.5, 1.0, 0.5, 1.0;
    CHECK(mpg::ranking_by_scores(scores) == mpg::Ranking{1, 3, 0, 2});
    // So a constant scorer ranks in file order: relevant last doc gets position 3.
    const auto m = mpg::evaluate_ranking(mpg::ranking_by_scores(Eigen::VectorXd::Zero(3)), {0, 0, 2},
                                         DcgDiscount::letor, 3);
    CHECK(m.ndcg_at[2] == Approx(1.0 / std::log2(3.0)));
  }
  SECTION("averaging over queries") {
    mpg::RankingMetrics total;
    total.add(mpg::evaluate_ranking(identity(2), {1, 0}, DcgDiscount::letor, 2));
    total.add(mpg::evaluate_ranking(identity(2), {0, 0}, DcgDiscount::letor, 2));
    total.finish();
    CHECK(total.queries == 2);
    CHECK(total.ndcg_at[0] == 0.5);
    CHECK(total.map == 0.5);
  }
}
