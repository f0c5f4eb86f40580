// The joint trainer's strategies and best values over the full F1 game (joint_strategy.hpp).
#include "lib/models/binary/joint_strategy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg::joint_detail {

double kernel(long k, long l) { return 2.0 / static_cast<double>(k + l); }  // F1 = 2|y_hat . y| / (k + l)

// Makes each size's marginals exactly feasible (0 <= m_i <= weight, sum_i m_i = k weight) after
// the LP's rounding: clip, then spread the remaining difference over the entries with room.
void make_feasible(SizeStrategy& s) {
  double total = s.empty;
  for (double& w : s.weight) total += w = std::max(0.0, w);
  if (!(total > 0.0)) throw SolverError("the joint trainer's LP returned an empty strategy");
  s.empty /= total;
  for (std::size_t j = 0; j < s.sizes.size(); ++j) {
    const double w = s.weight[j] /= total;
    Eigen::VectorXd& m = s.marginal[j];
    m = (m / total).cwiseMax(0.0).cwiseMin(w);
    for (int pass = 0; pass < 3; ++pass) {
      const double missing = static_cast<double>(s.sizes[j]) * w - m.sum();
      if (std::fabs(missing) <= 1e-15 * std::max(1.0, static_cast<double>(s.sizes[j]))) break;
      const Eigen::VectorXd room = missing > 0.0 ? Eigen::VectorXd((w - m.array()).matrix()) : m;
      const double available = room.sum();
      if (!(available > 0.0)) break;
      m += std::min(1.0, std::fabs(missing) / available) * (missing > 0.0 ? 1.0 : -1.0) * room;
      m = m.cwiseMax(0.0).cwiseMin(w);
    }
  }
}

// cost[i] = sum_j kernel(sizes_j, size) marginal_j[i]: what example i adds to the expected F1 of
// an opposing action of size `size` that includes it. Sizes without weight add exactly 0: skipped.
void size_costs(const SizeStrategy& s, long size, Eigen::VectorXd& cost) {
  cost.setZero();
  for (std::size_t j = 0; j < s.sizes.size(); ++j)
    if (s.weight[j] != 0.0) cost += kernel(s.sizes[j], size) * s.marginal[j];
}

// The l examples with the smallest costs, by (cost, index). Only which rows and columns enter the
// LP depends on the index of a tie, never a bound.
std::vector<long> cheapest(const Eigen::VectorXd& cost, long l) {
  l = std::min(l, static_cast<long>(cost.size()));
  if (l <= 0) return {};
  std::vector<long> order(static_cast<std::size_t>(cost.size()));
  std::iota(order.begin(), order.end(), 0L);
  auto less = [&](long a, long b) { return cost[a] < cost[b] || (cost[a] == cost[b] && a < b); };
  std::nth_element(order.begin(), order.begin() + (l - 1), order.end(), less);
  order.resize(static_cast<std::size_t>(l));
  return order;
}

namespace {

// values[m] = min_{|y| = m} sum_{i in y} (scale cost_i(m) + offset_i), m = 1..n, cost_i(m) =
// sum_j kernel(sizes_j, m) marginal_j[i] (size_costs). Only the sizes with weight and the examples
// U where one of their marginals is non-zero vary with m; the others' terms are offset_i at every m.
// So per block of 64 sizes the costs on U are one matrix product M_U K (M_U: |U| x active sizes,
// K: kernel(sizes_j, m)), and the m smallest terms are taken (nth_element) among U's and the rest's.
// O(n |U| active + n^2) instead of O(n^2 sizes); the terms are the same, summed in another order.
//
// Lazy (`exact` given): only the sizes in `exact` and those whose lower bound is <= the best of
// `zero_value` and the values at `exact` (plus a rounding margin) are evaluated; every other size
// gets its lower bound, which is then above that best. The bound: kernel(k, m) = 2/(k + m) falls in
// m, so on a block [a, b] each term is >= its value at b (scale > 0) or at a (scale < 0), and
// values[m] >= the sum of the m smallest of those terms (one sort per block). An evaluated size
// gets exactly the value of the full computation (the same block product, the same sums).
class SmallestSums {
 public:
  SmallestSums(const SizeStrategy& s, const Eigen::VectorXd& offset, double scale)
      : s_(s), offset_(offset), scale_(scale), n_(offset.size()) {
    for (std::size_t j = 0; j < s.sizes.size(); ++j)
      if (s.weight[j] != 0.0 && (s.marginal[j].array() != 0.0).any()) active_.push_back(j);
    std::vector<char> varies(static_cast<std::size_t>(n_), 0);
    for (std::size_t j : active_)
      for (long i = 0; i < n_; ++i)
        if (s.marginal[j][i] != 0.0) varies[static_cast<std::size_t>(i)] = 1;
    for (long i = 0; i < n_; ++i) {
      if (varies[static_cast<std::size_t>(i)]) support_.push_back(i);
      else terms_.push_back(offset[i]);
    }
    rest_ = terms_.size();
    sorted_rest_ = terms_;
    std::sort(sorted_rest_.begin(), sorted_rest_.end());
    terms_.resize(static_cast<std::size_t>(n_));
    const long u = static_cast<long>(support_.size()), a = static_cast<long>(active_.size());
    m_u_.resize(u, a);
    for (long c = 0; c < a; ++c)
      for (long r = 0; r < u; ++r) m_u_(r, c) = s.marginal[active_[static_cast<std::size_t>(c)]][support_[static_cast<std::size_t>(r)]];
  }

