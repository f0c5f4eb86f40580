// Experiment harness (lib/harness/*): spec validation, overrides, reproducible splits, and the
// cell cache (a rerun is served from the cache with identical tables; a lost cell is recomputed;
// a run killed mid-way leaves no tables and resumes to the same tables), the progress lines,
// the code stamp in the cache keys and the revision in the tables.
#include <catch2/catch.hpp>

#include <fnmatch.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/progress.hpp"
#include "lib/base/io.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg;
using namespace mpg::harness;
namespace fs = std::filesystem;
using mpg::testing::TempDir;

namespace {

nlohmann::json small_spec() {
  return nlohmann::json::parse(R"({
    "name": "small", "metric": "f1",
    "datasets": {"OPT": {"registry": "optdigits", "one_vs_rest": true, "classes": [0]}},
    "protocol": {"validation_fraction": 0.3333333333, "split_seed": 5},
    "methods": {"LR": {"kind": "logistic_regression", "lambda": [1, 4]}},
    "published": {"LR": {"OPT": 0.9}},
    "tolerance": 0.2
  })");
}

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

// Everything written to a temporary stream so far.
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  return text;
}

std::string write_spec(const TempDir& dir, const nlohmann::json& spec) {
  const std::string path = (dir.path() / "spec.json").string();
  write_file_atomically(path, spec.dump());
  return path;
}

bool optdigits_present() {
  return fs::exists(fs::path(data_directory()) / "optdigits" / "optdigits.tra");
}

// True (with a warning) when the shared data has no OPTDIGITS: the calling test returns.
bool skipped_without_optdigits() {
  if (optdigits_present()) return false;
  WARN("skipped: optdigits is not in " << data_directory());
  return true;
}

}  // namespace

TEST_CASE("The shipped specs are valid, with and without --quick", "[harness]") {
  for (const auto& entry : fs::directory_iterator(std::string(MPG_SOURCE_DIR) + "/experiments")) {
    if (entry.path().extension() != ".json") continue;
    const std::string path = entry.path().string();
    INFO(path);
    CHECK_NOTHROW(load_spec(path, false));
    CHECK_NOTHROW(load_spec(path, true));
  }
}

