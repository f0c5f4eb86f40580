// mpg run: expands an experiment spec into cells, runs them (cached), writes the tables, or with
// --check compares every number with the tables already written.
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/family.hpp"

namespace mpg::cli {

namespace {

// The families and their method kinds with their parameters, for `mpg run --help`.
std::string methods_help() {
  std::string text = "Experiment families (spec key \"task\") and their method kinds (spec \"methods\"), each "
                     "with its parameters (defaults in brackets; `mpg run --spec-reference` prints the full "
                     "reference):\n";
  for (const harness::Family* family : harness::families()) {
    text += "  " + family->name() + "\n";
    for (const auto& m : family->methods()) {
      std::string parameters;
      for (const auto& p : m.parameters.entries()) {
        parameters += (parameters.empty() ? "" : ", ") + p.name;
        if (!p.required()) parameters += " [" + p.default_text() + "]";
      }
      text += fmt::format("    {}: {}\n", m.kind, parameters);
    }
  }
  return text;
}

}  // namespace

Action add_run(CLI::App& app) {
  struct Settings {
    std::vector<std::string> specs;
    harness::RunOptions options;
    bool quiet = false;
    bool reference = false;
    bool last_time = false;
    int repeat = 0;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "run", "Reproduce a paper table from an experiment spec (experiments/README.md): runs every "
             "dataset x method x hyper-parameter cell (finished cells are cached, so a rerun is "
             "instant and an interrupted run resumes) and writes results/<name>.{md,csv,json}");
  command->add_option("spec", s->specs, "Experiment spec(s), e.g. experiments/table8_f1.json")->check(CLI::ExistingFile);
  command->add_flag("--quick", s->options.quick, "Apply the spec's reduced 'quick' grid; writes results/<name>.quick.*");
  command->add_option("--set", s->options.overrides,
                      "Override a spec value without editing it, e.g. "
                      "--set datasets.ADULT.variant=a4a --set protocol.split_seed=7 "
                      "--set 'methods.MPG.lambda=[0.5,1]' (repeatable); key=null removes the key "
                      "(a dataset or method with its published numbers); tables name the overrides")
      ->allow_extra_args(false);  // one value per --set, so `--set k=v spec.json` keeps the spec
  command->add_option("--threads", s->options.threads, "Cells run in parallel (0 = all cores)")
      ->capture_default_str()
      ->check(at_least(0));
  command->add_option("--results", s->options.results_directory,
                      "Directory of the result tables (default: results/ beside the spec's directory when that is "
                      "named experiments/, e.g. the checkout's results/ for experiments/x.json; else ./results)");
  command->add_option("--cache", s->options.cache_directory, "Cell cache directory (default: <results>/.cache)");
  command->add_flag("--check", s->options.check,
                    "Rerun the spec and compare every number with the table already in the results directory "
                    "instead of writing it: lists the numbers that drifted (old, new, delta) and exits with status 3 "
                    "if any did");
  command->add_option("--check-tolerance", s->options.check_tolerance,
                      "--check: a number drifted when |new - old| exceeds this")
      ->capture_default_str()
      ->check(at_least(0));
  command->add_option("--executor", s->options.executor,
                      "Where cells run: local (a thread pool of --threads) or slurm (each phase's uncached cells as "
                      "one Slurm job array, sbatch --array, each task one cell into the shared cache; then the "
                      "tables are assembled from the cache; scripts/slurm_local.sh starts a one-node cluster)")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "slurm"}));
  command->add_option("--sbatch", s->options.sbatch_arguments,
                      "--executor slurm: an extra sbatch option, e.g. --sbatch=--partition=long (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--slurm-task", s->options.slurm_task_file,
                      "Internal: run one array task's cell of the task file into the cache (set by the job script)")
      ->group("");
  command->add_flag("--quiet", s->quiet, "No progress lines");
  command->add_option("--heartbeat", s->options.heartbeat_seconds,
                      "While cells run, list them with their running times after this many seconds "
                      "without a progress line (0 = never)")
      ->capture_default_str()
      ->check(at_least(0));
  command->add_flag("--spec-reference", s->reference,
                    "Print the spec reference (Markdown) generated from the families' keys and the methods' "
                    "parameter tables, and exit");
  command->add_flag("--last-time", s->last_time,
                    "Print, per spec, the seconds the run that wrote its table in the results directory took "
                    "(\"<spec> <seconds>\", \"-\" when there is none; --quick: the quick table), and exit "
                    "(./run_all.sh sums them for its estimate of the time left)");
  command->add_option("--repeat", s->repeat,
                      "Run the spec under S split seeds (its own, then +1, ..., +S-1: every seed that draws the "
                      "evaluated split) and write <name>[.quick].repeat.{md,json}: each compared cell per seed with "
                      "their mean +- sd beside the published number (refused where the split is the papers' files)")
      ->check(at_least(1));
  command->footer(methods_help());
  return [s] {
    if (s->reference) {
      fmt::print("{}", harness::spec_reference());
      return;
    }
    if (s->specs.empty()) throw Error("mpg run: give a spec file (e.g. experiments/table8_f1.json); see mpg run --help");
    if (s->last_time) {
      for (const auto& spec : s->specs) {
        const auto seconds = harness::last_run_seconds(spec, s->options);
        fmt::print("{} {}\n", spec, seconds ? fmt::format("{:.0f}", *seconds) : std::string("-"));
      }
      return;
    }
    // Cells are keyed by the content stamp compiled into this binary; the tables name the tree's
    // git revision, so a binary built from other code than the tree holds is refused.
    const std::string tree = harness::source_stamp();
    const std::string built = build_source_stamp();
    if (tree != "unknown" && built != "unknown" && tree != built)
      throw Error("this mpg binary was built from other code than the source tree now holds (lib/, baselines/, "
                  "cli/ or CMakeLists.txt changed since the build): rebuild it (./scripts/build.sh) before "
                  "`mpg run`, so that the tables name the code that computed them");
    // Same code: each family's cells are keyed on the stamp of the sources they depend on
    // (harness::family_stamp), so a change to one family leaves the others' cells cached. Without
    // the tree beside the binary, on the binary's whole stamp ("unknown": no cache).
    s->options.code_stamp = (tree == "unknown" || built == "unknown") ? built : "";
    s->options.progress = !s->quiet;
    if (s->repeat > 0) {
      if (s->options.check) throw Error("mpg run: --repeat writes its own tables; it cannot be combined with --check");
      for (const auto& spec : s->specs)
        for (const auto& file : harness::run_repeated(spec, s->options, s->repeat)) fmt::print("  wrote {}\n", file);
      return;
    }
    bool drifted = false;
    for (const auto& spec : s->specs) {
      const harness::RunSummary summary = harness::run_experiment(spec, s->options);
      fmt::print("{}: {} cells ({} cached); {}\n", summary.name, summary.cells, summary.cached_cells,
                 summary.tally.summary());
      if (!s->options.slurm_task_file.empty()) continue;  // a Slurm task: its cell is in the cache
      for (const auto& line : summary.tally.outside) fmt::print("  outside: {}\n", line);
      for (const auto& file : summary.result_files) fmt::print("  wrote {}\n", file);
      if (!s->options.check) continue;
      if (summary.drift.empty()) {
        fmt::print("  check: every number matches {} (tolerance {:g})\n", summary.checked_against,
                   s->options.check_tolerance);
      } else {
        drifted = true;
        fmt::print("  check: {} numbers drifted from {} (tolerance {:g}):\n", summary.drift.size(),
                   summary.checked_against, s->options.check_tolerance);
        for (const auto& d : summary.drift)
          fmt::print("    DRIFT {}: old {} new {}{}\n", d.where, d.old_value, d.new_value,
                     d.delta != 0.0 ? fmt::format(" (delta {:+.3g})", d.delta) : "");
      }
      for (const auto& a : summary.added) fmt::print("    new (not in the old table): {}\n", a);
    }
    if (drifted) throw ExitCode(3);
  };
}

}  // namespace mpg::cli
