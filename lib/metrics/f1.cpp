#include "lib/metrics/f1.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "lib/metrics/size_search.hpp"

namespace mpg {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// F(g, k) = sum over the support actions containing group g of 2 q / (|y| + k).
void fill_column(const MembershipGroups& groups, double k, std::vector<double>& column) {
  column.resize(groups.group_count());
  for (std::size_t g = 0; g < groups.group_count(); ++g) {
    double f = 0.0;
    for (const auto& term : groups.terms[g]) f += 2.0 * term.weight / (term.size + k);
    column[g] = f;
  }
}

// Sorts `order` (a permutation of the groups) by `before`, a strict total order, starting from
// the order it holds: insertion sort while the order is nearly sorted (columns of nearby sizes
// rank the groups almost alike), std::sort once it has moved more than 8 entries per group. The
// result is the unique sorted permutation either way, so it does not depend on the start.
template <class Before>
void sort_from_warm_order(std::vector<std::uint32_t>& order, const Before& before) {
  const std::size_t budget = 8 * order.size();
  std::size_t moves = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    const std::uint32_t item = order[i];
    std::size_t j = i;
    for (; j > 0 && before(item, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = item;
    moves += i - j;
    if (moves > budget) {
      std::sort(order.begin(), order.end(), before);
      return;
    }
  }
}

// Predictor column k: groups sorted by F(g, k) descending, with running item counts and sums,
// so that "sum of the m largest entries" costs one binary search. `warm_order` (shared by the
// columns of one best response) holds the last column's order and starts this column's sort.
class PredictorColumn {
 public:
  PredictorColumn(const MembershipGroups& groups, std::size_t k, std::vector<std::uint32_t>& warm_order) : k_(k) {
    fill_column(groups, static_cast<double>(k), f_);
    if (warm_order.size() != f_.size()) {
      warm_order.resize(f_.size());
      std::iota(warm_order.begin(), warm_order.end(), 0u);
    }
    order_ = warm_order;
    sort_from_warm_order(order_, [&](std::uint32_t a, std::uint32_t b) {
      return f_[a] > f_[b] || (f_[a] == f_[b] && a < b);
    });
    warm_order = order_;
    cumulative_count_.reserve(order_.size());
    cumulative_sum_.reserve(order_.size());
    std::size_t count = 0;
    double sum = 0.0;
    for (auto g : order_) {
      count += groups.items[g].size();
      sum += f_[g] * static_cast<double>(groups.items[g].size());
      cumulative_count_.push_back(count);
      cumulative_sum_.push_back(sum);
    }
  }

  // Sum of the m largest entries of the column (m <= n).
  double top_sum(std::size_t m) const {
    if (m == 0) return 0.0;
    const auto pos = static_cast<std::size_t>(
        std::lower_bound(cumulative_count_.begin(), cumulative_count_.end(), m) -
        cumulative_count_.begin());
    const std::size_t before = pos == 0 ? 0 : cumulative_count_[pos - 1];
    const double sum_before = pos == 0 ? 0.0 : cumulative_sum_[pos - 1];
    return sum_before + static_cast<double>(m - before) * f_[order_[pos]];
  }

  double value() const { return top_sum(k_); }
  // Entries are >= 0 and decrease in k, so V(k') <= top_sum_k(k') <= top_sum_k(hi - 1).
  double bound_after(std::size_t hi) const { return top_sum(hi - 1); }
  double bound_before(std::size_t) const { return infinity; }

  BinaryAction action(const MembershipGroups& groups) const {
    BinaryAction chosen;
    chosen.reserve(k_);
    for (auto g : order_) {
      for (auto i : groups.items[g]) {
        if (chosen.size() == k_) break;
        chosen.push_back(i);
      }
      if (chosen.size() == k_) break;
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
  }

 private:
  std::size_t k_;
  std::vector<double> f_;
  std::vector<std::uint32_t> order_;
  std::vector<std::size_t> cumulative_count_;
  std::vector<double> cumulative_sum_;
};

// The examples in decreasing order of psi, shared by every adversary column of one best response:
// within a membership group, column entries c_i = F(g, k) - psi_i increase along this order.
struct PotentialOrder {
  const std::vector<std::uint32_t>& item_at_rank;  // rank -> example, psi decreasing (the game's)
  std::vector<double> psi_at_rank;              // psi of item_at_rank
  std::vector<double> psi_prefix;               // psi_prefix[r] = sum of psi over ranks < r
  std::vector<std::vector<std::uint32_t>> group_ranks;  // per group: its items' ranks, increasing
};

PotentialOrder order_by_potential(const MembershipGroups& groups, const std::vector<double>& psi,
                                  const std::vector<std::uint32_t>& item_at_rank) {
  PotentialOrder order{item_at_rank, {}, {}, {}};
  const std::size_t n = psi.size();
  order.psi_at_rank.resize(n);
  order.psi_prefix.assign(n + 1, 0.0);
  order.group_ranks.resize(groups.group_count());
  for (std::size_t r = 0; r < n; ++r) {
    const std::uint32_t i = item_at_rank[r];
    order.psi_at_rank[r] = psi[i];
    order.psi_prefix[r + 1] = order.psi_prefix[r] + psi[i];
    order.group_ranks[groups.group_of_item[i]].push_back(static_cast<std::uint32_t>(r));
  }
  return order;
}

// Adversary column k, negated so that the size search maximizes: entries are
// c_i = F(g(i), k) - psi_i and the column's value is -(sum of the k smallest c_i).
//
// With Delta = max_g F(g, k) - min_g F(g, k), the m smallest entries are every example whose psi
// exceeds psi_(m) + Delta (the m-th largest psi) plus the smallest entries among the examples with
// psi within Delta of psi_(m): any example with psi < psi_(m) - Delta has an entry larger than
// those of the m examples of largest psi. The sure part is summed per group from rank counts,
// so a column costs O(G log n + window) instead of O(n).
class AdversaryColumn {
 public:
  AdversaryColumn(const MembershipGroups& groups, const PotentialOrder& order,
                  const std::vector<double>& psi, std::size_t k)
      : groups_(groups), order_(order), psi_(psi), k_(k) {
    fill_column(groups, static_cast<double>(k), f_);
    const auto [low, high] = std::minmax_element(f_.begin(), f_.end());
    spread_ = *high - *low;
    value_ = -smallest_sum(k_);
  }

  double value() const { return value_; }
  double bound_after(std::size_t) const { return infinity; }
  // Entries increase as k decreases, so for lo < k' < k the k' smallest entries of column k'
  // sum to at least min_{lo < m < k} (sum of the m smallest of this column); prefix sums of
  // sorted values are convex in m, smallest where m = number of negative entries.
  double bound_before(std::size_t lo) const {
    const std::size_t m = std::clamp(negative_count(), lo + 1, k_ - 1);
    return -smallest_sum(m);
  }

  BinaryAction action() const {
    const Window w = window(k_);
    BinaryAction chosen(order_.item_at_rank.begin(),
                        order_.item_at_rank.begin() + static_cast<std::ptrdiff_t>(w.sure));
    // From the window, the k - sure smallest entries, ties broken by the smaller example index.
    std::vector<std::pair<double, std::uint32_t>> candidates;
    for (std::size_t r = w.sure; r < w.end; ++r) {
      const std::uint32_t i = order_.item_at_rank[r];
      candidates.push_back({entry(i), i});
    }
    const std::size_t needed = k_ - w.sure;
    std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(needed - 1),
                     candidates.end());
    for (std::size_t j = 0; j < needed; ++j) chosen.push_back(candidates[j].second);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
  }

 private:
  struct Window {
    std::size_t sure;  // ranks [0, sure) are certainly among the m smallest
    std::size_t end;   // ranks [sure, end) hold the rest of them
  };

  double entry(std::uint32_t i) const { return f_[groups_.group_of_item[i]] - psi_[i]; }

  Window window(std::size_t m) const {
    const auto& psi = order_.psi_at_rank;  // decreasing
    const double pivot = psi[m - 1];
    // First rank with psi <= pivot + spread, first rank with psi < pivot - spread.
    const auto sure = std::partition_point(psi.begin(), psi.end(),
                                           [&](double v) { return v > pivot + spread_; });
    const auto end = std::partition_point(sure, psi.end(),
                                          [&](double v) { return v >= pivot - spread_; });
    return {static_cast<std::size_t>(sure - psi.begin()), static_cast<std::size_t>(end - psi.begin())};
  }

  double smallest_sum(std::size_t m) const {
    const Window w = window(m);
    // Sure part: sum_g F(g, k) * |group g among ranks < sure| - sum of psi over ranks < sure.
    double total = -order_.psi_prefix[w.sure];
    for (std::size_t g = 0; g < f_.size(); ++g) {
      const auto& ranks = order_.group_ranks[g];
      const auto count = std::lower_bound(ranks.begin(), ranks.end(), w.sure) - ranks.begin();
      total += f_[g] * static_cast<double>(count);
    }
    std::vector<double>& values = scratch_;
    values.clear();
    for (std::size_t r = w.sure; r < w.end; ++r)
      values.push_back(f_[groups_.group_of_item[order_.item_at_rank[r]]] - order_.psi_at_rank[r]);
    const std::size_t needed = m - w.sure;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(needed - 1), values.end());
    return total + std::accumulate(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(needed), 0.0);
  }

  // Number of negative entries: per group, the examples with psi_i > F(g, k).
  std::size_t negative_count() const {
    std::size_t count = 0;
    const auto& psi = order_.psi_at_rank;
    for (std::size_t g = 0; g < f_.size(); ++g) {
      const auto& ranks = order_.group_ranks[g];
      count += static_cast<std::size_t>(
          std::partition_point(ranks.begin(), ranks.end(),
                               [&](std::uint32_t r) { return psi[r] > f_[g]; }) -
          ranks.begin());
    }
    return count;
  }

  const MembershipGroups& groups_;
  const PotentialOrder& order_;
  const std::vector<double>& psi_;
  std::size_t k_;
  std::vector<double> f_;
  double spread_ = 0.0;
  double value_ = 0.0;
  mutable std::vector<double> scratch_;
};

}  // namespace

