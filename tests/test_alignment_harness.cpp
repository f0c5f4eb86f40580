// The alignment family (lib/harness/families/alignment.cpp): spec validation, and whole runs on a tiny
// synthetic English-French corpus registered with its sha256 in a registry of the test's own
// (MPG_REGISTRY), through every method kind: the tables with 1 and 2 threads, with the rows of
// the trial, test-part and unlabeled files permuted, and a fully cached rerun; a file whose
// registry entry has a wrong or no sha256 is refused with its name.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/harness_fixtures.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg::harness;
using mpg::testing::ScopedEnvironment;
using mpg::testing::TempDir;
using mpg::testing::threaded_options;
using mpg::testing::write_spec;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

nlohmann::json tiny_spec() {
  return nlohmann::json::parse(R"({
    "task": "alignment", "name": "tiny_alignment",
    "dataset": {"registry": "syn_hansards"},
    "split": {"train_pairs": 5},
    "aligner": {"model1_iterations": 3, "hmm_iterations": 2},
    "methods": {
      "SSVM": {"kind": "matching_ssvm", "C": [1, 0.1]},
      "MPG_bip": {"kind": "mpg_bip", "lambda": [1], "max_iterations": 20},
      "MPG_aer": {"kind": "mpg_aer", "features": "aligner", "lambda": [1], "max_iterations": 20}
    },
    "published": {
      "SSVM": {"valid": 25.51, "test": 22.13},
      "MPG_aer+GIZA": {"method": "MPG_aer", "valid": 6.97, "test": 7.28}
    },
    "claims": [{"text": "SSVM lowest", "lower": "SSVM", "than": ["MPG_bip", "MPG_aer"]}],
    "tolerance": 100
  })");
}

// A pair of the toy corpus: English and French tokens and the gold "F-E[-P]" links.
struct ToyPair {
  std::vector<std::string> english, french;
  std::string links;
};

// Toy pair k: "the <adj>? <noun> <verb> a <noun2>" and its French with the adjective after the
// noun; "a"-"un" is a possible-only link, every other word pair sure.
ToyPair toy_pair(int k) {
  const char* nouns_e[] = {"dog", "cat", "bird"};
  const char* nouns_f[] = {"chien", "chat", "oiseau"};
  const char* verbs_e[] = {"sees", "likes"};
  const char* verbs_f[] = {"voit", "aime"};
  const int n1 = k % 3, n2 = (k + 1) % 3, v = (k / 3) % 2;
  const bool adjective = k % 2 == 1;
  ToyPair p;
  p.english = {"the"};
  p.french = {"le"};
  if (adjective) p.english.push_back("big");
  p.english.push_back(nouns_e[n1]);
  p.french.push_back(nouns_f[n1]);
  if (adjective) p.french.push_back("grand");
  p.english.insert(p.english.end(), {verbs_e[v], "a", nouns_e[n2]});
  p.french.insert(p.french.end(), {verbs_f[v], "un", nouns_f[n2]});
  // French index - English index.
  std::vector<std::string> links = {"0-0"};
  if (adjective) links.insert(links.end(), {"1-2", "2-1", "3-3", "4-4-P", "5-5"});
  else links.insert(links.end(), {"1-1", "2-2", "3-3-P", "4-4"});
  p.links = fmt::format("{}", fmt::join(links, " "));
  return p;
}

