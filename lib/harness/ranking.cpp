// Experiment type "ranking" (issue 5): not built yet; specs of this type are rejected with a
// clear message instead of running partially.
#include "lib/error.hpp"
#include "lib/harness/common.hpp"

namespace mpg::harness {

void validate_ranking_spec(const nlohmann::json&, const std::string& path) {
  throw InputError(path, "task: experiments of type 'ranking' are not implemented yet (issue 5)");
}

RunSummary run_ranking_experiment(nlohmann::json, const std::string& path, const RunOptions&) {
  throw InputError(path, "task: experiments of type 'ranking' are not implemented yet (issue 5)");
}

}  // namespace mpg::harness
