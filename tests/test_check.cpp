// `mpg run --check` (lib/harness/pipeline.cpp, compare_results): a rerun is compared number by
// number with the tables already written; a number changed by hand in a result file is reported
// as a drift with its old and new value, and the command exits with status 3.
#include <catch2/catch.hpp>

#include <cmath>

#include <filesystem>

#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/run_mpg.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg::harness;
using mpg::testing::TempDir;
using mpg::testing::quote;
using mpg::testing::run_mpg;
using nlohmann::json;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("compare_results: numbers beyond the tolerance, missing rows and values; times are ignored", "[check]") {
  const json old = json::parse(R"({"seconds": 5, "revision": "abc", "tolerance": 0.01,
    "rows": [{"dataset": "A", "method": "LR", "ours": 0.5, "seconds": 1, "ndcg_at": [0.1, 0.2]},
             {"dataset": "B", "method": "LR", "ours": 0.7}],
    "notes": ["text is not compared"]})");
  json fresh = old;
  fresh["seconds"] = 9;
  fresh["revision"] = "def";
  fresh["notes"] = json::array();
  fresh["rows"][0]["seconds"] = 2;
  fresh["rows"][1]["ours"] = 0.7 + 1e-9;
  CHECK(compare_results(old, fresh, 1e-6).empty());

  fresh["rows"][0]["ndcg_at"][1] = 0.25;
  std::swap(fresh["rows"][0], fresh["rows"][1]);  // rows are matched by their text fields, not position
  fresh["rows"].push_back(json::parse(R"({"dataset": "C", "method": "LR", "ours": 0.1})"));
  std::vector<std::string> added;
  auto drift = compare_results(old, fresh, 1e-6, &added);
  REQUIRE(drift.size() == 1);
  CHECK(drift[0].where == "rows[A/LR].ndcg_at[1]");
  CHECK(drift[0].old_value == "0.2");
  CHECK(drift[0].new_value == "0.25");
  CHECK(drift[0].delta == Approx(0.05));
  CHECK(added == std::vector<std::string>{"rows[C/LR]"});

  fresh["rows"].erase(1);  // row A/LR disappears
  fresh.erase("tolerance");
  drift = compare_results(old, fresh, 1e-6);
  REQUIRE(drift.size() == 2);
  CHECK(drift[0].where == "rows[A/LR]");
  CHECK(drift[0].new_value == "missing");
  CHECK(drift[1].where == "tolerance");
}

