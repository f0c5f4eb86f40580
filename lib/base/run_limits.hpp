// The caps an iterative solver shares with its caller: a run stopped by one is reported as not
// converged, with the cap named, never as a result.
#pragma once

#include <optional>
#include <string>

namespace mpg {

enum class RunLimit { iterations, seconds };

// The cap reached by `iterations` or `seconds`, iterations first (a cap <= 0 is no cap).
inline std::optional<RunLimit> limit_reached(long iterations, long max_iterations, double seconds, double max_seconds) {
  if (max_iterations > 0 && iterations >= max_iterations) return RunLimit::iterations;
  if (max_seconds > 0.0 && seconds >= max_seconds) return RunLimit::seconds;
  return std::nullopt;
}

// "not converged: iteration limit" / "not converged: time limit".
inline std::string to_string(RunLimit limit) {
  return limit == RunLimit::iterations ? "not converged: iteration limit" : "not converged: time limit";
}

}  // namespace mpg
