// The F1 game over segment-affine marginals (lib/metrics/f1_segment_solver.hpp). Notation:
// examples are ranked by psi descending (ties: smaller index first); segment s holds the ranks
// [first_s, end_s), n_s of them, with psi_i = mean_s + scale_s t_i (scale_s = 0 when the psi
// are equal, then t_i = 0). One player's strategy: the empty action with probability e, size k_j
// with probability w_j, and P(example i positive, size k_j) = c_sj + d_sj t_i for i in s.
//
// The restricted game's LP (the predictor's maxmin; sizes K and L of the two players):
//   max z  over r_0, r_j >= 0, A_sj, B_sj, and for each adversary size l_m: mu_m, rho >= 0
//   sum_j r_j + r_0 = 1;   sum_s (n_s A_sj + T1_s B_sj) = k_j r_j;
//   0 <= A_sj + t B_sj <= r_j at t = tmin_s, tmax_s   (the columns are these two end values,
//                                                      so the lower limits are column bounds);
//   z <= r_0                                                   (adversary's empty action: s_0)
//   z <= l_m mu_m - sum_s n_s (rho3_sm + rho4_sm)              (adversary's size l_m: s_m)
//   mu_m + rho1 + rho2 - rho3 - rho4 = a_sm + b_sm T1_s/n_s                  (dual: n_s s_m C)
//   (T1_s/n_s) mu_m + tmin (rho1 - rho3) + tmax (rho2 - rho4) = a_sm T1_s/n_s + b_sm T2_s/n_s (n_s s_m D)
// with a_sm = sum_j 2 A_sj/(k_j+l_m) - mean_s, b_sm = sum_j 2 B_sj/(k_j+l_m) - scale_s, T1_s and
// T2_s the sums of t and t^2 over s: the last two rows are the LP dual of the adversary's
// min over x = C_s + D_s t in [0, 1] with sum x = l_m of the expected payoff (per-example
// multipliers rho = rho_s / n_s). The adversary's strategy is read from the duals.
#include "lib/metrics/f1_segment_solver.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <tuple>

#include "lib/base/error.hpp"
#include "lib/metrics/f1_marginal_rounds.hpp"

namespace mpg {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double kernel(long k, long l) { return 2.0 / static_cast<double>(k + l); }  // F1 = 2|y^ y|/(k+l)
constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Segment {
  long first = 0, end = 0;
  double mean = 0.0, scale = 0.0;   // psi_i = mean + scale t_i
  double t_min = 0.0, t_max = 0.0;  // t at the segment's last and first rank
  double sum_t = 0.0, sum_t2 = 0.0;
  long size() const { return end - first; }
  bool constant() const { return scale == 0.0; }
};

// Potentials in rank order, the segments, and t per rank with prefix sums.
class Segmentation {
 public:
  std::vector<double> psi;         // descending
  std::vector<std::size_t> order;  // order[rank] = index in the input
  std::vector<Segment> segments;
  std::vector<double> t, prefix_t;     // prefix_t[r] = t_0 + ... + t_{r-1}
  std::vector<long> segment_of_rank;

  explicit Segmentation(const std::vector<double>& potentials) : order(potentials.size()) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return potentials[x] > potentials[y]; });
    for (std::size_t i : order) psi.push_back(potentials[i]);
  }
  long n() const { return static_cast<long>(psi.size()); }

  // Rebuilds the segments from their boundaries (sorted ranks, 0 and n included).
  void set_cuts(std::vector<long> cuts) {
    cuts.push_back(0);
    cuts.push_back(n());
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    cuts.erase(std::remove_if(cuts.begin(), cuts.end(), [&](long c) { return c < 0 || c > n(); }), cuts.end());
    segments.clear();
    t.assign(psi.size(), 0.0);
    segment_of_rank.assign(psi.size(), 0);
    for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
      Segment s;
      s.first = cuts[j];
      s.end = cuts[j + 1];
      double total = 0.0;
      for (long r = s.first; r < s.end; ++r) total += psi[r];
      s.mean = total / static_cast<double>(s.size());
      for (long r = s.first; r < s.end; ++r) s.scale = std::max(s.scale, std::abs(psi[r] - s.mean));
      if (psi[s.first] == psi[s.end - 1]) s.scale = 0.0;
      for (long r = s.first; r < s.end; ++r) {
        t[r] = s.constant() ? 0.0 : (psi[r] - s.mean) / s.scale;
        s.sum_t += t[r];
        s.sum_t2 += t[r] * t[r];
        segment_of_rank[r] = static_cast<long>(segments.size());
      }
      s.t_max = t[s.first];
      s.t_min = t[s.end - 1];
      segments.push_back(s);
    }
    prefix_t.assign(psi.size() + 1, 0.0);
    std::partial_sum(t.begin(), t.end(), prefix_t.begin() + 1);
  }

  std::vector<long> cuts() const {
    std::vector<long> out;
    for (const auto& s : segments) out.push_back(s.first);
    out.push_back(n());
    return out;
  }
};

// One player's strategy (see the file comment); coefficient (s, j) at [s * sizes.size() + j].
struct SegmentStrategy {
  double empty = 0.0;
  std::vector<long> sizes;
  std::vector<double> weight, c, d;
  std::size_t m() const { return sizes.size(); }
  double at(const Segmentation& g, long rank, std::size_t j) const {
    const std::size_t x = static_cast<std::size_t>(g.segment_of_rank[rank]) * m() + j;
    return c[x] + d[x] * g.t[rank];
  }
};

// Makes a strategy from an LP solution exactly feasible (GLPK's tolerances let it stray by
// ~1e-9), so that the bounds computed from it are exact: weights >= 0 summing to 1 with the empty
// action, and per size conditional marginals in [0, 1] (clamped at the segment ends, where an
// affine function is extreme) summing to the size (moved towards 1 or 0 by one affine map).
void make_feasible(SegmentStrategy& x, const Segmentation& g) {
  x.empty = std::max(0.0, x.empty);
  double total = x.empty;
  for (double& w : x.weight) total += (w = std::max(0.0, w));
  x.empty /= total;
  const std::size_t m = x.m();
  for (std::size_t j = 0; j < m; ++j) {
    double& w = x.weight[j];
    w /= total;
    if (w <= 0.0) {
      for (std::size_t s = 0; s < g.segments.size(); ++s) x.c[s * m + j] = x.d[s * m + j] = 0.0;
      continue;
    }
    double sum = 0.0;
    for (std::size_t s = 0; s < g.segments.size(); ++s) {
      const Segment& seg = g.segments[s];
      double& c = x.c[s * m + j];
      double& d = x.d[s * m + j];
      c /= w;
      d /= w;
      if (seg.constant() || seg.t_max == seg.t_min) {
        c = std::clamp(c + d * seg.t_max, 0.0, 1.0);
        d = 0.0;
      } else {
        const double high = std::clamp(c + d * seg.t_max, 0.0, 1.0), low = std::clamp(c + d * seg.t_min, 0.0, 1.0);
        d = (high - low) / (seg.t_max - seg.t_min);
        c = high - d * seg.t_max;
      }
      sum += c * static_cast<double>(seg.size()) + d * seg.sum_t;
    }
    const double k = static_cast<double>(x.sizes[j]), n = static_cast<double>(g.n());
    double shift = 0.0, factor = 1.0;  // x -> shift + factor x
    if (sum < k) {
      shift = (k - sum) / (n - sum);
      factor = 1.0 - shift;
    } else if (sum > k) {
      factor = k / sum;
    }
    for (std::size_t s = 0; s < g.segments.size(); ++s) {
      x.c[s * m + j] = w * (shift + factor * x.c[s * m + j]);
      x.d[s * m + j] = w * factor * x.d[s * m + j];
    }
  }
}

// Per segment, the costs alpha_s + beta_s t_i of its examples; the sum of the `count` smallest
// over all examples, found by bisection on a threshold (each segment's costs are monotone in the
// rank, so counting those at most a threshold is a binary search).
struct AffineCosts {
  std::vector<double> alpha, beta;
};

