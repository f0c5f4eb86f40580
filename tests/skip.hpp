// Honest skips. Catch2 2 has no SKIP: a case that cannot run here (its shared data is absent, no
// git, no Slurm) calls MPG_SKIP(reason), which prints "SKIPPED: <reason>" as a Catch2 warning,
// records the case, and returns from the case. tests/main.cpp then exits with kSkipExitCode when
// some case skipped and none failed; CMakeLists.txt gives every CTest entry SKIP_RETURN_CODE 77,
// so CTest lists the entry as "Not Run (Skipped)" instead of passed.
//
// A skip marks the whole CTest entry skipped, so cases that need shared data are tagged
// [<feature>_shared] (their own entry) rather than [<feature>] where the file has data-free cases too.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace mpg::testing {

// The exit status of mpg_tests when a case skipped and none failed (CTest's SKIP_RETURN_CODE).
constexpr int kSkipExitCode = 77;

// "<case>: <reason>" for every case that skipped in this process.
inline std::vector<std::string>& skipped_cases() {
  static std::vector<std::string> cases;
  return cases;
}

inline void record_skip(const std::string& reason) {
  skipped_cases().push_back(Catch::getResultCapture().getCurrentTestName() + ": " + reason);
}

}  // namespace mpg::testing

// Skips the current case: `reason` is streamed as in WARN(). Returns from the enclosing function,
// so call it from the TEST_CASE body itself (not from a lambda or helper).
#define MPG_SKIP(reason)                                                                   \
  do {                                                                                     \
    const std::string mpg_skip_reason = (Catch::ReusableStringStream() << reason).str();  \
    WARN("SKIPPED: " << mpg_skip_reason);                                                  \
    mpg::testing::record_skip(mpg_skip_reason);                                            \
    return;                                                                                \
  } while (false)
