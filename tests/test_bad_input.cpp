// Bad input at the door (issue 28): a matrix of malformed specs, data files and cache entries run
// through `mpg run` (exit status, message, no output file) and through the readers (messages that
// name file and line and quote at most ~80 characters of a bad token); the default results
// directory and the provenance line; a damaged cache entry is recomputed, never used.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/data/conll.hpp"
#include "lib/data/letor.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/data/optdigits.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/run_mpg.hpp"
#include "tests/shared_data.hpp"
#include "tests/synthetic_registry.hpp"

using namespace mpg;
using mpg::testing::RunResult;
using mpg::testing::SyntheticRegistry;
using mpg::testing::TempDir;
using mpg::testing::input_error_of;
using mpg::testing::quote;
using mpg::testing::run_mpg;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string write_spec(const TempDir& dir, const nlohmann::json& spec, const std::string& file = "spec.json") {
  const std::string path = dir.file(file);
  fs::create_directories(fs::path(path).parent_path());
  write_file_atomically(path, spec.dump(2));
  return path;
}

// Files under `directory` (recursively), none if it does not exist.
int files_under(const fs::path& directory) {
  if (!fs::exists(directory)) return 0;
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) count += entry.is_regular_file();
  return count;
}

}  // namespace

TEST_CASE("mpg run: a spec name that is not a plain file name is refused before any output", "[bad_input]") {
  TempDir dir;
  const SyntheticRegistry registry(dir);
  const std::string results = dir.file("out/results");
  for (const std::string name : {"../../escape/t9", "", ".hidden", "sub/t9", "t9\n"}) {
    INFO("name: " << name);
    const std::string spec = write_spec(dir, SyntheticRegistry::ranking_spec(name));
    const RunResult run = run_mpg(dir, "run " + quote(spec) + " --results " + quote(results) + " --quiet");
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Contains(spec) && Contains("name: expected a file name of letters, digits"));
    CHECK(files_under(dir.path() / "out") == 0);
    CHECK(!fs::exists(dir.path() / "escape"));
  }
}

TEST_CASE("mpg run: a subset larger than its file is an error naming the file; no table is written", "[bad_input]") {
  TempDir dir;
  const SyntheticRegistry registry(dir);
  const std::string results = dir.file("results");
  const RunResult too_many = run_mpg(
      dir, "run " + quote(write_spec(dir, SyntheticRegistry::statistics_spec("stats", 3))) + " --results " +
               quote(results) + " --quiet");
  CHECK(too_many.exit_code == 1);
  CHECK_THAT(too_many.err, Contains(registry.file("conll/train.txt") + ": has 2 sentences, fewer than subset conll.3 needs (3)"));
  CHECK(files_under(results) == 0);
  const RunResult exact = run_mpg(
      dir, "run " + quote(write_spec(dir, SyntheticRegistry::statistics_spec("stats", 2))) + " --results " +
               quote(results) + " --quiet");
  CHECK(exact.exit_code == 0);
  CHECK(fs::exists(results + "/stats.md"));
}

