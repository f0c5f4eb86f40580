// The F1 game of one file (thesis Eq. 3.11/3.12) solved over marginals that are affine in the
// potential on segments of examples, with an exact certificate for the full game: the default
// F1 game solver of `mpg predict`, `mpg solve-game`, the binary harness and F1 training.
//
// Why segments: examples with equal potentials are exchangeable, so some equilibrium gives them
// equal marginals; and where both players mix, the KKT conditions of the game over marginals
// make the predictor's marginals P(y_i = 1, |y| = k) affine in psi_i and the adversary's equal
// (bench/README, "F1 games at every theta"). So each player's strategy at each action size is
// written, on each segment s of examples (consecutive in psi order), as c_s + d_s t_i with
// t_i = (psi_i - mean_s) / scale_s in [-1, 1]: a few LP variables per segment, not one per
// example. At theta = 0 one segment holds every example and the game is the (n+1) x (n+1) game
// over sizes. The restricted game (a few sizes per player, the segments so far) is one LP; each
// round both players' best responses over all 2^n actions of the full game are computed against
// its strategies (exact bounds: lower = what the predictor strategy guarantees, upper = what the
// adversary strategy concedes), the best sizes join, and the next segments are cut at the band
// edges of this round's strategies (where the best response of each size in use changes), with
// each size fixed all in or all out on the segments outside its band (docs/methods.md). A
// restricted game that holds both best responses has the full game's value, so the bounds meet.
#pragma once

#include <vector>

#include "lib/metrics/f1_marginal_solver.hpp"

namespace mpg {

// Sizes and segment boundaries of a previous solve, to start the next one from (training
// solves games along the optimizer's path, where theta moves little between calls).
struct SegmentWarmStart {
  std::vector<long> predictor_sizes, adversary_sizes;
  std::vector<long> cuts;  // segment boundaries, as ranks in psi order (descending psi)
};

// Solves the F1 game with potentials psi_i (payoff F1(y_hat, y_check) - psi . y_check). Uses
// options.tolerance, max_seconds, max_rounds, sizes_per_round, drop_after and progress. The
// solution's adversary_marginals are those of the adversary strategy that concedes `upper`.
// If warm is given it is read as a start and overwritten with this solve's sizes and cuts.
// Throws mpg::Error for fewer than 2 examples, non-finite potentials or impossible options.
MarginalSolution solve_f1_by_segments(const std::vector<double>& psi, const MarginalSolverOptions& options = {},
                                      SegmentWarmStart* warm = nullptr);

// The F1 game solved over marginals by options.algorithm (MarginalSolverOptions). automatic runs
// the solver by segments for up to options.segment_rounds rounds and, if it has not converged,
// the solver over windows with the time left; the result is the converged one, else the one with
// the smaller gap. warm (segments only) as above.
MarginalSolution solve_f1_game_over_marginals(const std::vector<double>& psi, const MarginalSolverOptions& options,
                                              SegmentWarmStart* warm = nullptr);

}  // namespace mpg
