// Double-oracle constraint generation for large zero-sum games (thesis Algorithm 1, §3.5;
// McMahan et al. 2003). The sub-game over the generated actions (restricted_game.hpp) is solved
// by LP; each player's best response over ALL actions is then added. The game is finished only when the equilibrium
// gap
//     gap = v_pred_BR - v_adv_BR
//         = max_y_hat E_Q[C'(y_hat, Y_check)] - min_y_check E_P[C'(Y_hat, y_check)]
// is <= tolerance; then P and Q are tolerance-optimal in the full game and v_adv_BR <= v* <=
// v_pred_BR brackets its value. P and Q are the strategies with the best guarantees seen, not
// necessarily the last sub-game's: a capped run returns those and their (smaller) gap.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/game/game.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/game/restricted_game.hpp"

namespace mpg {

struct DoubleOracleSummary;

struct DoubleOracleOptions {
  double tolerance = 1e-9;      // stop when gap <= tolerance
  int max_iterations = 10000;   // 0 = no cap
  int max_actions = 0;          // per player; 0 = no cap
  double max_seconds = 0.0;     // 0 = no cap
  // Drop an action from the sub-game after this many consecutive solves with probability 0
  // (0 = keep every action). Keeps the LP near the support size; the stopping test still
  // checks best responses over ALL actions, so the result stays exact. An action's own
  // patience doubles each time it is generated again after being dropped, and every action's
  // every 500 iterations, so pruning dies out on a run that would cycle or drift and the
  // double oracle keeps its termination guarantee.
  int prune_after = 3;
  // Also add each player's best action of every size it already mixes over, when profitable
  // (Game::*_responses). Fewer iterations on games with large supports.
  bool extra_responses = true;
  // Also add the adversary's best response to a smoothed predictor strategy: this weight on the
  // best-bounding predictor strategy so far, the rest on the current one
  // (SmoothedResponses in restricted_game.hpp; 0 = off). 2-5x fewer iterations on F1 games at small potentials.
  double smoothing = 0.9;
  const LpBackend* lp_backend = nullptr;  // nullptr = default_lp_backend() (GLPK)
  // certified: stop at gap <= tolerance (above). value_repeat: the reference code's rule
  // (shared/notes/mpg-java-reference.md §2.3), not a certificate: after each LP solve, stop when
  // its value equals the previous solve's once both are rounded to value_precision; else stop
  // when a player holds max_actions actions (set it: 300 in the reference). Each iteration solves
  // the LP, adds the adversary's best response, solves again and adds the predictor's, each only
  // if its value differs from the LP value at value_precision: one action per player, never
  // pruned (prune_after, extra_responses and smoothing do not apply). The gap of the last LP's
  // strategies is computed at the stop and reported (converged if it is <= tolerance).
  enum class StopRule { certified, value_repeat };
  StopRule stop_rule = StopRule::certified;
  double value_precision = 1e-8;
  // Called after every iteration with the summary so far (iterations, gap, bounds, supports,
  // seconds), e.g. for a progress line; empty = not called.
  std::function<void(const DoubleOracleSummary&)> progress;
};

// inconsistent: a gap below -tolerance, impossible in exact arithmetic (the best responses' values bound the
// game value from both sides): the LP's rounding swamped the payoffs, so the result is not an equilibrium.
// value_repeated: StopRule::value_repeat stopped at a repeated LP value with a gap > tolerance.
enum class DoubleOracleStatus { converged, iteration_limit, action_limit, time_limit, stalled, inconsistent,
                                value_repeated };

std::string to_string(DoubleOracleStatus status);

struct DoubleOracleSummary {
  DoubleOracleStatus status = DoubleOracleStatus::iteration_limit;
  int iterations = 0;
  double value = 0.0;                // LP value of the final sub-game
  double gap = 0.0;                  // predictor_response_value - adversary_response_value
  double predictor_response_value = 0.0;
  double adversary_response_value = 0.0;
  int predictor_actions = 0;         // rows generated (including pruned ones)
  int adversary_actions = 0;         // columns generated (including pruned ones)
  int pruned_actions = 0;            // rows and columns dropped after idling
  int returned_actions = 0;          // dropped actions generated again (each doubles its patience)
  int predictor_support = 0;         // rows with positive probability
  int adversary_support = 0;         // columns with positive probability
  double seconds = 0.0;
  double lp_seconds = 0.0;
  double best_response_seconds = 0.0;

