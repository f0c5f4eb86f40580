// The F1 game solved over segment-affine marginals (lib/metrics/f1_segment_solver): brute force
// over all 2^n x 2^n actions (random, tied and rounded potentials), the (n+1) x (n+1) game over
// sizes at equal potentials solved by LP, large games at theta = 0 and tiny theta, the reported
// strategies, the automatic choice of algorithm, and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/f1_segment_solver.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {
MarginalSolverOptions exact() {
  MarginalSolverOptions options;
  options.tolerance = 1e-10;
  return options;
}

void check_brackets(const MarginalSolution& solution, double value, double tolerance = 1e-9) {
  const auto& summary = solution.summary;
  CHECK(summary.converged());
  CHECK(summary.lower <= value + tolerance);
  CHECK(summary.upper >= value - tolerance);
}

// The game over sizes at equal potentials c: the predictor picks |y_hat| = k, the adversary
// |y| = l, each set uniformly at random, so E|y_hat AND y| = kl/n and the payoff is
// 2kl/(n(k+l)) - c l (1 for k = l = 0).
double size_game_value(long n, double c) {
  Eigen::MatrixXd payoff(n + 1, n + 1);
  for (long k = 0; k <= n; ++k)
    for (long l = 0; l <= n; ++l) {
      const double f1 = k + l == 0 ? 1.0 : 2.0 * static_cast<double>(k * l) / static_cast<double>(n * (k + l));
      payoff(k, l) = f1 - c * static_cast<double>(l);
    }
  return solve_matrix_game(payoff, default_lp_backend()).value;
}
}  // namespace

TEST_CASE("F1 by segments equals the brute-force matrix game for n <= 7", "[f1_segments]") {
  std::mt19937 rng(20261126);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 6);
    std::uniform_real_distribution<double> draw(-0.6, 0.6);
    std::vector<double> psi(n);
    const int kind = trial % 4;  // wide, small, tiny, rounded (ties)
    for (double& x : psi) {
      x = draw(rng) * (kind == 1 ? 0.1 : kind == 2 ? 0.01 : 1.0);
      if (kind == 3) x = std::round(2.0 * x) / 4.0;
    }
    INFO("trial " << trial);
    const double value = solve_matrix_game(full_payoff_matrix(F1Game(psi), n), default_lp_backend()).value;
    const auto solution = solve_f1_by_segments(psi, exact());
    check_brackets(solution, value);
    CHECK(solution.summary.algorithm == MarginalAlgorithm::segments);
  }
}

TEST_CASE("F1 by segments at equal potentials: the (n+1) x (n+1) game over sizes", "[f1_segments]") {
  for (long n : {2L, 5L, 37L, 200L}) {
    for (double c : {0.0, 0.001, -0.5, 0.3}) {
      INFO("n = " << n << ", psi = " << c);
      const auto solution = solve_f1_by_segments(std::vector<double>(static_cast<std::size_t>(n), c), exact());
      check_brackets(solution, size_game_value(n, c), 1e-8);
      CHECK(solution.summary.segments == 1);  // exchangeable examples are never split
    }
  }
  // At psi = 0 the value is 2/(n+3) (digest §2.3).
  const auto zero = solve_f1_by_segments(std::vector<double>(30000, 0.0), exact());
  CHECK(zero.summary.lower == Approx(2.0 / 30003.0).epsilon(1e-9));
  CHECK(zero.summary.gap <= 1e-10);
}

TEST_CASE("F1 by segments: two values of potentials, theta = 0 and tiny theta at n = 20,000", "[f1_segments]") {
  std::vector<double> psi(5000, 0.0);
  std::fill(psi.begin() + 2500, psi.end(), -0.5);
  const auto two = solve_f1_by_segments(psi, exact());
  CHECK(two.summary.converged());
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> tiny(20000);
  for (double& x : tiny) x = 1e-9 * normal(rng);
  MarginalSolverOptions options;  // tolerance 1e-6
  const auto solved = solve_f1_by_segments(tiny, options);
  CHECK(solved.summary.converged());
  CHECK(solved.summary.gap <= 1e-6);
  CHECK(solved.summary.lower == Approx(2.0 / 20003.0).epsilon(1e-3));
}

TEST_CASE("F1 by segments: a wide band of mixing examples, certified within a round cap", "[f1_segments]") {
  // Gaussian potentials of scale 1e-4 (like an ADULT game at theta x 0.1): thousands of examples
  // mix over many sizes. Segments cut at each size's band edges and fixed outside the bands
  // certify it in 16 rounds, 10 with the cuts beyond creeping band edges (the segments that only
  // ever split took more than 48 rounds for gap 2.6e-5 on such a game).
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> psi(10000);
  for (double& x : psi) x = 1e-4 * normal(rng);
  MarginalSolverOptions options;  // tolerance 1e-6
  options.max_rounds = 30;
  const auto solved = solve_f1_by_segments(psi, options);
  CHECK(solved.summary.converged());
  CHECK(solved.summary.gap <= 1e-6);
}

