// Linear-chain F1 game (LCFM/MSUM adversary, GFM predictor) against brute force over all m^T
// sequences, its double-oracle value against the full matrix LP, and the MPG objective's
// subgradient inequality.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/linear_chain_f1.hpp"
#include "tests/chains.hpp"

namespace {

using mpg::testing::all_sequences;
using mpg::testing::random_chain;

using mpg::LabelSequence;

// A random sparse mixed strategy over distinct sequences.
mpg::MixedStrategy<LabelSequence> random_strategy(const std::vector<LabelSequence>& all, std::mt19937& rng) {
  std::uniform_int_distribution<std::size_t> size(1, std::min<std::size_t>(5, all.size()));
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  mpg::MixedStrategy<LabelSequence> s;
  std::uniform_real_distribution<double> u(0.05, 1.0);
  double total = 0.0;
  for (std::size_t i = 0, n = size(rng); i < n; ++i) {
    s.actions.push_back(all[order[i]]);
    s.probabilities.push_back(u(rng));
    total += s.probabilities.back();
  }
  for (double& p : s.probabilities) p /= total;
  return s;
}

double expected_payoff_against_adversary(const mpg::LinearChainF1Game& game, const LabelSequence& row,
                                         const mpg::MixedStrategy<LabelSequence>& adversary) {
  double v = 0.0;
  for (std::size_t j = 0; j < adversary.size(); ++j)
    v += adversary.probabilities[j] * game.payoff(row, adversary.actions[j]);
  return v;
}

double expected_payoff_against_predictor(const mpg::LinearChainF1Game& game, const LabelSequence& column,
                                         const mpg::MixedStrategy<LabelSequence>& predictor) {
  double v = 0.0;
  for (std::size_t j = 0; j < predictor.size(); ++j)
    v += predictor.probabilities[j] * game.payoff(predictor.actions[j], column);
  return v;
}

}  // namespace

TEST_CASE("linear-chain F1 scores", "[linear_chain_f1]") {
  CHECK(mpg::chain_f1_score({1, 0, 2}, {1, 1, 0}, 1) == Approx(2.0 / 3.0));
  CHECK(mpg::chain_f1_score({0, 0, 2}, {2, 0, 0}, 1) == 1.0);  // no C on either side
  CHECK(mpg::chain_f1_score({1, 0}, {0, 0}, 1) == 0.0);
  CHECK(mpg::chain_f1_score({2, 2}, {2, 1}, 2) == Approx(2.0 / 3.0));
}

TEST_CASE("both best responses equal brute force over all m^T sequences", "[linear_chain_f1]") {
  std::mt19937 rng(2017);
  int checked = 0;
  for (int m : {2, 3}) {
    for (std::size_t T : {1u, 2u, 3u, 4u, 5u}) {
      const auto all = all_sequences(m, T);
      for (int trial = 0; trial < 12; ++trial) {
        const int target = std::uniform_int_distribution<int>(0, m - 1)(rng);
        const mpg::LinearChainF1Game game(random_chain(m, T, 1.0, rng), target);
        const auto adversary = random_strategy(all, rng);
        const auto predictor = random_strategy(all, rng);
        double best_row = -1e300, best_column = 1e300;
        for (const auto& y : all) {
          best_row = std::max(best_row, expected_payoff_against_adversary(game, y, adversary));
          best_column = std::min(best_column, expected_payoff_against_predictor(game, y, predictor));
        }
        const auto row = game.predictor_best_response(adversary);
        const auto column = game.adversary_best_response(predictor);
        CHECK(row.value == Approx(best_row).margin(1e-12));
        CHECK(expected_payoff_against_adversary(game, row.action, adversary) == Approx(best_row).margin(1e-12));
        CHECK(column.value == Approx(best_column).margin(1e-12));
        CHECK(expected_payoff_against_predictor(game, column.action, predictor) ==
              Approx(best_column).margin(1e-12));
        CHECK(game.is_legal_adversary_action(column.action));
        ++checked;
      }
    }
  }
  CHECK(checked == 120);
}

