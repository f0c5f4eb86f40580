// Tests of the MMR and MSD re-ranking baselines (lib/diversity/rerank) on hand-computed
// lists, their lambda = 1 limit (MOD: sorting by relevance), MSD's printed sign, and the
// item-based relevance estimates.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "lib/diversity/rerank.hpp"
#include "lib/base/error.hpp"
#include "lib/diversity/sdr.hpp"

using namespace mpg::diversity;

namespace {

Eigen::Matrix4d hand_similarity() {
  Eigen::Matrix4d w;
  w << 1.0, 0.9, 0.1, 0.2,  //
      0.9, 1.0, 0.3, 0.1,   //
      0.1, 0.3, 1.0, 0.5,   //
      0.2, 0.1, 0.5, 1.0;
  return w;
}

}  // namespace

TEST_CASE("MMR and MSD on a hand-computed example", "[diversification]") {
  const Eigen::MatrixXd w = hand_similarity();
  const Eigen::Vector4d relevance(1.0, 0.95, 0.5, 0.3);
  const std::vector<int> candidates = {0, 1, 2, 3};
  // MMR, lambda = 0.5: 0 (0.5); then 2 (0.25 - 0.05 beats 0.475 - 0.45 and 0.15 - 0.1);
  // then 1 (0.475 - 0.45 beats 0.15 - 0.25); then 3.
  CHECK(mmr_rerank(relevance, candidates, w, {.lambda = 0.5, .k = 4}) == std::vector<int>{0, 2, 1, 3});
  // MMR, lambda = 0: pure dissimilarity after a first pick by id: 0, 2 (max sim 0.1), 3 (0.5), 1.
  CHECK(mmr_rerank(relevance, candidates, w, {.lambda = 0.0, .k = 4}) == std::vector<int>{0, 2, 3, 1});
  // MSD, lambda = 0.5, objective's "+": 0; 2 (0.25 + 0.45); 1 (0.475 + 0.4 beats 0.15 + 0.65); 3.
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 0.5, .k = 4}) == std::vector<int>{0, 2, 1, 3});
  // MSD with the printed "-": distance is penalized, similar items come first: 0, 1, 2, 3.
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 0.5, .k = 4, .printed_sign = true}) ==
        std::vector<int>{0, 1, 2, 3});
  // MSD, lambda = 0.1, "+": 0 (0.1); 2 (0.05 + 0.81 = 0.86 beats 0.095 + 0.09, 0.03 + 0.72); then 3
  // (0.03 + 0.9 * 1.3 = 1.2 beats 0.095 + 0.9 * 0.8 = 0.815); then 1.
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 0.1, .k = 4}) == std::vector<int>{0, 2, 3, 1});
  // k shorter than the candidates, and larger.
  CHECK(mmr_rerank(relevance, candidates, w, {.lambda = 0.5, .k = 2}) == std::vector<int>{0, 2});
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 0.5, .k = 9}).size() == 4);
}

TEST_CASE("Candidate ids index the similarity matrix; ties go to the smaller id", "[diversification]") {
  const Eigen::MatrixXd w = hand_similarity();
  // Candidates 3 and 1 only, equal relevance: 1 first (smaller id), whatever the order given.
  const Eigen::Vector2d equal(0.4, 0.4);
  CHECK(mmr_rerank(equal, {3, 1}, w, {.lambda = 0.7, .k = 2}) == std::vector<int>{1, 3});
  CHECK(msd_rerank(equal, {3, 1}, w, {.lambda = 0.7, .k = 2}) == std::vector<int>{1, 3});
}

TEST_CASE("With lambda = 1, MMR and MSD equal MOD (SDR at gamma = 1)", "[diversification]") {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int n = 40;
  Eigen::MatrixXd w(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) w(i, j) = w(j, i) = i == j ? 1.0 : (unit(rng) < 0.3 ? 0.0 : unit(rng));
  const std::vector<int> profile = {2, 5, 11, 17, 30};
  const std::vector<double> ratings = {5, 3, 4, 1, 2};
  std::vector<int> candidates;
  for (int i = 0; i < n; ++i)
    if (std::find(profile.begin(), profile.end(), i) == profile.end()) candidates.push_back(i);
  const Eigen::VectorXd relevance = item_based_relevance(profile, ratings, candidates, w);
  Eigen::MatrixXd block(5, static_cast<Eigen::Index>(candidates.size()));
  for (int r = 0; r < 5; ++r)
    for (std::size_t c = 0; c < candidates.size(); ++c) block(r, static_cast<Eigen::Index>(c)) = w(profile[r], candidates[c]);
  const auto mod = sdr_greedy(make_coverage_problem(block, Eigen::Map<const Eigen::VectorXd>(ratings.data(), 5), candidates, 1.0),
                              {.k = 12})
                       .items;
  CHECK(mmr_rerank(relevance, candidates, w, {.lambda = 1.0, .k = 12}) == mod);
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 1.0, .k = 12}) == mod);
  CHECK(msd_rerank(relevance, candidates, w, {.lambda = 1.0, .k = 12, .printed_sign = true}) == mod);
}

TEST_CASE("Item-based relevance: raw sum and Sarwar's normalized average", "[diversification]") {
  const Eigen::MatrixXd w = hand_similarity();
  // Profile {3: 5, 2: 2}; candidates 0, 1.
  const Eigen::VectorXd raw = item_based_relevance({3, 2}, {5, 2}, {0, 1}, w, RelevanceEstimate::raw);
  CHECK(raw[0] == Approx(5 * 0.2 + 2 * 0.1).epsilon(1e-12));
  CHECK(raw[1] == Approx(5 * 0.1 + 2 * 0.3).epsilon(1e-12));
  const Eigen::VectorXd normalized = item_based_relevance({3, 2}, {5, 2}, {0, 1}, w, RelevanceEstimate::normalized);
  CHECK(normalized[0] == Approx(1.2 / 0.3).epsilon(1e-12));
  CHECK(normalized[1] == Approx(1.1 / 0.4).epsilon(1e-12));
  // No similar profile item: 0, not NaN.
  CHECK(item_based_relevance({3}, {5}, {0}, Eigen::MatrixXd::Identity(4, 4), RelevanceEstimate::normalized)[0] == 0.0);
}

TEST_CASE("Re-rankers reject impossible parameters", "[diversification]") {
  const Eigen::MatrixXd w = hand_similarity();
  const Eigen::Vector2d r(1, 2);
  CHECK_THROWS_AS(mmr_rerank(r, {0, 1}, w, {.lambda = 1.5}), mpg::Error);
  CHECK_THROWS_AS(msd_rerank(r, {0, 1}, w, {.lambda = -0.5}), mpg::Error);
  CHECK_THROWS_AS(mmr_rerank(r, {0, 1, 2}, w, {}), mpg::Error);
  CHECK_THROWS_AS(msd_rerank(r, {0, 9}, w, {}), mpg::Error);
  CHECK_THROWS_AS(item_based_relevance({1, 2}, {5}, {0}, w), mpg::Error);
}