class SmallestSums {
 public:
  explicit SmallestSums(const Segmentation& g) : g_(g) {}

  // Number and sum of the costs <= tau, and per segment the rank range [lo, hi) they occupy.
  void at_most(const AffineCosts& costs, double tau, long& count, double& sum,
               std::vector<std::pair<long, long>>* ranges = nullptr) const {
    count = 0;
    sum = 0.0;
    if (ranges) ranges->clear();
    for (std::size_t s = 0; s < g_.segments.size(); ++s) {
      const Segment& seg = g_.segments[s];
      const double a = costs.alpha[s], b = costs.beta[s];
      long lo = seg.first, hi = seg.first;
      if (b == 0.0 || seg.constant()) {
        if (a <= tau) hi = seg.end;
      } else {
        const auto begin = g_.t.begin() + seg.first, end = g_.t.begin() + seg.end;  // t descending
        if (b > 0.0) {  // cost rises with t: the costs <= tau are a suffix
          lo = seg.first + (std::partition_point(begin, end, [&](double t) { return a + b * t > tau; }) - begin);
          hi = seg.end;
        } else {  // a prefix
          hi = seg.first + (std::partition_point(begin, end, [&](double t) { return a + b * t <= tau; }) - begin);
        }
      }
      count += hi - lo;
      sum += a * static_cast<double>(hi - lo) + b * (g_.prefix_t[hi] - g_.prefix_t[lo]);
      if (ranges) ranges->push_back({lo, hi});
    }
  }

  // The sum of the `wanted` smallest costs; low and high bracket the wanted-th smallest:
  // count(low) < wanted <= count(high).
  double sum(const AffineCosts& costs, long wanted, double* low_out = nullptr, double* high_out = nullptr) const {
    double low = kInfinity, high = -kInfinity;
    for (std::size_t s = 0; s < g_.segments.size(); ++s) {
      const Segment& seg = g_.segments[s];
      for (double t : {seg.t_min, seg.t_max}) {
        const double x = costs.alpha[s] + costs.beta[s] * t;
        low = std::min(low, x);
        high = std::max(high, x);
      }
    }
    low = std::nextafter(low, -kInfinity);
    long count;
    double total;
    at_most(costs, high, count, total);
    if (count < wanted) high = std::nextafter(high, kInfinity);  // rounding at the ends
    for (;;) {
      const double middle = low + (high - low) / 2.0;
      if (!(middle > low && middle < high)) break;
      at_most(costs, middle, count, total);
      if (count == wanted) {
        if (low_out) *low_out = low;
        if (high_out) *high_out = middle;
        return total;
      }
      (count > wanted ? high : low) = middle;
    }
    at_most(costs, low, count, total);
    if (low_out) *low_out = low;
    if (high_out) *high_out = high;
    return total + static_cast<double>(wanted - count) * high;
  }

 private:
  const Segmentation& g_;
};

struct SizeValue {
  double value;
  long size;
};

// The adversary's costs at size l against a predictor strategy (Eq. 3.12):
// sum_j 2 p_ij/(k_j + l) - psi_i.
AffineCosts adversary_costs(const Segmentation& g, const SegmentStrategy& p, long l) {
  AffineCosts out{std::vector<double>(g.segments.size()), std::vector<double>(g.segments.size())};
  const std::size_t m = p.m();
  for (std::size_t s = 0; s < g.segments.size(); ++s) {
    double a = -g.segments[s].mean, b = -g.segments[s].scale;
    for (std::size_t j = 0; j < m; ++j) {
      a += kernel(p.sizes[j], l) * p.c[s * m + j];
      b += kernel(p.sizes[j], l) * p.d[s * m + j];
    }
    out.alpha[s] = a;
    out.beta[s] = b;
  }
  return out;
}

// The predictor's negated gains at size k against an adversary strategy (Eq. 3.11):
// -sum_l 2 q_il/(k + l), so that its best k examples are the k smallest.
AffineCosts predictor_costs(const Segmentation& g, const SegmentStrategy& q, long k) {
  AffineCosts out{std::vector<double>(g.segments.size()), std::vector<double>(g.segments.size())};
  const std::size_t m = q.m();
  for (std::size_t s = 0; s < g.segments.size(); ++s) {
    double a = 0.0, b = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      a -= kernel(k, q.sizes[j]) * q.c[s * m + j];
      b -= kernel(k, q.sizes[j]) * q.d[s * m + j];
    }
    out.alpha[s] = a;
    out.beta[s] = b;
  }
  return out;
}

// min over sizes 1..n of f(size) = sum of the `size` smallest of costs(size), exact for every
// size that can be among the `wanted` smallest values, in increasing order of value. Costs are
// monotone in the size (both players' kernels fall as the size grows, marginals are >= 0), so
// the costs at one end of a block of 64 sizes (`at_last`: the block's last size when costs fall
// with the size) bound f on the block from below: the sum of the `size` smallest of fixed costs
// is convex in the size, least where the size is the number of costs <= 0 (clamped).
// If by_size is given, (*by_size)[size] receives f(size) where it was evaluated and its block's
// lower bound elsewhere (sizes 1..n; the vector has n + 1 entries).
template <class Costs>
std::vector<SizeValue> smallest_values(const Segmentation& g, const SmallestSums& sums, Costs costs, bool at_last,
                                       std::size_t wanted, std::vector<double>* by_size = nullptr) {
  constexpr long kBlock = 64;
  struct Block {
    double bound;
    long first, last;
  };
  std::vector<Block> blocks;
  for (long first = 1; first <= g.n(); first += kBlock) {
    const long last = std::min(g.n(), first + kBlock - 1);
    const AffineCosts fixed = costs(at_last ? last : first);
    long nonpositive;
    double unused;
    sums.at_most(fixed, 0.0, nonpositive, unused);
    blocks.push_back({sums.sum(fixed, std::clamp(nonpositive, first, last)), first, last});
    if (by_size) {
      by_size->resize(static_cast<std::size_t>(g.n() + 1), 0.0);
      std::fill(by_size->begin() + first, by_size->begin() + last + 1, blocks.back().bound);
    }
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block& x, const Block& y) { return x.bound < y.bound; });
  std::vector<SizeValue> values;
  auto by_value = [](const SizeValue& x, const SizeValue& y) { return x.value < y.value; };
  for (const auto& block : blocks) {
    if (values.size() >= wanted) {
      std::nth_element(values.begin(), values.begin() + static_cast<long>(wanted - 1), values.end(), by_value);
      if (block.bound >= values[wanted - 1].value) break;
    }
    for (long size = block.first; size <= block.last; ++size) {
      values.push_back({sums.sum(costs(size), size), size});
      if (by_size) (*by_size)[static_cast<std::size_t>(size)] = values.back().value;
    }
  }
  std::sort(values.begin(), values.end(), by_value);
  return values;
}

// E_Q[psi(Y)] of an adversary strategy.
double expected_potential(const Segmentation& g, const SegmentStrategy& q) {
  double total = 0.0;
  const std::size_t m = q.m();
  for (std::size_t s = 0; s < g.segments.size(); ++s) {
    const Segment& seg = g.segments[s];
    for (std::size_t j = 0; j < m; ++j)
      total += q.c[s * m + j] * (seg.mean * static_cast<double>(seg.size()) + seg.scale * seg.sum_t) +
               q.d[s * m + j] * (seg.mean * seg.sum_t + seg.scale * seg.sum_t2);
  }
  return total;
}

