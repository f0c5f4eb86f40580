// Slurm job arrays for the cells of `mpg run` (lib/harness/slurm.hpp).
#include "lib/harness/slurm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"

namespace mpg::harness {

namespace fs = std::filesystem;

std::string submit_slurm_array(const SlurmArray& array) {
  if (array.tasks == 0) throw Error("a Slurm array needs at least one task");
  fs::create_directories(array.directory);
  std::string command;
  for (const auto& word : array.task_command) {
    if (!command.empty()) command += ' ';
    command += shell_quote(word);
  }
  const std::string script = array.directory + "/" + array.log_stem + ".sbatch";
  write_file_atomically(script, "#!/bin/sh\n# Written by mpg run --executor slurm: one cell per array task.\nexec " +
                                    command + "\n");
  // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on "literal" + string&&.
  std::string sbatch = "sbatch --parsable --job-name=";
  sbatch += shell_quote(array.job_name);
  sbatch += fmt::format(" --array=0-{} --cpus-per-task=1 --output=", array.tasks - 1);
  sbatch += shell_quote(array.directory + "/" + array.log_stem + "-%a.log");
  for (const auto& argument : array.sbatch_arguments) {
    sbatch += ' ';
    sbatch += shell_quote(argument);
  }
  sbatch += ' ';
  sbatch += shell_quote(script);
  sbatch += " 2>&1";
  int status = -1;
  const std::string out = command_output(sbatch, &status);
  if (status != 0)
    throw Error("sbatch could not submit the cells (exit status " + std::to_string(status) +
                "): " + excerpt(out, 300) +
                " — is Slurm installed and SLURM_CONF set? scripts/slurm_local.sh starts a one-node cluster");
  const std::string job = out.substr(0, out.find(';'));  // "<id>[;<cluster>]"
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
    throw Error("sbatch printed no job id: " + excerpt(out, 300));
  return job;
}

void wait_for_slurm_job(const std::string& job, double poll_seconds, const std::function<void()>& on_poll) {
  const auto pause = std::chrono::duration<double>(std::max(0.05, poll_seconds));
  for (;;) {
    std::this_thread::sleep_for(pause);
    int status = -1;
    const std::string queued = command_output("squeue -h -r -j " + job + " -o %i 2>/dev/null", &status);
    on_poll();
    // Finished when squeue lists none of its tasks (or no longer knows the job at all).
    if (status != 0 || queued.empty()) return;
  }
}

std::size_t slurm_array_task_id() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  if (!id || !*id) throw Error("--slurm-task is for the tasks of a Slurm job array (SLURM_ARRAY_TASK_ID is not set)");
  char* end = nullptr;
  const unsigned long value = std::strtoul(id, &end, 10);
  if (*end != '\0') throw Error("SLURM_ARRAY_TASK_ID is not a number: " + excerpt(id));
  return value;
}

