// DCG metrics under the pinned LETOR conventions (hand-computed examples) and the DCG game:
// both best responses against brute force over all permutations / labelings (n <= 6), and the
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

// Relevances 2,1,2,0,0,2,1,0 already in ranked order (digest §3 worked example).
const std::vector<int> kExample = {2, 1, 2, 0, 0, 2, 1, 0};
mpg::Ranking identity(std::size_t n) {
  mpg::Ranking order(n);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

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

TEST_CASE("DCG discounts: thesis log2(r+1) and LETOR DCG'' with positions 1 and 2 undiscounted", "[dcg]") {
  CHECK(mpg::dcg_discount(DcgDiscount::thesis, 1) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::thesis, 3) == Approx(0.5));
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 1) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 2) == 1.0);
  CHECK(mpg::dcg_discount(DcgDiscount::letor, 4) == Approx(0.5));
  CHECK(mpg::relevance_gain(0) == 0.0);
  CHECK(mpg::relevance_gain(2) == 3.0);
  CHECK(mpg::parse_dcg_discount("letor") == DcgDiscount::letor);
  CHECK_THROWS_AS(mpg::parse_dcg_discount("trec"), mpg::Error);
}

TEST_CASE("NDCG@k of the worked example, both discounts (digest §3)", "[dcg]") {
  const auto thesis = mpg::evaluate_ranking(identity(8), kExample, DcgDiscount::thesis, 8);
  const std::vector<double> expected_thesis = {1.0, 0.7420981285, 0.8026120594, 0.7519536098,
                                               0.7116092949, 0.8598165541, 0.9060465961, 0.9060465961};
  const auto letor = mpg::evaluate_ranking(identity(8), kExample, DcgDiscount::letor, 8);
  const std::vector<double> expected_letor = {1.0, 2.0 / 3.0, 0.7466041555, 0.7021252503,
                                              0.6678542629, 0.7993851653, 0.8397556042, 0.8397556042};
  for (std::size_t k = 0; k < 8; ++k) {
    CHECK(thesis.ndcg_at[k] == Approx(expected_thesis[k]).epsilon(1e-9));
    CHECK(letor.ndcg_at[k] == Approx(expected_letor[k]).epsilon(1e-9));
  }
  // DCG@3 = 3 + 1/log2(3) + 3/2 under the thesis discount; DCG''@3 = 3 + 1 + 3/log2(3).
  CHECK(mpg::dcg(identity(8), kExample, DcgDiscount::thesis, 3) == Approx(3.0 + 1.0 / std::log2(3.0) + 1.5));
  CHECK(mpg::dcg(identity(8), kExample, DcgDiscount::letor, 3) == Approx(4.0 + 3.0 / std::log2(3.0)));
  // Mean NDCG = mean of NDCG@1..n over the list length n = 8.
  CHECK(thesis.mean_ndcg == Approx(0.8350228549).epsilon(1e-9));
  CHECK(letor.mean_ndcg == Approx(0.7827683386).epsilon(1e-9));
  // AP: relevant at positions 1, 2, 3, 6, 7 -> (1 + 1 + 1 + 4/6 + 5/7) / 5.
  CHECK(letor.average_precision == Approx((3.0 + 4.0 / 6.0 + 5.0 / 7.0) / 5.0));
  CHECK(letor.precision_at[2] == Approx(1.0));
  CHECK(letor.precision_at[5] == Approx(4.0 / 6.0));
}

TEST_CASE("Evaluation conventions: empty queries, k beyond the list, ties in file order", "[dcg]") {
  SECTION("a query without relevant documents scores 0 everywhere") {
    const auto m = mpg::evaluate_ranking(identity(3), {0, 0, 0}, DcgDiscount::letor, 10);
    for (double v : m.ndcg_at) CHECK(v == 0.0);
    for (double v : m.precision_at) CHECK(v == 0.0);
    CHECK(m.mean_ndcg == 0.0);
    CHECK(m.average_precision == 0.0);
  }
  SECTION("k > n: NDCG@k = NDCG@n, P@k divides by k, Mean NDCG averages over n only") {
    // Ranking (doc 1, doc 0) of relevances {1, 0}: DCG'' = 0 + 1 (position 2 undiscounted).
    const auto m = mpg::evaluate_ranking({1, 0}, {1, 0}, DcgDiscount::letor, 5);
    CHECK(m.ndcg_at[0] == 0.0);
    CHECK(m.ndcg_at[1] == 1.0);  // DCG''@2 equals the ideal's: both undiscounted
    CHECK(m.ndcg_at[4] == 1.0);
    CHECK(m.precision_at[1] == 0.5);
    CHECK(m.precision_at[4] == Approx(0.2));
    CHECK(m.mean_ndcg == 0.5);
    CHECK(m.average_precision == 0.5);
  }
  SECTION("ties in the scores keep file order") {
    Eigen::VectorXd scores(4);
    scores << 0.5, 1.0, 0.5, 1.0;
    CHECK(mpg::ranking_by_scores(scores) == mpg::Ranking{1, 3, 0, 2});
    // So a constant scorer ranks in file order: relevant last doc gets position 3.
    const auto m = mpg::evaluate_ranking(mpg::ranking_by_scores(Eigen::VectorXd::Zero(3)), {0, 0, 2},
                                         DcgDiscount::letor, 3);
    CHECK(m.ndcg_at[2] == Approx(1.0 / std::log2(3.0)));
  }
  SECTION("averaging over queries") {
    mpg::RankingMetrics total;
    total.add(mpg::evaluate_ranking(identity(2), {1, 0}, DcgDiscount::letor, 2));
    total.add(mpg::evaluate_ranking(identity(2), {0, 0}, DcgDiscount::letor, 2));
    total.finish();
    CHECK(total.queries == 2);
    CHECK(total.ndcg_at[0] == 0.5);
    CHECK(total.map == 0.5);
  }
}

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
