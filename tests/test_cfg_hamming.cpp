// MPG_cfg (thesis Algorithm 6): the constituent score against the tree measures, both best
// responses against brute force over all parses (n <= 5), the double oracle against the full
// matrix LP, and the Table XIV measures (1 - Hamming, evalb F1 with COLLINS.prm's conventions)
// on hand-computed cases.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/cfg_hamming.hpp"
#include "tests/cfg_trees.hpp"

namespace {

using mpg::CnfParse;
using mpg::ParseScore;
using mpg::testing::bracketed;

mpg::EvalbCounts evalb(const char* gold, const char* test) { return mpg::evalb_counts(bracketed(gold), bracketed(test)); }

}  // namespace

TEST_CASE("the game score is minus the Hamming distance of the unbinarized trees", "[cfg_hamming]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(5);
  int checked = 0;
  for (int n = 1; n <= 5; ++n) {
    const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
    const auto all = mpg::testing::all_parses(g, tags);
    for (int trial = 0; trial < 20; ++trial) {
      const auto& a = all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)];
      const auto& b = all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)];
      const auto counts = mpg::hamming_counts(mpg::from_cnf(mpg::decode_parse(g, a, tags)),
                                              mpg::from_cnf(mpg::decode_parse(g, b, tags)));
      CHECK(mpg::parse_score(g, a, b, ParseScore::hamming) == -counts.distance());
      CHECK(mpg::parse_score(g, a, b, ParseScore::shared) == counts.shared);
      CHECK(mpg::parse_score(g, a, a, ParseScore::hamming) == 0.0);
      ++checked;
    }
  }
  CHECK(checked == 100);
}

TEST_CASE("both best responses equal brute force over all binary trees (n <= 5)", "[cfg_hamming]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(2017);
  int checked = 0;
  for (ParseScore score : {ParseScore::hamming, ParseScore::shared})
    for (int n = 1; n <= 5; ++n)
      for (int trial = 0; trial < 8; ++trial) {
        const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
        const auto all = mpg::testing::all_parses(g, tags);
        const auto theta = mpg::testing::random_weights(g.rule_count(), rng);
        const mpg::CfgHammingGame game(g, tags, theta, score);
        const auto q = mpg::testing::random_parse_strategy(all, rng);
        const auto p = mpg::testing::random_parse_strategy(all, rng);
        double best_row = -1e300, best_column = 1e300;
        for (const auto& y : all) {
          best_row = std::max(best_row, mpg::testing::predictor_value_of<CnfParse>(game, y, q));
          best_column = std::min(best_column, mpg::testing::adversary_value_of<CnfParse>(game, y, p));
        }
        const auto row = game.predictor_best_response(q);
        const auto column = game.adversary_best_response(p);
        CHECK(row.value == Approx(best_row).margin(1e-10));
        CHECK(mpg::testing::predictor_value_of<CnfParse>(game, row.action, q) == Approx(best_row).margin(1e-10));
        CHECK(column.value == Approx(best_column).margin(1e-10));
        CHECK(mpg::testing::adversary_value_of<CnfParse>(game, column.action, p) == Approx(best_column).margin(1e-10));
        CHECK(game.is_legal_adversary_action(column.action));
        CHECK(game.is_legal_predictor_action(row.action));
        ++checked;
      }
  CHECK(checked == 80);
}

TEST_CASE("the CFG predictor's best response ignores the potentials", "[cfg_hamming]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(9);
  const std::vector<int> tags = {0, 1, 0, 0};
  const auto q = mpg::testing::random_parse_strategy(mpg::testing::all_parses(g, tags), rng);
  const auto theta_a = mpg::testing::random_weights(g.rule_count(), rng);
  const auto theta_b = mpg::testing::random_weights(g.rule_count(), rng);
  const mpg::CfgHammingGame a(g, tags, theta_a), b(g, tags, theta_b);
  CHECK(a.predictor_best_response(q).action == b.predictor_best_response(q).action);
  const std::vector<double> wrong(g.rule_count() + 1, 0.0);
  CHECK_THROWS_AS(mpg::CfgHammingGame(g, tags, wrong), mpg::Error);
  CHECK_THROWS_WITH(mpg::CfgHammingGame(g, {0, -1}, theta_a), Catch::Matchers::Contains("no parse"));
}

