// Double oracle (thesis Alg. 1): its value equals the LP value of the full 2^n x 2^n game, the
// reported gap brackets it, caps are reported as "not converged", and warm starts agree.
#include <catch2/catch.hpp>

#include "lib/double_oracle.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

void check_against_full_game(const Game<BinaryAction>& game, std::size_t n) {
  const auto solution = solve_double_oracle(game);
  const auto& s = solution.summary;
  const double full_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
  CHECK(s.converged());
  CHECK(s.gap <= 1e-9);
  CHECK(s.value == Approx(full_value).margin(1e-9));
  // The best-response values bracket the game value.
  CHECK(s.adversary_response_value <= full_value + 1e-9);
  CHECK(s.predictor_response_value >= full_value - 1e-9);
  // The returned strategies really are equilibrium strategies of the full game.
  CHECK(brute_force_predictor_value(game, n, solution.adversary) ==
        Approx(full_value).margin(1e-9));
  CHECK(brute_force_adversary_value(game, n, solution.predictor) ==
        Approx(full_value).margin(1e-9));
  CHECK(s.predictor_support >= 1);
  CHECK(s.adversary_support >= 1);
  CHECK(s.predictor_support <= s.predictor_actions);
  CHECK(s.adversary_support <= s.adversary_actions);
}

}  // namespace

TEST_CASE("F1 double oracle equals the full-matrix LP for random potentials", "[double_oracle]") {
  std::mt19937 rng(2026);
  for (std::size_t n = 1; n <= 7; ++n) {
    for (int trial = 0; trial < 6; ++trial) {
      INFO("n = " << n << " trial " << trial);
      check_against_full_game(F1Game(random_potentials(n, rng)), n);
    }
  }
}

TEST_CASE("P@k double oracle equals the full-matrix LP in both adversary modes",
          "[double_oracle]") {
  std::mt19937 rng(99);
  for (auto restriction : {AdversaryRestriction::unrestricted, AdversaryRestriction::exactly_k}) {
    for (std::size_t n = 1; n <= 7; ++n) {
      for (int trial = 0; trial < 4; ++trial) {
        const std::size_t k = 1 + static_cast<std::size_t>(trial) % n;
        INFO(to_string(restriction) << " n = " << n << " k = " << k);
        check_against_full_game(PrecisionAtKGame(random_potentials(n, rng), k, restriction), n);
      }
    }
  }
}

TEST_CASE("F1 double oracle on n = 10 matches the 1024 x 1024 full game", "[double_oracle]") {
  std::mt19937 rng(10);
  check_against_full_game(F1Game(random_potentials(10, rng)), 10);
}

TEST_CASE("An iteration cap is reported as not converged with its gap", "[double_oracle]") {
  std::mt19937 rng(5);
  F1Game game(random_potentials(40, rng));
  DoubleOracleOptions options;
  options.max_iterations = 1;
  const auto capped = solve_double_oracle(game, options);
  CHECK(capped.summary.status == DoubleOracleStatus::iteration_limit);
  CHECK_FALSE(capped.summary.converged());
  CHECK(capped.summary.gap > options.tolerance);
  CHECK(capped.summary.iterations == 1);

  options.max_iterations = 0;
  options.max_actions = 3;
  const auto action_capped = solve_double_oracle(game, options);
  CHECK(action_capped.summary.status == DoubleOracleStatus::action_limit);
  CHECK(action_capped.summary.gap > options.tolerance);
}

TEST_CASE("Warm-started double oracle reaches the same value", "[double_oracle]") {
  std::mt19937 rng(12);
  F1Game game(random_potentials(200, rng));
  const auto cold = solve_double_oracle(game);
  const auto warm =
      solve_double_oracle(game, {}, cold.predictor.actions, cold.adversary.actions);
  CHECK(cold.summary.converged());
  CHECK(warm.summary.converged());
  CHECK(warm.summary.value == Approx(cold.summary.value).margin(1e-9));
  CHECK(warm.summary.iterations <= cold.summary.iterations);
}
