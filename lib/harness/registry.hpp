// The dataset registry (datasets/registry.json: files, sha256, original URLs, licences, which
// paper version each variant matches) and the one verified way to read a data file of it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpg::harness {

// Where data files live: $MPG_DATA_DIR, else <source dir>/../shared/datasets.
std::string data_directory();
// The registry file: $MPG_REGISTRY, else <source dir>/datasets/registry.json.
std::string registry_path();
// The parsed registry at registry_path() (read once per path).
const nlohmann::json& dataset_registry();

// One data file of the registry, read and verified: its content (decompressed for .gz/.xz) hashes
// to the registry's sha256. A missing file, a mismatch, or a registry entry without a sha256 is
// an mpg::InputError naming the file (and, for a missing hash, the hash the file has).
struct VerifiedFile {
  std::string path;     // under data_directory()
  std::string name;     // as the registry names it, e.g. "adult/a3a"
  std::string sha256;   // of the content
  std::string content;  // decompressed
};
// `file` is a registry file entry {"file", "sha256", ...}; `what` describes it for messages
// ("dataset 'adult' a3a test").
VerifiedFile read_verified_file(const nlohmann::json& file, const std::string& what);

// A dataset's registry entry and the variant chosen by a spec's {"registry", "variant"} object
// (the registry's default_variant when "variant" is absent).
struct RegistryChoice {
  std::string dataset;
  std::string variant;
  const nlohmann::json& entry() const;          // the dataset's entry
  const nlohmann::json& variant_entry() const;  // entry()["variants"][variant]
  // The variant's relation to the papers ("matches"), and whether it is exactly their data
  // (starts with "exact"); tables name a substitute as a cause of a miss.
  std::string fidelity() const;
  bool exact() const { return fidelity().rfind("exact", 0) == 0; }
  // The variant's file `part` ("train", "test", "testa", ...), read and verified.
  VerifiedFile read(const std::string& part) const;
};
RegistryChoice registry_choice(const nlohmann::json& spec_entry);

// A reproducible split: `fraction` of 0..n-1 (rounded) go to the second list, drawn by a
// Fisher-Yates shuffle driven by a 64-bit Mersenne twister with `seed` (no implementation-defined
// distributions, so the split is the same with every standard library).
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> split_indices(std::size_t n, double fraction,
                                                                           std::uint64_t seed);

}  // namespace mpg::harness
