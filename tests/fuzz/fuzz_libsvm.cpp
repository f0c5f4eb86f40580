// libFuzzer target: the LIBSVM sparse text reader (lib/data/libsvm.hpp), with and without a bias
// column. Seed corpus: tests/fuzz/libsvm/.
#include "lib/data/libsvm.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    for (const double bias : {0.0, 1.0}) {
      mpg::LibsvmReadOptions options;
      options.bias = bias;
      const mpg::LibsvmData parsed = mpg::parse_libsvm(text, "fuzz.libsvm", options);
      mpg::fuzz::require(static_cast<std::size_t>(parsed.features.rows()) == parsed.labels.size(), "rows == labels");
      mpg::fuzz::require(parsed.source_lines.size() == parsed.labels.size(), "one source line per example");
      mpg::fuzz::require(parsed.features.isCompressed(), "compressed matrix");
    }
  });
}
