// The parsing family (lib/harness/families/parsing.cpp): spec validation, and a whole run on a tiny
// synthetic treebank archive registered with its sha256 in a registry of the test's own
// (MPG_REGISTRY), through every method kind: the same tables with 1 and 2 threads and with the
// archive's members in another order, a fully cached rerun; an archive whose registry entry has a
// wrong or no sha256 is refused with its name.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <zip.h>

#include <cstdlib>
#include <filesystem>

#include "lib/base/error.hpp"
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
    "task": "parsing", "name": "tiny_parsing",
    "dataset": {"registry": "syn_ptb"},
    "split": {"modulus": 10, "testa": [8], "testb": [9], "validation": [7], "max_length": 6},
    "methods": {
      "SSVM": {"kind": "svm_cfg", "C": [1, 100]},
      "MPG_cfg": {"kind": "mpg_cfg", "lambda": [1], "max_iterations": 30},
      "PCFG stand-in": {"kind": "pcfg"},
      "Treebank PCFG": {"kind": "pcfg", "preset": "treebank"}
    },
    "published": {
      "SSVM": {"one_minus_hamming": {"testa": 71.94, "testb": 70.91}, "evalb_f1": {"testa": 78.27, "testb": 80.81}},
      "Stanford": {"method": "PCFG stand-in",
                   "one_minus_hamming": {"testa": 79.94, "testb": 85.27}, "evalb_f1": {"testa": 83.04, "testb": 87.02}}
    },
    "claims": [{"above": "MPG_cfg", "below": "SSVM"}],
    "tolerance": 100
  })");
}

// Trees of a toy English: every document wsj_00NN.mrg (NN = 1..9) holds four short sentences
// and one of 7 words (longer than the spec's max_length 6).
std::string document(int k) {
  const char* nouns[] = {"dog", "cat", "bird"};
  const char* verbs[] = {"sees", "likes", "hears"};
  const std::string n1 = nouns[k % 3], n2 = nouns[(k + 1) % 3], v = verbs[k % 3];
  return fmt::format(
      "( (S (NP-SBJ (DT the) (NN {0})) (VP (VBZ {2}) (NP (DT a) (NN {1}))) (. .)) )\n"
      "( (S (NP-SBJ (PRP it)) (VP (VBZ {2}) (NP (-NONE- *T*-1)))) )\n"
      "( (NP (NP (DT the) (NN {0})) (PP (IN with) (NP (DT a) (NN {1})))) )\n"
      "( (S (NP-SBJ (DT the) (JJ big) (NN {1})) (VP (VBZ {2}))) )\n"
      "( (S (NP-SBJ (DT the) (NN {0})) (VP (VBZ {2}) (NP (NP (DT a) (NN {1})) (PP (IN with) (NP (DT the) (NN {0})))))) )\n",
      n1, n2, v);
}

// A data directory with the archive syn/treebank.zip (members in file order, or reversed) and a
// registry naming it as dataset "syn_ptb" (and a libsvm dataset "syn_libsvm"); `hash(sha256)`
// gives the registry's sha256, null for none.
class SyntheticTreebank {
 public:
  template <class Hash>
  SyntheticTreebank(const TempDir& dir, Hash hash, bool reversed = false)
      : data_("MPG_DATA_DIR", (dir.path() / "data").string()),
        registry_("MPG_REGISTRY", (dir.path() / "registry.json").string()) {
    const fs::path folder = dir.path() / "data" / "syn";
    fs::create_directories(folder);
    const std::string path = (folder / "treebank.zip").string();
    std::vector<std::string> texts;
    for (int k = 1; k <= 9; ++k) texts.push_back(document(k));
    int error = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    REQUIRE(archive != nullptr);
    for (int i = 0; i < 9; ++i) {
      const int k = reversed ? 9 - i : i + 1;
      const std::string& text = texts[static_cast<std::size_t>(k - 1)];
      zip_source_t* source = zip_source_buffer(archive, text.data(), text.size(), 0);
      REQUIRE(source != nullptr);
      REQUIRE(zip_file_add(archive, fmt::format("treebank/combined/wsj_000{}.mrg", k).c_str(), source, ZIP_FL_OVERWRITE) >= 0);
    }
    REQUIRE(zip_close(archive) == 0);
    nlohmann::json entry = {{"file", "syn/treebank.zip"}};
    const nlohmann::json sha256 = hash(mpg::sha256_hex(mpg::read_file(path)));
    if (!sha256.is_null()) entry["sha256"] = sha256;
    const nlohmann::json registry = {
        {"syn_ptb",
         {{"format", "ptb_zip"}, {"default_variant", "v1"},
          {"variants", {{"v1", {{"matches", "exact (synthetic)"}, {"archive", entry}}}}}}},
        {"syn_libsvm", {{"format", "libsvm"}, {"default_variant", "v1"}, {"variants", {{"v1", nlohmann::json::object()}}}}}};
    mpg::write_file_atomically((dir.path() / "registry.json").string(), registry.dump(2));
  }

