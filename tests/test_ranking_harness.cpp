// The ranking family (lib/harness/families/ranking.cpp): spec validation, and a whole run on tiny synthetic
// LETOR subsets, registered with their sha256 in a registry of the test's own (MPG_REGISTRY),
// through every method kind, with a fully cached rerun giving the same tables; a data file whose
// registry entry has a wrong or no sha256 is refused with its name.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/harness_fixtures.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg::harness;
using mpg::testing::ScopedEnvironment;
using mpg::testing::TempDir;
using mpg::testing::quiet_options;
using mpg::testing::write_spec;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "ranking", "name": "tiny_ranking",
    "datasets": {"SYN": {"registry": "syn_letor"}},
    "folds": [1, 2],
    "methods": {
      "MPG": {"kind": "mpg", "lambda": [0.01], "max_iterations": 10},
      "RankSVM": {"kind": "ranksvm", "C": [0.1, 1]},
      "ListNet": {"kind": "listnet", "lambda": [0.01]},
      "AdaRank-NDCG": {"kind": "adarank", "measure": "ndcg", "rounds": 5},
      "AdaRank-MAP": {"kind": "adarank", "measure": "map", "rounds": 5},
      "RankBoost": {"kind": "rankboost", "rounds": 5},
      "best single feature": {"kind": "best_feature"},
      "file order": {"kind": "file_order"}
    },
    "published": {"dataset": "MQ2007", "mean_ndcg": {"MPG": 0.522}, "ndcg_at": {"RankSVM": {"1": 0.41}}}
  })");
}

// A data directory with five synthetic LETOR subsets (4 queries x 6 documents each; relevance
// follows feature 1) and a registry naming them as dataset "syn_letor" (and a libsvm dataset
// "syn_libsvm"); `hash(s)` gives the registry's sha256 of subset s (1..5), null for none.
class SyntheticLetor {
 public:
  template <class Hash>
  SyntheticLetor(const TempDir& dir, Hash hash)
      : data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    const fs::path folder = dir.path() / "data" / "syn";
    fs::create_directories(folder);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    nlohmann::json subsets = nlohmann::json::array();
    int qid = 1;
    for (int s = 1; s <= 5; ++s) {
      std::string text;
      for (int q = 0; q < 4; ++q, ++qid)
        for (int j = 0; j < 6; ++j) {
          const double x = u(rng);
          text += fmt::format("{} qid:{} 1:{} 2:{} 46:{} #docid = d\n", x > 0.75 ? 2 : x > 0.45 ? 1 : 0, qid, x,
                              u(rng), u(rng));
        }
      mpg::write_file_atomically((folder / fmt::format("S{}.txt", s)).string(), text);
      nlohmann::json entry = {{"file", fmt::format("syn/S{}.txt", s)}};
      const nlohmann::json sha256 = hash(s, mpg::sha256_hex(text));
      if (!sha256.is_null()) entry["sha256"] = sha256;
      subsets.push_back(entry);
    }
    const nlohmann::json registry = {
        {"syn_letor",
         {{"format", "letor"}, {"features", 46}, {"levels", 3}, {"default_variant", "v1"},
          {"variants", {{"v1", {{"matches", "exact (synthetic)"}, {"subsets", subsets}}}}}}},
        {"syn_libsvm", {{"format", "libsvm"}, {"default_variant", "v1"}, {"variants", {{"v1", nlohmann::json::object()}}}}}};
    mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
  }

 private:
  ScopedEnvironment data_, registry_;
};

SyntheticLetor verified_letor(const TempDir& dir) {
  return SyntheticLetor(dir, [](int, const std::string& sha256) { return nlohmann::json(sha256); });
}

}  // namespace

TEST_CASE("The shipped ranking spec is valid, with and without --quick", "[ranking_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/table12_dcg_ranking.json";
  CHECK(load_spec(path, false)["folds"].size() == 5);
  CHECK(load_spec(path, true)["folds"].size() == 1);
  for (const bool quick : {false, true}) {
    const auto shipped = load_spec(path, quick);
    CHECK(shipped["methods"]["MPG (authors' L-BFGS)"]["protocol"] == "authors_lbfgs");
    CHECK(shipped["methods"]["MPG (authors' AdaDelta)"]["protocol"] == "authors_adadelta");
    for (const char* m : {"MPG (authors' L-BFGS)", "MPG (authors' AdaDelta)"})
      CHECK(shipped["methods"][m]["lambda"] == shipped["methods"]["MPG"]["lambda"]);  // the same grid
  }
}

