// libFuzzer target: the experiment spec loader (lib/harness/spec.hpp: JSON, the quick merge patch,
// validation of the common keys, the methods' parameter tables and every family's keys against the
// repository's datasets/registry.json; no data is read). Seed corpus: tests/fuzz/spec/ (the
// committed specs of experiments/ and small variants).
#include "lib/harness/spec.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    for (const bool quick : {false, true}) {
      const nlohmann::json spec = mpg::harness::parse_spec(text, "fuzz.json", quick);
      mpg::fuzz::require(spec.is_object() && spec.contains("name") && spec["name"].is_string(), "a named spec");
    }
  });
}