TEST_CASE("F1 by segments: a band edge that creeps one rank a round is extended at once", "[f1_segments]") {
  // Potentials whose predictor band reaches far (n = 5,000, logistic and uniform quantiles in a
  // fixed scrambled order): without the companion cuts 2, 4, 8, ... ranks beyond a creeping band
  // edge these took 88 and 212 rounds (the edge moved one rank a round); with them, 12 and 20.
  for (const bool logistic : {true, false}) {
    const long n = 5000;
    std::vector<double> psi(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
      const double u = (static_cast<double>((i * 7919) % n) + 0.5) / static_cast<double>(n);
      psi[static_cast<std::size_t>(i)] = logistic ? 1e-4 * (std::log(u / (1.0 - u)) - 0.4) : 1e-3 * (u - 0.6);
    }
    INFO((logistic ? "logistic" : "uniform"));
    MarginalSolverOptions options;  // tolerance 1e-6
    options.max_rounds = 30;
    const auto solved = solve_f1_by_segments(psi, options);
    CHECK(solved.summary.converged());
    CHECK(solved.summary.gap <= 1e-6);
  }
}

TEST_CASE("F1 by segments: a game on which rebuilt segments alternate still converges", "[f1_segments]") {
  // Here the segments rebuilt at the band edges and the fixings alternated between two restricted
  // games with the same bounds; two rounds without progress refine the segments instead.
  const std::vector<double> psi{-0.028376, 0.166882, -0.41926, 0.161833, 0.441654, 0.027817, 0.289502, 0.205694};
  const double value = solve_matrix_game(full_payoff_matrix(F1Game(psi), psi.size()), default_lp_backend()).value;
  MarginalSolverOptions options = exact();
  options.max_rounds = 50;
  check_brackets(solve_f1_by_segments(psi, options), value);
}

TEST_CASE("F1 by segments reports consistent strategies", "[f1_segments]") {
  const std::vector<double> psi{0.05, -0.1, 0.2, 0.05, -0.3, 0.0, 0.12};
  const auto solution = solve_f1_by_segments(psi, exact());
  REQUIRE(solution.summary.converged());
  const F1Game game(psi);
  const std::size_t n = psi.size();
  // The likeliest action scores F1 against every labelling as the game does, and the expected
  // score is a convex combination: between the smallest and largest F1 of any prediction.
  std::vector<int> labels{1, 0, 1, 0, 0, 0, 1};
  const double expected = solution.expected_score(labels);
  CHECK(expected >= 0.0);
  CHECK(expected <= 1.0);
  CHECK(solution.likeliest_probability > 0.0);
  CHECK(solution.likeliest_probability <= 1.0 + 1e-12);
  CHECK(std::is_sorted(solution.likeliest_action.begin(), solution.likeliest_action.end()));
  for (Eigen::Index i = 0; i < solution.marginals.size(); ++i) {
    CHECK(solution.marginals[i] >= -1e-12);
    CHECK(solution.marginals[i] <= 1.0 + 1e-12);
    CHECK(solution.adversary_marginals[i] >= -1e-12);
    CHECK(solution.adversary_marginals[i] <= 1.0 + 1e-12);
  }
  // The adversary's marginals give the learner's cut: the predictor's best response to Q is at
  // least the game value (upper bound), so upper + psi . m_Q >= E_Q-free F1 part >= 0.
  double psi_m = 0.0;
  for (std::size_t i = 0; i < n; ++i) psi_m += psi[i] * solution.adversary_marginals[static_cast<Eigen::Index>(i)];
  CHECK(solution.summary.upper + psi_m >= -1e-12);
}

TEST_CASE("F1 by segments: permuting the examples permutes the marginals", "[f1_segments]") {
  const std::vector<double> psi{0.05, -0.1, 0.2, 0.05, -0.3, 0.0, 0.12, 0.05};
  std::vector<std::size_t> perm(psi.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::reverse(perm.begin(), perm.end());
  std::vector<double> permuted(psi.size());
  for (std::size_t i = 0; i < psi.size(); ++i) permuted[i] = psi[perm[i]];
  const auto a = solve_f1_by_segments(psi, exact()), b = solve_f1_by_segments(permuted, exact());
  CHECK(a.summary.lower == Approx(b.summary.lower).margin(1e-10));
  // Equal potentials get equal marginals (exchangeable examples share a segment).
  CHECK(a.marginals[0] == Approx(a.marginals[3]).margin(1e-12));
  CHECK(a.marginals[0] == Approx(a.marginals[7]).margin(1e-12));
}

TEST_CASE("F1 over marginals, automatic: segments first, then windows; same value", "[f1_segments]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> draw(-0.3, 0.3);
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<double> psi(40);
    for (double& x : psi) x = draw(rng);
    MarginalSolverOptions automatic = exact(), windows = exact();
    automatic.tolerance = windows.tolerance = 1e-8;
    windows.algorithm = MarginalAlgorithm::windows;
    const auto a = solve_f1_game_over_marginals(psi, automatic), w = solve_f1_game_over_marginals(psi, windows);
    INFO("trial " << trial);
    REQUIRE(a.summary.converged());
    REQUIRE(w.summary.converged());
    CHECK(a.summary.lower <= w.summary.upper + 1e-8);
    CHECK(w.summary.lower <= a.summary.upper + 1e-8);
  }
  CHECK(parse_marginal_algorithm("segments") == MarginalAlgorithm::segments);
  CHECK(to_string(MarginalAlgorithm::automatic) == "auto");
  CHECK_THROWS_AS(parse_marginal_algorithm("simplex"), Error);
}

