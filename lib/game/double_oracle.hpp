// Double-oracle constraint generation for large zero-sum games (thesis Algorithm 1, §3.5;
// McMahan et al. 2003). The sub-game over the generated actions is solved by LP; each player's
// best response over ALL actions is then added. The game is finished only when the equilibrium
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
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/game/game.hpp"
#include "lib/game/matrix_game.hpp"

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
  // (detail::SmoothedResponses; 0 = off). 2-5x fewer iterations on F1 games at small potentials.
  double smoothing = 0.9;
  const LpBackend* lp_backend = nullptr;  // nullptr = default_lp_backend() (GLPK)
  // Called after every iteration with the summary so far (iterations, gap, bounds, supports,
  // seconds), e.g. for a progress line; empty = not called.
  std::function<void(const DoubleOracleSummary&)> progress;
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
  int predictor_actions = 0;         // rows generated (including pruned ones)
  int adversary_actions = 0;         // columns generated (including pruned ones)
  int pruned_actions = 0;            // rows and columns dropped after idling
  int returned_actions = 0;          // dropped actions generated again (each doubles its patience)
  int predictor_support = 0;         // rows with positive probability
  int adversary_support = 0;         // columns with positive probability
  double seconds = 0.0;
  double lp_seconds = 0.0;
  double best_response_seconds = 0.0;
  // The game was solved in closed form instead (P@k with the unrestricted adversary,
  // solve_precision_at_k_game): no iterations, the gap is that solution's certificate.
  bool closed_form = false;

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

// FNV-1a hash of an action's elements (actions are vectors of integers).
template <class Action>
std::uint64_t action_hash(const Action& action) {
  std::uint64_t h = 1469598103934665603ull;
  for (const auto& element : action) {
    h ^= static_cast<std::uint64_t>(element);
    h *= 1099511628211ull;
  }
  return h ^ static_cast<std::uint64_t>(action.size());
}

// Removes the entries at the (increasing) positions from a vector.
template <class T>
void erase_positions(std::vector<T>& values, const std::vector<Eigen::Index>& positions) {
  std::size_t next = 0;
  std::size_t write = 0;
  for (std::size_t read = 0; read < values.size(); ++read) {
    if (next < positions.size() && static_cast<std::size_t>(positions[next]) == read) {
      ++next;
      continue;
    }
    if (write != read) values[write] = std::move(values[read]);
    ++write;
  }
  values.resize(write);
}

// Advances the idle counters of a player's actions; returns those idle for at least their
// patience times `scale` solves (patience 0 = never).
inline std::vector<Eigen::Index> update_idle(std::vector<int>& idle, const std::vector<int>& patience,
                                             const Eigen::VectorXd& probabilities, int scale) {
  std::vector<Eigen::Index> expired;
  for (std::size_t i = 0; i < idle.size(); ++i) {
    idle[i] = probabilities[static_cast<Eigen::Index>(i)] > 0.0 ? 0 : idle[i] + 1;
    const long limit = static_cast<long>(patience[i]) * scale;
    if (limit > 0 && idle[i] >= limit) expired.push_back(static_cast<Eigen::Index>(i));
  }
  return expired;
}

// prune_after * 2^times, saturating far beyond any iteration count.
inline int doubled_patience(int prune_after, int times) {
  return prune_after <= 0 ? 0 : prune_after << std::min(times, 20);
}

// Pruning of a growing restricted game (DoubleOracleOptions::prune_after): each player's
// actions idle for their patience are dropped; an action generated again after a drop gets
// its patience doubled per earlier drop (counted by hash over both players: a collision only
// adds patience), and every patience doubles each 500 solves of one game, so drop-and-return
// cycles die out and the double oracle keeps its termination guarantee.
class ActionPruning {
 public:
  ActionPruning(int prune_after, std::size_t rows, std::size_t columns)
      : prune_after_(prune_after), row_idle_(rows, 0), column_idle_(columns, 0),
        row_patience_(rows, prune_after), column_patience_(columns, prune_after) {}

  // A new game starts (a new theta in the cutting-plane trainer): the 500-solve clock restarts.
  void new_game() {
    solves_ = 0;
    scale_ = 1;
  }