  bool converged() const { return status == DoubleOracleStatus::converged; }
  nlohmann::json to_json() const;
  std::string report() const;  // "converged after 12 iterations, gap 3.1e-10, 0.012 s"
};

template <class Action>
struct GameSolution {
  MixedStrategy<Action> predictor;  // support only (positive probability)
  MixedStrategy<Action> adversary;  // support only
  DoubleOracleSummary summary;
};

// Equal once rounded to `precision` (the reference's equality test of values, §2.3).
inline bool equal_at_precision(double a, double b, double precision) {
  return std::round(a / precision) == std::round(b / precision);
}

// DoubleOracleOptions::StopRule::value_repeat (see there) on a seeded restricted game. The
// reference solves a maximizer LP and a minimizer LP in turn; our LP gives both players'
// strategies at once, so each half-step is one solve. Its best responses are ours (exact; the
// reference breaks ties between equally good actions by its own orders, so a game it stops
// early can end elsewhere than ours). Returns the last LP's strategies (the reference's
// decision and gradient read them) and the gap of both best responses to them.
template <class Action>
GameSolution<Action> solve_until_value_repeats(const Game<Action>& game, const DoubleOracleOptions& options,
                                               RestrictedGame<Action>& restricted,
                                               std::chrono::steady_clock::time_point start) {
  GameSolution<Action> solution;
  DoubleOracleSummary& summary = solution.summary;
  const auto cap = static_cast<std::size_t>(std::max(options.max_actions, 0));
  const double precision = options.value_precision;
  double previous = std::numeric_limits<double>::quiet_NaN();
  // One LP solve; true when the rule stops the game (the value repeated or a cap was reached).
  auto solve_and_test = [&](bool predictor_cap) {
    const double value = restricted.solve().value;
    summary.value = value;
    const bool repeated = !std::isnan(previous) && equal_at_precision(previous, value, precision);
    previous = value;
    if (repeated) {
      summary.status = DoubleOracleStatus::value_repeated;
      return true;
    }
    const std::size_t held = predictor_cap ? restricted.rows().size() : restricted.columns().size();
    if (cap > 0 && held >= cap) {
      summary.status = DoubleOracleStatus::action_limit;
      return true;
    }
    return false;
  };
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  auto timed = [&summary](auto respond) {
    const auto t = std::chrono::steady_clock::now();
    auto response = respond();
    summary.best_response_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    return response;
  };
  for (;;) {
    ++summary.iterations;
    if (solve_and_test(true)) break;
    const auto column = timed([&] { return game.adversary_best_response(restricted.predictor()); });
    const bool add_column =
        !equal_at_precision(summary.value, column.value, precision) && !restricted.has_column(column.action);
    if (add_column) restricted.add_column(column.action, game.potential(column.action));
    if (solve_and_test(false)) break;
    const auto row = timed([&] { return game.predictor_best_response(restricted.adversary()); });
    const bool add_row = !equal_at_precision(summary.value, row.value, precision) && !restricted.has_row(row.action);
    if (add_row) restricted.add_row(row.action);
    if (!add_column && !add_row) {
      summary.status = DoubleOracleStatus::stalled;  // re-labelled below if the gap certifies it
      restricted.solve();
      break;
    }
    if (options.max_iterations > 0 && summary.iterations >= options.max_iterations) {
      summary.status = DoubleOracleStatus::iteration_limit;
      restricted.solve();
      break;
    }
    if (options.max_seconds > 0.0 && elapsed() >= options.max_seconds) {
      summary.status = DoubleOracleStatus::time_limit;
      restricted.solve();
      break;
    }
  }
  // The gap of the last LP's strategies: both best responses to them.
  summary.value = restricted.equilibrium().value;
  solution.predictor = restricted.predictor();
  solution.adversary = restricted.adversary();
  summary.predictor_response_value = timed([&] { return game.predictor_best_response(solution.adversary); }).value;
  summary.adversary_response_value = timed([&] { return game.adversary_best_response(solution.predictor); }).value;
  summary.gap = summary.predictor_response_value - summary.adversary_response_value;
  if (summary.gap <= options.tolerance) summary.status = DoubleOracleStatus::converged;
  summary.predictor_actions = restricted.generated_rows();
  summary.adversary_actions = restricted.generated_columns();
  summary.lp_seconds = restricted.lp_seconds();
  summary.predictor_support = static_cast<int>(solution.predictor.size());
  summary.adversary_support = static_cast<int>(solution.adversary.size());
  summary.seconds = elapsed();
  if (options.progress) options.progress(summary);
  return solution;
}

// Solves the game. Extra seed actions (e.g. the gold labelling during training, or the previous
// equilibrium's supports as a warm start) are appended to the game's initial sets when legal.
template <class Action>
GameSolution<Action> solve_double_oracle(const Game<Action>& game,
                                         const DoubleOracleOptions& options = {},
                                         const std::vector<Action>& extra_predictor_actions = {},
                                         const std::vector<Action>& extra_adversary_actions = {}) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  auto add_unique = [](std::vector<Action>& actions, const Action& action) {
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) actions.push_back(action);
  };
  std::vector<Action> rows;
  std::vector<Action> columns;
  for (const auto& a : game.initial_predictor_actions()) add_unique(rows, a);
  for (const auto& a : extra_predictor_actions)
    if (game.is_legal_predictor_action(a)) add_unique(rows, a);
  for (const auto& a : game.initial_adversary_actions()) add_unique(columns, a);
  for (const auto& a : extra_adversary_actions)
    if (game.is_legal_adversary_action(a)) add_unique(columns, a);

  // Sub-game payoff C'(row, column) = score(row, column) - psi(column).
  Eigen::VectorXd potentials(static_cast<Eigen::Index>(columns.size()));
  for (Eigen::Index c = 0; c < potentials.size(); ++c) potentials[c] = game.potential(columns[static_cast<std::size_t>(c)]);
  // The reference's rule adds one best response per player and half-step, never prunes.
  const bool reference_rule = options.stop_rule == DoubleOracleOptions::StopRule::value_repeat;
  const RestrictedGameOptions engine =
      reference_rule ? RestrictedGameOptions{0, false, 0.0, options.lp_backend}
                     : RestrictedGameOptions{options.prune_after, options.extra_responses, options.smoothing,
                                             options.lp_backend};
  RestrictedGame<Action> restricted(game, std::move(rows), std::move(columns), potentials, engine);
  auto column_of = [&game](const Action& action) { return std::pair{game.potential(action), NoColumnData{}}; };
  if (reference_rule) return solve_until_value_repeats(game, options, restricted, start);

  GameSolution<Action> solution;
  DoubleOracleSummary& summary = solution.summary;
  // The best guarantees seen: P with the highest min_y E_P[C'] (restricted.best_predictor()), Q
  // with the lowest max_y_hat E_Q[C']. The gap between them is never larger than the current
  // strategies' gap, and a run that ends (converged or capped) returns these strategies.
  double best_upper = std::numeric_limits<double>::infinity();
  MixedStrategy<Action> best_adversary;
  for (;;) {
    ++summary.iterations;
    const MatrixGameSolution& equilibrium = restricted.solve();
    // Best responses first, then the game's further profitable actions (if enabled).
    Responses<Action> responses = restricted.respond(game);
    const BestResponse<Action>& row_response = responses.predictor.front();
    const BestResponse<Action>& column_response = responses.adversary.front();

    if (row_response.value < best_upper) {
      best_upper = row_response.value;
      best_adversary = restricted.adversary();
    }
    summary.value = equilibrium.value;
    summary.predictor_response_value = best_upper;
    summary.adversary_response_value = restricted.best_lower_bound();
    summary.gap = best_upper - restricted.best_lower_bound();
    if (options.progress) {
      summary.predictor_support = static_cast<int>(restricted.predictor().size());
      summary.adversary_support = static_cast<int>(restricted.adversary().size());
      summary.seconds = seconds_since(start);
      options.progress(summary);
    }
    if (summary.gap < -options.tolerance) {
      summary.status = DoubleOracleStatus::inconsistent;
      break;
    }
    if (summary.gap <= options.tolerance) {
      summary.status = DoubleOracleStatus::converged;
      break;
    }
    // At least one response improves on the sub-game value by more than tolerance/2.
    const double threshold = 0.5 * options.tolerance;
    const bool add_row = row_response.value > equilibrium.value + threshold && !restricted.has_row(row_response.action);
    const bool add_column =
        column_response.value < equilibrium.value - threshold && !restricted.has_column(column_response.action);
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
    if (options.max_actions > 0 && ((add_row && restricted.rows().size() >= cap) ||
                                    (add_column && restricted.columns().size() >= cap))) {
      summary.status = DoubleOracleStatus::action_limit;
      break;
    }
    // Drop actions that idled too long, then add the best responses, then the profitable
    // deviations beyond them (e.g. one per action size in use), within the action cap.
    restricted.prune();
    std::span<BestResponse<Action>> rows_out(responses.predictor), columns_out(responses.adversary);
    restricted.add_rows(rows_out.first(1), equilibrium.value + threshold, cap);
    restricted.add_columns(columns_out.first(1), equilibrium.value - threshold, cap, column_of);
    restricted.add_rows(rows_out.subspan(1), equilibrium.value + threshold, cap);
    restricted.add_columns(columns_out.subspan(1), equilibrium.value - threshold, cap, column_of);
    summary.pruned_actions = restricted.pruned_actions();
    summary.returned_actions = restricted.returned_actions();
  }
  solution.predictor = restricted.best_predictor();
  solution.adversary = std::move(best_adversary);
  summary.predictor_actions = restricted.generated_rows();
  summary.adversary_actions = restricted.generated_columns();
  summary.pruned_actions = restricted.pruned_actions();
  summary.returned_actions = restricted.returned_actions();
  summary.lp_seconds = restricted.lp_seconds();
  summary.best_response_seconds = restricted.best_response_seconds();
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
