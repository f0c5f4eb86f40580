// Pieces every experiment type of the harness shares: spec validation helpers, the code
// revision, the on-disk cell cache, and atomic writing of the result tables. An experiment
// type (binary classification, sequence labeling, ranking) is one file of lib/harness/ that
// validates its spec and turns it into cells and tables with these.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lib/harness/experiment.hpp"

namespace mpg::harness {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t);

// All the code that computes results: lib/, baselines/, cli/, CMakeLists.txt, and the dataset
// registry datasets/registry.json (how each data file is read).
const std::vector<std::string>& all_code_paths();

// Revision of the code at `paths` (git pathspecs relative to `directory`, the source tree: a file,
// a directory meaning everything under it, or a glob such as "baselines/simplex_qp*", whose *
// also matches "/"; a path no commit touched is fine): the abbreviated hash of the last commit
// touching them (git log -1 --format=%h -- <paths>), with "-dirty" if a tracked file among them
// has uncommitted changes; "unknown" without git or when no commit touches them.
// Commits of docs, specs or results do not change it, so they do not invalidate cached cells.
// Ranking and sequence-labeling cells are keyed by the revision of all the code (the default);
// a binary-table cell by that of its method's paths (method_source_paths), so changing a
// baseline does not invalidate MPG cells.
std::string source_revision(const std::vector<std::string>& paths = all_code_paths(),
                            const std::string& directory = MPG_SOURCE_DIR);

// Content stamp of the compiled code as the source tree at `directory` holds it now: the SHA-256
// of the lines "<SHA-256 of the file>  <path>\n" over the files `git ls-files --cached --others
// --exclude-standard -- lib baselines cli CMakeLists.txt` lists, in its order (a tracked file
// missing from the working tree reads "deleted  <path>"); "unknown" without git.
// cmake/source_stamp.cmake computes the same into the mpg binary at build time, so `mpg run` can
// refuse a binary built from other code than the tree whose revision would key its cells.
std::string source_stamp(const std::string& directory = MPG_SOURCE_DIR);

// Spec validation with messages "<spec file>: <dotted key>: <what>" (thrown as InputError).
class SpecValidator {
 public:
  explicit SpecValidator(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const;
  // `object` must be an object whose keys are all in `allowed` and include `required`.
  void keys(const nlohmann::json& object, const std::string& where, const std::set<std::string>& allowed,
            const std::set<std::string>& required = {}) const;
  const nlohmann::json& string(const nlohmann::json& object, const std::string& key,
                               const std::string& where) const;
  // A finite number in [low, high] ((low, high] when open_low).
  double number(const nlohmann::json& object, const std::string& key, const std::string& where, double low,
                double high, bool open_low = false) const;
  // The descriptive keys every spec may have: "title" and "source" strings, "notes" an array of
  // strings.
  void descriptive_keys(const nlohmann::json& spec) const;
  // A non-empty array of finite numbers > 0.
  void positive_grid(const nlohmann::json& object, const std::string& key, const std::string& where) const;
  // `object[key]` must name a dataset of datasets/registry.json (and `variant_key` one of its variants).
  void registry_dataset(const nlohmann::json& object, const std::string& where) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Finished cells on disk: <directory>/<sha256(key)[:24]>.json holding {key, result}. A file
// whose stored key differs (hash collision, or a cell written by other code) is recomputed.
// Files are written atomically, so a killed run leaves only whole cells behind.
class CellCache {
 public:
  explicit CellCache(std::string directory) : directory_(std::move(directory)) {}
  // Returns the cached result for `key`, or computes, stores and returns it; .second = cached.
  std::pair<nlohmann::json, bool> get_or_compute(const nlohmann::json& key,
                                                 const std::function<nlohmann::json()>& compute) const;
  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;
};

// Cells run in parallel: options.threads, or every core when 0.
std::size_t cell_threads(const RunOptions& options);

// <results>/ and <cache>/<spec name> for the options.
std::string results_directory(const RunOptions& options);
// The command-line overrides as they were given, " --set 'a.b=1' --set ..." (empty without any),
// for the "Generated by `mpg run ...`" line of every table: a table made with overrides says so.
std::string overrides_text(const RunOptions& options);
std::string cache_directory(const RunOptions& options, const std::string& spec_name);

// Writes <results>/<name>[.quick].{md,csv,json} atomically; returns the three paths.
std::vector<std::string> write_result_files(const std::string& results_dir, const std::string& name, bool quick,
                                            const std::string& markdown, const std::string& csv,
                                            const nlohmann::json& json);

// ---- Experiment types -----------------------------------------------------------------------
// The spec key "task" selects one (default "binary"); each validates its own keys.

void validate_binary_spec(const nlohmann::json& spec, const std::string& path);
// The source paths (for source_revision) the cells of a binary-table method kind ("mpg",
// "logistic_regression", "ssvm", "ssvm_top_k") depend on: the harness, data loading and scoring
// every kind shares, plus the method's own code. The revision of these paths is in the kind's
// cache keys. Throws mpg::Error for an unknown kind. lib/harness/runner.cpp.
const std::vector<std::string>& method_source_paths(const std::string& kind);
RunSummary run_binary_experiment(nlohmann::json spec, const std::string& path, const RunOptions& options);

// Sequence labeling (CoNLL-2003, CRF vs linear-chain F1 games): lib/harness/sequence_labeling.cpp.
void validate_sequence_labeling_spec(const nlohmann::json& spec, const std::string& path);
RunSummary run_sequence_labeling_experiment(nlohmann::json spec, const std::string& path,
                                            const RunOptions& options);

// Ranking (LETOR, DCG games vs learning-to-rank baselines): lib/harness/ranking.cpp.
void validate_ranking_spec(const nlohmann::json& spec, const std::string& path);
RunSummary run_ranking_experiment(nlohmann::json spec, const std::string& path, const RunOptions& options);

}  // namespace mpg::harness
