// CNF binarization and its inverse (hand-made cases and a round trip on every tree of the NLTK
// sample), the grammar read off binarized trees, parse encoding, rule counts, and CYK against
// brute force over all parses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>

#include "lib/base/error.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/structures/cfg.hpp"
#include "tests/cfg_trees.hpp"
#include "tests/skip.hpp"

namespace {

using mpg::BinarizationOptions;
using mpg::PtbTree;
using mpg::testing::bracketed;

std::string cnf(const std::string& tree, BinarizationOptions options = {}) {
  return mpg::to_bracketed(mpg::to_cnf(bracketed(tree), options));
}

// The registry's copy of the NLTK sample (datasets/registry.json, ptb_nltk_sample).
std::string sample_zip() {
  const auto& archive = mpg::harness::dataset_registry()["ptb_nltk_sample"]["variants"]["nltk"]["archive"];
  return mpg::harness::data_directory() + "/" + archive["file"].get<std::string>();
}

}  // namespace

TEST_CASE("binarization: right factoring with @ nodes, collapsed unary chains", "[cfg]") {
  // Thesis Figure 6: NP -> DT JJ NN NN becomes NP -> DT @NP, @NP -> JJ @NP, @NP -> NN NN.
  CHECK(cnf("(NP (DT a) (JJ record) (NN high) (NN x))") == "(NP (DT a) (@NP (JJ record) (@NP (NN high) (NN x))))");
  CHECK(cnf("(S (NP (PRP He)) (VP (VBZ sleeps)))") == "(S (NP+PRP He) (VP+VBZ sleeps))");
  CHECK(cnf("(S (VP (VB go) (NP (NN home))))") == "(S+VP (VB go) (NP+NN home))");
  CHECK(cnf("(NP (NP (DT the) (NN man)))") == "(NP+NP (DT the) (NN man))");
  // Horizontal Markovization: the synthetic label remembers the last h siblings generated.
  CHECK(cnf("(NP (DT a) (JJ b) (NN c) (NN d))", {1, false}) == "(NP (DT a) (@NP|DT (JJ b) (@NP|JJ (NN c) (NN d))))");
  CHECK(cnf("(NP (DT a) (JJ b) (NN c) (NN d))", {-1, false}) ==
        "(NP (DT a) (@NP|DT (JJ b) (@NP|DT_JJ (NN c) (NN d))))");
  // Parent annotation: phrase nodes get ^ and the parent's first chain label; leaves do not.
  CHECK(cnf("(S (NP (DT a) (NN b)) (VP (VBZ c) (NP (NN d))))", {0, true}) ==
        "(S^TOP (NP^S (DT a) (NN b)) (VP^S (VBZ c) (NP+NN d)))");
  CHECK(cnf("(S (NP (DT a) (NN b) (NN c)) (VBZ d))", {0, true}) == "(S^TOP (NP^S (DT a) (@NP^S (NN b) (NN c))) (VBZ d))");
  CHECK_THROWS_WITH(mpg::to_cnf(bracketed("(S+X (NN a) (NN b))")), Catch::Matchers::Contains("'S+X'"));
  CHECK_THROWS_WITH(mpg::to_cnf(bracketed("(S (@NP (NN a) (NN b)))")), Catch::Matchers::Contains("'@NP'"));
}

TEST_CASE("binarization is undone exactly (hand-made trees)", "[cfg]") {
  for (const char* text : {"(NP (DT a) (JJ record) (NN high) (NN x))", "(S (NP (PRP He)) (VP (VBZ sleeps)))",
                           "(S (VP (VB go) (NP (NN home))))", "(X (Y (Z (NN a))))", "(NN a)",
                           "( (S (NP-SBJ-1 (DT a) (NN b) (, ,) (NN c) (. .)) (VP (-NONE- *T*))) )",
                           "(ADVP|PRT (RB up) (RB up) (RB up) (RB up) (RB up))"}) {
    const PtbTree tree = bracketed(text);
    for (BinarizationOptions options : {BinarizationOptions{0, false}, BinarizationOptions{1, false},
                                        BinarizationOptions{2, true}, BinarizationOptions{-1, true}}) {
      const PtbTree binary = mpg::to_cnf(tree, options);
      CHECK(mpg::from_cnf(binary) == tree);
    }
  }
}

TEST_CASE("binarization round-trips every tree of the NLTK sample", "[cfg_shared]") {
  const std::string zip = sample_zip();
  if (!std::filesystem::exists(zip)) {
    MPG_SKIP(zip << " not found (set MPG_DATA_DIR)");
  }
  std::size_t checked = 0, failed = 0;
  for (const auto& doc : mpg::read_ptb_archive(zip))
    for (const PtbTree& raw : doc.trees) {
      const PtbTree prepared = mpg::prepare_tree(raw);
      for (const PtbTree* tree : {&raw, &prepared})
        for (BinarizationOptions options : {BinarizationOptions{0, false}, BinarizationOptions{2, true}}) {
          const PtbTree binary = mpg::to_cnf(*tree, options);
          failed += !(mpg::from_cnf(binary) == *tree);
          ++checked;
        }
    }
  CHECK(checked == 4 * 3914);
  CHECK(failed == 0);
}

