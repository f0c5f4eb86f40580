// Double-oracle constraint generation for large zero-sum games (thesis Algorithm 1, §3.5;
// McMahan et al. 2003). The sub-game over the generated actions is solved by LP; each player's
// best response over ALL actions is then added. The game is finished only when the equilibrium
// gap
//     gap = v_pred_BR - v_adv_BR
//         = max_y_hat E_Q[C'(y_hat, Y_check)] - min_y_check E_P[C'(Y_hat, y_check)]
// is <= tolerance; then P and Q are tolerance-optimal in the full game and v_adv_BR <= v* <=
// v_pred_BR brackets its value.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "lib/game.hpp"
#include "lib/matrix_game.hpp"

namespace mpg {

struct DoubleOracleOptions {
  double tolerance = 1e-9;      // stop when gap <= tolerance
  int max_iterations = 10000;   // 0 = no cap
  int max_actions = 0;          // per player; 0 = no cap
  double max_seconds = 0.0;     // 0 = no cap
};

enum class DoubleOracleStatus { converged, iteration_limit, action_limit, time_limit, stalled };

inline std::string to_string(DoubleOracleStatus status) {
  switch (status) {
    case DoubleOracleStatus::converged: return "converged";
    case DoubleOracleStatus::iteration_limit: return "not converged: iteration limit";
    case DoubleOracleStatus::action_limit: return "not converged: action limit";
    case DoubleOracleStatus::time_limit: return "not converged: time limit";
    case DoubleOracleStatus::stalled:
      return "not converged: both best responses already generated (LP accuracy)";
  }
  return "unknown";
}

struct DoubleOracleSummary {
  DoubleOracleStatus status = DoubleOracleStatus::iteration_limit;
  int iterations = 0;
  double value = 0.0;                // LP value of the final sub-game
  double gap = 0.0;                  // predictor_response_value - adversary_response_value
  double predictor_response_value = 0.0;
  double adversary_response_value = 0.0;
  int predictor_actions = 0;         // generated rows
  int adversary_actions = 0;         // generated columns
  int predictor_support = 0;         // rows with positive probability
  int adversary_support = 0;         // columns with positive probability
  double seconds = 0.0;
  double lp_seconds = 0.0;
  double best_response_seconds = 0.0;

  bool converged() const { return status == DoubleOracleStatus::converged; }
};

template <class Action>
struct GameSolution {
  MixedStrategy<Action> predictor;  // support only (positive probability)
  MixedStrategy<Action> adversary;  // support only
  DoubleOracleSummary summary;
};

namespace detail {

template <class Action>
MixedStrategy<Action> support_of(const std::vector<Action>& actions,
                                 const Eigen::VectorXd& probabilities) {
  MixedStrategy<Action> strategy;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (probabilities[static_cast<Eigen::Index>(i)] > 0.0) {
      strategy.actions.push_back(actions[i]);
      strategy.probabilities.push_back(probabilities[static_cast<Eigen::Index>(i)]);
    }
  }
  return strategy;
}

template <class Action>
void add_unique(std::vector<Action>& actions, const Action& action) {
  if (std::find(actions.begin(), actions.end(), action) == actions.end())
    actions.push_back(action);
}

}  // namespace detail