std::vector<std::size_t> SlurmPhase::run(const std::vector<std::size_t>& indices) const {
  std::vector<std::size_t> pending;
  for (const std::size_t i : indices)
    if (!cache.lookup(key_of(i, phase.c_str()))) pending.push_back(i);
  if (pending.empty()) return pending;

  const std::string directory =
      options.slurm_directory.empty() ? cache.directory() + "/slurm" : options.slurm_directory + "/" + name;
  fs::create_directories(directory);
  const std::string task_file = fs::absolute(directory + "/" + phase + ".tasks.json").string();
  write_file_atomically(task_file, nlohmann::json{{"spec_sha256", spec_sha256},
                                                  {"code", code_stamp},
                                                  {"phase", phase},
                                                  {"cells", pending}}
                                           .dump() +
                                       "\n");
  SlurmArray array;
  array.job_name = "mpg-" + name + "-" + phase;
  array.directory = directory;
  array.log_stem = phase;
  array.tasks = pending.size();
  array.sbatch_arguments = options.sbatch_arguments;
  std::string executable = options.mpg_executable;
  if (executable.empty()) executable = fs::read_symlink("/proc/self/exe").string();
  array.task_command = {executable, "run", fs::absolute(spec_path).string()};
  if (options.quick) array.task_command.push_back("--quick");
  for (const auto& o : options.overrides) array.task_command.insert(array.task_command.end(), {"--set", o});
  array.task_command.insert(array.task_command.end(),
                            {"--results", fs::absolute(results).string(), "--cache", fs::absolute(cache_root).string(),
                             "--threads", "1", "--quiet", "--slurm-task", task_file});
  const std::string job = submit_slurm_array(array);
  auto finished = [&] {
    std::size_t done = 0;
    for (const std::size_t i : pending) done += cache.lookup(key_of(i, phase.c_str())).has_value();
    return done;
  };
  if (options.progress)
    fmt::print(stderr, "[{}] {} phase: {} cells submitted to Slurm as job array {} (logs: {}/{}-<task>.log)\n", name,
               phase, pending.size(), job, directory, phase);
  std::size_t reported = 0;
  wait_for_slurm_job(job, options.slurm_poll_seconds, [&] {
    if (!options.progress) return;
    const std::size_t done = finished();
    if (done != reported) fmt::print(stderr, "[{}] Slurm job {}: {} of {} cells finished\n", name, job, done, pending.size());
    reported = done;
  });
  std::string failures;
  int failed = 0;
  for (std::size_t task = 0; task < pending.size(); ++task) {
    if (cache.lookup(key_of(pending[task], phase.c_str()))) continue;
    if (++failed <= 3) {
      const std::string log = fmt::format("{}/{}-{}.log", directory, phase, task);
      failures += fmt::format("\n  task {} ({}): log {}: {}", task, describe(pending[task]), log, log_tail(log));
    }
  }
  if (failed > 0)
    throw Error(fmt::format("{}: {} of {} cells of Slurm job {} ({} phase) left no result:{}{}", name, failed,
                            pending.size(), job, phase, failures, failed > 3 ? "\n  ..." : ""));
  return pending;
}

void run_slurm_task(const std::string& task_file, const std::string& spec_sha256, const std::string& code_stamp,
                    const CellCache& cache, std::size_t cell_count,
                    const std::function<nlohmann::json(std::size_t, const char*)>& key_of, const FamilyRun& run) {
  const nlohmann::json task = read_json_file(task_file);
  if (task.is_discarded() || !task.is_object() || !task.contains("cells") || !task["cells"].is_array() ||
      !task.contains("phase"))
    throw InputError(task_file, "not a task file of mpg run --executor slurm");
  if (task.value("spec_sha256", "") != spec_sha256)
    throw InputError(task_file, "was written for another version of the spec (its sha256 changed since submission)");
  if (task.value("code", "") != code_stamp)
    throw InputError(task_file, "was written by an mpg built from other code (rebuilt since submission?)");
  const std::size_t index = slurm_array_task_id();
  if (index >= task["cells"].size())
    throw InputError(task_file, fmt::format("has {} tasks, not {}", task["cells"].size(), index + 1));
  const auto cell = task["cells"][index].get<std::size_t>();
  if (cell >= cell_count) throw InputError(task_file, fmt::format("cell {} is not a cell of the spec", cell));
  const std::string phase = task["phase"].get<std::string>();
  if (phase == "validation") {
    cache.get_or_compute(key_of(cell, "validation"), [&] { return run.validate(cell); });
  } else if (phase == "test") {
    const auto validation = cache.lookup(key_of(cell, "validation"));
    if (!validation) throw Error(fmt::format("cell {}: its validation result is not in the cache {}", cell, cache.directory()));
    cache.get_or_compute(key_of(cell, "test"), [&] { return run.test(cell, *validation); });
  } else {
    throw InputError(task_file, "unknown phase " + excerpt(phase));
  }
}

std::string log_tail(const std::string& path, int lines) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return "";
  std::string text;
  try {
    text = read_file(path);
  } catch (const Error&) {
    return "";
  }
  std::vector<std::string> kept;
  for (std::size_t start = 0; start < text.size();) {
    const auto end = std::min(text.find('\n', start), text.size());
    if (end > start) kept.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::string tail;
  for (std::size_t i = kept.size() > static_cast<std::size_t>(lines) ? kept.size() - lines : 0; i < kept.size(); ++i)
    tail += (tail.empty() ? "" : " | ") + kept[i];
  return excerpt(tail, 600);
}

}  // namespace mpg::harness
