#include "lib/game/double_oracle.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace mpg {

std::string to_string(DoubleOracleStatus status) {
  switch (status) {
    case DoubleOracleStatus::converged: return "converged";
    case DoubleOracleStatus::iteration_limit: return "not converged: iteration limit";
    case DoubleOracleStatus::action_limit: return "not converged: action limit";
    case DoubleOracleStatus::time_limit: return "not converged: time limit";
    case DoubleOracleStatus::stalled:
      return "not converged: both best responses already generated (LP accuracy)";
    case DoubleOracleStatus::inconsistent:
      return "failed: negative gap beyond the tolerance (rounding swamped the payoffs)";
    case DoubleOracleStatus::value_repeated:
      return "not converged: the sub-game value repeated (the reference code's stop rule)";
  }
  return "unknown";
}

nlohmann::json DoubleOracleSummary::to_json() const {
  return {{"converged", converged()},
          {"status", to_string(status)},
          {"iterations", iterations},
          {"value", value},
          {"gap", gap},
          {"predictor_response_value", predictor_response_value},
          {"adversary_response_value", adversary_response_value},
          {"generated_actions", {predictor_actions, adversary_actions}},
          {"pruned_actions", pruned_actions},
          {"returned_actions", returned_actions},
          {"supports", {predictor_support, adversary_support}},
          {"seconds", seconds},
          {"lp_seconds", lp_seconds},
          {"best_response_seconds", best_response_seconds}};
}

std::string DoubleOracleSummary::report() const {
  return fmt::format("{} after {} iterations, gap {:.2e}, {:.3f} s", to_string(status), iterations, gap, seconds);
}

}  // namespace mpg