double f1_score(const BinaryAction& prediction, const BinaryAction& label) {
  const std::size_t total = prediction.size() + label.size();
  if (total == 0) return 1.0;
  return 2.0 * static_cast<double>(intersection_size(prediction, label)) /
         static_cast<double>(total);
}

F1Game::F1Game(std::vector<double> potentials) : BinaryGame(std::move(potentials)) {
  item_at_rank_.resize(size());
  std::iota(item_at_rank_.begin(), item_at_rank_.end(), 0u);
  const auto& psi = this->potentials();
  std::sort(item_at_rank_.begin(), item_at_rank_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return psi[a] > psi[b] || (psi[a] == psi[b] && a < b);
  });
}

std::vector<BinaryAction> F1Game::initial_predictor_actions() const {
  return {all_zeros(), all_ones(size())};
}

std::vector<BinaryAction> F1Game::initial_adversary_actions() const {
  return {all_zeros(), all_ones(size())};
}

BestResponse<BinaryAction> F1Game::predictor_best_response(
    const MixedStrategy<BinaryAction>& adversary) const {
  return predictor_responses(adversary, {}).front();
}

BestResponse<BinaryAction> F1Game::adversary_best_response(
    const MixedStrategy<BinaryAction>& predictor) const {
  return adversary_responses(predictor, {}).front();
}

