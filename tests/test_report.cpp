// Verdicts that know their noise (issue 57): a table's three verdicts from intervals
// (lib/harness/tables.hpp), and the reproduction report over a results folder
// (lib/harness/report.hpp) on synthetic tables with hand-set counts.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/harness/report.hpp"
#include "lib/harness/tables.hpp"
#include "lib/harness/unit_samples.hpp"
#include "temp_dir.hpp"

using namespace mpg::harness;
using nlohmann::json;

namespace {

// Tolerance 0.01. The A rows: within; outside with the published value inside the interval
// (within noise); outside both (miss); B is a substitute within noise.
ComparisonTable table_with_intervals() {
  ComparisonTable table({{"dataset", "data set"}, {"method", "method"}}, {}, 0.01);
  auto add = [&](std::vector<std::string> ids, double ours, double published, double low, double high) -> auto& {
    auto& row = table.add(std::move(ids), ours, published);
    row.interval = mpg::stats::Interval{low, high};
    row.interval_unit = "example";
    return row;
  };
  add({"A", "MPG"}, 0.705, 0.700, 0.69, 0.72);
  add({"A", "SSVM"}, 0.650, 0.700, 0.62, 0.71);
  add({"A", "LR"}, 0.600, 0.700, 0.57, 0.63);
  add({"B", "MPG"}, 0.770, 0.800, 0.74, 0.81).standing = Standing::substitute;
  table.add({"C", "MPG"}, 0.600, 0.700);  // no interval: a miss
  return table;
}

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("Three verdicts: within tolerance, within noise, miss", "[report]") {
  const ComparisonTable table = table_with_intervals();
  const auto& rows = table.rows();
  CHECK(table.verdict(rows[0]) == Verdict::within);
  CHECK(table.verdict(rows[1]) == Verdict::within_noise);
  CHECK(table.verdict(rows[2]) == Verdict::miss);
  CHECK(table.verdict(rows[3]) == Verdict::within_noise);
  CHECK(table.verdict(rows[4]) == Verdict::miss);
  const Tally tally = table.tally();
  CHECK(tally.published_cells == 4);
  CHECK(tally.within_tolerance == 1);
  CHECK(tally.within_noise == 1);
  CHECK(tally.misses() == 2);
  CHECK(tally.apart_cells == 1);
  CHECK(tally.apart_noise == 1);
  CHECK(tally.summary() == "1 of 4 exact cells within tolerance, 1 within noise; 1 cells apart (0 within, 1 within "
                           "noise: 1 substitute data)");
  // The noise is named in the outside line, and in the Markdown and JSON rows.
  REQUIRE(tally.outside.size() == 3);
  CHECK(tally.outside[0] == "A SSVM: ours 0.650 vs published 0.700 (-0.050) [95 % interval 0.620 – 0.710: within "
                            "noise]; no cap or data substitute recorded (see the table's notes)");
  CHECK(table.markdown().find("| A | SSVM | 0.650 | 0.620 – 0.710 (examples) | 0.700 | -0.050 | within noise |") !=
        std::string::npos);
  const json j = table.rows_json();
  CHECK(j[1]["verdict"] == "within_noise");
  CHECK(j[1]["interval"] == json({0.62, 0.71}));
  CHECK(j[2]["verdict"] == "miss");
  CHECK_FALSE(j[4].contains("verdict"));
  CHECK(table.tally().to_json()["exact_within_noise"] == 1);
}

TEST_CASE("A table without intervals keeps its columns", "[report]") {
  ComparisonTable table({{"dataset", "data set"}}, {}, 0.01);
  table.add({"A"}, 0.705, 0.700);
  CHECK_FALSE(table.has_intervals());
  CHECK(table.markdown().rfind("| data set | ours | published | delta | within tolerance |", 0) == 0);
  CHECK(table.csv().rfind("dataset,ours,published,delta,within_tolerance\n", 0) == 0);
}

TEST_CASE("mpg report: a line per table, the three counts, the main miss, the README block", "[report]") {
  mpg::testing::TempDir dir("report");
  const auto results = dir.path() / "results";
  std::filesystem::create_directories(results);
  std::filesystem::create_directories(dir.path() / "experiments");
  write(dir.path() / "experiments" / "t1.json", R"({"name": "t1", "paper": "Paper One", "source": "x"})");
  json t1 = {{"name", "t1"}, {"title", "Table one"}, {"family", "binary"}, {"revision", "abcdef123456"},
             {"spec", "experiments/t1.json"}, {"tolerance", 0.01}, {"rows", table_with_intervals().rows_json()}};
  write(results / "t1.json", t1.dump());
  // A quick table and an older table without verdicts (within_tolerance only), no spec file.
  write(results / "t1.quick.json", t1.dump());
  json t2 = {{"name", "t2"}, {"family", "alignment"}, {"revision", "0123456789"}, {"spec", "experiments/t2.json"},
             {"tolerance", 2.0},
             {"comparison", {{{"row", "MPG"}, {"ours", 30.0}, {"published", 26.0}, {"within_tolerance", false}},
                             {{"row", "SSVM"}, {"ours", 27.0}, {"published", 26.0}, {"within_tolerance", true}},
                             // A row list marking other data (Parambath ch. 2): counted apart, never the main miss.
                             {{"row", "RCV1"}, {"ours", 50.0}, {"published", 20.0}, {"within_tolerance", false},
                              {"substitute", true}}}}};
  write(results / "t2.json", t2.dump());
  // A table with its own count (claims beside its cells): the count is what the report shows.
  json t3 = {{"name", "t3"}, {"family", "comparison"}, {"revision", "0123456789"}, {"spec", "experiments/t3.json"},
             {"count", {{"exact_cells", 5}, {"exact_within", 3}, {"apart_cells", 0}, {"apart_within", 0}}}};
  write(results / "t3.json", t3.dump());

  ReportOptions options;
  options.results_directory = results.string();
  options.output_directory = (dir.path() / "report").string();
  options.plot = false;
  const auto tables = read_report_tables(options);
  REQUIRE(tables.size() == 3);
  CHECK(tables[0].paper == "Paper One");
  CHECK(tables[0].scale == 100.0);
  CHECK(tables[0].exact[0] == 1);  // within
  CHECK(tables[0].exact[1] == 1);  // within noise
  CHECK(tables[0].exact[2] == 2);  // miss
  CHECK(tables[0].apart[1] == 1);
  CHECK(tables[1].exact[0] == 1);
  CHECK(tables[1].exact[2] == 1);
  const std::string block = report_status_block(tables);
  CHECK(block.find("| t1 | `abcdef1` | 1 / 1 / 2 of 4 | 0 / 1 / 0 of 1 | A LR: 60.0 vs 70.0 (-10.0), interval "
                   "57.0–63.0 |") != std::string::npos);
  CHECK(block.find("| t2 | `0123456` | 1 / 0 / 1 of 2 | 0 / 0 / 1 of 1 | MPG: 30.00 vs 26.00 (+4.00) |") !=
        std::string::npos);
  CHECK(block.find("| t3 | `0123456` | 3 / 0 / 2 of 5 | – |  |") != std::string::npos);

  const auto written = write_report(options);
  CHECK(written.size() == 3);  // REPORT.md, report.csv, report.gp (no plot)
  const auto report_dir = dir.path() / "report";
  const std::string report = mpg::read_file((report_dir / "REPORT.md").string());
  CHECK(report.find("| t1 | Paper One | `abcdef1` | 1 / 1 / 2 of 4 |") != std::string::npos);
  CHECK(mpg::read_file((report_dir / "report.csv").string()).find("t1,Paper One,0,A SSVM,exact,within_noise,70.000000,"
                                                               "65.000000,62.000000,71.000000") != std::string::npos);

  // The README block: rewritten once, then it matches; a README without markers is refused.
  const auto readme = dir.path() / "README.md";
  write(readme, "intro\n<!-- BEGIN status -->\nold\n<!-- END status -->\nrest\n");
  CHECK_THROWS_AS(update_readme_status(readme.string(), options, true), mpg::Error);
  CHECK(update_readme_status(readme.string(), options, false));
  CHECK_FALSE(update_readme_status(readme.string(), options, true));
  CHECK(mpg::read_file(readme.string()).find("| t2 | `0123456` |") != std::string::npos);
  write(readme, "no markers\n");
  CHECK_THROWS_AS(update_readme_status(readme.string(), options, false), mpg::InputError);
  // A JSON file that is not a table is named.
  write(results / "stray.json", "{\"x\": 1}");
  CHECK_THROWS_WITH(read_report_tables(options), Catch::Contains("stray.json"));
}

TEST_CASE("A claim's paired evidence: in the values' units, and only over the same units", "[report]") {
  // Every unit of a scores 1, of b 0: each resample's difference is 1 (100 points), significant.
  const auto a = mpg::stats::per_unit("sentence", mpg::stats::UnitMeasure::mean, {{1.0}, {1.0}, {1.0}});
  const auto b = mpg::stats::per_unit("sentence", mpg::stats::UnitMeasure::mean, {{0.0}, {0.0}, {0.0}});
  const auto e = paired_evidence(a, b, 100.0);
  REQUIRE(e);
  CHECK(e->text == "+100.00 [+100.00, +100.00] significant");
  CHECK(e->json["difference"] == 100.0);
  CHECK(e->json["p_value"] == 0.0);
  // Other units (evalb skipping other sentences): no paired comparison.
  CHECK_FALSE(paired_evidence(a, mpg::stats::per_unit("sentence", mpg::stats::UnitMeasure::mean, {{0.0}}), 100.0));
}
