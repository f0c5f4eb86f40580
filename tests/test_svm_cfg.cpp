// svm_cfg: loss-augmented CYK against brute force, and the 1-slack cutting-plane training's
// certificate, determinism and option checks.
#include <catch2/catch.hpp>

#include <random>

#include "baselines/svm_cfg.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/cfg_hamming.hpp"
#include "tests/cfg_trees.hpp"

namespace {

std::vector<mpg::ParseExample> training_examples(const mpg::Grammar& g) {
  std::vector<mpg::ParseExample> examples;
  for (const auto& tree : mpg::testing::small_treebank())
    examples.push_back({g.tag_ids(mpg::cnf_tags(tree)), mpg::encode_parse(g, tree)});
  return examples;
}

double hamming_loss(const mpg::Grammar& g, const mpg::CnfParse& gold, const mpg::CnfParse& other) {
  return -mpg::parse_score(g, other, gold, mpg::ParseScore::hamming);
}

}  // namespace

TEST_CASE("loss-augmented CYK equals brute force", "[svm_cfg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(11);
  int checked = 0;
  for (int n = 1; n <= 5; ++n)
    for (int trial = 0; trial < 6; ++trial) {
      const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
      const auto all = mpg::testing::all_parses(g, tags);
      const mpg::ParseExample example{tags, all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)]};
      const auto w = mpg::testing::random_weights(g.rule_count(), rng, 2.0);
      double best = -1e300;
      for (const auto& y : all) best = std::max(best, hamming_loss(g, example.gold, y) + mpg::rule_score(g, tags, y, w));
      const auto worst = mpg::most_violated_parse(g, example, w);
      CHECK(worst.value == Approx(best).margin(1e-10));
      CHECK(worst.loss == hamming_loss(g, example.gold, worst.parse));
      CHECK(worst.value == Approx(worst.loss + mpg::rule_score(g, tags, worst.parse, w)).margin(1e-10));
      ++checked;
    }
  CHECK(checked == 30);
}

TEST_CASE("1-slack training converges with its duality-gap certificate and is deterministic", "[svm_cfg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  const auto examples = training_examples(g);
  mpg::SvmCfgOptions options;
  options.C = 10.0;
  options.epsilon = 0.01;
  mpg::SvmCfgSummary summary;
  const auto w = mpg::train_svm_cfg(g, examples, options, &summary);
  REQUIRE(summary.converged());
  CHECK(summary.objective - summary.dual_objective <= options.C * options.epsilon);
  CHECK(summary.dual_objective <= summary.objective);
  CHECK(summary.constraints >= 2);
  // The objective is at most that of w = 0 (C times the mean worst loss there).
  const std::vector<double> zero(g.rule_count(), 0.0);
  double mean_zero = 0.0, loss_zero = 0.0, loss_trained = 0.0;
  for (const auto& e : examples) {
    mean_zero += mpg::most_violated_parse(g, e, zero).value / static_cast<double>(examples.size());
    loss_zero += hamming_loss(g, e.gold, mpg::cyk_parse(g, e.tags, {zero, {}}).parse);
    loss_trained += hamming_loss(g, e.gold, mpg::cyk_parse(g, e.tags, {w, {}}).parse);
  }
  CHECK(summary.objective <= options.C * mean_zero + 1e-9);
  CHECK(loss_trained < loss_zero);
  CHECK(mpg::train_svm_cfg(g, examples, options) == w);
}

TEST_CASE("svm_cfg rejects impossible options", "[svm_cfg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  const auto examples = training_examples(g);
  mpg::SvmCfgOptions options;
  options.C = 0.0;
  CHECK_THROWS_WITH(mpg::train_svm_cfg(g, examples, options), Catch::Matchers::Contains("C > 0"));
  options = {};
  options.epsilon = -1.0;
  CHECK_THROWS_WITH(mpg::train_svm_cfg(g, examples, options), Catch::Matchers::Contains("epsilon > 0"));
  options = {};
  CHECK_THROWS_WITH(mpg::train_svm_cfg(g, {}, options), Catch::Matchers::Contains("no training examples"));
  auto broken = examples;
  broken[0].gold[2] = broken[1].gold[2] == 0 ? 1 : 0;
  broken[0].gold.pop_back();
  CHECK_THROWS_WITH(mpg::train_svm_cfg(g, broken, options), Catch::Matchers::Contains("not derivable"));
}
