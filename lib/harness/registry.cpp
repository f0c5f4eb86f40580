// Dataset registry, verified reading and reproducible splits (lib/harness/registry.hpp).
#include "lib/harness/registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>

#include "lib/base/error.hpp"
#include "lib/base/source_dir.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

using nlohmann::json;

std::string data_directory() {
  if (const char* dir = std::getenv("MPG_DATA_DIR"); dir && *dir) return dir;
  return (std::filesystem::path(source_directory()) / ".." / "shared" / "datasets").lexically_normal().string();
}

std::string registry_path() {
  if (const char* path = std::getenv("MPG_REGISTRY"); path && *path) return path;
  return source_directory() + "/datasets/registry.json";
}

const json& dataset_registry() {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const json>> parsed;
  const std::string path = registry_path();
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = parsed[path];
  if (!slot) {
    json registry = read_json_file(path);
    if (registry.is_discarded() || !registry.is_object()) throw InputError(path, "not a JSON object");
    for (const auto& [name, entry] : registry.items())
      if (!entry.is_object() || !entry.contains("variants") || !entry["variants"].is_object() ||
          !entry.contains("format"))
        throw InputError(path, name + ": a dataset needs \"format\" and an object \"variants\"");
    slot = std::make_unique<const json>(std::move(registry));
  }
  return *slot;
}

VerifiedFile read_verified_file(const json& file, const std::string& what) {
  VerifiedFile out;
  if (!file.is_object() || !file.contains("file") || !file["file"].is_string())
    throw InputError(registry_path(), what + ": expected a file entry {\"file\", \"sha256\", ...}");
  out.name = file["file"].get<std::string>();
  out.path = (std::filesystem::path(data_directory()) / out.name).string();
  if (!std::filesystem::exists(out.path))
    throw InputError(out.path, "missing data file of " + what +
                                   "; set MPG_DATA_DIR or run scripts/fetch_data.sh (datasets/README.md)");
  // The hash covers the content as read (decompressed for .gz/.xz), so a re-compressed copy of
  // the same data still verifies.
  out.content = read_file(out.path);
  out.sha256 = sha256_hex(out.content);
  if (!file.contains("sha256") || !file["sha256"].is_string())
    throw InputError(out.path, "the registry (" + registry_path() + ") has no sha256 for this file of " + what +
                                   "; its content hashes to " + out.sha256 +
                                   ": check the file's provenance and add that hash to the registry");
  const std::string expected = file["sha256"].get<std::string>();
  if (out.sha256 != expected)
    throw InputError(out.path, "sha256 mismatch: expected " + expected + ", got " + out.sha256 +
                                   " (wrong or corrupt file for " + what + ")");
  return out;
}

const json& RegistryChoice::entry() const { return dataset_registry().at(dataset); }

const json& RegistryChoice::variant_entry() const { return entry().at("variants").at(variant); }

std::string RegistryChoice::fidelity() const { return variant_entry().value("matches", std::string()); }

VerifiedFile RegistryChoice::read(const std::string& part) const {
  const std::string what = "dataset '" + dataset + "' (" + variant + ", " + part + ")";
  if (!variant_entry().contains(part))
    throw InputError(registry_path(), what + ": the variant has no file '" + part + "'");
  return read_verified_file(variant_entry()[part], what);
}

RegistryChoice registry_choice(const json& spec_entry) {
  RegistryChoice choice;
  choice.dataset = spec_entry.at("registry").get<std::string>();
  const json& entry = dataset_registry().at(choice.dataset);
  choice.variant = spec_entry.contains("variant") ? spec_entry["variant"].get<std::string>()
                                                  : entry.value("default_variant", std::string());
  if (!entry["variants"].contains(choice.variant))
    throw InputError(registry_path(), choice.dataset + ": no variant '" + choice.variant + "'");
  return choice;
}

std::pair<std::vector<std::size_t>, std::vector<std::size_t>> split_indices(std::size_t n, double fraction,
                                                                           std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 engine(seed);
  // Uniform integer in [0, bound] by rejection (no modulo bias).
  auto uniform = [&engine](std::uint64_t bound) {
    if (bound == 0) return std::uint64_t{0};
    std::uint64_t mask = bound;
    for (int s = 1; s < 64; s <<= 1) mask |= mask >> s;
    for (;;) {
      const std::uint64_t x = engine() & mask;
      if (x <= bound) return x;
    }
  };
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform(i - 1)]);
  const auto held_out = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
  std::vector<std::size_t> second(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(held_out));
  std::vector<std::size_t> first(order.begin() + static_cast<std::ptrdiff_t>(held_out), order.end());
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  return {std::move(first), std::move(second)};
}

}  // namespace mpg::harness
