// Fixtures of the experiment-family tests (tests/test_<family>_harness.cpp): an environment
// variable set for a scope (MPG_DATA_DIR, MPG_REGISTRY), a spec written into a scratch folder, and
// the check that a spec override is rejected with a message naming the spec file and the key.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/io.hpp"
#include "lib/harness/spec.hpp"
#include "tests/temp_dir.hpp"

namespace mpg::testing {

// Sets an environment variable for the lifetime of the object.
struct ScopedEnvironment {
  ScopedEnvironment(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnvironment() { unsetenv(name_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
  const char* name_;
};

// Writes `spec` to <dir>/spec.json and returns its path.
inline std::string write_spec(const TempDir& dir, const nlohmann::json& spec) {
  const std::string path = (dir.path() / "spec.json").string();
  write_file_atomically(path, spec.dump());
  return path;
}

// Loading `spec` with the override `override_text` fails with a message naming the spec file and
// holding `fragment`.
inline void check_rejected(const TempDir& dir, const nlohmann::json& spec, const std::string& override_text,
                           const std::string& fragment) {
  const std::string path = write_spec(dir, spec);
  INFO(override_text);
  CHECK_THROWS_WITH(harness::load_spec(path, false, {override_text}),
                    Catch::Matchers::Contains(path) && Catch::Matchers::Contains(fragment));
}

}  // namespace mpg::testing
