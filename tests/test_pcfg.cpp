// The Stanford-parser stand-in: maximum-likelihood rule probabilities on a hand-counted treebank,
// Viterbi parses, the Markovized preset's clean output, and the flat fallback.
#include <catch2/catch.hpp>

#include <cmath>

#include "baselines/pcfg.hpp"
#include "lib/base/error.hpp"
#include "tests/cfg_trees.hpp"

namespace {

using mpg::testing::bracketed;

double log_probability(const mpg::Pcfg& pcfg, const std::string& rule) {
  for (std::size_t r = 0; r < pcfg.grammar.rule_count(); ++r)
    if (pcfg.grammar.rule_name(r) == rule) return pcfg.log_probabilities[r];
  FAIL("no rule " << rule);
  return 0.0;
}

bool has_annotation(const mpg::PtbTree& t) {
  if (t.label.find_first_of("^@|+") != std::string::npos) return true;
  for (const auto& c : t.children)
    if (has_annotation(c)) return true;
  return false;
}

}  // namespace

TEST_CASE("PCFG rule probabilities are relative frequencies per left-hand side", "[pcfg]") {
  const std::vector<mpg::PtbTree> trees = {bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c)))"),
                                           bracketed("(S (NP (NN b)) (VP (VBZ c) (NP (DT a) (NN b))))"),
                                           bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c) (NP (NN b))))")};
  const mpg::Pcfg pcfg = mpg::train_pcfg(trees, mpg::pcfg_preset("treebank"));
  CHECK(log_probability(pcfg, "NP -> DT NN") == Approx(0.0));         // 3 of 3 phrase NPs
  CHECK(log_probability(pcfg, "S -> NP VP+VBZ") == Approx(std::log(1.0 / 3.0)));
  CHECK(log_probability(pcfg, "S -> NP VP") == Approx(std::log(1.0 / 3.0)));
  CHECK(log_probability(pcfg, "S -> NP+NN VP") == Approx(std::log(1.0 / 3.0)));
  CHECK(log_probability(pcfg, "VP -> VBZ NP") == Approx(std::log(1.0 / 2.0)));
  CHECK(log_probability(pcfg, "NP+NN -> NN") == Approx(0.0));
  CHECK(log_probability(pcfg, "TOP -> S") == Approx(0.0));
  CHECK(pcfg.fallback_label == "S");
  // Viterbi: the only parse of DT NN VBZ, probability 1/3.
  const auto parse = mpg::pcfg_parse(pcfg, {"DT", "NN", "VBZ"}, {"a", "b", "c"});
  CHECK_FALSE(parse.fallback);
  CHECK(mpg::to_bracketed(parse.tree) == "(S (NP (DT a) (NN b)) (VP (VBZ c)))");
  CHECK(parse.value == Approx(std::log(1.0 / 3.0)));
  // An unknown tag: the flat fallback tree.
  const auto flat = mpg::pcfg_parse(pcfg, {"DT", "JJ"}, {"a", "x"});
  CHECK(flat.fallback);
  CHECK(mpg::to_bracketed(flat.tree) == "(S (DT a) (JJ x))");
  CHECK_THROWS_WITH(mpg::pcfg_preset("stanford"), Catch::Matchers::Contains("unknown preset"));
  CHECK_THROWS_AS(mpg::train_pcfg({}), mpg::Error);
}

TEST_CASE("the Markovized PCFG outputs plain treebank trees", "[pcfg]") {
  std::vector<mpg::PtbTree> trees;
  for (const char* t : {"(S (NP (DT a) (JJ b) (NN c) (NN d)) (VP (VBZ e) (NP (NN f))))",
                        "(S (NP (DT a) (NN c)) (VP (VBZ e) (NP (DT a) (JJ b) (NN c))))"})
    trees.push_back(bracketed(t));
  const mpg::Pcfg pcfg = mpg::train_pcfg(trees, mpg::pcfg_preset("markovized"));
  CHECK(pcfg.binarization.parent_annotation);
  CHECK(pcfg.binarization.horizontal == 2);
  REQUIRE(pcfg.backoff.size() == 1);
  CHECK(pcfg.backoff[0].binarization.horizontal == 0);
  CHECK_FALSE(pcfg.backoff[0].binarization.parent_annotation);
  for (const auto& tree : trees) {
    const auto parse = mpg::pcfg_parse(pcfg, mpg::tags_of(tree), mpg::words_of(tree));
    CHECK_FALSE(parse.fallback);
    CHECK_FALSE(has_annotation(parse.tree));
    CHECK(parse.tree == tree);
  }
}

TEST_CASE("a sentence the annotated grammar cannot parse backs off to the '@X' PCFG", "[pcfg]") {
  // NP^S -> DT NN and NP^VP -> NN NN only: the parent-annotated grammar has no NP^S over NN NN,
  // the unannotated '@X' grammar does (NP -> NN NN).
  const std::vector<mpg::PtbTree> trees = {bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c) (NP (NN d) (NN e))))")};
  const mpg::Pcfg pcfg = mpg::train_pcfg(trees, mpg::pcfg_preset("markovized"));
  const auto parse = mpg::pcfg_parse(pcfg, {"NN", "NN", "VBZ", "DT", "NN"}, {"d", "e", "c", "a", "b"});
  CHECK(parse.fallback);
  CHECK(mpg::to_bracketed(parse.tree) == "(S (NP (NN d) (NN e)) (VP (VBZ c) (NP (DT a) (NN b))))");
  const auto direct = mpg::pcfg_parse(pcfg, {"DT", "NN", "VBZ", "NN", "NN"}, {"a", "b", "c", "d", "e"});
  CHECK_FALSE(direct.fallback);
}