  // Called once per restricted-game solve with its strategies: advances the idle counters and
  // returns the rows and columns idle for too long (never the supports: their counters are 0).
  std::pair<std::vector<Eigen::Index>, std::vector<Eigen::Index>> expired(
      const Eigen::VectorXd& row_strategy, const Eigen::VectorXd& column_strategy) {
    if (++solves_ % 500 == 0) scale_ = std::min(scale_, 1 << 20) * 2;
    return {update_idle(row_idle_, row_patience_, row_strategy, scale_),
            update_idle(column_idle_, column_patience_, column_strategy, scale_)};
  }

  // Records the drop of the given positions of `rows` and `columns` (call before erasing them).
  template <class Action>
  void drop(const std::vector<Action>& rows, const std::vector<Eigen::Index>& stale_rows,
            const std::vector<Action>& columns, const std::vector<Eigen::Index>& stale_columns) {
    for (auto r : stale_rows) ++times_dropped_[action_hash(rows[static_cast<std::size_t>(r)])];
    for (auto c : stale_columns) ++times_dropped_[action_hash(columns[static_cast<std::size_t>(c)])];
    erase_positions(row_idle_, stale_rows);
    erase_positions(row_patience_, stale_rows);
    erase_positions(column_idle_, stale_columns);
    erase_positions(column_patience_, stale_columns);
  }

  // Registers a new last row or column; true if the action returns after a drop.
  template <class Action>
  bool add_row(const Action& action) { return add(action, row_idle_, row_patience_); }
  template <class Action>
  bool add_column(const Action& action) { return add(action, column_idle_, column_patience_); }

 private:
  template <class Action>
  bool add(const Action& action, std::vector<int>& idle, std::vector<int>& patience) {
    const auto found = times_dropped_.find(action_hash(action));
    const bool returning = found != times_dropped_.end();
    patience.push_back(returning ? doubled_patience(prune_after_, found->second) : prune_after_);
    idle.push_back(0);
    return returning;
  }

  int prune_after_;
  std::vector<int> row_idle_, column_idle_;
  std::vector<int> row_patience_, column_patience_;
  std::unordered_map<std::uint64_t, int> times_dropped_;
  long solves_ = 0;
  int scale_ = 1;
};

// The adversary's best response to a smoothed predictor strategy: Wentges' (1997) dual
// smoothing, or "in-out" column generation (Ben-Ameur & Neto 2007), carried over to the double
// oracle. Besides its best response to the predictor's current restricted-game strategy P, the
// adversary also gets its best response to
//     P_smooth = alpha * C + (1 - alpha) * P,
// where the center C is the predictor strategy with the best bound min_y E_C[C'] seen in this
// game so far (any mixed strategy's best-response value is a valid lower bound on the value, so
// a smoothed strategy that bounds better becomes the center: C is an exponential average of the
// restricted strategies). Where the restricted strategies jump between near-tied actions (F1
// games at small potentials), responses to the average point toward the equilibrium instead of
// oscillating around it. The responses to the current strategies still decide when the game is
// finished. Smoothing the predictor's responses as well was measured and is worse (bench/README).
// The center is tracked even with weight 0 (no smoothed responses then): it is the predictor
// strategy the double oracle returns.
template <class Action>
class SmoothedResponses {
 public:
  explicit SmoothedResponses(double weight) : weight_(weight) {}

  // A new game (the trainer's next theta): the old game's center and bound do not carry over.
  void new_game() {
    center_ = {};
    lower_ = -std::numeric_limits<double>::infinity();
  }

  // The best-bounding predictor strategy seen in this game (a restricted strategy or an average
  // of them) and its guarantee min_y E_C[C'].
  const MixedStrategy<Action>& center() const { return center_; }
  double lower_bound() const { return lower_; }

  // Given the restricted predictor strategy P and the value lower = min_y E_P[C'] of the
  // adversary's best response to it, appends the adversary's best response to P_smooth, valued
  // against P itself (so the caller's test "improves on the restricted-game value" applies
  // unchanged), and updates the center.
  void add_responses(const Game<Action>& game, const MixedStrategy<Action>& predictor,
                     double lower, std::vector<BestResponse<Action>>& column_responses) {
    if (weight_ > 0.0 && center_.size() > 0) {
      auto smoothed = blend(center_, predictor);
      auto response = game.adversary_best_response(smoothed);
      if (response.value > lower_) {
        lower_ = response.value;
        center_ = std::move(smoothed);
      }
      response.value = expected_payoff(game, predictor, response.action);
      column_responses.push_back(std::move(response));
    }
    if (lower > lower_) {
      lower_ = lower;
      center_ = predictor;
    }
  }

