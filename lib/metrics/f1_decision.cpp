// The F1 decision rule of lib/metrics/f1_decision.hpp. Notation: r_0 >= r_1 >= ... the potentials
// by rank, S(t) = r_0 + ... + r_{t-1}. The adversary's reply "top j of the top k, top m of the
// rest" is y = ranks [0, j) and [k, k + m); against the top k' it scores
//   F1 = 2 |top k' AND y| / (k' + j + m)  (1 if k' = j + m = 0),  minus psi(y) = S(j) + S(k+m) - S(k).
#include "lib/metrics/f1_decision.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <tuple>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

struct Reply {
  long j = 0, k = 0, m = 0;  // y = ranks [0, j) and [k, k + m)
};

struct Ranked {
  std::vector<double> psi, prefix;
  explicit Ranked(std::vector<double> ranked) : psi(std::move(ranked)), prefix(psi.size() + 1, 0.0) {
    std::partial_sum(psi.begin(), psi.end(), prefix.begin() + 1);
  }
  long n() const { return static_cast<long>(psi.size()); }

  // Payoff of the top `size` against a reply.
  double payoff(long size, const Reply& y) const {
    const long count = y.j + y.m;
    const double potential = prefix[y.j] + prefix[y.k + y.m] - prefix[y.k];
    if (size + count == 0) return 1.0;
    const long hits = std::min(size, y.j) + std::max(0L, std::min(size, y.k + y.m) - y.k);
    return 2.0 * static_cast<double>(hits) / static_cast<double>(size + count) - potential;
  }

  // Ranks with a potential > x (>= x if `inclusive`): a prefix, psi descending.
  long count_above(double x, bool inclusive = false) const {
    return std::partition_point(psi.begin(), psi.end(), [&](double p) { return inclusive ? p >= x : p > x; }) - psi.begin();
  }

  // The guarantee of the top k and the adversary's reply attaining it: y = {} (F1 = [k = 0]),
  // else for each size l >= 1 the l smallest costs, 2/(k+l) - r_i on the top k and -r_i on the
  // rest. Both cost lists ascend with the rank, so the cost of taking j of the top k,
  // h(j) = 2j/(k+l) - S(j) - (S(k+l-j) - S(k)), is convex in j: its least point is the first j
  // whose increment 2/(k+l) - r_j + r_{k+l-j-1} is >= 0, found by bisection. Only the band of
  // j and m a best reply can have is searched: adding an example of the top k raises F1 by at
  // most 2/k and by more than 0, so a best reply holds every one of them with r_i > 2/k and none
  // with r_i <= 0; adding one of the rest lowers F1 by at most 1/(k+1) (j <= (k+l)/2), so it
  // holds every one with r_i > 0 and none with r_i < -1/(k+1).
  double guarantee(long k, Reply* reply = nullptr) const {
    const long size = n();
    const long positive = count_above(0.0);
    const long j_min = k == 0 ? 0 : std::min(k, count_above(2.0 / static_cast<double>(k)));
    const long j_max = std::min(k, positive);
    const long m_min = std::max(0L, positive - k);
    const long m_max = std::max(0L, count_above(-1.0 / static_cast<double>(k + 1), true) - k);
    double best = k == 0 ? 1.0 : 0.0;
    Reply best_reply{0, k, 0};
    for (long l = std::max(1L, j_min + m_min); l <= std::min(size, j_max + m_max); ++l) {
      const double c = 2.0 / static_cast<double>(k + l);
      long lo = std::max(j_min, l - m_max), hi = std::min(j_max, l - m_min);  // least j in [lo, hi]
      if (lo > hi) continue;
      while (lo < hi) {
        const long j = lo + (hi - lo) / 2;
        if (c - psi[static_cast<std::size_t>(j)] + psi[static_cast<std::size_t>(k + l - j - 1)] >= 0.0) hi = j;
        else lo = j + 1;
      }
      const Reply y{lo, k, l - lo};
      const double value = payoff(k, y);
      if (value < best) {
        best = value;
        best_reply = y;
      }
    }
    if (reply) *reply = best_reply;
    return best;
  }
};

std::vector<double> sorted_descending(std::vector<double> psi) {
  std::sort(psi.begin(), psi.end(), std::greater<double>());
  return psi;
}

}  // namespace

double f1_top_k_guarantee(const std::vector<double>& ranked_psi, long k) {
  if (k < 0 || k > static_cast<long>(ranked_psi.size())) throw Error("f1_top_k_guarantee: k out of range");
  return Ranked(ranked_psi).guarantee(k);
}

F1Decision f1_maximin_decision(const std::vector<double>& psi) {
  if (psi.empty()) throw Error("f1_maximin_decision: the game needs at least one example");
  for (double x : psi)
    if (!std::isfinite(x)) throw Error("f1_maximin_decision: a potential is not finite");
  const Ranked ranked(sorted_descending(psi));
  const long n = ranked.n();
  // Replies known so far; every one bounds every size's guarantee from above. The first: no
  // positive label, and all positive potentials.
  const long positives = std::count_if(psi.begin(), psi.end(), [](double x) { return x > 0.0; });
  std::vector<Reply> replies{{0, 0, 0}, {positives, positives, 0}};
  struct Candidate {
    double bound;
    long size;
    std::size_t replies_seen;
    bool operator<(const Candidate& o) const {  // the queue's top: largest bound, then smallest size
      return std::tie(bound, o.size) < std::tie(o.bound, size);
    }
  };
  std::priority_queue<Candidate> queue;
  for (long k = 0; k <= n; ++k) {
    double bound = INFINITY;
    for (const Reply& y : replies) bound = std::min(bound, ranked.payoff(k, y));
    // And the part every best reply to the top k holds (Ranked::guarantee): the top k's
    // examples with r_i > 2/k and the rest's with r_i > 0.
    const long j = k == 0 ? 0 : std::min(k, ranked.count_above(2.0 / static_cast<double>(k)));
    bound = std::min(bound, ranked.payoff(k, {j, k, std::max(0L, positives - k)}));
    queue.push({bound, k, replies.size()});
  }
  F1Decision decision;
  decision.guarantee = -INFINITY;
  decision.size = -1;
  while (!queue.empty()) {
    Candidate top = queue.top();
    // Sizes with a tie go to the smaller k: a bound equal to the best only matters below it.
    const bool can_win = top.bound > decision.guarantee || (top.bound == decision.guarantee && top.size < decision.size);
    if (!can_win) break;
    queue.pop();
    if (top.replies_seen < replies.size()) {  // tighten with the replies found since, then requeue
      for (std::size_t t = top.replies_seen; t < replies.size(); ++t) top.bound = std::min(top.bound, ranked.payoff(top.size, replies[t]));
      top.replies_seen = replies.size();
      queue.push(top);
      continue;
    }
    Reply reply;
    const double value = ranked.guarantee(top.size, &reply);
    ++decision.sizes_evaluated;
    replies.push_back(reply);
    if (value > decision.guarantee || (value == decision.guarantee && top.size < decision.size)) {
      decision.guarantee = value;
      decision.size = top.size;
    }
  }
  // The top `size` examples: by psi descending, ties by the smaller index.
  std::vector<std::uint32_t> order(psi.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return psi[a] > psi[b]; });
  decision.action.assign(order.begin(), order.begin() + decision.size);
  std::sort(decision.action.begin(), decision.action.end());
  return decision;
}

}  // namespace mpg
