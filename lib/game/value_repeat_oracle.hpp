// The double oracle as the authors' reference code runs it (issue 53; shared/notes/
// mpg-java-reference.md §2.3), for the authors' training protocols (lib/learn/protocol.hpp).
// Unlike solve_double_oracle (double_oracle.hpp), which stops only at a certified equilibrium
// gap, this loop stops when the restricted game's LP value repeats:
//   repeat
//     solve the restricted LP -> (P, v); stop if |v - v_prev| <= precision (value repeats);
//     stop if the predictor holds max_actions actions;
//     add the adversary's best response to P unless its value is within precision of v or
//       it is already a column;
//     solve the restricted LP -> (Q, v); stop if |v - v_prev| <= precision;
//     stop if the adversary holds max_actions actions;
//     add the predictor's best response to Q under the same rule;
//   until neither best response was added.
// No pruning, no extra or smoothed responses: one best response per player and half-step, as
// the reference adds them. Because a half-step that adds nothing leaves the LP unchanged, its
// value then repeats and the loop stops (the reference stops there too). The stop is not a
// certificate: the returned summary's gap is measured after the stop (both players' best
// responses to the final strategies) and reported, never tested. P and Q are the last LP's
// strategies (the reference's decision reads P, its gradient Q), `value` the last LP value.
#pragma once

#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/game/restricted_game.hpp"

namespace mpg {

struct ValueRepeatOptions {
  double value_precision = 1e-8;  // the LP value "repeats" when it moves by at most this
  int max_actions = 300;          // per player (0 = no cap)
  const LpBackend* lp_backend = nullptr;  // nullptr = default_lp_backend() (GLPK)
};

// Status: stalled when the LP value repeated (the usual stop: the value stalled by the reference's
// test, whatever the gap), action_limit at the cap, converged when neither best response improved
// on the LP value by more than value_precision (then the gap is at most about twice that).
template <class Action>
GameSolution<Action> solve_double_oracle_value_repeat(const Game<Action>& game, const ValueRepeatOptions& options,
                                                      const std::vector<Action>& extra_predictor_actions = {},
                                                      const std::vector<Action>& extra_adversary_actions = {}) {
  const auto start = std::chrono::steady_clock::now();
  auto add_unique = [](std::vector<Action>& actions, const Action& action) {
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) actions.push_back(action);
  };
  std::vector<Action> rows, columns;
  for (const auto& a : game.initial_predictor_actions()) add_unique(rows, a);
  for (const auto& a : extra_predictor_actions)
    if (game.is_legal_predictor_action(a)) add_unique(rows, a);
  for (const auto& a : game.initial_adversary_actions()) add_unique(columns, a);
  for (const auto& a : extra_adversary_actions)
    if (game.is_legal_adversary_action(a)) add_unique(columns, a);
  Eigen::VectorXd potentials(static_cast<Eigen::Index>(columns.size()));
  for (Eigen::Index c = 0; c < potentials.size(); ++c) potentials[c] = game.potential(columns[static_cast<std::size_t>(c)]);
  RestrictedGame<Action> restricted(game, std::move(rows), std::move(columns), potentials,
                                    {0, false, 0.0, options.lp_backend});

  GameSolution<Action> solution;
  DoubleOracleSummary& summary = solution.summary;
  const double precision = options.value_precision;
  const auto cap = static_cast<std::size_t>(options.max_actions);
  double previous = std::numeric_limits<double>::quiet_NaN();
  // Solves the LP; true when its value repeats the previous solve's.
  auto solve_repeats = [&] {
    const double value = restricted.solve().value;
    const bool repeats = std::abs(value - previous) <= precision;  // false for the first solve (NaN)
    previous = value;
    summary.value = value;
    return repeats;
  };
  double best_response_seconds = 0.0;
  auto timed = [&](auto respond) {
    const auto t = std::chrono::steady_clock::now();
    auto response = respond();
    best_response_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    return response;
  };
  for (;;) {
    ++summary.iterations;
    if (solve_repeats()) {
      summary.status = DoubleOracleStatus::stalled;
      break;
    }
    if (cap > 0 && restricted.rows().size() >= cap) {
      summary.status = DoubleOracleStatus::action_limit;
      break;
    }
    BestResponse<Action> column = timed([&] { return game.adversary_best_response(restricted.predictor()); });
    const bool add_column =
        std::abs(summary.value - column.value) > precision && !restricted.has_column(column.action);
    if (add_column) {
      const double offset = game.potential(column.action);
      restricted.add_column(std::move(column.action), offset);
    }
    if (solve_repeats()) {
      summary.status = DoubleOracleStatus::stalled;
      break;
    }
    if (cap > 0 && restricted.columns().size() >= cap) {
      summary.status = DoubleOracleStatus::action_limit;
      break;
    }
    BestResponse<Action> row = timed([&] { return game.predictor_best_response(restricted.adversary()); });
    const bool add_row = std::abs(summary.value - row.value) > precision && !restricted.has_row(row.action);
    if (add_row) restricted.add_row(std::move(row.action));
    if (!add_column && !add_row) {
      restricted.solve();  // the LP the strategies are read from (unchanged if nothing was added)
      summary.status = DoubleOracleStatus::converged;
      break;
    }
  }
  solution.predictor = restricted.predictor();
  solution.adversary = restricted.adversary();
  // The gap at the stop, reported (not a stop test): v_pred_BR(Q) - v_adv_BR(P).
  summary.predictor_response_value =
      timed([&] { return game.predictor_best_response(solution.adversary); }).value;
  summary.adversary_response_value =
      timed([&] { return game.adversary_best_response(solution.predictor); }).value;
  summary.gap = summary.predictor_response_value - summary.adversary_response_value;
  summary.predictor_actions = restricted.generated_rows();
  summary.adversary_actions = restricted.generated_columns();
  summary.predictor_support = static_cast<int>(solution.predictor.size());
  summary.adversary_support = static_cast<int>(solution.adversary.size());
  summary.lp_seconds = restricted.lp_seconds();
  summary.best_response_seconds = best_response_seconds;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

}  // namespace mpg
