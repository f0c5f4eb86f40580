// Shared by the libFuzzer targets of tests/fuzz (built by scripts/fuzz.sh with clang, ASan and
// UBSan). The contract every reader is fuzzed against: any input either parses into a consistent
// result or throws mpg::Error (one clear message); any other exception, a crash, a sanitizer report,
// a leak, a hang or a memory blow-up is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "lib/base/error.hpp"

namespace mpg::fuzz {

// Aborts (a finding) when an invariant of a parsed result does not hold.
inline void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
    std::abort();
  }
}

// Runs `parse` on the input as text; mpg::Error (and only it) is an expected outcome.
template <typename Parse>
int parse_or_reject(const std::uint8_t* data, std::size_t size, Parse parse) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    parse(text);
  } catch (const mpg::Error& error) {
    // A message must stay short whatever the input (issue 28 item 9: at most ~80 characters of
    // a bad token are quoted), so a 4 KB token cannot flood the terminal.
    require(std::string(error.what()).size() < 1000, "an error message longer than 1000 characters");
  }
  return 0;
}

}  // namespace mpg::fuzz