 private:
  ScopedEnvironment data_, registry_;
};

SyntheticTreebank verified_treebank(const TempDir& dir, bool reversed = false) {
  return SyntheticTreebank(dir, [](const std::string& sha256) { return nlohmann::json(sha256); }, reversed);
}

// The result's numbers without its times and provenance.
nlohmann::json numbers_of(const std::string& json_file) {
  nlohmann::json j = nlohmann::json::parse(mpg::read_file(json_file));
  for (auto& row : j["rows"]) {
    row.erase("test_seconds");
    for (const char* set : {"testa", "testb"})
      if (row[set].contains("games")) {
        row[set]["games"].erase("median_seconds");
        row[set]["games"].erase("max_seconds");
      }
  }
  return {j["rows"], j["comparison"], j["claims"], j["split"], j["grammar"]};
}

}  // namespace

TEST_CASE("The shipped parsing spec is valid, with and without --quick", "[parsing_harness]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/experiments/table14_parsing.json";
  const auto full = load_spec(path, false), quick = load_spec(path, true);
  CHECK(full["methods"]["MPG_cfg"]["lambda"].size() > quick["methods"]["MPG_cfg"]["lambda"].size());
  CHECK(full["published"].size() == 3);
  CHECK(quick["split"]["validation"] == nlohmann::json::array({7}));
}

TEST_CASE("Parsing specs: bad keys and values name the file and the key", "[parsing_harness]") {
  TempDir dir;
  const SyntheticTreebank data = verified_treebank(dir);
  const auto rejects = mpg::testing::spec_rejections(dir, tiny_spec());
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false));
  rejects("colour=1", "unknown key 'colour'");
  rejects("split.validation=[8]", "split.validation: residue 8 is already in split.testa");
  rejects("split.validation=[]", "split.validation: expected at least one residue");
  rejects("split.testb=[10]", "split.testb: every residue must be a whole number in 0..9");
  rejects("split.modulus=1", "split.modulus");
  rejects("evalb={\"outer_bracket\":\"top\"}", "evalb.outer_bracket: expected 'delete' or 'keep', got 'top'");
  rejects("evalb={\"unparsable\":\"drop\"}", "evalb.unparsable: expected 'fallback' or 'skip', got 'drop'");
  rejects("evalb={\"labels\":1}", "evalb: unknown key 'labels'");
  rejects("split.max_length=0", "split.max_length");
  rejects("split.folds=2", "unknown key 'folds'");
  rejects("grammar=all", "grammar: expected 'training_documents' or 'short_sentences'");
  rejects("selection_metric=f1", "selection_metric");
  rejects("tolerance=-1", "tolerance");
  rejects("methods.MPG_cfg.kind=crf", "unknown method kind 'crf'");
  rejects("methods.MPG_cfg.lambda=[0]", "methods.MPG_cfg.lambda");
  rejects("methods.MPG_cfg.score=jaccard", "methods.MPG_cfg.score: expected one of hamming, shared");
  rejects("methods.MPG_cfg.protocol=authors",
          "methods.MPG_cfg.protocol: expected one of certified, authors_lbfgs, authors_adadelta, got \"authors\"");
  rejects("methods.MPG_cfg.authors_max_iterations=0", "methods.MPG_cfg.authors_max_iterations");
  rejects("methods.SSVM.epsilon=0", "methods.SSVM.epsilon");
  rejects("methods.PCFG stand-in.preset=lexicalized", "preset");
  rejects("published.Stanford.method=Stanford", "published.Stanford.method: no method 'Stanford'");
  rejects("published.SSVM.evalb_f1.testc=1", "unknown key 'testc'");
  rejects("published.SSVM.evalb_f1.testa=101", "published.SSVM.evalb_f1.testa");
  rejects("claims=[{\"above\":\"MPG_cfg\",\"below\":\"CRF\"}]", "claims[0].below: no method 'CRF'");
  rejects("dataset.registry=syn_libsvm", "dataset.registry: dataset 'syn_libsvm' has format 'libsvm'");
  // Valid keys, but no document falls into the validation part.
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), [&] {
                      RunOptions o = threaded_options(dir);
                      o.overrides = {"split.validation=[5]", "split.max_length=1"};
                      return o;
                    }()),
                    Contains("syn/treebank.zip") && Contains("no training sentence"));
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), [&] {
                      RunOptions o = threaded_options(dir);
                      o.overrides = {"split.validation=[0]"};
                      return o;
                    }()),
                    Contains("syn/treebank.zip") && Contains("no validation sentence"));
  // Removing a method takes its published row along.
  CHECK_NOTHROW(load_spec(write_spec(dir, tiny_spec()), false, {"methods.SSVM=null", "claims=[]"}));
}