TEST_CASE("F1 by segments: a mix of past rounds' strategies guarantees the lower bound", "[f1_segments]") {
  // The lower bound may come from a mix of the last rounds' predictor strategies, each on its own
  // segments; the reported strategy (that mix, written on the parts' common refinement) must
  // guarantee it against every one of the 2^n actions, and the value must be the one found
  // without mixes.
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> draw(-0.3, 0.3);
  int mixed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 8 + static_cast<std::size_t>(trial % 20);
    std::vector<double> psi(n);
    for (double& x : psi) x = draw(rng);
    INFO("trial " << trial);
    MarginalSolverOptions options = exact(), single = exact();
    options.max_rounds = single.max_rounds = 300;
    single.mixed_rounds = 0;
    const auto solution = solve_f1_by_segments(psi, options), without = solve_f1_by_segments(psi, single);
    CHECK(solution.summary.converged());
    CHECK(without.summary.converged());
    CHECK(solution.summary.lower == Approx(without.summary.lower).margin(1e-9));
    mixed += solution.summary.mixed_strategies > 1;
    // For a fixed |y| = l the expected F1 is linear in y, sum over y's examples of a_il: with
    // R = {0..l-1} and x = l outside it, swaps give every a_il - a_0l and E[F1 | R] gives a_0l.
    // The adversary's best at l is the sum of the l smallest a_il - psi_i: the guarantee is exact.
    auto score = [&](std::vector<std::size_t> in) {
      std::vector<int> labels(n, 0);
      for (std::size_t i : in) labels[i] = 1;
      return solution.expected_score(labels);
    };
    auto swapped = [](std::vector<std::size_t> set, std::size_t out, std::size_t in) {
      *std::find(set.begin(), set.end(), out) = in;
      return set;
    };
    double total_psi = std::accumulate(psi.begin(), psi.end(), 0.0);
    std::vector<std::size_t> all(n);
    std::iota(all.begin(), all.end(), std::size_t{0});
    double guaranteed = std::min(score({}), score(all) - total_psi);
    for (std::size_t l = 1; l < n; ++l) {
      const std::vector<std::size_t> R(all.begin(), all.begin() + static_cast<long>(l));
      std::vector<double> a(n, 0.0);  // a_il - a_0l
      for (std::size_t i = 1; i < n; ++i)
        a[i] = i >= l ? score(swapped(R, 0, i)) - score(R) : score(swapped(R, 0, l)) - score(swapped(R, i, l));
      const double a0 = (score(R) - std::accumulate(a.begin(), a.begin() + static_cast<long>(l), 0.0)) / static_cast<double>(l);
      for (std::size_t i = 0; i < n; ++i) a[i] += a0 - psi[i];
      std::sort(a.begin(), a.end());
      guaranteed = std::min(guaranteed, std::accumulate(a.begin(), a.begin() + static_cast<long>(l), 0.0));
    }
    CHECK(guaranteed >= solution.summary.lower - 1e-9);
  }
  CHECK(mixed > 0);  // the mixes' path is exercised
}

TEST_CASE("F1 by segments stops within max_seconds, inside an LP", "[f1_segments]") {
  // A game far from certified at the cap (logistic quantiles of scale 3e-4, n = 10,000: gap
  // 1e-4 after 5 s): the simplex gets only the time left (a whole LP used to run past the cap).
  const long n = 10000;
  std::vector<double> psi(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) {
    const double u = (static_cast<double>((i * 7919) % n) + 0.5) / static_cast<double>(n);
    psi[static_cast<std::size_t>(i)] = 3e-4 * (std::log(u / (1.0 - u)) - 0.4);
  }
  MarginalSolverOptions options;
  options.max_seconds = 0.2;
  const auto solved = solve_f1_by_segments(psi, options);
  CHECK(solved.summary.status == MarginalSolverStatus::time_limit);
  CHECK(solved.summary.seconds < 0.2 + 0.5);  // one round's bounds and LP build beyond the cap
}

TEST_CASE("F1 by segments rejects bad input", "[f1_segments]") {
  CHECK_THROWS_AS(solve_f1_by_segments({0.1}), Error);
  CHECK_THROWS_AS(solve_f1_by_segments({0.1, std::nan("")}), Error);
  MarginalSolverOptions bad;
  bad.tolerance = 0.0;
  CHECK_THROWS_AS(solve_f1_by_segments({0.1, 0.2}, bad), Error);
}
