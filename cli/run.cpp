// mpg run: expands an experiment spec into cells, runs them (cached), writes the tables.
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/common.hpp"
#include "lib/harness/experiment.hpp"

namespace mpg::cli {

Action add_run(CLI::App& app) {
  struct Settings {
    std::vector<std::string> specs;
    harness::RunOptions options;
    bool quiet = false;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "run", "Reproduce a paper table from an experiment spec (experiments/README.md): runs every "
             "dataset x method x hyper-parameter cell (finished cells are cached, so a rerun is "
             "instant and an interrupted run resumes) and writes results/<name>.{md,csv,json}");
  command->add_option("spec", s->specs, "Experiment spec(s), e.g. experiments/table8_f1.json")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_flag("--quick", s->options.quick,
                    "Apply the spec's reduced 'quick' grid; writes results/<name>.quick.*");
  command->add_option("--set", s->options.overrides,
                      "Override a spec value without editing it, e.g. "
                      "--set datasets.ADULT.variant=a4a --set protocol.split_seed=7 "
                      "--set 'methods.MPG.lambda=[0.5,1]' (repeatable); key=null removes the key "
                      "(a dataset or method with its published numbers); tables name the overrides");
  command->add_option("--threads", s->options.threads, "Cells run in parallel (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_option("--results", s->options.results_directory,
                      "Directory of the result tables (default: results/ of the source tree)");
  command->add_option("--cache", s->options.cache_directory,
                      "Cell cache directory (default: <results>/.cache)");
  command->add_flag("--quiet", s->quiet, "No progress lines");
  command->add_option("--heartbeat", s->options.heartbeat_seconds,
                      "While cells run, list them with their running times after this many seconds "
                      "without a progress line (0 = never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  return [s] {
    // Cells are keyed by the tree's code revision: a binary built from other code would file its
    // results under the wrong key (and poison the cache for the next, correct build).
    const std::string tree = harness::source_stamp();
    const std::string built = build_source_stamp();
    if (tree != "unknown" && built != "unknown" && tree != built)
      throw Error("this mpg binary was built from other code than the source tree now holds (lib/, baselines/, "
                  "cli/ or CMakeLists.txt changed since the build): rebuild it (./scripts/build.sh) before "
                  "`mpg run`, so that cached cells are keyed by the code that computed them");
    s->options.progress = !s->quiet;
    for (const auto& spec : s->specs) {
      const harness::RunSummary summary = harness::run_experiment(spec, s->options);
      fmt::print("{}: {} cells ({} cached); {} of {} published cells within tolerance\n", summary.name,
                 summary.cells, summary.cached_cells, summary.within_tolerance, summary.published_cells);
      for (const auto& line : summary.outside) fmt::print("  outside: {}\n", line);
      for (const auto& file : summary.result_files) fmt::print("  wrote {}\n", file);
    }
  };
}

}  // namespace mpg::cli
