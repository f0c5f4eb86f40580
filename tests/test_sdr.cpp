// Tests of submodular diverse ranking (lib/diversity/sdr): the coverage function and its special
// cases (thesis §3.3 and §3.3.7: gamma = 1 is the modular sum, gamma -> 0 the max), submodularity,
// greedy against brute force (Theorem 15's bound), lazy greedy = plain greedy, and the
// Frank-Wolfe solution of the convex relaxation (duality gap <= tolerance).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "lib/base/error.hpp"
#include "lib/diversity/sdr.hpp"

using mpg::diversity::CoverageProblem;
using mpg::diversity::make_coverage_problem;
using mpg::diversity::profile_coverage;
using mpg::diversity::sdr_greedy;
using mpg::diversity::sdr_relaxed;

namespace {

// The digest's toy (§5 invariant 13): profile {(k1, 5), (k2, 4)}, candidates a, b, c.
CoverageProblem toy(double gamma) {
  Eigen::MatrixXd w(2, 3);
  w << 0.9, 0.8, 0.1,  //
      0.1, 0.2, 0.7;
  return make_coverage_problem(w, Eigen::Vector2d(5, 4), {0, 1, 2}, gamma);
}

// A random instance: m profile items, p candidates with ids 0..p-1, W uniform in [0, 1] with a
// share `zeros` of exact zeros, ratings in 1..5. With `duplicates`, some columns repeat others
// (exact ties in every gain).
CoverageProblem random_problem(std::mt19937_64& rng, int m, int p, double gamma, double zeros = 0.2,
                               bool duplicates = false) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::MatrixXd w(m, p);
  for (int j = 0; j < p; ++j)
    for (int r = 0; r < m; ++r) w(r, j) = unit(rng) < zeros ? 0.0 : unit(rng);
  if (duplicates)
    for (int j = 1; j < p; j += 3) w.col(j) = w.col(j - 1);
  Eigen::VectorXd v(m);
  for (int r = 0; r < m; ++r) v[r] = 1 + static_cast<int>(5 * unit(rng));
  std::vector<int> ids(static_cast<std::size_t>(p));
  std::iota(ids.begin(), ids.end(), 0);
  return make_coverage_problem(w, v, ids, gamma);
}

// The best value of cov(P, S) over all |S| = k by enumeration.
double brute_force_optimum(const CoverageProblem& problem, int k) {
  const int p = static_cast<int>(problem.cover.cols());
  std::vector<bool> pick(static_cast<std::size_t>(p), false);
  std::fill(pick.begin(), pick.begin() + k, true);
  double best = 0.0;
  do {
    std::vector<int> set;
    for (int j = 0; j < p; ++j)
      if (pick[static_cast<std::size_t>(j)]) set.push_back(j);
    best = std::max(best, profile_coverage(problem, set));
  } while (std::prev_permutation(pick.begin(), pick.end()));
  return best;
}

const std::vector<double> kGammas = {1.0, 0.8, 0.5, 0.1, 0.0};

}  // namespace

TEST_CASE("Point coverage: the l_{1/gamma} norm, the sum at gamma = 1, the max at gamma -> 0", "[sdr]") {
  Eigen::MatrixXd w(1, 2);
  w << 0.8, 0.6;
  auto cov = [&](double gamma, const std::vector<int>& set) {
    return profile_coverage(make_coverage_problem(w, Eigen::VectorXd::Ones(1), {0, 1}, gamma), set);
  };
  CHECK(cov(1.0, {0, 1}) == Approx(1.4).epsilon(1e-12));
  CHECK(cov(0.5, {0, 1}) == Approx(1.0).epsilon(1e-12));
  CHECK(cov(0.0, {0, 1}) == Approx(0.8).epsilon(1e-12));
  // The l_{1/gamma} norm tends to the max: max <= cov <= 2^gamma max.
  CHECK(cov(1e-3, {0, 1}) >= 0.8);
  CHECK(cov(1e-3, {0, 1}) <= 0.8 * std::pow(2.0, 1e-3));
  for (const double gamma : kGammas) {
    CHECK(cov(gamma, {0}) == Approx(0.8).epsilon(1e-12));
    CHECK(cov(gamma, {1}) == Approx(0.6).epsilon(1e-12));
    CHECK(cov(gamma, {}) == 0.0);
  }
}

