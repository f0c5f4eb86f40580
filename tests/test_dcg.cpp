// The DCG game: both best responses against brute force over all permutations / labelings (n <= 6), and the
// double-oracle value against the LP of the full payoff matrix (n <= 4).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/dcg.hpp"
#include "tests/dcg_checks.hpp"

using mpg::DcgDiscount;
using mpg::DcgGame;
using Action = std::vector<int>;
using Approx = Catch::Detail::Approx;

namespace {

std::vector<Action> all_permutations(int n) {
  std::vector<Action> out;
  Action p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

std::vector<Action> all_labelings(int n, int levels) {
  std::vector<Action> out;
  Action y(static_cast<std::size_t>(n), 0);
  for (;;) {
    out.push_back(y);
    int i = 0;
    while (i < n && ++y[static_cast<std::size_t>(i)] == levels) y[static_cast<std::size_t>(i++)] = 0;
    if (i == n) break;
  }
  return out;
}

// A random mixed strategy over `count` distinct actions of `pool`.
mpg::MixedStrategy<Action> random_strategy(const std::vector<Action>& pool, std::size_t count, std::mt19937_64& rng) {
  std::vector<std::size_t> index(pool.size());
  std::iota(index.begin(), index.end(), 0);
  std::shuffle(index.begin(), index.end(), rng);
  std::uniform_real_distribution<double> u(0.05, 1.0);
  mpg::MixedStrategy<Action> s;
  double total = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    s.actions.push_back(pool[index[i]]);
    s.probabilities.push_back(u(rng));
    total += s.probabilities.back();
  }
  for (double& p : s.probabilities) p /= total;
  return s;
}

Eigen::MatrixXd random_potentials(int n, int levels, double scale, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, scale);
  Eigen::MatrixXd psi(n, levels);
  for (int j = 0; j < n; ++j)
    for (int s = 0; s < levels; ++s) psi(j, s) = s == 0 ? 0.0 : normal(rng);
  return psi;
}

}  // namespace

TEST_CASE("DCG game: payoff, legality and both best responses equal brute force (n <= 6)", "[dcg]") {
  std::mt19937_64 rng(20170501);
  for (int n = 1; n <= 6; ++n) {
    const int levels = n <= 4 ? 3 : 2 + (n % 2);
    const auto permutations = all_permutations(n);
    const auto labelings = all_labelings(n, levels);
    for (DcgDiscount discount : {DcgDiscount::thesis, DcgDiscount::letor}) {
      for (int trial = 0; trial < 4; ++trial) {
        const DcgGame game(random_potentials(n, levels, trial % 2 ? 0.3 : 3.0, rng), discount);
        const auto adversary = random_strategy(labelings, std::min<std::size_t>(labelings.size(), 1 + trial * 2), rng);
        const auto predictor = random_strategy(permutations, std::min<std::size_t>(permutations.size(), 1 + trial * 2), rng);
        // Predictor: max over all permutations of E_Q[payoff].
        double best_predictor = -1e300;
        for (const auto& p : permutations) {
          double v = 0.0;
          for (std::size_t a = 0; a < adversary.size(); ++a) v += adversary.probabilities[a] * game.payoff(p, adversary.actions[a]);
          best_predictor = std::max(best_predictor, v);
        }
        const auto br_p = game.predictor_best_response(adversary);
        CHECK(game.is_legal_predictor_action(br_p.action));
        CHECK(br_p.value == Approx(best_predictor).margin(1e-9));
        double check = 0.0;
        for (std::size_t a = 0; a < adversary.size(); ++a) check += adversary.probabilities[a] * game.payoff(br_p.action, adversary.actions[a]);
        CHECK(check == Approx(br_p.value).margin(1e-9));
        // Adversary: min over all labelings of E_P[payoff].
        double best_adversary = 1e300;
        for (const auto& y : labelings) {
          double v = 0.0;
          for (std::size_t a = 0; a < predictor.size(); ++a) v += predictor.probabilities[a] * game.payoff(predictor.actions[a], y);
          best_adversary = std::min(best_adversary, v);
        }
        const auto br_a = game.adversary_best_response(predictor);
        CHECK(game.is_legal_adversary_action(br_a.action));
        CHECK(br_a.value == Approx(best_adversary).margin(1e-9));
      }
    }
  }
  const DcgGame game(Eigen::MatrixXd::Zero(3, 3), DcgDiscount::letor);
  CHECK_FALSE(game.is_legal_predictor_action({0, 0, 1}));
  CHECK_FALSE(game.is_legal_predictor_action({0, 1}));
  CHECK_FALSE(game.is_legal_adversary_action({0, 3, 1}));
  CHECK(game.score({2, 1, 0}, {0, 1, 2}) == Approx(3.0 + 1.0));
  CHECK_THROWS_AS(DcgGame(Eigen::MatrixXd::Zero(3, 1), DcgDiscount::letor), mpg::Error);
}