TEST_CASE("mpg run: bad data files and specs give one error naming file and line or key, and no table",
          "[bad_input]") {
  TempDir dir;
  const std::string results = dir.file("results");
  auto fails = [&](const nlohmann::json& spec, const std::string& fragment) {
    INFO(spec.dump());
    const RunResult run = run_mpg(dir, "run " + quote(write_spec(dir, spec)) + " --results " + quote(results) + " --quiet");
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Contains(fragment));
    CHECK(run.err.size() < 1000);
    CHECK(files_under(results) == 0);
  };
  {
    // A malformed line of a LETOR subset (whose registry sha256 is of the malformed text).
    const SyntheticRegistry registry(dir, {{"rank/S2.txt", "1 qid:1 1:0.5\n0 qid:1 1:zero\n"}});
    fails(SyntheticRegistry::ranking_spec("t"), registry.file("rank/S2.txt") + ":2: feature value in \"1:zero\"");
  }
  {
    // A data file whose content does not match its registry sha256.
    const SyntheticRegistry registry(dir, {{"rank/S4.txt", "0 qid:1 1:1\n"}}, /*rehash=*/false);
    fails(SyntheticRegistry::ranking_spec("t"), "rank/S4.txt");
  }
  {
    const SyntheticRegistry registry(dir);
    fs::remove(registry.file("rank/S5.txt"));
    fails(SyntheticRegistry::ranking_spec("t"), registry.file("rank/S5.txt") + ": missing data file");
    // A 1 MB unknown key and binary garbage as a value are quoted in part.
    auto spec = SyntheticRegistry::ranking_spec("t");
    spec[std::string(1000000, 'k')] = 1;
    fails(spec, "unknown key 'kkkkkkkk");
    fails(spec, "... (1000000 bytes)");
    spec = SyntheticRegistry::ranking_spec("t");
    spec["methods"]["RankSVM"]["kind"] = std::string("\x01\x02\xc3\xa9") + std::string(500, 'z');
    fails(spec, "unknown method kind '\\x01\\x02\\xc3\\xa9zzz");
    // A spec that is not JSON, a spec that is not there.
    write_file_atomically(dir.file("broken.json"), "{\"name\": \"t\",");
    const RunResult broken = run_mpg(dir, "run " + quote(dir.file("broken.json")) + " --results " + quote(results));
    CHECK(broken.exit_code == 1);
    CHECK_THAT(broken.err, Contains(dir.file("broken.json") + ": not valid JSON"));
    const RunResult missing = run_mpg(dir, "run " + quote(dir.file("nope.json")) + " --results " + quote(results));
    CHECK(missing.exit_code != 0);
    CHECK_THAT(missing.err, Contains("nope.json"));
    CHECK(files_under(results) == 0);
  }
}

TEST_CASE("Readers: errors name file and line and quote at most ~80 characters of the bad token", "[bad_input]") {
  const std::string huge(10'000'000, '7');
  const std::string libsvm = input_error_of([&] { parse_libsvm("1 1:1\n1 2:" + huge + "x\n", "big.txt"); });
  CHECK_THAT(libsvm, Contains("big.txt:2: value of feature 2 is not a number: \"777") &&
                         Contains("... (10000001 bytes)"));
  CHECK(libsvm.size() < 200);
  const std::string garbage = input_error_of([] { parse_libsvm(std::string("1 1:1\n\x01\xfe\x80\"\\ 1:1\n"), "bin.txt"); });
  CHECK_THAT(garbage, Contains("bin.txt:2: expected a numeric label, got \"\\x01\\xfe\\x80\\x22\\x5c\""));
  const std::string optdigits = input_error_of([&] { parse_optdigits(huge + "\n", "o.tra"); });
  CHECK_THAT(optdigits, Contains("o.tra:1: expected 65 comma-separated fields"));
  std::string row;
  for (int i = 0; i < 64; ++i) row += "1,";
  CHECK_THAT(input_error_of([&] { parse_optdigits(row + huge + "\n", "o.tra"); }),
             Contains("o.tra:1: class is ") && Contains("... (10000000 bytes)"));
  const std::string letor = input_error_of([&] { parse_letor("0 qid:1 1:" + huge + "y\n", "l.txt"); });
  CHECK_THAT(letor, Contains("l.txt:1: feature value in \"1:777") && Contains("(10000003 bytes)"));
  CHECK(letor.size() < 200);
  CHECK_THAT(input_error_of([&] { parse_conll("w P C " + huge + "\n", "c.txt"); }),
             Contains("c.txt:1: unknown named-entity tag \"777") && Contains("(10000000 bytes)"));
  CHECK_THROWS_WITH(parse_number_list("1," + huge + "z", "--potentials"),
                    Contains("--potentials: entry 2 \"777") && Contains("(10000001 bytes)"));
  // LETOR feature matrices are dense: an index that would need gigabytes is refused up front.
  CHECK_THAT(input_error_of([] { parse_letor("0 qid:1 900000000:1\n", "l.txt"); }),
             Contains("l.txt:1: feature index 900000000 is above 100000"));
  CHECK_THAT(input_error_of([] {
               std::string text;
               for (int i = 0; i < 3000; ++i) text += "0 qid:1 100000:1\n";
               parse_letor(text, "l.txt");
             }),
             Contains("l.txt: 3000 documents x 100000 features are too many"));
}

