// Experiment harness runs on the shared OPTDIGITS (and Adult a3a) data: the sha256 check of the
// data files, the cell cache (a rerun is served from the cache with identical tables; a lost cell is
// recomputed; a run killed mid-way leaves no tables and resumes to the same tables), caps and their
// notes, the extra MPG rows, per-data-set method settings, data substitutes and overrides in the
// tables, and the code stamp in the cache keys. Skipped (tests/skip.hpp) without the data.
#include <catch2/catch.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/harness_fixtures.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg;
using namespace mpg::harness;
namespace fs = std::filesystem;
using mpg::testing::small_spec;
using mpg::testing::TempDir;
using mpg::testing::write_spec;

namespace {

// The small spec with one MPG method whose every cap is hit: one restricted-game solve per
// training and one double-oracle iteration per game (an OPTDIGITS class-0 training needs about
// 2,000 solves, its games about 100 iterations).
nlohmann::json capped_mpg_spec() {
  nlohmann::json spec = small_spec();
  spec["methods"] = {{"MPG",
                      {{"kind", "mpg"}, {"lambda", {1}}, {"max_game_solves", 1}, {"game_solver", "double_oracle"},
                       {"max_game_iterations", 1}}}};
  spec["published"] = {{"MPG", {{"OPT", 0.9}}}};
  return spec;
}

bool optdigits_present() {
  return fs::exists(fs::path(data_directory()) / "optdigits" / "optdigits.tra");
}

}  // namespace

TEST_CASE("A wrong sha256 is an error naming the file", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  fs::create_directories(dir.path() / "optdigits");
  for (const char* f : {"optdigits.tra", "optdigits.tes"})
    fs::copy_file(fs::path(data_directory()) / "optdigits" / f, dir.path() / "optdigits" / f);
  {
    std::ofstream tamper(dir.path() / "optdigits" / "optdigits.tes", std::ios::app);
    tamper << "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1\n";
  }
  setenv("MPG_DATA_DIR", dir.path().c_str(), 1);
  const RegistryChoice optdigits = registry_choice(nlohmann::json{{"registry", "optdigits"}});
  CHECK_THROWS_WITH(optdigits.read("test"), Catch::Contains("optdigits.tes") && Catch::Contains("sha256 mismatch"));
  CHECK_NOTHROW(optdigits.read("train"));
  // A registry entry without a sha256 is an error naming the file and the hash it has.
  nlohmann::json registry = dataset_registry();
  registry["optdigits"]["variants"]["uci"]["train"].erase("sha256");
  const std::string registry_file = dir.write("registry.json", registry.dump());
  setenv("MPG_REGISTRY", registry_file.c_str(), 1);
  CHECK_THROWS_WITH(registry_choice(nlohmann::json{{"registry", "optdigits"}}).read("train"),
                    Catch::Contains("optdigits.tra: the registry (" + registry_file + ") has no sha256") &&
                        Catch::Contains("its content hashes to "));
  unsetenv("MPG_REGISTRY");
  unsetenv("MPG_DATA_DIR");
}

TEST_CASE("Rerun is served from the cache; a lost cell is recomputed; same tables", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  const std::string spec_path = write_spec(dir, small_spec());
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const RunSummary first = run_experiment(spec_path, options);
  CHECK(first.cells == 3);  // two validation cells and the selected test cell
  CHECK(first.cached_cells == 0);
  CHECK(first.published_cells == 1);
  const std::string table = read_file(first.result_files.front());
  const std::string csv = read_file(first.result_files[1]);
  CHECK_THAT(table, Catch::Contains("| OPT | LR |"));

  // Scores are deterministic: everything but the timing columns matches the first run.
  auto without_times = [](const std::string& text) {
    std::string kept;
    std::size_t start = 0;
    while (start < text.size()) {
      const auto end = text.find('\n', start);
      const std::string line = text.substr(start, end - start);
      kept += line.substr(0, line.find(",", line.find(",", line.find(",") + 1) + 1)) + "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
    return kept;
  };
  const RunSummary second = run_experiment(spec_path, options);
  CHECK(second.cached_cells == 3);  // two validation cells and the selected test cell
  CHECK(read_file(second.result_files[1]) == csv);  // cached cells carry their timings too
  // An interrupted run: one cached cell is missing; the rerun recomputes only that cell.
  const fs::path cache = fs::path(options.results_directory) / ".cache" / "small";
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(cache)) entries.push_back(e.path());
  REQUIRE(entries.size() == 3);
  fs::remove(entries.front());
  const RunSummary third = run_experiment(spec_path, options);
  CHECK(third.cached_cells == 2);
  CHECK(without_times(read_file(third.result_files[1])) == without_times(csv));
}

