// The sequence-labeling family's Table X path (lib/harness/families/sequence_labeling.cpp) on a tiny
// synthetic CoNLL data set registered with its sha256 in a registry of the test's own
// (MPG_REGISTRY): the per-method compare_level (each method's published numbers are compared at
// its own F1 level, both levels shown), the certified MPG training it records, the spec errors of
// both, and a file whose registry entry has a wrong sha256.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/families/sequence_labeling.hpp"
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

// Twelve sentences per part over a small vocabulary: capitalized names are I-PER, cities I-LOC,
// the rest O; the parts differ in which words they combine. `corrupt_part` gets a wrong sha256.
class SyntheticConll {
 public:
  SyntheticConll(const TempDir& dir, const std::string& corrupt_part = "")
      : data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    fs::create_directories(dir.path() / "data" / "syn");
    const char* const names[] = {"John", "Mary", "Smith", "Anna"};
    const char* const cities[] = {"Paris", "Rome", "Oslo"};
    const char* const words[] = {"met", "in", "the", "visited", "said", "today"};
    nlohmann::json variant = {{"matches", "exact (synthetic)"}};
    int part_index = 0;
    for (const char* part : {"train", "testa", "testb"}) {
      std::string text = "-DOCSTART- -X- -X- O\n\n";
      for (int s = 0; s < 12; ++s) {
        const int k = s + 5 * part_index;
        text += fmt::format("{} NNP B-NP I-PER\n", names[k % 4]);
        if (k % 3 == 0) text += fmt::format("{} NNP I-NP I-PER\n", names[(k + 1) % 4]);
        text += fmt::format("{} VBD O O\n", words[k % 6]);
        text += fmt::format("{} IN O O\n", words[(k + 1) % 6]);
        text += fmt::format("{} NNP B-NP I-LOC\n\n", cities[k % 3]);
      }
      mpg::write_file_atomically((dir.path() / "data" / "syn" / (std::string(part) + ".txt")).string(), text);
      variant[part] = {{"file", std::string("syn/") + part + ".txt"},
                       {"sha256", part == corrupt_part ? std::string(64, '0') : mpg::sha256_hex(text)}};
      ++part_index;
    }
    const nlohmann::json registry = {
        {"syn_conll", {{"format", "conll"}, {"default_variant", "v1"}, {"variants", {{"v1", variant}}}}}};
    mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
  }

 private:
  ScopedEnvironment data_, registry_;
};

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "sequence_labeling", "table": "f1", "name": "tiny_conll",
    "dataset": {"registry": "syn_conll"},
    "subsets": {"syn.6": 6},
    "classes": ["PER", "LOC"],
    "protocol": {"validation_fraction": 0.5},
    "compare_level": {"CRF": "entity", "MPG": "token"},
    "methods": {
      "CRF": {"kind": "crf", "lambda": [1.0]},
      "MPG": {"kind": "mpg", "lambda": [0.5, 2.0], "objective_tolerance": 1e-6}
    },
    "published": {"CRF": {"syn.6": {"testa": {"PER": 0.5}}}, "MPG": {"syn.6": {"testb": {"PER": 0.5, "LOC": 0.5}}}},
    "tolerance": 1.0
  })");
}

}  // namespace