TEST_CASE("the predictor's best response ignores the potentials", "[linear_chain_f1]") {
  std::mt19937 rng(9);
  const auto all = all_sequences(3, 4);
  const auto adversary = random_strategy(all, rng);
  const mpg::LinearChainF1Game a(random_chain(3, 4, 1.0, rng), 1);
  const mpg::LinearChainF1Game b(random_chain(3, 4, 1.0, rng), 1);
  CHECK(a.predictor_best_response(adversary).action == b.predictor_best_response(adversary).action);
}

TEST_CASE("the double-oracle value equals the full matrix LP for tiny chains", "[linear_chain_f1]") {
  std::mt19937 rng(4);
  for (std::size_t T : {1u, 2u, 3u}) {
    for (int trial = 0; trial < 4; ++trial) {
      const int m = 3;
      const mpg::LinearChainF1Game game(random_chain(m, T, 1.0, rng), 1 + trial % 2);
      const auto all = all_sequences(m, T);
      Eigen::MatrixXd payoff(static_cast<Eigen::Index>(all.size()), static_cast<Eigen::Index>(all.size()));
      for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = 0; j < all.size(); ++j)
          payoff(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = game.payoff(all[i], all[j]);
      const double full = mpg::solve_matrix_game(payoff, mpg::default_lp_backend()).value;
      mpg::DoubleOracleOptions options;
      options.tolerance = 1e-9;
      const auto solution = mpg::solve_double_oracle(game, options);
      REQUIRE(solution.summary.converged());
      CHECK(solution.summary.value == Approx(full).margin(1e-7));
    }
  }
}

TEST_CASE("the MPG objective is convex with the reported subgradient", "[linear_chain_f1]") {
  std::mt19937 rng(21);
  std::vector<mpg::FeaturizedSentence> sentences;
  std::uniform_int_distribution<int> label(0, 2);
  for (int i = 0; i < 6; ++i) {
    mpg::FeaturizedSentence s;
    for (int t = 0, T = 2 + i % 3; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      s.features.push_back({static_cast<std::uint32_t>(y), 3});
    }
    sentences.push_back(s);
  }
  const mpg::ChainLayout layout{4, 3};
  mpg::LinearChainMpgOptions options;
  options.target = 1;
  options.lambda = 0.5;
  options.game_tolerance = 1e-10;
  mpg::LinearChainMpgObjective objective(sentences, layout, options);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto n = static_cast<Eigen::Index>(layout.size());
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd a(n), b(n), ga(n), gb(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      a[i] = u(rng);
      b[i] = u(rng);
    }
    const double fa = objective.evaluate(a, ga);
    const double fb = objective.evaluate(b, gb);
    CHECK(fb >= fa + ga.dot(b - a) - 1e-7);
    CHECK(fa >= fb + gb.dot(a - b) - 1e-7);
  }
  // At theta = 0 with all-C / all-O potentials 0: value = -sum_i v_i(0) with v_i(0) > 0.
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(n), g(n);
  CHECK(objective.evaluate(zero, g) < 0.0);
}

TEST_CASE("training the linear-chain MPG fits a separable toy class", "[linear_chain_f1]") {
  std::mt19937 rng(8);
  std::vector<mpg::FeaturizedSentence> sentences;
  std::uniform_int_distribution<int> label(0, 2);
  for (int i = 0; i < 20; ++i) {
    mpg::FeaturizedSentence s;
    for (int t = 0, T = 1 + i % 5; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      s.features.push_back({static_cast<std::uint32_t>(y), 3});
    }
    sentences.push_back(s);
  }
  mpg::LinearChainMpgOptions options;
  options.target = 2;
  options.lambda = 0.05;
  options.instance_planes = false;  // the proximal bundle over the sum, as before the defaults became the spec's
  options.max_iterations = 100;
  options.objective_tolerance = 1e-6;
  const auto model = mpg::train_linear_chain_mpg(sentences, mpg::ChainLayout{4, 3}, options);
  for (const auto& s : sentences) {
    const LabelSequence predicted = mpg::predict_linear_chain_mpg(model, s);
    for (std::size_t t = 0; t < s.size(); ++t) CHECK((predicted[t] == 2) == (s.labels[t] == 2));
  }
}