TEST_CASE("the double-oracle value equals the full matrix LP on tiny grammars", "[cfg_hamming]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(4);
  int games = 0;
  for (ParseScore score : {ParseScore::hamming, ParseScore::shared})
    for (int n = 2; n <= 3; ++n)
      for (int trial = 0; trial < 3; ++trial) {
        const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
        const auto all = mpg::testing::all_parses(g, tags);
        const auto theta = mpg::testing::random_weights(g.rule_count(), rng, 0.5);
        const mpg::CfgHammingGame game(g, tags, theta, score);
        const auto size = static_cast<Eigen::Index>(all.size());
        Eigen::MatrixXd payoff(size, size);
        for (Eigen::Index i = 0; i < size; ++i)
          for (Eigen::Index j = 0; j < size; ++j)
            payoff(i, j) = game.payoff(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
        const double full = mpg::solve_matrix_game(payoff, mpg::default_lp_backend()).value;
        const auto solution = mpg::solve_double_oracle(game, {});
        REQUIRE(solution.summary.converged());
        CHECK(solution.summary.gap <= 1e-9);
        CHECK(solution.summary.value == Approx(full).margin(1e-7));
        ++games;
      }
  CHECK(games == 12);
}

TEST_CASE("1 - Hamming on a hand-computed pair", "[cfg_hamming]") {
  // Predicted S[0,4] NP[0,2] VP[2,4] NP[3,4]; gold S NP VP ADJP[3,4]: 3 shared of 4 + 4, union 5:
  // 1 - Hamming = |∩| / |∪| = 3/5 (thesis §4.2.6); the Dice diagnostic 2·3 / 8.
  const auto counts = mpg::hamming_counts(bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c) (NP (NN d))))"),
                                          bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c) (ADJP (NN d))))"));
  CHECK(counts.shared == 3.0);
  CHECK(counts.distance() == 2.0);
  CHECK(counts.one_minus_hamming() == Approx(0.6));
  CHECK(counts.dice() == 0.75);
  // Punctuation counts in the Hamming measure: VP[2,3] against VP[2,4].
  const auto punct = mpg::hamming_counts(bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c) (. .)))"),
                                         bracketed("(S (NP (DT a) (NN b)) (VP (VBZ c)) (. .))"));
  // S[0,4], NP[0,2] shared; VP[2,4] vs VP[2,3]: union 4.
  CHECK(punct.one_minus_hamming() == Approx(0.5));
  CHECK(punct.dice() == Approx(2.0 / 3.0));
  CHECK(mpg::HammingCounts{}.one_minus_hamming() == 1.0);
  CHECK(mpg::HammingCounts{}.dice() == 1.0);
  // A unary chain counts each label: S+VP over [0,2] against S[0,2] shares S of {S, VP} and {S}.
  const auto chain = mpg::hamming_counts(bracketed("(S (VP (VB a) (NN b)))"), bracketed("(S (VB a) (NN b))"));
  CHECK(chain.shared == 1.0);
  CHECK(chain.predicted == 2.0);
  CHECK(chain.gold == 1.0);
  CHECK(chain.one_minus_hamming() == Approx(0.5));
  CHECK_THROWS_AS(mpg::hamming_counts(bracketed("(S (NN a) (NN b))"), bracketed("(S (NN a))")), mpg::Error);
}