std::vector<BestResponse<BinaryAction>> F1Game::predictor_responses(
    const MixedStrategy<BinaryAction>& adversary, const MixedStrategy<BinaryAction>& own) const {
  const MembershipGroups groups = group_by_membership(adversary, size());
  // psi does not depend on y_hat (Eq. 3.11a); subtract E_Q[psi] to express values in payoff units.
  const double expected_psi = expected_potential(adversary);
  // Size 0: F1(0^n, y) = 1 only against y = 0^n.
  SizeSearchResult empty{0, groups.empty_action_probability, 0};
  std::vector<std::uint32_t> warm_order;
  const SizeSearchResult best = maximize_over_sizes(
      size(), empty, [&](std::size_t k) { return PredictorColumn(groups, k, warm_order); });
  std::vector<BestResponse<BinaryAction>> responses(1);
  if (best.size > 0) responses[0].action = PredictorColumn(groups, best.size, warm_order).action(groups);
  responses[0].value = best.value - expected_psi;
  for (std::size_t k : distinct_sizes(own)) {
    const PredictorColumn column(groups, k, warm_order);
    responses.push_back({column.action(groups), column.value() - expected_psi});
  }
  return responses;
}

std::vector<BestResponse<BinaryAction>> F1Game::adversary_responses(
    const MixedStrategy<BinaryAction>& predictor, const MixedStrategy<BinaryAction>& own) const {
  const MembershipGroups groups = group_by_membership(predictor, size());
  const PotentialOrder order = order_by_potential(groups, potentials(), item_at_rank_);
  auto column = [&](std::size_t k) { return AdversaryColumn(groups, order, potentials(), k); };
  // Size 0: E_P[F1(Y_hat, 0^n)] - psi(0^n) = P(Y_hat = 0^n).
  SizeSearchResult empty{0, -groups.empty_action_probability, 0};
  const SizeSearchResult best = maximize_over_sizes(size(), empty, column);
  std::vector<BestResponse<BinaryAction>> responses(1);
  if (best.size > 0) responses[0].action = column(best.size).action();
  responses[0].value = -best.value;
  for (std::size_t k : distinct_sizes(own)) {
    const AdversaryColumn size_k = column(k);
    responses.push_back({size_k.action(), -size_k.value()});
  }
  return responses;
}

}  // namespace mpg