TEST_CASE("A run killed mid-way leaves no tables and resumes to the same tables", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = small_spec();
  spec["datasets"]["OPT"]["classes"] = {0, 1, 2};
  spec["methods"]["LR"]["lambda"] = {0.015625, 0.0625, 0.25, 1, 4, 16, 64};  // 21 cells, one thread
  const std::string spec_path = write_spec(dir, spec);
  const fs::path killed_results = dir.path() / "killed";
  const fs::path cache = killed_results / ".cache" / "small";

  // `mpg run` in a child process, SIGKILLed as soon as its first cell is in the cache.
  std::vector<std::string> arguments = {MPG_CLI_PATH, "run", spec_path, "--threads", "1", "--quiet",
                                        "--results", killed_results.string()};
  std::vector<char*> argv;
  for (auto& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  REQUIRE(posix_spawn(&child, MPG_CLI_PATH, nullptr, nullptr, argv.data(), environ) == 0);
  auto cached_cells = [&] {
    std::size_t count = 0;
    if (fs::exists(cache))
      for (const auto& e : fs::directory_iterator(cache)) count += e.path().extension() == ".json";
    return count;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (cached_cells() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));  // killed, not finished
  const std::size_t survivors = cached_cells();
  CHECK(survivors >= 1);
  CHECK(survivors < 21);
  CHECK_FALSE(fs::exists(killed_results / "small.md"));  // no partial result files
  CHECK_FALSE(fs::exists(killed_results / "small.csv"));
  for (const auto& e : fs::directory_iterator(cache))  // every surviving cell file is whole
    if (e.path().extension() == ".json") CHECK_NOTHROW(nlohmann::json::parse(read_file(e.path().string())));

  RunOptions options;
  options.results_directory = killed_results.string();
  options.progress = false;
  options.threads = 2;
  const RunSummary resumed = run_experiment(spec_path, options);
  CHECK(resumed.cached_cells >= static_cast<int>(survivors));
  CHECK(resumed.cached_cells < resumed.cells);
  options.results_directory = (dir.path() / "uninterrupted").string();
  const RunSummary uninterrupted = run_experiment(spec_path, options);
  CHECK(uninterrupted.cached_cells == 0);
  // Same tables: everything up to the timing columns, and the selected parameters.
  const auto rows = [](const std::string& path) {
    const auto table = nlohmann::json::parse(read_file(path));
    nlohmann::json kept = table["tasks"];
    for (auto row : table["rows"]) {
      row.erase("seconds");
      kept.push_back(row);
    }
    return kept;
  };
  CHECK(rows(resumed.result_files[2]) == rows(uninterrupted.result_files[2]));
}

TEST_CASE("Capped MPG trainings and games are listed in the notes and as the causes of a miss", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = capped_mpg_spec();
  spec["tolerance"] = 0.0;  // the MPG row is outside tolerance (unless it scores exactly 0.9)
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const RunSummary run = run_experiment(write_spec(dir, spec), options);
  const auto notes = nlohmann::json::parse(read_file(run.result_files[2]))["notes"];
  const std::regex validation_note(
      R"(OPT/class 0 MPG lambda=1: training not converged: restricted-game solve limit \(1\); )"
      R"(the validation game did not converge \(gap [0-9.]+e[-+][0-9]+\))");
  const std::regex test_note(R"(OPT/class 0 MPG: the test game did not converge \(gap [0-9.]+e[-+][0-9]+\))");
  int validation_notes = 0;
  int test_notes = 0;
  for (const auto& note : notes) {
    validation_notes += std::regex_match(note.get<std::string>(), validation_note);
    test_notes += std::regex_match(note.get<std::string>(), test_note);
  }
  INFO(notes.dump(1));
  CHECK(validation_notes == 1);
  CHECK(test_notes == 1);
  CHECK_THAT(read_file(run.result_files[0]), Catch::Contains("the validation game did not converge"));
  // The one-screen summary says why the row misses: every cap it hit (OPTDIGITS is exact data).
  const auto row = nlohmann::json::parse(read_file(run.result_files[2]))["rows"][0];
  REQUIRE_FALSE(row["within_tolerance"].get<bool>());
  const std::vector<std::string> causes = {"1 of 1 trainings capped", "1 of 1 validation games capped",
                                           "1 of 1 test games capped"};
  CHECK(row["recorded_causes"].get<std::vector<std::string>>() == causes);
  REQUIRE(run.outside.size() == 1);
  CHECK_THAT(run.outside[0], Catch::EndsWith("; 1 of 1 trainings capped; 1 of 1 validation games capped; "
                                             "1 of 1 test games capped"));
}

TEST_CASE("F1 validation without its game: the maximin action's score, no game gap reported", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = capped_mpg_spec();
  RunOptions options;
  options.progress = false;
  auto run_with = [&](bool solve) {
    spec["methods"]["MPG"]["solve_validation_game"] = solve;
    options.results_directory = (dir.path() / (solve ? "solved" : "unsolved")).string();
    return nlohmann::json::parse(read_file(run_experiment(write_spec(dir, spec), options).result_files[2]));
  };
  const auto solved = run_with(true), unsolved = run_with(false);
  CHECK(unsolved["tasks"][0]["validation"] == solved["tasks"][0]["validation"]);
  CHECK(unsolved["tasks"][0]["test"] == solved["tasks"][0]["test"]);
  const auto causes = [](const nlohmann::json& tables) {
    return tables["rows"][0]["recorded_causes"].get<std::vector<std::string>>();
  };
  CHECK(causes(solved) == std::vector<std::string>{"1 of 1 trainings capped", "1 of 1 validation games capped",
                                                   "1 of 1 test games capped"});
  CHECK(causes(unsolved) == std::vector<std::string>{"1 of 1 trainings capped", "1 of 1 test games capped"});
  spec["metric"] = "precision_at_k";
  CHECK_THROWS_WITH(load_spec(write_spec(dir, spec), false),
                    Catch::Contains("methods.MPG.solve_validation_game: only F1 tables"));
}

TEST_CASE("Binary F1 tables add MPG's test games scored by the likeliest action and by expected F1", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = capped_mpg_spec();
  spec["methods"]["LR"] = {{"kind", "logistic_regression"}, {"lambda", {1}}};
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const RunSummary run = run_experiment(write_spec(dir, spec), options);
  const auto tables = nlohmann::json::parse(read_file(run.result_files[2]));
  nlohmann::json task;
  for (const auto& t : tables["tasks"])
    if (t["method"] == "MPG") task = t;
  REQUIRE(task.is_object());
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : tables["rows"]) rows[row["method"].get<std::string>()] = row;
  INFO(tables["rows"].dump(1));
  // One task: each extra row is that task's score under its rule, without a published value.
  REQUIRE(rows.count("MPG (likeliest action)") == 1);
  REQUIRE(rows.count("MPG (expected f1)") == 1);
  CHECK(rows["MPG (likeliest action)"]["ours"] == task["test_likeliest"]);
  CHECK(rows["MPG (expected f1)"]["ours"] == task["test_expected"]);
  for (const char* rule : {"MPG (likeliest action)", "MPG (expected f1)"}) {
    CHECK_FALSE(rows[rule].contains("published"));
    CHECK_FALSE(rows[rule].contains("within_tolerance"));
    const double score = rows[rule]["ours"].get<double>();
    CHECK(score >= 0.0);
    CHECK(score <= 1.0);
  }
  CHECK(rows["MPG"]["ours"] == task["test"]);
  // LR has no game: no extra rows; the tally counts only the rows with published values.
  CHECK(rows.size() == 4);
  CHECK(run.published_cells == 1);
  CHECK_THAT(read_file(run.result_files[0]), Catch::Contains("| OPT | MPG (likeliest action) |"));
  // A P@k table has no such rows (its rule is the top k, which every equilibrium shares).
  spec["metric"] = "precision_at_k";
  options.results_directory = (dir.path() / "pk").string();
  const auto pk = nlohmann::json::parse(read_file(run_experiment(write_spec(dir, spec), options).result_files[2]));
  CHECK(pk["rows"].size() == 2);
  for (const auto& t : pk["tasks"]) CHECK_FALSE(t.contains("test_likeliest"));
}