// The bound-ordered LCFM against a plain MSUM that runs the DP for every k (Algorithm 4 as
// printed), on chains too long for enumeration.
TEST_CASE("the adversary's best response equals the all-k MSUM on long chains", "[linear_chain_f1]") {
  std::mt19937 rng(31);
  for (std::size_t T : {12u, 30u, 60u}) {
    const int m = 5;
    for (int trial = 0; trial < 3; ++trial) {
      const mpg::ChainScores psi = random_chain(m, T, 1.0, rng);
      const int C = 1 + trial;
      const mpg::LinearChainF1Game game(psi, C);
      // Predictor: a few random binary-for-C sequences.
      mpg::MixedStrategy<LabelSequence> predictor;
      std::bernoulli_distribution coin(0.2);
      for (int j = 0; j < 4; ++j) {
        LabelSequence y(T, 0);
        for (auto& c : y) c = coin(rng) ? C : 0;
        predictor.actions.push_back(y);
        predictor.probabilities.push_back(0.25);
      }
      // E[F1(Y_hat, y)] for |y|_C = k: p0 if k = 0, else sum over C positions of f(t, k).
      auto f = [&](std::size_t t, std::size_t k) {
        double v = 0.0;
        for (std::size_t j = 0; j < predictor.size(); ++j) {
          std::size_t s = 0;
          for (int c : predictor.actions[j]) s += c == C;
          if (s > 0 && predictor.actions[j][t] == C) v += predictor.probabilities[j] * 2.0 / double(s + k);
        }
        return v;
      };
      double p0 = 0.0;
      for (std::size_t j = 0; j < predictor.size(); ++j)
        if (std::count(predictor.actions[j].begin(), predictor.actions[j].end(), C) == 0) p0 += predictor.probabilities[j];
      double best = -1e300;
      for (std::size_t k = 0; k <= T; ++k) {
        // V[r][c] over prefixes, exactly as MSUM's recursion read forward.
        std::vector<std::vector<double>> V(k + 1, std::vector<double>(m, -1e300));
        for (int c = 0; c < m; ++c) {
          const std::size_t r = c == C;
          if (r <= k) V[r][c] = psi.transition(m, c) + psi.unary(0, c) - (c == C ? f(0, k) : 0.0);
        }
        for (std::size_t t = 1; t < T; ++t) {
          std::vector<std::vector<double>> W(k + 1, std::vector<double>(m, -1e300));
          for (std::size_t r = 0; r <= k; ++r)
            for (int a = 0; a < m; ++a) {
              if (V[r][a] <= -1e299) continue;
              for (int c = 0; c < m; ++c) {
                const std::size_t r2 = r + (c == C);
                if (r2 > k) continue;
                const double v = V[r][a] + psi.transition(a, c) + psi.unary(static_cast<Eigen::Index>(t), c) -
                                 (c == C ? f(t, k) : 0.0);
                W[r2][c] = std::max(W[r2][c], v);
              }
            }
          V = W;
        }
        double e = *std::max_element(V[k].begin(), V[k].end());
        if (k == 0) e -= p0;
        best = std::max(best, e);
      }
      const auto response = game.adversary_best_response(predictor);
      CHECK(response.value == Approx(-best).margin(1e-9));
      CHECK(expected_payoff_against_predictor(game, response.action, predictor) == Approx(-best).margin(1e-9));
    }
  }
}
