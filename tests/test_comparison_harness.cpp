// The comparison family (lib/harness/families/comparison.cpp, SVMcompare Figs. 3-5): spec validation naming
// the key, and a whole run on a small simulated pool — cells, tables, intervals, the claims (Fig. 3's
// too), the figure CSVs and gnuplot scripts, a cached rerun and the same tables with 1 and 2 threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/registry_fixture.hpp"

using namespace mpg::harness;
using mpg::testing::RegistryFixture;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "comparison", "name": "tiny_comparison",
    "datasets": {"l2": {"simulated": "l2"}},
    "simulation": {"pool_pairs": 1500, "pool_seed": 3},
    "seeds": [1, 2],
    "figure4": {"n": [20, 40], "rho": 0.5},
    "figure5": {"n": 30, "rho": [0.2, 0.8]},
    "figure3": {"dataset": "l2", "n": 20, "seed": 1, "resolution": 5},
    "methods": {"rank": {"kind": "rank", "grid_stride": 5}, "rank2": {"kind": "rank2", "grid_stride": 5},
                "compare": {"kind": "compare", "grid_stride": 5}}
  })");
}

}  // namespace

TEST_CASE("The shipped SVMcompare figure spec is valid, with and without --quick", "[comparison_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/svmcompare_figures_3_4_5.json";
  CHECK(load_spec(path, false)["figure4"]["n"].size() == 5);
  CHECK(load_spec(path, false)["figure5"]["rho"].size() == 9);
  const auto quick = load_spec(path, true);
  CHECK(quick["seeds"].size() == 2);
  CHECK(quick["methods"]["compare"]["grid_stride"] == 3);
}

TEST_CASE("Comparison specs: bad keys and values name the file and the key", "[comparison_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  data.registry(nlohmann::json::object());
  const std::string path = mpg::testing::write_spec(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(path, false));
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  rejects("colour=1", "unknown key 'colour'");
  rejects("datasets.l2.simulated=l3", "datasets.l2.simulated: expected l1, l2 or linf");
  rejects("datasets.l2.registry=nothing", "datasets.l2");
  rejects("figure5.rho=[1.0]", "figure5.rho: every share must be in (0, 1)");
  rejects("figure4.n=[0]", "figure4.n");
  rejects("figure3.n=30", "figure3.n: n = 30 is not one of figure4.n");
  rejects("figure3.dataset=l1", "figure3.dataset");
  rejects("seeds=[]", "seeds");
  rejects("methods.compare.C=[0]", "methods.compare.C");
  rejects("methods.rank.grid_stride=0", "methods.rank.grid_stride");
  rejects("methods.rank.kind=svm", "unknown method kind 'svm'");
  rejects("methods.compare.max_sweeps=5", "unknown key 'max_sweeps'");
  rejects("figure4=null", "");  // figure5 alone is fine ...
  CHECK_NOTHROW(load_spec(path, false, {"figure4=null", "figure3=null"}));
  CHECK_THROWS_WITH(load_spec(path, false, {"figure4=null", "figure5=null", "figure3=null"}),
                    Contains("a spec needs figure4 or figure5"));
}

TEST_CASE("A comparison run on a simulated pool: figures, claims, cache, threads", "[comparison_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  data.registry(nlohmann::json::object());
  const std::string path = mpg::testing::write_spec(dir, tiny_spec());
  const RunSummary first = run_experiment(path, mpg::testing::quiet_run(dir, "one", 1));
  // (2 + 2 points) x 2 seeds x 3 methods, no test phase.
  CHECK(first.cells == 24);
  CHECK(first.cached_cells == 0);
  CHECK(first.published_cells > 0);  // the claims checked
  std::set<std::string> names;
  for (const auto& f : first.result_files) names.insert(fs::path(f).filename().string());
  CHECK(names == std::set<std::string>{"tiny_comparison.md", "tiny_comparison.csv", "tiny_comparison.json",
                                       "tiny_comparison.figure4.csv", "tiny_comparison.figure4.gp",
                                       "tiny_comparison.figure5.csv", "tiny_comparison.figure5.gp",
                                       "tiny_comparison.figure3.csv", "tiny_comparison.figure3_training.csv",
                                       "tiny_comparison.figure3.gp"});
  const fs::path one = dir.path() / "one";
  const std::string md = mpg::read_file((one / "tiny_comparison.md").string());
  CHECK_THAT(md, Contains("## Figure 4: test error (%) vs n") && Contains("## Figure 5: test AUC vs ρ, n = 30") &&
                     Contains("| n | compare | rank | rank2 | truth |") && Contains("## The papers' claims") &&
                     Contains("test error decreases as n increases"));
  const std::string figure4 = mpg::read_file((one / "tiny_comparison.figure4.csv").string());
  CHECK_THAT(figure4, Contains("dataset,series,x,mean,sd,seeds\nl2,compare,20,") && Contains("l2,truth,40,"));
  const std::string gp = mpg::read_file((one / "tiny_comparison.figure4.gp").string());
  CHECK_THAT(gp, Contains("strstrt(ARG0, '.figure4.gp')") && Contains("strcol(2) eq 'rank2'"));
  // Fig. 3: the truth's and the three models' level curves on the 5 x 5 grid, and the 20 training pairs.
  const std::string curves = mpg::read_file((one / "tiny_comparison.figure3.csv").string());
  CHECK(std::count(curves.begin(), curves.end(), '\n') == 1 + 4 * (25 + 5) + 3);
  CHECK_THAT(curves, Contains("truth,-3,-3,18\n"));
  const std::string training = mpg::read_file((one / "tiny_comparison.figure3_training.csv").string());
  CHECK(std::count(training.begin(), training.end(), '\n') == 21);
  const auto json = nlohmann::json::parse(mpg::read_file((one / "tiny_comparison.json").string()));
  CHECK(json["rows"].size() == 2 * 4 + 2 * 4);  // per figure: 2 x-values x (3 methods + truth)
  CHECK_FALSE(json["claims"].empty());
  // Every point has a 95 % interval over the test pairs of its seeds.
  for (const auto& row : json["rows"]) {
    INFO(row.dump());
    REQUIRE(row.contains("interval"));
    CHECK(row["interval"][0].get<double>() <= row["interval"][1].get<double>());
    CHECK(row["interval_unit"] == "test pair");
  }
  // The trend is checked at every consecutive n, and Fig. 3's claim is checked, not only plotted.
  CHECK_THAT(json["claims"].dump(), Contains("at every consecutive n") && Contains("(τ ") &&
                                        Contains("rank fails to recover r") && Contains("τ rank "));

  const RunSummary cached = run_experiment(path, mpg::testing::quiet_run(dir, "one", 1));
  CHECK(cached.cached_cells == 24);
  CHECK(mpg::read_file((one / "tiny_comparison.csv").string()) == mpg::read_file(first.result_files[1]));
  // Two threads, no cache: the same numbers.
  RunOptions two = mpg::testing::quiet_run(dir, "two", 2);
  two.cache_directory = (dir.path() / "cache2").string();
  const RunSummary parallel = run_experiment(path, two);
  CHECK(parallel.cached_cells == 0);
  CHECK(mpg::read_file((dir.path() / "two" / "tiny_comparison.csv").string()) ==
        mpg::read_file((one / "tiny_comparison.csv").string()));
  CHECK(mpg::read_file((dir.path() / "two" / "tiny_comparison.figure3.csv").string()) == curves);
}