TEST_CASE("the grammar's rules, ids independent of tree order, encoding and rule counts", "[cfg]") {
  std::vector<PtbTree> trees = {mpg::to_cnf(bracketed("(S (NP (DT a) (NN b) (NN c)) (VP (VBZ d)))")),
                                mpg::to_cnf(bracketed("(NP (NP (DT a) (NN b)) (PP (IN e) (NP (NN c))))"))};
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(trees);
  std::vector<std::string> rules;
  for (std::size_t r = 0; r < g.rule_count(); ++r) rules.push_back(g.rule_name(r));
  CHECK(rules == std::vector<std::string>{"@NP -> NN NN", "NP -> DT @NP", "NP -> DT NN", "NP -> NP PP", "PP -> IN NP+NN",
                                          "S -> NP VP+VBZ", "DT -> DT", "IN -> IN", "NN -> NN", "NP+NN -> NN",
                                          "VP+VBZ -> VBZ", "TOP -> NP", "TOP -> S"});
  std::reverse(trees.begin(), trees.end());
  const mpg::Grammar h = mpg::Grammar::from_cnf_trees(trees);
  for (std::size_t r = 0; r < g.rule_count(); ++r) CHECK(h.rule_name(r) == rules[r]);
  // Constituents: chain labels without the POS tag; none for synthetic nodes.
  CHECK(g.constituents(g.label_id("NP+NN", true)).size() == 1);
  CHECK(g.constituents(g.label_id("NN", true)).empty());
  CHECK(g.constituents(g.label_id("@NP", false)).empty());
  CHECK(g.label_id("NP", true) == -1);

  const PtbTree& first = trees[1];  // the S tree
  const std::vector<int> tags = g.tag_ids(mpg::cnf_tags(first));
  CHECK(mpg::cnf_tags(first) == std::vector<std::string>{"DT", "NN", "NN", "VBZ"});
  const mpg::CnfParse parse = mpg::encode_parse(g, first);
  CHECK(parse.size() == 3 * 7);
  CHECK(parse[0] == 0);
  CHECK(parse[1] == 4);
  CHECK(mpg::decode_parse(g, parse, tags, mpg::words_of(first)) == first);
  CHECK(mpg::is_grammatical(g, tags, parse));
  const auto counts = mpg::rule_counts(g, tags, parse);
  std::vector<std::string> used;
  for (const auto& [rule, count] : counts)
    used.push_back(g.rule_name(static_cast<std::size_t>(rule)) + " x" + std::to_string(static_cast<int>(count)));
  CHECK(used == std::vector<std::string>{"@NP -> NN NN x1", "NP -> DT @NP x1", "S -> NP VP+VBZ x1", "DT -> DT x1",
                                         "NN -> NN x2", "VP+VBZ -> VBZ x1", "TOP -> S x1"});
  // Broken parses are not grammatical.
  mpg::CnfParse wrong = parse;
  wrong[2] = g.label_id("NP", false);  // TOP -> NP exists, but no NP -> NP VP+VBZ
  CHECK_FALSE(mpg::is_grammatical(g, tags, wrong));
  CHECK_FALSE(mpg::is_grammatical(g, tags, mpg::CnfParse(parse.begin(), parse.end() - 3)));
  CHECK_THROWS_AS(mpg::rule_counts(g, tags, wrong), mpg::Error);
  CHECK_THROWS_WITH(mpg::encode_parse(g, mpg::to_cnf(bracketed("(X (NN a) (NN b))"))),
                    Catch::Matchers::Contains("no phrase label 'X'"));
}

TEST_CASE("CYK equals brute force over all parses (n <= 5)", "[cfg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(30);
  std::size_t checked = 0;
  for (int n = 1; n <= 5; ++n)
    for (int trial = 0; trial < 6; ++trial) {
      const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
      const auto all = mpg::testing::all_parses(g, tags);
      const auto rule = mpg::testing::random_weights(g.rule_count(), rng);
      const auto span = mpg::testing::random_weights(mpg::span_count(tags.size()) * g.label_count(), rng);
      double best = -1e300;
      for (const auto& p : all) {
        CHECK(mpg::is_grammatical(g, tags, p));
        double value = mpg::rule_score(g, tags, p, rule);
        for (const auto& node : mpg::parse_nodes(p))
          value += span[mpg::span_index(node.start, node.end, tags.size()) * g.label_count() + static_cast<std::size_t>(node.label)];
        best = std::max(best, value);
      }
      const auto result = mpg::cyk_parse(g, tags, {rule, span});
      REQUIRE(result.found);
      CHECK(result.value == Approx(best).margin(1e-12));
      CHECK(std::find(all.begin(), all.end(), result.parse) != all.end());
      ++checked;
    }
  CHECK(checked == 30);
  // 23 parses of this sentence: the brute force is not trivial.
  CHECK(mpg::testing::all_parses(g, {0, 0, 1, 0, 1}).size() == 23);
  // An unknown tag has no parse; wrongly sized weights are errors.
  CHECK_FALSE(mpg::cyk_parse(g, {0, -1}, {}).found);
  const std::vector<double> short_rules(3, 0.0);
  CHECK_THROWS_AS(mpg::cyk_parse(g, {0, 1}, {short_rules, {}}), mpg::Error);
}
