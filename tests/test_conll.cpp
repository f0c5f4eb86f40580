// CoNLL-2003 reading, Table IX statistics and token features.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/data/conll.hpp"
#include "lib/eval/sequence_measures.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using mpg::testing::TempDir;
using Catch::Matchers::Contains;

namespace {

const char* kSample =
    "-DOCSTART- -X- O O\n"
    "\n"
    "EU NNP I-NP I-ORG\n"
    "rejects VBZ I-VP O\n"
    "German JJ I-NP I-MISC\n"
    "\n"
    "Peter NNP I-NP I-PER\n"
    "Blackburn NNP I-NP I-PER\n"
    "\n"
    "-DOCSTART- -X- O O\n"
    "\n"
    "in IN I-PP O\n"
    "Paris NNP I-NP I-LOC\n"
    "Lyon NNP I-NP B-LOC\n"
    "\n";

std::string read_error(const std::string& path) {
  try {
    mpg::read_conll(path);
  } catch (const mpg::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("the CoNLL reader skips -DOCSTART- and selects sentence ranges", "[conll]") {
  const auto all = mpg::parse_conll(kSample, "sample");
  REQUIRE(all.size() == 3);
  CHECK(all[0].words == std::vector<std::string>{"EU", "rejects", "German"});
  CHECK(all[0].labels == std::vector<int>{3, 0, 4});
  CHECK(all[1].labels == std::vector<int>{1, 1});
  CHECK(all[2].tags == std::vector<std::string>{"O", "I-LOC", "B-LOC"});
  CHECK(all[2].labels == std::vector<int>{0, 2, 2});
  const auto first_two = mpg::parse_conll(kSample, "sample", 0, 2);
  REQUIRE(first_two.size() == 2);
  CHECK(first_two[1].words[0] == "Peter");
  const auto from_second = mpg::parse_conll(kSample, "sample", 1, 5);
  REQUIRE(from_second.size() == 2);
  CHECK(from_second[0].words[0] == "Peter");
  CHECK(from_second[1].words[1] == "Paris");
  // No trailing blank line: the last sentence still counts.
  CHECK(mpg::parse_conll("a DT O O\nb NN O I-PER", "x").at(0).labels == std::vector<int>{0, 1});
}

TEST_CASE("malformed CoNLL lines fail with file and line", "[conll]") {
  TempDir dir("conll");
  const std::string columns = dir.write("columns.txt", "a DT O O\nb NN O\n");
  CHECK(read_error(columns) == columns + ":2: expected 4 space-separated columns (word POS chunk NE-tag), got 3");
  const std::string tag = dir.write("tag.txt", "a DT O O\n\nb NN O I-FOO\n");
  CHECK_THAT(read_error(tag), Contains(tag + ":3: unknown named-entity tag \"I-FOO\""));
  CHECK_THAT(read_error(dir.file("missing.txt")), Contains("missing.txt"));
}

TEST_CASE("Table IX statistics of a sample", "[conll]") {
  const auto stats = mpg::conll_statistics(mpg::parse_conll(kSample, "sample"));
  CHECK(stats.sentences == 3);
  CHECK(stats.tokens == 8);
  CHECK(stats.max_length == 3);
  CHECK(stats.average_length == Approx(8.0 / 3.0));
  CHECK(stats.label_tokens == std::array<std::size_t, 5>{2, 2, 2, 1, 1});
  // Paris / Lyon are two LOC entities (B- separates them in IOB1).
  CHECK(stats.label_entities == std::array<std::size_t, 5>{0, 1, 2, 1, 1});
}

// Hand-derived from the conlleval rules: gold chunks PER(0-1) LOC(3) LOC(4) ORG(6); guessed
// PER(0-1) LOC(3-4) MISC(6); only PER is correct: precision 1/3, recall 1/4, F1 2/7.
TEST_CASE("word shapes and token features", "[conll]") {
  CHECK(mpg::word_shape("Blackburn") == "Xxx");
  CHECK(mpg::word_shape("1996-08-22") == "dd-dd-dd");
  CHECK(mpg::word_shape("EU") == "XX");
  CHECK(mpg::word_shape("McDonald's") == "XxXxx'x");
  const auto sentences = mpg::parse_conll(kSample, "sample");
  const auto f = mpg::token_feature_strings(sentences[1], 0);
  auto has = [&](const std::string& s) { return std::find(f.begin(), f.end(), s) != f.end(); };
  CHECK(has("BIAS"));
  CHECK(has("W=Peter"));
  CHECK(has("LW=peter"));
  CHECK(has("P2=Pe"));
  CHECK(has("S3=ter"));
  CHECK(has("SH=Xxx"));
  CHECK(has("PW=<S>"));
  CHECK(has("NW=blackburn"));
  CHECK(has("DR=blackburn"));
  CHECK_FALSE(has("DL=<S>"));
  mpg::FeatureDictionary dictionary;
  dictionary.build({sentences[0]});
  const auto featurized = dictionary.featurize(sentences[1]);
  REQUIRE(featurized.features.size() == 2);
  // Only features seen in training survive: the bias and the shape-context of nothing else.
  for (const auto& token : featurized.features) CHECK(std::is_sorted(token.begin(), token.end()));
  CHECK(featurized.features[0].size() >= 1);
  CHECK(featurized.labels == std::vector<int>{1, 1});
}

// The shared CoNLL-2003 files: subset rule and the per-class token counts of thesis Table IX.
TEST_CASE("the shared CoNLL-2003 subsets give Table IX's class counts", "[conll_shared]") {
  const std::string dir = mpg::harness::data_directory() + "/conll2003";
  if (!std::filesystem::exists(dir + "/eng.train.gz")) {
    MPG_SKIP(dir << " not found");
  }
  const auto train = mpg::conll_statistics(mpg::read_conll(dir + "/eng.train.gz", 0, 300));
  CHECK(train.sentences == 300);
  CHECK(train.label_tokens == std::array<std::size_t, 5>{train.label_tokens[0], 152, 246, 200, 144});
  CHECK(train.max_length + 1 == 48);
  const auto testb = mpg::conll_statistics(mpg::read_conll(dir + "/eng.testb.gz", 0, 1000));
  CHECK(testb.label_tokens[1] == 1165);
  CHECK(testb.label_tokens[2] == 514);
  CHECK(testb.label_tokens[3] == 746);
  CHECK(testb.label_tokens[4] == 280);
}

TEST_CASE("sequence-labeling specs are validated with file and key", "[conll]") {
  TempDir dir("conll_spec");
  const auto base = nlohmann::json::parse(
      R"({"task": "sequence_labeling", "name": "t", "table": "f1", "dataset": {"registry": "conll2003"},
          "subsets": {"conll.300": 300}, "classes": ["PER"], "protocol": {"validation_fraction": 0.5},
          "methods": {"CRF": {"kind": "crf", "lambda": [1]}}})");
  // The error of the base spec with `patch` merged into it (RFC 7386: null removes a key).
  auto error_of = [&](const std::string& patch) -> std::string {
    nlohmann::json spec = base;
    spec.merge_patch(nlohmann::json::parse(patch));
    const std::string path = dir.write("spec.json", spec.dump());
    try {
      mpg::harness::load_spec(path, false);
    } catch (const mpg::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error_of("{}") == "no error");
  CHECK_THAT(error_of(R"({"colour": 1})"), Contains("spec.json: unknown key 'colour'"));
  CHECK_THAT(error_of(R"({"classes": ["PERSON"]})"), Contains("classes: unknown class \"PERSON\""));
  CHECK_THAT(error_of(R"({"dataset": {"registry": "optdigits"}})"),
             Contains("dataset.registry: dataset 'optdigits' has format 'optdigits'; this family reads conll"));
  CHECK_THAT(error_of(R"({"subsets": {"conll.300": 0}})"),
             Contains("subsets.conll.300: expected a positive number of sentences"));
  CHECK_THAT(error_of(R"({"methods": {"CRF": {"kind": "svm"}}})"),
             Contains("methods.CRF.kind: unknown method kind 'svm' (known: crf, mpg)"));
  CHECK_THAT(error_of(R"({"methods": {"CRF": {"game_tolerance": 1e-6}}})"),
             Contains("methods.CRF: unknown key 'game_tolerance' (allowed: kind, lambda, max_iterations)"));
  CHECK_THAT(error_of(R"({"methods": {"CRF": {"max_iterations": 0}}})"),
             Contains("methods.CRF.max_iterations: value 0 is outside [1, "));
  CHECK_THAT(error_of(R"({"table": "statistics", "classes": null, "protocol": null})"),
             Contains("methods: not used by a \"statistics\" table"));
  CHECK_THAT(error_of(R"({"methods": null})"), Contains("missing required key 'methods' of an \"f1\" table"));
  CHECK_THAT(error_of(R"({"published": {"CRF": {"conll.300": {"testa": {"PERSON": 0.5}}}}})"),
             Contains("published.CRF.conll.300.testa: unknown key 'PERSON'"));
  CHECK_THAT(error_of(R"({"published": {"MPG": {}}})"), Contains("published.MPG: no such method in methods"));
}

TEST_CASE("a Table X cell outside tolerance names the caps its selected model hit", "[conll_shared]") {
  const std::string dir = mpg::harness::data_directory() + "/conll2003";
  if (!std::filesystem::exists(dir + "/eng.train.gz")) {
    MPG_SKIP(dir << " not found");
  }
  TempDir work("conll_causes");
  // 30 sentences and one iteration of the default (certified) trainer: it stops at its cap; 0.99 is
  // out of reach.
  const std::string spec = work.write("spec.json", R"({"task": "sequence_labeling", "name": "tiny", "table": "f1",
      "dataset": {"registry": "conll2003"}, "subsets": {"tiny": 30}, "classes": ["PER"],
      "protocol": {"validation_fraction": 0.3333333333333333}, "compare_level": "entity",
      "methods": {"MPG": {"kind": "mpg", "lambda": [1], "max_iterations": 1}}, "tolerance": 0,
      "published": {"MPG": {"tiny": {"testa": {"PER": 0.99}}}}})");
  mpg::harness::RunOptions options;
  options.results_directory = (work.path() / "results").string();
  options.progress = false;
  const auto run = mpg::harness::run_experiment(spec, options);
  REQUIRE(run.outside.size() == 1);
  CHECK_THAT(run.outside[0], Catch::StartsWith("tiny PER testa MPG: "));
  CHECK_THAT(run.outside[0],
             Contains("; training not converged (instance planes stopped: reached the pass limit (1), certified gap "));
}
