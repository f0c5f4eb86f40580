// Tests of the relevance-diversity protocol (lib/diversity/protocol, lib/diversity/recommend):
// the 3 % hold-out per user or over all ratings, cosine and latent item similarities by hand,
// eclectic users, and the per-cell entry point against direct calls of the algorithms.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "lib/base/error.hpp"
#include "lib/diversity/recommend.hpp"

using namespace mpg::diversity;

namespace {

// `users` users with 20..119 ratings each over `items` items, ratings 1..5.
std::vector<Rating> synthetic_ratings(int users, int items, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Rating> ratings;
  for (int u = 0; u < users; ++u) {
    std::vector<int> pool(static_cast<std::size_t>(items));
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), rng);
    const int count = std::min(items - 30, 20 + static_cast<int>(rng() % 100));
    for (int i = 0; i < count; ++i) ratings.push_back({u, pool[static_cast<std::size_t>(i)], 1 + static_cast<int>(rng() % 5)});
  }
  return ratings;
}

bool same(const Rating& a, const Rating& b) { return a.user == b.user && a.item == b.item && a.value == b.value; }

}  // namespace

TEST_CASE("Hold-out: round(3 %) of each user's ratings, disjoint, seeded, independent of input order", "[diversity_protocol]") {
  const auto ratings = synthetic_ratings(40, 200, 1);
  HoldoutOptions options;
  options.seed = 7;
  options.per_user = true;
  const HoldoutSplit split = holdout_split(ratings, options);
  CHECK(split.train.size() + split.test.size() == ratings.size());
  std::vector<int> per_user(40, 0), test_per_user(40, 0);
  for (const Rating& r : ratings) ++per_user[static_cast<std::size_t>(r.user)];
  for (const Rating& r : split.test) ++test_per_user[static_cast<std::size_t>(r.user)];
  for (int u = 0; u < 40; ++u) {
    CAPTURE(u, per_user[u]);
    CHECK(test_per_user[u] == std::llround(0.03 * per_user[u]));
    CHECK(test_per_user[u] >= 1);  // >= 20 ratings each
  }
  std::set<std::pair<int, int>> seen;
  for (const auto* part : {&split.train, &split.test})
    for (const Rating& r : *part) CHECK(seen.insert({r.user, r.item}).second);
  CHECK(std::is_sorted(split.test.begin(), split.test.end(),
                       [](const Rating& a, const Rating& b) { return std::pair(a.user, a.item) < std::pair(b.user, b.item); }));
  // Same seed, shuffled input: same split. Other seed: another split.
  auto shuffled = ratings;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  const HoldoutSplit again = holdout_split(shuffled, options);
  REQUIRE(again.test.size() == split.test.size());
  CHECK(std::equal(again.test.begin(), again.test.end(), split.test.begin(), same));
  options.seed = repetition_seed(7, 1);
  const HoldoutSplit other = holdout_split(ratings, options);
  CHECK(!std::equal(other.test.begin(), other.test.end(), split.test.begin(), same));
  // Over all ratings (the thesis text): round(3 % of N) in all.
  options.per_user = false;
  CHECK(holdout_split(ratings, options).test.size() == static_cast<std::size_t>(std::llround(0.03 * static_cast<double>(ratings.size()))));
  options.test_fraction = 1.5;
  CHECK_THROWS_AS(holdout_split(ratings, options), mpg::Error);
}

