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
std::vector<double> smallest_sums(const SizeStrategy& s, const Eigen::VectorXd& offset, double scale) {
  const long n = offset.size();
  std::vector<double> values(static_cast<std::size_t>(n + 1), 0.0);
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < s.sizes.size(); ++j)
    if (s.weight[j] != 0.0 && (s.marginal[j].array() != 0.0).any()) active.push_back(j);
  std::vector<char> varies(static_cast<std::size_t>(n), 0);
  for (std::size_t j : active)
    for (long i = 0; i < n; ++i)
      if (s.marginal[j][i] != 0.0) varies[static_cast<std::size_t>(i)] = 1;
  std::vector<long> support;
  std::vector<double> terms;  // the rest's offsets, then U's terms (rewritten per size)
  for (long i = 0; i < n; ++i) {
    if (varies[static_cast<std::size_t>(i)]) support.push_back(i);
    else terms.push_back(offset[i]);
  }
  const long u = static_cast<long>(support.size()), a = static_cast<long>(active.size());
  const std::size_t rest = terms.size();
  terms.resize(static_cast<std::size_t>(n));
  Eigen::MatrixXd m_u(u, a);
  for (long c = 0; c < a; ++c)
    for (long r = 0; r < u; ++r) m_u(r, c) = s.marginal[active[static_cast<std::size_t>(c)]][support[static_cast<std::size_t>(r)]];
  std::vector<double> work(static_cast<std::size_t>(n));
  constexpr long kBlock = 64;
  Eigen::MatrixXd k_block, c_block;
  for (long first = 1; first <= n; first += kBlock) {
    const long b = std::min(kBlock, n - first + 1);
    k_block.resize(a, b);
    for (long c = 0; c < b; ++c)
      for (long j = 0; j < a; ++j) k_block(j, c) = kernel(s.sizes[active[static_cast<std::size_t>(j)]], first + c);
    c_block.noalias() = m_u * k_block;
    for (long c = 0; c < b; ++c) {
      const long m = first + c;
      for (long r = 0; r < u; ++r)
        terms[rest + static_cast<std::size_t>(r)] = scale * c_block(r, c) + offset[support[static_cast<std::size_t>(r)]];
      work = terms;
      std::nth_element(work.begin(), work.begin() + (m - 1), work.end());
      values[static_cast<std::size_t>(m)] = std::accumulate(work.begin(), work.begin() + m, 0.0);
    }
  }
  return values;
}

}  // namespace

// The adversary's best value at every size l = 0..n against the predictor P and potentials psi:
// values[l] = min_{|y| = l} E_P[F1(Y_hat, y)] - psi(y) (values[0] = P(empty)).
std::vector<double> adversary_values(const SizeStrategy& predictor, const Eigen::VectorXd& psi) {
  std::vector<double> values = smallest_sums(predictor, -psi, 1.0);
  values[0] = predictor.empty;
  return values;
}

// The predictor's best value at every size k = 0..n against the adversary Q:
// values[k] = max_{|y_hat| = k} E_Q[F1(y_hat, Y)] (values[0] = Q(empty)).
std::vector<double> predictor_values(const SizeStrategy& adversary) {
  const long n = adversary.marginal.empty() ? 0 : adversary.marginal.front().size();
  std::vector<double> values = smallest_sums(adversary, Eigen::VectorXd::Zero(n), -1.0);
  for (double& v : values) v = -v;
  values[0] = adversary.empty;
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
