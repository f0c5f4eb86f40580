// Matrix games over a working set of actions (working_set_game.hpp).
#include "lib/game/working_set_game.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace mpg {
namespace {

class WorkingSetGame final : public GrowingMatrixGame {
 public:
  WorkingSetGame(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets, const LpBackend& inner,
                 const WorkingSetOptions& options)
      : GrowingMatrixGame(scores, offsets), options_(options), inner_(inner.new_game(scores, offsets)) {
    for (Eigen::Index i = 0; i < scores.rows(); ++i) row_places_.push_back({i, 0});
    for (Eigen::Index j = 0; j < scores.cols(); ++j) column_places_.push_back({j, 0});
    active_rows_ = scores.rows();
    active_columns_ = scores.cols();
  }

 protected:
  void lp_add_row(const Eigen::VectorXd& row_scores) override {
    row_places_.push_back({active_rows_++, 0});
    inner_->add_row(row_scores(active(column_places_)));
  }
  void lp_add_column(const Eigen::VectorXd& column_scores, double offset) override {
    column_places_.push_back({active_columns_++, 0});
    inner_->add_column(column_scores(active(row_places_)), offset);
  }
  void lp_set_offsets(const Eigen::VectorXd& offsets) override { inner_->set_offsets(offsets(active(column_places_))); }

  void lp_remove(const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& columns) override {
    // The LP keeps at least one action per player: if every active one goes, an inactive survivor
    // enters first (the game itself keeps at least one action per player).
    keep_one_active(row_places_, rows, active_rows_, [&](Eigen::Index i) { activate_row(i); });
    keep_one_active(column_places_, columns, active_columns_, [&](Eigen::Index j) { activate_column(j); });
    const auto inner_rows = inner_positions(row_places_, rows);
    const auto inner_columns = inner_positions(column_places_, columns);
    if (!inner_rows.empty() || !inner_columns.empty()) inner_->remove(inner_rows, inner_columns);
    erase(row_places_, rows, active_rows_);
    erase(column_places_, columns, active_columns_);
  }

  std::pair<Eigen::VectorXd, Eigen::VectorXd> lp_solve_strategies() override {
    const auto S = scores();
    const auto c = offsets();
    Eigen::VectorXd p, q, row_values, column_values;
    double value = 0.0;
    for (;;) {
      auto [inner_p, inner_q] = inner_->solve_weights();
      p = expand(row_places_, inner_p);  // returned as the inner backend gives them (unrounded)
      q = expand(column_places_, inner_q);
      const Eigen::VectorXd row_strategy = probabilities(p), column_strategy = probabilities(q);
      // (A q)_i = S_i q - c.q and (p^T A)_j = p^T S_j - c_j; v = the minimum over the LP's columns.
      row_values = (S * column_strategy).array() - c.dot(column_strategy);
      column_values = (row_strategy.transpose() * S).transpose() - c;
      value = std::numeric_limits<double>::infinity();
      for (std::size_t j = 0; j < column_places_.size(); ++j)
        if (column_places_[j].inner >= 0) value = std::min(value, column_values[static_cast<Eigen::Index>(j)]);
      const double tolerance = 1e-9 * (1.0 + std::abs(value));
      const auto new_rows = violators(row_places_, row_values, [&](double x) { return x - value; }, tolerance);
      const auto new_columns = violators(column_places_, column_values, [&](double x) { return value - x; }, tolerance);
      if (new_rows.empty() && new_columns.empty()) break;
      for (const Eigen::Index i : new_rows) activate_row(i);
      for (const Eigen::Index j : new_columns) activate_column(j);
    }
    retire_idle(value, row_values, column_values, (p.array() > 0.0).count(), (q.array() > 0.0).count());
    return {std::move(p), std::move(q)};
  }

 private:
  // Where an action of the game is in the inner LP (-1 = inactive), and for how many solves in a
  // row it has been strictly worse than the value.
  struct Place {
    Eigen::Index inner;
    int idle;
    int returns = 0;  // times it re-entered the LP after leaving it: each doubles its patience
  };

