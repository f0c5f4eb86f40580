// Shared pieces of the experiment-family tests (tests/test_<family>_harness.cpp): an environment
// variable set for a scope (MPG_DATA_DIR, MPG_REGISTRY pointing at a test's own data), a spec
// written into a scratch folder, run options that write there without progress lines, and a
// checker of spec errors.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
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

// The small spec of the harness tests (test_harness*.cpp): logistic regression at two lambdas on
// OPTDIGITS class 0 against a made-up published 0.9.
inline nlohmann::json small_spec() {
  return nlohmann::json::parse(R"({
    "name": "small", "metric": "f1",
    "datasets": {"OPT": {"registry": "optdigits", "one_vs_rest": true, "classes": [0]}},
    "protocol": {"validation_fraction": 0.3333333333, "split_seed": 5},
    "methods": {"LR": {"kind": "logistic_regression", "lambda": [1, 4]}},
    "published": {"LR": {"OPT": 0.9}},
    "tolerance": 0.2
  })");
}

// <dir>/spec.json holding `spec`; returns its path.
inline std::string write_spec(const TempDir& dir, const nlohmann::json& spec) {
  const std::string path = (dir.path() / "spec.json").string();
  mpg::write_file_atomically(path, spec.dump());
  return path;
}

// Results into <dir>/<results>, no progress lines, `threads` cells at a time (0: all cores).
inline mpg::harness::RunOptions quiet_options(const TempDir& dir, int threads = 0,
                                              const std::string& results = "results") {
  mpg::harness::RunOptions options;
  options.results_directory = (dir.path() / results).string();
  options.progress = false;
  options.threads = threads;
  return options;
}

// quiet_options with `threads` cells at a time into <dir>/results<threads>, so that runs with
// different thread counts do not share a results directory (their tables are compared).
inline mpg::harness::RunOptions threaded_options(const TempDir& dir, int threads = 1) {
  return quiet_options(dir, threads, "results" + std::to_string(threads));
}

// A checker of spec errors: rejects(override, fragment) expects loading `spec` with the override
// to fail with a message that names the spec file and contains `fragment`.
inline auto spec_rejections(const TempDir& dir, nlohmann::json spec) {
  return [&dir, spec = std::move(spec)](const std::string& override_text, const std::string& fragment) {
    const std::string path = write_spec(dir, spec);
    INFO(override_text);
    CHECK_THROWS_WITH(mpg::harness::load_spec(path, false, {override_text}),
                      Catch::Matchers::Contains(path) && Catch::Matchers::Contains(fragment));
  };
}

}  // namespace mpg::testing