TEST_CASE("Table X specs: compare_level and the MPG's training settings are checked by name",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const SyntheticConll data(dir);
  const std::string path = write_spec(dir, tiny_spec());
  const auto rejects = [&](const std::string& override_text, const std::string& fragment) {
    INFO(override_text);
    CHECK_THROWS_WITH(load_spec(path, false, {override_text}), Contains(path) && Contains(fragment));
  };
  CHECK_NOTHROW(load_spec(path, false));
  CHECK_NOTHROW(load_spec(path, false, {"compare_level=token"}));
  CHECK_NOTHROW(load_spec(path, false, {"compare_level={\"MPG\": \"entity\"}"}));
  rejects("compare_level=chunk", "compare_level: expected \"token\" or \"entity\"");
  rejects("compare_level.MPG=chunk", "compare_level.MPG: expected \"token\" or \"entity\"");
  rejects("compare_level.SVM=token", "compare_level.SVM: no such method in methods");
  rejects("compare_level=[\"token\"]", "compare_level: expected");
  rejects("methods.MPG.optimizer=adadelta", "methods.MPG.optimizer: expected one of instance_planes, cutting_plane, lbfgs");
  CHECK_NOTHROW(load_spec(path, false, {"methods.MPG.optimizer=cutting_plane", "methods.MPG.lambda_path=true"}));
  const auto rejects_both = [&](const std::string& optimizer) {
    INFO(optimizer);
    CHECK_THROWS_WITH(load_spec(path, false, {"methods.MPG.optimizer=" + optimizer, "methods.MPG.lambda_path=true"}),
                      Contains("methods.MPG.lambda_path: a lambda path needs optimizer cutting_plane"));
  };
  rejects_both("instance_planes");
  rejects_both("lbfgs");
  rejects("methods.MPG.lambda_path=true", "a lambda path needs optimizer cutting_plane");  // default: instance planes
  rejects("methods.MPG.protocol=authors", "methods.MPG.protocol: expected one of certified, authors_lbfgs, authors_adadelta");
  rejects("methods.MPG.batch_size=0", "methods.MPG.batch_size");
  CHECK_NOTHROW(load_spec(path, false, {"methods.MPG.protocol=authors_adadelta"}));
  CHECK_THROWS_WITH(load_spec(path, false, {"methods.MPG.optimizer=cutting_plane", "methods.MPG.lambda_path=true",
                                            "methods.MPG.protocol=authors_lbfgs"}),
                    Contains("methods.MPG.lambda_path: a lambda path needs protocol certified"));
  rejects("diagnostic_level=chunk", "diagnostic_level: expected \"token\" or \"entity\"");
  rejects("compare_with={\"SVM\": \"MPG\"}", "compare_with.SVM: no such method in methods");
  rejects("compare_with={\"MPG\": \"CRF\"}", "compare_with.MPG: the method has published numbers of its own");
  rejects("compare_with={\"CRF\": \"HMM\"}", "compare_with.CRF: expected the name of a method in published");
  rejects("methods.MPG.objective_tolerance=0", "methods.MPG.objective_tolerance");
  rejects("methods.MPG.max_iterations=0", "methods.MPG.max_iterations");
}

TEST_CASE("The shipped Table X spec: every method at entity level (token level a diagnostic), three MPG protocols",
          "[sequence_labeling_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/table10_conll_f1.json";
  for (const bool quick : {false, true}) {
    const auto shipped = load_spec(path, quick);
    CHECK(shipped["compare_level"] == "entity");
    CHECK(shipped["diagnostic_level"] == "token");
    for (const auto& [method, levels] : sequence_labeling_impl::compare_levels(shipped)) CHECK(levels == "entity");
    CHECK_FALSE(shipped["methods"]["MPG"].contains("optimizer"));  // the parameter's default: instance_planes
    CHECK_FALSE(shipped["methods"]["MPG"].contains("protocol"));   // certified
    CHECK(shipped["methods"]["MPG (authors' L-BFGS)"]["protocol"] == "authors_lbfgs");
    CHECK(shipped["methods"]["MPG (authors' AdaDelta)"]["protocol"] == "authors_adadelta");
    for (const char* m : {"MPG (authors' L-BFGS)", "MPG (authors' AdaDelta)"}) {
      CHECK(shipped["methods"][m]["lambda"] == shipped["methods"]["MPG"]["lambda"]);  // the same grid
      CHECK(shipped["compare_with"][m] == "MPG");
    }
  }
}

