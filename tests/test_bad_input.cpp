// Bad input at the door (issue 28): a matrix of malformed specs, data files and cache entries run
// through `mpg run` (exit status, message, no output file) and through the readers (messages that
// name file and line and quote at most ~80 characters of a bad token); the default results
// directory and the provenance line; a damaged cache entry is recomputed, never used.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
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
using mpg::testing::read_text;
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
  CHECK_THAT(md, !Contains("The notes below are the spec's"));  // no overrides
  const auto table = nlohmann::json::parse(read_file(dir.file("project/results/where.json")));
  CHECK(table["spec_sha256"] == sha256_file_hex(spec));

  // A spec in another checkout's experiments/ (a worktree) named like one of this repository's:
  // named "experiments/<file>" in the provenance line and the index, which say it differs.
  const std::string worktree_spec = write_spec(dir, SyntheticRegistry::statistics_spec("table9_conll_statistics", 2),
                                               "worktree/experiments/table9_conll_statistics.json");
  REQUIRE(run_mpg(dir, "run " + quote(worktree_spec) + " --quiet").exit_code == 0);
  const std::string worktree_md = read_file(dir.file("worktree/results/table9_conll_statistics.md"));
  CHECK_THAT(worktree_md, Contains("Generated by `mpg run experiments/table9_conll_statistics.json` (spec sha256 `"));
  CHECK_THAT(worktree_md, Contains("differs from the repository's experiments/table9_conll_statistics.json"));
  CHECK_THAT(read_file(dir.file("worktree/results/README.md")),
             Contains("`mpg run experiments/table9_conll_statistics.json`"));

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

namespace {

// One command of the CLI that must fail before any work: exit status 1, each fragment in the
// message, a short message, and `output` (the file the command would write) absent.
void refused(const TempDir& dir, const std::string& arguments, const std::vector<std::string>& fragments,
             const std::string& output) {
  INFO("mpg " << arguments);
  const RunResult run = run_mpg(dir, arguments);
  CHECK(run.exit_code == 1);
  for (const auto& fragment : fragments) CHECK_THAT(run.err, Contains(fragment));
  CHECK(run.err.size() < 1000);
  CHECK_FALSE(fs::exists(output));
}

std::string model_text(const std::string& metric_keys, const std::string& rest) {
  return R"({"format":"mpg-binary-model","version":1,"metric":)" + metric_keys + R"(,"lambda":1,)" + rest + "}";
}

}  // namespace