TEST_CASE("Cosine and latent item similarities by hand", "[diversity_protocol]") {
  // Users x items: (5, 3, 0, 0), (4, 0, 0, 0), (0, 2, 1, 0); item 3 has no rating.
  const RatingTable table(3, 4, {{0, 0, 5}, {0, 1, 3}, {1, 0, 4}, {2, 1, 2}, {2, 2, 1}});
  const Eigen::MatrixXd w = cosine_item_similarity(table);
  CHECK(w(0, 1) == Approx(15.0 / std::sqrt(41.0 * 13.0)).epsilon(1e-12));
  CHECK(w(1, 0) == w(0, 1));
  CHECK(w(0, 2) == 0.0);
  CHECK(w(1, 2) == Approx(2.0 / std::sqrt(13.0)).epsilon(1e-12));
  CHECK(w.diagonal() == Eigen::Vector4d(1, 1, 1, 0));
  CHECK(w.row(3).norm() == 0.0);

  Eigen::MatrixXd factors(4, 2);
  factors << 1, 0, 1, 1, -1, 0, 0, 0;
  const Eigen::MatrixXd latent = latent_item_similarity(factors);
  CHECK(latent(0, 1) == Approx(std::sqrt(0.5)).epsilon(1e-12));
  CHECK(latent(0, 2) == 0.0);  // cosine -1, clipped
  CHECK(latent(1, 2) == 0.0);
  CHECK(latent.diagonal() == Eigen::Vector4d(1, 1, 1, 0));
  CHECK(latent.row(3).norm() == 0.0);
}

TEST_CASE("Eclectic users: enough relevant ratings and a low mean similarity of rated items", "[diversity_protocol]") {
  // Items 0, 1 are near duplicates (W = 0.9), item 2 is unlike both (0.1).
  Eigen::Matrix3d w;
  w << 1, 0.9, 0.1, 0.9, 1, 0.1, 0.1, 0.1, 1;
  const RatingTable table(3, 3, {{0, 0, 5}, {0, 1, 5},              // similar tastes: mean 0.9
                                 {1, 0, 4}, {1, 2, 5},              // eclectic: mean 0.1
                                 {2, 0, 5}, {2, 1, 2}, {2, 2, 4}}); // 2 relevant; mean (0.9 + 0.1 + 0.1) / 3
  EclecticOptions options;
  options.min_relevant = 2;
  options.max_mean_similarity = 0.5;
  const auto all = user_eclecticism(table, w, options);
  CHECK(all[0].mean_similarity == Approx(0.9).epsilon(1e-12));
  CHECK(all[1].mean_similarity == Approx(0.1).epsilon(1e-12));
  CHECK(all[2].mean_similarity == Approx(1.1 / 3.0).epsilon(1e-12));
  CHECK(all[2].relevant == 2);
  CHECK(eclectic_users(table, w, options) == std::vector<int>{1, 2});
  options.over_relevant_only = true;  // user 2: items 0 and 2 only, mean 0.1
  CHECK(user_eclecticism(table, w, options)[2].mean_similarity == Approx(0.1).epsilon(1e-12));
  options.min_relevant = 3;
  CHECK(eclectic_users(table, w, options).empty());
}

TEST_CASE("MovieLens genres without 'unknown'", "[diversity_protocol]") {
  mpg::MovieLensData data;
  data.genre_names = {"unknown", "Action", "Drama"};
  data.items = {{1, "a", "", 0b110}, {2, "b", "", 0b001}, {3, "c", "", 0b101}};
  const GenreSets kept = item_genres(data);
  CHECK(kept.names == std::vector<std::string>{"Action", "Drama"});
  CHECK(kept.of_item == std::vector<std::uint32_t>{0b11, 0b00, 0b10});
  CHECK(item_genres(data, false).of_item == std::vector<std::uint32_t>{0b110, 0b001, 0b101});
}

