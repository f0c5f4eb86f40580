// AER (Och & Ney with sure/possible links) on hand-computed examples, and the AER game (thesis
// Algorithm 5 adversary, the F'-based predictor) against brute force over all 2^n link sets and
// all 3^n taggings, with both 0/0 conventions; its double-oracle value against the full LP.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/aer.hpp"
#include "tests/alignment_brute_force.hpp"

namespace {

using mpg::AlignmentAction;
using mpg::link_code;

// Position of (english, french) on a grid with `french_length` French words, as a code.
std::uint32_t at(std::uint32_t english, std::uint32_t french, std::uint32_t french_length, bool possible = false) {
  return link_code(english * french_length + french, possible);
}

// Thesis Figure 4 / Table VII (5 English x 8 French words, 1-based in the thesis).
AlignmentAction figure4_gold() {
  AlignmentAction gold = {at(0, 0, 8), at(1, 1, 8), at(2, 2, 8), at(3, 4, 8), at(4, 6, 8),
                          at(3, 3, 8, true), at(4, 5, 8, true), at(4, 7, 8, true)};
  std::sort(gold.begin(), gold.end());
  return gold;
}

AlignmentAction figure4_proposal() {
  AlignmentAction a = {at(0, 0, 8), at(1, 1, 8), at(2, 3, 8), at(3, 3, 8),
                       at(3, 4, 8), at(3, 6, 8), at(4, 3, 8), at(4, 7, 8)};
  std::sort(a.begin(), a.end());
  return a;
}

}  // namespace

TEST_CASE("AER of the thesis example is 5/13", "[aer]") {
  const mpg::AerCounts counts = mpg::aer_counts(figure4_proposal(), figure4_gold());
  CHECK(counts.proposed == 8);
  CHECK(counts.sure == 5);
  CHECK(counts.proposed_sure == 3);      // e1f1, e2f2, e4f5
  CHECK(counts.proposed_possible == 5);  // and e4f4, e5f8
  CHECK(mpg::aer_of_counts(counts) == Approx(5.0 / 13.0).epsilon(1e-15));
  CHECK(mpg::aer_score(figure4_proposal(), figure4_gold(), 0.0) == Approx(8.0 / 13.0).epsilon(1e-15));
}

TEST_CASE("corpus AER sums the counts before dividing", "[aer]") {
  mpg::AerCounts total = mpg::aer_counts(figure4_proposal(), figure4_gold());
  // A second pair: one sure link, nothing proposed (AER 1 alone).
  total.add(mpg::aer_counts({}, {link_code(0)}));
  CHECK(mpg::aer_of_counts(total) == Approx(1.0 - 8.0 / 14.0).epsilon(1e-15));
  // A third: two proposed links, one on a possible-only link (counts once), one wrong.
  total.add(mpg::aer_counts({link_code(0), link_code(1)}, {link_code(0, true)}));
  CHECK(mpg::aer_of_counts(total) == Approx(1.0 - 9.0 / 16.0).epsilon(1e-15));
}

TEST_CASE("AER edge cases: 0/0, no possible links = F1 on S, all-possible gold", "[aer]") {
  CHECK(mpg::aer_score({}, {}, 0.0) == 0.0);
  CHECK(mpg::aer_score({}, {}, 1.0) == 1.0);
  CHECK(mpg::aer_score({}, {link_code(3, true)}, 1.0) == 1.0);  // only possible gold: still 0/0
  CHECK(mpg::aer_of_counts(mpg::AerCounts{}, 0.25) == 0.25);
  CHECK(mpg::aer_score({link_code(2)}, {}, 1.0) == 0.0);  // alpha = 1, k = 0
  // P = S: 1 - AER = 2|A ∩ S| / (|A| + |S|) = F1.
  CHECK(mpg::aer_score({link_code(0), link_code(1)}, {link_code(1), link_code(2)}, 0.0) == Approx(0.5));
  // Proposing exactly the possible-only links: |A ∩ P| / |A| = 1.
  CHECK(mpg::aer_score({link_code(4), link_code(5)}, {link_code(4, true), link_code(5, true)}, 0.0) == 1.0);
}