// A data directory with syn/{test,trial}.{e,f,align} and syn/unlabeled.{e,f}, and a registry
// naming them as dataset "syn_hansards" (plus a libsvm dataset "syn_libsvm"). `permuted`
// reverses the trial pairs, the test pairs after the first 5 and the unlabeled pairs;
// `hash(part, sha256)` gives the registry's sha256 of a part, null for none.
class SyntheticHansards {
 public:
  template <class Hash>
  SyntheticHansards(const TempDir& dir, Hash hash, bool permuted = false)
      : data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    const fs::path folder = dir.path() / "data" / "syn";
    fs::create_directories(folder);
    std::vector<int> test = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, trial = {12, 13, 14, 15}, unlabeled;
    for (int k = 16; k < 40; ++k) unlabeled.push_back(k);
    if (permuted) {
      std::reverse(test.begin() + 5, test.end());
      std::reverse(trial.begin(), trial.end());
      std::reverse(unlabeled.begin(), unlabeled.end());
    }
    nlohmann::json variant = {{"matches", "exact (synthetic)"}};
    auto add = [&](const std::string& part, const std::string& file, const std::string& text) {
      const std::string path = (folder / file).string();
      mpg::write_file_atomically(path, text);
      nlohmann::json entry = {{"file", "syn/" + file}};
      const nlohmann::json sha256 = hash(part, mpg::sha256_hex(text));
      if (!sha256.is_null()) entry["sha256"] = sha256;
      variant[part] = entry;
    };
    auto labeled = [&](const std::string& part, const std::vector<int>& ks) {
      std::string e, f, a;
      for (int k : ks) {
        const ToyPair p = toy_pair(k);
        e += fmt::format("<s snum={:04}> {} </s>\n", k + 1, fmt::join(p.english, " "));
        f += fmt::format("<s snum={:04}> {} </s>\n", k + 1, fmt::join(p.french, " "));
        a += p.links + "\n";
      }
      add(part + "_english", part + ".e", e);
      add(part + "_french", part + ".f", f);
      add(part + "_alignment", part + ".align", a);
    };
    labeled("test", test);
    labeled("trial", trial);
    std::string e, f;
    for (int k : unlabeled) {
      const ToyPair p = toy_pair(k);
      e += fmt::format("{}\n", fmt::join(p.english, " "));
      f += fmt::format("{}\n", fmt::join(p.french, " "));
    }
    add("unlabeled_a_english", "unlabeled.e", e);
    add("unlabeled_a_french", "unlabeled.f", f);
    const nlohmann::json registry = {
        {"syn_hansards", {{"format", "naacl_alignment"}, {"default_variant", "v1"}, {"variants", {{"v1", variant}}}}},
        {"syn_libsvm", {{"format", "libsvm"}, {"default_variant", "v1"}, {"variants", {{"v1", nlohmann::json::object()}}}}}};
    mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
  }

 private:
  ScopedEnvironment data_, registry_;
};

SyntheticHansards verified_hansards(const TempDir& dir, bool permuted = false) {
  return SyntheticHansards(dir, [](const std::string&, const std::string& sha256) { return nlohmann::json(sha256); },
                           permuted);
}

// The result's numbers without times, weights' last digits and provenance: each row's AER
// counts and the claims.
nlohmann::json numbers_of(const std::string& json_file) {
  const nlohmann::json j = nlohmann::json::parse(mpg::read_file(json_file));
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : j["rows"]) {
    nlohmann::json r = {{"method", row["method"]}, {"selected", row["selected"]}};
    for (const char* set : {"valid", "test"})
      for (const char* count : {"aer", "proposed", "sure", "proposed_sure", "proposed_possible", "pairs"})
        r[set][count] = row[set][count];
    rows.push_back(r);
  }
  return {rows, j["claims"], j["split"]};
}

}  // namespace

TEST_CASE("The shipped alignment spec is valid, with and without --quick", "[alignment_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/table13_alignment.json";
  const auto full = load_spec(path, false), quick = load_spec(path, true);
  CHECK(full["methods"].size() == 14);  // six rows and the eight authors'-protocol rows
  CHECK(full["published"].size() == 6);
  CHECK(full["methods"]["SSVM"]["C"].size() > quick["methods"]["SSVM"]["C"].size());
  CHECK(quick["split"]["train_pairs"] == 100);
}

TEST_CASE("Alignment specs: bad keys and values name the file and the key", "[alignment_harness]") {
  TempDir dir;
  const SyntheticHansards data = verified_hansards(dir);
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("split.train_pairs=0", "split.train_pairs: expected a whole number >= 1");
  rejects("split.folds=2", "unknown key 'folds'");
  rejects("aligner.hmm_iterations=-1", "aligner.hmm_iterations");
  rejects("aligner.model4_iterations=3", "unknown key 'model4_iterations'");
  rejects("tolerance=-1", "tolerance");
  rejects("methods.MPG_aer.kind=crf", "unknown method kind 'crf'");
  rejects("methods.MPG_aer.lambda=[0]", "methods.MPG_aer.lambda");
  rejects("methods.MPG_aer.empty_score=2", "methods.MPG_aer.empty_score");
  rejects("methods.MPG_aer.features=giza", "methods.MPG_aer.features: expected one of base, aligner");
  rejects("methods.MPG_aer.protocol=lbfgs",
          "methods.MPG_aer.protocol: expected one of certified, authors_lbfgs, authors_adadelta, got \"lbfgs\"");
  rejects("methods.SSVM.false_positive_cost=-1", "methods.SSVM.false_positive_cost");
  rejects("published.MPG_aer+GIZA.method=MPG_aer+GIZA", "published.MPG_aer+GIZA.method: no method 'MPG_aer+GIZA'");
  rejects("published.SSVM.testa=1", "unknown key 'testa'");
  rejects("published.SSVM.valid=101", "published.SSVM.valid");
  rejects(R"(claims=[{"lower":"MPG_aer","than":["CRF"]}])", "claims[0].than: no method \"CRF\"");
  rejects(R"(claims=[{"lower":"CRF","than":["SSVM"]}])", "claims[0].lower: no method 'CRF'");
  rejects(R"(claims=[{"lower":"SSVM","than":[]}])", "claims[0].than: expected a non-empty array");
  rejects("dataset.registry=syn_libsvm", "dataset.registry: dataset 'syn_libsvm' has format 'libsvm'");
  // Valid keys, but no labeled pair left for testing.
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), [&] {
                      RunOptions o = threaded_options(dir);
                      o.overrides = {"split.train_pairs=12"};
                      return o;
                    }()),
                    Contains("syn/test.align") && Contains("leave none for testing"));
  CHECK_FALSE(fs::exists(dir.path() / "results1" / "tiny_alignment.md"));
}

