#include "lib/metrics/binary_game.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"
#include "lib/base/limits.hpp"

namespace mpg {

std::string to_string(ExactSolveStatus status) {
  return status == ExactSolveStatus::converged ? "converged" : "not converged: certificate gap above the tolerance";
}

nlohmann::json ExactSolveSummary::to_json() const {
  return {{"converged", converged()},
          {"status", to_string(status)},
          {"method", method},
          {"iterations", iterations},
          {"value", value},
          {"predictor_response_value", predictor_response_value},
          {"adversary_response_value", adversary_response_value},
          {"gap", gap},
          {"seconds", seconds}};
}

std::string ExactSolveSummary::report() const {
  return fmt::format("solved in {}, gap {:.2e}, {:.3f} s", method, gap, seconds);
}

BinaryGame::BinaryGame(std::vector<double> potentials) : potentials_(std::move(potentials)) {
  if (potentials_.empty()) throw Error("a game needs at least one example (n >= 1)");
  for (std::size_t i = 0; i < potentials_.size(); ++i) require_potential_in_range(i, potentials_[i]);
}

double BinaryGame::expected_potential(const MixedStrategy<BinaryAction>& strategy) const {
  double total = 0.0;
  for (std::size_t j = 0; j < strategy.size(); ++j)
    total += strategy.probabilities[j] * potential(strategy.actions[j]);
  return total;
}

bool BinaryGame::is_action(const BinaryAction& action) const {
  for (std::size_t i = 0; i < action.size(); ++i) {
    if (action[i] >= size()) return false;
    if (i > 0 && action[i] <= action[i - 1]) return false;
  }
  return true;
}

}  // namespace mpg