TEST_CASE("Table X scores a sentence at token and at entity level (conlleval chunks), by hand",
          "[sequence_labeling_harness]") {
  // Gold: [John Smith]PER met [Mary]PER; predicted PER on John and Mary only.
  mpg::ConllSentence gold;
  gold.words = {"John", "Smith", "met", "Mary"};
  gold.tags = {"I-PER", "I-PER", "O", "I-PER"};
  const int per = mpg::conll_label_of_name("PER");
  const int other = mpg::conll_label_of_tag("O");
  gold.labels = {per, per, other, per};
  const std::vector<std::vector<int>> predicted = {{per, other, other, per}};
  const auto scores = sequence_labeling_impl::score_set({gold}, predicted, {per});
  // Tokens: 2 right of 2 predicted, 3 gold: F1 = 2 * 2 / (2 + 3) = 0.8.
  CHECK(scores["PER"]["token"].get<double>() == Approx(0.8).epsilon(1e-15));
  CHECK(scores["PER"]["token_counts"] == nlohmann::json::parse("[2, 2, 3]"));
  // Chunks: [John] and [Mary] predicted, [John Smith] and [Mary] gold, one right: F1 = 0.5.
  CHECK(scores["PER"]["entity"].get<double>() == Approx(0.5).epsilon(1e-15));
  CHECK(scores["PER"]["entity_counts"] == nlohmann::json::parse("[1, 2, 2]"));
}

TEST_CASE("Table X on synthetic CoNLL: each method compared at its level, certified MPG training",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const SyntheticConll data(dir);
  const std::string spec_path = write_spec(dir, tiny_spec());
  const RunOptions options = quiet_options(dir);
  const RunSummary first = run_experiment(spec_path, options);
  CHECK(first.cells == 1 + 2 * 2);  // one CRF model; an MPG per class and λ
  CHECK(first.published_cells == 3);
  const auto table = nlohmann::json::parse(mpg::read_file(first.result_files.at(2)));
  CHECK(table["compare_level"] == nlohmann::json::parse(R"({"CRF": "entity", "MPG": "token"})"));
  int compared = 0;
  for (const auto& row : table["rows"]) {
    if (!row.contains("published") || row["published"].is_null()) continue;
    ++compared;
    const std::string level = row["method"] == "MPG" ? "token" : "entity";
    CHECK(row["compared"] == level);
    CHECK(row["ours"].get<double>() == row[level + "_f1"].get<double>());
  }
  CHECK(compared == 3);
  // Every MPG training is certified: its objective lies within the tolerance of a lower bound.
  for (const auto& cell : table["cells"]) {
    if (cell["method"] != "MPG") continue;
    const auto& training = cell["result"]["training"];
    CHECK(training["converged"] == true);
    CHECK(training["lower_bound"].get<double>() <= training["objective"].get<double>());
    CHECK(training["certified_gap"].get<double>() <=
          1e-6 * std::max(1.0, std::abs(training["objective"].get<double>())));
  }
  const std::string markdown = mpg::read_file(first.result_files.at(0));
  CHECK_THAT(markdown, Contains("CRF entity-level F1, MPG token-level F1") && Contains("largest certified gap"));

  // Switching every method to token level reuses every cell.
  RunOptions token = options;
  token.overrides = {"compare_level=token"};
  const RunSummary second = run_experiment(spec_path, token);
  CHECK(second.cached_cells == first.cells);
  const auto token_table = nlohmann::json::parse(mpg::read_file(second.result_files.at(2)));
  for (const auto& row : token_table["rows"]) CHECK(row["compared"] == "token");
}

