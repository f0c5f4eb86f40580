// Precision@k game (thesis §4.2.3): score, best responses in both adversary modes against brute
// force, the reference code's fixed case, and the thesis Table III / NIPS reduced game values.
#include <catch2/catch.hpp>

#include "lib/game/double_oracle.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

TEST_CASE("P@k score", "[precision_at_k]") {
  CHECK(precision_at_k({1, 2, 5, 9}, {0, 3, 5}, 4) == 0.25);
  // y = 10110010, k = 3, y_hat = 11000010: P@3 = 2/3 (thesis §4.1).
  CHECK(precision_at_k(from_bitstring("11000010"), from_bitstring("10110010"), 3) ==
        Approx(2.0 / 3.0).margin(1e-15));
}

TEST_CASE("P@k rejects impossible k", "[precision_at_k]") {
  CHECK_THROWS_AS(PrecisionAtKGame({0.1, 0.2}, 3), Error);
  CHECK_THROWS_AS(PrecisionAtKGame({0.1, 0.2}, 0), Error);
  CHECK_THROWS_AS(parse_adversary_restriction("some"), Error);
}

TEST_CASE("P@k unrestricted adversary best response, reference fixed case", "[precision_at_k]") {
  PrecisionAtKGame game({-6, 5, 2, -3}, 3);
  MixedStrategy<BinaryAction> predictor{{{0, 2, 3}, {0, 1, 2}, {1, 2, 3}}, {0.5, 0.3, 0.2}};
  const auto best = game.adversary_best_response(predictor);
  CHECK(best.action == BinaryAction{1, 2});
  CHECK(best.value == Approx(-6.5).margin(1e-12));
}

TEST_CASE("P@k best responses equal brute force", "[precision_at_k]") {
  std::mt19937 rng(31);
  for (auto restriction : {AdversaryRestriction::unrestricted, AdversaryRestriction::exactly_k}) {
    for (std::size_t n = 1; n <= 10; ++n) {
      for (int trial = 0; trial < 20; ++trial) {
        const std::size_t k = 1 + static_cast<std::size_t>(trial) % n;
        PrecisionAtKGame game(random_potentials(n, rng), k, restriction);
        INFO(to_string(restriction) << " n = " << n << " k = " << k << " trial " << trial);
        const auto adversary =
            random_strategy(legal_adversary_actions(game, n), 1 + trial % 6, rng);
        const auto predictor =
            random_strategy(legal_predictor_actions(game, n), 1 + trial % 5, rng);

        const auto pred = game.predictor_best_response(adversary);
        CHECK(game.is_legal_predictor_action(pred.action));
        CHECK(pred.value ==
              Approx(brute_force_predictor_value(game, n, adversary)).margin(1e-12));
        CHECK(predictor_value_of(game, pred.action, adversary) == Approx(pred.value).margin(1e-12));

        const auto adv = game.adversary_best_response(predictor);
        CHECK(game.is_legal_adversary_action(adv.action));
        CHECK(adv.value == Approx(brute_force_adversary_value(game, n, predictor)).margin(1e-12));
        CHECK(adversary_value_of(game, adv.action, predictor) == Approx(adv.value).margin(1e-12));
      }
    }
  }
}

TEST_CASE("P@2 game values of thesis Table III (n = 3)", "[precision_at_k]") {
  struct Case {
    std::vector<double> psi;
    double restricted;
    double unrestricted;
  };
  // psi = 0.4: the NIPS reduced game (thesis Table I) has value -2/15 with the adversary held to
  // exactly k positives; unrestricted, the adversary plays 111 and the value is -1/5.
  for (const auto& c : {Case{{0.4, 0.4, 0.4}, -2.0 / 15.0, -0.2}, Case{{0, 0, 0}, 2.0 / 3.0, 0.0},
                        Case{{0.1, 0.2, 0.3}, 4.0 / 15.0, 0.0},
                        Case{{-0.2, 0.1, 0.4}, 2.0 / 5.0, 0.0}}) {
    const auto restricted =
        solve_double_oracle(PrecisionAtKGame(c.psi, 2, AdversaryRestriction::exactly_k));
    const auto unrestricted = solve_double_oracle(PrecisionAtKGame(c.psi, 2));
    CHECK(restricted.summary.converged());
    CHECK(unrestricted.summary.converged());
    CHECK(restricted.summary.value == Approx(c.restricted).margin(1e-9));
    CHECK(unrestricted.summary.value == Approx(c.unrestricted).margin(1e-9));
  }
}