  long block_end(long first) const { return std::min(first + kBlock, n_ + 1); }

  // The exact values of the sizes m in [first, block_end(first)) with wanted(m).
  template <class Wanted>
  void exact_block(long first, Wanted wanted, std::vector<double>& values) {
    const long b = block_end(first) - first, a = static_cast<long>(active_.size()), u = static_cast<long>(support_.size());
    k_block_.resize(a, b);
    for (long c = 0; c < b; ++c)
      for (long j = 0; j < a; ++j) k_block_(j, c) = kernel(s_.sizes[active_[static_cast<std::size_t>(j)]], first + c);
    c_block_.noalias() = m_u_ * k_block_;
    for (long c = 0; c < b; ++c) {
      const long m = first + c;
      if (!wanted(m)) continue;
      for (long r = 0; r < u; ++r)
        terms_[rest_ + static_cast<std::size_t>(r)] = scale_ * c_block_(r, c) + offset_[support_[static_cast<std::size_t>(r)]];
      work_ = terms_;
      std::nth_element(work_.begin(), work_.begin() + (m - 1), work_.end());
      values[static_cast<std::size_t>(m)] = std::accumulate(work_.begin(), work_.begin() + m, 0.0);
    }
  }

  // bound[m - first] <= values[m] for m in [first, block_end(first)).
  void bound_block(long first, std::vector<double>& bound) {
    const long last = block_end(first) - 1, u = static_cast<long>(support_.size());
    const long at = scale_ > 0.0 ? last : first;
    Eigen::VectorXd k(static_cast<long>(active_.size()));
    for (std::size_t j = 0; j < active_.size(); ++j) k[static_cast<long>(j)] = kernel(s_.sizes[active_[j]], at);
    const Eigen::VectorXd c = m_u_ * k;
    low_.resize(static_cast<std::size_t>(u));
    for (long r = 0; r < u; ++r) low_[static_cast<std::size_t>(r)] = scale_ * c[r] + offset_[support_[static_cast<std::size_t>(r)]];
    std::sort(low_.begin(), low_.end());
    bound.assign(static_cast<std::size_t>(last - first + 1), 0.0);
    // Merge the two sorted lists up to `last` terms, recording the prefix sums in the block.
    std::size_t i = 0, j = 0;
    double sum = 0.0;
    for (long m = 1; m <= last; ++m) {
      const bool from_rest = j >= low_.size() || (i < sorted_rest_.size() && sorted_rest_[i] <= low_[j]);
      sum += from_rest ? sorted_rest_[i++] : low_[j++];
      if (m >= first) bound[static_cast<std::size_t>(m - first)] = sum;
    }
  }

  static constexpr long kBlock = 64;

