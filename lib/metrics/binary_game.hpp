// Common part of binary multivariate games over n examples with additive features
// Phi(x, y) = sum_i y_i x_i, so that psi(y_check) = sum_{i: y_check_i = 1} psi_i with
// psi_i = theta . x_i (thesis §2.2); and the optional hooks through which a metric solves its
// game by a method of its own instead of the double oracle (the models ask the game, never the
// metric's name).
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/game/binary_action.hpp"
#include "lib/game/game.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"

namespace mpg {

struct SegmentWarmStart;  // f1_segment_solver.hpp

enum class ExactSolveStatus { converged, not_certified };
std::string to_string(ExactSolveStatus status);

// Summary of a game solved exactly by the metric's own method (BinaryGame::exact_equilibrium).
struct ExactSolveSummary {
  ExactSolveStatus status = ExactSolveStatus::converged;  // converged: certified gap <= tolerance
  std::string method;                     // e.g. "closed form"
  int iterations = 0;                     // none: one step
  double value = 0.0;                     // the game value
  double predictor_response_value = 0.0;  // max_y_hat E_Q[C'(y_hat, Y)] against the adversary's strategy
  double adversary_response_value = 0.0;  // min_y E_P[C'(Y_hat, y)] against the predictor's strategy
  double gap = 0.0;                       // their difference: the certificate
  double seconds = 0.0;

  bool converged() const { return status == ExactSolveStatus::converged; }
  nlohmann::json to_json() const;
  std::string report() const;  // "solved in closed form, gap 1.1e-16, 0.001 s"
};

// An exact equilibrium of a binary game: the predictor's strategy through its marginals (the
// likeliest action: the largest probability any strategy with these marginals can give it), and
// an optimal adversary strategy.
struct ExactEquilibrium : MarginalStrategy {
  ExactSolveSummary summary;
  MixedStrategy<BinaryAction> adversary;  // support only
};

class BinaryGame : public Game<BinaryAction> {
 public:
  // Throws mpg::Error if potentials is empty or holds a non-finite value.
  explicit BinaryGame(std::vector<double> potentials);

  std::size_t size() const { return potentials_.size(); }
  const std::vector<double>& potentials() const { return potentials_; }
  double potential(const BinaryAction& adversary_action) const override {
    return sum_over(adversary_action, potentials_);
  }
  // E_Q[psi(Y)] over a mixed strategy.
  double expected_potential(const MixedStrategy<BinaryAction>& strategy) const;

  // Hook: the equilibrium by the metric's own exact method (e.g. P@k's closed form with the
  // unrestricted adversary), or nullopt when the game has none (then the double oracle solves
  // it). Its status is converged when the certificate's gap is <= tolerance.
  virtual std::optional<ExactEquilibrium> exact_equilibrium(double /*tolerance*/) const { return std::nullopt; }
  // Hook: the equilibrium by the metric's solver over marginals (F1: f1_segment_solver.hpp),
  // or nullopt when the metric has none. `warm`, if given, starts the solve from a previous one
  // and receives this one's state (training solves games along the optimizer's path).
  virtual std::optional<MarginalSolution> solve_over_marginals(const MarginalSolverOptions& /*options*/,
                                                               SegmentWarmStart* /*warm*/ = nullptr) const {
    return std::nullopt;
  }

 protected:
  bool is_action(const BinaryAction& action) const;  // sorted, distinct, within [0, n)

 private:
  std::vector<double> potentials_;
};

}  // namespace mpg