TEST_CASE("mpg predict: a model file is validated whole before any work, errors naming the file and key",
          "[bad_input]") {
  TempDir dir;
  write_file_atomically(dir.file("test.txt"), "1\n-1\n1 1:1\n");
  const std::string predictions = dir.file("predictions.txt");
  auto refused_model = [&](const std::string& text, const std::vector<std::string>& fragments) {
    write_file_atomically(dir.file("m.json"), text);
    std::vector<std::string> all = {dir.file("m.json") + ": "};
    all.insert(all.end(), fragments.begin(), fragments.end());
    refused(dir, "predict --model " + quote(dir.file("m.json")) + " --test " + quote(dir.file("test.txt")) +
                     " --predictions " + quote(predictions),
            all, predictions);
  };
  const std::string f1 = "\"f1\"";
  // The segfaults of issue 28.
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":-1,"theta":[])"),
                {"key 'feature_count': expected an integer from 0 to 16777216, got -1"});
  refused_model(model_text(f1, R"("bias":0,"positive_label":1,"feature_count":0,"theta":[0.5])"),
                {"key 'bias': expected 1 (the bias feature `mpg train` appends), got 0"});
  for (const std::string bias : {"-1", "2", "1.5", "\"1\"", "null"})
    refused_model(model_text(f1, R"("bias":)" + bias + R"(,"positive_label":1,"feature_count":0,"theta":[0.5])"),
                  {"key 'bias': ", "got " + bias});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":10.7,"theta":[0.5])"),
                {"key 'feature_count': expected an integer from 0 to 16777216, got 10.7"});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":2,"theta":[0.5])"),
                {"key 'theta': has 1 weights, expected feature_count + 1 = 3"});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":1,"theta":[1e999,0])"),
                {"key 'theta': a number beyond the range of a double", "1e999"});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":1,"theta":[0.5,"x"])"),
                {"key 'theta': weight 1 is not a finite number: \"x\""});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1e999,"feature_count":0,"theta":[0.5])"),
                {"key 'positive_label': a number beyond the range of a double"});
  refused_model(model_text(f1, R"("bias":1,"positive_label":1,"feature_count":0,"theta":[0.5],"lamda":2)"),
                {"key 'lamda': unknown key of an mpg binary model"});
  refused_model(R"({"format":"mpg-binary-model","metric":"f1","bias":1,"positive_label":1,"feature_count":0,"theta":[0.5]})",
                {"key 'lambda': missing"});
  refused_model("[1, 2]", {"a model file holds one JSON object, not array"});
  // Negative k and k_fraction of a precision@k model (they wrapped to 18446744073709551615).
  const std::string pk = R"("precision_at_k","adversary":"unrestricted")";
  const std::string rest = R"("bias":1,"positive_label":1,"feature_count":0,"theta":[0.5])";
  refused_model(model_text(pk + R"(,"k_fraction":0.5,"k":-1)", rest), {"key 'k': expected an integer from 0 to", "got -1"});
  refused_model(model_text(pk + R"(,"k_fraction":0.5,"k":0)", rest), {"key 'k': expected k >= 1, got 0"});
  refused_model(model_text(pk + R"(,"k_fraction":-0.5)", rest), {"key 'k_fraction': expected a fraction from 0 to 1, got -0.5"});
  // A valid model predicts; one whose potentials are beyond what a game resolves names the test file's line.
  write_file_atomically(dir.file("m.json"), model_text(f1, R"("bias":1,"positive_label":1,"feature_count":1,"theta":[1000,0])"));
  CHECK(run_mpg(dir, "predict --quiet --model " + quote(dir.file("m.json")) + " --test " + quote(dir.file("test.txt"))).exit_code == 0);
  write_file_atomically(dir.file("test.txt"), "1 1:1\n-1 1:1e7\n");
  refused(dir, "predict --model " + quote(dir.file("m.json")) + " --test " + quote(dir.file("test.txt")) +
                   " --predictions " + quote(predictions),
          {dir.file("test.txt") + ":2: the example's potential psi = theta . x = 1e+10 is beyond +-1e+09"}, predictions);
}

TEST_CASE("mpg train: huge indices, extreme values, one class only and unwritable outputs fail before the work",
          "[bad_input]") {
  TempDir dir;
  const std::string model = dir.file("m.json");
  auto train = [&](const std::string& data, const std::string& options = "") {
    write_file_atomically(dir.file("train.txt"), data);
    return "train --lambda 1 --train " + quote(dir.file("train.txt")) + " --model " + quote(model) + options;
  };
  const std::string file = dir.file("train.txt");
  // Memory follows the largest index: one above 2^24 is refused instead of exhausting memory.
  refused(dir, train("1 1:1\n-1 900000000:1\n"), {file + ":2: feature index 900000000 is above the limit 16777216"}, model);
  for (const std::string value : {"1e200", "1e308", "-1e20"})
    refused(dir, train("1 1:1\n-1 1:" + value + "\n"), {file + ":2: value of feature 1 is \"" + value + "\", beyond +-1e+12"},
            model);
  // No positive example (labels 2 and -1; a NaN positive label matches none); no negative one.
  refused(dir, train("2 1:1\n-1 1:2\n2 2:1\n"),
          {file + ": no positive example to train on: the positive label is 1 and the file's labels are -1 x 1, 2 x 2"},
          model);
  refused(dir, train("1 1:1\n-1 1:2\n", " --positive nan"), {file + ": no positive example", "positive label is nan"}, model);
  refused(dir, train("1 1:1\n1 1:2\n"), {file + ": no negative example to train on"}, model);
  // Outputs are checked first: the missing training file is not even read.
  const std::string nowhere = dir.file("nodir/m.json");
  refused(dir, "train --lambda 1 --train missing.txt --model " + quote(nowhere),
          {"--model " + nowhere + ": the directory " + dir.file("nodir") + " does not exist"}, nowhere);
  refused(dir, "train --lambda 1 --train missing.txt --model " + quote(dir.path().string()), {": is a directory"}, model);
  CHECK(run_mpg(dir, train("1 1:1\n-1 1:-1\n", " --quiet")).exit_code == 0);
  CHECK(fs::exists(model));
}

