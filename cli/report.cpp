// mpg report: the reproduction report of a results folder (lib/harness/report.hpp).
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "lib/harness/report.hpp"

namespace mpg::cli {

Action add_report(CLI::App& app) {
  struct Settings {
    harness::ReportOptions options;
    std::string readme;
    bool check_readme = false;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "report", "Write the reproduction report of a results folder into report/: REPORT.md (a line per table: exact-protocol "
                "cells and cells counted apart, each within tolerance / within noise / miss, the code revision, the "
                "main miss with its 95 % interval) and report.png (ours against published, every cell)");
  command->add_option("--results", s->options.results_directory, "The results folder")->capture_default_str();
  command->add_option("--output", s->options.output_directory,
                      "Where the report goes (not results/, which holds only what the specs produce)")
      ->capture_default_str();
  command->add_flag("--quick", s->options.quick, "Report the .quick tables (REPORT.quick.md, report.quick.png)");
  command->add_flag("--no-plot", [s](std::int64_t) { s->options.plot = false; },
                    "Write the gnuplot script but do not run gnuplot");
  command->add_option("--readme", s->readme,
                      "Also rewrite this README's status block from the full tables (between its status markers)");
  command->add_flag("--check-readme", s->check_readme,
                    "With --readme: only check that the status block matches the tables (exit 1 if not); writes nothing");
  return [s] {
    if (!s->check_readme)
      for (const auto& path : harness::write_report(s->options)) fmt::print("wrote {}\n", path);
    if (!s->readme.empty()) {
      const bool changed = harness::update_readme_status(s->readme, s->options, s->check_readme);
      fmt::print("{}: status block {}\n", s->readme, changed ? "rewritten" : "matches the tables");
    }
  };
}

}  // namespace mpg::cli
