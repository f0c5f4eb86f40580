// Statistics of the games a learner solves while it trains: how many, how many a cap stopped
// (equilibrium gap above the tolerance), the largest gap, the time in games and the solvers'
// iterations. Training summaries report them beside the optimizer's summary.
#pragma once

#include <algorithm>
#include <nlohmann/json_fwd.hpp>

namespace mpg {

struct GameStatistics {
  long games = 0;
  long unconverged_games = 0;
  double max_gap = 0.0;
  double game_seconds = 0.0;  // summed over games (CPU time across threads)
  long game_iterations = 0;   // double-oracle iterations (solvers without iterations add 0)

  // Records one solved game.
  void record(bool converged, double gap, double seconds, long iterations = 0) {
    ++games;
    if (!converged) ++unconverged_games;
    max_gap = std::max(max_gap, gap);
    game_seconds += seconds;
    game_iterations += iterations;
  }
  // Adds the fields to a JSON object.
  void write(nlohmann::json& out) const;
};

}  // namespace mpg
