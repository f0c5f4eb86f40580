// How an MPG method finds theta (issue 53). `certified` trains to a certified optimum (the
// committed rows); the two authors' protocols rerun the optimizers that produced the published
// numbers, from the reference code's settings (shared/notes/mpg-java-reference.md §3.4, §4):
//   authors_lbfgs:    L-BFGS on the non-smooth objective, 5 corrections, gradient tolerance 1e-6,
//                     at most 200 evaluations, More-Thuente line search, no value test (thesis
//                     §3.6 names L-BFGS; the reference's first commit used Riso's L-BFGS);
//   authors_adadelta: AdaDelta, rho = 0.95, epsilon = e^-6, 200 passes, both stop tests (relative
//                     average improvement over 10 passes < 1e-4; step < 1e-6 max(1, ||theta||)),
//                     kept as the reference's record keeps them; its last iterate is the result.
// Both start at theta = 0; each game is stopped as the reference stops it (the LP value repeats
// to 1e-8, or 300 actions per player) and the decision is the likeliest pure action.
// A method kind that cannot run a protocol says so when the spec is read.
#pragma once

#include <string>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/training_protocol.hpp"  // TrainingProtocol, its names and parser

namespace mpg {

// The reference code's game stop rule: the restricted game is finished when its LP value repeats
// to within value_precision after a best response is added, or when either player holds
// max_actions actions (not a certificate; the gap at that point is reported, not tested).
struct AuthorsGameRule {
  double value_precision = 1e-8;
  int max_actions = 300;
};

// `options` with the reference's stop rule for a game solved by the double oracle
// (DoubleOracleOptions::StopRule::value_repeat, the one implementation for every MPG): stop when
// the sub-game's LP value repeats at rule.value_precision, when a player holds rule.max_actions
// actions, or when neither best response differs from the LP value at that precision (then
// labelled converged if the gap measured at the stop is within it); no iteration cap. A game we
// solve exactly by another method (closed forms, marginals, the DCG greedy) keeps that solver.
DoubleOracleOptions authors_game_options(DoubleOracleOptions options, const AuthorsGameRule& rule = {});

// The optimizer settings of an authors' protocol (throws for `certified`, which each model
// configures itself).
OptimizerOptions authors_optimizer_options(TrainingProtocol protocol);

}  // namespace mpg
