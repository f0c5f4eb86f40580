// Certified training of a binary MPG whose game has a solver over marginals (F1:
// lib/metrics/f1_segment_solver.hpp), by the proximal bundle method of lib/learn/cut_model.hpp
// with an inexact oracle: one game per iteration, solved over marginals, warm-started from the
// previous iterate's solve, and only as accurately as the bundle step needs.
//
// The objective (thesis Eq. 3.9, with its gradient Eq. 3.10) is
//     F(theta) = lambda/2 ||theta||^2 - theta . Phi_gold + phi(theta),   phi(theta) = -v(theta),
// v(theta) the value of the game with potentials psi_i = theta . x_i (payoff
// F1(y_hat, y_check) - psi . y_check). The solver returns bounds lower <= v(theta) <= upper,
// where `upper` is what its adversary strategy Q concedes, max_y_hat E_Q[F1(y_hat, Y)] -
// theta . E_Q[Phi], and Q's marginals q_i = P(y_check_i = 1), so E_Q[Phi] = sum_i q_i x_i.
//   cut (valid for every theta', whatever the game's gap): the predictor can get no more than its
//     best response to Q at any theta', so v(theta') <= max_y_hat E_Q[F1] - theta' . E_Q[Phi] and
//     phi(theta') >= theta' . E_Q[Phi] - (upper + theta . E_Q[Phi]):  the subgradient of Eq. 3.10
//     with E_Q[Phi] in place of E_Q*[Phi], offset by the conceded value `upper`, never by `lower`;
//   upper bound at theta: phi(theta) <= -lower, so F(theta) <= lambda/2 ||theta||^2 -
//     theta . Phi_gold - lower, within (upper - lower) of the cut's value there.
// The best upper bound minus the model's lower bound certifies the returned theta.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lib/metrics/f1_marginal_solver.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"

namespace mpg {

struct MarginalTrainSummary;

struct MarginalTrainOptions {
  double lambda = 0.125;        // must be > 0 (the master needs the strongly convex term)
  double tolerance = 1e-6;      // on upper bound - lower bound of min F
  int max_iterations = 100000;  // bundle iterations (one game each); 0 = no cap
  double max_seconds = 0.0;     // 0 = no cap
  long max_game_solves = 0;     // cap on the games' restricted LP solves (rounds over marginals)
                                // over the whole run (0 = none): a deterministic cap
  int stall_iterations = 300;   // stop (not converged) when the gap shrank < 0.1% for this long
  int cut_idle_limit = 50;      // cuts with zero weight this many master solves are dropped
  // Start each game from the previous iterate's action sizes (SegmentWarmStart without its
  // segment boundaries).
  bool warm_start = true;
  // Each game is first played by the double oracle over pure actions for at most this many
  // iterations (0 = never); when it certifies the game's tolerance, its adversary strategy (as
  // marginals) and bounds give the cut, else the solver over marginals plays the game. Neither
  // solver dominates: at syn200's iterates (psi ~ 1e-2, many sizes mixing) the double oracle
  // certifies in ~0.3 s where the solver over marginals needs 5-30 s; at n = 1,000 the reverse.
  // An iteration cap, not a time cap, so the run does not depend on the machine's speed.
  int double_oracle_iterations = 300;
  // The games' solver; its tolerance, max_seconds and max_rounds are set per game.
  MarginalSolverOptions game;
  // Called after each iteration with the summary so far and the summary of its game.
  std::function<void(const MarginalTrainSummary&, const MarginalSolverSummary&)> progress;
};

struct MarginalTrainSummary {
  CuttingPlaneStatus status = CuttingPlaneStatus::iteration_limit;
  std::string message;        // why it stopped, naming the cap
  int iterations = 0;         // games solved (one per bundle iteration)
  double objective = 0.0;     // best upper bound: F(theta) <= objective for the returned theta
  double lower_bound = 0.0;   // min F >= lower_bound
  double gap = 0.0;           // objective - lower_bound
  double game_gap = 0.0;      // upper - lower of the game at the returned theta
  int cuts = 0;
  int serious_steps = 0;
  long game_rounds = 0;       // restricted LP solves over all games (double-oracle iterations included)
  int pure_games = 0;         // games played by the double oracle over pure actions (certified, or at the solve cap)
  bool last_game_by_pure_actions = false;  // the latest game was one of them
  int unconverged_games = 0;  // games that stopped above their tolerance (their cuts stay valid)
  double seconds = 0.0;
  double game_seconds = 0.0;
  double master_seconds = 0.0;

  bool converged() const { return status == CuttingPlaneStatus::converged; }
  nlohmann::json to_json() const;
  // "<message> after <n> iterations: objective <F> (certified gap <g>), ...; <s> s (...)".
  std::string report() const;
};

// Throws mpg::Error for lambda <= 0 or a metric whose game has no solver over marginals
// (has_marginal_solver).
BinaryModel train_binary_mpg_over_marginals(const BinaryProblem& problem, const MetricSettings& settings,
                                            const MarginalTrainOptions& options,
                                            MarginalTrainSummary* summary = nullptr);

}  // namespace mpg
