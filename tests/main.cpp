// Catch2 entry point; every other file in tests/ is one feature's cases, tagged [<feature>].
// Exit status: Catch2's (failed assertions, capped at 255), except that a run in which some case
// called MPG_SKIP (tests/skip.hpp) and none failed exits with 77, which CTest reports as skipped.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "tests/skip.hpp"

int main(int argc, char* argv[]) {
  const int status = Catch::Session().run(argc, argv);
  const auto& skipped = mpg::testing::skipped_cases();
  if (status == 0 && !skipped.empty()) {
    std::cout << skipped.size() << " test case(s) SKIPPED (exit status " << mpg::testing::kSkipExitCode << "):\n";
    for (const std::string& line : skipped) std::cout << "  SKIPPED: " << line << '\n';
    return mpg::testing::kSkipExitCode;
  }
  // 77 failed assertions must not read as a skip.
  return status == mpg::testing::kSkipExitCode ? mpg::testing::kSkipExitCode + 1 : status;
}
