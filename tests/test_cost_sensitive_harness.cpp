// The cost-sensitive F-measure family (lib/harness/families/cost_sensitive.cpp): the shipped specs are
// valid; spec errors name the key; a whole run on a tiny synthetic multilabel data set (its own
// registry and files, MPG_REGISTRY / MPG_DATA_DIR) and a small Galaxy sample through every method
// kind, giving the same tables with 1 and 2 threads and when the data file's rows are permuted;
// a data file with a wrong or no sha256 is refused with its name.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg::harness;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// Points MPG_DATA_DIR and MPG_REGISTRY at a folder for the lifetime of the object.
class DataEnvironment {
 public:
  explicit DataEnvironment(const TempDir& dir) {
    setenv("MPG_DATA_DIR", (dir.path() / "data").string().c_str(), 1);
    setenv("MPG_REGISTRY", (dir.path() / "registry.json").string().c_str(), 1);
  }
  ~DataEnvironment() {
    unsetenv("MPG_DATA_DIR");
    unsetenv("MPG_REGISTRY");
  }
  DataEnvironment(const DataEnvironment&) = delete;
  DataEnvironment& operator=(const DataEnvironment&) = delete;
};

// Rows "x1,x2,x3,y1,y2" of a 2-label problem: label 1 follows x1 + noise, label 2 follows x2.
std::vector<std::string> synthetic_rows(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::string> rows;
  for (int i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = u(rng);
    const int y1 = x1 + 0.3 * u(rng) > 0.9 ? 1 : 0, y2 = x2 + 0.3 * u(rng) > 0.7 ? 1 : 0;
    rows.push_back(fmt::format("{:.4f},{:.4f},{:.4f},{},{}\n", x1, x2, x3, y1, y2));
  }
  return rows;
}

std::string joined(const std::vector<std::string>& rows) {
  std::string text;
  for (const auto& r : rows) text += r;
  return text;
}

// Writes the data files and a registry naming them as dataset "syn_ml" (format multilabel_csv);
// `train_sha256` replaces the training file's hash (null: none).
void write_data(const TempDir& dir, const std::vector<std::string>& train_rows, const json& train_sha256 = "actual") {
  std::filesystem::create_directories(dir.path() / "data" / "syn");
  const std::string train = joined(train_rows), test = joined(synthetic_rows(120, 9));
  mpg::write_file_atomically((dir.path() / "data/syn/train.csv").string(), train);
  mpg::write_file_atomically((dir.path() / "data/syn/test.csv").string(), test);
  json train_entry = {{"file", "syn/train.csv"}};
  if (train_sha256 == "actual") train_entry["sha256"] = mpg::sha256_hex(train);
  else if (!train_sha256.is_null()) train_entry["sha256"] = train_sha256;
  const json registry = {
      {"syn_ml",
       {{"format", "multilabel_csv"}, {"default_variant", "v1"},
        {"variants",
         {{"v1", {{"matches", "exact (synthetic)"}, {"labels", 2}, {"train", train_entry},
                  {"test", {{"file", "syn/test.csv"}, {"sha256", mpg::sha256_hex(test)}}}}}}}}}};
  mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
}

json tiny_spec() {
  return json::parse(R"({
    "task": "cost_sensitive", "name": "tiny_cost_sensitive",
    "datasets": {"SYN": {"registry": "syn_ml"}, "Galaxy": {"generator": "galaxy", "train": 240, "test": 120, "splits": [1]}},
    "splits": [1, 2],
    "methods": {
      "SVMperf": {"kind": "svm_perf", "C": [1]},
      "SVM": {"kind": "svm", "C": [0.5, 4], "costs": [0.5, 1, 1.5], "max_passes": 2000},
      "LR": {"kind": "lr", "C": [1], "costs": [0.4, 0.7, 1, 1.3, 1.6], "search": "bracket"},
      "RBF": {"kind": "rbf_svm", "C": [1], "costs": [0.5, 1], "gamma": [0.5, 2]}
    },
    "published": {"2.3": {"Galaxy": {"LR CS&T": 50}},
                  "2.4": {"SYN": {"LR -": 40, "LR CS&T": 60}},
                  "2.6": {"SYN C_min": {"SVM T": 55}},
                  "2.5": {"SYN": {"CS": 50}}},
    "tolerance": 100
  })");
}