TEST_CASE("Table X at one level: CRF and every MPG protocol at entity level, token level a diagnostic outside the tally",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const SyntheticConll data(dir);
  nlohmann::json spec = tiny_spec();
  spec["compare_level"] = "entity";
  spec["diagnostic_level"] = "token";
  spec["methods"]["MPG"]["lambda"] = {0.5};
  spec["methods"]["MPG (authors' AdaDelta)"] = {{"kind", "mpg"}, {"lambda", {0.5}}, {"protocol", "authors_adadelta"}};
  spec["compare_with"] = {{"MPG (authors' AdaDelta)", "MPG"}};
  const RunSummary run = run_experiment(write_spec(dir, spec), quiet_options(dir));
  // CRF testa PER; MPG testb PER, LOC; the authors' MPG beside it, a protocol variant counted apart.
  CHECK(run.published_cells == 1 + 2);
  CHECK(run.tally.apart.at(mpg::harness::Standing::variant).first == 2);
  const auto table = nlohmann::json::parse(mpg::read_file(run.result_files.at(2)));
  int compared = 0;
  for (const auto& row : table["rows"]) {
    if (!row.contains("published") || row["published"].is_null()) continue;
    ++compared;
    CHECK(row["compared"] == "entity");
    CHECK(row["ours"].get<double>() == row["entity_f1"].get<double>());
  }
  CHECK(compared == 5);
  int diagnostic = 0;
  for (const auto& row : table["diagnostic"]["rows"]) {
    if (!row.contains("published") || row["published"].is_null()) continue;
    ++diagnostic;
    CHECK(row["compared"] == "token");
    CHECK(row["ours"].get<double>() == row["token_f1"].get<double>());
  }
  CHECK(diagnostic == 5);
  for (const auto& cell : table["cells"])
    if (cell["method"] == "MPG (authors' AdaDelta)") {
      CHECK(cell["result"]["protocol"] == "authors_adadelta");
      CHECK_THAT(cell["result"]["optimizer"].get<std::string>(), Contains("mini-batch AdaDelta"));
    }
  const std::string markdown = mpg::read_file(run.result_files.at(0));
  CHECK_THAT(markdown, Contains("Diagnostic, not a reproduction: every method at token level"));
}

// A table's MPG cells without their times: (lambda, class) -> result.
std::map<std::pair<double, std::string>, nlohmann::json> mpg_cells(const std::string& json_file) {
  std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& j) {
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end();) {
      if (it.key().find("seconds") != std::string::npos) {
        it = j.erase(it);
      } else {
        strip(*it);
        ++it;
      }
    }
  };
  std::map<std::pair<double, std::string>, nlohmann::json> out;
  const auto table = nlohmann::json::parse(mpg::read_file(json_file));
  for (auto cell : table["cells"]) {
    if (cell["method"] != "MPG") continue;
    strip(cell["result"]);
    out[{cell["lambda"].get<double>(), cell["target"].get<std::string>()}] = cell["result"];
  }
  return out;
}

// The tiny spec's MPG cells as shipped and with one override (its own results directory).
std::pair<std::map<std::pair<double, std::string>, nlohmann::json>, std::map<std::pair<double, std::string>, nlohmann::json>>
tiny_spec_with_and_without(const TempDir& dir, const std::string& override_text) {
  const SyntheticConll data(dir);
  const std::string spec_path = write_spec(dir, tiny_spec());
  auto shipped = mpg_cells(run_experiment(spec_path, quiet_options(dir)).result_files.at(2));
  RunOptions changed = quiet_options(dir, 1, "changed");
  changed.overrides = {override_text};
  auto overridden = mpg_cells(run_experiment(spec_path, changed).result_files.at(2));
  REQUIRE(shipped.size() == 4);
  REQUIRE(overridden.size() == 4);
  return {shipped, overridden};
}