TEST_CASE("P@k closed-form equilibrium: hand example", "[precision_at_k]") {
  // k = 2, psi = (0.9, 0.3, 0.1, -0.2): capacities min(1, 2 psi+) = (1, 0.6, 0.2, 0), C = 1.8 < 2.
  // v = -(0.9 + 0.3 + 0.1) + 1.8 / 2 = -0.4; the adversary labels {psi >= 1/2} = {0}:
  // its payoff against any pi with pi_0 = 1 is 1/2 - 0.9 = -0.4.
  const auto eq = solve_precision_at_k_game({0.9, 0.3, 0.1, -0.2}, 2);
  CHECK(eq.value == Approx(-0.4).margin(1e-15));
  CHECK(eq.gap == Approx(0.0).margin(1e-15));
  CHECK(eq.adversary_action == BinaryAction{0});
  CHECK(eq.predictor_marginals.sum() == Approx(2.0).margin(1e-15));
  CHECK(eq.top_k == BinaryAction{0, 1});
  // Saturated: k = 1, psi = (0.5, 0.7): C = 1 + 1 > 1, v = 1 - 1.2, adversary labels both.
  const auto saturated = solve_precision_at_k_game({0.5, 0.7}, 1);
  CHECK(saturated.value == Approx(-0.2).margin(1e-15));
  CHECK(saturated.adversary_action == BinaryAction{0, 1});
  CHECK(saturated.top_k == BinaryAction{1});
  CHECK_THROWS_AS(solve_precision_at_k_game({0.1}, 2), Error);
}

TEST_CASE("P@k closed-form equilibrium equals the full-matrix LP and the double oracle", "[precision_at_k]") {
  std::mt19937 rng(57);
  std::uniform_real_distribution<double> scale_choice(0.0, 1.0);
  for (std::size_t n = 1; n <= 8; ++n) {
    for (int trial = 0; trial < 12; ++trial) {
      const std::size_t k = 1 + static_cast<std::size_t>(trial) % n;
      // Potentials around 1/k, where the equilibrium is mixed, and at larger scales.
      std::vector<double> psi = random_potentials(n, rng);
      const double scale = trial % 3 == 0 ? 1.0 : (0.2 + 2.0 * scale_choice(rng)) / static_cast<double>(k);
      for (auto& p : psi) p *= scale;
      INFO("n = " << n << " k = " << k << " trial " << trial);
      const auto eq = solve_precision_at_k_game(psi, k);
      CHECK(eq.gap == Approx(0.0).margin(1e-12));
      double positive_part = 0.0, capacity = 0.0;
      for (double p : psi) {
        positive_part += std::max(0.0, p);
        capacity += std::min(1.0, static_cast<double>(k) * std::max(0.0, p));
      }
      CHECK(eq.value == Approx(-positive_part + std::min(1.0, capacity / static_cast<double>(k))).margin(1e-12));
      PrecisionAtKGame game(psi, k);
      const double lp_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
      CHECK(eq.value == Approx(lp_value).margin(1e-9));
      CHECK(solve_double_oracle(game).summary.value == Approx(eq.value).margin(1e-9));
      // pi is a legal marginal vector; the adversary's action is a best response to it.
      CHECK(eq.predictor_marginals.minCoeff() >= 0.0);
      CHECK(eq.predictor_marginals.maxCoeff() <= 1.0);
      CHECK(eq.predictor_marginals.sum() == Approx(static_cast<double>(k)).margin(1e-12));
    }
  }
}
