// The `mpg` command-line tool, run as a separate process: solve-game values and JSON layout,
// error exits with messages that name the bad input, no partial model files, a train + predict
// round trip on the shared synthetic benchmark, and every subcommand's --help.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_mpg.hpp"
#include "tests/temp_dir.hpp"
#include "lib/game/binary_action.hpp"
#include "lib/metrics/f1.hpp"
#include "tests/brute_force.hpp"
#include "tests/skip.hpp"

namespace fs = std::filesystem;
using mpg::testing::TempDir;
using mpg::testing::quote;
using mpg::testing::read_text;
using mpg::testing::run_mpg;
using mpg::testing::RunResult;
using Catch::Matchers::Contains;

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

// A failure the CLI reports itself: a normal exit with a non-zero code, nothing on stdout and a
// message on stderr.
void check_clean_failure(const RunResult& result) {
  INFO("stdout: " << result.out << "\nstderr: " << result.err);
  CHECK(result.exited);
  CHECK(result.exit_code != 0);
  CHECK(result.out.empty());
  CHECK_FALSE(result.err.empty());
}

nlohmann::json parse_json(const std::string& text) {
  INFO("output: " << text);
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(text));
  return j;
}

// A player's strategy from solve-game JSON, checking its layout on the way.
mpg::MixedStrategy<mpg::BinaryAction> strategy_from_json(const nlohmann::json& list,
                                                         std::size_t n) {
  REQUIRE(list.is_array());
  REQUIRE_FALSE(list.empty());
  mpg::MixedStrategy<mpg::BinaryAction> strategy;
  double total = 0.0;
  for (const auto& entry : list) {
    REQUIRE(entry.is_object());
    REQUIRE(entry.size() == 2);
    REQUIRE(entry.contains("action"));
    REQUIRE(entry.contains("prob"));
    REQUIRE(entry.at("action").is_string());
    REQUIRE(entry.at("prob").is_number());
    const std::string bits = entry.at("action").get<std::string>();
    CHECK(bits.size() == n);
    CHECK(bits.find_first_not_of("01") == std::string::npos);
    const double p = entry.at("prob").get<double>();
    CHECK(p > 0.0);
    CHECK(p <= 1.0 + 1e-12);
    total += p;
    strategy.actions.push_back(mpg::from_bitstring(bits));
    strategy.probabilities.push_back(p);
  }
  CHECK(total == Approx(1.0).margin(1e-9));
  return strategy;
}

void check_solve_game_keys(const nlohmann::json& j) {
  for (const char* key : {"value", "gap", "iterations", "predictor", "adversary"}) {
    INFO("key " << key);
    CHECK(j.contains(key));
  }
}

fs::path shared_bench(const std::string& name) {
  return fs::path(MPG_SOURCE_DIR) / ".." / "shared" / "bench" / name;
}

// Labels (+1 -> 1, anything else -> 0) of a LIBSVM file: the first token of each line.
std::vector<int> libsvm_labels(const std::string& path) {
  std::ifstream in(path);
  std::vector<int> labels;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream tokens(line);
    double label = 0.0;
    tokens >> label;
    labels.push_back(label == 1.0 ? 1 : 0);
  }
  return labels;
}

}  // namespace

TEST_CASE("solve-game: precision@k with the exactly-k adversary, JSON output", "[cli]") {
  TempDir dir;
  const RunResult r = run_mpg(
      dir, "solve-game --metric precision_at_k --k 2 --adversary exactly_k "
           "--potentials 0.4,0.4,0.4 --json");
  INFO("stderr: " << r.err);
  REQUIRE(r.exited);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = parse_json(r.out);
  check_solve_game_keys(j);
  // Both players mix uniformly over the three 2-subsets: 2/3 expected precision minus 0.8.
  CHECK(j.at("value").get<double>() == Approx(-2.0 / 15.0).margin(1e-9));
  CHECK(j.at("gap").get<double>() <= 1e-9);
  CHECK(j.at("iterations").get<int>() >= 1);
  const auto predictor = strategy_from_json(j.at("predictor"), 3);
  const auto adversary = strategy_from_json(j.at("adversary"), 3);
  for (const auto& action : predictor.actions) CHECK(action.size() == 2);
  for (const auto& action : adversary.actions) CHECK(action.size() == 2);
}