TEST_CASE("Bad specs are rejected with the file and the key", "[harness]") {
  TempDir dir;
  auto rejects = [&](nlohmann::json spec, const std::string& fragment) {
    const std::string path = write_spec(dir, spec);
    INFO(spec.dump());
    CHECK_THROWS_WITH(load_spec(path, false), Catch::Contains(path) && Catch::Contains(fragment));
  };
  auto spec = small_spec();
  CHECK_NOTHROW(load_spec(write_spec(dir, spec), false));
  spec["colour"] = "red";
  rejects(spec, "unknown key 'colour'");
  spec = small_spec();
  spec["methods"]["LR"]["kind"] = "random_forest";
  rejects(spec, "unknown method kind 'random_forest'");
  spec = small_spec();
  spec["methods"]["LR"]["lambda"] = {1, -2};
  rejects(spec, "methods.LR.lambda");
  spec = small_spec();
  spec["datasets"]["OPT"]["variant"] = "nope";
  rejects(spec, "has no variant 'nope'");
  spec = small_spec();
  spec["datasets"]["OPT"]["registry"] = "mnist";
  rejects(spec, "no dataset 'mnist'");
  spec = small_spec();
  spec["published"]["SVM"] = {{"OPT", 0.5}};
  rejects(spec, "no method 'SVM'");
  spec = small_spec();
  spec["protocol"]["validation_fraction"] = 1.5;
  rejects(spec, "protocol.validation_fraction");
  spec = small_spec();
  spec.erase("metric");
  rejects(spec, "missing required key 'metric'");
  spec = small_spec();
  spec["methods"]["LR"]["max_game_solves"] = 5;  // an MPG parameter
  rejects(spec, "methods.LR: unknown key 'max_game_solves' (allowed: kind, lambda)");
  spec = small_spec();
  spec["methods"]["MPG"] = {{"kind", "mpg"}, {"lambda", {1}}, {"max_game_solves", -5}};
  rejects(spec, "methods.MPG.max_game_solves: value -5 is outside [0, ");
  spec["methods"]["MPG"]["max_game_solves"] = 5;
  spec["methods"]["MPG"]["game_solver"] = "simplex";
  rejects(spec, "methods.MPG.game_solver: expected one of auto, double_oracle, marginals");
  spec["methods"]["MPG"]["game_solver"] = "marginals";
  spec["metric"] = "precision_at_k";
  rejects(spec, "methods.MPG.game_solver: marginals solves the games of F1 tables only");
  spec["metric"] = "f1";
  spec["methods"]["MPG"]["game_solver"] = "auto";
  spec["methods"]["MPG"]["trainer"] = "joint";
  rejects(spec, "methods.MPG.max_game_solves: caps trainings over games (marginals, cutting_plane)");
  // A data set's method settings are checked as the method's entry with them merged in.
  spec = small_spec();
  spec["datasets"]["OPT"]["method_settings"] = {{"SVM", {{"lambda", {1}}}}};
  rejects(spec, "datasets.OPT.method_settings.SVM: no method 'SVM' in methods");
  spec["datasets"]["OPT"]["method_settings"] = {{"LR", {{"lambda", {-1}}}}};
  rejects(spec, "datasets.OPT.method_settings.LR.lambda");
  spec["datasets"]["OPT"]["method_settings"] = {{"LR", {{"kind", "mpg"}}}};
  rejects(spec, "datasets.OPT.method_settings.LR.kind: a data set's settings cannot change a method's kind");
  spec["datasets"]["OPT"]["method_settings"] = {{"LR", {{"max_game_solves", 5}}}};
  rejects(spec, "datasets.OPT.method_settings.LR: unknown key 'max_game_solves'");
  spec = small_spec();
  spec["methods"]["MPG"] = {{"kind", "mpg"}, {"lambda", {1}}, {"max_game_solves", 5}};
  spec["datasets"]["OPT"]["method_settings"] = {{"MPG", {{"trainer", "joint"}}}};
  rejects(spec, "datasets.OPT.method_settings.MPG.max_game_solves: caps trainings over games");
  spec["datasets"]["OPT"]["method_settings"] = {{"MPG", {{"trainer", "joint"}, {"max_game_solves", nullptr}}}};
  CHECK_NOTHROW(load_spec(write_spec(dir, spec), false));  // null removes the method's own cap here
  spec = small_spec();
  spec["name"] = "../escape";
  rejects(spec, "name: expected a file name");
  spec = small_spec();
  spec["quick"] = {{"methods", {{"LR", {{"lambda", "many"}}}}}};
  rejects(spec, "quick section");
  const std::string path = write_spec(dir, small_spec());
  CHECK_THROWS_WITH(load_spec(path, false, {"no_equals_sign"}), Catch::Contains("key.path=value"));
  write_file_atomically(path, "{ not json");
  CHECK_THROWS_WITH(load_spec(path, false), Catch::Contains("not valid JSON"));
}

