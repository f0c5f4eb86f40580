// The restricted game of constraint generation (thesis Algorithm 1, §3.5; McMahan et al. 2003):
// the zero-sum game over the actions generated so far, solved by LP and grown by best responses
// over ALL actions of the full game. One engine for the double oracle (double_oracle.hpp) and
// the cutting-plane trainer (lib/models/binary/cutting_plane_trainer.cpp), which re-solves one
// restricted game at a moving theta. It keeps
//   - the generated actions and the LP over them (GrowingMatrixGame: each solve restarts the
//     simplex from the previous optimal basis),
//   - the pruning of actions idle for a while, with doubling patience (ActionPruning),
//   - the best responses, with the game's extra responses and the adversary's response to a
//     smoothed predictor strategy (SmoothedResponses);
// the caller decides when to stop and which responses to add. Payoffs of the restricted game are
//     C'(row, column) = score(row, column) - offset(column),
// the offset being the adversary's potential psi(column) (the double oracle), or theta . Phi of
// the column at the trainer's current theta. A column may carry data of the caller's (the
// trainer's Phi of the column), kept aligned with the columns through pruning.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/game/game.hpp"
#include "lib/game/matrix_game.hpp"

namespace mpg {

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

// Pruning of a growing restricted game: each player's actions idle (probability 0) for their
// patience of consecutive solves are dropped; an action generated again after a drop gets its
// patience doubled per earlier drop (counted by hash over both players: a collision only adds
// patience), and every patience doubles each 500 solves of one game, so drop-and-return cycles
// die out and the double oracle keeps its termination guarantee. prune_after = 0 keeps every
// action.
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
  // Advances the idle counters of a player's actions; returns those idle for at least their
  // patience times `scale` solves (patience 0 = never).
  static std::vector<Eigen::Index> update_idle(std::vector<int>& idle, const std::vector<int>& patience,
                                               const Eigen::VectorXd& probabilities, int scale) {
    std::vector<Eigen::Index> expired;
    for (std::size_t i = 0; i < idle.size(); ++i) {
      idle[i] = probabilities[static_cast<Eigen::Index>(i)] > 0.0 ? 0 : idle[i] + 1;
      const long limit = static_cast<long>(patience[i]) * scale;
      if (limit > 0 && idle[i] >= limit) expired.push_back(static_cast<Eigen::Index>(i));
    }
    return expired;
  }