std::string write_spec(const TempDir& dir, const json& spec) {
  const std::string path = (dir.path() / "spec.json").string();
  mpg::write_file_atomically(path, spec.dump());
  return path;
}

RunOptions options_in(const TempDir& dir, int threads) {
  RunOptions options;
  options.results_directory = (dir.path() / fmt::format("results{}", threads)).string();
  options.threads = threads;
  options.progress = false;
  return options;
}

}  // namespace

TEST_CASE("The shipped cost-sensitive specs are valid, with and without --quick", "[cost_sensitive_harness]") {
  for (const char* name : {"parambath_t2_3_binary_f1", "parambath_t2_4_2_6_multilabel", "parambath_t2_5_2_7_rbf"}) {
    const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/" + name + ".json";
    INFO(path);
    CHECK(load_spec(path, false)["task"] == "cost_sensitive");
    CHECK(load_spec(path, true)["splits"].size() == 1);
  }
}

TEST_CASE("Cost-sensitive specs: bad keys and values name the file and the key", "[cost_sensitive_harness]") {
  TempDir dir;
  const DataEnvironment environment(dir);
  write_data(dir, synthetic_rows(90, 1));
  const std::string path = write_spec(dir, tiny_spec());
  const auto rejects = [&](const std::string& override_text, const std::string& fragment) {
    INFO(override_text);
    CHECK_THROWS_WITH(load_spec(path, false, {override_text}), Contains(path) && Contains(fragment));
  };
  CHECK_NOTHROW(load_spec(path, false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("splits=[0]", "splits");
  rejects("splits=[1,1]", "distinct integer");
  rejects("selection=best", "selection");
  rejects("empty_f=0.5", "empty_f");
  rejects("methods.SVM.costs=[0.5,1.5]", "methods.SVM.costs: must contain 1");
  rejects("methods.SVM.costs=[1,2.5]", "methods.SVM.costs");
  rejects("methods.SVM.C=[4,0.5]", "methods.SVM.C: values must be strictly increasing");
  rejects("methods.SVM.search=golden", "methods.SVM.search");
  rejects("methods.SVMperf.costs=[1]", "unknown key 'costs'");
  rejects("methods.RBF.gamma=[0]", "methods.RBF.gamma");
  rejects("methods.LR.kind=boosting", "unknown method kind 'boosting'");
  rejects("datasets.Galaxy.generator=spiral", "datasets.Galaxy.generator");
  rejects("datasets.SYN.registry=nothing", "datasets.SYN.registry");
  rejects("published={\"2.8\":{}}", "unknown key '2.8'");
  rejects("published={\"2.4\":{\"SYN\":{\"LR -\":\"high\"}}}", "published.2.4");
  rejects("feature_scaling=minmax", "feature_scaling");
  rejects("figures={\"2.5\":{\"datasets\":[\"SYN\"],\"split\":1}}", "unknown key '2.5'");
  rejects("figures={\"2.3\":{\"datasets\":[\"Nope\"],\"split\":1}}", "figures.2.3.datasets");
  rejects("figures={\"2.4\":{\"datasets\":[\"SYN\"]}}", "figures.2.4");
}

TEST_CASE("A cost-sensitive run on synthetic data: every table, deterministic, row order irrelevant",
          "[cost_sensitive_harness]") {
  TempDir dir;
  const DataEnvironment environment(dir);
  std::vector<std::string> rows = synthetic_rows(90, 1);
  write_data(dir, rows);
  const std::string spec_path = write_spec(dir, tiny_spec());
  const RunSummary one = run_experiment(spec_path, options_in(dir, 1));
  // SYN: 2 splits x (3 methods + 2 gammas); Galaxy: 1 split x the same.
  CHECK(one.cells == 15);
  CHECK(one.published_cells == 4);  // the Galaxy row is a substitute (generated): not in the tally
  CHECK(one.within_tolerance == 4);
  REQUIRE(one.result_files.size() == 3);
  const std::string md = mpg::read_file(one.result_files[0]);
  CHECK_THAT(md, Contains("## Table 2.3") && Contains("## Table 2.4") && Contains("## Table 2.5") &&
                     Contains("## Table 2.6") && Contains("## Table 2.7") && Contains("Galaxy *substitute*") &&
                     Contains("SYN C_min") && Contains("SYN F_max") && Contains("## Table 2.2") &&
                     Contains("Galaxy's optimal F1") && Contains("F_max sub-optimal for micro-F"));
  const json out = json::parse(mpg::read_file(one.result_files[2]));
  CHECK(out["selection"] == "two_loop");
  // Rows: Galaxy 2.3 (SVMperf 2 + SVM 4 + LR 4 + RBF 4); SYN 2.4 and 2.6 (C_min, F_max): 3 x 10; 2.5 and 2.7: 3 x 4.
  CHECK(out["rows"].size() == 14 + 30 + 12);
  for (const auto& row : out["rows"]) {
    CHECK(row["ours"].get<double>() >= 0.0);
    CHECK(row["ours"].get<double>() <= 100.0);
  }
  // The thesis averages splits: a row's 95 % interval is the bootstrap of that mean over its
  // splits. With SYN's two splits a and b the resampled means are a, (a + b)/2 and b (chances ¼,
  // ½, ¼), so the interval is [min, max], whose width is √2 × the sd over the splits.
  REQUIRE(out["comparison"].size() == 42);  // SYN's rows (Galaxy's are under "substitute")
  for (const auto& row : out["comparison"]) {
    CAPTURE(row.dump());
    CHECK(row["interval_unit"] == "split");
    CHECK(row["splits"] == 2);
    CHECK(row["interval"][0].get<double>() <= row["ours"].get<double>());
    CHECK(row["ours"].get<double>() <= row["interval"][1].get<double>());
    CHECK(row["interval"][1].get<double>() - row["interval"][0].get<double>() ==
          Approx(std::sqrt(2.0) * row["sd"].get<double>()).margin(1e-9));
  }
  const json& attributes = out["attributes"];
  REQUIRE(attributes.size() == 2);  // data sets in label order
  CHECK(attributes[0]["dataset"] == "Galaxy");
  CHECK(attributes[0]["train"] == 240);
  CHECK(attributes[0]["features"] == 2);
  CHECK(attributes[1]["dataset"] == "SYN");
  CHECK(attributes[1]["train"] == 90);
  CHECK(attributes[1]["test"] == 120);
  CHECK(attributes[1]["features"] == 3);

  // Two threads, and a rerun from the cache, give the same numbers.
  const RunSummary two = run_experiment(spec_path, options_in(dir, 2));
  CHECK(mpg::read_file(two.result_files[1]) == mpg::read_file(one.result_files[1]));
  RunOptions again = options_in(dir, 1);
  again.check = true;
  const RunSummary checked = run_experiment(spec_path, again);
  CHECK(checked.cached_cells == 15);
  CHECK(checked.drift.empty());

  // Permuting the training file's rows changes nothing (content-keyed splits); a fresh folder, as
  // the registry is read once per path.
  std::reverse(rows.begin(), rows.end());
  std::rotate(rows.begin(), rows.begin() + 17, rows.end());
  TempDir other;
  const DataEnvironment other_environment(other);
  write_data(other, rows);
  const RunSummary shuffled = run_experiment(write_spec(other, tiny_spec()), options_in(other, 2));
  CHECK(shuffled.cached_cells == 0);  // a different file: new cells
  CHECK(mpg::read_file(shuffled.result_files[1]) == mpg::read_file(one.result_files[1]));
}

TEST_CASE("Cost-sensitive figures 2.3 and 2.4 and feature scaling", "[cost_sensitive_harness]") {
  TempDir dir;
  const DataEnvironment environment(dir);
  write_data(dir, synthetic_rows(90, 1));
  json spec = tiny_spec();
  spec["figures"] = {{"2.3", {{"datasets", {"Galaxy"}}, {"split", 1}}}, {"2.4", {{"datasets", {"SYN"}}, {"split", 1}}}};
  const RunSummary run = run_experiment(write_spec(dir, spec), options_in(dir, 2));
  const std::filesystem::path results = dir.path() / "results2";
  auto lines_of = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  // Figure 2.3: the optimal line in both panels, then before / after for SVMperf, the weighted SVM,
  // LR and weighted LR (the RBF method has no line).
  const std::string boundaries = mpg::read_file((results / "tiny_cost_sensitive.figure2_3.csv").string());
  CHECK(lines_of(boundaries) == 1 + 2 + 2 * 4);
  CHECK_THAT(boundaries, Contains("Galaxy,before,optimal") && Contains("Galaxy,after,weighted LR,CS&T"));
  CHECK(lines_of(mpg::read_file((results / "tiny_cost_sensitive.figure2_3_points.csv").string())) == 1 + 120);
  CHECK(std::filesystem::exists(results / "tiny_cost_sensitive.figure2_3.gp"));
  // Figure 2.4: every cost of SVM (3) and LR (5, bracketed in the tables), CS and CS&T.
  const std::string curves = mpg::read_file((results / "tiny_cost_sensitive.figure2_4.csv").string());
  CHECK(lines_of(curves) == 1 + 2 * (3 + 5));
  CHECK(std::filesystem::exists(results / "tiny_cost_sensitive.figure2_4.gp"));
  const std::string md = mpg::read_file(run.result_files[0]);
  CHECK_THAT(md, Contains("## Figure 2.3") && Contains("## Figure 2.4"));
  const json out = json::parse(mpg::read_file(run.result_files[2]));
  CHECK(std::count_if(out["claims"].begin(), out["claims"].end(),
                      [](const json& c) { return c["claim"] == "micro_f_unimodal_in_cost"; }) == 4);
  // The tables do not depend on the figures' extra trainings.
  const RunSummary plain = run_experiment(write_spec(dir, tiny_spec()), options_in(dir, 1));
  CHECK(mpg::read_file(plain.result_files[1]) == mpg::read_file(run.result_files[1]));

  // Scaling fitted on the training part changes the models (not the data's splits); Figure 2.3
  // needs the unscaled plane.
  json scaled = tiny_spec();
  scaled["feature_scaling"] = "standardize";
  scaled["datasets"].erase("Galaxy");
  const RunSummary standardized = run_experiment(write_spec(dir, scaled), options_in(dir, 1));
  CHECK(standardized.cells == 10);
  spec["feature_scaling"] = "unit_range";
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, spec), options_in(dir, 1)), Contains("figures.2.3"));
}

TEST_CASE("A multilabel file whose registry entry has a wrong or no sha256 is refused with its name",
          "[cost_sensitive_harness]") {
  TempDir dir;
  const DataEnvironment environment(dir);
  write_data(dir, synthetic_rows(90, 1), std::string(64, '0'));
  json spec = tiny_spec();
  spec["datasets"].erase("Galaxy");
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, spec), options_in(dir, 1)),
                    Contains("syn/train.csv") && Contains("sha256 mismatch"));
  TempDir other;
  const DataEnvironment other_environment(other);
  write_data(other, synthetic_rows(90, 1), nullptr);
  CHECK_THROWS_WITH(run_experiment(write_spec(other, spec), options_in(other, 1)),
                    Contains("syn/train.csv") && Contains("has no sha256"));
}