TEST_CASE("compare_results: a row's standing does not name it", "[check]") {
  // A table written before the counting rule had no "standing"; the rerun's row is the same row.
  const json old = json::parse(R"js({"rows": [{"method": "MPG (authors' AdaDelta)", "ours": 0.5}]})js");
  json fresh = old;
  fresh["rows"][0]["standing"] = "variant";
  std::vector<std::string> added;
  CHECK(compare_results(old, fresh, 1e-6, &added).empty());
  CHECK(added.empty());
  fresh["rows"][0]["ours"] = 0.6;
  const auto drift = compare_results(old, fresh, 1e-6);
  REQUIRE(drift.size() == 1);
  CHECK(drift[0].where == "rows[MPG (authors' AdaDelta)].ours");
}

TEST_CASE("compare_results: a row's verdict and interval do not name it; a drifted interval is drift", "[check]") {
  // A table written before intervals: the rerun's row adds them (reported as added, not as drift).
  const json old = json::parse(R"js({"rows": [{"method": "MPG", "ours": 0.5, "published": 0.6}]})js");
  json fresh = old;
  fresh["rows"][0]["interval"] = {0.45, 0.55};
  fresh["rows"][0]["interval_unit"] = "example";
  fresh["rows"][0]["verdict"] = "miss";
  fresh["rows"][0]["ids"] = {"MPG"};
  std::vector<std::string> added;
  CHECK(compare_results(old, fresh, 1e-6, &added).empty());
  CHECK(added == std::vector<std::string>{"rows[MPG].interval"});
  // Between two tables with intervals, a moved bound is drift, and a moved verdict leaves the row matched.
  json moved = fresh;
  moved["rows"][0]["interval"][1] = 0.61;
  moved["rows"][0]["verdict"] = "within_noise";
  const auto drift = compare_results(fresh, moved, 1e-6);
  REQUIRE(drift.size() == 1);
  CHECK(drift[0].where == "rows[MPG].interval[1]");
}

TEST_CASE("compare_results: null, how a table writes NaN, matches NaN and null only", "[check]") {
  const json old = json::parse(R"({"rows": [{"method": "A", "ours": null, "sd": 0.5}]})");
  json fresh = old;
  fresh["rows"][0]["ours"] = std::nan("");
  CHECK(compare_results(old, fresh, 1e-6).empty());
  CHECK(compare_results(old, old, 1e-6).empty());
  fresh["rows"][0]["ours"] = 0.25;
  auto drift = compare_results(old, fresh, 1e-6);
  REQUIRE(drift.size() == 1);
  CHECK(drift[0].where == "rows[A].ours");
  CHECK(drift[0].old_value == "null");
  CHECK(drift[0].new_value == "0.25");
  fresh["rows"][0].erase("ours");
  drift = compare_results(old, fresh, 1e-6);
  REQUIRE(drift.size() == 1);
  CHECK(drift[0].new_value == "missing");
  // The other way: a number that became NaN.
  CHECK(compare_results(json::parse(R"({"x": 1.0})"), json{{"x", std::nan("")}}, 1e-6).size() == 1);
}

TEST_CASE("mpg run --check: a hand-edited number in a result file is a drift, exit status 3", "[check_shared]") {
  if (!fs::exists(fs::path(data_directory()) / "optdigits" / "optdigits.tra")) {
    MPG_SKIP("optdigits is not in " << data_directory());
  }
  TempDir dir;
  const std::string spec = dir.write("small.json", R"({
    "name": "small", "metric": "f1",
    "datasets": {"OPT": {"registry": "optdigits", "one_vs_rest": true, "classes": [0]}},
    "protocol": {"validation_fraction": 0.3333333333, "split_seed": 5},
    "methods": {"LR": {"kind": "logistic_regression", "lambda": [1, 4]}},
    "published": {"LR": {"OPT": 0.9}}, "tolerance": 0.2})");
  const std::string results = (dir.path() / "results").string();
  const std::string run = "run " + quote(spec) + " --quiet --results " + quote(results);
  REQUIRE(run_mpg(dir, run).exit_code == 0);
  const std::string table = results + "/small.json";
  const std::string written = mpg::read_file(table);

  const auto same = run_mpg(dir, run + " --check");
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Contains("check: every number matches " + table));

  json edited = json::parse(written);
  const double ours = edited["rows"][0]["ours"].get<double>();
  edited["rows"][0]["ours"] = ours + 0.01;
  edited["tasks"][0]["test"] = ours + 0.01;
  mpg::write_file_atomically(table, edited.dump(2));
  const auto drifted = run_mpg(dir, run + " --check");
  INFO(drifted.out << drifted.err);
  CHECK(drifted.exit_code == 3);
  CHECK_THAT(drifted.out, Contains("check: 2 numbers drifted from " + table) &&
                              Contains("DRIFT rows[OPT/LR].ours: old ") && Contains("DRIFT tasks[LR/OPT/class 0].test"));
  CHECK(mpg::read_file(table) == edited.dump(2));  // --check writes nothing

  // The written table records every cell's time; --last-time reads the run's time back.
  CHECK(json::parse(written)["cell_seconds"]["validation"].size() == 2);
  const auto last = run_mpg(dir, run + " --last-time");
  CHECK(last.exit_code == 0);
  CHECK_THAT(last.out, Contains(spec + " ") && !Contains(spec + " -"));

  // A table that was never written cannot be checked, and has no last time.
  fs::remove(table);
  const auto nothing = run_mpg(dir, run + " --check");
  CHECK(nothing.exit_code == 1);
  CHECK_THAT(nothing.err, Contains("--check: there is no " + table));
  CHECK(run_mpg(dir, run + " --last-time").out == spec + " -\n");
}
