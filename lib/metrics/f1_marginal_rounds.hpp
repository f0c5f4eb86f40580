// The end of one round of an F1 solver over marginals (f1_marginal_solver.cpp, windows;
// f1_segment_solver.cpp, segments), shared by both: included by their .cpp files only.
#pragma once

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

}  // namespace mpg