TEST_CASE("recommend(): every method against direct calls, prefixes, threads", "[diversity_protocol]") {
  const auto ratings = synthetic_ratings(12, 80, 5);
  SplitOptions split_options;
  split_options.holdout.seed = 3;
  const DiversitySplit split = prepare_split(ratings, 12, 80, split_options);
  CHECK(split.summary.train_ratings + split.summary.test_ratings == ratings.size());
  std::vector<int> users(12);
  std::iota(users.begin(), users.end(), 0);

  DiversityMethodOptions sdr;
  sdr.gamma = 0.5;
  const Recommendations lists = recommend(split, users, 15, sdr);
  REQUIRE(lists.lists.size() == 12);
  for (int u = 0; u < 12; ++u) {
    const auto& list = lists.lists[static_cast<std::size_t>(u)];
    CHECK(list.size() == 15);
    std::vector<int> profile, candidates;
    std::vector<double> values;
    for (const auto& [item, value] : split.train.by_user[static_cast<std::size_t>(u)]) profile.push_back(item), values.push_back(value);
    for (int i = 0; i < 80; ++i)
      if (std::find(profile.begin(), profile.end(), i) == profile.end()) candidates.push_back(i);
    for (const int item : list) CHECK(std::find(profile.begin(), profile.end(), item) == profile.end());
    Eigen::MatrixXd block(static_cast<Eigen::Index>(profile.size()), static_cast<Eigen::Index>(candidates.size()));
    for (std::size_t r = 0; r < profile.size(); ++r)
      for (std::size_t c = 0; c < candidates.size(); ++c)
        block(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = split.similarity(profile[r], candidates[c]);
    const auto direct = sdr_greedy(
        make_coverage_problem(block, Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size())),
                              candidates, 0.5),
        {.k = 15});
    CHECK(list == direct.items);
  }
  // Prefixes, plain greedy, one thread.
  CHECK(recommend(split, users, 5, sdr).lists[3] == std::vector<int>(lists.lists[3].begin(), lists.lists[3].begin() + 5));
  sdr.lazy_greedy = false;
  CHECK(recommend(split, users, 15, sdr).lists == lists.lists);
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    sdr.lazy_greedy = true;
    CHECK(recommend(split, users, 15, sdr).lists == lists.lists);
  }
  // MOD = MMR = MSD at lambda = 1.
  DiversityMethodOptions mod;
  mod.gamma = 1.0;
  DiversityMethodOptions mmr;
  mmr.method = DiversityMethod::mmr;
  mmr.lambda = 1.0;
  DiversityMethodOptions msd = mmr;
  msd.method = DiversityMethod::msd;
  const auto mod_lists = recommend(split, users, 10, mod).lists;
  CHECK(recommend(split, users, 10, mmr).lists == mod_lists);
  CHECK(recommend(split, users, 10, msd).lists == mod_lists);
  // SDR conv converges within its tolerance on every user.
  DiversityMethodOptions conv;
  conv.method = DiversityMethod::sdr_relaxed;
  conv.gamma = 0.5;
  const Recommendations relaxed = recommend(split, users, 10, conv);
  CHECK(relaxed.summary.relaxations_not_converged == 0);
  CHECK(relaxed.summary.max_relative_gap <= conv.relaxation_tolerance);
  CHECK(relaxed.lists[0].size() == 10);
  // Bad parameters.
  CHECK_THROWS_AS(recommend(split, {99}, 10, sdr), mpg::Error);
  CHECK_THROWS_AS(recommend(split, users, 0, sdr), mpg::Error);
  conv.gamma = 0.0;
  CHECK_THROWS_AS(recommend(split, users, 10, conv), mpg::Error);
  CHECK(parse_diversity_method("sdr_conv") == DiversityMethod::sdr_relaxed);
  CHECK(to_string(DiversityMethod::msd) == "msd");
  CHECK_THROWS_AS(parse_diversity_method("xquad"), mpg::Error);
}

TEST_CASE("prepare_split with weighted-ALS similarity", "[diversity_protocol]") {
  const auto ratings = synthetic_ratings(15, 60, 9);
  SplitOptions options;
  options.similarity = SimilaritySource::als;
  options.als.rank = 5;
  options.als.max_iterations = 5;
  const DiversitySplit split = prepare_split(ratings, 15, 60, options);
  CHECK(split.summary.als.iterations >= 1);
  CHECK(split.similarity.minCoeff() >= 0.0);
  CHECK(split.similarity.maxCoeff() <= 1.0);
  CHECK((split.similarity - split.similarity.transpose()).cwiseAbs().maxCoeff() < 1e-12);
}