TEST_CASE("solve-game: F1 value with a leading negative potential", "[cli]") {
  TempDir dir;
  // The default (auto) plays F1 over marginals: the value is bracketed.
  const RunResult m = run_mpg(dir, "solve-game --metric f1 --potentials=-0.2,0.1,0.4 --tolerance 1e-10 --json");
  REQUIRE(m.exit_code == 0);
  const nlohmann::json over_marginals = parse_json(m.out);
  CHECK(over_marginals.at("solver") == "marginals");
  CHECK(over_marginals.at("lower").get<double>() <= 137.0 / 660.0 + 1e-9);
  CHECK(over_marginals.at("upper").get<double>() >= 137.0 / 660.0 - 1e-9);
  CHECK(over_marginals.at("gap").get<double>() <= 1e-10);
  // The double oracle prints its strategies.
  const RunResult r = run_mpg(dir, "solve-game --metric f1 --solver double_oracle --potentials=-0.2,0.1,0.4 --json");
  INFO("stderr: " << r.err);
  REQUIRE(r.exited);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = parse_json(r.out);
  check_solve_game_keys(j);
  const double value = j.at("value").get<double>();
  CHECK(value == Approx(137.0 / 660.0).margin(1e-9));
  CHECK(j.at("gap").get<double>() <= 1e-9);
  // Its bounds are named as over marginals: lower <= value <= upper, upper - lower = gap.
  CHECK(j.at("lower").get<double>() <= value + 1e-12);
  CHECK(j.at("upper").get<double>() >= value - 1e-12);
  CHECK(j.at("upper").get<double>() - j.at("lower").get<double>() == Approx(j.at("gap").get<double>()).margin(1e-15));
  // The printed strategies really are an equilibrium of the full 8 x 8 game: each guarantees
  // the value against every pure action of the opponent.
  const auto predictor = strategy_from_json(j.at("predictor"), 3);
  const auto adversary = strategy_from_json(j.at("adversary"), 3);
  const mpg::F1Game game({-0.2, 0.1, 0.4});
  CHECK(mpg::testing::brute_force_adversary_value(game, 3, predictor) ==
        Approx(value).margin(1e-9));
  CHECK(mpg::testing::brute_force_predictor_value(game, 3, adversary) ==
        Approx(value).margin(1e-9));
}

TEST_CASE("solve-game: bad input exits non-zero with a message", "[cli]") {
  TempDir dir;
  SECTION("a non-finite potential") {
    const RunResult r = run_mpg(dir, "solve-game --potentials 0.1,nan,0.2");
    check_clean_failure(r);
    CHECK_THAT(r.err, Contains("nan"));
    CHECK_THAT(r.err, Contains("--potentials"));
  }
  SECTION("a potential that is not a number") {
    const RunResult r = run_mpg(dir, "solve-game --potentials 0.1,0.2,abc");
    check_clean_failure(r);
    CHECK_THAT(r.err, Contains("abc"));
  }
  SECTION("k larger than n") {
    const RunResult r = run_mpg(dir, "solve-game --metric precision_at_k --k 5 --potentials 0.1,0.2");
    check_clean_failure(r);
    CHECK_THAT(r.err, Contains("5"));
  }
  SECTION("precision@k without k") {
    const RunResult r = run_mpg(dir, "solve-game --metric precision_at_k --potentials 0.1,0.2");
    check_clean_failure(r);
    CHECK_THAT(r.err, Contains("--k"));
  }
  SECTION("an unknown metric") {
    const RunResult r = run_mpg(dir, "solve-game --metric accuracy --potentials 0.1,0.2");
    check_clean_failure(r);
    CHECK_THAT(r.err, Contains("accuracy"));
  }
}

TEST_CASE("train: a missing training file fails and writes no model", "[cli]") {
  TempDir dir;
  const std::string missing = dir.file("no_such_file.svm");
  const std::string model = dir.file("model.json");
  const RunResult r =
      run_mpg(dir, "train --train " + quote(missing) + " --model " + quote(model) + " --lambda 0.1");
  check_clean_failure(r);
  CHECK_THAT(r.err, Contains(missing));
  CHECK_FALSE(fs::exists(model));
}

TEST_CASE("train: a malformed LIBSVM file fails with <path>:<line>: and writes no model",
          "[cli]") {
  TempDir dir;
  const std::string data = dir.file("bad.svm");
  write_text(data, "1 1:0.5 2:1.0\n-1 1:-0.5 2:0.25\n1 1:0.75 2:oops\n-1 1:0.1 2:0.2\n");
  const std::string model = dir.file("model.json");
  const RunResult r =
      run_mpg(dir, "train --train " + quote(data) + " --model " + quote(model) + " --lambda 0.1");
  check_clean_failure(r);
  CHECK_THAT(r.err, Contains(data + ":3:"));
  CHECK_FALSE(fs::exists(model));
  // Nothing else (no temporary model file) was left in the directory.
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    left.push_back(entry.path().filename().string());
  CHECK(left == std::vector<std::string>{"bad.svm"});
}

