// solve_dcg_game_greedy: the exact equilibrium of a DCG game by a greedy algorithm over the
// permutahedron (lib/metrics/dcg.hpp), with no LP.
//
// The adversary's best response to a predictor strategy depends only on the expected discounts
// c_j = E_P[disc(rank of j)], so the game value is
//     v = max_{c in Perm(disc)} sum_j phi_j(c_j),   phi_j(c) = min_s (2^s - 1) c - psi_j(s),
// a separable concave, piecewise-linear, non-decreasing objective over the permutahedron of the
// discounts. Perm(disc) is the base polytope of the polymatroid f(S) = D(|S|), D(m) = sum of the
// m largest discounts, and a separable concave function is maximized over a polymatroid by the
// greedy algorithm (Federgruen & Groenevelt 1986; Fujishige, Submodular Functions and
// Optimization, §8): raise the coordinate of largest slope as far as the polymatroid allows,
// piece by piece of the phi_j in decreasing order of slope.
//
// The adversary's equilibrium marginals are the LP dual: each document's expected gain
// e_j = sum_s (2^s - 1) Q(Y_j = s) must be a supergradient of phi_j at c_j (mixing the pieces
// active there), and c must maximize e . c over Perm(disc), which holds iff every upper level set
// of e is a tight set of c (c(S) = D(|S|)). Both are met by e_j = max{lo_k : j in T(k)}, where
// lo_k is the smallest active slope of document k and T(k) the smallest tight set containing k.
// The returned gap certifies the pair.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/dcg.hpp"

namespace mpg {
namespace {

// A piece of phi_j: slope g_s = 2^s - 1 on [start, end) of the expected discount.
struct Piece {
  int document = 0;
  int level = 0;
  double start = 0.0, end = 0.0;
};

// The lower envelope of the lines (2^s - 1) c - psi_j(s) on [0, limit], pieces by increasing c
// (so by decreasing slope).
void envelope_pieces(const Eigen::MatrixXd& psi, int j, double limit, std::vector<Piece>& out) {
  const int L = static_cast<int>(psi.cols());
  // At c = 0 the lowest intercept; among equal intercepts the smallest slope stays lowest.
  int current = 0;
  for (int s = 1; s < L; ++s)
    if (-psi(j, s) < -psi(j, current)) current = s;
  double start = 0.0;
  for (;;) {
    // The next line to cross below the current one: among the smaller slopes the earliest
    // crossing (ties: the smallest slope, which stays lowest afterwards).
    int next = -1;
    double crossing = INFINITY;
    for (int s = 0; s < current; ++s) {
      const double x = std::max(start, (psi(j, current) - psi(j, s)) / (relevance_gain(current) - relevance_gain(s)));
      if (x < crossing) {
        crossing = x;
        next = s;
      }
    }
    if (next < 0 || crossing >= limit) {
      out.push_back({j, current, start, limit});
      return;
    }
    if (crossing > start) out.push_back({j, current, start, crossing});
    start = crossing;
    current = next;
  }
}

// D(m) = sum of the m largest discounts, m = 0..n: the polymatroid's rank function.
std::vector<double> top_sums(const std::vector<double>& discounts) {
  std::vector<double> sums(discounts.size() + 1, 0.0);
  for (std::size_t m = 0; m < discounts.size(); ++m) sums[m + 1] = sums[m] + discounts[m];
  return sums;
}

// Documents sorted by c descending (ties by priority) and the room left in the polymatroid.
class PolymatroidPoint {
 public:
  PolymatroidPoint(const std::vector<double>& discounts, const std::vector<int>& priority_rank)
      : n_(discounts.size()), c_(n_, 0.0), order_(n_), position_(n_), top_sum_(top_sums(discounts)) {
    for (std::size_t j = 0; j < n_; ++j) {
      const auto place = static_cast<std::size_t>(priority_rank[j]);
      order_[place] = static_cast<int>(j);
      position_[j] = place;
    }
  }

  // The largest increase of c_j that keeps c(S) <= D(|S|) for every S containing j:
  //     min( min_{m <= pos(j)} slack(m) + c_(m) - c_j,  min_{m > pos(j)} slack(m) ),
  // with positions 1-based in the sorted order and slack(m) = D(m) - (sum of the m largest c).
  double room(int j) const {
    const std::size_t p = position_[static_cast<std::size_t>(j)];
    double best = INFINITY, prefix = 0.0;
    for (std::size_t m = 1; m <= n_; ++m) {
      const double value = c_[static_cast<std::size_t>(order_[m - 1])];
      prefix += value;
      const double slack = top_sum_[m] - prefix;
      best = std::min(best, m <= p ? slack + value - c_[static_cast<std::size_t>(j)] : slack);
    }
    return std::max(0.0, best);
  }