TEST_CASE("Readers: 1e-400 reads as 0 just as 1e-320 reads as a subnormal; 1e400 is out of range", "[bad_input]") {
  const LibsvmData data = parse_libsvm("1 1:1e-400 2:1e-320 3:-1e-400\n", "tiny.txt");
  CHECK(data.features.nonZeros() == 1);  // 1e-400 and -1e-400 are 0, not stored
  CHECK(data.features.coeff(0, 1) == 1e-320);
  CHECK_THAT(input_error_of([] { parse_libsvm("1 1:1e400\n", "big.txt"); }),
             Contains("big.txt:1: value of feature 1 is out of range: \"1e400\""));
  CHECK(parse_libsvm("1e-400 1:1\n", "label.txt").labels[0] == 0.0);
  CHECK(parse_number_list("1e-400,1e-320", "--potentials") == std::vector<double>{0.0, 1e-320});
  CHECK_THROWS_WITH(parse_number_list("1e400", "--potentials"), Contains("--potentials: entry 1 \"1e400\""));
}

TEST_CASE("A damaged cache entry is recomputed, never used; the summary counts cells of both phases", "[bad_input]") {
  TempDir dir;
  const SyntheticRegistry registry(dir);
  const std::string spec = write_spec(dir, SyntheticRegistry::ranking_spec("cached"));
  harness::RunOptions options;
  options.results_directory = dir.file("results");
  options.progress = false;
  options.threads = 1;
  const harness::RunSummary first = harness::run_experiment(spec, options);
  CHECK(first.cells == 3);  // two validation cells (C = 0.1, 1) and the chosen cell's test
  CHECK(first.cached_cells == 0);
  const std::string csv = read_file(first.result_files[1]);
  const auto old_table = nlohmann::json::parse(read_file(first.result_files[2]));
  const harness::RunSummary second = harness::run_experiment(spec, options);
  CHECK(second.cells == 3);
  CHECK(second.cached_cells == 3);

  // Damage every entry in a different way: an empty result, a changed score, a truncated file.
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir.file("results/.cache/cached")))
    if (e.path().extension() == ".json") entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  REQUIRE(entries.size() == 3);
  auto entry = nlohmann::json::parse(read_file(entries[0].string()));
  entry["result"] = nlohmann::json::object();
  write_file_atomically(entries[0].string(), entry.dump());
  entry = nlohmann::json::parse(read_file(entries[1].string()));
  entry["result"]["damaged"] = true;
  write_file_atomically(entries[1].string(), entry.dump());
  const std::string text = read_file(entries[2].string());
  write_file_atomically(entries[2].string(), text.substr(0, text.size() / 2));
  const harness::RunSummary third = harness::run_experiment(spec, options);
  CHECK(third.cells == 3);
  CHECK(third.cached_cells == 0);
  // The recomputed cells give the first run's numbers (times aside).
  CHECK(harness::compare_results(old_table, nlohmann::json::parse(read_file(third.result_files[2])), 0.0).empty());
  CHECK(read_file(second.result_files[1]) == csv);
}

TEST_CASE("Results go beside the spec's experiments/ (else ./results); the provenance names the spec and its sha256",
          "[bad_input]") {
  TempDir dir;
  const SyntheticRegistry registry(dir);
  const std::string spec = write_spec(dir, SyntheticRegistry::statistics_spec("where", 2), "project/experiments/where.json");
  CHECK(harness::default_results_directory(spec) == dir.file("project/results"));
  const RunResult run = run_mpg(dir, "run " + quote(spec) + " --quiet");
  REQUIRE(run.exit_code == 0);
  const std::string md = read_file(dir.file("project/results/where.md"));
  CHECK_THAT(md, Contains("Generated by `mpg run " + fs::weakly_canonical(spec).string() + "` (spec sha256 `" +
                          sha256_file_hex(spec) + "`"));
  const auto table = nlohmann::json::parse(read_file(dir.file("project/results/where.json")));
  CHECK(table["spec_sha256"] == sha256_file_hex(spec));

  // A spec elsewhere: results/ in the working directory.
  const std::string loose = write_spec(dir, SyntheticRegistry::statistics_spec("loose", 2), "loose.json");
  const fs::path before = fs::current_path();
  fs::create_directories(dir.file("cwd"));
  fs::current_path(dir.file("cwd"));
  CHECK(harness::default_results_directory(loose) == dir.file("cwd/results"));
  harness::RunOptions options;
  options.progress = false;
  const harness::RunSummary summary = harness::run_experiment(loose, options);
  fs::current_path(before);
  CHECK(fs::exists(dir.file("cwd/results/loose.md")));
  CHECK(summary.result_files.front() == dir.file("cwd/results/loose.md"));
}
