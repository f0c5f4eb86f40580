// The linear-chain F1 game with every potential 0 (theta = 0), solved by action sizes
// (solve_zero_potential_chain_game): its value against the full m^T x m^T matrix LP, its
// strategies' guarantees against the exact best responses, and two values by hand.
#include <catch2/catch.hpp>

#include <numeric>
#include <random>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/linear_chain_f1.hpp"
#include "tests/chains.hpp"

namespace {

using mpg::LabelSequence;

mpg::ChainScores zero_chain(int m, std::size_t T) {
  mpg::ChainScores s;
  s.unary = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(T), m);
  s.transition = Eigen::MatrixXd::Zero(m + 1, m);
  return s;
}

double total(const mpg::MixedStrategy<LabelSequence>& strategy) {
  return std::accumulate(strategy.probabilities.begin(), strategy.probabilities.end(), 0.0);
}

}  // namespace

TEST_CASE("zero-potential chain games: values by hand", "[zero_potential_chain_game]") {
  // T = 1: matching pennies on {O, C}: 1/2. T = 2: sizes {0, 2} against {0, 1}, 2/5 (the
  // predictor plays size 0 w.p. 2/5 and CC w.p. 3/5; the adversary OO w.p. 2/5, CO and OC w.p. 3/10).
  const mpg::LinearChainF1Game one(zero_chain(2, 1), 1);
  CHECK(mpg::solve_zero_potential_chain_game(one, 1e-12).summary.value == Approx(0.5).margin(1e-12));
  const mpg::LinearChainF1Game two(zero_chain(2, 2), 1);
  const auto solution = mpg::solve_zero_potential_chain_game(two, 1e-12);
  CHECK(solution.summary.converged());
  CHECK(solution.summary.value == Approx(0.4).margin(1e-12));
  REQUIRE(solution.adversary.size() == 3);
  CHECK(solution.adversary.actions[0] == LabelSequence{0, 0});
  CHECK(solution.adversary.probabilities[0] == Approx(0.4).margin(1e-12));
  CHECK(solution.adversary.actions[1] == LabelSequence{1, 0});
  CHECK(solution.adversary.actions[2] == LabelSequence{0, 1});
  CHECK(solution.adversary.probabilities[2] == Approx(0.3).margin(1e-12));
  REQUIRE(solution.predictor.size() == 2);
  CHECK(solution.predictor.actions[1] == LabelSequence{1, 1});
  CHECK(solution.predictor.probabilities[1] == Approx(0.6).margin(1e-12));
}

TEST_CASE("zero-potential chain games equal the full matrix game", "[zero_potential_chain_game]") {
  int checked = 0;
  for (int m : {2, 3}) {
    for (std::size_t T : {1u, 2u, 3u, 4u, 5u}) {
      const auto all = mpg::testing::all_sequences(m, T);
      for (int target = 0; target < m; ++target) {
        const mpg::LinearChainF1Game game(zero_chain(m, T), target);
        Eigen::MatrixXd payoff(static_cast<Eigen::Index>(all.size()), static_cast<Eigen::Index>(all.size()));
        for (std::size_t r = 0; r < all.size(); ++r)
          for (std::size_t c = 0; c < all.size(); ++c)
            payoff(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = game.payoff(all[r], all[c]);
        const double value = mpg::solve_matrix_game(payoff, mpg::default_lp_backend()).value;
        const auto solution = mpg::solve_zero_potential_chain_game(game, 1e-9);
        CHECK(solution.summary.converged());
        CHECK(solution.summary.value == Approx(value).margin(1e-9));
        CHECK(total(solution.predictor) == Approx(1.0).margin(1e-12));
        CHECK(total(solution.adversary) == Approx(1.0).margin(1e-12));
        // Each strategy guarantees the value against every action (the exact best responses).
        CHECK(game.predictor_best_response(solution.adversary).value == Approx(value).margin(1e-9));
        CHECK(game.adversary_best_response(solution.predictor).value == Approx(value).margin(1e-9));
        for (const auto& y : solution.adversary.actions) CHECK(game.is_legal_adversary_action(y));
        ++checked;
      }
    }
  }
  CHECK(checked == 25);
}

TEST_CASE("zero-potential chain games on long chains: the gap of the exact best responses", "[zero_potential_chain_game]") {
  for (std::size_t T : {7u, 30u, 64u}) {
    const mpg::LinearChainF1Game game(zero_chain(5, T), 2);
    const auto solution = mpg::solve_zero_potential_chain_game(game, 1e-9);
    CHECK(solution.summary.converged());
    const double upper = game.predictor_best_response(solution.adversary).value;
    const double lower = game.adversary_best_response(solution.predictor).value;
    CHECK(upper - lower <= 1e-9);
    CHECK(solution.summary.value == Approx(lower).margin(1e-9));
  }
  std::mt19937 rng(5);
  CHECK_THROWS_AS(mpg::solve_zero_potential_chain_game(mpg::LinearChainF1Game(mpg::testing::random_chain(3, 4, 1.0, rng), 1), 1e-9),
                  mpg::Error);
}
