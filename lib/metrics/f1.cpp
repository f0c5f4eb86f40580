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

// Predictor column k: groups sorted by F(g, k) descending, with running item counts and sums,
// so that "sum of the m largest entries" costs one binary search.
class PredictorColumn {
 public:
  PredictorColumn(const MembershipGroups& groups, std::size_t k) : k_(k) {
    fill_column(groups, static_cast<double>(k), f_);
    order_.resize(f_.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return f_[a] > f_[b] || (f_[a] == f_[b] && a < b);
    });
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

// Adversary column k, negated so that the size search maximizes: entries are
// c_i = F(g(i), k) - psi_i and the column's value is -(sum of the k smallest c_i).
class AdversaryColumn {
 public:
  AdversaryColumn(const MembershipGroups& groups, const std::vector<double>& psi, std::size_t k)
      : k_(k), c_(psi.size()) {
    std::vector<double> f;
    fill_column(groups, static_cast<double>(k), f);
    for (std::size_t i = 0; i < psi.size(); ++i) c_[i] = f[groups.group_of_item[i]] - psi[i];
    value_ = -smallest_sum(k_);
  }

  double value() const { return value_; }
  double bound_after(std::size_t) const { return infinity; }
  // Entries increase as k decreases, so for lo < k' < k the k' smallest entries of column k'
  // sum to at least the k' smallest of this column, which is at least
  // min_{lo < m < k} (sum of the m smallest) = (lo+1 smallest) + negatives among the next ones.
  double bound_before(std::size_t lo) const {
    std::vector<double>& s = scratch_;
    s = c_;
    const std::size_t first = lo + 1;
    std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(first - 1), s.end());
    double total = std::accumulate(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(first), 0.0);
    const std::size_t more = k_ - 1 - first;  // sizes first+1 .. k-1
    auto rest_begin = s.begin() + static_cast<std::ptrdiff_t>(first);
    auto negatives_end = std::partition(rest_begin, s.end(), [](double v) { return v < 0.0; });
    const auto negatives = static_cast<std::size_t>(negatives_end - rest_begin);
    if (negatives > more) {
      std::nth_element(rest_begin, rest_begin + static_cast<std::ptrdiff_t>(more), negatives_end);
      negatives_end = rest_begin + static_cast<std::ptrdiff_t>(more);
    }
    total += std::accumulate(rest_begin, negatives_end, 0.0);
    return -total;
  }

  BinaryAction action() const {
    std::vector<double>& s = scratch_;
    s = c_;
    std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(k_ - 1), s.end());
    const double kth = s[k_ - 1];
    BinaryAction chosen;
    chosen.reserve(k_);
    std::size_t below = 0;
    for (double v : c_) below += v < kth;
    std::size_t ties_allowed = k_ - below;
    for (std::size_t i = 0; i < c_.size(); ++i) {
      if (c_[i] < kth) {
        chosen.push_back(static_cast<std::uint32_t>(i));
      } else if (c_[i] == kth && ties_allowed > 0) {
        chosen.push_back(static_cast<std::uint32_t>(i));
        --ties_allowed;
      }
    }
    return chosen;
  }

 private:
  double smallest_sum(std::size_t m) const {
    std::vector<double>& s = scratch_;
    s = c_;
    std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(m - 1), s.end());
    return std::accumulate(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(m), 0.0);
  }

  std::size_t k_;
  std::vector<double> c_;
  double value_ = 0.0;
  mutable std::vector<double> scratch_;
};

// Distinct non-zero sizes of a strategy's actions.
std::vector<std::size_t> sizes_in(const MixedStrategy<BinaryAction>& strategy) {
  std::vector<std::size_t> sizes;
  for (const auto& a : strategy.actions)
    if (!a.empty()) sizes.push_back(a.size());
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

}  // namespace

double f1_score(const BinaryAction& prediction, const BinaryAction& label) {
  const std::size_t total = prediction.size() + label.size();
  if (total == 0) return 1.0;
  return 2.0 * static_cast<double>(intersection_size(prediction, label)) /
         static_cast<double>(total);
}

std::vector<BinaryAction> F1Game::initial_predictor_actions() const {
  return {all_zeros(), all_ones(size())};
}

std::vector<BinaryAction> F1Game::initial_adversary_actions() const {
  return {all_zeros(), all_ones(size())};
}

BestResponse<BinaryAction> F1Game::predictor_best_response(
    const MixedStrategy<BinaryAction>& adversary) const {
  const MembershipGroups groups = group_by_membership(adversary, size());
  // Size 0: F1(0^n, y) = 1 only against y = 0^n.
  SizeSearchResult empty{0, groups.empty_action_probability, 0};
  const SizeSearchResult best = maximize_over_sizes(
      size(), empty, [&](std::size_t k) { return PredictorColumn(groups, k); });
  BestResponse<BinaryAction> response;
  if (best.size > 0) response.action = PredictorColumn(groups, best.size).action(groups);
  // psi does not depend on y_hat (Eq. 3.11a); subtract E_Q[psi] to express it in payoff units.
  response.value = best.value - expected_potential(adversary);
  return response;
}

BestResponse<BinaryAction> F1Game::adversary_best_response(
    const MixedStrategy<BinaryAction>& predictor) const {
  const MembershipGroups groups = group_by_membership(predictor, size());
  // Size 0: E_P[F1(Y_hat, 0^n)] - psi(0^n) = P(Y_hat = 0^n).
  SizeSearchResult empty{0, -groups.empty_action_probability, 0};
  const SizeSearchResult best = maximize_over_sizes(
      size(), empty, [&](std::size_t k) { return AdversaryColumn(groups, potentials(), k); });
  BestResponse<BinaryAction> response;
  if (best.size > 0) response.action = AdversaryColumn(groups, potentials(), best.size).action();
  response.value = -best.value;
  return response;
}

std::vector<BestResponse<BinaryAction>> F1Game::predictor_extra_responses(
    const MixedStrategy<BinaryAction>& adversary,
    const MixedStrategy<BinaryAction>& predictor) const {
  const MembershipGroups groups = group_by_membership(adversary, size());
  const double expected_psi = expected_potential(adversary);
  std::vector<BestResponse<BinaryAction>> responses;
  for (std::size_t k : sizes_in(predictor)) {
    const PredictorColumn column(groups, k);
    responses.push_back({column.action(groups), column.value() - expected_psi});
  }
  return responses;
}

std::vector<BestResponse<BinaryAction>> F1Game::adversary_extra_responses(
    const MixedStrategy<BinaryAction>& predictor,
    const MixedStrategy<BinaryAction>& adversary) const {
  const MembershipGroups groups = group_by_membership(predictor, size());
  std::vector<BestResponse<BinaryAction>> responses;
  for (std::size_t k : sizes_in(adversary)) {
    const AdversaryColumn column(groups, potentials(), k);
    responses.push_back({column.action(), -column.value()});
  }
  return responses;
}

}  // namespace mpg