// Where a best response (given per segment by the rank range of its examples) is neither all in
// nor all out of a segment whose costs are not flat, the boundaries of that range.
void collect_cuts(const Segmentation& g, const AffineCosts& costs, const std::vector<std::pair<long, long>>& low,
                  const std::vector<std::pair<long, long>>& high, std::vector<long>& cuts) {
  for (std::size_t s = 0; s < g.segments.size(); ++s) {
    const Segment& seg = g.segments[s];
    if (seg.constant()) continue;
    const double spread = std::abs(costs.beta[s]) * (seg.t_max - seg.t_min);
    if (!(spread > 1e-13 * (1.0 + std::abs(costs.alpha[s])))) continue;  // flat: any part is as good
    for (const auto* ranges : {&low, &high})
      for (long r : {(*ranges)[s].first, (*ranges)[s].second})
        if (r > seg.first && r < seg.end) cuts.push_back(r);
  }
}

// The restricted game as a GLPK LP, built each round (segments and fixings change), started
// from the last round's basis where that is still a basis. No solution: out_of_time says
// whether the time ran out (else every start failed).
struct RestrictedSolution {
  double value = 0.0;
  SegmentStrategy predictor, adversary;
  int rows = 0;
};

// The last restricted LP's basis, each row's and column's status stored under what it stands
// for (kind, then segment by its first rank and/or size), so that the next round's LP starts
// from it: its new rows (new sizes, the second half of a split segment) start basic and its new
// columns at a bound; a segment split keeps its first half's statuses. The count of basic
// variables is repaired; a singular basis falls back to GLPK's standard one.
class LpBasis {
 public:
  using Key = std::tuple<int, long, long>;

  // Sets P's statuses from the stored ones; false if nothing is stored.
  bool restore(glp_prob* P, const std::vector<Key>& row_keys, const std::vector<Key>& column_keys) const {
    if (status_.empty()) return false;
    const int rows = glp_get_num_rows(P), columns = glp_get_num_cols(P);
    int basic = 0;
    for (int i = 1; i <= rows; ++i) {
      const auto at = status_.find(row_keys[static_cast<std::size_t>(i)]);
      const int status = at == status_.end() ? GLP_BS : at->second;
      glp_set_row_stat(P, i, status);
      basic += status == GLP_BS;
    }
    for (int j = 1; j <= columns; ++j) {
      const auto at = status_.find(column_keys[static_cast<std::size_t>(j)]);
      const int status = at == status_.end() ? GLP_NS : at->second;  // GLPK picks the bound
      glp_set_col_stat(P, j, status);
      basic += status == GLP_BS;
    }
    // As many basic variables as rows: rows' auxiliaries in or columns out, from the end.
    for (int i = rows; i >= 1 && basic < rows; --i)
      if (glp_get_row_stat(P, i) != GLP_BS) {
        glp_set_row_stat(P, i, GLP_BS);
        ++basic;
      }
    for (int j = columns; j >= 1 && basic > rows; --j)
      if (glp_get_col_stat(P, j) == GLP_BS) {
        glp_set_col_stat(P, j, GLP_NS);
        --basic;
      }
    return glp_factorize(P) == 0;
  }

  void save(glp_prob* P, const std::vector<Key>& row_keys, const std::vector<Key>& column_keys) {
    status_.clear();
    for (int i = 1; i <= glp_get_num_rows(P); ++i) status_[row_keys[static_cast<std::size_t>(i)]] = glp_get_row_stat(P, i);
    for (int j = 1; j <= glp_get_num_cols(P); ++j)
      status_[column_keys[static_cast<std::size_t>(j)]] = glp_get_col_stat(P, j);
  }

 private:
  std::map<Key, int> status_;
};

struct GlpDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

// Payoffs enter the LP multiplied by payoff_scale (the value is divided back): GLPK's tolerances
// are absolute for small numbers, and at a learned theta the costs F1 terms 2/(k+l) and psi are
// ~1e-4..1e-3 while the value needs 1e-6 over thousands of examples.
// Per size of each player and per segment: +1 if the size's marginals are fixed at 1 there (all
// in: the marginal is the size's weight), -1 if fixed at 0, 0 if free (the affine c + d t). A
// size's band of mixing examples is narrow, so fixing the segments outside it keeps the LP's
// rows about linear in the number of sizes instead of sizes x segments.
struct Fixings {
  std::map<long, std::vector<signed char>> predictor, adversary;
  static int at(const std::map<long, std::vector<signed char>>& side, long size, std::size_t segment) {
    const auto it = side.find(size);
    return it == side.end() || segment >= it->second.size() ? 0 : it->second[segment];
  }
};