// Table VIII's OPTDIGITS class 7 at lambda = 2^-4: when the joint trainer dropped idle sizes in
// rounds that did not improve the objective, the sizes near the 253 positives left, the gap stood at
// 4.7e-5 and the training ran into the spec's one-hour cap; it certifies in 51 rounds (docs/methods.md).
// At lambda = 1/4 GLPK failed on the LP of round 4 (strict, advanced basis, scaled copy, primal
// simplex) and the training stopped; through the presolver it certifies in 27 rounds.
TEST_CASE("The Table VIII trainings that stalled on dropped sizes or failed in GLPK certify", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = small_spec();
  spec["datasets"]["OPT"]["classes"] = {7};
  spec["protocol"]["split_seed"] = 2017;
  spec["methods"] = nlohmann::json::parse(R"({"MPG": {"kind": "mpg", "lambda": [0.0625, 0.25], "trainer": "joint",
    "max_seconds": 600, "solve_validation_game": false, "game_solver": "double_oracle", "max_game_iterations": 0}})");
  spec["published"] = {{"MPG", {{"OPT", 0.9}}}};
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const auto tables = nlohmann::json::parse(read_file(run_experiment(write_spec(dir, spec), options).result_files[2]));
  INFO(tables["notes"].dump(1));
  CHECK(tables["rows"][0]["recorded_causes"].empty());
  for (const auto& note : tables["notes"]) CHECK_THAT(note.get<std::string>(), !Catch::Contains("not converged"));
}

