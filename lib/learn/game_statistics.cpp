#include "lib/learn/game_statistics.hpp"

#include <nlohmann/json.hpp>

namespace mpg {

void GameStatistics::write(nlohmann::json& out) const {
  out["games"] = games;
  out["unconverged_games"] = unconverged_games;
  out["max_gap"] = max_gap;
  out["game_seconds"] = game_seconds;
  out["game_iterations"] = game_iterations;
}

}  // namespace mpg