TEST_CASE("evalb F1 follows COLLINS.prm: punctuation, root, unary, duplicates, ADVP = PRT", "[cfg_hamming]") {
  // Punctuation is deleted before spans are computed: VP[2,3] = VP[2,4] minus the period.
  const auto punct = evalb("(S (NP (DT a) (NN b)) (VP (VBZ c)) (. .))", "(S (NP (DT a) (NN b)) (VP (VBZ c) (. .)))");
  CHECK(punct.matched == 3.0);
  CHECK(punct.f1() == 1.0);
  // A phrase of punctuation only dominates nothing and disappears.
  CHECK(evalb("(S (NP (NN a)) (VP (VBZ b)) (PRN (, ,) (: :)))", "(S (NP (NN a)) (VP (VBZ b) (, ,) (: :)))").f1() == 1.0);
  // The root phrase is a bracket; TOP (and the PTB's unlabeled outer bracket) is not.
  const auto root = evalb("(S (NP (NN a)) (VP (VBZ b)))", "(SINV (NP (NN a)) (VP (VBZ b)))");
  CHECK(root.gold == 3.0);
  CHECK(root.matched == 2.0);
  CHECK(root.f1() == Approx(2.0 / 3.0));
  CHECK(evalb("(TOP (S (NP (NN a)) (VP (VBZ b))))", "( (S (NP (NN a)) (VP (VBZ b))))").f1() == 1.0);
  // Unary chains: both labels of S -> VP over one span are brackets.
  const auto unary = evalb("(S (VP (VB go) (NP (NN home))))", "(VP (VB go) (NP (NN home)))");
  CHECK(unary.gold == 3.0);
  CHECK(unary.test == 2.0);
  CHECK(unary.precision() == 1.0);
  CHECK(unary.recall() == Approx(2.0 / 3.0));
  CHECK(unary.f1() == Approx(0.8));
  // Repeated brackets match as multisets (evalb README: n gold, m test -> min(n, m) matched).
  const auto twice = evalb("(NP (NP (DT the) (NN man)))", "(NP (DT the) (NN man))");
  CHECK(twice.matched == 1.0);
  CHECK(twice.recall() == 0.5);
  CHECK(twice.precision() == 1.0);
  // EQ_LABEL ADVP PRT, function tags stripped, traces removed.
  CHECK(evalb("(VP (VB give) (PRT (RP up)))", "(VP (VB give) (ADVP (RP up)))").f1() == 1.0);
  CHECK(evalb("(S (NP-SBJ (NN a)) (VP (VBZ b) (NP (-NONE- *T*))))", "(S (NP (NN a)) (VP (VBZ b)))").f1() == 1.0);
  // Preterminals are not brackets; corpus counts add up (micro average).
  mpg::EvalbCounts total = root;
  total.add(unary);
  CHECK(total.sentences == 2);
  CHECK(total.f1() == Approx(2.0 * 4.0 / (6.0 + 5.0)));
  CHECK_THROWS_WITH(evalb("(S (NN a) (NN b))", "(S (NN a) (. .) (NN b) (NN c))"), Catch::Matchers::Contains("length mismatch"));
}

TEST_CASE("evalb's unlabeled outer bracket: deleted, or kept as one more bracket labelled \"\"", "[cfg_hamming]") {
  const mpg::EvalbOptions keep{mpg::OuterBracket::kept};
  // Gold S over (a b) with NP, VP; test SINV: 2 of 3 brackets match when the wrapper is deleted.
  const mpg::PtbTree gold = bracketed("( (S (NP (NN a)) (VP (VBZ b)) (. .)) )");
  const mpg::PtbTree test = bracketed("(SINV (NP (NN a)) (VP (VBZ b)) (. .))");
  const auto deleted = mpg::evalb_counts(gold, test);
  CHECK(deleted.gold == 3.0);
  CHECK(deleted.test == 3.0);
  CHECK(deleted.matched == 2.0);
  // Kept: the wrapper (added to the test tree, which has none) spans the 2 words left after
  // deleting the period, and matches: 3 of 4.
  const auto kept = mpg::evalb_counts(gold, test, keep);
  CHECK(kept.gold == 4.0);
  CHECK(kept.test == 4.0);
  CHECK(kept.matched == 3.0);
  CHECK(kept.f1() == 0.75);
  // A sentence of punctuation only: the wrapper dominates no word and is not a bracket.
  CHECK(mpg::evalb_counts(bracketed("( (S (. .)) )"), bracketed("(S (. .))"), keep).gold == 0.0);
  // TOP stays deleted under either rule.
  CHECK(mpg::evalb_counts(bracketed("(TOP (NP (NN a)))"), bracketed("(NP (NN a))"), keep).gold == 2.0);
  CHECK(mpg::parse_outer_bracket("keep") == mpg::OuterBracket::kept);
  CHECK(mpg::to_string(mpg::OuterBracket::deleted) == "delete");
  CHECK_THROWS_AS(mpg::parse_outer_bracket("top"), mpg::Error);
}

TEST_CASE("evalb keeps a label with '|' whole: ADVP|PRT matches neither ADVP nor PRT", "[cfg_hamming]") {
  const auto m = evalb("(VP (VB give) (ADVP|PRT (RP up)))", "(VP (VB give) (ADVP (RP up)))");
  CHECK(m.gold == 2.0);
  CHECK(m.matched == 1.0);
  CHECK(evalb("(VP (VB give) (ADVP|PRT-CLR (RP up)))", "(VP (VB give) (ADVP|PRT (RP up)))").f1() == 1.0);
}