TEST_CASE("Overrides and the quick patch change the spec without editing it", "[harness]") {
  TempDir dir;
  auto spec = small_spec();
  spec["quick"] = {{"methods", {{"LR", {{"lambda", {8}}}}}}};
  const std::string path = write_spec(dir, spec);
  CHECK(load_spec(path, true)["methods"]["LR"]["lambda"] == nlohmann::json({8}));
  CHECK(load_spec(path, false)["methods"]["LR"]["lambda"] == nlohmann::json({1, 4}));
  const auto changed = load_spec(path, false, {"protocol.split_seed=7", "methods.LR.lambda=[0.5]"});
  CHECK(changed["protocol"]["split_seed"] == 7);
  CHECK(changed["methods"]["LR"]["lambda"] == nlohmann::json({0.5}));
  const auto table8 = load_spec(std::string(MPG_SOURCE_DIR) + "/experiments/table8_f1.json", false,
                                {"datasets.ADULT.variant=a4a"});
  CHECK(table8["datasets"]["ADULT"]["variant"] == "a4a");
  CHECK_THROWS_WITH(load_spec(path, false, {"datasets.OPT.variant=a4a"}), Catch::Contains("no variant 'a4a'"));
  CHECK_THROWS_WITH(load_spec(path, false, {"datasets.opt.variant=a4a"}),
                    Catch::Contains("override 'datasets.opt.variant=a4a': 'datasets' has no key 'opt' (keys: OPT)"));

  // A quick section that drops a dataset must not block an override that keeps only that
  // dataset: the quick variant is checked as --quick would build it (patch, then overrides).
  auto two_sets = small_spec();
  two_sets["datasets"]["OPT2"] = two_sets["datasets"]["OPT"];
  two_sets["published"]["LR"]["OPT2"] = 0.9;
  two_sets["quick"] = {{"datasets", {{"OPT2", nullptr}}}};
  const std::string two_path = write_spec(dir, two_sets);
  const std::vector<std::string> only_opt2 = {R"(datasets={"OPT2":{"registry":"optdigits","one_vs_rest":true}})",
                                              R"(published={"LR":{"OPT2":0.9}})"};
  CHECK(load_spec(two_path, false, only_opt2)["datasets"].size() == 1);
  CHECK(load_spec(two_path, true, only_opt2)["datasets"].contains("OPT2"));

  // "null" removes a key, as in the quick patch; a removed dataset or method takes its published
  // numbers along, so one of them can be run alone.
  const auto without_opt = load_spec(two_path, false, {"datasets.OPT=null"});
  CHECK(without_opt["datasets"].size() == 1);
  CHECK(without_opt["published"] == nlohmann::json::parse(R"({"LR": {"OPT2": 0.9}})"));
  auto two_methods = small_spec();
  two_methods["methods"]["LR2"] = two_methods["methods"]["LR"];
  two_methods["published"]["LR2"] = {{"OPT", 0.8}};
  const auto only_lr2 = load_spec(write_spec(dir, two_methods), false, {"methods.LR=null"});
  CHECK(only_lr2["methods"].size() == 1);
  CHECK(only_lr2["published"] == nlohmann::json::parse(R"({"LR2": {"OPT": 0.8}})"));
  CHECK_FALSE(load_spec(path, false, {"tolerance=null"}).contains("tolerance"));  // back to the default
  CHECK_THROWS_WITH(load_spec(path, false, {"datasets.NOPE=null"}),
                    Catch::Contains("removes 'datasets.NOPE', which the spec does not have"));
  CHECK_THROWS_WITH(load_spec(path, false, {"datasets.OPT=null"}), Catch::Contains("datasets: expected a non-empty object"));
  // Keys that hold dots (Table X's subsets) are addressed by the longest key present.
  const std::string table10 = std::string(MPG_SOURCE_DIR) + "/experiments/table10_conll_f1.json";
  const auto conll = load_spec(table10, false, {"subsets.conll.1000=null", "subsets.conll.3000=null",
                                                "published.MPG.conll.300.testa.PER=0.5"});
  CHECK(conll["subsets"] == nlohmann::json::parse(R"({"conll.300": 300})"));
  CHECK(conll["published"]["MPG"]["conll.300"]["testa"]["PER"] == 0.5);
  CHECK_FALSE(conll["published"]["CRF"].contains("conll.1000"));
  // A spec error is reported against the variant asked for, not its quick section.
  CHECK_THROWS_WITH(load_spec(path, false, {"tolerance=2"}), !Catch::Contains("quick section"));
}

TEST_CASE("Splits are reproducible, disjoint and of the requested size", "[harness]") {
  const auto [train, held_out] = split_indices(10, 0.3, 42);
  CHECK(held_out.size() == 3);
  CHECK(train.size() == 7);
  std::vector<std::size_t> all(train);
  all.insert(all.end(), held_out.begin(), held_out.end());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i] == i);
  CHECK(split_indices(10, 0.3, 42) == split_indices(10, 0.3, 42));
  CHECK(split_indices(1000, 0.5, 1).second != split_indices(1000, 0.5, 2).second);
  // Pinned: the same split on every platform (no implementation-defined distributions).
  CHECK(split_indices(12, 0.25, 2017).second == std::vector<std::size_t>{1, 4, 5});
}

