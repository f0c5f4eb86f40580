// The experiment harness: `mpg run SPEC` expands a JSON spec (experiments/README.md) into cells
// (dataset task x method x grid value), trains each on the training part and scores it on the
// validation part, scores the best grid value per group on the test data, and writes tables of
// ours vs published numbers in Markdown, CSV and JSON. Finished cells are cached on disk, so a
// rerun is instant and an interrupted run resumes; `--check` reruns a spec and compares every
// number with the tables already written.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/harness/registry.hpp"
#include "lib/harness/spec.hpp"
#include "lib/harness/tables.hpp"

namespace mpg::harness {

struct RunOptions {
  bool quick = false;
  std::vector<std::string> overrides;
  int threads = 0;                 // cells in parallel; 0 = all cores
  // Default: results/ beside the spec's directory when that directory is named experiments/ (a
  // checkout's experiments/x.json writes the checkout's results/), else results/ in the working
  // directory (default_results_directory()).
  std::string results_directory;
  std::string cache_directory;     // default <results>/.cache
  // Where the cells run: "local" (a thread pool of `threads`) or "slurm" (each phase's uncached
  // cells as one Slurm job array, `sbatch --array`, every task running one cell of this spec into
  // the shared cache with the same `mpg` binary; the tables are then assembled from the cache).
  std::string executor = "local";
  std::vector<std::string> sbatch_arguments;  // extra sbatch options, e.g. "--partition=debug"
  std::string slurm_directory;                // job scripts and task logs (default <cache>/slurm)
  double slurm_poll_seconds = 2;              // how often the array's progress is checked
  std::string mpg_executable;                 // what the tasks run (default: this process's binary)
  // A Slurm task (set by the job script, not by users): run the cells listed in this task file
  // (phase and cell index per array task) into the cache and write no tables.
  std::string slurm_task_file;
  bool progress = true;            // one line per finished cell on stderr
  double heartbeat_seconds = 300;  // and the running cells after this long without a line (0 = never)
  // The content stamp of the code that computes the cells (cache keys). Empty = family_stamp()
  // of the spec's family in the source tree (what `mpg` passes once its own build stamp matches
  // the tree); `mpg` passes the stamp compiled into it where the tree is not beside it. "unknown"
  // turns the cache off.
  std::string code_stamp;
  // Compare the run's numbers with <results>/<name>[.quick].json instead of writing the tables.
  bool check = false;
  double check_tolerance = 1e-6;  // |old - new| above this is a drift
};

// A number that differs from the tables already written (or a row or value that disappeared).
struct Drift {
  std::string where;  // "rows[ADULT/MPG].ours"
  std::string old_value, new_value;
  double delta = 0.0;  // new - old (0 when a value is missing on one side)
};

struct RunSummary {
  std::string name;
  int cells = 0;          // validation and test cells
  int cached_cells = 0;
  // Exact cells (the one counting rule, lib/harness/tables.hpp): compared, within tolerance, and the
  // misses; `tally` has the cells counted apart too.
  int published_cells = 0;
  int within_tolerance = 0;
  std::vector<std::string> outside;
  Tally tally;
  std::vector<std::string> result_files;
  // --check: the drifted numbers, and what was compared.
  std::vector<Drift> drift;
  std::vector<std::string> added;  // rows or values only the new run has (not a drift)
  std::string checked_against;
};

RunSummary run_experiment(const std::string& spec_path, const RunOptions& options);

// `mpg run SPEC --repeat S` (issue 57): the spec under S split seeds — the family's split seeds
// (Family::split_seeds) + 0, 1, …, S − 1, the first being the spec's own run — each run into
// <cache>/repeat/<name>/seed+<r> (sharing the cell cache), then one table of every compared cell:
// its value per seed and their mean ± sd beside the spec's own number and the published one,
// written as <results>/<name>[.quick].repeat.{md,json}. Throws mpg::Error for S < 1 or a family
// whose split is the papers' fixed files. Returns the files written.
std::vector<std::string> run_repeated(const std::string& spec_path, const RunOptions& options, int repeats);

// What the run that wrote the spec's table in the results directory took: its wall seconds, or
// its cells' recorded times shared among `options.threads` when that is more (a run served from
// the cache was quick); nullopt when there is no such table. For estimates of a run's time left.
std::optional<double> last_run_seconds(const std::string& spec_path, const RunOptions& options);

// The results directory of a run of `spec_path` without --results (see RunOptions).
std::string default_results_directory(const std::string& spec_path);

// The numbers of `fresh` that differ from `old` by more than `tolerance`, and those that
// disappeared; `added` receives what only `fresh` has. Keys holding "seconds" and "revision" are
// not compared (times and code identity); arrays of objects are matched by their text fields (other than "standing").
// A null (how a table writes NaN) matches null or NaN only.
std::vector<Drift> compare_results(const nlohmann::json& old, const nlohmann::json& fresh, double tolerance,
                                   std::vector<std::string>* added = nullptr);

// The spec reference (Markdown) generated from every family's keys and methods' parameter tables:
// the part of experiments/README.md between its GENERATED markers.
std::string spec_reference();

}  // namespace mpg::harness