 private:
  // alpha * center + (1 - alpha) * current, equal actions merged. Weights below 1e-8 (at
  // alpha = 0.9, strategies older than ~170 updates) are dropped and the rest renormalized,
  // which bounds the support and keeps the result a mixed strategy.
  MixedStrategy<Action> blend(const MixedStrategy<Action>& center,
                              const MixedStrategy<Action>& current) const {
    MixedStrategy<Action> mixed;
    std::map<Action, std::size_t> position;
    auto put = [&](const Action& action, double probability) {
      if (probability <= 1e-8) return;
      const auto [it, fresh] = position.emplace(action, mixed.actions.size());
      if (fresh) {
        mixed.actions.push_back(action);
        mixed.probabilities.push_back(probability);
      } else {
        mixed.probabilities[it->second] += probability;
      }
    };
    for (std::size_t i = 0; i < center.size(); ++i) put(center.actions[i], weight_ * center.probabilities[i]);
    for (std::size_t i = 0; i < current.size(); ++i)
      put(current.actions[i], (1.0 - weight_) * current.probabilities[i]);
    double total = 0.0;
    for (double p : mixed.probabilities) total += p;
    for (double& p : mixed.probabilities) p /= total;
    return mixed;
  }

  // E_P[C'(Y_hat, column)], C' = score - potential(column).
  static double expected_payoff(const Game<Action>& game, const MixedStrategy<Action>& predictor,
                                const Action& column) {
    double value = 0.0;
    for (std::size_t i = 0; i < predictor.size(); ++i)
      value += predictor.probabilities[i] * game.score(predictor.actions[i], column);
    return value - game.potential(column);
  }

  double weight_;
  MixedStrategy<Action> center_;
  double lower_ = -std::numeric_limits<double>::infinity();
};

