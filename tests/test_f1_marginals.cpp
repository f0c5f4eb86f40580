// The F1 game solved over marginals (lib/metrics/f1_marginal_solver): exact values of thesis games,
// brute force over all 2^n x 2^n actions, the double oracle on games wider than the solver's
// windows, the reported strategy, and bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {
MarginalSolverOptions exact(long window = 64) {
  MarginalSolverOptions options;
  options.tolerance = 1e-10;
  options.window = window;
  return options;
}

// n potentials drawn uniformly from [low, high).
std::vector<double> uniform_potentials(std::mt19937& rng, std::size_t n, double low, double high) {
  std::uniform_real_distribution<double> draw(low, high);
  std::vector<double> psi(n);
  for (double& x : psi) x = draw(rng);
  return psi;
}

// The game value by double oracle, which must converge to `tolerance`.
double double_oracle_value(const std::vector<double>& psi, double tolerance) {
  DoubleOracleOptions options;
  options.tolerance = tolerance;
  const auto reference = solve_double_oracle(F1Game(psi), options);
  REQUIRE(reference.summary.converged());
  return reference.summary.value;
}

// The solver's bounds hold `value`, and its gap is closed.
void check_brackets(const MarginalSolution& solution, double value) {
  const auto& summary = solution.summary;
  CHECK(summary.converged());
  CHECK(summary.gap <= 1e-10);
  CHECK(summary.lower <= value + 1e-10);
  CHECK(summary.upper >= value - 1e-10);
}
}  // namespace

TEST_CASE("F1 over marginals: 2/(n+3) at psi = 0 and the derived n = 3 games", "[f1_marginals]") {
  for (std::size_t n = 2; n <= 6; ++n) {
    INFO("n = " << n);
    check_brackets(solve_f1_over_marginals(std::vector<double>(n, 0.0), exact()), 2.0 / (static_cast<double>(n) + 3.0));
  }
  check_brackets(solve_f1_over_marginals({0.1, 0.2, 0.3}, exact()), 713.0 / 4180.0);
  check_brackets(solve_f1_over_marginals({-0.2, 0.1, 0.4}, exact()), 137.0 / 660.0);
  check_brackets(solve_f1_over_marginals({0.5, 0.5, 0.5}, exact()), -0.5);
}

TEST_CASE("F1 over marginals equals the brute-force matrix game for n <= 7", "[f1_marginals]") {
  std::mt19937 rng(20261125);
  std::uniform_real_distribution<double> centre(-0.15, 0.15), spread(0.0, 0.4);
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 6);
    const double c = centre(rng), s = spread(rng);
    const auto psi = uniform_potentials(rng, n, c - s, c + s);
    const double value = solve_matrix_game(full_payoff_matrix(F1Game(psi), n), default_lp_backend()).value;
    INFO("trial " << trial << ", n = " << n);
    // A window of 1 makes pricing and the best responses, not the first window, find the entries.
    check_brackets(solve_f1_over_marginals(psi, exact(1)), value);
    check_brackets(solve_f1_over_marginals(psi, exact()), value);
  }
}

TEST_CASE("F1 over marginals agrees with the double oracle on games wider than its windows", "[f1_marginals]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> centre(-0.05, 0.1), spread(0.01, 0.2);
  for (int trial = 0; trial < 8; ++trial) {
    const std::size_t n = 20 + 5 * static_cast<std::size_t>(trial);
    const double c = centre(rng), s = spread(rng);
    const auto psi = uniform_potentials(rng, n, c - s, c + s);
    INFO("trial " << trial << ", n = " << n);
    check_brackets(solve_f1_over_marginals(psi, exact(3)), double_oracle_value(psi, 1e-11));
  }
}

TEST_CASE("F1 over marginals agrees with the double oracle where sizes span several blocks", "[f1_marginals]") {
  // n = 300: the adversary's sizes fall into five blocks of 64, so its best values come from
  // block bounds and skipped blocks, not from one block evaluated size by size.
  std::mt19937 rng(300);
  const auto psi = uniform_potentials(rng, 300, -0.05, 0.08);
  check_brackets(solve_f1_over_marginals(psi, exact(8)), double_oracle_value(psi, 1e-10));
}

