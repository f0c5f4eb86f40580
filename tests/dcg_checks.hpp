// Shape checks of a solved DCG game, shared by the LP and greedy solver tests: the predictor's
// mixture is legal permutations, most probable first, probabilities summing to 1; every row of
// the adversary's marginals is a distribution over levels.
#pragma once

#include <catch2/catch.hpp>

#include "lib/metrics/dcg.hpp"

inline void check_equilibrium_shape(const mpg::DcgGame& game, const mpg::DcgEquilibrium& eq) {
  double total = 0.0;
  for (std::size_t a = 0; a < eq.predictor.size(); ++a) {
    CHECK(game.is_legal_predictor_action(eq.predictor.actions[a]));
    if (a > 0) CHECK(eq.predictor.probabilities[a] <= eq.predictor.probabilities[a - 1]);
    total += eq.predictor.probabilities[a];
  }
  CHECK(total == Catch::Detail::Approx(1.0));
  for (Eigen::Index j = 0; j < eq.adversary_marginals.rows(); ++j) {
    CHECK(eq.adversary_marginals.row(j).sum() == Catch::Detail::Approx(1.0));
    CHECK(eq.adversary_marginals.row(j).minCoeff() >= 0.0);
  }
}