TEST_CASE("Greedy on the digest's toy picks the brute-force optimum for every gamma", "[sdr]") {
  struct Expect {
    double gamma;
    std::vector<int> items;
    double value;
  };
  for (const Expect& e : {Expect{1.0, {0, 1}, 9.7}, Expect{0.8, {0, 1}, 8.462209}, Expect{0.5, {0, 2}, 7.356120},
                          Expect{0.1, {0, 2}, 7.3}, Expect{0.0, {0, 2}, 7.3}}) {
    CAPTURE(e.gamma);
    const CoverageProblem problem = toy(e.gamma);
    for (const bool lazy : {false, true}) {
      const auto result = sdr_greedy(problem, {.k = 2, .lazy = lazy});
      CHECK(result.items == e.items);
      CHECK(result.gains[0] == Approx(4.9).epsilon(1e-9));  // singleton gains 4.9, 4.8, 3.3
      CHECK(result.summary.objective == Approx(e.value).epsilon(1e-6));
      CHECK(result.summary.objective == Approx(brute_force_optimum(problem, 2)).epsilon(1e-12));
    }
  }
}

TEST_CASE("Coverage is normalized, monotone and submodular; modular at gamma = 1", "[sdr]") {
  std::mt19937_64 rng(27);
  for (const double gamma : kGammas) {
    CAPTURE(gamma);
    for (int trial = 0; trial < 40; ++trial) {
      const CoverageProblem problem = random_problem(rng, 4, 8, gamma);
      // Random nested A <= B and e outside B.
      std::vector<int> order(8);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
      const std::vector<int> a(order.begin(), order.begin() + 2), b(order.begin(), order.begin() + 5);
      const int e = order[6];
      auto with = [&](std::vector<int> set) {
        set.push_back(e);
        return set;
      };
      const double fa = profile_coverage(problem, a), fb = profile_coverage(problem, b);
      CHECK(profile_coverage(problem, {}) == 0.0);
      CHECK(fa <= fb + 1e-12);
      CHECK(profile_coverage(problem, with(a)) - fa >= profile_coverage(problem, with(b)) - fb - 1e-12);
      if (gamma == 1.0) {
        double sum = 0.0;
        for (const int j : b) sum += profile_coverage(problem, {j});
        CHECK(fb == Approx(sum).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("gamma = 1 (MOD) ranks by sum_kappa v W_kappa_j, ties to the smaller id", "[sdr]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const CoverageProblem problem = random_problem(rng, 6, 30, 1.0, 0.3, /*duplicates=*/true);
    const Eigen::VectorXd score = problem.cover.transpose() * problem.utility;
    std::vector<int> expected(30);
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) { return score[a] > score[b]; });
    expected.resize(10);
    CHECK(sdr_greedy(problem, {.k = 10, .lazy = false}).items == expected);
    CHECK(sdr_greedy(problem, {.k = 10, .lazy = true}).items == expected);
  }
}

TEST_CASE("gamma -> 0: the greedy maximizes the utility-weighted max coverage", "[sdr]") {
  // 0/1 similarities (clusters): cov counts the profile items whose cluster is hit (§3.3.7).
  Eigen::MatrixXd w(4, 5);  // profile items in clusters A, A, B, C; candidates in A, A, B, D, C
  w << 1, 1, 0, 0, 0,  //
      1, 1, 0, 0, 0,   //
      0, 0, 1, 0, 0,   //
      0, 0, 0, 0, 1;
  const auto problem = make_coverage_problem(w, Eigen::Vector4d(1, 1, 1, 1), {10, 11, 12, 13, 14}, 0.0);
  const auto result = sdr_greedy(problem, {.k = 4});
  CHECK(result.items == std::vector<int>{10, 12, 14, 11});  // one item per covered cluster first
  CHECK(result.gains == std::vector<double>{2, 1, 1, 0});
  CHECK(result.summary.objective == 4.0);
}

TEST_CASE("Greedy is within 1 - (1 - 1/k)^k of the brute-force optimum (Theorem 15)", "[sdr]") {
  std::mt19937_64 rng(15);
  int worst_trials = 0;
  double worst_ratio = 1.0;
  for (const double gamma : kGammas)
    for (const int k : {2, 3, 4, 5})
      for (int trial = 0; trial < 8; ++trial) {
        const CoverageProblem problem = random_problem(rng, 5, 11, gamma, 0.5);
        const double optimum = brute_force_optimum(problem, k);
        const double greedy = sdr_greedy(problem, {.k = static_cast<std::size_t>(k)}).summary.objective;
        const double bound = 1.0 - std::pow(1.0 - 1.0 / k, k);
        CAPTURE(gamma, k, trial, greedy, optimum);
        CHECK(greedy >= bound * optimum - 1e-12);
        CHECK(greedy <= optimum + 1e-12);
        worst_ratio = std::min(worst_ratio, greedy / optimum);
        ++worst_trials;
      }
  CHECK(worst_trials == 160);
  CHECK(worst_ratio >= 1.0 - 1.0 / std::exp(1.0));
}

TEST_CASE("Lazy greedy (Minoux) returns plain greedy's list and gains with fewer evaluations", "[sdr]") {
  std::mt19937_64 rng(6);
  std::size_t lazy_evaluations = 0, plain_evaluations = 0;
  for (const double gamma : kGammas)
    for (int trial = 0; trial < 25; ++trial) {
      const bool duplicates = trial % 2 == 1;  // exact ties between columns
      const CoverageProblem problem = random_problem(rng, 1 + trial % 12, 40 + trial, gamma, 0.4, duplicates);
      const std::size_t k = 1 + static_cast<std::size_t>(trial) % 25;
      const auto plain = sdr_greedy(problem, {.k = k, .lazy = false});
      const auto lazy = sdr_greedy(problem, {.k = k, .lazy = true});
      CAPTURE(gamma, trial);
      CHECK(lazy.items == plain.items);
      CHECK(lazy.gains == plain.gains);
      CHECK(lazy.summary.objective == plain.summary.objective);
      lazy_evaluations += lazy.summary.gain_evaluations;
      plain_evaluations += plain.summary.gain_evaluations;
    }
  CHECK(lazy_evaluations < plain_evaluations / 2);
  // k beyond p returns every candidate; a problem without profile items ranks by id.
  std::mt19937_64 rng2(9);
  const auto small = random_problem(rng2, 3, 4, 0.5);
  CHECK(sdr_greedy(small, {.k = 10}).items.size() == 4);
  const auto empty = make_coverage_problem(Eigen::MatrixXd(0, 3), Eigen::VectorXd(0), {7, 3, 5}, 0.5);
  CHECK(sdr_greedy(empty, {.k = 2}).items == std::vector<int>{3, 5});
}

TEST_CASE("Greedy lists are prefix-consistent in k", "[sdr]") {
  std::mt19937_64 rng(8);
  const auto problem = random_problem(rng, 10, 60, 0.1);
  const auto long_list = sdr_greedy(problem, {.k = 20}).items;
  for (const std::size_t k : {1, 5, 10}) {
    const auto short_list = sdr_greedy(problem, {.k = k}).items;
    CHECK(std::equal(short_list.begin(), short_list.end(), long_list.begin()));
  }
}

TEST_CASE("Frank-Wolfe on the convex relaxation: duality gap <= tolerance, bounds the integer optimum", "[sdr]") {
  std::mt19937_64 rng(35);
  for (const double gamma : {1.0, 0.8, 0.5, 0.1})
    for (int trial = 0; trial < 6; ++trial) {
      const CoverageProblem problem = random_problem(rng, 5, 11, gamma, 0.3);
      const std::size_t k = 2 + static_cast<std::size_t>(trial) % 3;
      const auto result = sdr_relaxed(problem, {.k = k, .tolerance = 1e-6, .max_iterations = 20000});
      CAPTURE(gamma, trial, result.summary.iterations, result.summary.gap);
      CHECK(result.summary.converged);
      CHECK(result.summary.gap <= 1e-6 * std::max(1.0, result.summary.objective));
      // alpha is feasible.
      CHECK(result.alpha.sum() == Approx(static_cast<double>(k)).epsilon(1e-9));
      CHECK(result.alpha.minCoeff() >= 0.0);
      CHECK(result.alpha.maxCoeff() <= 1.0 + 1e-12);
      CHECK(mpg::diversity::relaxed_coverage(problem, result.alpha) == Approx(result.summary.objective).epsilon(1e-9));
      // F(alpha) + gap >= F* >= the integer optimum (a 0/1 alpha is feasible).
      const double integer_optimum = brute_force_optimum(problem, static_cast<int>(k));
      CHECK(result.summary.objective + result.summary.gap >= integer_optimum - 1e-9);
      // The reported list: k distinct candidates in decreasing alpha.
      REQUIRE(result.items.size() == k);
      for (std::size_t i = 1; i < k; ++i) CHECK(result.alpha[result.columns[i - 1]] >= result.alpha[result.columns[i]]);
      if (gamma == 1.0) {  // linear: the optimum is the sum of the k best singleton values
        Eigen::VectorXd score = problem.cover.transpose() * problem.utility;
        std::sort(score.data(), score.data() + score.size(), std::greater<>());
        CHECK(result.summary.objective == Approx(score.head(static_cast<Eigen::Index>(k)).sum()).epsilon(1e-6));
      }
    }
}

TEST_CASE("The relaxation is concave, and with k = 1, gamma = 1 its weight goes to the MOD item", "[sdr]") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto problem = random_problem(rng, 6, 9, 0.5, 0.2);
  for (int trial = 0; trial < 50; ++trial) {
    Eigen::VectorXd x(9), y(9);
    for (int j = 0; j < 9; ++j) x[j] = unit(rng), y[j] = unit(rng);
    const double mid = mpg::diversity::relaxed_coverage(problem, 0.5 * (x + y));
    CHECK(mid >= 0.5 * (mpg::diversity::relaxed_coverage(problem, x) + mpg::diversity::relaxed_coverage(problem, y)) - 1e-12);
  }
  const auto linear = random_problem(rng, 6, 9, 1.0, 0.2);
  const auto result = sdr_relaxed(linear, {.k = 1, .tolerance = 1e-9});
  const Eigen::VectorXd score = linear.cover.transpose() * linear.utility;
  Eigen::Index best = 0;
  score.maxCoeff(&best);
  CHECK(result.columns == std::vector<int>{static_cast<int>(best)});
  CHECK(result.alpha[best] > 0.999);
}

TEST_CASE("Coverage problems reject impossible parameters", "[sdr]") {
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(2, 3, 0.5);
  const Eigen::Vector2d v(1, 2);
  CHECK_THROWS_AS(make_coverage_problem(w, v, {0, 1, 2}, 1.5), mpg::Error);
  CHECK_THROWS_AS(make_coverage_problem(w, v, {0, 1, 2}, -0.1), mpg::Error);
  CHECK_THROWS_AS(make_coverage_problem(w, v, {0, 1}, 0.5), mpg::Error);
  CHECK_THROWS_AS(make_coverage_problem(w, Eigen::Vector2d(1, -1), {0, 1, 2}, 0.5), mpg::Error);
  CHECK_THROWS_AS(make_coverage_problem(w * 3.0, v, {0, 1, 2}, 0.5), mpg::Error);
  CHECK_THROWS_AS(sdr_relaxed(make_coverage_problem(w, v, {0, 1, 2}, 0.0), {}), mpg::Error);
}

TEST_CASE("The saturated-cover cache changes nothing: the same lists and bit-identical gains", "[sdr]") {
  std::mt19937_64 rng(12);
  for (const double gamma : kGammas)
    for (int trial = 0; trial < 20; ++trial) {
      CoverageProblem problem = random_problem(rng, 1 + trial % 9, 30 + trial, gamma, 0.4, trial % 2 == 1);
      const std::size_t k = 1 + static_cast<std::size_t>(trial) % 20;
      for (const bool lazy : {false, true}) {
        CoverageProblem cached = problem;
        cached.saturated = mpg::diversity::saturated_cover(problem.cover, gamma);
        const auto without = sdr_greedy(problem, {.k = k, .lazy = lazy});
        const auto with = sdr_greedy(cached, {.k = k, .lazy = lazy});
        CAPTURE(gamma, trial, lazy);
        CHECK(with.items == without.items);
        CHECK(with.gains == without.gains);
      }
    }
  CoverageProblem wrong = random_problem(rng, 3, 5, 0.5);
  wrong.saturated = Eigen::MatrixXd::Ones(2, 5);
  CHECK_THROWS_AS(sdr_greedy(wrong, {.k = 2}), mpg::Error);
}

TEST_CASE("The greedy read in place from all-items matrices equals the greedy on the copied block, bit for bit",
          "[sdr]") {
  // A symmetric W over n items with exact zeros and duplicated items (exact ties); each trial
  // draws a profile (rows) and candidates (the rest, in a shuffled order with shuffled ids, so
  // that ties are broken by id, not by position).
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int n = 60;
  Eigen::MatrixXd w(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) w(i, j) = w(j, i) = i == j ? 1.0 : (unit(rng) < 0.3 ? 0.0 : unit(rng));
  for (int j = 1; j < n; j += 7) w.col(j) = w.col(j - 1), w.row(j) = w.row(j - 1), w(j, j) = w(j - 1, j - 1) = 1.0;
  for (const double gamma : kGammas) {
    const auto matrices = mpg::diversity::make_coverage_matrices(w, gamma);
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<int> items(n);
      std::iota(items.begin(), items.end(), 0);
      std::shuffle(items.begin(), items.end(), rng);
      const int m = 1 + trial * 3;
      const std::vector<int> profile(items.begin(), items.begin() + m), candidates(items.begin() + m, items.end());
      Eigen::VectorXd v(m);
      for (int r = 0; r < m; ++r) v[r] = 1 + static_cast<int>(5 * unit(rng));
      Eigen::MatrixXd block(m, static_cast<Eigen::Index>(candidates.size()));
      for (int r = 0; r < m; ++r)
        for (std::size_t c = 0; c < candidates.size(); ++c) block(r, static_cast<Eigen::Index>(c)) = w(profile[r], candidates[c]);
      CoverageProblem copied = make_coverage_problem(block, v, candidates, gamma);
      copied.saturated = mpg::diversity::saturated_cover(copied.cover, gamma);
      const std::size_t k = 1 + static_cast<std::size_t>(trial) * 4;
      for (const bool lazy : {false, true}) {
        const auto in_place = sdr_greedy(matrices, profile, v, candidates, {.k = k, .lazy = lazy});
        const auto block_result = sdr_greedy(copied, {.k = k, .lazy = lazy});
        CAPTURE(gamma, trial, lazy);
        CHECK(in_place.items == block_result.items);
        CHECK(in_place.gains == block_result.gains);
        CHECK(in_place.summary.objective == block_result.summary.objective);
      }
    }
  }
  Eigen::MatrixXd asymmetric = w;
  asymmetric(0, 1) = 0.5 * asymmetric(1, 0) + 0.25;
  CHECK_THROWS_AS(mpg::diversity::make_coverage_matrices(asymmetric, 0.5), mpg::Error);
  const auto matrices = mpg::diversity::make_coverage_matrices(w, 0.5);
  CHECK_THROWS_AS(sdr_greedy(matrices, {0, n}, Eigen::Vector2d(1, 1), {1, 2}), mpg::Error);
  CHECK_THROWS_AS(sdr_greedy(matrices, {0, 3}, Eigen::Vector2d(1, -1), {1, 2}), mpg::Error);
  CHECK_THROWS_AS(sdr_greedy(matrices, {0}, Eigen::Vector2d(1, 1), {1, 2}), mpg::Error);
}