TEST_CASE("A data set's method settings replace the method's own there, and the tables list them", "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = small_spec();
  spec["datasets"]["OPT2"] = spec["datasets"]["OPT"];
  spec["datasets"]["OPT2"]["method_settings"] = {{"LR", {{"lambda", {2}}}}};
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const RunSummary run = run_experiment(write_spec(dir, spec), options);
  const auto tables = nlohmann::json::parse(read_file(run.result_files[2]));
  std::map<std::string, double> selected;
  for (const auto& task : tables["tasks"])
    selected[task["task"].get<std::string>()] = task["lambda"].get<double>();
  CHECK(selected["OPT2/class 0"] == 2.0);  // its only grid value
  CHECK((selected["OPT/class 0"] == 1.0 || selected["OPT/class 0"] == 4.0));
  CHECK(run.cells == 3 + 2);  // validation: OPT 2 grid values, OPT2 1; one test per task
  const std::string md = read_file(run.result_files[0]);
  // Each data set's line: OPT2's names its setting, OPT's (none of its own) ends with the split.
  auto data_line = [&](const std::string& label) {
    const std::size_t from = md.find("- **" + label + "**: registry");
    REQUIRE(from != std::string::npos);
    return md.substr(from, md.find('\n', from) - from);
  };
  CHECK_THAT(data_line("OPT2"), Catch::EndsWith("(seed 5). LR on this data set: `lambda = [2]`."));
  CHECK_THAT(data_line("OPT"), Catch::EndsWith("(seed 5)."));
}

TEST_CASE("A data substitute is named as a cause of a miss and counted apart; overrides are named in the tables",
          "[harness_runs]") {
  if (!fs::exists(fs::path(data_directory()) / "adult" / "a4a"))
    MPG_SKIP("adult/a4a is not in " << data_directory());
  TempDir dir;
  nlohmann::json spec = small_spec();
  // a4a: the name the papers print, not their counts (those are a3a's, the registry's exact variant).
  spec["datasets"] = {{"ADULT", {{"registry", "adult"}, {"variant", "a4a"}, {"positive_label", 1}}}};
  spec["published"] = {{"LR", {{"ADULT", 0.9}}}};
  spec["tolerance"] = 0.0;
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  options.overrides = {"methods.LR.lambda=[1]"};
  const RunSummary run = run_experiment(write_spec(dir, spec), options);
  CHECK_THAT(read_file(run.result_files[0]),
             Catch::Contains("Generated by `mpg run " + (dir.path() / "spec.json").string() +
                             " --set 'methods.LR.lambda=[1]'` (spec sha256 `"));
  CHECK_THAT(read_file(run.result_files[0]),
             Catch::Contains("The notes below are the spec's, written for its own settings: where they differ, the "
                             "`--set` overrides above are what ran."));
  CHECK(nlohmann::json::parse(read_file(run.result_files[2]))["overrides"] == nlohmann::json({"methods.LR.lambda=[1]"}));
  const auto row = nlohmann::json::parse(read_file(run.result_files[2]))["rows"][0];
  REQUIRE_FALSE(row["within_tolerance"].get<bool>());
  REQUIRE(row["recorded_causes"].size() == 1);
  CHECK_THAT(row["recorded_causes"][0].get<std::string>(), Catch::StartsWith("data: variant a4a ("));
  CHECK(row["standing"] == "substitute");
  CHECK(run.outside.empty());  // the one counting rule: a substitute's miss is counted apart
  CHECK(run.tally.published_cells == 0);
  CHECK(run.tally.apart_cells == 1);
}

TEST_CASE("Cache keys hold the code stamp: other code recomputes every cell, an unknown stamp caches nothing",
          "[harness_runs]") {
  if (!optdigits_present()) MPG_SKIP("optdigits is not in " << data_directory());
  TempDir dir;
  const std::string spec_path = write_spec(dir, small_spec());
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  options.code_stamp = "code-a";
  CHECK(run_experiment(spec_path, options).cached_cells == 0);
  CHECK(run_experiment(spec_path, options).cached_cells == 3);
  options.code_stamp = "code-b";
  CHECK(run_experiment(spec_path, options).cached_cells == 0);
  options.code_stamp = "unknown";
  CHECK(run_experiment(spec_path, options).cached_cells == 0);
  CHECK(run_experiment(spec_path, options).cached_cells == 0);
  // results/README.md indexes the table with its revision and the command that regenerates it.
  const std::string index = read_file(options.results_directory + "/README.md");
  CHECK_THAT(index, Catch::Contains("`small.{md,csv,json}`") && Catch::Contains("`mpg run " + spec_path + "`"));
}