TEST_CASE("both AER best responses equal brute force for n <= 6, c = 0 and c = 1", "[aer]") {
  std::mt19937 rng(2003);
  int checked = 0;
  for (double c : {0.0, 1.0}) {
    for (std::size_t n = 1; n <= 6; ++n) {
      const auto rows = mpg::testing::all_link_sets(n);
      const auto columns = mpg::testing::all_taggings(n);
      for (int trial = 0; trial < 10; ++trial) {
        // Potentials on both sides of 0, some large enough to make the adversary tag everything.
        const double scale = trial % 3 == 0 ? 2.0 : 0.6;
        const mpg::AerGame game(mpg::testing::uniform_values(n, -scale, scale, rng),
                                mpg::testing::uniform_values(n, -scale, scale, rng), mpg::AerGameOptions{c});
        const auto predictor = mpg::testing::random_strategy(rows, 1 + trial % 5, rng);
        const auto adversary = mpg::testing::random_strategy(columns, 1 + (trial * 3) % 7, rng);
        const double best_row = mpg::testing::best_row_value(game, rows, adversary);
        const double best_column = mpg::testing::best_column_value(game, columns, predictor);
        const auto row = game.predictor_best_response(adversary);
        const auto column = game.adversary_best_response(predictor);
        REQUIRE(game.is_legal_predictor_action(row.action));
        REQUIRE(game.is_legal_adversary_action(column.action));
        CHECK(row.value == Approx(best_row).margin(1e-12));
        CHECK(mpg::testing::predictor_value_of(game, row.action, adversary) == Approx(best_row).margin(1e-12));
        CHECK(column.value == Approx(best_column).margin(1e-12));
        CHECK(mpg::testing::adversary_value_of(game, column.action, predictor) ==
              Approx(best_column).margin(1e-12));
        ++checked;
      }
    }
  }
  CHECK(checked == 120);
}

TEST_CASE("AER per-size responses are the best actions of their size", "[aer]") {
  std::mt19937 rng(31);
  auto sures = [](const AlignmentAction& y) {
    return std::count_if(y.begin(), y.end(), [](std::uint32_t code) { return !mpg::link_is_possible_only(code); });
  };
  int extras = 0;
  for (std::size_t n = 2; n <= 5; ++n) {
    const auto rows = mpg::testing::all_link_sets(n);
    const auto columns = mpg::testing::all_taggings(n);
    for (int trial = 0; trial < 6; ++trial) {
      const mpg::AerGame game(mpg::testing::uniform_values(n, -1.0, 1.0, rng),
                              mpg::testing::uniform_values(n, -1.0, 1.0, rng), mpg::AerGameOptions{trial % 2 * 1.0});
      const auto predictor = mpg::testing::random_strategy(rows, 4, rng);
      const auto adversary = mpg::testing::random_strategy(columns, 4, rng);
      const auto row_responses = game.predictor_responses(adversary, predictor);
      CHECK(row_responses.front().value == Approx(game.predictor_best_response(adversary).value).margin(1e-15));
      for (const auto& r : row_responses) {
        double best = -1e300;
        for (const auto& a : rows)
          if (a.size() == r.action.size()) best = std::max(best, mpg::testing::predictor_value_of(game, a, adversary));
        CHECK(r.value == Approx(best).margin(1e-12));
        CHECK(mpg::testing::predictor_value_of(game, r.action, adversary) == Approx(best).margin(1e-12));
      }
      const auto column_responses = game.adversary_responses(predictor, adversary);
      for (const auto& r : column_responses) {
        double best = 1e300;
        for (const auto& y : columns)
          if (sures(y) == sures(r.action)) best = std::min(best, mpg::testing::adversary_value_of(game, y, predictor));
        CHECK(r.value == Approx(best).margin(1e-12));
        CHECK(mpg::testing::adversary_value_of(game, r.action, predictor) == Approx(best).margin(1e-12));
      }
      extras += static_cast<int>(row_responses.size() + column_responses.size()) - 2;
    }
  }
  CHECK(extras > 20);  // the own strategies use several sizes
}