 private:
  const SizeStrategy& s_;
  const Eigen::VectorXd& offset_;
  double scale_;
  long n_;
  std::vector<std::size_t> active_;
  std::vector<long> support_;
  std::vector<double> terms_;  // the rest's offsets, then U's terms (rewritten per size)
  std::size_t rest_ = 0;
  std::vector<double> sorted_rest_, low_, work_;
  Eigen::MatrixXd m_u_, k_block_, c_block_;
};

std::vector<double> smallest_sums(const SizeStrategy& s, const Eigen::VectorXd& offset, double scale,
                                  double zero_value, const std::vector<long>* exact) {
  const long n = offset.size();
  std::vector<double> values(static_cast<std::size_t>(n + 1), 0.0);
  values[0] = zero_value;
  SmallestSums sums(s, offset, scale);
  if (exact == nullptr) {
    for (long first = 1; first <= n; first += SmallestSums::kBlock) sums.exact_block(first, [](long) { return true; }, values);
    return values;
  }
  std::vector<char> is_exact(static_cast<std::size_t>(n + 1), 0);
  for (long m : *exact)
    if (m >= 1 && m <= n) is_exact[static_cast<std::size_t>(m)] = 1;
  double best = zero_value;
  for (long first = 1; first <= n; first += SmallestSums::kBlock) {
    bool any = false;
    for (long m = first; m < sums.block_end(first); ++m) any = any || is_exact[static_cast<std::size_t>(m)];
    if (!any) continue;
    sums.exact_block(first, [&](long m) { return is_exact[static_cast<std::size_t>(m)] != 0; }, values);
    for (long m = first; m < sums.block_end(first); ++m)
      if (is_exact[static_cast<std::size_t>(m)]) best = std::min(best, values[static_cast<std::size_t>(m)]);
  }
  // A size is evaluated when its bound could reach `best`: then every size left at its bound lies
  // strictly above the best value and above every exact value it could tie with.
  const double limit = best + 1e-9 * (1.0 + std::fabs(best));
  std::vector<double> bound;
  for (long first = 1; first <= n; first += SmallestSums::kBlock) {
    sums.bound_block(first, bound);
    bool any = false;
    for (long m = first; m < sums.block_end(first); ++m) {
      if (is_exact[static_cast<std::size_t>(m)]) continue;
      const double b = bound[static_cast<std::size_t>(m - first)];
      values[static_cast<std::size_t>(m)] = b;
      if (b <= limit) any = true;
    }
    if (any)
      sums.exact_block(first, [&](long m) {
        return !is_exact[static_cast<std::size_t>(m)] && bound[static_cast<std::size_t>(m - first)] <= limit;
      }, values);
  }
  return values;
}

}  // namespace

std::vector<double> adversary_values(const SizeStrategy& predictor, const Eigen::VectorXd& psi,
                                     const std::vector<long>* exact_sizes) {
  return smallest_sums(predictor, -psi, 1.0, predictor.empty, exact_sizes);
}

std::vector<double> predictor_values(const SizeStrategy& adversary, const std::vector<long>* exact_sizes) {
  const long n = adversary.marginal.empty() ? 0 : adversary.marginal.front().size();
  std::vector<double> values = smallest_sums(adversary, Eigen::VectorXd::Zero(n), -1.0, -adversary.empty, exact_sizes);
  for (double& v : values) v = -v;
  return values;
}

// Sizes outside the LP that cut off its solution ("positive reduced cost" in column-generation
// terms), besides the best size `best`: those whose value beats the best value over the sizes in
// the LP (`sign` -1: the adversary's values, lower is better; +1: the predictor's, higher is
// better; size 0, the empty action, is always in the LP), best first, at most `count`, each more
// than `separation` sizes from `best` and from those taken (neighbouring sizes have nearly the
// same best actions), separation = the candidates' span / (2 count). Ties: the smaller size.
std::vector<long> violating_sizes(const std::vector<double>& values, std::vector<long> in_lp, long best, int count,
                                  double sign) {
  if (count <= 0) return {};
  in_lp.push_back(0);
  double threshold = -std::numeric_limits<double>::infinity();
  for (long s : in_lp) threshold = std::max(threshold, sign * values[static_cast<std::size_t>(s)]);
  std::vector<char> taken(values.size(), 0);
  for (long s : in_lp) taken[static_cast<std::size_t>(s)] = 1;
  std::vector<long> candidates;
  for (std::size_t s = 1; s < values.size(); ++s)
    if (!taken[s] && static_cast<long>(s) != best && sign * values[s] > threshold + 1e-12)
      candidates.push_back(static_cast<long>(s));
  if (candidates.empty()) return {};
  const auto [low, high] = std::minmax_element(candidates.begin(), candidates.end());
  const double separation = std::max(1.0, static_cast<double>(*high - *low) / (2.0 * count));
  std::sort(candidates.begin(), candidates.end(), [&](long a, long b) {
    const double va = sign * values[static_cast<std::size_t>(a)], vb = sign * values[static_cast<std::size_t>(b)];
    return va > vb || (va == vb && a < b);
  });
  std::vector<long> chosen{best};
  for (long s : candidates) {
    if (static_cast<int>(chosen.size()) > count) break;
    if (std::all_of(chosen.begin(), chosen.end(), [&](long c) { return std::fabs(static_cast<double>(s - c)) > separation; }))
      chosen.push_back(s);
  }
  chosen.erase(chosen.begin());
  return chosen;
}

}  // namespace mpg::joint_detail