TEST_CASE("An alignment run on a synthetic corpus: tables, claims, cached rerun, threads and row order",
          "[alignment_harness]") {
  TempDir dir;
  nlohmann::json first_numbers;
  std::string first_csv;
  {
    const SyntheticHansards data = verified_hansards(dir);
    const std::string spec_path = write_spec(dir, tiny_spec());
    const RunSummary first = run_experiment(spec_path, threaded_options(dir, 1));
    // (2 + 1 + 1) validation cells, then 3 test cells.
    CHECK(first.cells == 7);
    CHECK(first.cached_cells == 0);
    // The one counting rule: the +aligner rows stand in for GIZA++, counted apart.
    CHECK(first.published_cells == 2);
    CHECK(first.within_tolerance == 2);
    CHECK(first.tally.apart_cells == 2);
    CHECK(first.tally.apart_within == 2);
    REQUIRE(first.result_files.size() == 3);
    const std::string table = mpg::read_file(first.result_files[0]);
    CHECK_THAT(table, Contains("train = the first 5 labeled pairs, test = the other 7, validation = the 4 trial pairs") &&
                          Contains("from the text of 40 pairs") && Contains("## Table XIII: AER, ours (published)") &&
                          Contains("| published row | our method | set |") &&
                          Contains("| MPG_aer+GIZA | MPG_aer | valid |") && Contains("- SSVM lowest: **") &&
                          Contains("The IBM1/HMM aligner alone (Model 1 ×3 then HMM ×2") &&
                          Contains("MPG_aer test games (one per pair): 7,"));
    first_csv = mpg::read_file(first.result_files[1]);
    CHECK_THAT(first_csv, Contains("MPG_bip,test,") && Contains("SSVM,valid,25.510000,published"));
    first_numbers = numbers_of(first.result_files[2]);
    const auto rows = first_numbers[0];
    REQUIRE(rows.size() == 3);
    for (const auto& row : rows) {
      CHECK(row["test"]["pairs"] == 7);
      CHECK(row["valid"]["pairs"] == 4);
      CHECK(row["test"]["sure"].get<double>() > 0.0);
    }

    const RunSummary cached = run_experiment(spec_path, threaded_options(dir, 1));
    CHECK(cached.cached_cells == 7);
    CHECK(mpg::read_file(cached.result_files[1]) == first_csv);

    const RunSummary two = run_experiment(spec_path, threaded_options(dir, 2));
    CHECK(two.cached_cells == 0);
    CHECK(mpg::read_file(two.result_files[1]) == first_csv);
    CHECK(numbers_of(two.result_files[2]) == first_numbers);
  }
  TempDir other;
  const SyntheticHansards permuted = verified_hansards(other, true);
  const RunSummary run = run_experiment(write_spec(other, tiny_spec()), threaded_options(other, 1));
  CHECK(mpg::read_file(run.result_files[1]) == first_csv);
  CHECK(numbers_of(run.result_files[2]) == first_numbers);
}

TEST_CASE("An alignment file whose registry entry has a wrong or no sha256 is refused with its name",
          "[alignment_harness]") {
  {
    TempDir dir;
    const SyntheticHansards data(dir, [](const std::string& part, const std::string& sha256) {
      return nlohmann::json(part == "trial_alignment" ? std::string(64, '0') : sha256);
    });
    CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), threaded_options(dir)),
                      Contains("syn/trial.align") && Contains("sha256 mismatch"));
    CHECK_FALSE(fs::exists(dir.path() / "results1" / "tiny_alignment.md"));
  }
  TempDir dir;
  std::string actual;
  const SyntheticHansards data(dir, [&](const std::string& part, const std::string& sha256) {
    if (part != "unlabeled_a_french") return nlohmann::json(sha256);
    actual = sha256;
    return nlohmann::json();
  });
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), threaded_options(dir)),
                    Contains("syn/unlabeled.f") && Contains("has no sha256") && Contains(actual));
  CHECK_FALSE(fs::exists(dir.path() / "results1" / "tiny_alignment.md"));
}