  template <class Action>
  bool add(const Action& action, std::vector<int>& idle, std::vector<int>& patience) {
    const auto found = times_dropped_.find(action_hash(action));
    const bool returning = found != times_dropped_.end();
    // prune_after * 2^times, saturating far beyond any iteration count.
    const int doubled = prune_after_ <= 0 ? 0 : prune_after_ << std::min(returning ? found->second : 0, 20);
    patience.push_back(doubled);
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

struct RestrictedGameOptions {
  // Drop an action after this many consecutive solves with probability 0 (0 = keep every
  // action); see ActionPruning.
  int prune_after = 3;
  // Also ask the game for each player's further profitable actions (Game::*_responses).
  bool extra_responses = true;
  // Weight of the best-bounding predictor strategy in the smoothed strategy the adversary also
  // responds to (SmoothedResponses; 0 = off).
  double smoothing = 0.9;
  const LpBackend* lp_backend = nullptr;  // nullptr = default_lp_backend() (GLPK)
};

// Each player's responses to the restricted strategies, best response first (then the game's
// extra responses; for the adversary, last, its response to the smoothed predictor strategy).
template <class Action>
struct Responses {
  std::vector<BestResponse<Action>> predictor;
  std::vector<BestResponse<Action>> adversary;
};

struct NoColumnData {};

template <class Action, class ColumnData = NoColumnData>
class RestrictedGame {
 public:
  // The seed actions (distinct), offset(column j) = offsets[j], and the caller's data of each
  // column (default-constructed if not given). `scorer` gives score(row, column) and must outlive the restricted game (its
  // potentials are not used: a game's scores do not depend on them).
  RestrictedGame(const Game<Action>& scorer, std::vector<Action> rows, std::vector<Action> columns,
                 const Eigen::VectorXd& offsets, const RestrictedGameOptions& options,
                 std::vector<ColumnData> column_data = {})
      : scorer_(scorer),
        rows_(std::move(rows)),
        columns_(std::move(columns)),
        column_data_(std::move(column_data)),
        extra_responses_(options.extra_responses),
        pruning_(options.prune_after, rows_.size(), columns_.size()),
        smoothing_(options.smoothing),
        generated_rows_(static_cast<int>(rows_.size())),
        generated_columns_(static_cast<int>(columns_.size())) {
    column_data_.resize(columns_.size());
    Eigen::MatrixXd scores(static_cast<Eigen::Index>(rows_.size()), static_cast<Eigen::Index>(columns_.size()));
    for (Eigen::Index c = 0; c < scores.cols(); ++c)
      for (Eigen::Index r = 0; r < scores.rows(); ++r)
        scores(r, c) = scorer_.score(rows_[static_cast<std::size_t>(r)], columns_[static_cast<std::size_t>(c)]);
    const LpBackend& lp = options.lp_backend ? *options.lp_backend : default_lp_backend();
    lp_ = lp.new_game(scores, offsets);
  }

  // A new game over the same actions (the trainer's next theta): pruning's 500-solve clock and
  // the smoothing center restart. Set the new offsets with set_offsets.
  void new_game() {
    pruning_.new_game();
    smoothing_.new_game();
  }
  void set_offsets(const Eigen::VectorXd& offsets) { lp_->set_offsets(offsets); }

  // Solves the LP (warm-started) and advances the idle counters of pruning. The equilibrium and
  // its supports stay available until the next solve.
  const MatrixGameSolution& solve() {
    const auto start = std::chrono::steady_clock::now();
    equilibrium_ = lp_->solve();
    lp_seconds_ += seconds_since(start);
    predictor_ = support_of(rows_, equilibrium_.row_strategy);
    adversary_ = support_of(columns_, equilibrium_.column_strategy);
    expired_ = pruning_.expired(equilibrium_.row_strategy, equilibrium_.column_strategy);
    return equilibrium_;
  }
  const MatrixGameSolution& equilibrium() const { return equilibrium_; }
  // The supports of the last solve's strategies (actions of positive probability).
  const MixedStrategy<Action>& predictor() const { return predictor_; }
  const MixedStrategy<Action>& adversary() const { return adversary_; }

  // Both players' responses in the full `game` to the last solve's strategies (see Responses).
  Responses<Action> respond(const Game<Action>& game) {
    const auto start = std::chrono::steady_clock::now();
    Responses<Action> responses;
    responses.predictor = extra_responses_
                              ? game.predictor_responses(adversary_, predictor_)
                              : std::vector<BestResponse<Action>>{game.predictor_best_response(adversary_)};
    responses.adversary = extra_responses_
                              ? game.adversary_responses(predictor_, adversary_)
                              : std::vector<BestResponse<Action>>{game.adversary_best_response(predictor_)};
    smoothing_.add_responses(game, predictor_, responses.adversary.front().value, responses.adversary);
    best_response_seconds_ += seconds_since(start);
    return responses;
  }
  // The predictor strategy with the best guarantee min_y E_P[C'] seen in this game, and that
  // guarantee (SmoothedResponses::center).
  const MixedStrategy<Action>& best_predictor() const { return smoothing_.center(); }
  double best_lower_bound() const { return smoothing_.lower_bound(); }

  // Drops the actions that were idle for their patience at the last solve; returns how many.
  int prune() {
    const auto& [stale_rows, stale_columns] = expired_;
    if (stale_rows.empty() && stale_columns.empty()) return 0;
    pruning_.drop(rows_, stale_rows, columns_, stale_columns);
    lp_->remove(stale_rows, stale_columns);
    erase_positions(rows_, stale_rows);
    erase_positions(columns_, stale_columns);
    erase_positions(column_data_, stale_columns);
    const int dropped = static_cast<int>(stale_rows.size() + stale_columns.size());
    pruned_actions_ += dropped;
    expired_ = {};
    return dropped;
  }

  bool has_row(const Action& action) const { return contains(rows_, action); }
  bool has_column(const Action& action) const { return contains(columns_, action); }

  void add_row(Action action) {
    returned_actions_ += pruning_.add_row(action);
    ++generated_rows_;
    rows_.push_back(std::move(action));
    Eigen::VectorXd scores(static_cast<Eigen::Index>(columns_.size()));
    for (std::size_t c = 0; c < columns_.size(); ++c)
      scores[static_cast<Eigen::Index>(c)] = scorer_.score(rows_.back(), columns_[c]);
    lp_->add_row(scores);
  }
  void add_column(Action action, double offset, ColumnData data = {}) {
    returned_actions_ += pruning_.add_column(action);
    ++generated_columns_;
    columns_.push_back(std::move(action));
    column_data_.push_back(std::move(data));
    Eigen::VectorXd scores(static_cast<Eigen::Index>(rows_.size()));
    for (std::size_t r = 0; r < rows_.size(); ++r)
      scores[static_cast<Eigen::Index>(r)] = scorer_.score(rows_[r], columns_.back());
    lp_->add_column(scores, offset);
  }

  // Adds, in order, each response worth more than `above` to the predictor that is not a row yet,
  // while there are fewer than `cap` rows (0 = no cap). Returns how many were added.
  int add_rows(std::span<BestResponse<Action>> responses, double above, std::size_t cap = 0) {
    int added = 0;
    for (auto& response : responses)
      if (response.value > above && !has_row(response.action) && (cap == 0 || rows_.size() < cap)) {
        add_row(std::move(response.action));
        ++added;
      }
    return added;
  }
  // The same for the adversary: responses worth less than `below`; `column_of(action)` gives a
  // new column's offset and data as a pair.
  template <class ColumnOf>
  int add_columns(std::span<BestResponse<Action>> responses, double below, std::size_t cap, ColumnOf column_of) {
    int added = 0;
    for (auto& response : responses)
      if (response.value < below && !has_column(response.action) && (cap == 0 || columns_.size() < cap)) {
        auto [offset, data] = column_of(response.action);
        add_column(std::move(response.action), offset, std::move(data));
        ++added;
      }
    return added;
  }

  const std::vector<Action>& rows() const { return rows_; }
  const std::vector<Action>& columns() const { return columns_; }
  const std::vector<ColumnData>& column_data() const { return column_data_; }

  // Statistics over the restricted game's life.
  int generated_rows() const { return generated_rows_; }        // including pruned ones
  int generated_columns() const { return generated_columns_; }
  int pruned_actions() const { return pruned_actions_; }        // rows and columns dropped
  int returned_actions() const { return returned_actions_; }    // dropped actions generated again
  double lp_seconds() const { return lp_seconds_; }
  double best_response_seconds() const { return best_response_seconds_; }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
  static bool contains(const std::vector<Action>& actions, const Action& action) {
    return std::find(actions.begin(), actions.end(), action) != actions.end();
  }
  static MixedStrategy<Action> support_of(const std::vector<Action>& actions, const Eigen::VectorXd& probabilities) {
    MixedStrategy<Action> strategy;
    for (std::size_t i = 0; i < actions.size(); ++i) {
      if (probabilities[static_cast<Eigen::Index>(i)] > 0.0) {
        strategy.actions.push_back(actions[i]);
        strategy.probabilities.push_back(probabilities[static_cast<Eigen::Index>(i)]);
      }
    }
    return strategy;
  }

  const Game<Action>& scorer_;
  std::vector<Action> rows_;
  std::vector<Action> columns_;
  std::vector<ColumnData> column_data_;
  bool extra_responses_;
  std::unique_ptr<GrowingMatrixGame> lp_;
  ActionPruning pruning_;
  SmoothedResponses<Action> smoothing_;
  MatrixGameSolution equilibrium_;
  MixedStrategy<Action> predictor_, adversary_;
  std::pair<std::vector<Eigen::Index>, std::vector<Eigen::Index>> expired_;
  int generated_rows_ = 0, generated_columns_ = 0;
  int pruned_actions_ = 0, returned_actions_ = 0;
  double lp_seconds_ = 0.0, best_response_seconds_ = 0.0;
};

}  // namespace mpg
