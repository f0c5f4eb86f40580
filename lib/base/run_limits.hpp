// The caps an iterative solver shares with its caller: a run stopped by one is reported as not
// converged, with the cap named, never as a result.
#pragma once

#include <optional>
#include <string>

namespace mpg {

// The reason to stop if `iterations` or `seconds` reached its cap (a cap <= 0 is no cap).
inline std::optional<std::string> limit_reached(long iterations, long max_iterations, double seconds,
                                                double max_seconds) {
  if (max_iterations > 0 && iterations >= max_iterations) return "not converged: iteration limit";
  if (max_seconds > 0.0 && seconds >= max_seconds) return "not converged: time limit";
  return std::nullopt;
}

}  // namespace mpg
