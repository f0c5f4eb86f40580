// The ranking experiment type (lib/harness/ranking.cpp): spec validation, and a whole run on
// tiny synthetic LETOR subsets (registered as letor4_mq2007, whose registry entry has no sha256
// yet) through every method kind, with a fully cached rerun giving the same tables.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "lib/base/error.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/base/io.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg::harness;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "ranking", "name": "tiny_ranking",
    "datasets": {"SYN": {"registry": "letor4_mq2007"}},
    "folds": [1, 2],
    "methods": {
      "MPG": {"kind": "mpg", "lambda": [0.01], "max_iterations": 10},
      "RankSVM": {"kind": "ranksvm", "C": [0.1, 1]},
      "ListNet": {"kind": "listnet", "lambda": [0.01]},
      "AdaRank-NDCG": {"kind": "adarank", "measure": "ndcg", "rounds": 5},
      "AdaRank-MAP": {"kind": "adarank", "measure": "map", "rounds": 5},
      "RankBoost": {"kind": "rankboost", "rounds": 5}
    },
    "published": {"dataset": "MQ2007", "mean_ndcg": {"MPG": 0.522}, "ndcg_at": {"RankSVM": {"1": 0.41}}}
  })");
}

std::string write_spec(const TempDir& dir, const nlohmann::json& spec) {
  const std::string path = (dir.path() / "spec.json").string();
  mpg::write_file_atomically(path, spec.dump());
  return path;
}

// Five subsets of 4 queries x 6 documents; relevance follows feature 1.
void write_synthetic_letor(const fs::path& folder) {
  fs::create_directories(folder);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int qid = 1;
  for (int s = 1; s <= 5; ++s) {
    std::string text;
    for (int q = 0; q < 4; ++q, ++qid)
      for (int j = 0; j < 6; ++j) {
        const double x = u(rng);
        text += fmt::format("{} qid:{} 1:{} 2:{} 46:{} #docid = d\n", x > 0.75 ? 2 : x > 0.45 ? 1 : 0, qid, x, u(rng),
                            u(rng));
      }
    mpg::write_file_atomically((folder / fmt::format("S{}.txt", s)).string(), text);
  }
}

struct DataDir {
  explicit DataDir(const fs::path& path) { setenv("MPG_DATA_DIR", path.c_str(), 1); }
  ~DataDir() { unsetenv("MPG_DATA_DIR"); }
};

}  // namespace

TEST_CASE("The shipped ranking spec is valid, with and without --quick", "[ranking_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/table12_dcg_ranking.json";
  CHECK(load_spec(path, false)["folds"].size() == 5);
  CHECK(load_spec(path, true)["folds"].size() == 1);
}

TEST_CASE("Ranking specs: bad keys and values name the file and the key", "[ranking_harness]") {
  TempDir dir;
  const auto rejects = [&](const std::string& override_text, const std::string& fragment) {
    const std::string path = write_spec(dir, tiny_spec());
    CHECK_THROWS_WITH(load_spec(path, false, {override_text}), Contains(path) && Contains(fragment));
  };
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("folds=[0]", "folds");
  rejects("folds=[1,1]", "distinct integer");
  rejects("discount=trec", "discount");
  rejects("selection_metric=ndcg@11", "selection_metric");
  rejects("methods.MPG.kind=lambdamart", "unknown kind 'lambdamart'");
  rejects("methods.MPG.lambda=[0]", "methods.MPG.lambda");
  rejects("methods.MPG.game_solver=simplex", "game_solver");
  rejects("methods.MPG.decision_game_solver=birkhoff", "decision_game_solver");
  rejects("methods.MPG.optimizer=newton", "optimizer");
  rejects("methods.MPG.objective_tolerance=0", "objective_tolerance");
  rejects("methods.AdaRank-MAP.measure=err", "methods.AdaRank-MAP.measure");
  rejects("methods.RankBoost.C=[1]", "unknown key 'C'");
  rejects("datasets.SYN.registry=optdigits", "not a LETOR data set");
  rejects("published.ndcg_at.RankSVM={\"11\":0.4}", "published.ndcg_at.RankSVM.11");
}

TEST_CASE("A ranking run on synthetic LETOR subsets: tables, figure data, cached rerun", "[ranking_harness]") {
  TempDir dir;
  write_synthetic_letor(dir.path() / "data" / "letor4_mq2007");
  const DataDir data(dir.path() / "data");
  const std::string spec_path = write_spec(dir, tiny_spec());
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  const RunSummary first = run_experiment(spec_path, options);
  // 2 folds x (1 + 2 + 1 + 1 + 1 + 1) grid cells, then 2 x 6 test cells.
  CHECK(first.cells == 14);
  CHECK(first.cached_cells == 0);
  REQUIRE(first.result_files.size() == 4);
  const std::string table = mpg::read_file(first.result_files[0]);
  CHECK_THAT(table, Contains("## Table XII: Mean NDCG") && Contains("MQ2007 (published; a different data set)") &&
                        Contains("| MPG (E[gain] rule) |") && Contains("(unverified)") && Contains("## NDCG@k on SYN"));
  const std::string figure = mpg::read_file(first.result_files[3]);
  CHECK_THAT(figure, Contains("SYN,RankBoost,10,") && Contains("MQ2007 (published),RankSVM,1,0.410000,published"));
  const std::string csv = mpg::read_file(first.result_files[1]);
  CHECK_THAT(csv, Contains("SYN,MPG,mean_ndcg,") && Contains("MQ2007,MPG,mean_ndcg,0.522000,published"));
  const RunSummary second = run_experiment(spec_path, options);
  CHECK(second.cached_cells == 26);
  CHECK(mpg::read_file(second.result_files[1]) == csv);
}

TEST_CASE("A wrong LETOR file fails with its name and the sha256 it has", "[ranking_harness]") {
  TempDir dir;
  const fs::path folder = dir.path() / "data" / "letor4_mq2008";
  fs::create_directories(folder);
  for (int s = 1; s <= 5; ++s) mpg::write_file_atomically((folder / fmt::format("S{}.txt.xz", s)).string(), "x");
  const DataDir data(dir.path() / "data");
  nlohmann::json spec = tiny_spec();
  spec["datasets"]["SYN"]["registry"] = "letor4_mq2008";
  const std::string path = write_spec(dir, spec);
  RunOptions options;
  options.results_directory = (dir.path() / "results").string();
  options.progress = false;
  CHECK_THROWS_WITH(run_experiment(path, options), Contains("letor4_mq2008/S1.txt.xz"));
  CHECK_FALSE(fs::exists(dir.path() / "results" / "tiny_ranking.md"));
}
