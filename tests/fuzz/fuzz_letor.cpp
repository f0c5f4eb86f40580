// libFuzzer target: the LETOR learning-to-rank reader (lib/data/letor.hpp). Seed corpus:
// tests/fuzz/letor/.
#include "lib/data/letor.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    const mpg::LetorData parsed = mpg::parse_letor(text, "fuzz.letor");
    mpg::fuzz::require(!parsed.queries.empty(), "at least one query");
    for (const auto& query : parsed.queries) {
      mpg::fuzz::require(static_cast<std::size_t>(query.features.rows()) == query.relevance.size(), "rows == labels");
      mpg::fuzz::require(query.features.cols() == parsed.features, "every query has d columns");
    }
  });
}