TEST_CASE("Outputs never destroy inputs: an output that is an input is refused, a symbolic link is written through",
          "[bad_input]") {
  TempDir dir;
  const std::string data = "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n";
  write_file_atomically(dir.file("train.txt"), data);
  const std::string train = dir.file("train.txt");
  // --model naming the training file, directly or through a link: refused before any work.
  fs::create_symlink(train, dir.file("alias.txt"));
  for (const std::string& model : {train, dir.file("alias.txt")}) {
    const RunResult run = run_mpg(dir, "train --lambda 1 --quiet --train " + quote(train) + " --model " + quote(model));
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Contains("--model '" + model + "' is the same file as --train '" + train + "'"));
    CHECK(read_file(train) == data);
  }
  // A model path that is a link to another file: the link stays, its target gets the model.
  write_file_atomically(dir.file("target.json"), "old");
  fs::create_symlink(dir.file("target.json"), dir.file("link.json"));
  REQUIRE(run_mpg(dir, "train --lambda 1 --quiet --train " + quote(train) + " --model " + quote(dir.file("link.json")))
              .exit_code == 0);
  CHECK(fs::is_symlink(fs::symlink_status(dir.file("link.json"))));
  CHECK_THAT(read_file(dir.file("target.json")), Contains("mpg-binary-model"));
  // --predictions naming the test file or the model: refused, both unchanged.
  const std::string model = dir.file("target.json");
  const std::string model_text = read_file(model);
  for (const std::string& out : {train, model}) {
    const RunResult run =
        run_mpg(dir, "predict --model " + quote(model) + " --test " + quote(train) + " --predictions " + quote(out));
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Contains("is the same file as"));
  }
  CHECK(read_file(train) == data);
  CHECK(read_file(model) == model_text);
}

TEST_CASE("mpg solve-game: potentials beyond 1e9 and a k out of range are refused naming the value", "[bad_input]") {
  TempDir dir;
  const std::string none = dir.file("none");
  refused(dir, "solve-game --potentials 1e308,1e308", {"potential psi_1 = 1e+308 is beyond +-1e+09"}, none);
  refused(dir, "solve-game --potentials 5e300,2e300,9e300,4e300 --solver double_oracle",
          {"potential psi_1 = 5e+300 is beyond +-1e+09"}, none);
  refused(dir, "solve-game --potentials=0.5,-2e9 --solver marginals", {"potential psi_2 = -2e+09"}, none);
  const std::string pk = "solve-game --metric precision_at_k --potentials 0.5,0.25 ";
  refused(dir, pk + "--k -1", {"--k must lie in 1..n = 1..2 for these 2 potentials, got -1"}, none);
  refused(dir, pk + "--k 0", {"--k must lie in 1..n = 1..2 for these 2 potentials, got 0"}, none);
  refused(dir, pk + "--k 3", {"got 3"}, none);
  refused(dir, pk, {"--metric precision_at_k needs --k"}, none);
  refused(dir, "solve-game --potentials 0.5,0.25 --k 1", {"--k is a parameter of --metric precision_at_k; f1 has none"}, none);
  CHECK(run_mpg(dir, pk + "--k 1 --quiet").exit_code == 0);
  CHECK(run_mpg(dir, "solve-game --quiet --potentials 1e9,-1e9,0.5").exit_code == 0);
}