std::optional<RestrictedSolution> solve_restricted(const Segmentation& g, const std::vector<long>& K,
                                                   const std::vector<long>& L, double seconds_left,
                                                   double payoff_scale, LpBasis& basis, const Fixings& fix,
                                                   bool& out_of_time) {
  out_of_time = false;
  const auto built_from = Clock::now();
  const double F = payoff_scale;
  std::unique_ptr<glp_prob, GlpDeleter> lp(glp_create_prob());
  glp_prob* P = lp.get();
  glp_set_obj_dir(P, GLP_MAX);
  std::map<std::pair<int, int>, double> entries;  // (row, column) -> coefficient, summed
  auto put = [&](int row, int column, double x) { entries[{row, column}] += x; };
  // Every row and column is named by what it stands for (LpBasis::Key), in GLPK's order.
  std::vector<LpBasis::Key> row_keys{{}}, column_keys{{}};
  auto column = [&](int kind, LpBasis::Key key) {
    const int j = glp_add_cols(P, 1);
    glp_set_col_bnds(P, j, kind, 0.0, 0.0);
    column_keys.push_back(key);
    return j;
  };
  auto row = [&](int kind, double lo, double up, LpBasis::Key key) {
    const int i = glp_add_rows(P, 1);
    glp_set_row_bnds(P, i, kind, lo, up);
    row_keys.push_back(key);
    return i;
  };
  const std::size_t S = g.segments.size(), nk = K.size(), nl = L.size();
  const int z = column(GLP_FR, {100, 0, 0});
  glp_set_obj_coef(P, z, 1.0);
  const int r0 = column(GLP_LO, {101, 0, 0});
  const int one = row(GLP_FX, 1.0, 1.0, {0, 0, 0});
  put(one, r0, 1.0);
  std::vector<int> r(nk), A(S * nk), B(S * nk, 0);
  // a A_x + b B_x into a row, with A = (t_max u - t_min v) / (t_max - t_min) and
  // B = (v - u) / (t_max - t_min) in the columns u = A[x], v = B[x] (just a u if B[x] = 0).
  auto put_affine = [&](int at_row, std::size_t x, double a, double b) {
    if (!B[x]) {
      put(at_row, A[x], a);
      return;
    }
    const Segment& seg = g.segments[x / nk];
    const double width = seg.t_max - seg.t_min;
    put(at_row, A[x], (a * seg.t_max - b) / width);
    put(at_row, B[x], (b - a * seg.t_min) / width);
  };
  for (std::size_t j = 0; j < nk; ++j) {
    r[j] = column(GLP_LO, {102, K[j], 0});
    put(one, r[j], 1.0);
    const int sum = row(GLP_FX, 0.0, 0.0, {1, K[j], 0});  // (sum_s n_s A + T1 B) / k - r = 0
    const double k = static_cast<double>(K[j]);
    put(sum, r[j], -1.0);
    for (std::size_t s = 0; s < S; ++s) {
      const Segment& seg = g.segments[s];
      const std::size_t x = s * nk + j;
      const int fixed = Fixings::at(fix.predictor, K[j], s);
      if (fixed > 0) put(sum, r[j], static_cast<double>(seg.size()) / k);
      if (fixed != 0) continue;
      // The columns are the marginals at the segment's ends, u = A + t_min B and v = A + t_max B
      // (one, u = A, on a segment of equal psi): 0 <= u, v are bounds, u, v <= r_j rows.
      A[x] = column(GLP_LO, {103, seg.first, K[j]});
      if (!seg.constant() && seg.t_max > seg.t_min) B[x] = column(GLP_LO, {104, seg.first, K[j]});
      put_affine(sum, x, static_cast<double>(seg.size()) / k, seg.sum_t / k);
      for (const int end : {A[x], B[x]}) {
        if (end == 0) continue;
        const int up = row(GLP_UP, 0.0, 0.0, {end == A[x] ? 2 : 4, seg.first, K[j]});
        put(up, end, 1.0);
        put(up, r[j], -1.0);
      }
    }
  }
  const int empty_row = row(GLP_UP, 0.0, 0.0, {7, 0, 0});  // z - r_0 <= 0
  put(empty_row, z, 1.0);
  put(empty_row, r0, -F);
  std::vector<int> value_row(nl), c_row(S * nl), d_row(S * nl, 0);
  // -sum_j 2/(k_j + l_m) (a A_sj + b B_sj) into a row (A_sj = r_j, B_sj = 0 where fixed in).
  auto predictor_terms = [&](int at_row, std::size_t s, std::size_t m, double a, double b) {
    for (std::size_t j = 0; j < nk; ++j) {
      const double kk = F * kernel(K[j], L[m]);
      const int fixed = Fixings::at(fix.predictor, K[j], s);
      if (fixed > 0) put(at_row, r[j], -kk * a);
      if (fixed != 0) continue;
      put_affine(at_row, s * nk + j, -kk * a, -kk * b);
    }
  };
  for (std::size_t m = 0; m < nl; ++m) {
    const double l = static_cast<double>(L[m]);
    value_row[m] = row(GLP_UP, 0.0, 0.0, {8, L[m], 0});
    const int mu = column(GLP_FR, {105, L[m], 0});
    put(value_row[m], z, 1.0);
    put(value_row[m], mu, -l);
    double rhs = 0.0;
    for (std::size_t s = 0; s < S; ++s) {
      const Segment& seg = g.segments[s];
      const double ns = static_cast<double>(seg.size()), t1 = seg.sum_t / ns, t2 = seg.sum_t2 / ns;
      const std::size_t x = s * nl + m;
      const int fixed = Fixings::at(fix.adversary, L[m], s);
      if (fixed < 0) continue;
      if (fixed > 0) {  // y = 1 on s: its costs' sum enters the value row, its size the mu's
        put(value_row[m], mu, ns);
        rhs -= F * (seg.mean * ns + seg.scale * seg.sum_t);
        predictor_terms(value_row[m], s, m, ns, seg.sum_t);
        continue;
      }
      c_row[x] = row(GLP_FX, -F * (seg.mean + t1 * seg.scale), -F * (seg.mean + t1 * seg.scale), {9, seg.first, L[m]});
      put(c_row[x], mu, 1.0);
      predictor_terms(c_row[x], s, m, 1.0, t1);
      const int rho1 = column(GLP_LO, {106, seg.first, L[m]}), rho3 = column(GLP_LO, {107, seg.first, L[m]});  // x >= 0, x <= 1 at t_min
      put(c_row[x], rho1, 1.0);
      put(c_row[x], rho3, -1.0);
      put(value_row[m], rho3, ns);
      if (seg.constant()) continue;
      const int rho2 = column(GLP_LO, {108, seg.first, L[m]}), rho4 = column(GLP_LO, {109, seg.first, L[m]});  // at t_max
      put(c_row[x], rho2, 1.0);
      put(c_row[x], rho4, -1.0);
      put(value_row[m], rho4, ns);
      d_row[x] = row(GLP_FX, -F * (seg.mean * t1 + seg.scale * t2), -F * (seg.mean * t1 + seg.scale * t2), {10, seg.first, L[m]});
      put(d_row[x], mu, t1);
      put(d_row[x], rho1, seg.t_min);
      put(d_row[x], rho3, -seg.t_min);
      put(d_row[x], rho2, seg.t_max);
      put(d_row[x], rho4, -seg.t_max);
      predictor_terms(d_row[x], s, m, t1, t2);
    }
    glp_set_row_bnds(P, value_row[m], GLP_UP, 0.0, rhs);
  }
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  for (const auto& [at, x] : entries)
    if (std::abs(x) >= 1e-15) {  // rounding noise (e.g. the sum of a centred t)
      ia.push_back(at.first);
      ja.push_back(at.second);
      ar.push_back(x);
    }
  glp_load_matrix(P, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_term_out(GLP_OFF);
  // Equilibration only: GLPK's automatic scaling let the simplex report an infeasible point as
  // optimal on some of these LPs (small random games of the tests).
  glp_scale_prob(P, GLP_SF_EQ);
  glp_smcp settings;
  glp_init_smcp(&settings);
  settings.msg_lev = GLP_MSG_OFF;
  settings.presolve = GLP_OFF;
  // Each simplex call gets the time left until the deadline (a fallback after a stopped call
  // gets none): the caller's max_seconds holds up to one factorization and one round's bounds.
  // An iteration cap too: the primal simplex can cycle on these degenerate LPs (a 10-example
  // game did), and a capped attempt falls back to the next start (standard basis, then dual).
  settings.it_lim = 50 * (glp_get_num_rows(P) + glp_get_num_cols(P)) + 1000;
  auto simplex = [&]() {
    const double left = seconds_left - seconds_since(built_from);
    if (left <= 0.0) return -1;
    if (seconds_left < 1e6) settings.tm_lim = static_cast<int>(std::max(left, 0.001) * 1000.0);
    return glp_simplex(P, &settings);
  };
  int code = -1;
  if (basis.restore(P, row_keys, column_keys)) code = simplex();
  if (code != GLP_ETMLIM && (code != 0 || glp_get_status(P) != GLP_OPT)) {  // from the standard basis
    glp_std_basis(P);
    code = simplex();
  }
  if (code != GLP_ETMLIM && (code != 0 || glp_get_status(P) != GLP_OPT)) {  // once more from a fresh basis, dual simplex
    glp_adv_basis(P, 0);
    settings.meth = GLP_DUALP;
    code = simplex();
  }
  glp_term_out(GLP_ON);
  // GLPK's own clock, in whole milliseconds, can stop a call just before the caller's deadline:
  // a stopped call (or none, with no time left) is a time limit, whatever the caller's clock says.
  out_of_time = code == GLP_ETMLIM || code == -1;
  if (code != 0 || glp_get_status(P) != GLP_OPT) return std::nullopt;
  basis.save(P, row_keys, column_keys);

  RestrictedSolution out;
  out.value = glp_get_obj_val(P) / F;
  out.rows = glp_get_num_rows(P);
  // A strategy with its empty action's weight, one weight per size, and coefficient (s, j) from
  // coefficient(s * sizes + j, &c, &d).
  auto read = [&](SegmentStrategy& x, double empty, const std::vector<long>& sizes, auto weight, auto coefficient) {
    x.empty = empty;
    x.sizes = sizes;
    x.c.assign(S * sizes.size(), 0.0);
    x.d.assign(S * sizes.size(), 0.0);
    for (std::size_t j = 0; j < sizes.size(); ++j) x.weight.push_back(weight(j));
    for (std::size_t y = 0; y < S * sizes.size(); ++y) coefficient(y, x.c[y], x.d[y]);
  };
  SegmentStrategy& p = out.predictor;
  read(p, glp_get_col_prim(P, r0), K, [&](std::size_t j) { return glp_get_col_prim(P, r[j]); },
       [&](std::size_t y, double& c, double& d) {
         const int fixed = Fixings::at(fix.predictor, K[y % nk], y / nk);
         if (fixed != 0) {
           c = fixed > 0 ? glp_get_col_prim(P, r[y % nk]) : 0.0;
           return;
         }
         c = glp_get_col_prim(P, A[y]);
         if (!B[y]) return;
         const Segment& seg = g.segments[y / nk];
         const double width = seg.t_max - seg.t_min, u = c, v = glp_get_col_prim(P, B[y]);
         c = (seg.t_max * u - seg.t_min * v) / width;
         d = (v - u) / width;
       });
  // The adversary's, from the duals (see the file comment): n_s s_m C and n_s s_m D.
  SegmentStrategy& q = out.adversary;
  read(q, glp_get_row_dual(P, empty_row), L, [&](std::size_t m) { return glp_get_row_dual(P, value_row[m]); },
       [&](std::size_t y, double& c, double& d) {
         const int fixed = Fixings::at(fix.adversary, L[y % nl], y / nl);
         if (fixed != 0) {
           c = fixed > 0 ? glp_get_row_dual(P, value_row[y % nl]) : 0.0;
           return;
         }
         const double ns = static_cast<double>(g.segments[y / nl].size());
         c = glp_get_row_dual(P, c_row[y]) / ns;
         if (d_row[y]) d = glp_get_row_dual(P, d_row[y]) / ns;
       });
  make_feasible(p, g);
  make_feasible(q, g);
  return out;
}

// Marginal P(y_i = 1) per rank of a strategy.
std::vector<double> total_marginals(const Segmentation& g, const SegmentStrategy& x) {
  std::vector<double> out(static_cast<std::size_t>(g.n()), 0.0);
  for (long rank = 0; rank < g.n(); ++rank)
    for (std::size_t j = 0; j < x.m(); ++j) out[static_cast<std::size_t>(rank)] += x.at(g, rank, j);
  return out;
}

// The likeliest pure action of a predictor strategy (any mix with these marginals): for size k
// with conditional marginals x_i = p_ik / r_k, the top k by x (ties by rank: larger psi, then
// smaller index) with weight r_k min(x_(k), 1 - x_(k+1)); the best size, the empty action by its
// own weight, and ties by the smaller size.
void likeliest_action(const Segmentation& g, const SegmentStrategy& p, MarginalSolution& out) {
  out.likeliest_action.clear();
  out.likeliest_probability = p.empty;
  long best_size = 0;
  std::vector<long> ranks(static_cast<std::size_t>(g.n()));
  std::vector<double> x(static_cast<std::size_t>(g.n()));
  std::vector<long> best_ranks;
  std::vector<std::size_t> by_size(p.m());
  std::iota(by_size.begin(), by_size.end(), std::size_t{0});
  std::sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) { return p.sizes[a] < p.sizes[b]; });
  for (std::size_t j : by_size) {
    if (p.weight[j] <= 0.0) continue;
    const long k = p.sizes[j];
    for (long rank = 0; rank < g.n(); ++rank) x[static_cast<std::size_t>(rank)] = p.at(g, rank, j) / p.weight[j];
    std::iota(ranks.begin(), ranks.end(), 0L);
    auto before = [&](long a, long b) { return x[a] > x[b] || (x[a] == x[b] && a < b); };
    std::nth_element(ranks.begin(), ranks.begin() + (k - 1), ranks.end(), before);
    double kth = x[ranks[k - 1]], next = 0.0;
    if (k < g.n()) {
      std::nth_element(ranks.begin() + k, ranks.begin() + k, ranks.end(), before);
      next = x[ranks[k]];
    }
    for (long i = 0; i + 1 < k; ++i) kth = std::min(kth, x[ranks[i]]);
    const double probability = p.weight[j] * std::clamp(std::min(kth, 1.0 - next), 0.0, 1.0);
    if (probability > out.likeliest_probability) {
      out.likeliest_probability = probability;
      best_size = k;
      best_ranks.assign(ranks.begin(), ranks.begin() + k);
    }
  }
  for (long rank : best_ranks) out.likeliest_action.push_back(static_cast<BinaryAction::value_type>(g.order[rank]));
  std::sort(out.likeliest_action.begin(), out.likeliest_action.end());
  (void)best_size;
}

}  // namespace