TEST_CASE("Table X lambda paths: same cells with 1 and 2 threads, certified like trainings from scratch",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const SyntheticConll data(dir);
  nlohmann::json spec = tiny_spec();
  spec["methods"]["MPG"]["lambda"] = {0.5, 2.0, 0.125};  // the path: 2, 0.5, 0.125
  spec["methods"]["MPG"]["lambda_path"] = true;
  spec["methods"]["MPG"]["optimizer"] = "cutting_plane";
  const std::string spec_path = write_spec(dir, spec);
  const RunSummary one = run_experiment(spec_path, mpg::testing::threaded_options(dir, 1));
  const RunSummary two = run_experiment(spec_path, mpg::testing::threaded_options(dir, 2));
  CHECK(two.cached_cells == 0);  // its own cache
  const auto path = mpg_cells(one.result_files.at(2));
  REQUIRE(path.size() == 6);
  CHECK(mpg_cells(two.result_files.at(2)) == path);
  CHECK(run_experiment(spec_path, mpg::testing::threaded_options(dir, 2)).cached_cells == two.cells);

  RunOptions scratch_options = mpg::testing::quiet_options(dir, 2, "scratch");
  scratch_options.overrides = {"methods.MPG.lambda_path=false"};  // the default
  const auto scratch = mpg_cells(run_experiment(spec_path, scratch_options).result_files.at(2));
  REQUIRE(scratch.size() == 6);
  for (const auto& [cell, result] : path) {
    INFO("lambda " << cell.first << " " << cell.second);
    const auto& training = result["training"];
    const auto& alone = scratch.at(cell)["training"];
    REQUIRE(training["converged"] == true);
    REQUIRE(alone["converged"] == true);
    const bool inherited = training.value("inherited_cuts", 0) > 0;
    CHECK(inherited == (cell.first < 2.0));
    const double scale = std::max(1.0, std::abs(alone["objective"].get<double>()));
    CHECK(training["objective"].get<double>() >= alone["lower_bound"].get<double>() - 1e-9 * scale);
    CHECK(alone["objective"].get<double>() >= training["lower_bound"].get<double>() - 1e-9 * scale);
    CHECK(std::abs(training["objective"].get<double>() - alone["objective"].get<double>()) <= 1e-6 * scale);
    if (cell.first == 2.0) CHECK(result == scratch.at(cell));  // the path's first training is one from scratch
  }
}

TEST_CASE("Table X MPG with instance planes: certified cells whose intervals overlap the bundle's",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const auto [planes, bundle] = tiny_spec_with_and_without(dir, "methods.MPG.optimizer=cutting_plane");
  for (const auto& [cell, result] : bundle) {
    INFO("lambda " << cell.first << " " << cell.second);
    const auto& a = result["training"];
    const auto& b = planes.at(cell)["training"];
    REQUIRE(a["converged"] == true);
    REQUIRE(b["converged"] == true);
    CHECK_THAT(b["status"].get<std::string>(), Contains("instance planes converged"));
    const double scale = std::max(1.0, std::abs(a["objective"].get<double>()));
    CHECK(b["objective"].get<double>() >= a["lower_bound"].get<double>() - 1e-9 * scale);
    CHECK(a["objective"].get<double>() >= b["lower_bound"].get<double>() - 1e-9 * scale);
  }
}

TEST_CASE("Table X MPG decision rule: maximin reaches the cells and leaves the trainings as they are",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const auto [likeliest, maximin] = tiny_spec_with_and_without(dir, "methods.MPG.decision=maximin");
  for (const auto& [cell, result] : likeliest) {
    INFO("lambda " << cell.first << " " << cell.second);
    CHECK(result["decision"] == "most_probable");  // the papers' rule, the default
    CHECK(maximin.at(cell)["decision"] == "maximin");
    CHECK(maximin.at(cell)["training"] == result["training"]);
    CHECK(maximin.at(cell)["unconverged_test_games"] == 0);  // no equilibrium is computed
  }
}

TEST_CASE("A CoNLL file whose registry entry has a wrong sha256 is refused with its name",
          "[sequence_labeling_harness]") {
  TempDir dir;
  const SyntheticConll data(dir, "testa");
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), quiet_options(dir)),
                    Contains("syn/testa.txt") && Contains("sha256 mismatch"));
  CHECK_FALSE(fs::exists(dir.path() / "results" / "tiny_conll.md"));
}
