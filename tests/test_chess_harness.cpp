// The chess family (lib/harness/families/chess.cpp, SVMcompare Fig. 6): spec validation naming the key, a
// run on a synthetic game list (the tables, the Elo / Glicko / trivial baselines, a protocol
// variant's rows, intervals, the Fig. 6 CSV and gnuplot script beside the published values), an
// old cache entry without per-pair statistics refused with the cell's name, and a game file with a
// wrong sha256 refused.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <random>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/registry_fixture.hpp"

using namespace mpg::harness;
using mpg::testing::RegistryFixture;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;

namespace {

// 30 players of latent strength i, 24 months, every player in 2 games a month.
std::string games_csv() {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string text = "\"Month #\",\"White Player #\",\"Black Player #\",\"Score\"\n";
  for (int month = 1; month <= 24; ++month)
    for (int round = 0; round < 2; ++round) {
      std::vector<int> players(30);
      for (int i = 0; i < 30; ++i) players[static_cast<std::size_t>(i)] = i;
      std::shuffle(players.begin(), players.end(), rng);
      for (std::size_t i = 0; i + 1 < players.size(); i += 2) {
        const int white = players[i], black = players[i + 1];
        const double d = (white - black) / 10.0 + u(rng) - 0.5;
        text += fmt::format("{},{},{},{}\n", month, white, black, d > 0.8 ? "1" : d < -0.8 ? "0" : "0.5");
      }
    }
  return text;
}

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "chess", "name": "tiny_chess",
    "dataset": {"registry": "syn_chess"},
    "years": [1],
    "min_games": 3,
    "methods": {"Lin-16": {"kind": "svm_compare", "kernel": "linear", "C": [0.01, 1]},
                "Gauss-2": {"kind": "svm_compare", "kernel": "gaussian", "features": "elo_glicko", "C": [1], "sigma": [1]}},
    "published": {"columns": ["Lin-16", "ELO"], "rows": {"1": [0.38, 0.35], "2": [0.36, 0.37]}, "median": [0.37, 0.36]}
  })");
}

void register_games(const RegistryFixture& data, const std::optional<std::string>& hash = std::nullopt) {
  data.registry({{"syn_chess",
                  {{"format", "chess_games"},
                   {"default_variant", "v1"},
                   {"variants", {{"v1", {{"matches", "synthetic"}, {"games", data.file("chess/games.csv", games_csv(), hash)}}}}}}},
                 {"syn_other", {{"format", "sushi"}, {"default_variant", "v1"}, {"variants", {{"v1", nlohmann::json::object()}}}}}});
}

}  // namespace

TEST_CASE("The shipped chess spec is valid, with and without --quick", "[chess_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/svmcompare_figure6_chess.json";
  CHECK(load_spec(path, false)["years"].size() == 8);
  CHECK(load_spec(path, false)["variants"].size() == 4);
  CHECK(load_spec(path, true)["years"].size() == 2);
  CHECK(load_spec(path, true)["variants"].size() == 2);
}

TEST_CASE("Chess specs: bad keys and values name the file and the key", "[chess_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  register_games(data);
  const std::string path = mpg::testing::write_spec(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(path, false));
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  rejects("colour=1", "unknown key 'colour'");
  rejects("years=[1,1]", "years: every year must be a distinct integer");
  rejects("years=[-1]", "years");
  rejects("dataset.registry=syn_other", "dataset.registry: dataset 'syn_other' has format 'sushi'");
  rejects("methods.Lin-16.kernel=sigmoid", "methods.Lin-16.kernel");
  rejects("methods.Lin-16.features=elo", "methods.Lin-16.features");
  rejects("methods.Lin-16.C=[-1]", "methods.Lin-16.C");
  rejects("published.rows.1=[0.3]", "published.rows.1: expected one number per column");
  rejects("cv_months=4", "cv_months");
  rejects("train_months=2", "cv_months: the validation months must lie in the train window");
  rejects("train_months=12", "train_months");
  rejects("history=decade", "history: expected one of all, year");
  rejects("rating_updates=weekly", "rating_updates");
  rejects("variants={\"v\":{\"colour\":1}}", "variants.v: unknown key 'colour'");
  rejects("variants={\"v\":{\"min_games_in\":\"ever\"}}", "variants.v.min_games_in");
  rejects("variants={\"paper\":{}}", "variants.paper: the label 'paper'");
  rejects("published.median=[0.38,0.36]", "published.median: \"Lin-16\": 0.38 is not the median 0.3700 of its rows");
}

