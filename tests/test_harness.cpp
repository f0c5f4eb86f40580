// Experiment harness (lib/harness/*) without shared data: spec validation, overrides, reproducible
// splits, the progress lines, and the code stamp and revision the tables carry (source_revision,
// source_stamp). The runs on OPTDIGITS are in test_harness_runs.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/progress.hpp"
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

// Everything written to a temporary stream so far.
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  return text;
}

// Runs a shell command in `directory` (which may hold quotes); its exit status.
int run_in(const fs::path& directory, const std::string& command) {
  std::string quoted = "'";
  for (const char c : directory.string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return std::system(("cd " + quoted + "' && (" + command + ") >/dev/null 2>&1").c_str());
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
  // --quick validates the full spec too: a bad value its quick patch replaces is still refused.
  spec = small_spec();
  spec["methods"]["LR"]["lambda"] = "big";
  spec["quick"] = {{"methods", {{"LR", {{"lambda", {1}}}}}}};
  CHECK_THROWS_WITH(load_spec(write_spec(dir, spec), true), Catch::Contains("methods.LR.lambda"));
  spec["methods"]["LR"]["lambda"] = {1, 4};
  CHECK_NOTHROW(load_spec(write_spec(dir, spec), true));
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

TEST_CASE("Progress: the time left from the last run's cell times, scaled by this run's", "[harness]") {
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    CellProgress progress("spec", true, 0, out);
    progress.start_phase(3, 30.0, 1);  // the last run: A 10 s, B 10 s, C 10 s
    progress.finish(progress.begin("A", 10), "A", true);   // cached: 20 s of the last run left, scale 1
    progress.finish(progress.begin("B", 10), "B", false);  // ~0 s instead of 10: scale 0.1 (its floor)
    progress.finish(progress.begin("C", 10), "C", false);  // the last cell: no estimate
    progress.start_phase(1);                               // no last times: no estimate
    progress.finish(progress.begin("D"), "D", false);
  }
  CHECK(contents(out) ==
        "[spec]    1/3    A  (cached)  [about 0m20s left]\n"
        "[spec]    2/3    B  [about 0m01s left]\n"
        "[spec]    3/3    C\n"
        "[spec]    1/1    D\n");
  std::fclose(out);
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

TEST_CASE("source_revision: the last commit of the code, -dirty with uncommitted changes to it", "[harness]") {
  if (std::system("git --version >/dev/null 2>&1") != 0) MPG_SKIP("no git");
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
  if (std::system("git --version >/dev/null 2>&1") != 0) MPG_SKIP("no git");
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
