// The game seam: a metric plug-in describes one multivariate prediction game (thesis Def. 1,
// Eq. 3.2). The predictor (rows) maximizes, the adversary (columns) minimizes, and the payoff of
// a pure pair is  C'(y_hat, y_check) = score(y_hat, y_check) - psi(y_check),  where
// psi(y_check) = theta . Phi(x, y_check) is the adversary's Lagrangian potential. A game knows
// nothing of learning: it is handed its potentials and answers best-response queries.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace mpg {

// A mixed strategy over a finite support: probabilities are non-negative and sum to 1.
template <class Action>
struct MixedStrategy {
  std::vector<Action> actions;
  std::vector<double> probabilities;

  std::size_t size() const { return actions.size(); }
};

// The same mixture with its actions ordered by probability, most probable first (stable:
// among equal probabilities the earlier action stays first).
template <class Action>
MixedStrategy<Action> most_probable_first(const MixedStrategy<Action>& strategy) {
  std::vector<std::size_t> index(strategy.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::stable_sort(index.begin(), index.end(),
                   [&](std::size_t a, std::size_t b) { return strategy.probabilities[a] > strategy.probabilities[b]; });
  MixedStrategy<Action> sorted;
  for (std::size_t i : index) {
    sorted.actions.push_back(strategy.actions[i]);
    sorted.probabilities.push_back(strategy.probabilities[i]);
  }
  return sorted;
}

// A pure best response and its value in payoff units (score minus potential):
//  predictor: E_Q[score(y_hat, Y_check)] - E_Q[psi(Y_check)]   (Eq. 3.11)
//  adversary: E_P[score(Y_hat, y_check)] - psi(y_check)         (Eq. 3.12)
template <class Action>
struct BestResponse {
  Action action;
  double value = 0.0;
};

template <class Action>
class Game {
 public:
  virtual ~Game() = default;

  virtual std::string metric_name() const = 0;
  // The metric: predictor's action first, the adversary's (the "label") second.
  virtual double score(const Action& prediction, const Action& label) const = 0;
  // psi(y_check) = theta . Phi(x, y_check).
  virtual double potential(const Action& adversary_action) const = 0;
  // Seed strategy sets of the double oracle.
  virtual std::vector<Action> initial_predictor_actions() const = 0;
  virtual std::vector<Action> initial_adversary_actions() const = 0;
  virtual bool is_legal_predictor_action(const Action& action) const = 0;
  virtual bool is_legal_adversary_action(const Action& action) const = 0;
  // Best responses over ALL pure actions against an opponent's mixed strategy (its support
  // holds only actions of positive probability).
  virtual BestResponse<Action> predictor_best_response(
      const MixedStrategy<Action>& adversary) const = 0;
  virtual BestResponse<Action> adversary_best_response(
      const MixedStrategy<Action>& predictor) const = 0;

  // The best response first, then further pure actions worth adding, e.g. the best action of
  // each size the player already mixes over (`own` is the player's current strategy). The double
  // oracle adds those that beat the sub-game value; they only speed convergence. One call lets a
  // metric build its view of the opponent's strategy once for all of them.
  virtual std::vector<BestResponse<Action>> predictor_responses(
      const MixedStrategy<Action>& adversary, const MixedStrategy<Action>& /*own*/) const {
    return {predictor_best_response(adversary)};
  }
  virtual std::vector<BestResponse<Action>> adversary_responses(
      const MixedStrategy<Action>& predictor, const MixedStrategy<Action>& /*own*/) const {
    return {adversary_best_response(predictor)};
  }

  double payoff(const Action& prediction, const Action& label) const {
    return score(prediction, label) - potential(label);
  }
};

}  // namespace mpg