TEST_CASE("A chess run on a synthetic game list: baselines, Fig. 6 files", "[chess_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  register_games(data);
  const RunSummary run = run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir));
  CHECK(run.cells == 2);
  // Lin-16 and ELO medians, on data the registry does not mark exact: counted apart (substitute).
  CHECK(run.published_cells == 0);
  CHECK(run.tally.apart_cells == 2);
  REQUIRE(run.result_files.size() == 6);
  const std::string md = mpg::read_file(run.result_files[0]);
  CHECK_THAT(md, Contains("## Test AUC per year, paper") && Contains("| Gauss-2 | Lin-16 | ELO | Glicko | Baseline |") &&
                     Contains("## Median test AUC over the years"));
  const std::string figure = mpg::read_file(run.result_files[3]);
  CHECK_THAT(figure, Contains("year,Gauss-2,Lin-16,ELO,Glicko,Baseline\n1,"));
  CHECK(mpg::read_file(run.result_files[4]) == "set,Lin-16,ELO\n1,0.380000,0.350000\n2,0.360000,0.370000\n");
  CHECK_THAT(mpg::read_file(run.result_files[5]),
             Contains("strstrt(ARG0, '.figure6.gp')") && Contains("'.figure6_published.csv' using (3):3"));
  const auto json = nlohmann::json::parse(mpg::read_file(run.result_files[2]));
  CHECK(json["per_year"].size() == 5);  // 2 methods + 3 baselines, one year
  // Every AUC has a bootstrap interval over the test matches, the medians too.
  for (const auto& row : json["per_year"]) {
    INFO(row.dump());
    REQUIRE(!row["auc"].is_null());
    REQUIRE(row.contains("interval"));
    CHECK(row["interval"][0].get<double>() <= row["auc"].get<double>());
    CHECK(row["auc"].get<double>() <= row["interval"][1].get<double>());
  }
  for (const auto& row : json["comparison"]) CHECK(row.contains("interval"));
  CHECK(json["protocols"][0]["label"] == "paper");
}

TEST_CASE("A chess run with a protocol variant, and an old cache entry without per-pair statistics",
          "[chess_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  register_games(data);
  auto spec = tiny_spec();
  spec["variants"] = {{"monthly", {{"rating_updates", "month"}, {"min_games_in", "history"}}}};
  spec["methods"].erase("Gauss-2");
  spec["methods"]["Lin-2"] = {{"kind", "svm_compare"}, {"kernel", "linear"}, {"features", "elo_glicko"}, {"C", {1}}};
  const std::string path = mpg::testing::write_spec(dir, spec);
  const RunSummary run = run_experiment(path, mpg::testing::quiet_run(dir));
  CHECK(run.cells == 4);  // Lin-16 and Lin-2 under both protocols
  const auto json = nlohmann::json::parse(mpg::read_file(run.result_files[2]));
  // Lin-16, Lin-2, ELO, Glicko, Baseline under each protocol.
  REQUIRE(json["comparison"].size() == 10);
  CHECK(json["comparison"][5]["protocol"] == "monthly");
  CHECK_THAT(json["comparison"][5]["recorded_causes"].dump(), Contains("protocol variant: monthly"));
  CHECK_THAT(mpg::read_file(run.result_files[0]), Contains("## Test AUC per year, monthly") && Contains("| Lin-16 | monthly |"));
  // The claim "Lin-2 below Lin-16" states its margin with a paired interval; "Lin-2 lies between
  // ELO and Glicko" has two margins (higher rating - Lin-2, Lin-2 - lower rating) and holds exactly
  // when both are positive.
  REQUIRE(json["claims"].size() == 2);
  CHECK(json["claims"][0]["margins"][0]["above"] == "Lin-16");
  CHECK(json["claims"][0]["margins"][0]["interval"].size() == 2);
  CHECK_THAT(json["claims"][0]["evidence"].get<std::string>(), Contains("significant"));
  const auto& between = json["claims"][1];
  CHECK_THAT(between["claim"].get<std::string>(), Contains("Lin-2") && Contains("between ELO and Glicko"));
  REQUIRE(between["margins"].size() == 2);
  CHECK(between["margins"][0]["below"] == "Lin-2");
  CHECK(between["margins"][1]["above"] == "Lin-2");
  CHECK(between["holds"].get<bool>() ==
        (between["margins"][0]["margin"].get<double>() > 0 && between["margins"][1]["margin"].get<double>() > 0));
  // Remove the per-pair statistics from one cached entry (a valid entry of older code).
  std::size_t edited = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir.file("results/.cache"))) {
    if (e.path().extension() != ".json") continue;
    auto entry = nlohmann::json::parse(mpg::read_file(e.path().string()));
    if (!entry["result"].contains("test_differences") || entry["result"]["test_auc"].is_null()) continue;
    entry["result"].erase("test_differences");
    entry["result_sha256"] = mpg::sha256_hex(entry["result"].dump());
    mpg::write_file_atomically(e.path().string(), entry.dump() + "\n");
    ++edited;
    break;
  }
  REQUIRE(edited == 1);
  CHECK_THROWS_WITH(run_experiment(path, mpg::testing::quiet_run(dir)),
                    Contains("chess cell '") && Contains(" year 1 Lin-") && Contains("': its cached result has no per-pair test differences"));
}

TEST_CASE("A game file with a wrong sha256 is refused with its name", "[chess_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  register_games(data, std::string(64, 'f'));
  CHECK_THROWS_WITH(run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir)),
                    Contains("chess/games.csv") && Contains("sha256 mismatch"));
}