TEST_CASE("Ranking specs: bad keys and values name the file and the key", "[ranking_harness]") {
  TempDir dir;
  const SyntheticLetor data = verified_letor(dir);
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("folds=[0]", "folds");
  rejects("folds=[1,1]", "distinct integer");
  rejects("discount=trec", "discount");
  rejects("ndcg_past_end=last", "ndcg_past_end: expected 'zero' (LETOR's scripts) or 'carry'");
  rejects("selection_metric=ndcg@11", "selection_metric");
  rejects("methods.MPG.protocol=lbfgs", "methods.MPG.protocol: expected one of certified, authors_lbfgs, authors_adadelta");
  rejects("methods.MPG.batch_size=0", "methods.MPG.batch_size");
  rejects("tolerance=-1", "tolerance");
  rejects("methods.MPG.kind=lambdamart", "unknown method kind 'lambdamart'");
  rejects("methods.MPG.lambda=[0]", "methods.MPG.lambda");
  rejects("methods.MPG.game_solver=simplex", "methods.MPG.game_solver: expected one of greedy, lp, double_oracle");
  rejects("methods.MPG.decision_game_solver=birkhoff", "decision_game_solver");
  rejects("methods.MPG.optimizer=newton", "optimizer");
  rejects("methods.MPG.objective_tolerance=0", "objective_tolerance");
  rejects("methods.MPG.max_iterations=2.5", "methods.MPG.max_iterations: expected a whole number");
  rejects("methods.MPG.game_max_seconds=5", "unknown key 'game_max_seconds'");  // now max_game_seconds
  rejects("methods.AdaRank-MAP.measure=err", "methods.AdaRank-MAP.measure");
  rejects("methods.AdaRank-MAP.measure=null", "methods.AdaRank-MAP: missing required key 'measure'");
  rejects("methods.RankBoost.C=[1]", "unknown key 'C'");
  rejects("datasets.SYN.registry=syn_libsvm", "datasets.SYN.registry: dataset 'syn_libsvm' has format 'libsvm'");
  rejects("published.ndcg_at.RankSVM={\"11\":0.4}", "published.ndcg_at.RankSVM.11");
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false, {"methods.MPG.max_game_seconds=5"}));
}

TEST_CASE("A ranking run on synthetic LETOR subsets: tables, figure data, cached rerun", "[ranking_harness]") {
  TempDir dir;
  const SyntheticLetor data = verified_letor(dir);
  const std::string spec_path = write_spec(dir, tiny_spec());
  const RunOptions options = quiet_options(dir);
  const RunSummary first = run_experiment(spec_path, options);
  // 2 folds x (1 + 2 + 1 + 1 + 1 + 1 + 1 + 1) validation cells, then 2 x 8 test cells.
  CHECK(first.cells == 34);
  CHECK(first.cached_cells == 0);
  CHECK(first.published_cells == 0);  // the published numbers are of another data set
  REQUIRE(first.result_files.size() == 4);
  const std::string table = mpg::read_file(first.result_files[0]);
  CHECK_THAT(table, Contains("## Table XII: Mean NDCG") && Contains("MQ2007 (published; a different data set)") &&
                        Contains("| MPG (E[gain] rule) |") && Contains("| MPG (θ·x sort) |") &&
                        Contains("| file order |") && Contains("| best single feature |") &&
                        Contains("## Evaluation variant (not the LETOR convention)") &&
                        Contains("fold 1: feature ") && Contains("## NDCG@k on SYN") &&
                        Contains("`syn/S1.txt` sha256 `") && Contains("a different data set, not run here"));
  const std::string figure = mpg::read_file(first.result_files[3]);
  CHECK_THAT(figure, Contains("SYN,RankBoost,10,") && Contains("MQ2007 (published),RankSVM,1,0.410000,published"));
  // Diagnostics stay out of Figure 8; MPG's second decision rule is in it.
  CHECK_THAT(figure, !Contains("file order") && !Contains("θ·x") && Contains("SYN,MPG (E[gain] rule),1,"));
  const std::string csv = mpg::read_file(first.result_files[1]);
  CHECK_THAT(csv, Contains("SYN,MPG,mean_ndcg,") && Contains("MQ2007,MPG,mean_ndcg,0.522000,published") &&
                      Contains("SYN,file order,mean_ndcg_with_relevant,"));
  const auto json = nlohmann::json::parse(mpg::read_file(first.result_files[2]));
  CHECK(json["rows"].size() == 10);  // eight methods, MPG's second decision rule and its θ·x sort
  CHECK(json["rows"][0].contains("with_relevant"));
  CHECK(json["folds"] == nlohmann::json::array({1, 2}));

  const RunSummary second = run_experiment(spec_path, options);
  CHECK(second.cached_cells == 34);
  CHECK(mpg::read_file(second.result_files[1]) == csv);

  // Published numbers of the data set the spec runs are compared (the cells are the same).
  const RunSummary compared = run_experiment(spec_path, [&] {
    RunOptions o = options;
    o.overrides = {"published.dataset=SYN", "tolerance=1"};
    return o;
  }());
  CHECK(compared.cached_cells == 34);
  CHECK(compared.published_cells == 2);
  CHECK(compared.within_tolerance == 2);
  CHECK_THAT(mpg::read_file(compared.result_files[0]), Contains("## Published numbers on SYN (") &&
                                                           Contains("| SYN | MPG | mean_ndcg |"));
}

TEST_CASE("A LETOR file whose registry entry has a wrong or no sha256 is refused with its name", "[ranking_harness]") {
  {
    TempDir dir;
    const SyntheticLetor data(dir, [](int s, const std::string& sha256) {
      return nlohmann::json(s == 3 ? std::string(64, '0') : sha256);
    });
    CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), quiet_options(dir)),
                      Contains("syn/S3.txt") && Contains("sha256 mismatch"));
  }
  TempDir dir;
  std::string actual;
  const SyntheticLetor data(dir, [&](int s, const std::string& sha256) {
    if (s == 2) actual = sha256;
    return s == 2 ? nlohmann::json() : nlohmann::json(sha256);
  });
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), quiet_options(dir)),
                    Contains("syn/S2.txt") && Contains("has no sha256") && Contains(actual));
  CHECK_FALSE(fs::exists(dir.path() / "results" / "tiny_ranking.md"));
}
