#include "lib/learn/sum_of_games.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace mpg {

nlohmann::json SumOfGamesSummary::to_json() const {
  nlohmann::json out = optimizer.to_json();
  write(out);
  out["last_unconverged_games"] = last_unconverged_games;
  out["time_limit"] = time_limit;
  return out;
}

std::string SumOfGamesSummary::report() const {
  return fmt::format("{}; {} games ({} not converged, max gap {:.2e}, {:.2f} s in games)", optimizer.report(), games,
                     unconverged_games, max_gap, game_seconds);
}

}  // namespace mpg
