// The experiment harness: a JSON spec (experiments/README.md) expands into cells
// (dataset task x method x hyper-parameter), each cell trains on the training part of a split
// and is scored on the validation part; the best grid point per (dataset task, method) is then
// scored on the test file; tables of ours vs published numbers come out in Markdown, CSV and
// JSON. Finished cells are cached on disk, so a rerun is instant and an interrupted run resumes.
#pragma once

#include <Eigen/SparseCore>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpg::harness {

// ---- Specs -----------------------------------------------------------------------------------

// Reads, overrides and validates a spec. `overrides` are "dotted.path=value" strings applied
// after the "quick" section (when quick is set); a value is parsed as JSON if it can be, else
// taken as a string. Throws mpg::InputError naming the file (and the offending key) on unknown
// keys, wrong types or impossible values.
nlohmann::json load_spec(const std::string& path, bool quick,
                         const std::vector<std::string>& overrides = {});

// ---- Data ------------------------------------------------------------------------------------

// Where data files live: $MPG_DATA_DIR, else <source dir>/../shared/datasets.
std::string data_directory();
// datasets/registry.json of the source tree.
const nlohmann::json& dataset_registry();

struct DataFile {
  std::string path;
  std::string sha256;
  Eigen::SparseMatrix<double, Eigen::RowMajor> features;  // n x (d + 1), bias 1 last
  std::vector<double> labels;                             // raw labels
};

// Loads the "train" or "test" file of a registry dataset variant, verifying its sha256
// (InputError naming the file on a mismatch). Feature count: the registry's, else the file's.
DataFile load_registry_file(const std::string& dataset, const std::string& variant,
                            const std::string& part);

// A reproducible split: `fraction` of 0..n-1 (rounded) go to the second list, drawn by a
// Fisher-Yates shuffle driven by a 64-bit Mersenne twister with `seed` (no
// implementation-defined distributions, so the split is the same with every standard library).
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> split_indices(std::size_t n,
                                                                           double fraction,
                                                                           std::uint64_t seed);

// ---- Running ---------------------------------------------------------------------------------

struct RunOptions {
  bool quick = false;
  std::vector<std::string> overrides;
  int threads = 0;                  // 0 = all cores
  std::string results_directory;    // default <source dir>/results
  std::string cache_directory;      // default <results>/.cache
  bool progress = true;             // one line per finished cell on stderr
  double heartbeat_seconds = 300;   // and the running cells after this long without a line (0 = never)
};

struct RunSummary {
  std::string name;
  int cells = 0;
  int cached_cells = 0;
  int published_cells = 0;
  int within_tolerance = 0;
  std::vector<std::string> outside;  // "dataset/method: ours vs published (delta)"
  std::vector<std::string> result_files;
};

RunSummary run_experiment(const std::string& spec_path, const RunOptions& options);

}  // namespace mpg::harness
