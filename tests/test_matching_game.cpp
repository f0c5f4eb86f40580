// The bipartite-matching game MPG_bip: its score on hand cases, both best responses (maximum
// weight matchings) against brute force over all matchings, and the double-oracle value against
// the full LP on small grids.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/matching_game.hpp"
#include "tests/alignment_brute_force.hpp"

using mpg::AlignmentAction;
using mpg::link_code;

TEST_CASE("matching score is minus the weighted Hamming distance", "[matching_game]") {
  const AlignmentAction predicted = {link_code(0), link_code(4), link_code(8)};
  const AlignmentAction gold = {link_code(0), link_code(5)};
  // One shared link, one missed (5), two extra (4, 8).
  CHECK(mpg::matching_score(predicted, gold, {}) == -3.0);
  CHECK(mpg::matching_score(predicted, gold, {3.0, 1.0}) == -5.0);
  CHECK(mpg::matching_score(predicted, gold, {1.0, 0.0}) == -1.0);  // shared links minus |gold|
  CHECK(mpg::matching_score(gold, gold, {}) == 0.0);
}

TEST_CASE("matching game best responses equal brute force over all matchings", "[matching_game]") {
  std::mt19937 rng(2005);
  int checked = 0;
  const std::vector<std::pair<std::size_t, std::size_t>> grids = {{1, 1}, {1, 3}, {2, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 4}, {4, 4}};
  for (const auto& [rows, columns] : grids) {
    const auto all = mpg::testing::all_matchings(rows, columns);
    for (int trial = 0; trial < 8; ++trial) {
      const mpg::MatchingGameOptions costs{trial % 2 == 0 ? 1.0 : 3.0, trial % 4 < 2 ? 1.0 : 0.5};
      const mpg::MatchingGame game(rows, columns, mpg::testing::uniform_values(rows * columns, -1.5, 1.5, rng), costs);
      const auto predictor = mpg::testing::random_strategy(all, 1 + trial % 4, rng);
      const auto adversary = mpg::testing::random_strategy(all, 1 + (trial * 3) % 5, rng);
      const auto row = game.predictor_best_response(adversary);
      const auto column = game.adversary_best_response(predictor);
      REQUIRE(game.is_legal_predictor_action(row.action));
      REQUIRE(game.is_legal_adversary_action(column.action));
      const double best_row = mpg::testing::best_row_value(game, all, adversary);
      const double best_column = mpg::testing::best_column_value(game, all, predictor);
      CHECK(row.value == Approx(best_row).margin(1e-12));
      CHECK(mpg::testing::predictor_value_of(game, row.action, adversary) == Approx(best_row).margin(1e-12));
      CHECK(column.value == Approx(best_column).margin(1e-12));
      CHECK(mpg::testing::adversary_value_of(game, column.action, predictor) == Approx(best_column).margin(1e-12));
      ++checked;
    }
  }
  CHECK(checked == 64);
}

TEST_CASE("the matching game's double oracle equals the full LP", "[matching_game]") {
  std::mt19937 rng(3);
  const std::vector<std::pair<std::size_t, std::size_t>> grids = {{1, 2}, {2, 2}, {2, 3}, {3, 3}};
  for (const auto& [rows, columns] : grids) {
    const auto all = mpg::testing::all_matchings(rows, columns);
    for (int trial = 0; trial < 4; ++trial) {
      const mpg::MatchingGame game(rows, columns, mpg::testing::uniform_values(rows * columns, -1.0, 1.0, rng));
      const double full =
          mpg::solve_matrix_game(mpg::testing::payoff_matrix(game, all, all), mpg::default_lp_backend()).value;
      const auto solution = mpg::solve_double_oracle(game, mpg::DoubleOracleOptions{});
      REQUIRE(solution.summary.converged());
      CHECK(solution.summary.value == Approx(full).margin(1e-7));
    }
  }
}

TEST_CASE("matching game legality and bad input", "[matching_game]") {
  const mpg::MatchingGame game(2, 3, std::vector<double>(6, 0.0));
  CHECK(game.is_matching({link_code(0), link_code(4)}));   // (0,0), (1,1)
  CHECK_FALSE(game.is_matching({link_code(0), link_code(3)}));  // French word 0 twice
  CHECK_FALSE(game.is_matching({link_code(0), link_code(1)}));  // English word 0 twice
  CHECK_FALSE(game.is_matching({link_code(6)}));
  CHECK_FALSE(game.is_matching({link_code(1, true)}));
  CHECK_THROWS_AS(mpg::MatchingGame(2, 3, std::vector<double>(5, 0.0)), mpg::Error);
  CHECK_THROWS_AS(mpg::MatchingGame(0, 3, {}), mpg::Error);
  CHECK_THROWS_AS(mpg::MatchingGame(1, 1, {0.0}, {0.0, 0.0}), mpg::Error);
  CHECK_THROWS_AS(mpg::MatchingGame(1, 1, {0.0}, {-1.0, 1.0}), mpg::Error);
}
