// The relevance-diversity family (lib/harness/families/diversity.cpp): spec validation, and whole runs on a
// tiny synthetic MovieLens data set registered with its sha256 in a registry of the test's own
// (MPG_REGISTRY): the tables, the curve files, the claim and significance rows, a cached rerun,
// the same tables with 1 and 2 threads and with the rating lines permuted; a file whose registry
// entry has a wrong or no sha256 is refused with its name.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
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
using mpg::testing::spec_rejections;
using mpg::testing::write_spec;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "diversity", "name": "tiny_diversity",
    "dataset": {"registry": "syn_movielens"},
    "protocol": {"repetitions": 2, "seed": 3, "test_fraction": 0.1, "ks": [10, 20], "conv_ks": [10]},
    "eclectic": {"min_relevant": 8, "max_mean_similarity": 0.9},
    "als": {"rank": 3, "max_iterations": 3},
    "methods": {
      "MMR_0.1": {"kind": "mmr", "lambda": 0.1},
      "MSD_0.1": {"kind": "msd", "lambda": 0.1},
      "MOD": {"kind": "sdr", "gamma": 1},
      "SDR_0.1": {"kind": "sdr", "gamma": 0.1},
      "SDR_0": {"kind": "sdr", "gamma": 0},
      "SDR_conv_0.5": {"kind": "sdr_conv", "gamma": 0.5}
    },
    "claims": ["sdr_limit_degrades", "sdr_gamma"],
    "published": {
      "tables": {"3.1+3.2": {"users": "all", "k": 10, "columns": ["MOD", "SDR_0.1", "SDR_0"],
                             "rows": {"dcg": [31.33, 34.86, 24.42], "genre_coverage": [71.2, 74.1, 70.9],
                                      "intra_list_distance": [21.0, 22.5, 20.1], "catalog_coverage": [10.2, 12.0, 9.1],
                                      "stratified_recall": [8.1, 9.0, 6.2], "precision": [15.0, 16.2, 11.9]}}},
      "significance": {"k": 10, "metrics": ["dcg"],
                       "treatments": [{"name": "MMR", "candidates": ["MMR_0.1"]}, {"name": "MOD", "candidates": ["MOD"]},
                                      {"name": "SDR", "candidates": ["SDR_0.1"]}],
                       "friedman": {"all": [0.0018]}, "nemenyi": {"all": {"dcg": [0.6, 0.07, 0.6]}}}
    }
  })");
}

// A data directory with a synthetic MovieLens data set (40 users, 90 items, 4 genre flags with
// `unknown`; each user rates 30 items, mostly of two genres it likes) and a registry naming it
// "syn_movielens" (and a LETOR dataset "syn_letor" of another format). `hash(part, sha256)` gives
// the registry's sha256 of a part, null for none; `shuffle` permutes the lines of u.data.
class SyntheticMovieLens {
 public:
  template <class Hash>
  SyntheticMovieLens(const TempDir& dir, Hash hash, bool shuffle = false)
      : data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    const fs::path folder = dir.path() / "data" / "ml";
    fs::create_directories(folder);
    std::mt19937_64 rng(11);
    auto draw = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
    std::string items;
    std::vector<int> genre_of(91);
    for (int i = 1; i <= 90; ++i) {
      genre_of[static_cast<std::size_t>(i)] = i % 3;
      items += fmt::format("{}|Movie {} (1995)|01-Jan-1995||http://x|{}|{}|{}|{}\n", i, i, i == 90 ? 1 : 0,
                           int{i % 3 == 0}, int{i % 3 == 1}, int{i % 3 == 2 || i % 7 == 0});
    }
    std::vector<std::string> lines;
    std::string users;
    for (int u = 1; u <= 40; ++u) {
      users += fmt::format("{}|30|M|other|00000\n", u);
      const int liked = u % 3;
      std::vector<char> rated(91, 0);
      for (int n = 0; n < 30;) {
        const int item = 1 + draw(90);
        if (rated[static_cast<std::size_t>(item)]) continue;
        rated[static_cast<std::size_t>(item)] = 1;
        ++n;
        const int rating = genre_of[static_cast<std::size_t>(item)] == liked ? 4 + draw(2) : 1 + draw(4);
        lines.push_back(fmt::format("{}\t{}\t{}\t{}\n", u, item, rating, 880000000 + n));
      }
    }
    if (shuffle) std::shuffle(lines.begin(), lines.end(), std::mt19937_64(5));
    std::string ratings;
    for (const auto& line : lines) ratings += line;
    const std::vector<std::pair<std::string, std::string>> parts = {
        {"ratings", ratings}, {"items", items}, {"genres", "Action|0\nComedy|1\nDrama|2\nunknown|3\n"}, {"users", users}};
    nlohmann::json variant = {{"matches", "exact (synthetic)"}};
    for (const auto& [part, text] : parts) {
      const std::string file = "ml/u." + part;
      mpg::write_file_atomically((dir.path() / "data" / file).string(), text);
      nlohmann::json entry = {{"file", file}};
      const nlohmann::json sha256 = hash(part, mpg::sha256_hex(text));
      if (!sha256.is_null()) entry["sha256"] = sha256;
      variant[part] = entry;
    }
    const nlohmann::json registry = {
        {"syn_movielens", {{"format", "movielens"}, {"default_variant", "v1"}, {"variants", {{"v1", variant}}}}},
        {"syn_letor", {{"format", "letor"}, {"default_variant", "v1"}, {"variants", {{"v1", nlohmann::json::object()}}}}}};
    mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
  }

 private:
  ScopedEnvironment data_, registry_;
};