TEST_CASE("A parsing run on a synthetic treebank: tables, claims, cached rerun, thread and member order",
          "[parsing_harness]") {
  TempDir dir;
  nlohmann::json first_numbers;
  std::string first_csv;
  {
    const SyntheticTreebank data = verified_treebank(dir);
    const std::string spec_path = write_spec(dir, tiny_spec());
    const RunSummary first = run_experiment(spec_path, threaded_options(dir, 1));
    // (2 + 1 + 1 + 1) validation cells, then 4 test cells.
    CHECK(first.cells == 9);
    CHECK(first.cached_cells == 0);
    // The one counting rule: the PCFG rows stand in for the Stanford parser, counted apart.
    CHECK(first.published_cells == 4);
    CHECK(first.within_tolerance == 4);
    CHECK(first.tally.apart_cells == 4);
    CHECK(first.tally.apart_within == 4);
    REQUIRE(first.result_files.size() == 3);
    const std::string table = mpg::read_file(first.result_files[0]);
    // Files 1-6 train, 7 validation, 8 testa, 9 testb; four short sentences each.
    CHECK_THAT(table, Contains("train 24 / validation 4 / testa 4 / testb 4 sentences") &&
                          Contains("## Table XIV: 1 − Hamming and evalb F1, ours (published)") &&
                          Contains("| published row | our method | measure | test set |") &&
                          Contains("| Stanford | PCFG stand-in | evalb F1 | testa |") &&
                          // Equal scores (the toy grammar is parsed perfectly) are not "above".
                          Contains("MPG_cfg above SSVM on both measures and both test sets: **does not hold**") &&
                          Contains("`syn/treebank.zip` sha256 `") && Contains("| MPG_cfg | lambda = 1 |") &&
                          Contains("## evalb F1 under evalb's conventions (testa / testb)") &&
                          Contains("outer bracket `delete` and unparsable sentences `fallback`"));
    first_csv = mpg::read_file(first.result_files[1]);
    CHECK_THAT(first_csv, Contains("MPG_cfg,evalb_f1,testb,") && Contains("Stanford,evalb_f1,testa,83.040000,published"));
    first_numbers = numbers_of(first.result_files[2]);
    const auto rows = first_numbers[0];
    REQUIRE(rows.size() == 4);
    for (const auto& row : rows) {
      CHECK(row["testa"]["sentences"] == 4);
      CHECK(row["testa"]["evalb_f1"].get<double>() == 1.0);  // the toy sentences are unambiguous
      for (const char* convention : {"delete/fallback", "keep/fallback", "delete/skip", "keep/skip"})
        CHECK(row["testa"]["evalb_f1_by_convention"][convention].get<double>() == 1.0);
    }

    const RunSummary cached = run_experiment(spec_path, threaded_options(dir, 1));
    CHECK(cached.cached_cells == 9);
    CHECK(mpg::read_file(cached.result_files[1]) == first_csv);

    const RunSummary two = run_experiment(spec_path, threaded_options(dir, 2));
    CHECK(two.cached_cells == 0);
    CHECK(mpg::read_file(two.result_files[1]) == first_csv);
    CHECK(numbers_of(two.result_files[2]) == first_numbers);
  }
  TempDir other;
  const SyntheticTreebank reversed = verified_treebank(other, true);
  const RunSummary permuted = run_experiment(write_spec(other, tiny_spec()), threaded_options(other, 1));
  CHECK(mpg::read_file(permuted.result_files[1]) == first_csv);
  CHECK(numbers_of(permuted.result_files[2]) == first_numbers);
}

TEST_CASE("A treebank archive whose registry entry has a wrong or no sha256 is refused with its name",
          "[parsing_harness]") {
  {
    TempDir dir;
    const SyntheticTreebank data(dir, [](const std::string&) { return nlohmann::json(std::string(64, '0')); });
    CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), threaded_options(dir)),
                      Contains("syn/treebank.zip") && Contains("sha256 mismatch"));
    CHECK_FALSE(fs::exists(dir.path() / "results1" / "tiny_parsing.md"));
  }
  TempDir dir;
  std::string actual;
  const SyntheticTreebank data(dir, [&](const std::string& sha256) {
    actual = sha256;
    return nlohmann::json();
  });
  CHECK_THROWS_WITH(run_experiment(write_spec(dir, tiny_spec()), threaded_options(dir)),
                    Contains("syn/treebank.zip") && Contains("has no sha256") && Contains(actual));
  CHECK_FALSE(fs::exists(dir.path() / "results1" / "tiny_parsing.md"));
}
