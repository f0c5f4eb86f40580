// `mpg run --repeat S` (issue 57): a spec under S split seeds, each cell's values per seed and
// their mean ± sd. On OPTDIGITS (the harness tests' small spec: logistic regression, class 0);
// skipped without the shared data.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/registry.hpp"
#include "tests/harness_fixtures.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg;
using namespace mpg::harness;
namespace fs = std::filesystem;

TEST_CASE("--repeat 3: three split seeds' numbers and their mean", "[repeat]") {
  if (!fs::exists(fs::path(data_directory()) / "optdigits" / "optdigits.tra"))
    MPG_SKIP("optdigits is not in " << data_directory());
  mpg::testing::TempDir dir;
  const std::string spec = mpg::testing::write_spec(dir, mpg::testing::small_spec());
  RunOptions options = mpg::testing::quiet_options(dir, 1);
  const auto written = run_repeated(spec, options, 3);
  REQUIRE(written.size() == 2);
  const auto table = nlohmann::json::parse(read_file((dir.path() / "results" / "small.repeat.json").string()));
  CHECK(table["seeds"] == nlohmann::json({"protocol.split_seed = 5", "protocol.split_seed = 6", "protocol.split_seed = 7"}));
  REQUIRE(table["rows"].size() == 1);
  const auto& row = table["rows"][0];
  CHECK(row["cell"] == "OPT LR");
  REQUIRE(row["values"].size() == 3);
  // The first seed is the spec's own run: the same number as its table.
  run_experiment(spec, options);
  const auto own = nlohmann::json::parse(read_file((dir.path() / "results" / "small.json").string()));
  CHECK(row["values"][0].get<double>() == own["rows"][0]["ours"].get<double>());
  const double a = row["values"][0], b = row["values"][1], c = row["values"][2];
  const double mean = (a + b + c) / 3;
  CHECK(row["mean"].get<double>() == Approx(mean));
  CHECK(row["sd"].get<double>() ==
        Approx(std::sqrt(((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean)) / 2)));
  CHECK((a != b || b != c));  // other splits, other numbers
  CHECK(read_file(written[0]).find("| OPT LR | 0.9000 |") != std::string::npos);
  // Nothing to repeat, or a family without a seeded split: clear errors.
  CHECK_THROWS_WITH(run_repeated(spec, options, 0), Catch::Contains("at least 1"));
}
