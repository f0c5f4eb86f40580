// The F1 game of one file (thesis Eq. 3.11/3.12) solved over marginals instead of pure actions,
// with an exact certificate for the full game. An alternative to the double oracle for F1
// games whose predictor mixes many examples (bench/README, "A solver over marginals").
//
// A mixed strategy is represented by its size distribution r_k and marginals
// p_ik = P(y_i = 1, |y| = k); the expected payoff is bilinear in them. Each round solves the game
// restricted to a few action sizes per player as one LP, each size with a window of free
// entries grown by pricing, then computes both players' best responses over all actions of the
// full game. Their values bound the game value from both sides; the run stops when the gap
// between the bounds is at most the tolerance.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "lib/game/binary_action.hpp"

namespace mpg {

struct MarginalSolverSummary;

// Which solver over marginals plays an F1 game (solve_f1_game_over_marginals):
//   segments:  marginals affine in psi on segments of examples (f1_segment_solver.hpp): exact and
//              fast where many examples mix (theta = 0, tied or small potentials);
//   windows:   one LP variable per example and size in a window of psi-ranks (this file): fast
//              where few examples mix (a learned theta);
//   automatic: segments for segment_rounds rounds, on while they progress if the band of mixing
//              examples is wide (segment_band), then windows with the time left.
enum class MarginalAlgorithm { automatic, segments, windows };
MarginalAlgorithm parse_marginal_algorithm(const std::string& name);  // "auto" | "segments" | "windows"
std::string to_string(MarginalAlgorithm algorithm);

struct MarginalSolverOptions {
  MarginalAlgorithm algorithm = MarginalAlgorithm::automatic;
  int segment_rounds = 6;    // automatic: rounds of the solver by segments before the windows,
  long segment_band = 800;   // unless the predictor then mixes on more than this many ranks:
  int segment_stall_rounds = 10;  // segments go on until their gap has not fallen by 10 % in this many
  double tolerance = 1e-6;   // stop when upper - lower <= tolerance
  double max_seconds = 0.0;  // 0 = no cap; the LP is stopped inside when the time runs out
  int max_rounds = 0;        // 0 = no cap (a deterministic cap, unlike max_seconds)
  long window = 64;          // a new action size k starts with the ranks [k - W, k + W) free
  int sizes_per_round = 1;   // best-response sizes added (or widened) per player and round
  int drop_after = 5;        // a size leaves the LP after this many rounds with zero weight
  // The bounds may come from mixes of each player's strategies of the last this many rounds
  // (0 or 1: from each round's own strategies only). Costs O(n) memory per round kept.
  int mixed_rounds = 12;
  // The adversary also best-responds to the predictor strategy that guarantees `lower` when
  // that is a mix of past rounds (as the double oracle's smoothing does).
  bool respond_to_mix = true;
  // Called after every round with the summary so far; empty = not called.
  std::function<void(const MarginalSolverSummary&)> progress;
};

enum class MarginalSolverStatus { converged, time_limit, round_limit, stalled };
std::string to_string(MarginalSolverStatus status);

struct MarginalSolverSummary {
  MarginalSolverStatus status = MarginalSolverStatus::stalled;
  bool converged() const { return status == MarginalSolverStatus::converged; }
  int rounds = 0;
  // The game value lies in [lower, upper]: lower is what the best predictor strategy found
  // guarantees, upper what the best adversary strategy found concedes.
  double lower = 0.0, upper = 0.0, gap = 0.0;
  double seconds = 0.0;
  double lp_seconds = 0.0;  // in the restricted games: building, simplex and pricing passes
  int lp_rows = 0;                  // of the last restricted game
  int pricing_passes = 0;           // LP solves of the last round (one per pricing pass)
  std::size_t predictor_sizes = 0;  // action sizes with positive weight in the last LP
  std::size_t adversary_sizes = 0;
  long region_first = 0, region_end = 0;  // psi-ranks outside which every layout agrees
  std::size_t mixed_strategies = 0;  // rounds whose predictor strategies the one guaranteeing `lower` mixes
  std::size_t segments = 0;          // solver by segments: segments of examples in the last LP
  MarginalAlgorithm algorithm = MarginalAlgorithm::windows;  // the solver that gave the result

  nlohmann::json to_json() const;
  std::string report() const;  // "converged after 7 rounds over marginals, gap 8.7e-07, 1.670 s"
};

// The predictor strategy that guarantees `lower`: its marginals; the likeliest action is, for
// size k with conditional marginals x = p_k / r_k, the top k by x, with probability
// r_k min(x_(k), 1 - x_(k+1)) (j-th largest), the largest over k and the empty action; and
// expected_score(labels) = E[F1(Y_hat, labels)].
struct MarginalSolution : MarginalStrategy {
  MarginalSolverSummary summary;
  // P(y_check_i = 1) under the adversary strategy that concedes `upper` (input order; an exactly
  // feasible strategy, from either solver): E_Q[Phi] for a learner's cut.
  Eigen::VectorXd adversary_marginals;
};

// Solves the F1 game with potentials psi_i (payoff F1(y_hat, y_check) - psi . y_check). Throws
// mpg::Error for fewer than 2 examples, non-finite potentials or impossible options.
MarginalSolution solve_f1_over_marginals(const std::vector<double>& psi,
                                         const MarginalSolverOptions& options = {});

}  // namespace mpg
