// Tests of the relevance-diversity measures (lib/diversity/recommendation) on the digest's
// hand-computed toy (§5 invariant 18) and on the conventions the thesis leaves open.
#include <catch2/catch.hpp>

#include <cmath>

#include "lib/base/error.hpp"
#include "lib/diversity/recommendation.hpp"

using namespace mpg::diversity;

namespace {

// Genres A, C, D, R, H as bits 0..4. Items 1..6 as in the digest (item 0 is unused), so the
// catalog is the 6 items 1..6.
constexpr std::uint32_t A = 1, C = 2, D = 4, R = 8, H = 16;

RecommendationTruth toy_truth() {
  const std::vector<std::uint32_t> genres = {0, A, C, A | D, D, C | R, H};
  const std::vector<Rating> train = {
      {0, 1, 5}, {0, 4, 4},             // u1: R+ = {1, 4}
      {1, 1, 1}, {1, 2, 5}, {1, 5, 4},  // u2: R+ = {2, 5}; item 1 rated 1 is not relevant
  };
  const std::vector<Rating> test = {
      {0, 2, 2},             // not relevant: neither in T_u nor in N_i+
      {0, 3, 5},             // u1: T = {3}
      {1, 3, 4}, {1, 6, 4},  // u2: T = {3, 6}
  };
  return make_recommendation_truth(2, 7, train, test, genres, 5, 6);
}

}  // namespace

TEST_CASE("The digest's metric toy: every measure by hand", "[recommendation_metrics]") {
  const RecommendationTruth truth = toy_truth();
  CHECK(truth.relevant_test_count == std::vector<int>{0, 0, 0, 2, 0, 0, 1});
  const std::vector<std::vector<int>> lists = {{3, 2}, {1, 6}};
  const RecommendationScores s = score_recommendations({0, 1}, lists, truth, 2);
  CHECK(s.users == 2);
  CHECK(s.users_without_genres == 0);
  // u1 covers {A, D} of {A, D}; u2 covers nothing of {C, R}.
  CHECK(s.genre_coverage == Approx(0.5).epsilon(1e-12));
  // Hamming distances 3 ({A, D} vs {C}) and 2 ({A} vs {H}), mean 2.5, per genre 0.5.
  CHECK(s.intra_list_distance == Approx(0.5).epsilon(1e-12));
  // Relevant recommended items {3} and {6}: 2 of 6.
  CHECK(s.catalog_coverage == Approx(2.0 / 6.0).epsilon(1e-12));
  CHECK(s.precision == Approx(0.5).epsilon(1e-12));
  // (1/2)^0.5 + 1 over (1/2)^0.5 + (1/2)^0.5 + 1.
  CHECK(s.stratified_recall == Approx((std::sqrt(0.5) + 1.0) / (2.0 * std::sqrt(0.5) + 1.0)).epsilon(1e-12));
  CHECK(s.stratified_recall == Approx(0.70711).epsilon(1e-5));
  // Binary gains, log2 discount: (1/log2(2) + 1/log2(3)) / 2.
  CHECK(s.dcg == Approx((1.0 + 1.0 / std::log2(3.0)) / 2.0).epsilon(1e-12));
  CHECK(s.dcg == Approx(0.81546).epsilon(1e-5));

  RecommendationMetricOptions graded;
  graded.dcg_gain = DcgGain::graded;
  graded.ild_per_genre = false;
  const RecommendationScores g = score_recommendations({0, 1}, lists, truth, 2, graded);
  CHECK(g.dcg == Approx((31.0 + 15.0 / std::log2(3.0)) / 2.0).epsilon(1e-12));
  CHECK(g.dcg == Approx(20.23197).epsilon(1e-6));
  CHECK(g.intra_list_distance == Approx(2.5).epsilon(1e-12));
  // beta = 0: plain recall over all users, 2 of 3 relevant test ratings.
  RecommendationMetricOptions flat;
  flat.beta = 0.0;
  CHECK(score_recommendations({0, 1}, lists, truth, 2, flat).stratified_recall == Approx(2.0 / 3.0).epsilon(1e-12));
}

TEST_CASE("Lists are cut at k; P@k divides by k; users without liked genres leave Genre Coverage", "[recommendation_metrics]") {
  const RecommendationTruth truth = toy_truth();
  // At k = 1 the lists are [3] and [1]: one hit, u2's 6 is cut off.
  const RecommendationScores s1 = score_recommendations({0, 1}, {{3, 2}, {1, 6}}, truth, 1);
  CHECK(s1.precision == Approx(0.5).epsilon(1e-12));
  CHECK(s1.catalog_coverage == Approx(1.0 / 6.0).epsilon(1e-12));
  CHECK(s1.intra_list_distance == 0.0);
  CHECK(s1.dcg == Approx(0.5).epsilon(1e-12));
  // A list shorter than k still divides by k.
  CHECK(score_recommendations({0}, {{3}}, truth, 4).precision == Approx(0.25).epsilon(1e-12));
  // Genre coverage of u1 alone, and a user whose liked items have no genre (item 0).
  CHECK(*genre_coverage({2}, {1, 4}, truth.item_genres) == Approx(0.0).epsilon(1e-12));
  CHECK(*genre_coverage({3}, {1, 4}, truth.item_genres) == Approx(1.0).epsilon(1e-12));
  CHECK(!genre_coverage({3}, {0}, truth.item_genres).has_value());
  const std::vector<Rating> train = {{0, 0, 5}, {1, 1, 5}};
  const RecommendationTruth genreless = make_recommendation_truth(2, 7, train, {}, truth.item_genres, 5, 6);
  const RecommendationScores s2 = score_recommendations({0, 1}, {{1}, {1}}, genreless, 1);
  CHECK(s2.users_without_genres == 1);
  CHECK(s2.genre_coverage == Approx(1.0).epsilon(1e-12));  // u2 alone
  CHECK(s2.stratified_recall == 0.0);                      // no relevant test rating at all
  // ILD of identical genre sets is 0, of disjoint single genres 2 per pair.
  CHECK(intra_list_distance({1, 1}, truth.item_genres) == 0.0);
  CHECK(intra_list_distance({1, 2, 6}, truth.item_genres) == Approx(2.0).epsilon(1e-12));
  CHECK(list_dcg({6, 3}, {{3, 4}, {6, 5}}, DcgGain::graded) == Approx(31.0 + 15.0 / std::log2(3.0)).epsilon(1e-12));
}

TEST_CASE("Recommendation measures reject inconsistent input", "[recommendation_metrics]") {
  const RecommendationTruth truth = toy_truth();
  CHECK_THROWS_AS(score_recommendations({0, 1}, {{3}}, truth, 2), mpg::Error);
  CHECK_THROWS_AS(score_recommendations({0}, {{3}}, truth, 0), mpg::Error);
  CHECK_THROWS_AS(score_recommendations({5}, {{3}}, truth, 1), mpg::Error);
  CHECK_THROWS_AS(make_recommendation_truth(2, 7, {{0, 9, 5}}, {}, truth.item_genres, 5, 6), mpg::Error);
  CHECK_THROWS_AS(make_recommendation_truth(2, 3, {}, {}, truth.item_genres, 5, 6), mpg::Error);
}