template <class Action>
bool contains(const std::vector<Action>& actions, const Action& action) {
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

template <class Action>
void add_unique(std::vector<Action>& actions, const Action& action) {
  if (!contains(actions, action)) actions.push_back(action);
}

}  // namespace detail

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
  const LpBackend& lp = options.lp_backend ? *options.lp_backend : default_lp_backend();

  std::vector<Action> rows;
  std::vector<Action> columns;
  for (const auto& a : game.initial_predictor_actions()) detail::add_unique(rows, a);
  for (const auto& a : extra_predictor_actions)
    if (game.is_legal_predictor_action(a)) detail::add_unique(rows, a);
  for (const auto& a : game.initial_adversary_actions()) detail::add_unique(columns, a);
  for (const auto& a : extra_adversary_actions)
    if (game.is_legal_adversary_action(a)) detail::add_unique(columns, a);

  // Sub-game payoff C'(row, column) = score(row, column) - psi(column): scores and offsets.
  Eigen::MatrixXd scores(static_cast<Eigen::Index>(rows.size()),
                         static_cast<Eigen::Index>(columns.size()));
  Eigen::VectorXd potentials(scores.cols());
  for (Eigen::Index c = 0; c < scores.cols(); ++c) {
    potentials[c] = game.potential(columns[c]);
    for (Eigen::Index r = 0; r < scores.rows(); ++r) scores(r, c) = game.score(rows[r], columns[c]);
  }
  const auto sub_game = lp.new_game(scores, potentials);
  detail::ActionPruning pruning(options.prune_after, rows.size(), columns.size());
  detail::SmoothedResponses<Action> smoothing(options.smoothing);
  int generated_rows = static_cast<int>(rows.size());
  int generated_columns = static_cast<int>(columns.size());

  GameSolution<Action> solution;
  DoubleOracleSummary& summary = solution.summary;
  // The best guarantees seen: P with the highest min_y E_P[C'] (smoothing.center()), Q with the
  // lowest max_y_hat E_Q[C']. The gap between them is never larger than the current strategies'
  // gap, and a run that ends (converged or capped) returns these strategies.
  double best_upper = std::numeric_limits<double>::infinity();
  MixedStrategy<Action> best_adversary;
  for (;;) {
    ++summary.iterations;
    auto t = clock::now();
    const MatrixGameSolution equilibrium = sub_game->solve();
    summary.lp_seconds += seconds_since(t);
    solution.predictor = detail::support_of(rows, equilibrium.row_strategy);
    solution.adversary = detail::support_of(columns, equilibrium.column_strategy);

    t = clock::now();
    // Best responses first, then the game's further profitable actions (if enabled).
    std::vector<BestResponse<Action>> row_responses =
        options.extra_responses
            ? game.predictor_responses(solution.adversary, solution.predictor)
            : std::vector<BestResponse<Action>>{game.predictor_best_response(solution.adversary)};
    std::vector<BestResponse<Action>> column_responses =
        options.extra_responses
            ? game.adversary_responses(solution.predictor, solution.adversary)
            : std::vector<BestResponse<Action>>{game.adversary_best_response(solution.predictor)};
    smoothing.add_responses(game, solution.predictor, column_responses.front().value,
                            column_responses);
    summary.best_response_seconds += seconds_since(t);
    BestResponse<Action>& row_response = row_responses.front();
    BestResponse<Action>& column_response = column_responses.front();

    if (row_response.value < best_upper) {
      best_upper = row_response.value;
      best_adversary = solution.adversary;
    }
    summary.value = equilibrium.value;
    summary.predictor_response_value = best_upper;
    summary.adversary_response_value = smoothing.lower_bound();
    summary.gap = best_upper - smoothing.lower_bound();
    if (options.progress) {
      summary.predictor_support = static_cast<int>(solution.predictor.size());
      summary.adversary_support = static_cast<int>(solution.adversary.size());
      summary.seconds = seconds_since(start);
      options.progress(summary);
    }
    if (summary.gap <= options.tolerance) {
      summary.status = DoubleOracleStatus::converged;
      break;
    }
    // At least one response improves on the sub-game value by more than tolerance/2.
    const double threshold = 0.5 * options.tolerance;
    const bool add_row = row_response.value > equilibrium.value + threshold &&
                         !detail::contains(rows, row_response.action);
    const bool add_column = column_response.value < equilibrium.value - threshold &&
                            !detail::contains(columns, column_response.action);
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
    // Drop actions that idled too long.
    const auto [stale_rows, stale_columns] =
        pruning.expired(equilibrium.row_strategy, equilibrium.column_strategy);
    if (!stale_rows.empty() || !stale_columns.empty()) {
      pruning.drop(rows, stale_rows, columns, stale_columns);
      sub_game->remove(stale_rows, stale_columns);
      detail::erase_positions(rows, stale_rows);
      detail::erase_positions(columns, stale_columns);
      summary.pruned_actions += static_cast<int>(stale_rows.size() + stale_columns.size());
    }
    auto add_predictor_action = [&](Action action) {
      summary.returned_actions += pruning.add_row(action);
      ++generated_rows;
      rows.push_back(std::move(action));
      Eigen::VectorXd row(sub_game->columns());
      for (Eigen::Index c = 0; c < row.size(); ++c) row[c] = game.score(rows.back(), columns[c]);
      sub_game->add_row(row);
    };
    auto add_adversary_action = [&](Action action) {
      summary.returned_actions += pruning.add_column(action);
      ++generated_columns;
      columns.push_back(std::move(action));
      Eigen::VectorXd column(sub_game->rows());
      for (Eigen::Index r = 0; r < column.size(); ++r) column[r] = game.score(rows[r], columns.back());
      sub_game->add_column(column, game.potential(columns.back()));
    };
    if (add_row) add_predictor_action(std::move(row_response.action));
    if (add_column) add_adversary_action(std::move(column_response.action));
    // Profitable deviations beyond the best responses (e.g. one per action size in use).
    for (std::size_t j = 1; j < row_responses.size(); ++j) {
      auto& extra = row_responses[j];
      if (extra.value > equilibrium.value + threshold && !detail::contains(rows, extra.action) &&
          (options.max_actions == 0 || rows.size() < cap))
        add_predictor_action(std::move(extra.action));
    }
    for (std::size_t j = 1; j < column_responses.size(); ++j) {
      auto& extra = column_responses[j];
      if (extra.value < equilibrium.value - threshold && !detail::contains(columns, extra.action) &&
          (options.max_actions == 0 || columns.size() < cap))
        add_adversary_action(std::move(extra.action));
    }
  }
  solution.predictor = smoothing.center();
  solution.adversary = std::move(best_adversary);
  summary.predictor_actions = generated_rows;
  summary.adversary_actions = generated_columns;
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