TEST_CASE("DCG game: double-oracle value equals the LP of the full matrix (n <= 4)", "[dcg]") {
  std::mt19937_64 rng(42);
  for (int n = 1; n <= 4; ++n) {
    const auto permutations = all_permutations(n);
    const auto labelings = all_labelings(n, 3);
    for (int trial = 0; trial < 3; ++trial) {
      const DcgGame game(random_potentials(n, 3, 0.5 + trial, rng), trial == 1 ? DcgDiscount::thesis : DcgDiscount::letor);
      Eigen::MatrixXd payoff(static_cast<Eigen::Index>(permutations.size()), static_cast<Eigen::Index>(labelings.size()));
      for (std::size_t r = 0; r < permutations.size(); ++r)
        for (std::size_t c = 0; c < labelings.size(); ++c)
          payoff(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = game.payoff(permutations[r], labelings[c]);
      const double full = mpg::solve_matrix_game(payoff, mpg::default_lp_backend()).value;
      const auto solution = mpg::solve_double_oracle(game);
      CHECK(solution.summary.converged());
      CHECK(solution.summary.value == Approx(full).margin(1e-6));
      CHECK(solution.summary.adversary_response_value <= full + 1e-6);
      CHECK(solution.summary.predictor_response_value >= full - 1e-6);
    }
  }
}

TEST_CASE("DCG game: the compact LP equals double oracle (n <= 6) and certifies its own gap", "[dcg]") {
  std::mt19937_64 rng(7);
  for (int n = 1; n <= 6; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      const DcgDiscount discount = trial % 2 ? DcgDiscount::thesis : DcgDiscount::letor;
      const DcgGame game(random_potentials(n, 3, 0.5 + trial, rng), discount);
      const auto eq = mpg::solve_dcg_game(game);
      const auto reference = mpg::solve_double_oracle(game);
      REQUIRE(reference.summary.converged());
      CHECK(eq.value == Approx(reference.summary.value).margin(1e-6));
      CHECK(eq.gap <= 1e-6);
      CHECK(eq.gap >= -1e-6);
      check_equilibrium_shape(game, eq);
      // The predictor's mixture guarantees the value against every labeling.
      CHECK(game.adversary_best_response(eq.predictor).value >= eq.value - 1e-6);
      CHECK(game.predictor_value_against_marginals(eq.adversary_marginals) <= eq.value + 1e-6);
    }
  }
  // Large potentials on level 2 for document 1 only: a pure equilibrium ranking it first.
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(3, 3);
  psi(1, 2) = 10.0;
  const auto eq = mpg::solve_dcg_game(DcgGame(psi, DcgDiscount::letor));
  CHECK(eq.predictor.actions.front().front() == 1);
  CHECK(eq.adversary_marginals(1, 2) == Approx(1.0));
  CHECK(eq.value == Approx(3.0 - 10.0));
}
