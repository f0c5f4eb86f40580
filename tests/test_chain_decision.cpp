// The maximin decision rule of the linear-chain F1 game (lib/models/linear_chain_mpg.hpp): the
// decision equals a brute-force evaluation of the rule (every candidate's guaranteed payoff over
// all m^T adversary labellings), never beats the game value, and does not depend on the solver:
// double-oracle runs with different settings, which may land on different equilibria, cannot move it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "lib/game/double_oracle.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "tests/chains.hpp"

using Approx = Catch::Detail::Approx;

TEST_CASE("maximin chain decision equals brute force and is at most the game value", "[chain_decision]") {
  std::mt19937 rng(25);
  for (int trial = 0; trial < 12; ++trial) {
    const int m = 3;
    const std::size_t T = 2 + static_cast<std::size_t>(trial % 4);
    const mpg::LinearChainF1Game game(mpg::testing::random_chain(m, T, trial % 2 ? 0.2 : 1.5, rng), 1);
    INFO("trial " << trial << ", T = " << T);
    const auto labellings = mpg::testing::all_sequences(m, T);
    auto security = [&](const mpg::LabelSequence& a) {
      double worst = INFINITY;
      for (const auto& y : labellings) worst = std::min(worst, game.score(a, y) - game.potential(y));
      return worst;
    };
    // The rule by brute force: candidates by the chain marginal of C, best guarantee, smaller k on ties.
    const mpg::ChainMarginals marginals = mpg::chain_marginals(game.potentials());
    std::vector<Eigen::Index> positions(T);
    std::iota(positions.begin(), positions.end(), Eigen::Index{0});
    std::stable_sort(positions.begin(), positions.end(),
                     [&](Eigen::Index a, Eigen::Index b) { return marginals.unary(a, 1) > marginals.unary(b, 1); });
    std::vector<bool> binary(T, false);
    mpg::LabelSequence expected = game.from_binary(binary);
    double best = security(expected);
    for (std::size_t k = 1; k <= T; ++k) {
      binary[static_cast<std::size_t>(positions[k - 1])] = true;
      const double value = security(game.from_binary(binary));
      if (value > best + 1e-12) {
        best = value;
        expected = game.from_binary(binary);
      }
    }
    const mpg::LabelSequence decision = mpg::maximin_chain_decision(game);
    CHECK(decision == expected);
    // A pure labelling guarantees at most the game value.
    mpg::DoubleOracleOptions options;
    options.tolerance = 1e-9;
    const auto solution = mpg::solve_double_oracle(game, options);
    CHECK(security(decision) <= solution.summary.value + 1e-7);
  }
}

TEST_CASE("maximin chain decision: two double-oracle settings, one decision", "[chain_decision]") {
  // The papers' rule (most probable action) follows the equilibrium a solver finds; the maximin
  // rule is computed from the game, so the solver's settings cannot change it.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 6; ++trial) {
    const mpg::LinearChainF1Game game(mpg::testing::random_chain(3, 6, 0.3, rng), 2);
    mpg::DoubleOracleOptions loose, tight;
    loose.tolerance = 1e-4;
    tight.tolerance = 1e-10;
    const auto a = mpg::solve_double_oracle(game, loose), b = mpg::solve_double_oracle(game, tight);
    CHECK(a.summary.value == Approx(b.summary.value).margin(1e-3));
    CHECK(mpg::maximin_chain_decision(game) == mpg::maximin_chain_decision(mpg::LinearChainF1Game(game.potentials(), 2)));
  }
}