TEST_CASE("A wrong sha256 is an error naming the file", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("Rerun is served from the cache; a lost cell is recomputed; same tables", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("A run killed mid-way leaves no tables and resumes to the same tables", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("Capped MPG trainings and games are listed in the notes and as the causes of a miss", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("F1 validation without its game: the maximin action's score, no game gap reported", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("Binary F1 tables add MPG's test games scored by the likeliest action and by expected F1", "[harness]") {
  if (skipped_without_optdigits()) return;
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
TEST_CASE("The Table VIII trainings that stalled on dropped sizes or failed in GLPK certify", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("A data set's method settings replace the method's own there, and the tables list them", "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("A data substitute is named as a cause of a miss; overrides are named in the tables", "[harness]") {
  if (!fs::exists(fs::path(data_directory()) / "adult" / "a3a")) {
    WARN("skipped: adult/a3a is not in " << data_directory());
    return;
  }
  TempDir dir;
  nlohmann::json spec = small_spec();
  spec["datasets"] = {{"ADULT", {{"registry", "adult"}, {"positive_label", 1}}}};  // a3a: the papers say a4a
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
  CHECK_THAT(row["recorded_causes"][0].get<std::string>(), Catch::StartsWith("data: variant a3a ("));
  REQUIRE(run.outside.size() == 1);
  CHECK_THAT(run.outside[0], Catch::Contains("; data: variant a3a ("));
}

TEST_CASE("Progress: one line per finished cell, counted per phase; nothing when disabled", "[harness]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    CellProgress progress("spec", true, 0, out);
    progress.start_phase(2);
    const long a = progress.begin("A");
    const long b = progress.begin("B");
    progress.finish(b, "B  validation 0.5", false);
    progress.finish(a, "A  validation 0.25", true);
    progress.start_phase(1);
    progress.finish(progress.begin("A test"), "A  test 0.75", false);
  }
  CHECK(contents(out) ==
        "[spec]    1/2    B  validation 0.5\n"
        "[spec]    2/2    A  validation 0.25  (cached)\n"
        "[spec]    1/1    A  test 0.75\n");
  std::fclose(out);

  std::FILE* quiet = std::tmpfile();
  REQUIRE(quiet != nullptr);
  {
    CellProgress progress("spec", false, 0.01, quiet);
    progress.start_phase(1);
    const long a = progress.begin("A");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    progress.finish(a, "A", false);
  }
  CHECK(contents(quiet).empty());
  std::fclose(quiet);
}

TEST_CASE("Progress: a heartbeat lists the running cells when no line was printed for a while", "[harness]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    CellProgress progress("spec", true, 0.05, out);
    progress.start_phase(3);
    progress.finish(progress.begin("quick"), "quick  validation 1", false);
    const long slow = progress.begin("ADULT     MPG   lambda=0.5");
    const long slower = progress.begin("OPT  MPG lambda=2");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    progress.finish(slow, "ADULT  MPG  lambda=0.5  validation 0.6", false);
    progress.finish(slower, "OPT  MPG  lambda=2  validation 0.9", false);
  }
  const std::string text = contents(out);
  std::fclose(out);
  // Padding squeezed, cells in start order, times in minutes and seconds; counts unchanged.
  CHECK(text.find("[spec]    1/3    running: ADULT MPG lambda=0.5 (0m00s), OPT MPG lambda=2 (0m00s)\n") !=
        std::string::npos);
  CHECK_THAT(text, Catch::Matchers::EndsWith("[spec]    2/3    ADULT  MPG  lambda=0.5  validation 0.6\n"
                                             "[spec]    3/3    OPT  MPG  lambda=2  validation 0.9\n"));
}

namespace {

// Runs a shell command in `directory` (which may hold quotes); its exit status.
int run_in(const fs::path& directory, const std::string& command) {
  std::string quoted = "'";
  for (const char c : directory.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return std::system(("cd " + quoted + "' && (" + command + ") >/dev/null 2>&1").c_str());
}

}  // namespace

TEST_CASE("Cache keys hold the code stamp: other code recomputes every cell, an unknown stamp caches nothing",
          "[harness]") {
  if (skipped_without_optdigits()) return;
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

TEST_CASE("source_revision: the last commit of the code, -dirty with uncommitted changes to it", "[harness]") {
  if (std::system("git --version >/dev/null 2>&1") != 0) {
    WARN("skipped: no git");
    return;
  }
  TempDir dir;
  const fs::path repo = dir.path() / "source 'tree'";  // quoting of the directory too
  fs::create_directories(repo / "lib");
  fs::create_directories(repo / "docs");
  const std::string git = "git -c user.name=test -c user.email=test@example.com -c commit.gpgsign=false ";
  REQUIRE(run_in(repo, "git init -q") == 0);
  std::ofstream(repo / "lib" / "game.cpp") << "1\n";
  REQUIRE(run_in(repo, git + "add -A && " + git + "commit -q -m first") == 0);
  const std::string hash_file = dir.file("hash");
  REQUIRE(run_in(repo, "git log -1 --format=%h > '" + hash_file + "'") == 0);
  std::string first = read_file(hash_file);
  while (!first.empty() && first.back() == '\n') first.pop_back();
  const std::string root = repo.string();
  CHECK(source_revision(root) == first);
  std::ofstream(repo / "docs" / "notes.md") << "1\n";  // not code, committed later
  REQUIRE(run_in(repo, git + "add -A && " + git + "commit -q -m docs") == 0);
  CHECK(source_revision(root) == first);
  std::ofstream(repo / "lib" / "game.cpp") << "2\n";
  CHECK(source_revision(root) == first + "-dirty");
  fs::create_directories(dir.path() / "plain");
  CHECK(source_revision((dir.path() / "plain").string()) == "unknown");
}

TEST_CASE("source_stamp: the content of the compiled code, the same at build time and at run time", "[harness]") {
  if (std::system("git --version >/dev/null 2>&1") != 0) {
    WARN("skipped: no git");
    return;
  }
  TempDir dir;
  const fs::path repo = dir.path() / "tree";
  fs::create_directories(repo / "lib");
  fs::create_directories(repo / "cli");
  fs::create_directories(repo / "docs");
  const std::string git = "git -c user.name=test -c user.email=test@example.com -c commit.gpgsign=false ";
  REQUIRE(run_in(repo, "git init -q") == 0);
  std::ofstream(repo / "lib" / "game.cpp") << "1\n";
  std::ofstream(repo / "cli" / "main.cpp") << "1\n";
  std::ofstream(repo / "CMakeLists.txt") << "1\n";
  std::ofstream(repo / "docs" / "notes.md") << "1\n";
  REQUIRE(run_in(repo, git + "add -A && " + git + "commit -q -m first") == 0);
  const std::string root = repo.string();
  // What cmake/source_stamp.cmake writes into the binary for the tree at `tree`.
  auto build_time_stamp = [&](const std::string& tree) {
    const std::string out = dir.file("stamp.cpp");
    REQUIRE(std::system(("'" MPG_CMAKE_COMMAND "' -DSOURCE_DIR='" + tree + "' -DOUTPUT='" + out + "' -P '" +
                         std::string(MPG_SOURCE_DIR) + "/cmake/source_stamp.cmake'")
                            .c_str()) == 0);
    const std::string text = read_file(out);
    std::smatch match;
    REQUIRE(std::regex_search(text, match, std::regex("return \"([0-9a-f]{64}|unknown)\";")));
    return match[1].str();
  };

  const std::string first = source_stamp(root);
  CHECK(first.size() == 64);
  CHECK(build_time_stamp(root) == first);
  std::ofstream(repo / "docs" / "notes.md") << "2\n";  // not compiled code
  CHECK(source_stamp(root) == first);
  std::ofstream(repo / "lib" / "game.cpp") << "2\n";  // an uncommitted edit
  const std::string edited = source_stamp(root);
  CHECK(edited != first);
  CHECK(build_time_stamp(root) == edited);
  REQUIRE(run_in(repo, git + "commit -q -am second") == 0);  // committing does not change the content
  CHECK(source_stamp(root) == edited);
  std::ofstream(repo / "lib" / "new.cpp") << "1\n";  // untracked, but the build's glob compiles it
  const std::string added = source_stamp(root);
  CHECK(added != edited);
  CHECK(build_time_stamp(root) == added);
  fs::remove(repo / "cli" / "main.cpp");  // tracked, deleted
  CHECK(source_stamp(root) != added);
  CHECK(build_time_stamp(root) == source_stamp(root));

  fs::create_directories(dir.path() / "plain");
  CHECK(source_stamp((dir.path() / "plain").string()) == "unknown");
  CHECK(build_time_stamp((dir.path() / "plain").string()) == "unknown");
}
