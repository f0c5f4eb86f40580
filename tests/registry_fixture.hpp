// A data directory and a dataset registry of a test's own (MPG_DATA_DIR and MPG_REGISTRY set for
// the fixture's lifetime, tests/harness_fixtures.hpp): data files written under <dir>/data and
// registered with their sha256 (or a given wrong one, or none), so a harness test runs a spec on
// synthetic data.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/harness_fixtures.hpp"
#include "tests/temp_dir.hpp"

namespace mpg::testing {

class RegistryFixture {
 public:
  explicit RegistryFixture(const TempDir& dir)
      : dir_(dir.path()),
        data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    std::filesystem::create_directories(dir_ / "data");
  }

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

 private:
  std::filesystem::path dir_;
  ScopedEnvironment data_, registry_;
};

// Run options of a harness test: tables under <dir>/<results>, no progress lines.
inline harness::RunOptions quiet_run(const TempDir& dir, const std::string& results = "results", int threads = 1) {
  harness::RunOptions o;
  o.results_directory = (dir.path() / results).string();
  o.progress = false;
  o.threads = threads;
  return o;
}

}  // namespace mpg::testing