namespace {

// One past round's strategy for the bounds from mixes (f1_marginal_rounds.hpp, best_mixture):
// the strategy on its segments, and its marginal per rank.
struct PastStrategy {
  SegmentStrategy strategy;
  std::vector<Segment> segments;
  std::vector<double> marginals;
};

// The mix sum_t w_t x_t of past strategies, written on g's segments, each of which must lie inside
// one segment of every part (g cut at the union of the parts' cuts): on a piece of a segment the
// affine function of psi is the same, c + d t_old = c' + d' t_new with psi = mean + scale t.
SegmentStrategy mix_on(const Segmentation& g, const std::vector<std::pair<double, PastStrategy>>& parts) {
  SegmentStrategy out;
  for (const auto& [w, part] : parts)
    for (long size : part.strategy.sizes)
      if (std::find(out.sizes.begin(), out.sizes.end(), size) == out.sizes.end()) out.sizes.push_back(size);
  const std::size_t m = out.m(), S = g.segments.size();
  out.weight.assign(m, 0.0);
  out.c.assign(S * m, 0.0);
  out.d.assign(S * m, 0.0);
  for (const auto& [w, part] : parts) {
    const SegmentStrategy& x = part.strategy;
    out.empty += w * x.empty;
    std::size_t o = 0;
    for (std::size_t s = 0; s < S; ++s) {
      const Segment& seg = g.segments[s];
      while (part.segments[o].end <= seg.first) ++o;
      const Segment& old = part.segments[o];
      for (std::size_t j = 0; j < x.m(); ++j) {
        const std::size_t at = static_cast<std::size_t>(std::find(out.sizes.begin(), out.sizes.end(), x.sizes[j]) - out.sizes.begin());
        if (s == 0) out.weight[at] += w * x.weight[j];
        const double c = x.c[o * x.m() + j], d = old.constant() ? 0.0 : x.d[o * x.m() + j];
        out.c[s * m + at] += w * (d == 0.0 ? c : c + d * (seg.mean - old.mean) / old.scale);
        if (d != 0.0 && !seg.constant()) out.d[s * m + at] += w * d * seg.scale / old.scale;
      }
    }
  }
  return out;
}

// The last `keep` rounds' strategies of one player and, per size 0..n, a bound on the opponent's
// value at that size against each (exact where evaluated, a block's bound elsewhere).
struct SegmentHistory {
  std::vector<PastStrategy> strategies;
  std::vector<std::vector<double>> values;
  void add(PastStrategy strategy, std::vector<double> values_by_size, std::size_t keep) {
    if (strategies.size() >= keep) {
      strategies.erase(strategies.begin());
      values.erase(values.begin());
    }
    strategies.push_back(std::move(strategy));
    values.push_back(std::move(values_by_size));
  }
  std::vector<double> marginals(const std::vector<double>& w) const {
    std::vector<double> out(strategies.front().marginals.size(), 0.0);
    for (std::size_t t = 0; t < w.size(); ++t)
      if (w[t] > 0.0)
        for (std::size_t r = 0; r < out.size(); ++r) out[r] += w[t] * strategies[t].marginals[r];
    return out;
  }
};

constexpr std::size_t kMostUnfixedPairs = 500;  // see the stuck rounds in solve_by_segments

// Band edges that creep. Each round's strategies are affine on segments that end at the last
// round's band edges, so where the equilibrium's band reaches farther, an edge can move only a
// rank or two per round: the strategy reaches its bound at the segment's end and the next best
// response's edge is the next rank (measured at n = 10,000, theta x 0.1: one rank a round for 16
// rounds, stalled at gap 1.1e-5). A new cut 1-2 ranks from a current one (`current`, sorted) that
// has moved so in the same direction for three rounds running (`creeping`: cut -> direction times
// rounds, updated here) gets cuts 2, 4, 8, ... ranks farther on, so that the next LP can move the
// edge as far as it must in one round. (From the second round on, such cuts also fired where
// edges only jittered: 4 in 16 runs of a 1,000-example game took 1.4-1.6 s instead of 0.1 s.)
void extend_creeping_edges(const std::vector<long>& current, long n, std::vector<long>& cuts,
                           std::map<long, int>& creeping) {
  constexpr int kRounds = 3;
  std::map<long, int> now;
  const std::size_t count = cuts.size();
  for (std::size_t i = 0; i < count; ++i) {
    const long cut = cuts[i];
    if (std::binary_search(current.begin(), current.end(), cut)) continue;
    for (const long old : {cut - 1, cut - 2, cut + 1, cut + 2}) {
      if (!std::binary_search(current.begin(), current.end(), old)) continue;
      const int direction = cut > old ? 1 : -1;
      const auto last = creeping.find(old);
      const int rounds = last != creeping.end() && (last->second > 0) == (direction > 0) ? std::abs(last->second) + 1 : 1;
      now[cut] = direction * rounds;
      if (rounds >= kRounds)
        for (long step = 2; cut + direction * step > 0 && cut + direction * step < n; step *= 2)
          cuts.push_back(cut + direction * step);
      break;
    }
  }
  creeping = std::move(now);
}

// The solver by segments; stall_rounds > 0 also stops it (status stalled) when its gap has not
// fallen by 10 % within that many rounds (the automatic choice hands over to the windows then).
MarginalSolution solve_by_segments(const std::vector<double>& psi, const MarginalSolverOptions& options,
                                   SegmentWarmStart* warm, int stall_rounds) {
  if (psi.size() < 2) throw Error("solve_f1_by_segments: the game needs at least 2 examples");
  for (double x : psi)
    if (!std::isfinite(x)) throw Error("solve_f1_by_segments: a potential is not finite");
  if (!(options.tolerance > 0.0) || options.max_seconds < 0.0 || options.max_rounds < 0 ||
      options.sizes_per_round < 1 || options.drop_after < 1)
    throw Error("solve_f1_by_segments: needs tolerance > 0, max_seconds >= 0, max_rounds >= 0, "
                "sizes_per_round >= 1 and drop_after >= 1");
  const auto start = Clock::now();
  const double max_seconds = options.max_seconds > 0.0 ? options.max_seconds : kInfinity;
  Segmentation g(psi);
  const long n = g.n();
  // Exchangeable examples stay together: the first cuts are where psi changes sign, plus the
  // previous solve's.
  std::vector<long> cuts;
  const long positives = std::count_if(g.psi.begin(), g.psi.end(), [](double x) { return x > 0.0; });
  cuts.push_back(positives);
  std::vector<long> K, L;
  if (warm) {
    cuts.insert(cuts.end(), warm->cuts.begin(), warm->cuts.end());
    K = warm->predictor_sizes;
    L = warm->adversary_sizes;
  }
  auto valid_size = [&](long k) { return k >= 1 && k <= n; };
  K.erase(std::remove_if(K.begin(), K.end(), [&](long k) { return !valid_size(k); }), K.end());
  L.erase(std::remove_if(L.begin(), L.end(), [&](long k) { return !valid_size(k); }), L.end());
  const long first_size = std::clamp(positives, 1L, n);
  // The LP's payoffs times the first size bring the F1 terms 2/(k+l) to order 1.
  const double payoff_scale = static_cast<double>(first_size);
  if (K.empty()) K.push_back(first_size);
  if (L.empty()) L.push_back(first_size);
  g.set_cuts(cuts);
  const SmallestSums sums(g);

  MarginalSolution solution;
  MarginalSolverSummary& summary = solution.summary;
  summary.lower = -kInfinity;
  summary.upper = kInfinity;
  summary.gap = kInfinity;
  std::vector<double> best_predictor_marginals;  // per rank, of the strategy guaranteeing `lower`
  SegmentStrategy best_predictor;
  std::vector<long> best_cuts;
  std::vector<double> best_adversary_marginals;  // per rank, of the strategy conceding `upper`
  std::vector<int> idle_k(K.size(), 0), idle_l(L.size(), 0);
  const std::size_t wanted = static_cast<std::size_t>(options.sizes_per_round);
  int halvings = 0;
  LpBasis basis;
  Fixings fix;
  std::vector<double> gaps;  // per round
  std::map<long, int> creeping;  // band edges that moved by 1-2 ranks: cut -> direction x rounds running
  // Bounds from mixes of the last mixed_rounds rounds' strategies; the predictor mix that
  // guarantees `lower`, if it is one (its parts are written on one segmentation at the end).
  const std::size_t history = static_cast<std::size_t>(options.mixed_rounds);
  SegmentHistory predictor_history, adversary_history;
  std::vector<std::pair<double, PastStrategy>> best_mix;
  for (;;) {
    const auto lp_start = Clock::now();
    bool out_of_time = false;
    const auto solved =
        solve_restricted(g, K, L, max_seconds - seconds_since(start), payoff_scale, basis, fix, out_of_time);
    summary.lp_seconds += seconds_since(lp_start);
    if (!solved) {
      summary.status = out_of_time || seconds_since(start) >= max_seconds ? MarginalSolverStatus::time_limit
                                                                          : MarginalSolverStatus::stalled;
      break;
    }
    ++summary.rounds;
    const RestrictedSolution& rs = *solved;
    const SegmentStrategy& p = rs.predictor;
    const SegmentStrategy& q = rs.adversary;
    // Exact bounds over the full game.
    std::vector<double> adversary_by_size, predictor_by_size;  // for the mixes
    auto adversary_best = smallest_values(g, sums, [&](long l) { return adversary_costs(g, p, l); }, true, wanted,
                                          history > 1 ? &adversary_by_size : nullptr);
    adversary_best.insert(adversary_best.begin(), {p.empty, 0});  // l = 0: F1(., {}) = [y_hat empty]
    std::stable_sort(adversary_best.begin(), adversary_best.end(),
                     [](const SizeValue& x, const SizeValue& y) { return x.value < y.value; });
    const double expected_psi = expected_potential(g, q);
    auto predictor_best = smallest_values(g, sums, [&](long k) { return predictor_costs(g, q, k); }, false, wanted,
                                          history > 1 ? &predictor_by_size : nullptr);
    for (auto& v : predictor_best) v.value = -v.value - expected_psi;
    predictor_best.insert(predictor_best.begin(), {q.empty - expected_psi, 0});
    std::stable_sort(predictor_best.begin(), predictor_best.end(),
                     [](const SizeValue& x, const SizeValue& y) { return x.value > y.value; });
    if (adversary_best.front().value > summary.lower) {
      summary.lower = adversary_best.front().value;
      best_predictor = p;
      best_cuts = g.cuts();
      best_predictor_marginals = total_marginals(g, p);
      best_mix.clear();
      summary.mixed_strategies = 1;
    }
    if (predictor_best.front().value < summary.upper) {
      summary.upper = predictor_best.front().value;
      best_adversary_marginals = total_marginals(g, q);
    }
    if (history > 1) {  // mixes of the last rounds' strategies may bound the value more tightly
      adversary_by_size[0] = p.empty;
      for (double& v : predictor_by_size) v = -v - expected_psi;  // a lower bound on costs: an upper one on values
      predictor_by_size[0] = q.empty - expected_psi;
      predictor_history.add({p, g.segments, total_marginals(g, p)}, std::move(adversary_by_size), history);
      adversary_history.add({{}, {}, total_marginals(g, q)}, std::move(predictor_by_size), history);
      const Mixture conceding = best_mixture(adversary_history.values, MixFor::adversary);
      if (conceding.bound < summary.upper) {
        summary.upper = conceding.bound;
        best_adversary_marginals = adversary_history.marginals(conceding.weights);
      }
      const Mixture guaranteeing = best_mixture(predictor_history.values, MixFor::predictor);
      if (guaranteeing.bound > summary.lower) {
        summary.lower = guaranteeing.bound;
        best_predictor_marginals = predictor_history.marginals(guaranteeing.weights);
        best_mix.clear();
        for (std::size_t t = 0; t < guaranteeing.weights.size(); ++t)
          if (guaranteeing.weights[t] > 0.0) best_mix.push_back({guaranteeing.weights[t], predictor_history.strategies[t]});
        summary.mixed_strategies = best_mix.size();
      }
    }
    summary.gap = summary.upper - summary.lower;
    // The band: the ranks the predictor strategy that guarantees `lower` mixes on.
    if (!best_predictor_marginals.empty()) {
      const auto mixes = [](double x) { return x > 1e-9 && x < 1.0 - 1e-9; };
      const auto first = std::find_if(best_predictor_marginals.begin(), best_predictor_marginals.end(), mixes);
      const auto last = std::find_if(best_predictor_marginals.rbegin(), best_predictor_marginals.rend(), mixes);
      summary.region_first = first - best_predictor_marginals.begin();
      summary.region_end = first == best_predictor_marginals.end() ? summary.region_first
                                                                   : best_predictor_marginals.rend() - last;
    }
    summary.lp_rows = rs.rows;
    summary.predictor_sizes = static_cast<std::size_t>(std::count_if(p.weight.begin(), p.weight.end(), [](double w) { return w > 0.0; }));
    summary.adversary_sizes = static_cast<std::size_t>(std::count_if(q.weight.begin(), q.weight.end(), [](double w) { return w > 0.0; }));
    summary.segments = g.segments.size();
    summary.seconds = seconds_since(start);
    if (round_ends_run(summary, options, max_seconds)) break;
    // stall_rounds: stop when the gap has not fallen by 10 % within that many rounds.
    gaps.push_back(summary.gap);
    if (stall_rounds > 0 && gaps.size() > static_cast<std::size_t>(stall_rounds) &&
        !(summary.gap < 0.9 * gaps[gaps.size() - 1 - static_cast<std::size_t>(stall_rounds)])) {
      summary.status = MarginalSolverStatus::stalled;
      break;
    }
    // Grow the restricted game: the best sizes that beat its value, and cuts where their best
    // responses split a segment.
    const double margin = 1e-12 * (1.0 + std::abs(rs.value));
    std::vector<long> new_cuts;
    // Cuts where the best response of one size (the `size` smallest costs) splits a segment.
    auto cut_where_response_changes = [&](const AffineCosts& costs, long size) {
      double low, high;
      sums.sum(costs, size, &low, &high);
      std::vector<std::pair<long, long>> low_ranges, high_ranges;
      long count;
      double total;
      sums.at_most(costs, low, count, total, &low_ranges);
      sums.at_most(costs, high, count, total, &high_ranges);
      collect_cuts(g, costs, low_ranges, high_ranges, new_cuts);
    };
    int added = 0;
    auto grow = [&](const std::vector<SizeValue>& best, std::vector<long>& sizes, std::vector<int>& idle, bool beats_low,
                    auto costs_of) {
      for (std::size_t i = 0; i < best.size() && i < wanted; ++i) {
        const auto& [value, size] = best[i];
        if (beats_low ? !(value < rs.value - margin) : !(value > rs.value + margin)) break;
        if (size == 0) continue;  // the empty actions are always in the LP
        if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) {
          sizes.push_back(size);
          idle.push_back(0);
          ++added;
        }
        cut_where_response_changes(costs_of(size), size);
      }
    };
    grow(adversary_best, L, idle_l, true, [&](long l) { return adversary_costs(g, p, l); });
    grow(predictor_best, K, idle_k, false, [&](long k) { return predictor_costs(g, q, k); });
    // And at the band edges of every size in use: where a player mixes at a size, the other's
    // strategy is affine in psi only between the edges of that band (docs/methods.md).
    for (std::size_t j = 0; j < p.m(); ++j)
      if (p.weight[j] > 0.0) cut_where_response_changes(predictor_costs(g, q, p.sizes[j]), p.sizes[j]);
    for (std::size_t j = 0; j < q.m(); ++j)
      if (q.weight[j] > 0.0) cut_where_response_changes(adversary_costs(g, p, q.sizes[j]), q.sizes[j]);
    new_cuts.push_back(positives);
    extend_creeping_edges(g.cuts(), n, new_cuts, creeping);
    // Two rounds without progress: the next refines the segments instead (old cuts kept, new
    // added) and fixes nothing (a rebuilt segmentation, or the fixings, can alternate between
    // two restricted games that both miss the equilibrium), unless that LP would be large (more
    // than kMostUnfixedPairs sizes x segments): then the fixings are mapped onto the refinement.
    // Measured at n = 10,000, learned theta: without fixings such a round's LP had 5,400-8,100
    // rows and took 15-45 s of CPU without lowering the gap; with them, 2,900 rows.
    const std::size_t r = gaps.size();
    const bool stuck = r >= 3 && !(gaps[r - 1] < gaps[r - 2]) && !(gaps[r - 2] < gaps[r - 3]);
    const bool unfix = stuck && (K.size() + L.size()) * g.segments.size() <= kMostUnfixedPairs;
    if (stuck) {
      const std::vector<long> current = g.cuts();
      new_cuts.insert(new_cuts.end(), current.begin(), current.end());
    }
    std::vector<long> next_cuts = new_cuts;
    next_cuts.insert(next_cuts.end(), {0L, n});
    std::sort(next_cuts.begin(), next_cuts.end());
    next_cuts.erase(std::unique(next_cuts.begin(), next_cuts.end()), next_cuts.end());
    if (added == 0 && next_cuts == g.cuts()) {
      // The best responses are in the restricted game already, so the gap is the LP's rounding:
      // halve the segments the last best responses were nearest to splitting instead.
      const std::size_t before = new_cuts.size();
      for (const auto& seg : g.segments)
        if (!seg.constant() && seg.size() >= 2 && (seg.size() > 64 || halvings < 2)) new_cuts.push_back(seg.first + seg.size() / 2);
      ++halvings;
      if (new_cuts.size() == before || halvings > 8) {
        summary.status = MarginalSolverStatus::stalled;
        break;
      }
    }
    // Sizes unused for drop_after rounds leave the LP.
    auto drop_idle = [&](std::vector<long>& sizes, std::vector<int>& idle, const SegmentStrategy& x) {
      for (std::size_t j = 0; j < x.m(); ++j) {
        const auto at = std::find(sizes.begin(), sizes.end(), x.sizes[j]) - sizes.begin();
        idle[static_cast<std::size_t>(at)] = x.weight[j] > 1e-12 ? 0 : idle[static_cast<std::size_t>(at)] + 1;
      }
      for (std::size_t j = sizes.size(); j-- > 0;)
        if (idle[j] >= options.drop_after && sizes.size() > 1) {
          sizes.erase(sizes.begin() + static_cast<long>(j));
          idle.erase(idle.begin() + static_cast<long>(j));
        }
    };
    drop_idle(K, idle_k, p);
    drop_idle(L, idle_l, q);
    // Fix, per size in the LP, the segments that its best response and the LP's strategy both
    // put all in or all out (the strategy stays representable; a best response that disagrees
    // frees them again next round).
    Fixings next_fix;
    if (!unfix) {
      auto fix_side = [&](const std::vector<long>& sizes, const SegmentStrategy& x, auto costs_of,
                          std::map<long, std::vector<signed char>>& out) {
        for (long size : sizes) {
          const AffineCosts costs = costs_of(size);
          double low, high;
          sums.sum(costs, size, &low, &high);
          std::vector<std::pair<long, long>> surely, maybe;  // costs < the size-th smallest; <= it
          long count;
          double total;
          sums.at_most(costs, low, count, total, &surely);
          sums.at_most(costs, high, count, total, &maybe);
          const auto at = std::find(x.sizes.begin(), x.sizes.end(), size) - x.sizes.begin();
          const bool in_lp = at < static_cast<long>(x.m()) && x.weight[static_cast<std::size_t>(at)] > 1e-12;
          auto& state = out[size];
          state.assign(g.segments.size(), 0);
          for (std::size_t seg = 0; seg < g.segments.size(); ++seg) {
            const Segment& sg = g.segments[seg];
            double lo_x = 0.0, hi_x = 1.0;  // the LP's conditional marginals at both ends
            if (in_lp) {
              const double w = x.weight[static_cast<std::size_t>(at)];
              const double a = x.at(g, sg.first, static_cast<std::size_t>(at)) / w,
                           b = x.at(g, sg.end - 1, static_cast<std::size_t>(at)) / w;
              lo_x = std::min(a, b);
              hi_x = std::max(a, b);
            }
            if (surely[seg].first == sg.first && surely[seg].second == sg.end && (in_lp && lo_x >= 1.0 - 1e-9))
              state[seg] = 1;
            else if (maybe[seg].first == maybe[seg].second && (in_lp && hi_x <= 1e-9))
              state[seg] = -1;
          }
        }
      };
      fix_side(K, p, [&](long k) { return predictor_costs(g, q, k); }, next_fix.predictor);
      fix_side(L, q, [&](long l) { return adversary_costs(g, p, l); }, next_fix.adversary);
    }
    const std::vector<long> old_cuts = g.cuts();
    // The next segments: cut where psi changes sign and at this round's band edges only (the
    // cuts of earlier rounds go: they were band edges of strategies that have moved on).
    g.set_cuts(new_cuts);
    // The fixings on the new segments: a segment is fixed if every old segment it meets is.
    if (!unfix) {
      for (auto* side : {&next_fix.predictor, &next_fix.adversary})
        for (auto& [size, state] : *side) {
          std::vector<signed char> mapped(g.segments.size(), 0);
          for (std::size_t seg = 0; seg < g.segments.size(); ++seg) {
            const auto a = std::upper_bound(old_cuts.begin(), old_cuts.end(), g.segments[seg].first) - old_cuts.begin() - 1;
            const auto b = std::upper_bound(old_cuts.begin(), old_cuts.end(), g.segments[seg].end - 1) - old_cuts.begin() - 1;
            signed char v = state[static_cast<std::size_t>(a)];
            for (auto o = a + 1; o <= b; ++o)
              if (state[static_cast<std::size_t>(o)] != v) v = 0;
            mapped[seg] = v;
          }
          state = std::move(mapped);
        }
    }
    fix = std::move(next_fix);
  }
  summary.seconds = seconds_since(start);
  summary.algorithm = MarginalAlgorithm::segments;
  if (warm) *warm = {K, L, g.cuts()};