TEST_CASE("F1 over marginals reports a consistent predictor strategy", "[f1_marginals]") {
  const std::vector<double> psi = {0.12, -0.05, 0.08, 0.01, 0.2, -0.1, 0.04, 0.06, -0.02, 0.1, 0.0, 0.03};
  const auto solution = solve_f1_over_marginals(psi, exact(2));
  REQUIRE(solution.summary.converged());
  REQUIRE(solution.marginals.size() == static_cast<Eigen::Index>(psi.size()));
  for (Eigen::Index i = 0; i < solution.marginals.size(); ++i) {
    CHECK(solution.marginals[i] >= -1e-12);
    CHECK(solution.marginals[i] <= 1.0 + 1e-12);
  }
  // Examples with larger potentials are no less likely to be predicted positive here.
  CHECK(solution.marginals[4] >= solution.marginals[5]);
  CHECK(solution.likeliest_probability > 0.0);
  CHECK(solution.likeliest_probability <= 1.0 + 1e-12);
  // Against the likeliest action as labels, E[F1] is at least that action's probability (some
  // mix with these marginals plays it that often, and E[F1] depends on the marginals only).
  std::vector<int> labels(psi.size(), 0);
  for (auto i : solution.likeliest_action) labels[i] = 1;
  CHECK(solution.expected_score(labels) >= solution.likeliest_probability - 1e-9);
  CHECK(solution.expected_score(labels) <= 1.0 + 1e-12);
}

TEST_CASE("F1 over marginals: bounds from mixes of past rounds' strategies hold", "[f1_marginals]") {
  // Runs cut after each round: the reported predictor strategy (a mix of several rounds' when
  // that bounds better) guarantees `lower` against every pure adversary action, and the game
  // value lies in [lower, upper]; on the same rounds, mixing never loosens the bounds.
  std::mt19937 rng(11);
  // A few large potentials put their examples below the regions of the strategies mixed.
  std::uniform_real_distribution<double> draw(-0.1, 0.15), large(0.3, 0.6);
  int mixed_runs = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t n = 8 + static_cast<std::size_t>(trial % 3);
    std::vector<double> psi(n);
    for (std::size_t i = 0; i < n; ++i) psi[i] = i < static_cast<std::size_t>(trial % 4) ? large(rng) : draw(rng);
    const double value = solve_matrix_game(full_payoff_matrix(F1Game(psi), n), default_lp_backend()).value;
    for (int rounds = 1; rounds <= 6; ++rounds) {
      INFO("trial " << trial << ", n = " << n << ", rounds = " << rounds);
      MarginalSolverOptions options = exact(1);
      options.max_rounds = rounds;
      options.sizes_per_round = 1;
      const auto mixed = solve_f1_over_marginals(psi, options);
      const auto& summary = mixed.summary;
      CHECK(summary.lower <= value + 1e-10);
      CHECK(summary.upper >= value - 1e-10);
      // On the same rounds (no best responses to the mix, which change the rounds), mixing
      // only tightens the bounds.
      options.respond_to_mix = false;
      const auto same_rounds = solve_f1_over_marginals(psi, options);
      options.mixed_rounds = 0;
      const auto plain = solve_f1_over_marginals(psi, options);
      CHECK(same_rounds.summary.lower >= plain.summary.lower - 1e-12);
      CHECK(same_rounds.summary.upper <= plain.summary.upper + 1e-12);
      mixed_runs += summary.mixed_strategies > 1;
      // min over all 2^n adversary actions y of E[F1(Y_hat, y)] - psi . y
      double guaranteed = INFINITY;
      for (unsigned y = 0; y < (1u << n); ++y) {
        std::vector<int> labels(n);
        double potential = 0.0;
        for (std::size_t i = 0; i < n; ++i)
          if ((labels[i] = (y >> i) & 1u)) potential += psi[i];
        guaranteed = std::min(guaranteed, mixed.expected_score(labels) - potential);
      }
      CHECK(guaranteed >= summary.lower - 1e-9);
    }
  }
  CHECK(mixed_runs > 0);  // the cut runs above do mix
}

