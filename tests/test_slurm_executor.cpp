// mpg run --executor slurm (lib/harness/slurm.hpp): the cells of a spec as Slurm job arrays on a
// one-node cluster started on loopback by scripts/slurm_local.sh; the tables equal the local
// thread pool's, a rerun is served from the shared cache without a job, and sbatch refusing the
// array is an error quoting it. Skipped, with the reason, where the daemons cannot start.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/run_mpg.hpp"
#include "tests/skip.hpp"
#include "tests/synthetic_registry.hpp"

using mpg::testing::quote;
using mpg::testing::run_mpg;
using mpg::testing::RunResult;
using mpg::testing::SyntheticRegistry;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

const std::string kScript = std::string(MPG_SOURCE_DIR) + "/scripts/slurm_local.sh";

// The one-node cluster for the test's lifetime: started unless it already runs (then left running).
class LocalCluster {
 public:
  LocalCluster() {
    was_running_ = std::system((quote(kScript) + " running >/dev/null 2>&1").c_str()) == 0;
    int status = 0;
    const std::string out = mpg::command_output(quote(kScript) + (was_running_ ? " env" : " start") + " 2>&1", &status);
    if (status != 0) {
      reason_ = out.empty() ? "scripts/slurm_local.sh start failed" : out;
      return;
    }
    const auto at = out.rfind("export SLURM_CONF=");
    if (at == std::string::npos) {
      reason_ = "scripts/slurm_local.sh printed no SLURM_CONF: " + out;
      return;
    }
    setenv("SLURM_CONF", out.substr(at + 18).c_str(), 1);
    up_ = true;
  }
  ~LocalCluster() {
    if (up_ && !was_running_ && std::system((quote(kScript) + " stop >/dev/null 2>&1").c_str()) != 0)
      WARN("scripts/slurm_local.sh stop failed");
    unsetenv("SLURM_CONF");
  }
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;
  bool up() const { return up_; }
  const std::string& reason() const { return reason_; }

 private:
  bool was_running_ = false, up_ = false;
  std::string reason_;
};

}  // namespace

TEST_CASE("mpg run --executor slurm: job arrays on a one-node cluster give the local tables", "[slurm_executor]") {
  const LocalCluster cluster;
  if (!cluster.up()) {
    MPG_SKIP("the one-node Slurm cluster cannot start here: " << cluster.reason());
  }
  TempDir dir;
  const SyntheticRegistry registry(dir);
  auto spec = SyntheticRegistry::ranking_spec("on_slurm");
  spec["methods"]["RankSVM"]["C"] = {0.1, 1, 10};
  const std::string spec_path = dir.file("on_slurm.json");
  mpg::write_file_atomically(spec_path, spec.dump(2));
  const std::string slurm_results = dir.file("slurm_results");
  const std::string local_results = dir.file("local_results");

  const RunResult on_slurm = run_mpg(
      dir, "run " + quote(spec_path) + " --executor slurm --threads 1 --results " + quote(slurm_results));
  INFO(on_slurm.err);
  REQUIRE(on_slurm.exit_code == 0);
  CHECK_THAT(on_slurm.err, Contains("validation phase: 3 cells submitted to Slurm as job array") &&
                               Contains("test phase: 1 cells submitted to Slurm"));
  CHECK_THAT(on_slurm.out, Contains("on_slurm: 4 cells (0 cached)"));
  const RunResult local = run_mpg(dir, "run " + quote(spec_path) + " --threads 1 --results " + quote(local_results));
  REQUIRE(local.exit_code == 0);
  const auto slurm_table = nlohmann::json::parse(mpg::read_file(slurm_results + "/on_slurm.json"));
  const auto local_table = nlohmann::json::parse(mpg::read_file(local_results + "/on_slurm.json"));
  CHECK(mpg::harness::compare_results(local_table, slurm_table, 0.0).empty());
  CHECK(slurm_table["rows"].size() == local_table["rows"].size());

  // Everything is in the shared cache now: no job, every cell cached.
  const RunResult again = run_mpg(
      dir, "run " + quote(spec_path) + " --executor slurm --threads 1 --results " + quote(slurm_results));
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Contains("on_slurm: 4 cells (4 cached)"));
  CHECK_THAT(again.err, !Contains("submitted to Slurm"));

  // sbatch refusing the array (an unknown partition) is an error quoting sbatch.
  spec["methods"]["RankSVM"]["C"] = nlohmann::json::array({100});
  mpg::write_file_atomically(spec_path, spec.dump(2));
  const RunResult refused = run_mpg(dir, "run " + quote(spec_path) + " --executor slurm --sbatch=--partition=nope --results " +
                                             quote(slurm_results));
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Contains("sbatch could not submit the cells") && Contains("nope"));
}