  void raise(int j, double amount) {
    c_[static_cast<std::size_t>(j)] += amount;
    std::size_t p = position_[static_cast<std::size_t>(j)];
    while (p > 0 && c_[static_cast<std::size_t>(order_[p - 1])] < c_[static_cast<std::size_t>(j)]) {
      order_[p] = order_[p - 1];
      position_[static_cast<std::size_t>(order_[p])] = p;
      --p;
    }
    order_[p] = j;
    position_[static_cast<std::size_t>(j)] = p;
  }

  const std::vector<double>& values() const { return c_; }

 private:
  std::size_t n_;
  std::vector<double> c_;
  std::vector<int> order_;
  std::vector<std::size_t> position_;
  std::vector<double> top_sum_;  // D(m)
};

// Documents by c descending, ties by priority rank (empty: by index).
std::vector<int> sorted_by_value(const Eigen::VectorXd& c, const std::vector<int>& priority_rank) {
  std::vector<int> order(static_cast<std::size_t>(c.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (c[a] != c[b]) return c[a] > c[b];
    return !priority_rank.empty() &&
           priority_rank[static_cast<std::size_t>(a)] < priority_rank[static_cast<std::size_t>(b)];
  });
  return order;
}

// How far c (with sum D(n)) is outside the permutahedron: max_m (sum of the m largest c) - D(m),
// or <= 0 inside.
double permutahedron_violation(const Eigen::VectorXd& c, const std::vector<double>& top_sum) {
  std::vector<double> v = to_std_vector(c);
  std::sort(v.begin(), v.end(), std::greater<>());
  double prefix = 0.0, worst = -INFINITY;
  for (std::size_t m = 0; m < v.size(); ++m) {
    prefix += v[m];
    worst = std::max(worst, prefix - top_sum[m + 1]);
  }
  return worst;
}

// Rounding leaves the sets that should be tight a hair off D(m), and peeling a vertex scales that
// error by 1 + t per step. Make every nearly tight prefix of c's order exactly tight by shifting
// each block between consecutive tight prefixes uniformly.
void snap_to_tight_sets(Eigen::VectorXd& c, const std::vector<double>& top_sum, double tolerance,
                        const std::vector<int>& priority_rank) {
  const std::vector<int> order = sorted_by_value(c, priority_rank);
  const std::size_t n = order.size();
  double prefix = 0.0, block_sum = 0.0;
  std::size_t block_start = 0;
  for (std::size_t m = 1; m <= n; ++m) {
    prefix += c[order[m - 1]];
    block_sum += c[order[m - 1]];
    if (m < n && std::abs(top_sum[m] - prefix) > tolerance) continue;
    const double shift = (top_sum[m] - top_sum[block_start] - block_sum) / static_cast<double>(m - block_start);
    for (std::size_t r = block_start; r < m; ++r) c[order[r]] += shift;
    prefix = top_sum[m];
    block_sum = 0.0;
    block_start = m;
  }
}

}  // namespace

MixedStrategy<std::vector<int>> decompose_permutahedron_point(const Eigen::VectorXd& expected_discounts,
                                                              const std::vector<double>& discounts,
                                                              const std::vector<int>& priority_rank) {
  const std::size_t n = discounts.size();
  if (static_cast<std::size_t>(expected_discounts.size()) != n)
    throw Error("permutahedron decomposition: " + std::to_string(expected_discounts.size()) + " values for " +
                std::to_string(n) + " discounts");
  const std::vector<double> top_sum = top_sums(discounts);
  const double base_tolerance = 1e-12 * std::max(1.0, top_sum[n]);
  MixedStrategy<std::vector<int>> strategy;
  Eigen::VectorXd c = expected_discounts;
  double remaining = 1.0;
  // Each step writes c = a v + (1 - a) c' with v the vertex of c's own order (which is tight on
  // every tight set of c) and c' = c + t (c - v) the farthest point of the permutahedron on that
  // ray (a = t / (1 + t)); c' has a new tight set, so at most ~n steps are needed.
  for (std::size_t step = 0; step <= 2 * n + 1 && remaining > 1e-12; ++step) {
    snap_to_tight_sets(c, top_sum, 1e-9 * std::max(1.0, top_sum[n]), priority_rank);
    const std::vector<int> order = sorted_by_value(c, priority_rank);
    Eigen::VectorXd vertex(static_cast<Eigen::Index>(n));
    for (std::size_t r = 0; r < n; ++r) vertex[order[r]] = discounts[r];
    const Eigen::VectorXd direction = c - vertex;
    if (direction.lpNorm<Eigen::Infinity>() <= base_tolerance || step == 2 * n + 1) {
      strategy.actions.push_back(order);
      strategy.probabilities.push_back(remaining);
      remaining = 0.0;
      break;
    }
    auto feasible_at = [&](double t) { return permutahedron_violation(c + t * direction, top_sum) <= base_tolerance; };
    double feasible = 0.0, infeasible = 1.0;
    while (feasible_at(infeasible) && infeasible < 1e12) {
      feasible = infeasible;
      infeasible *= 2.0;
    }
    for (int it = 0; it < 100 && infeasible - feasible > 1e-14 * infeasible; ++it) {
      const double middle = 0.5 * (feasible + infeasible);
      (feasible_at(middle) ? feasible : infeasible) = middle;
    }
    const double share = feasible / (1.0 + feasible);
    strategy.actions.push_back(order);
    strategy.probabilities.push_back(remaining * share);
    remaining *= 1.0 - share;
    c += feasible * direction;
  }
  // Merge repeated permutations, then most probable first (ties: earlier step first).
  MixedStrategy<std::vector<int>> merged;
  for (std::size_t a = 0; a < strategy.size(); ++a) {
    const auto found = std::find(merged.actions.begin(), merged.actions.end(), strategy.actions[a]);
    if (found == merged.actions.end()) {
      merged.actions.push_back(strategy.actions[a]);
      merged.probabilities.push_back(strategy.probabilities[a]);
    } else {
      merged.probabilities[static_cast<std::size_t>(found - merged.actions.begin())] += strategy.probabilities[a];
    }
  }
  return most_probable_first(merged);
}

DcgEquilibrium solve_dcg_game_greedy(const DcgGame& game, bool predictor_strategy) {
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(game.documents());
  const int L = game.levels();
  const Eigen::MatrixXd& psi = game.potentials();
  const std::vector<double>& disc = game.discounts();
  DcgEquilibrium eq;
  if (n == 0) return eq;

  // Greedy: pieces by decreasing slope, ties by the documents' priority (a document has one piece
  // per slope), never by index: this order defines the decision rule's strategy (dcg.hpp).
  const std::vector<int>& rank = game.priority_rank();
  std::vector<Piece> pieces;
  for (int j = 0; j < n; ++j) envelope_pieces(psi, j, disc.front(), pieces);
  std::stable_sort(pieces.begin(), pieces.end(), [&](const Piece& a, const Piece& b) {
    if (a.level != b.level) return a.level > b.level;
    return rank[static_cast<std::size_t>(a.document)] < rank[static_cast<std::size_t>(b.document)];
  });
  PolymatroidPoint point(disc, rank);
  for (const Piece& piece : pieces) {
    const double at = point.values()[static_cast<std::size_t>(piece.document)];
    // An earlier piece of this document was cut short: its coordinate is frozen (a tight set
    // containing it stays tight as c grows).
    if (at < piece.start - 1e-12 * std::max(1.0, piece.start)) continue;
    const double length = piece.end - at;
    if (length <= 0.0) continue;
    const double amount = std::min(length, point.room(piece.document));
    if (amount > 0.0) point.raise(piece.document, amount);
  }
  eq.expected_discounts = Eigen::Map<const Eigen::VectorXd>(point.values().data(), n);
  const Eigen::VectorXd& c = eq.expected_discounts;

  // phi_j(c_j) and the active pieces' slope range [lo_j, hi_j].
  const double scale = std::max(1.0, psi.cwiseAbs().maxCoeff() + disc.front() * relevance_gain(L - 1));
  const double active_tolerance = 1e-9 * scale;
  Eigen::VectorXd phi(n), lo(n), hi(n);
  for (int j = 0; j < n; ++j) {
    phi[j] = INFINITY;
    for (int s = 0; s < L; ++s) phi[j] = std::min(phi[j], relevance_gain(s) * c[j] - psi(j, s));
    lo[j] = INFINITY;
    hi[j] = -INFINITY;
    for (int s = 0; s < L; ++s)
      if (relevance_gain(s) * c[j] - psi(j, s) <= phi[j] + active_tolerance) {
        lo[j] = std::min(lo[j], relevance_gain(s));
        hi[j] = std::max(hi[j], relevance_gain(s));
      }
  }
  eq.value = phi.sum();

  // Tight sets of c: prefixes of the order by c whose sum reaches D(m). For document k in a tie
  // group occupying sorted positions a+1..b, with m_k the first tight size above a:
  // T(k) = positions 1..m_k, or, if m_k falls strictly inside the group (then the discounts are
  // equal across it), positions 1..a plus k itself.
  const std::vector<int> order = sorted_by_value(c, rank);
  const std::vector<double> top_sum = top_sums(disc);
  std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
  for (int m = 0; m < n; ++m)
    prefix[static_cast<std::size_t>(m) + 1] = prefix[static_cast<std::size_t>(m)] + c[order[static_cast<std::size_t>(m)]];
  const double tight_tolerance = 1e-9 * std::max(1.0, top_sum.back());
  std::vector<int> next_tight(static_cast<std::size_t>(n) + 1, n);  // first tight size > a
  for (int a = n - 1; a >= 0; --a)
    next_tight[static_cast<std::size_t>(a)] =
        prefix[static_cast<std::size_t>(a) + 1] >= top_sum[static_cast<std::size_t>(a) + 1] - tight_tolerance
            ? a + 1
            : next_tight[static_cast<std::size_t>(a) + 1];
  const double tie_tolerance = 1e-12 * std::max(1.0, disc.front());
  std::vector<int> group_start(static_cast<std::size_t>(n)), group_end(static_cast<std::size_t>(n));
  for (int p = 0; p < n;) {
    int q = p + 1;
    while (q < n && c[order[static_cast<std::size_t>(p)]] - c[order[static_cast<std::size_t>(q)]] <= tie_tolerance) ++q;
    for (int r = p; r < q; ++r) {
      group_start[static_cast<std::size_t>(r)] = p;
      group_end[static_cast<std::size_t>(r)] = q;
    }
    p = q;
  }
  // e at sorted position p = max over k with p in T(k) of lo_k. Positions covered by a prefix
  // T(k) = 1..m take a suffix maximum; the special T(k) add lo_k to positions 1..a and to k.
  std::vector<double> cover(static_cast<std::size_t>(n) + 1, -INFINITY);  // cover[m]: max lo over T(k) = 1..m
  std::vector<double> own(static_cast<std::size_t>(n), -INFINITY);
  for (int p = 0; p < n; ++p) {
    const int k = order[static_cast<std::size_t>(p)];
    const int a = group_start[static_cast<std::size_t>(p)], b = group_end[static_cast<std::size_t>(p)];
    const int m = next_tight[static_cast<std::size_t>(a)];
    if (m < b) {
      cover[static_cast<std::size_t>(a)] = std::max(cover[static_cast<std::size_t>(a)], lo[k]);
      own[static_cast<std::size_t>(p)] = lo[k];
    } else {
      cover[static_cast<std::size_t>(m)] = std::max(cover[static_cast<std::size_t>(m)], lo[k]);
    }
  }
  // Position p (0-based) lies in 1..m iff p < m: running maximum of cover[m] over m > p.
  eq.adversary_marginals = Eigen::MatrixXd::Zero(n, L);
  double running = -INFINITY;
  for (int p = n - 1; p >= 0; --p) {
    running = std::max(running, cover[static_cast<std::size_t>(p) + 1]);
    const int j = order[static_cast<std::size_t>(p)];
    const double e = std::clamp(std::max({running, own[static_cast<std::size_t>(p)], lo[j]}), lo[j], hi[j]);
    // Mix the active pieces with slopes just below and above e.
    int below = -1, above = -1;
    for (int s = 0; s < L; ++s) {
      if (relevance_gain(s) * c[j] - psi(j, s) > phi[j] + active_tolerance) continue;
      if (relevance_gain(s) <= e && (below < 0 || relevance_gain(s) > relevance_gain(below))) below = s;
      if (relevance_gain(s) >= e && (above < 0 || relevance_gain(s) < relevance_gain(above))) above = s;
    }
    if (below == above) {
      eq.adversary_marginals(j, below) = 1.0;
    } else {
      const double weight = (e - relevance_gain(below)) / (relevance_gain(above) - relevance_gain(below));
      eq.adversary_marginals(j, above) = weight;
      eq.adversary_marginals(j, below) = 1.0 - weight;
    }
  }
  if (permutahedron_violation(c, top_sum) > tight_tolerance || std::abs(c.sum() - top_sum.back()) > tight_tolerance)
    throw SolverError("DCG greedy: the expected discounts left the permutahedron (numerical failure)");
  // Certificate: the predictor's best response to the marginals against the adversary's best
  // response to c (which depends on the predictor only through c).
  eq.gap = game.predictor_value_against_marginals(eq.adversary_marginals) - eq.value;
  if (predictor_strategy) eq.predictor = decompose_permutahedron_point(c, disc, rank);
  eq.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return eq;
}

DcgDecision dcg_decision(const DcgGame& game) {
  DcgDecision decision;
  decision.equilibrium = solve_dcg_game_greedy(game, /*predictor_strategy=*/true);
  decision.order = decision.equilibrium.predictor.actions.front();
  const Eigen::MatrixXd& q = decision.equilibrium.adversary_marginals;
  Eigen::VectorXd gain = Eigen::VectorXd::Zero(q.rows());
  for (Eigen::Index s = 1; s < q.cols(); ++s) gain += relevance_gain(static_cast<int>(s)) * q.col(s);
  decision.expected_gain_order = sorted_by_value(gain, game.priority_rank());
  return decision;
}

}  // namespace mpg