TEST_CASE("F1 over marginals: the adversary marginals are those of a strategy conceding upper", "[f1_marginals]") {
  // An adversary strategy Q that concedes `upper` at psi concedes upper + (psi - psi') . m_Q at
  // any psi' (only the potential term moves), so the brute-force value v(psi') is at most that.
  // Steps of +-h along each example bound m_Q,i from both sides to O(h), in input order; runs cut
  // after a few rounds (Q then often a mix of past rounds) must satisfy it at random psi' too.
  std::mt19937 rng(25);
  std::uniform_real_distribution<double> draw(-0.3, 0.3);
  auto value_at = [](const std::vector<double>& psi) {
    return solve_matrix_game(full_payoff_matrix(F1Game(psi), psi.size()), default_lp_backend()).value;
  };
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 4);
    std::vector<double> psi(n);
    for (double& x : psi) x = trial % 3 == 2 ? std::round(4.0 * draw(rng)) / 8.0 : draw(rng);  // some ties
    INFO("trial " << trial << ", n = " << n);
    for (long window : {1L, 64L}) {
      const auto solution = solve_f1_over_marginals(psi, exact(window));
      REQUIRE(solution.summary.converged());
      const Eigen::VectorXd& m = solution.adversary_marginals;
      REQUIRE(m.size() == static_cast<Eigen::Index>(n));
      CHECK(m.minCoeff() >= 0.0);
      CHECK(m.maxCoeff() <= 1.0 + 1e-15);
      constexpr double h = 1e-3;
      for (std::size_t i = 0; i < n; ++i) {
        const auto at = static_cast<Eigen::Index>(i);
        for (double step : {h, -h}) {
          auto moved = psi;
          moved[i] += step;
          CHECK(value_at(moved) <= solution.summary.upper - step * m[at] + 1e-9);
        }
      }
    }
    for (int rounds = 1; rounds <= 3; ++rounds) {
      MarginalSolverOptions options = exact(1);
      options.max_rounds = rounds;
      const auto cut = solve_f1_over_marginals(psi, options);
      for (int probe = 0; probe < 3; ++probe) {
        std::vector<double> other(n);
        double shift = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
          other[i] = draw(rng);
          shift += (psi[i] - other[i]) * cut.adversary_marginals[static_cast<Eigen::Index>(i)];
        }
        CHECK(value_at(other) <= cut.summary.upper + shift + 1e-9);
      }
    }
  }
}

TEST_CASE("F1 over marginals stops at its time limit with valid bounds", "[f1_marginals]") {
  std::mt19937 rng(3);
  const auto psi = uniform_potentials(rng, 3000, -0.002, 0.003);
  MarginalSolverOptions options;
  options.tolerance = 1e-12;
  options.max_seconds = 0.05;
  const auto solution = solve_f1_over_marginals(psi, options);
  CHECK(solution.summary.status == MarginalSolverStatus::time_limit);
  CHECK_FALSE(solution.summary.converged());
  if (solution.summary.rounds > 0) CHECK(solution.summary.lower <= solution.summary.upper + 1e-12);
}

TEST_CASE("F1 over marginals rejects bad input", "[f1_marginals]") {
  CHECK_THROWS_AS(solve_f1_over_marginals({0.1}), Error);
  CHECK_THROWS_AS(solve_f1_over_marginals({0.1, NAN}), Error);
  MarginalSolverOptions options;
  options.window = 0;
  CHECK_THROWS_AS(solve_f1_over_marginals({0.1, 0.2}, options), Error);
  options = {};
  options.tolerance = 0.0;
  CHECK_THROWS_AS(solve_f1_over_marginals({0.1, 0.2}, options), Error);
  options = {};
  options.mixed_rounds = -1;
  CHECK_THROWS_AS(solve_f1_over_marginals({0.1, 0.2}, options), Error);
}
