// The structured AUC family (lib/harness/families/structured_auc.cpp): spec validation naming the key, a
// run on a synthetic multi-label data set (labels as items) whose published and not-reproduced
// cells become rows with their reasons, the same tables when the training rows are permuted, and
// data files with a wrong or missing sha256 refused with their names.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "lib/base/io.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/registry_fixture.hpp"

using namespace mpg::harness;
using mpg::testing::RegistryFixture;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// Rows of 4 features then 3 labels; label k is on when feature k is large (plus noise).
std::vector<std::string> multilabel_rows(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::string> rows;
  for (int i = 0; i < n; ++i) {
    double x[4];
    for (double& v : x) v = u(rng);
    std::string row = fmt::format("{:.4f},{:.4f},{:.4f},{:.4f}", x[0], x[1], x[2], x[3]);
    for (int k = 0; k < 3; ++k) row += x[k] + 0.3 * u(rng) > 0.7 ? ",1" : ",0";
    rows.push_back(row + "\n");
  }
  return rows;
}

std::string joined(const std::vector<std::string>& rows) {
  std::string text;
  for (const auto& r : rows) text += r;
  return text;
}

// Registers dataset "syn_ml" (train, test) with the given train rows; `train_hash` as in
// RegistryFixture::file.
void register_multilabel(const RegistryFixture& data, const std::vector<std::string>& train,
                         const std::optional<std::string>& train_hash = std::nullopt) {
  data.registry({{"syn_ml",
                  {{"format", "multilabel_csv"},
                   {"default_variant", "v1"},
                   {"variants",
                    {{"v1",
                      {{"matches", "exact (synthetic)"},
                       {"labels", 3},
                       {"train", data.file("ml/train.csv", joined(train), train_hash)},
                       {"test", data.file("ml/test.csv", joined(multilabel_rows(40, 9)))}}}}}}}});
}

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "structured_auc", "name": "tiny_auc",
    "datasets": {"SYN": {"registry": "syn_ml", "validation_fraction": 0.25}},
    "methods": {"factored": {"kind": "factored_auc", "lambda": [0.1, 10]}},
    "published": {"SYN": {"AUC": {"train_AUC": 80.0, "train_unnested": 81.0}},
                  "NIPS": {"AUC": {"train_AUC": 70.4}}},
    "not_reproduced": {"SYN/*/unnested": "no definition", "NIPS": "data not available"},
    "tolerance": 100
  })");
}

}  // namespace

TEST_CASE("The shipped structured AUC spec is valid, with and without --quick", "[structured_auc_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/structured_auc_table.json";
  CHECK(load_spec(path, false)["methods"]["factored"]["lambda"].size() == 6);
  CHECK(load_spec(path, true)["methods"]["factored"]["lambda"].size() == 2);
}

TEST_CASE("Structured AUC specs: bad keys and values name the file and the key", "[structured_auc_harness]") {
  TempDir dir;
  const RegistryFixture data(dir);
  register_multilabel(data, multilabel_rows(60, 1));
  const std::string path = mpg::testing::write_spec(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(path, false));
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  rejects("colour=1", "unknown key 'colour'");
  rejects("datasets.SYN.fold=7", "datasets.SYN.fold: expected an integer 1..5");
  rejects("datasets.SYN.validation_fraction=0", "datasets.SYN.validation_fraction");
  rejects("datasets.SYN.registry=missing", "datasets.SYN.registry");
  rejects("methods.factored.lambda=[0]", "methods.factored.lambda");
  rejects("methods.factored.tolerance=0", "methods.factored.tolerance");
  rejects("published.SYN.AUC.AUC=1", "published.SYN.AUC.AUC: expected a column named train_<loss>");
  rejects("not_reproduced.NIPS=1", "not_reproduced.NIPS: expected a string");
  rejects("bin_size=0", "bin_size");
  rejects("datasets.SYN.lambda=[0]", "datasets.SYN.lambda: expected positive numbers");
}

TEST_CASE("A structured AUC run on synthetic multi-label data", "[structured_auc_harness]") {
  const std::vector<std::string> rows = multilabel_rows(60, 1);
  std::string csv, md;
  {
    TempDir dir;
    const RegistryFixture data(dir);
    register_multilabel(data, rows);
    const RunSummary run = run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir));
    CHECK(run.cells == 2 + 1);  // two lambda, then the selected one's test
    CHECK(run.published_cells == 1);
    CHECK(run.within_tolerance == 1);
    md = mpg::read_file(run.result_files[0]);
    csv = mpg::read_file(run.result_files[1]);
    CHECK_THAT(md, Contains("| SYN | AUC | AUC |") && Contains("| SYN | AUC | unnested |") &&
                       Contains("no definition") && Contains("| NIPS | AUC | AUC |") &&
                       Contains("data not available") && Contains("## Selected λ"));
  }
  // The training rows permuted: the same validation share (chosen by content) and the same tables.
  std::vector<std::string> permuted = rows;
  std::reverse(permuted.begin(), permuted.end());
  TempDir dir;
  const RegistryFixture data(dir);
  register_multilabel(data, permuted);
  const RunSummary run = run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir));
  CHECK(mpg::read_file(run.result_files[1]) == csv);
}

TEST_CASE("A multi-label file with a wrong or no sha256 is refused with its name", "[structured_auc_harness]") {
  {
    TempDir dir;
    const RegistryFixture data(dir);
    register_multilabel(data, multilabel_rows(60, 1), std::string(64, '0'));
    CHECK_THROWS_WITH(run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir)),
                      Contains("ml/train.csv") && Contains("sha256 mismatch"));
  }
  TempDir dir;
  const RegistryFixture data(dir);
  register_multilabel(data, multilabel_rows(60, 1), std::string());
  CHECK_THROWS_WITH(run_experiment(mpg::testing::write_spec(dir, tiny_spec()), mpg::testing::quiet_run(dir)),
                    Contains("ml/train.csv") && Contains("has no sha256"));
  CHECK_FALSE(fs::exists(dir.path() / "results" / "tiny_auc.md"));
}