TEST_CASE("AER best responses against the empty strategies and pure strategies", "[aer]") {
  // Against the empty prediction the adversary's k = 0 option scores c: with c = 1 and
  // potentials below zero it pays 1 by tagging nothing, unless tagging S somewhere (score 0)
  // earns more potential than 1.
  const mpg::AerGame game({-0.5, 0.3}, {-0.2, -0.1}, mpg::AerGameOptions{1.0});
  mpg::MixedStrategy<AlignmentAction> empty{{{}}, {1.0}};
  const auto column = game.adversary_best_response(empty);
  // Options: N N -> 1; S at 1 -> 0 - 0.3 = -0.3 (k = 1, nothing proposed); S at 0 and 1 -> 0.2.
  CHECK(column.value == Approx(-0.3));
  CHECK(column.action == AlignmentAction{link_code(1)});
  // The predictor facing a pure adversary that tags 0 sure and 1 possible: proposing both scores
  // (2 + 1) / (2 + 1) = 1, proposing 0 alone 2 / (1 + 1) = 1 as well, 1 alone 1 / 2.
  mpg::MixedStrategy<AlignmentAction> pure{{{link_code(0), link_code(1, true)}}, {1.0}};
  const auto row = game.predictor_best_response(pure);
  CHECK(row.value == Approx(1.0 - (-0.5 - 0.1)));
  CHECK(row.action.front() == link_code(0));
  // Against 0 sure alone, {0} scores 1 and {0, 1} 2/3.
  mpg::MixedStrategy<AlignmentAction> sure_only{{{link_code(0)}}, {1.0}};
  const auto only = game.predictor_best_response(sure_only);
  CHECK(only.value == Approx(1.0 + 0.5));
  CHECK(only.action == AlignmentAction{link_code(0)});
}

TEST_CASE("the AER double oracle equals the full LP for n <= 4", "[aer]") {
  std::mt19937 rng(17);
  for (double c : {0.0, 1.0}) {
    for (std::size_t n = 1; n <= 4; ++n) {
      const auto rows = mpg::testing::all_link_sets(n);
      const auto columns = mpg::testing::all_taggings(n);
      for (int trial = 0; trial < 4; ++trial) {
        const mpg::AerGame game(mpg::testing::uniform_values(n, -1.0, 1.0, rng),
                                mpg::testing::uniform_values(n, -1.0, 1.0, rng), mpg::AerGameOptions{c});
        const double full =
            mpg::solve_matrix_game(mpg::testing::payoff_matrix(game, rows, columns), mpg::default_lp_backend()).value;
        mpg::DoubleOracleOptions options;
        options.tolerance = 1e-9;
        const auto solution = mpg::solve_double_oracle(game, options);
        REQUIRE(solution.summary.converged());
        CHECK(solution.summary.gap <= 1e-9);
        // The certified bracket holds the full game's value (summary.value is the last restricted
        // game's LP value, which differs when pruning has dropped an action of the equilibrium).
        CHECK(solution.summary.adversary_response_value <= full + 1e-9);
        CHECK(solution.summary.predictor_response_value >= full - 1e-9);
      }
    }
  }
}

TEST_CASE("the AER game rejects bad potentials", "[aer]") {
  CHECK_THROWS_AS(mpg::AerGame({}, {}), mpg::Error);
  CHECK_THROWS_AS(mpg::AerGame({0.0, 1.0}, {0.0}), mpg::Error);
  CHECK_THROWS_AS(mpg::AerGame({std::nan("")}, {0.0}), mpg::Error);
  const mpg::AerGame game({0.0, 0.0}, {0.0, 0.0});
  CHECK(game.is_legal_adversary_action({link_code(0), link_code(1, true)}));
  CHECK_FALSE(game.is_legal_predictor_action({link_code(1, true)}));
  CHECK_FALSE(game.is_legal_adversary_action({link_code(0), link_code(0, true)}));
  CHECK_FALSE(game.is_legal_adversary_action({link_code(2)}));
}

TEST_CASE("AER responses on a plateau of equal values take the smallest size", "[aer]") {
  // Against a pure adversary tagging S sure and R possible, proposing S plus any r of R scores
  // (2|S| + r) / (|S| + r + |S|) = 1: every size from |S| to |S| + |R| ties in exact arithmetic,
  // while the sums of 2 / (alpha + |S|) and 1 / (alpha + |S|) that compute them round apart by
  // ~1e-16. The rule "ties go to the smaller size" must pick |S| whatever the rounding.
  int checked = 0;
  for (std::size_t sure = 1; sure <= 7; ++sure)
    for (std::size_t possible = 1; possible <= 25; ++possible) {
      const std::size_t n = sure + possible + 3;
      const mpg::AerGame game(std::vector<double>(n, 0.0), std::vector<double>(n, 0.0), mpg::AerGameOptions{0.0});
      AlignmentAction tagging;
      for (std::uint32_t i = 0; i < sure + possible; ++i) tagging.push_back(link_code(i, i >= sure));
      const mpg::MixedStrategy<AlignmentAction> pure{{tagging}, {1.0}};
      const auto row = game.predictor_best_response(pure);
      CHECK(row.value == Approx(1.0).margin(1e-12));
      CHECK(row.action.size() == sure);
      ++checked;
    }
  CHECK(checked == 175);
}