  // Report the strategy that guarantees `lower`, in the input's order.
  solution.marginals = Eigen::VectorXd::Zero(n);
  solution.adversary_marginals = Eigen::VectorXd::Zero(n);
  for (long rank = 0; rank < n; ++rank) {
    const auto i = static_cast<Eigen::Index>(g.order[static_cast<std::size_t>(rank)]);
    if (!best_predictor_marginals.empty()) solution.marginals[i] = best_predictor_marginals[rank];
    if (!best_adversary_marginals.empty()) solution.adversary_marginals[i] = best_adversary_marginals[rank];
  }
  if (!best_mix.empty()) {  // the parts' common refinement
    best_cuts.clear();
    for (const auto& [w, part] : best_mix)
      for (const Segment& seg : part.segments) best_cuts.push_back(seg.first);
    g.set_cuts(best_cuts);
    best_predictor = mix_on(g, best_mix);
  }
  if (best_predictor.sizes.empty() && best_predictor.empty == 0.0) best_predictor.empty = 1.0;
  g.set_cuts(best_cuts.empty() ? std::vector<long>{} : best_cuts);
  likeliest_action(g, best_predictor, solution);
  // E[F1(Y_hat, y)] = r_0 [y empty] + sum_k 2 sum_{i: y_i = 1} p_ik / (k + |y|).
  solution.expected_score = [g, p = best_predictor](const std::vector<int>& labels) {
    if (labels.size() != g.order.size()) throw Error("expected_score: one label per example needed");
    long positives_total = 0;
    for (int y : labels) positives_total += y;
    double expected = positives_total == 0 ? p.empty : 0.0;
    for (std::size_t j = 0; j < p.m(); ++j) {
      double overlap = 0.0;
      for (long rank = 0; rank < g.n(); ++rank)
        if (labels[g.order[static_cast<std::size_t>(rank)]]) overlap += p.at(g, rank, j);
      expected += 2.0 * overlap / static_cast<double>(p.sizes[j] + positives_total);
    }
    return expected;
  };
  return solution;
}

}  // namespace