// Solves the game. Extra seed actions (e.g. the gold labelling during training, or the previous
// equilibrium's supports as a warm start) are appended to the game's initial sets when legal.
template <class Action>
GameSolution<Action> solve_double_oracle(const Game<Action>& game,
                                         const DoubleOracleOptions& options = {},
                                         const std::vector<Action>& extra_predictor_actions = {},
                                         const std::vector<Action>& extra_adversary_actions = {},
                                         const LpBackend* backend = nullptr) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  static const auto default_backend = make_lp_solve_backend();
  const LpBackend& lp = backend ? *backend : *default_backend;

  std::vector<Action> rows;
  std::vector<Action> columns;
  for (const auto& a : game.initial_predictor_actions()) detail::add_unique(rows, a);
  for (const auto& a : extra_predictor_actions)
    if (game.is_legal_predictor_action(a)) detail::add_unique(rows, a);
  for (const auto& a : game.initial_adversary_actions()) detail::add_unique(columns, a);
  for (const auto& a : extra_adversary_actions)
    if (game.is_legal_adversary_action(a)) detail::add_unique(columns, a);

  Eigen::MatrixXd payoff(static_cast<Eigen::Index>(rows.size()),
                         static_cast<Eigen::Index>(columns.size()));
  std::vector<double> column_potential;
  for (const auto& c : columns) column_potential.push_back(game.potential(c));
  for (Eigen::Index r = 0; r < payoff.rows(); ++r)
    for (Eigen::Index c = 0; c < payoff.cols(); ++c)
      payoff(r, c) = game.score(rows[r], columns[c]) - column_potential[c];

  GameSolution<Action> solution;
  DoubleOracleSummary& summary = solution.summary;
  MatrixGameSolution sub_game;
  for (;;) {
    ++summary.iterations;
    auto t = clock::now();
    sub_game = solve_matrix_game(payoff, lp);
    summary.lp_seconds += seconds_since(t);
    solution.predictor = detail::support_of(rows, sub_game.row_strategy);
    solution.adversary = detail::support_of(columns, sub_game.column_strategy);

    t = clock::now();
    BestResponse<Action> row_response = game.predictor_best_response(solution.adversary);
    BestResponse<Action> column_response = game.adversary_best_response(solution.predictor);
    summary.best_response_seconds += seconds_since(t);

    summary.value = sub_game.value;
    summary.predictor_response_value = row_response.value;
    summary.adversary_response_value = column_response.value;
    summary.gap = row_response.value - column_response.value;
    if (summary.gap <= options.tolerance) {
      summary.status = DoubleOracleStatus::converged;
      break;
    }
    // At least one response improves on the sub-game value by more than tolerance/2.
    const double threshold = 0.5 * options.tolerance;
    const bool add_row = row_response.value > sub_game.value + threshold &&
                         std::find(rows.begin(), rows.end(), row_response.action) == rows.end();
    const bool add_column =
        column_response.value < sub_game.value - threshold &&
        std::find(columns.begin(), columns.end(), column_response.action) == columns.end();
    if (!add_row && !add_column) {
      summary.status = DoubleOracleStatus::stalled;
      break;
    }
    if (options.max_iterations > 0 && summary.iterations >= options.max_iterations) {
      summary.status = DoubleOracleStatus::iteration_limit;
      break;
    }
    if (options.max_seconds > 0.0 && seconds_since(start) >= options.max_seconds) {
      summary.status = DoubleOracleStatus::time_limit;
      break;
    }
    const auto cap = static_cast<std::size_t>(options.max_actions);
    if (options.max_actions > 0 && ((add_row && rows.size() >= cap) ||
                                    (add_column && columns.size() >= cap))) {
      summary.status = DoubleOracleStatus::action_limit;
      break;
    }
    if (add_row) {
      rows.push_back(std::move(row_response.action));
      payoff.conservativeResize(payoff.rows() + 1, Eigen::NoChange);
      const Eigen::Index r = payoff.rows() - 1;
      for (Eigen::Index c = 0; c < payoff.cols(); ++c)
        payoff(r, c) = game.score(rows[r], columns[c]) - column_potential[c];
    }
    if (add_column) {
      columns.push_back(std::move(column_response.action));
      column_potential.push_back(game.potential(columns.back()));
      payoff.conservativeResize(Eigen::NoChange, payoff.cols() + 1);
      const Eigen::Index c = payoff.cols() - 1;
      for (Eigen::Index r = 0; r < payoff.rows(); ++r)
        payoff(r, c) = game.score(rows[r], columns[c]) - column_potential[c];
    }
  }
  summary.predictor_actions = static_cast<int>(rows.size());
  summary.adversary_actions = static_cast<int>(columns.size());
  summary.predictor_support = static_cast<int>(solution.predictor.size());
  summary.adversary_support = static_cast<int>(solution.adversary.size());
  summary.seconds = seconds_since(start);
  return solution;
}

// Index of the most probable pure action of a non-empty strategy (first of ties): applied to
// the predictor's equilibrium strategy it is the papers' test-time decision rule.
template <class Action>
std::size_t most_probable_index(const MixedStrategy<Action>& strategy) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < strategy.size(); ++i)
    if (strategy.probabilities[i] > strategy.probabilities[best]) best = i;
  return best;
}

}  // namespace mpg
