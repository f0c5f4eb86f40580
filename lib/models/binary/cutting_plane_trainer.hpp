// Exact training of a binary MPG by cutting planes on the learning objective, with the game's
// double oracle folded in (instead of one fully solved game per objective evaluation).
//
// The objective (thesis Eq. 3.9) is
//     F(theta) = lambda/2 ||theta||^2 - theta . Phi_gold + phi(theta),   phi(theta) = -v(theta),
// with v(theta) the value of the game with potentials psi_i = theta . x_i. For any adversary
// mixed strategy Q and predictor mixed strategy P:
//   lower cut:   phi(theta) >= theta . E_Q[Phi] - max_y_hat E_Q[score(y_hat, Y)]     (for all theta)
//   upper bound: phi(theta) <= -min_y E_P[score(Y_hat, y) - theta . Phi(y)]
// (the predictor can guarantee no more than its best response to Q, and at least what P
// guarantees), both with equality at an equilibrium of the game at theta. Each iteration
//   1. solves the restricted game (generated actions only, LP) at the current theta,
//   2. computes both players' best responses over ALL actions against its strategies: the
//      predictor's gives a cut valid for every theta, the adversary's an upper bound on F(theta),
//      and profitable responses join the restricted game (double oracle),
//   3. moves theta to the minimizer of lambda/2 ||theta||^2 - theta . Phi_gold + max over cuts,
//      whose value is a lower bound on min F (Kelley's method / BMRM, Teo et al. 2010, with the
//      regularizer kept exact and a proximal stabilization; the cuts, masters and bundle center
//      are lib/learn/cut_model.hpp).
// The restricted game is the double oracle's engine (lib/game/restricted_game.hpp).
// It stops when the best upper bound minus the lower bound is <= tolerance: the returned theta
// is then tolerance-optimal for the learning problem itself, a certificate the per-evaluation
// approach (L-BFGS over exactly solved games) cannot give on this non-smooth objective.
#pragma once

#include <functional>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lib/models/binary/binary_mpg.hpp"

namespace mpg {

struct CuttingPlaneOptions {
  double lambda = 0.125;       // must be > 0 (the master needs the strongly convex term)
  double tolerance = 1e-6;     // on upper bound - lower bound of min F
  int max_iterations = 100000; // 0 = no cap
  double max_seconds = 0.0;    // 0 = no cap
  long max_game_solves = 0;    // cap on restricted-game solves over the whole run (0 = none): a
                               // deterministic alternative to max_seconds
  int stall_iterations = 300;  // stop (not converged) when the gap shrank < 0.1% for this long
  bool extra_responses = true; // also add per-size best actions (Game::*_responses)
  // Restricted-game actions unused this many consecutive solves are dropped; an action that is
  // generated again after a drop gets twice the patience (as DoubleOracleOptions::prune_after).
  // 3 instead of a fixed 20 made syn200 training 3.4x and an OPTDIGITS one 11x faster
  // (bench/README.md): the LPs stay near the support size.
  int prune_after = 3;
  // Stop each game as soon as the bracket on F(theta) decides the bundle step (serious or null),
  // instead of at a game gap of 0.1x the predicted decrease. Fewer restricted-game solves where
  // games are hard (syn200: 1,631 instead of 2,296; syn1000 trains at all), but looser cuts and
  // far more iterations where the objective is nearly flat (OPTDIGITS: 4x slower), so off by
  // default (bench/README.md).
  bool on_demand_accuracy = false;
  // Weight of the best-bounding predictor strategy in the smoothed strategy the adversary also
  // best-responds to (DoubleOracleOptions::smoothing; 0 = off).
  double smoothing = 0.0;
  int cut_idle_limit = 50;     // cuts with zero weight this many master solves are dropped
  const LpBackend* lp_backend = nullptr;  // restricted-game LPs; nullptr = GLPK
  // Called after each iteration with (iteration, upper bound, lower bound, restricted game rows,
  // columns).
  std::function<void(int, double, double, int, int)> progress;
  // Called after each restricted-game solve with (iteration, restricted-game solves so far, the
  // game's current gap, the gap it is being solved to): progress inside a long iteration.
  std::function<void(int, long, double, double)> game_progress;
};

// lp_failure: the LP solver found no optimum of a restricted LP (numerical trouble); the bounds of
// the rounds before stand.
enum class CuttingPlaneStatus { converged, no_progress, iteration_limit, time_limit, solve_limit, lp_failure };
std::string to_string(CuttingPlaneStatus status);

struct CuttingPlaneSummary {
  CuttingPlaneStatus status = CuttingPlaneStatus::iteration_limit;
  // Why it stopped, naming the cap, e.g. "not converged: restricted-game solve limit (2500)".
  std::string message;
  int iterations = 0;
  double objective = 0.0;      // best upper bound: F(theta) <= objective for the returned theta
  double lower_bound = 0.0;    // min F >= lower_bound
  double gap = 0.0;            // objective - lower_bound
  double game_gap = 0.0;       // equilibrium gap of the restricted strategies at the returned theta
  int cuts = 0;
  int serious_steps = 0;
  long game_iterations = 0;    // restricted-game solves
  int predictor_actions = 0;   // restricted game size at the end
  int adversary_actions = 0;
  double seconds = 0.0;
  double lp_seconds = 0.0;
  double best_response_seconds = 0.0;
  double master_seconds = 0.0;

  bool converged() const { return status == CuttingPlaneStatus::converged; }
  nlohmann::json to_json() const;
  // "<message> after <n> iterations: objective <F> (certified gap <g>), <cuts> cuts, ...; <s> s (...)".
  std::string report() const;
};

// The fields every certified trainer's summary starts with (converged, status, iterations,
// objective, lower_bound, gap); each adds its own.
nlohmann::json certified_run_json(bool converged, const std::string& status, int iterations, double objective,
                                  double lower_bound, double gap);

// The stop tests of the certified trainers over games (this one and marginal_trainer.hpp), after
// each iteration in this order: certified within the tolerance; no progress (the gap shrank by
// < 0.1% in stall_iterations); the iteration or time cap; the cap on restricted-game solves.
class CertifiedRunStop {
 public:
  struct Caps {
    double tolerance;
    int stall_iterations;
    int max_iterations;
    double max_seconds;
    long max_game_solves;
  };
  explicit CertifiedRunStop(const Caps& caps) : caps_(caps) {}
  // True if the run stops after this iteration; then status and message say why.
  bool stops(int iteration, double gap, double seconds, long game_solves, CuttingPlaneStatus& status,
             std::string& message);

 private:
  Caps caps_;
  double best_gap_ = std::numeric_limits<double>::infinity();
  int last_progress_ = 0;
};

BinaryModel train_binary_mpg_cutting_plane(const BinaryProblem& problem,
                                           const MetricSettings& settings,
                                           const CuttingPlaneOptions& options,
                                           CuttingPlaneSummary* summary = nullptr);

}  // namespace mpg
