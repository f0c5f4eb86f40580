// A data directory and a dataset registry of a test's own: sets MPG_DATA_DIR and MPG_REGISTRY for
// the fixture's lifetime, writes data files under <dir>/data and registers them with their sha256
// (or a given wrong one, or none), so a harness test runs a spec on synthetic data.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/temp_dir.hpp"

namespace mpg::testing {

class RegistryFixture {
 public:
  explicit RegistryFixture(const TempDir& dir) : dir_(dir.path()) {
    setenv("MPG_DATA_DIR", (dir_ / "data").string().c_str(), 1);
    setenv("MPG_REGISTRY", (dir_ / "registry.json").string().c_str(), 1);
    std::filesystem::create_directories(dir_ / "data");
  }
  ~RegistryFixture() {
    unsetenv("MPG_DATA_DIR");
    unsetenv("MPG_REGISTRY");
  }
  RegistryFixture(const RegistryFixture&) = delete;
  RegistryFixture& operator=(const RegistryFixture&) = delete;

  // Writes data/<name> and returns its registry entry {"file", "sha256"}: the content's sha256,
  // `sha256` when given, or no hash when `sha256` is an empty string.
  nlohmann::json file(const std::string& name, const std::string& content,
                      const std::optional<std::string>& sha256 = std::nullopt) const {
    const std::filesystem::path path = dir_ / "data" / name;
    std::filesystem::create_directories(path.parent_path());
    write_file_atomically(path.string(), content);
    nlohmann::json entry = {{"file", name}};
    const std::string hash = sha256 ? *sha256 : sha256_hex(content);
    if (!hash.empty()) entry["sha256"] = hash;
    return entry;
  }
  // Writes the registry: {name: entry}.
  void registry(const nlohmann::json& datasets) const {
    write_file_atomically((dir_ / "registry.json").string(), datasets.dump(2));
  }
  // Writes a spec file and returns its path.
  std::string spec(const nlohmann::json& spec, const std::string& name = "spec.json") const {
    const std::string path = (dir_ / name).string();
    write_file_atomically(path, spec.dump());
    return path;
  }

 private:
  std::filesystem::path dir_;
};

// Run options of a harness test: tables under <dir>/<results>, no progress lines.
inline harness::RunOptions quiet_run(const TempDir& dir, const std::string& results = "results", int threads = 1) {
  harness::RunOptions o;
  o.results_directory = (dir.path() / results).string();
  o.progress = false;
  o.threads = threads;
  return o;
}

// Loading the spec at `path` with the override `assignment` fails with a message naming the file
// and holding `fragment` (the key).
inline void check_rejected(const std::string& path, const std::string& assignment, const std::string& fragment) {
  INFO(assignment);
  CHECK_THROWS_WITH(harness::load_spec(path, false, {assignment}),
                    Catch::Matchers::Contains(path) && Catch::Matchers::Contains(fragment));
}

}  // namespace mpg::testing
