// The Slurm executor of `mpg run --executor slurm` (lib/harness/experiment.hpp): a phase's cells
// as one job array (`sbatch --array=0-(n-1)`), each array task running `mpg run ... --slurm-task
// FILE` for one cell into the shared cell cache; the pipeline waits for the array and assembles
// the tables from the cache as for a local run.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/harness/cache.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/family.hpp"

namespace mpg::harness {

struct SlurmArray {
  std::string job_name;
  std::string directory;                      // the job script and the tasks' logs
  std::string log_stem;                       // logs: <directory>/<log_stem>-<task>.log
  std::vector<std::string> task_command;      // one task's command line (it reads SLURM_ARRAY_TASK_ID)
  std::vector<std::string> sbatch_arguments;  // extra options (partition, account, time limit, ...)
  std::size_t tasks = 0;
};

// Submits the array with sbatch; returns the job id. Throws mpg::Error with sbatch's message
// (no Slurm, no controller, a rejected option).
std::string submit_slurm_array(const SlurmArray& array);

// Polls squeue every `poll_seconds` until no task of `job` is pending or running, calling
// `on_poll` after every poll (progress lines).
void wait_for_slurm_job(const std::string& job, double poll_seconds, const std::function<void()>& on_poll);

// The array task index of this process ($SLURM_ARRAY_TASK_ID); throws outside an array task.
std::size_t slurm_array_task_id();

// One phase ("validation" or "test") of a spec's run on Slurm.
struct SlurmPhase {
  std::string name, phase, spec_path, spec_sha256, code_stamp, cache_root, results;
  const CellCache& cache;
  const RunOptions& options;
  std::function<nlohmann::json(std::size_t, const char*)> key_of;  // cell index, phase -> cache key
  std::function<std::string(std::size_t)> describe;                 // cell index -> progress text
  // Runs the cells of `indices` not yet in the cache as one job array and waits for it; returns the
  // cells it ran. Throws mpg::Error naming the tasks that left no result and the ends of their logs.
  std::vector<std::size_t> run(const std::vector<std::size_t>& indices) const;
};

// The body of one array task (`mpg run SPEC ... --slurm-task FILE`): the cell the task file lists
// for $SLURM_ARRAY_TASK_ID, computed into the cache (the test phase reads the cell's validation
// result from the cache). Refuses a task file written for another spec text or other code.
void run_slurm_task(const std::string& task_file, const std::string& spec_sha256, const std::string& code_stamp,
                    const CellCache& cache, std::size_t cell_count,
                    const std::function<nlohmann::json(std::size_t, const char*)>& key_of, const FamilyRun& run);

// The last `lines` lines of a task's log ("" if there is none), for error messages.
std::string log_tail(const std::string& path, int lines = 5);

}  // namespace mpg::harness