MarginalSolution solve_f1_by_segments(const std::vector<double>& psi, const MarginalSolverOptions& options,
                                      SegmentWarmStart* warm) {
  return solve_by_segments(psi, options, warm, 0);
}

MarginalSolution solve_f1_game_over_marginals(const std::vector<double>& psi, const MarginalSolverOptions& options,
                                              SegmentWarmStart* warm) {
  if (options.algorithm == MarginalAlgorithm::windows) return solve_f1_over_marginals(psi, options);
  if (options.algorithm == MarginalAlgorithm::segments) return solve_f1_by_segments(psi, options, warm);
  if (options.segment_rounds < 0) throw Error("solve_f1_game_over_marginals: needs segment_rounds >= 0");
  const auto start = Clock::now();
  MarginalSolverOptions first = options;
  if (options.segment_rounds > 0)
    first.max_rounds = options.max_rounds > 0 ? std::min(options.max_rounds, options.segment_rounds) : options.segment_rounds;
  SegmentWarmStart local;
  SegmentWarmStart* path = warm ? warm : &local;
  MarginalSolution by_segments = solve_by_segments(psi, first, path, 0);
  if (by_segments.summary.converged() || options.segment_rounds == 0) return by_segments;
  // A wide band (many examples mixing): segments go on from where they are, until they converge
  // or stall (the windows' LPs grow with the band's ranks, the segments' do not).
  const long band = by_segments.summary.region_end - by_segments.summary.region_first;
  if (band > options.segment_band && (options.max_seconds <= 0.0 || seconds_since(start) < options.max_seconds) &&
      (options.max_rounds <= 0 || by_segments.summary.rounds < options.max_rounds)) {
    MarginalSolverOptions more = options;
    if (options.max_seconds > 0.0) more.max_seconds = options.max_seconds - seconds_since(start);
    if (options.max_rounds > 0) more.max_rounds = options.max_rounds - by_segments.summary.rounds;
    const int rounds_before = by_segments.summary.rounds;
    const double seconds_before = seconds_since(start);
    MarginalSolution continued = solve_by_segments(psi, more, path, options.segment_stall_rounds);
    continued.summary.rounds += rounds_before;
    continued.summary.seconds += seconds_before;
    if (continued.summary.converged() || continued.summary.gap < by_segments.summary.gap) by_segments = std::move(continued);
    if (by_segments.summary.converged()) return by_segments;
  }
  MarginalSolverOptions rest = options;
  if (options.max_seconds > 0.0) {
    rest.max_seconds = options.max_seconds - seconds_since(start);
    if (rest.max_seconds <= 0.0) return by_segments;
  }
  if (options.max_rounds > 0) {
    rest.max_rounds = options.max_rounds - by_segments.summary.rounds;
    if (rest.max_rounds <= 0) return by_segments;
  }
  MarginalSolution by_windows = solve_f1_over_marginals(psi, rest);
  if (!by_windows.summary.converged() && by_segments.summary.gap < by_windows.summary.gap) {
    by_segments.summary.seconds = seconds_since(start);  // the windows' time too
    return by_segments;
  }
  // Both runs' bounds hold for the game: keep the smaller upper bound with the adversary
  // strategy that concedes it (a learner's cut).
  if (by_segments.summary.upper < by_windows.summary.upper) {
    by_windows.summary.upper = by_segments.summary.upper;
    by_windows.summary.gap = by_windows.summary.upper - by_windows.summary.lower;
    by_windows.adversary_marginals = by_segments.adversary_marginals;
    if (by_windows.summary.gap <= options.tolerance) by_windows.summary.status = MarginalSolverStatus::converged;
  }
  by_windows.summary.seconds = seconds_since(start);
  return by_windows;
}

}  // namespace mpg
