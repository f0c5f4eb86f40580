// libFuzzer target: the optdigits CSV reader (lib/data/optdigits.hpp). Seed corpus:
// tests/fuzz/optdigits/.
#include "lib/data/optdigits.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    const mpg::LibsvmData parsed = mpg::parse_optdigits(text, "fuzz.tra");
    mpg::fuzz::require(static_cast<std::size_t>(parsed.features.rows()) == parsed.labels.size(), "rows == labels");
    mpg::fuzz::require(parsed.features.cols() == 64, "64 feature columns");
    for (const double label : parsed.labels) mpg::fuzz::require(label >= 0 && label <= 9, "a class in 0..9");
  });
}