SyntheticMovieLens verified_data(const TempDir& dir, bool shuffle = false) {
  return SyntheticMovieLens(
      dir, [](const std::string&, const std::string& sha256) { return nlohmann::json(sha256); }, shuffle);
}

}  // namespace

TEST_CASE("The shipped relevance-diversity spec is valid, with and without --quick", "[diversity_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/parambath_tables3_diversity.json";
  CHECK(load_spec(path, false)["protocol"]["repetitions"] == 5);
  CHECK(load_spec(path, true)["protocol"]["repetitions"] == 2);
  CHECK(load_spec(path, false)["methods"].size() == 15);
}

TEST_CASE("Relevance-diversity specs: bad keys and values name the file and the key", "[diversity_harness]") {
  TempDir dir;
  const SyntheticMovieLens data = verified_data(dir);
  const auto rejects = spec_rejections(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("dataset.registry=syn_letor", "dataset");
  rejects("dataset.registry=nothing", "nothing");
  rejects("protocol.repetitions=0", "protocol.repetitions");
  rejects("protocol.ks=[0]", "protocol.ks");
  rejects("protocol.ks=[10,10]", "distinct positive integers");
  rejects("protocol.conv_ks=[5]", "protocol.conv_ks: 5 is not one of protocol.ks");
  rejects("protocol.per_user=2", "protocol.per_user");
  rejects("protocol.dcg_gain=log", "protocol.dcg_gain");
  rejects("protocol.shuffle=1", "unknown key 'shuffle'");
  rejects("eclectic.max_mean_similarity=2", "eclectic.max_mean_similarity");
  rejects("als.rank=0", "als.rank");
  rejects("methods.SDR_0.1.gamma=1.5", "methods.SDR_0.1.gamma");
  rejects("methods.SDR_conv_0.5.gamma=0", "methods.SDR_conv_0.5.gamma");
  rejects("methods.MOD.gamma=null", "methods.MOD: missing required");
  rejects("methods.MSD_0.1.sign=minus", "methods.MSD_0.1.sign");
  rejects("methods.MMR_0.1.kind=xquad", "unknown method kind 'xquad'");
  rejects("claims=[\"sdr_rules\"]", "unknown claim \"sdr_rules\"");
  rejects("tolerance=-1", "tolerance");
  rejects("published.tables.3.1+3.2.k=0", "k");
  rejects("published.significance.nemenyi.all.dcg=[0.5]", "expected 3 p-values");
}

TEST_CASE("A relevance-diversity run on synthetic MovieLens: tables, curves, cached rerun", "[diversity_harness]") {
  TempDir dir;
  const SyntheticMovieLens data = verified_data(dir);
  const std::string spec_path = write_spec(dir, tiny_spec());
  const RunOptions options = quiet_options(dir);
  const RunSummary first = run_experiment(spec_path, options);
  // 2 similarities x 2 repetitions x 6 methods; no test phase.
  CHECK(first.cells == 24);
  CHECK(first.cached_cells == 0);
  // 6 published ordering rows (one per measure), 1 claim (sdr_gamma needs columns the spec does not
  // run), 1 Friedman and 3 Nemenyi decisions, and the 18 published values (3 columns x 6 measures).
  CHECK(first.published_cells == 29);
  REQUIRE(first.result_files.size() == 5);
  const std::string table = mpg::read_file(first.result_files[0]);
  CHECK_THAT(table, Contains("MovieLens 100K, the thesis's data") &&
                        Contains("## Tables 3.1+3.2 (all users, top 10, cosine similarity)") &&
                        Contains("| `sdr_limit_degrades` |") && Contains("| `sdr_gamma` |") &&
                        Contains("## Tables 3.17–3.19") && Contains("| SDR vs MOD |") &&
                        Contains("`ml/u.ratings` sha256 `") && Contains("Weighted ALS per repetition: rep 0: 3 sweeps"));
  const auto json = nlohmann::json::parse(mpg::read_file(first.result_files[2]));
  CHECK(json["claims"].size() == 2);
  CHECK(json["claims"][0]["claim"] == "sdr_gamma");  // in the family's order of claims
  CHECK(json["claims"][0]["holds"].is_null());        // needs SDR_0.5 and SDR_0.8: not run
  CHECK(json["claims"][1]["holds"].is_boolean());
  CHECK(json["orderings"].size() == 6);
  CHECK(json["significance"]["all"]["dcg"]["treatments"] == nlohmann::json::array({"MMR_0.1", "MOD", "SDR_0.1"}));
  // Every compared value has a 95 % interval over users that holds it (issue 57); the tables
  // check that each value's per-user statistics give it back, for all six measures.
  REQUIRE(json["comparison"].size() == 18);
  for (const auto& row : json["comparison"]) {
    CAPTURE(row.dump());
    CHECK(row["interval_unit"] == "user");
    CHECK(row["interval"][0].get<double>() <= row["ours"].get<double>());
    CHECK(row["ours"].get<double>() <= row["interval"][1].get<double>());
    CHECK(row["interval"][0].get<double>() < row["interval"][1].get<double>());
  }
  const std::string curves = mpg::read_file(first.result_files[3]);
  CHECK_THAT(curves, Contains("similarity,users,method,k,dcg,genre_coverage,intra_list_distance\n") &&
                         Contains("cosine,all,SDR_0.1,20,") && Contains("cosine,eclectic,MOD,10,"));
  CHECK_THAT(mpg::read_file(first.result_files[4]), Contains("stem = ARG0") && Contains("strcol(3) eq 'SDR_0'"));
  const std::string csv = mpg::read_file(first.result_files[1]);
  CHECK_THAT(csv, Contains("3.1+3.2,cosine,all,10,SDR_0.1,dcg,") && Contains(",34.86\n"));

  const RunSummary second = run_experiment(spec_path, options);
  CHECK(second.cached_cells == 24);
  CHECK(mpg::read_file(second.result_files[1]) == csv);
  CHECK(mpg::read_file(second.result_files[3]) == curves);
}

TEST_CASE("Relevance-diversity tables: the same with 1 and 2 threads and with the rating lines permuted",
          "[diversity_harness]") {
  std::string csv, curves;
  nlohmann::json comparison;  // with the intervals
  for (const bool shuffle : {false, true})
    for (const int threads : {1, 2}) {
      TempDir dir;
      const SyntheticMovieLens data = verified_data(dir, shuffle);
      nlohmann::json spec = tiny_spec();
      spec.erase("als");
      const RunSummary run = run_experiment(write_spec(dir, spec), quiet_options(dir, threads));
      CAPTURE(shuffle, threads);
      if (csv.empty()) {
        csv = mpg::read_file(run.result_files[1]);
        curves = mpg::read_file(run.result_files[3]);
        comparison = nlohmann::json::parse(mpg::read_file(run.result_files[2]))["comparison"];
        continue;
      }
      CHECK(nlohmann::json::parse(mpg::read_file(run.result_files[2]))["comparison"] == comparison);
      CHECK(mpg::read_file(run.result_files[1]) == csv);
      CHECK(mpg::read_file(run.result_files[3]) == curves);
    }
}

TEST_CASE("A MovieLens file whose registry entry has a wrong or no sha256 is refused with its name",
          "[diversity_harness]") {
  {
    TempDir dir;
    const SyntheticMovieLens data(dir, [](const std::string& part, const std::string& sha256) {
      return nlohmann::json(part == "items" ? std::string(64, '0') : sha256);
    });
    CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), quiet_options(dir)),
                      Contains("ml/u.items") && Contains("sha256 mismatch"));
  }
  TempDir dir;
  std::string actual;
  const SyntheticMovieLens data(dir, [&](const std::string& part, const std::string& sha256) {
    if (part == "ratings") actual = sha256;
    return part == "ratings" ? nlohmann::json() : nlohmann::json(sha256);
  });
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), quiet_options(dir)),
                    Contains("ml/u.ratings") && Contains("has no sha256") && Contains(actual));
  CHECK_FALSE(fs::exists(dir.path() / "results" / "tiny_diversity.md"));
}
