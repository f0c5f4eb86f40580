// The reproduction report (issue 57): `mpg report` reads every table `mpg run` wrote into a
// results folder and writes, into its own folder (report/, not committed: results/ holds only what
// the specs produce), one line per table — the three verdict counts (within tolerance,
// within noise, miss) for exact-protocol cells and for cells counted apart, the code revision,
// and the main miss with its delta and interval — and one figure of every published cell, ours
// against published. README's status table is this report's summary.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpg::harness {

struct ReportOptions {
  std::string results_directory = "results";
  std::string output_directory = "report";  // REPORT[.quick].md, report[.quick].{csv,gp,png}
  bool quick = false;  // the .quick tables (REPORT.quick.md) instead of the full ones (REPORT.md)
  // Also draw report[.quick].png with gnuplot (when it is installed; the script is written anyway).
  bool plot = true;
};

// One compared cell of a table: where it is, ours, published, its interval, verdict and standing.
struct ReportCell {
  std::string where;  // "ADULT MPG", "conll.300 PER testb CRF"
  double ours = 0, published = 0;
  bool has_interval = false;
  double low = 0, high = 0;
  std::string verdict;   // "within", "within_noise", "miss"
  std::string standing;  // "exact" or why it is counted apart
};

struct ReportTable {
  std::string name, paper, revision;
  double scale = 1;  // 100 where values are fractions (the table's tolerance below 0.5): the per-cent scale
  std::vector<ReportCell> cells;
  // Counts by verdict (within, within noise, miss), exact cells and cells apart: the table's own
  // "count" where it has one (claims included), else counted from its cells.
  int exact[3] = {0, 0, 0};
  int apart[3] = {0, 0, 0};
};

// Every compared cell of a table written by mpg run (every object with numeric "ours" and
// "published"), in document order.
std::vector<ReportCell> compared_cells(const nlohmann::json& table);

// Reads every <name>[.quick].json table of the folder (not the report's own files), in name order.
// Throws mpg::Error naming a file that is not a table.
std::vector<ReportTable> read_report_tables(const ReportOptions& options);

// REPORT[.quick].md's text: a line per table, then the figure and how to read it.
std::string report_markdown(const std::vector<ReportTable>& tables, bool quick);
// README's status table (the block between its status markers): a line per table.
std::string report_status_block(const std::vector<ReportTable>& tables);

// Writes into the output folder (made if absent) REPORT[.quick].md, report[.quick].csv (every cell),
// report[.quick].gp and, with gnuplot, report[.quick].png; returns the paths written.
std::vector<std::string> write_report(const ReportOptions& options);

// Replaces README's status block (between "<!-- BEGIN status" and "<!-- END status -->") with
// report_status_block of the full tables; with `check`, only compares and throws mpg::Error when it
// differs. Returns whether the file changed.
bool update_readme_status(const std::string& readme, const ReportOptions& options, bool check);

}  // namespace mpg::harness
