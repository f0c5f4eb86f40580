// An F1 model's test (or validation) game solved over marginals (lib/metrics/f1_marginal_solver)
// instead of by double oracle, reported as predict_binary_mpg reports it. A file of its own so
// that only the code that uses it depends on the solver (mpg run keys its cache on that).
#pragma once

#include "lib/models/binary_mpg.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"

namespace mpg {

// The likeliest action of the predictor strategy that guarantees the lower bound (the largest
// probability any mix with its marginals can give it), its F1, E[F1] under that strategy, and
// the game's bounds, gap, status, rounds (as iterations) and time. Throws mpg::Error for a
// model that does not optimize F1.
BinaryPrediction predict_binary_mpg_over_marginals(const BinaryModel& model, const BinaryProblem& problem,
                                                   const MarginalSolverOptions& options);

}  // namespace mpg
