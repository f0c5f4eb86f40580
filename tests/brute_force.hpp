// Brute-force oracles over all 2^n binary actions, the reference the fast algorithms are
// tested against.
#pragma once

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "lib/game/binary_action.hpp"
#include "lib/game/game.hpp"

namespace mpg::testing {

inline std::vector<BinaryAction> all_binary_actions(std::size_t n) {
  std::vector<BinaryAction> actions;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    BinaryAction a;
    for (std::uint32_t i = 0; i < n; ++i)
      if (mask & (1u << i)) a.push_back(i);
    actions.push_back(a);
  }
  return actions;
}

// The actions of {0,1}^n that `is_legal` accepts.
template <class IsLegal>
std::vector<BinaryAction> legal_actions(std::size_t n, IsLegal is_legal) {
  std::vector<BinaryAction> legal;
  for (auto& a : all_binary_actions(n))
    if (is_legal(a)) legal.push_back(a);
  return legal;
}

inline std::vector<BinaryAction> legal_predictor_actions(const Game<BinaryAction>& game,
                                                         std::size_t n) {
  return legal_actions(n, [&](const BinaryAction& a) { return game.is_legal_predictor_action(a); });
}

inline std::vector<BinaryAction> legal_adversary_actions(const Game<BinaryAction>& game,
                                                         std::size_t n) {
  return legal_actions(n, [&](const BinaryAction& a) { return game.is_legal_adversary_action(a); });
}

// max over legal y_hat of E_Q[score(y_hat, Y) - psi(Y)].
inline double brute_force_predictor_value(const Game<BinaryAction>& game, std::size_t n,
                                          const MixedStrategy<BinaryAction>& adversary) {
  double best = -1e300;
  for (const auto& a : legal_predictor_actions(game, n)) {
    double v = 0.0;
    for (std::size_t j = 0; j < adversary.size(); ++j)
      v += adversary.probabilities[j] * game.payoff(a, adversary.actions[j]);
    best = std::max(best, v);
  }
  return best;
}

// min over legal y_check of E_P[score(Y_hat, y_check)] - psi(y_check).
inline double brute_force_adversary_value(const Game<BinaryAction>& game, std::size_t n,
                                          const MixedStrategy<BinaryAction>& predictor) {
  double best = 1e300;
  for (const auto& a : legal_adversary_actions(game, n)) {
    double v = 0.0;
    for (std::size_t j = 0; j < predictor.size(); ++j)
      v += predictor.probabilities[j] * game.payoff(predictor.actions[j], a);
    best = std::min(best, v);
  }
  return best;
}

// Expected payoff of a pure predictor action against a mixed adversary, and vice versa (any
// action type).
template <class Action>
double predictor_value_of(const Game<Action>& game, const Action& a, const MixedStrategy<Action>& adversary) {
  double v = 0.0;
  for (std::size_t j = 0; j < adversary.size(); ++j)
    v += adversary.probabilities[j] * game.payoff(a, adversary.actions[j]);
  return v;
}

template <class Action>
double adversary_value_of(const Game<Action>& game, const Action& a, const MixedStrategy<Action>& predictor) {
  double v = 0.0;
  for (std::size_t j = 0; j < predictor.size(); ++j)
    v += predictor.probabilities[j] * game.payoff(predictor.actions[j], a);
  return v;
}

// The full payoff matrix over all legal actions of both players.
inline Eigen::MatrixXd full_payoff_matrix(const Game<BinaryAction>& game, std::size_t n) {
  const auto rows = legal_predictor_actions(game, n);
  const auto cols = legal_adversary_actions(game, n);
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < cols.size(); ++c)
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = game.payoff(rows[r], cols[c]);
  return m;
}

// A random mixed strategy over `support` distinct legal actions, with random weights.
template <class Action>
MixedStrategy<Action> random_strategy(const std::vector<Action>& legal, std::size_t support, std::mt19937& rng) {
  std::vector<std::size_t> index(legal.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::shuffle(index.begin(), index.end(), rng);
  support = std::min(support, legal.size());
  std::exponential_distribution<double> weight(1.0);
  MixedStrategy<Action> s;
  double total = 0.0;
  for (std::size_t j = 0; j < support; ++j) {
    s.actions.push_back(legal[index[j]]);
    s.probabilities.push_back(weight(rng));
    total += s.probabilities.back();
  }
  for (auto& p : s.probabilities) p /= total;
  return s;
}

inline std::vector<double> random_potentials(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> psi(n);
  for (auto& v : psi) v = u(rng);
  return psi;
}

}  // namespace mpg::testing