TEST_CASE("mpg run: a --results path that is a file fails before any cell runs", "[bad_input]") {
  TempDir dir;
  const SyntheticRegistry registry(dir);
  // The data file is missing too: the results directory is checked first.
  fs::remove(registry.file("rank/S5.txt"));
  write_file_atomically(dir.file("taken"), "a file\n");
  const RunResult run = run_mpg(dir, "run " + quote(write_spec(dir, SyntheticRegistry::ranking_spec("t"))) +
                                         " --results " + quote(dir.file("taken")) + " --quiet");
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Contains("cannot write results to " + dir.file("taken") + ": "));
  CHECK(read_text(dir.file("taken")) == "a file\n");
}

namespace {

// `text` unchanged in the file at `path` (an input of a refused command).
void unchanged(const std::string& path, const std::string& text) {
  INFO(path);
  CHECK(read_text(path) == text);
}

// An array nested `depth` deep: [[[...]]].
std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("JSON limits: nesting is measured outside strings before parsing; a deeper file is refused by name",
          "[bad_input]") {
  CHECK_FALSE(json_limit_problem(nested(kMaxJsonDepth)));
  CHECK(json_limit_problem(nested(kMaxJsonDepth + 1)) ==
        "JSON nested deeper than 256 levels (the limit) at byte 257");
  // Brackets inside strings, escaped quotes included, do not count.
  CHECK_FALSE(json_limit_problem("{\"a\": \"\\\"" + nested(1000) + "\"}"));
  CHECK_THROWS_WITH(parse_json("{\"a\": " + nested(300) + "}", "x.json"),
                    "x.json: JSON nested deeper than 256 levels (the limit) at byte 262");
  CHECK(parse_json_or_discarded(nested(300)).is_discarded());

  // The crash of issue 56 (stack overflow from ~75,000 levels): a model and a spec nested 200,000 deep.
  TempDir dir;
  const std::string test = dir.file("test.txt");
  const std::string data = "1 1:1\n-1 1:-1\n";
  write_file_atomically(test, data);
  const std::string deep_model = dir.file("deep.json");
  const std::string model = R"({"format":)" + nested(200000) + "}";
  write_file_atomically(deep_model, model);
  const std::string predictions = dir.file("p.txt");
  refused(dir, "predict --model " + quote(deep_model) + " --test " + quote(test) + " --predictions " + quote(predictions),
          {deep_model + ": JSON nested deeper than 256 levels (the limit) at byte 266"}, predictions);
  unchanged(deep_model, model);
  unchanged(test, data);
  const std::string spec = dir.file("deep_spec.json");
  const std::string spec_text = R"({"name": "t", "notes": )" + nested(200000) + "}";
  write_file_atomically(spec, spec_text);
  refused(dir, "run " + quote(spec) + " --results " + quote(dir.file("results")) + " --quiet",
          {spec + ": JSON nested deeper than 256 levels"}, dir.file("results/t.json"));
  unchanged(spec, spec_text);
  // An override on the command line too (one argument holds at most 128 KiB).
  const std::string plain = dir.file("plain.json");
  write_file_atomically(plain, R"({"name": "t"})");
  refused(dir, "run " + quote(plain) + " --results " + quote(dir.file("results")) + " --set " +
                   quote("notes=" + nested(50000)),
          {plain + ": override 'notes=[[[", "': JSON nested deeper than 256 levels (the limit) at byte 257"},
          dir.file("results/t.json"));
  // --set takes one value per occurrence: a spec after it is still the spec.
  refused(dir, "run --set " + quote("notes=" + nested(50000)) + " " + quote(plain) + " --results " +
                   quote(dir.file("results")),
          {plain + ": override 'notes=[[[", "': JSON nested deeper than 256 levels (the limit) at byte 257"},
          dir.file("results/t.json"));
}

TEST_CASE("Input limits: /dev/zero and a gzip bomb end at the line limit, naming the file; --help states the limits",
          "[bad_input]") {
  TempDir dir;
  const std::string model = dir.file("m.json");
  refused(dir, "train --lambda 1 --train /dev/zero --model " + quote(model),
          {"mpg: error: /dev/zero:1: a line longer than 64 MiB (the limit)"}, model);
  // 80 MB of NUL bytes in a ~80 KB .gz.
  const std::string bomb = dir.file("bomb.gz");
  REQUIRE(std::system(("head -c 80000000 /dev/zero | gzip -9 > " + quote(bomb)).c_str()) == 0);
  CHECK(fs::file_size(bomb) < 1000000);
  refused(dir, "train --lambda 1 --train " + quote(bomb) + " --model " + quote(model),
          {bomb + ":1: a line longer than 64 MiB (the limit)"}, model);
  const RunResult help = run_mpg(dir, "train --help");
  CHECK_THAT(help.out, Contains("files up to 1024 MiB after decompression, lines up to 64 MiB, JSON nested up to 256 levels"));
}

TEST_CASE("mpg train: a file with one feature index 2^24 trains on the columns that occur; predict reads the model",
          "[bad_input]") {
  TempDir dir;
  std::string data;
  for (int i = 0; i < 30; ++i)
    data += fmt::format("{} 1:{} 7:{}{}\n", i % 3 == 0 ? 1 : -1, 0.1 * (i % 7), 0.05 * i,
                        i == 4 ? " 16777216:1" : "");
  const std::string train = dir.file("idx.train");
  write_file_atomically(train, data);
  const std::string model = dir.file("m.json");
  // Before issue 56 this grew ~1 GB per cutting-plane iteration (bad_alloc at 3 GB); under a cap of
  // 600 MB of address space it now trains (peak RSS ~20 MB, by /usr/bin/time -v).
  const std::string err = dir.file("train.err");
  const std::string command = "ulimit -v 600000; " + quote(MPG_CLI_PATH) + " train --metric f1 --lambda 1 --quiet --train " +
                              quote(train) + " --model " + quote(model) + " 2>" + quote(err);
  const int status = std::system(command.c_str());
  INFO(read_text(err));
  REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  unchanged(train, data);
  const nlohmann::json written = nlohmann::json::parse(read_text(model));
  CHECK(written.at("version") == 2);
  CHECK(written.at("feature_count") == 16777216);
  CHECK(written.at("theta_columns") == nlohmann::json({1, 7, 16777216}));
  CHECK(written.at("theta").size() == 4);
  // predict maps the test file's columns through the list (the others weigh 0).
  const RunResult predicted = run_mpg(dir, "predict --quiet --json --model " + quote(model) + " --test " + quote(train));
  CHECK(predicted.exit_code == 0);
  CHECK_THAT(predicted.out, Contains("\"n\": 30"));
  // A listed column beyond feature_count, or out of order, is refused naming the key.
  const std::string test = dir.file("test.txt");
  write_file_atomically(test, "1 1:1\n-1 1:-1\n");
  for (const std::string columns : {"[2, 1]", "[1, 8]", "[0, 1]"}) {
    write_file_atomically(model, R"({"format":"mpg-binary-model","version":2,"metric":"f1","lambda":1,"bias":1,)"
                                 R"("positive_label":1,"feature_count":7,"theta_columns":)" + columns +
                                     R"(,"theta":[0.5,0.5,0]})");
    refused(dir, "predict --model " + quote(model) + " --test " + quote(test) + " --predictions " + quote(dir.file("p")),
            {model + ": key 'theta_columns': expected ascending indices from 1 to feature_count = 7"}, dir.file("p"));
  }
}

TEST_CASE("Messages in the user's words: ranges, one-example games, no positives, huge weights, NaN lambda, "
          "unwritable caches", "[bad_input]") {
  TempDir dir;
  const std::string none = dir.file("none");
  // CLI11's ranges printed 309 digits and exited 105.
  refused(dir, "solve-game --potentials 0.5,0.25 --tolerance 0", {"--tolerance: must be > 0, got 0"}, none);
  refused(dir, "solve-game --potentials 0.5,0.25 --smoothing 2", {"--smoothing: must be from 0 to 0.99, got 2"}, none);
  refused(dir, "solve-game --potentials 0.5,0.25 --max-actions -1", {"--max-actions: must be >= 0, got -1"}, none);
  CHECK(run_mpg(dir, "solve-game --potentials 0.5,0.25 --tolerance 0").err.find("179769") == std::string::npos);
  // A game of one example: solved exactly by the double oracle; the solver over marginals refuses it.
  const RunResult one = run_mpg(dir, "solve-game --quiet --json --potentials 0.3");
  CHECK(one.exit_code == 0);
  CHECK_THAT(one.out, Contains("\"n\": 1"));
  refused(dir, "solve-game --potentials 0.3 --solver marginals",
          {"--solver marginals needs a game of at least 2 examples, this one has 1"}, none);
  // Test files of one example and without a positive one.
  const std::string model = dir.file("m.json");
  const std::string model_json = model_text("\"f1\"", R"("bias":1,"positive_label":1,"feature_count":1,"theta":[1,0])");
  write_file_atomically(model, model_json);
  const std::string test = dir.file("test.txt");
  write_file_atomically(test, "1 1:0.5\n");
  CHECK(run_mpg(dir, "predict --quiet --model " + quote(model) + " --test " + quote(test)).exit_code == 0);
  const std::string predictions = dir.file("p.txt");
  const std::string negatives = "-1 1:0.5\n-1 1:-1\n";
  write_file_atomically(test, negatives);
  refused(dir, "predict --model " + quote(model) + " --test " + quote(test) + " --predictions " + quote(predictions),
          {test + ": no positive example (label 1, the model's positive_label) among its 2: f1 would score every "
                  "prediction 0"},
          predictions);
  unchanged(test, negatives);
  // A weight of 1e308 is the model's fault, not the test file's.
  write_file_atomically(test, "1 1:0.5\n-1 1:-1\n");
  const std::string huge = model_text("\"f1\"", R"("bias":1,"positive_label":1,"feature_count":1,"theta":[1e308,0])");
  write_file_atomically(model, huge);
  refused(dir, "predict --model " + quote(model) + " --test " + quote(test) + " --predictions " + quote(predictions),
          {model + ": key 'theta': weight 0 = 1e+308 is beyond +-1e+09"}, predictions);
  unchanged(model, huge);
  // lambda NaN: no hint at lbfgs, which refuses it as well.
  const std::string train = "train --train " + quote(test) + " --model " + quote(none) + " --trainer cutting_plane ";
  const RunResult nan = run_mpg(dir, train + "--lambda nan");
  CHECK(nan.exit_code == 1);
  CHECK(nan.err.find("lbfgs") == std::string::npos);
  CHECK_FALSE(fs::exists(none));
  // A --cache that is a file, and a --results directory that cannot be made.
  const SyntheticRegistry registry(dir);
  write_file_atomically(dir.file("cache"), "a file\n");
  const std::string spec = write_spec(dir, SyntheticRegistry::ranking_spec("t"));
  refused(dir, "run " + quote(spec) + " --results " + quote(dir.file("r")) + " --cache " + quote(dir.file("cache")) +
                   " --quiet",
          {"mpg: error: cannot write the cell cache to " + dir.file("cache") + "/t: "}, dir.file("r/t.json"));
  unchanged(dir.file("cache"), "a file\n");
  refused(dir, "run " + quote(spec) + " --results " + quote(dir.file("cache") + "/r") + " --quiet",
          {"mpg: error: cannot write results to " + dir.file("cache") + "/r: not a directory"}, dir.file("r/t.json"));
}