TEST_CASE("train + predict round trip on syn200", "[cli_shared]") {
  const fs::path train_path = shared_bench("syn200.train");
  const fs::path test_path = shared_bench("syn200.test");
  if (!fs::exists(train_path) || !fs::exists(test_path)) {
    MPG_SKIP(train_path.string() << " or " << test_path.string() << " is missing");
  }
  TempDir dir;
  const std::string model = dir.file("model.json");
  // Few optimizer iterations keep this fast: with lambda 0.125 the later iterations reach
  // small theta where each game takes seconds.
  const RunResult trained =
      run_mpg(dir, "train --train " + quote(train_path.string()) + " --model " + quote(model) +
                       " --lambda 0.125 --quiet --max-iterations 10");
  {
    INFO("stderr: " << trained.err);
    REQUIRE(trained.exited);
    REQUIRE(trained.exit_code == 0);
  }
  CHECK(trained.out.empty());
  CHECK(trained.err.empty());  // --quiet
  REQUIRE(fs::exists(model));
  const nlohmann::json m = parse_json(read_text(model));
  CHECK(m.at("format") == "mpg-binary-model");
  CHECK(m.at("metric") == "f1");
  CHECK(m.at("lambda").get<double>() == 0.125);
  CHECK(m.at("feature_count").get<long>() == 10);
  REQUIRE(m.at("theta").is_array());
  CHECK(m.at("theta").size() == 11);

  const std::string predictions = dir.file("predictions.txt");
  const RunResult predicted =
      run_mpg(dir, "predict --model " + quote(model) + " --test " + quote(test_path.string()) +
                       " --json --predictions " + quote(predictions));
  INFO("stderr: " << predicted.err);
  REQUIRE(predicted.exited);
  REQUIRE(predicted.exit_code == 0);
  const nlohmann::json p = parse_json(predicted.out);
  for (const char* key : {"metric", "score", "n", "predicted_positives", "mixed_examples", "gap"}) {
    INFO("key " << key);
    CHECK(p.contains(key));
  }
  CHECK(p.at("metric") == "f1");
  CHECK(p.at("decision") == "maximin");  // the F1 decision no solver changes (f1_decision.hpp)
  CHECK(p.at("likeliest_score").get<double>() >= 0.0);
  CHECK(p.at("n").get<int>() == 200);
  const double score = p.at("score").get<double>();
  CHECK(score >= 0.0);
  CHECK(score <= 1.0);
  CHECK(p.at("gap").get<double>() <= 1e-6);
  const int positives = p.at("predicted_positives").get<int>();
  CHECK(positives >= 0);
  CHECK(positives <= 200);

  // The predictions file agrees with the JSON: its ones are the predicted positives, and their
  // F1 against the test labels is the reported score.
  const std::vector<int> labels = libsvm_labels(test_path.string());
  REQUIRE(labels.size() == 200);
  std::ifstream in(predictions);
  std::vector<int> predicted_labels;
  int label = 0;
  double marginal = 0.0;
  int mixed = 0;
  while (in >> label >> marginal) {
    CHECK((label == 0 || label == 1));
    CHECK(marginal >= -1e-9);
    CHECK(marginal <= 1.0 + 1e-9);
    predicted_labels.push_back(label);
    if (marginal > 1e-9 && marginal < 1.0 - 1e-9) ++mixed;
  }
  REQUIRE(predicted_labels.size() == 200);
  CHECK(p.at("mixed_examples").get<int>() == mixed);
  int ones = 0;
  for (int y : predicted_labels) ones += y;
  CHECK(ones == positives);
  CHECK(mpg::f1_score(mpg::positives_of(predicted_labels), mpg::positives_of(labels)) ==
        Approx(score).margin(1e-12));
}

TEST_CASE("predict: a model file that is not JSON fails naming the file", "[cli]") {
  TempDir dir;
  const std::string model = dir.file("model.json");
  write_text(model, "this is not json\n");
  const std::string test = dir.file("test.svm");
  write_text(test, "1 1:0.5\n-1 1:-0.5\n");
  const RunResult r = run_mpg(dir, "predict --model " + quote(model) + " --test " + quote(test));
  check_clean_failure(r);
  CHECK_THAT(r.err, Contains(model));
}

TEST_CASE("every subcommand's --help exits 0 and lists its options", "[cli]") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"solve-game",
       {"--metric", "--potentials", "--k", "--adversary", "--json", "--tolerance",
        "--max-game-iterations", "--lp-backend"}},
      {"train",
       {"--metric", "--lambda", "--train", "--model", "--positive", "--k-fraction", "--adversary",
        "--optimizer", "--start", "--max-iterations", "--quiet", "--tolerance"}},
      {"predict", {"--model", "--test", "--predictions", "--json", "--tolerance"}},
  };
  for (const auto& [command, options] : commands) {
    const RunResult r = run_mpg(dir, command + " --help");
    INFO(command << " --help\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exited);
    CHECK(r.exit_code == 0);
    for (const auto& option : options) CHECK_THAT(r.out, Contains(option));
  }
  const RunResult top = run_mpg(dir, "--help");
  CHECK(top.exit_code == 0);
  for (const char* command : {"solve-game", "train", "predict"}) CHECK_THAT(top.out, Contains(command));
}
