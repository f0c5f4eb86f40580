// Dataset registry, verified loading and reproducible splits for the harness.
#include <cstdlib>
#include <filesystem>
#include <random>

#include "lib/base/error.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/base/io.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/data/optdigits.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

std::string data_directory() {
  if (const char* dir = std::getenv("MPG_DATA_DIR"); dir && *dir) return dir;
  return (std::filesystem::path(MPG_SOURCE_DIR) / ".." / "shared" / "datasets").lexically_normal().string();
}

const nlohmann::json& dataset_registry() {
  static const nlohmann::json registry = [] {
    const std::string path = std::string(MPG_SOURCE_DIR) + "/datasets/registry.json";
    auto parsed = nlohmann::json::parse(read_file(path), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) throw InputError(path, "not a JSON object");
    return parsed;
  }();
  return registry;
}

DataFile load_registry_file(const std::string& dataset, const std::string& variant,
                            const std::string& part) {
  const nlohmann::json& entry = dataset_registry().at(dataset);
  const nlohmann::json& file = entry.at("variants").at(variant).at(part);
  DataFile data;
  data.path = (std::filesystem::path(data_directory()) / file.at("file").get<std::string>()).string();
  if (!std::filesystem::exists(data.path))
    throw InputError(data.path, "missing data file of dataset '" + dataset + "' (" + variant +
                                    ", " + part + "); set MPG_DATA_DIR or run scripts/fetch_data.sh");
  // The hash covers the content as read (decompressed for .gz files), so a re-compressed copy
  // of the same data still verifies.
  data.sha256 = sha256_hex(read_file(data.path));
  const std::string expected = file.at("sha256").get<std::string>();
  if (data.sha256 != expected)
    throw InputError(data.path, "sha256 mismatch: expected " + expected + ", got " + data.sha256 +
                                    " (wrong or corrupt file for dataset '" + dataset + "' " +
                                    variant + " " + part + ")");
  LibsvmReadOptions options;
  options.bias = 1.0;
  const std::string format = entry.at("format").get<std::string>();
  LibsvmData raw;
  if (format == "libsvm") {
    options.min_features = entry.value("features", 0L);
    raw = read_libsvm(data.path, options);
  } else if (format == "optdigits") {
    raw = read_optdigits(data.path, options);
  } else {
    throw Error("datasets/registry.json: dataset '" + dataset + "' has unknown format '" + format + "'");
  }
  data.features = std::move(raw.features);
  data.labels = std::move(raw.labels);
  return data;
}

std::pair<std::vector<std::size_t>, std::vector<std::size_t>> split_indices(std::size_t n,
                                                                           double fraction,
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
