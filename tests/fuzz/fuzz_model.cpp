// libFuzzer target: the binary model file reader (lib/models/binary/binary_mpg.hpp, BinaryModel::parse: the
// JSON of `mpg train`, validated at the door before any prediction). Seed corpus: tests/fuzz/model/.
#include "lib/models/binary/binary_mpg.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    const mpg::BinaryModel model = mpg::BinaryModel::parse(text, "fuzz.json");
    mpg::fuzz::require(model.feature_count >= 0, "feature_count >= 0");
    // Dense: d + 1 weights; version 2: one per listed column (ascending, below d) and the bias.
    if (model.columns.empty()) {
      mpg::fuzz::require(model.theta.size() == model.feature_count + 1, "theta holds feature_count + 1 weights");
    } else {
      mpg::fuzz::require(model.theta.size() == static_cast<long>(model.columns.size()) + 1,
                         "theta holds a weight per listed column and the bias");
      for (std::size_t i = 0; i < model.columns.size(); ++i)
        mpg::fuzz::require(model.columns[i] >= 0 && model.columns[i] < model.feature_count &&
                               (i == 0 || model.columns[i - 1] < model.columns[i]),
                           "listed columns ascending within feature_count");
    }
    mpg::fuzz::require(model.theta.allFinite(), "finite weights");
    // A read model lays out its weights for any test file without reading out of bounds.
    for (const long features : {0L, 1L, 3L})
      mpg::fuzz::require(model.aligned_theta(features).size() == features + 1, "aligned theta");
  });
}