  // The active actions in the inner LP's order (the order they entered it).
  static std::vector<Eigen::Index> active(const std::vector<Place>& places) {
    std::vector<Eigen::Index> out;
    for (std::size_t k = 0; k < places.size(); ++k)
      if (places[k].inner >= 0) out.push_back(static_cast<Eigen::Index>(k));
    std::sort(out.begin(), out.end(), [&](Eigen::Index a, Eigen::Index b) {
      return places[static_cast<std::size_t>(a)].inner < places[static_cast<std::size_t>(b)].inner;
    });
    return out;
  }

  static Eigen::VectorXd expand(const std::vector<Place>& places, const Eigen::VectorXd& inner) {
    Eigen::VectorXd out = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(places.size()));
    for (std::size_t k = 0; k < places.size(); ++k)
      if (places[k].inner >= 0) out[static_cast<Eigen::Index>(k)] = inner[places[k].inner];
    return out;
  }

  // The inactive actions whose excess (excess(value) > tolerance) is largest, at most
  // max_activated of them, in game order; ties by game order.
  template <class Excess>
  std::vector<Eigen::Index> violators(const std::vector<Place>& places, const Eigen::VectorXd& values, Excess excess,
                                      double tolerance) const {
    std::vector<std::pair<double, Eigen::Index>> found;
    for (std::size_t k = 0; k < places.size(); ++k) {
      if (places[k].inner >= 0) continue;
      const double e = excess(values[static_cast<Eigen::Index>(k)]);
      if (e > tolerance) found.push_back({-e, static_cast<Eigen::Index>(k)});
    }
    const auto keep = std::min(found.size(), static_cast<std::size_t>(std::max(options_.max_activated, 1)));
    std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end());
    std::vector<Eigen::Index> out;
    for (std::size_t k = 0; k < keep; ++k) out.push_back(found[k].second);
    std::sort(out.begin(), out.end());
    return out;
  }

  // An inactive action enters the inner LP as its last row or column.
  void activate_row(Eigen::Index i) {
    const auto columns = active(column_places_);
    inner_->add_row(scores().row(i)(columns).transpose());
    Place& place = row_places_[static_cast<std::size_t>(i)];
    place = {active_rows_++, 0, place.returns + 1};
  }
  void activate_column(Eigen::Index j) {
    const auto rows = active(row_places_);
    inner_->add_column(scores().col(j)(rows), offsets()[j]);
    Place& place = column_places_[static_cast<std::size_t>(j)];
    place = {active_columns_++, 0, place.returns + 1};
  }

  // Actions strictly worse than the value by a margin (so the LP's row variable is nonbasic, the
  // column's slack basic) for their patience of solves leave the LP while more than min_active and
  // more than support_multiple times the player's support stay.
  void retire_idle(double value, const Eigen::VectorXd& row_values, const Eigen::VectorXd& column_values,
                   Eigen::Index row_support, Eigen::Index column_support) {
    const double margin = 1e-7 * (1.0 + std::abs(value));
    std::vector<Eigen::Index> retired_rows, retired_columns;
    collect_idle(row_places_, [&](Eigen::Index i) { return value - row_values[i]; }, margin,
                 active_rows_ - std::max<Eigen::Index>(options_.min_active, options_.support_multiple * row_support), retired_rows);
    collect_idle(column_places_, [&](Eigen::Index j) { return column_values[j] - value; }, margin,
                 active_columns_ - std::max<Eigen::Index>(options_.min_active, options_.support_multiple * column_support), retired_columns);
    if (retired_rows.empty() && retired_columns.empty()) return;
    lp_remove_inner(retired_rows, retired_columns);
  }

  // Rounds LP weights onto the simplex, as GrowingMatrixGame::solve does.
  static Eigen::VectorXd probabilities(const Eigen::VectorXd& weights) {
    Eigen::VectorXd p = weights.cwiseMax(0.0);
    const double total = p.sum();
    return total > 0.0 ? Eigen::VectorXd(p / total) : p;
  }

  template <class Slack>
  void collect_idle(std::vector<Place>& places, Slack slack, double margin, Eigen::Index can_retire,
                    std::vector<Eigen::Index>& retired) const {
    for (std::size_t k = 0; k < places.size(); ++k) {
      Place& place = places[k];
      if (place.inner < 0) continue;
      place.idle = slack(static_cast<Eigen::Index>(k)) > margin ? place.idle + 1 : 0;
      if (place.idle >= options_.idle_solves << std::min(place.returns, 20) && can_retire > 0) {
        retired.push_back(static_cast<Eigen::Index>(k));
        --can_retire;
      }
    }
  }

  // Takes active game actions out of the inner LP (they stay in the game, inactive).
  void lp_remove_inner(const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& columns) {
    inner_->remove(inner_positions(row_places_, rows), inner_positions(column_places_, columns));
    deactivate(row_places_, rows, active_rows_);
    deactivate(column_places_, columns, active_columns_);
  }

  template <class Activate>
  static void keep_one_active(const std::vector<Place>& places, const std::vector<Eigen::Index>& removed,
                              Eigen::Index active_count, Activate activate) {
    Eigen::Index removed_active = 0;
    for (const Eigen::Index k : removed) removed_active += places[static_cast<std::size_t>(k)].inner >= 0;
    if (removed_active < active_count) return;
    std::size_t next = 0;
    for (std::size_t k = 0; k < places.size(); ++k) {
      if (next < removed.size() && static_cast<std::size_t>(removed[next]) == k) {
        ++next;
        continue;
      }
      activate(static_cast<Eigen::Index>(k));  // inactive: every active one is removed
      return;
    }
  }

  // The inner positions of the active ones among game actions `which` (increasing).
  static std::vector<Eigen::Index> inner_positions(const std::vector<Place>& places,
                                                   const std::vector<Eigen::Index>& which) {
    std::vector<Eigen::Index> out;
    for (const Eigen::Index k : which)
      if (places[static_cast<std::size_t>(k)].inner >= 0) out.push_back(places[static_cast<std::size_t>(k)].inner);
    std::sort(out.begin(), out.end());
    return out;
  }

  // Marks game actions `which` inactive and renumbers the inner positions of the others.
  static void deactivate(std::vector<Place>& places, const std::vector<Eigen::Index>& which, Eigen::Index& active_count) {
    for (const Eigen::Index k : which) places[static_cast<std::size_t>(k)].inner = -1;
    renumber(places, active_count);
  }

  // Drops game actions `which` (increasing) and renumbers.
  static void erase(std::vector<Place>& places, const std::vector<Eigen::Index>& which, Eigen::Index& active_count) {
    std::vector<Place> kept;
    std::size_t next = 0;
    for (std::size_t k = 0; k < places.size(); ++k) {
      if (next < which.size() && static_cast<std::size_t>(which[next]) == k) {
        ++next;
        continue;
      }
      kept.push_back(places[k]);
    }
    places = std::move(kept);
    renumber(places, active_count);
  }

  // Inner positions follow the order in which actions entered the inner LP; after removals the
  // survivors keep their relative order.
  static void renumber(std::vector<Place>& places, Eigen::Index& active_count) {
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < places.size(); ++k)
      if (places[k].inner >= 0) order.push_back(k);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return places[a].inner < places[b].inner; });
    for (std::size_t r = 0; r < order.size(); ++r) places[order[r]].inner = static_cast<Eigen::Index>(r);
    active_count = static_cast<Eigen::Index>(order.size());
  }

  WorkingSetOptions options_;
  std::unique_ptr<GrowingMatrixGame> inner_;
  std::vector<Place> row_places_, column_places_;
  Eigen::Index active_rows_ = 0, active_columns_ = 0;
};

class WorkingSetBackend final : public LpBackend {
 public:
  WorkingSetBackend(std::unique_ptr<LpBackend> inner, const WorkingSetOptions& options)
      : inner_(std::move(inner)), options_(options) {}
  std::string name() const override { return inner_->name(); }
  std::unique_ptr<GrowingMatrixGame> new_game(const Eigen::MatrixXd& scores,
                                              const Eigen::VectorXd& offsets) const override {
    return std::make_unique<WorkingSetGame>(scores, offsets, *inner_, options_);
  }

 private:
  std::unique_ptr<LpBackend> inner_;
  WorkingSetOptions options_;
};

}  // namespace

std::unique_ptr<LpBackend> make_working_set_backend(std::unique_ptr<LpBackend> inner, const WorkingSetOptions& options) {
  return std::make_unique<WorkingSetBackend>(std::move(inner), options);
}

}  // namespace mpg
