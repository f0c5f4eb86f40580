// Experiment type "sequence_labeling" (issue 4): not built yet; specs of this type are rejected with a
// clear message instead of running partially.
#include "lib/error.hpp"
#include "lib/harness/common.hpp"

namespace mpg::harness {

void validate_sequence_labeling_spec(const nlohmann::json&, const std::string& path) {
  throw InputError(path, "task: experiments of type 'sequence_labeling' are not implemented yet (issue 4)");
}

RunSummary run_sequence_labeling_experiment(nlohmann::json, const std::string& path, const RunOptions&) {
  throw InputError(path, "task: experiments of type 'sequence_labeling' are not implemented yet (issue 4)");
}

}  // namespace mpg::harness
