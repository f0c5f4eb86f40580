// The end of one round of an F1 solver over marginals (f1_marginal_solver.cpp, windows;
// f1_segment_solver.cpp, segments) and the bounds from mixes of past rounds' strategies, shared
// by both: included by their .cpp files only.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"

namespace mpg {

// Marks the summary converged if its gap is within the tolerance, reports it, and says whether
// the run stops here: converged, out of time (max_seconds; infinity = no cap) or at max_rounds
// (status set accordingly).
inline bool round_ends_run(MarginalSolverSummary& summary, const MarginalSolverOptions& options, double max_seconds) {
  // A gap below -tolerance (lower bound above the upper) is rounding, never convergence: stalled.
  if (summary.gap < -options.tolerance) {
    summary.status = MarginalSolverStatus::stalled;
    return true;
  }
  if (summary.gap <= options.tolerance) summary.status = MarginalSolverStatus::converged;
  if (options.progress) options.progress(summary);
  if (summary.converged()) return true;
  if (summary.seconds > max_seconds) {
    summary.status = MarginalSolverStatus::time_limit;
    return true;
  }
  if (options.max_rounds > 0 && summary.rounds >= options.max_rounds) {
    summary.status = MarginalSolverStatus::round_limit;
    return true;
  }
  return false;
}

// The mix of past strategies whose bound is best: with v_t(s) the opponent's value at size s
// against strategy t, an adversary mix minimises max_s sum_t w_t v_t(s) (an upper bound on the
// game value, since the predictor's best value is convex in the adversary's strategy); a
// predictor mix maximises min_s sum_t w_t v_t(s) (a lower bound: concave). Each is a matrix
// game (past strategies against sizes), solved over a growing set of sizes until the best
// response to the mix is among them. Returns the weights and the bound, evaluated from the
// weights over all sizes (so the small LP's tolerances do not weaken it).
struct Mixture {
  std::vector<double> weights;
  double bound;
};
enum class MixFor { adversary, predictor };
inline Mixture best_mixture(const std::vector<std::vector<double>>& values, MixFor player) {
  const std::size_t T = values.size(), N = values.front().size();
  const double sense = player == MixFor::adversary ? 1.0 : -1.0;  // the opponent maximises sense * value
  auto opponent_best = [&](const std::vector<double>& w) {
    std::size_t best = 0;
    double best_value = -INFINITY;
    for (std::size_t s = 0; s < N; ++s) {
      double x = 0.0;
      for (std::size_t t = 0; t < T; ++t) x += w[t] * values[t][s];
      if (sense * x > best_value) {
        best_value = sense * x;
        best = s;
      }
    }
    return std::make_pair(best, sense * best_value);
  };
  std::vector<std::size_t> sizes;
  for (std::size_t t = 0; t < T; ++t) {
    std::vector<double> unit(T, 0.0);
    unit[t] = 1.0;
    const std::size_t s = opponent_best(unit).first;
    if (std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
  }
  Mixture best{std::vector<double>(T, 1.0 / static_cast<double>(T)), sense * INFINITY};
  for (int iteration = 0; iteration < 32; ++iteration) {
    // Payoffs scaled to [0, 1] for the LP; rows maximise, so the adversary's mix is the column player.
    double low = INFINITY, high = -INFINITY;
    for (std::size_t s : sizes)
      for (std::size_t t = 0; t < T; ++t) {
        low = std::min(low, values[t][s]);
        high = std::max(high, values[t][s]);
      }
    const double unit = high > low ? 1.0 / (high - low) : 0.0;
    const Eigen::Index R = static_cast<Eigen::Index>(player == MixFor::adversary ? sizes.size() : T);
    const Eigen::Index C = static_cast<Eigen::Index>(player == MixFor::adversary ? T : sizes.size());
    Eigen::MatrixXd payoff(R, C);
    for (std::size_t j = 0; j < sizes.size(); ++j)
      for (std::size_t t = 0; t < T; ++t) {
        const double x = (values[t][sizes[j]] - low) * unit;
        if (player == MixFor::adversary) payoff(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(t)) = x;
        else payoff(static_cast<Eigen::Index>(t), static_cast<Eigen::Index>(j)) = x;
      }
    MatrixGameSolution game;
    try {
      game = solve_matrix_game(payoff, default_lp_backend());
    } catch (const SolverError&) {
      break;  // keep the best mix so far (none: an infinite bound, which the caller ignores)
    }
    const Eigen::VectorXd& mix_strategy = player == MixFor::adversary ? game.column_strategy : game.row_strategy;
    std::vector<double> w(T);
    double total = 0.0;
    for (std::size_t t = 0; t < T; ++t) total += w[t] = std::max(0.0, mix_strategy[static_cast<Eigen::Index>(t)]);
    if (!(total > 0.0)) break;
    for (double& x : w) x /= total;
    const auto [size, bound] = opponent_best(w);
    if (sense * bound < sense * best.bound) best = {w, bound};
    if (std::find(sizes.begin(), sizes.end(), size) != sizes.end()) break;
    sizes.push_back(size);
  }
  return best;
}

}  // namespace mpg
