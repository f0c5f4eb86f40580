// AER and the AER game (lib/metrics/aer.hpp).
#include "lib/metrics/aer.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <queue>

#include <Eigen/Core>

#include "lib/base/error.hpp"

namespace mpg {

void AerCounts::add(const AerCounts& other) {
  proposed += other.proposed;
  sure += other.sure;
  proposed_sure += other.proposed_sure;
  proposed_possible += other.proposed_possible;
}

AerCounts aer_counts(const AlignmentAction& proposal, const AlignmentAction& gold) {
  AerCounts counts;
  counts.proposed = static_cast<double>(proposal.size());
  std::size_t g = 0;
  for (std::uint32_t code : gold) counts.sure += link_is_possible_only(code) ? 0.0 : 1.0;
  for (std::uint32_t code : proposal) {
    const std::uint32_t position = link_position(code);
    while (g < gold.size() && link_position(gold[g]) < position) ++g;
    if (g < gold.size() && link_position(gold[g]) == position) {
      counts.proposed_possible += 1.0;
      if (!link_is_possible_only(gold[g])) counts.proposed_sure += 1.0;
    }
  }
  return counts;
}

double aer_of_counts(const AerCounts& counts, double empty_aer) {
  const double denominator = counts.proposed + counts.sure;
  if (denominator == 0.0) return empty_aer;
  return 1.0 - (counts.proposed_sure + counts.proposed_possible) / denominator;
}

double aer_score(const AlignmentAction& proposal, const AlignmentAction& gold, double empty_score) {
  return 1.0 - aer_of_counts(aer_counts(proposal, gold), 1.0 - empty_score);
}

AerGame::AerGame(std::vector<double> sure_potentials, std::vector<double> possible_potentials,
                 const AerGameOptions& options)
    : sure_potentials_(std::move(sure_potentials)), possible_potentials_(std::move(possible_potentials)),
      options_(options) {
  if (sure_potentials_.empty()) throw Error("AER game: no word pairs");
  if (possible_potentials_.size() != sure_potentials_.size())
    throw Error("AER game: " + std::to_string(sure_potentials_.size()) + " sure but " +
                std::to_string(possible_potentials_.size()) + " possible potentials");
  auto finite = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
  };
  if (!finite(sure_potentials_) || !finite(possible_potentials_)) throw Error("AER game: non-finite potential");
  if (!std::isfinite(options_.empty_score)) throw Error("AER game: non-finite empty_score");
}

double AerGame::potential(const AlignmentAction& adversary_action) const {
  double total = 0.0;
  for (std::uint32_t code : adversary_action) {
    const std::uint32_t p = link_position(code);
    total += link_is_possible_only(code) ? possible_potentials_[p] : sure_potentials_[p];
  }
  return total;
}

double AerGame::expected_potential(const MixedStrategy<AlignmentAction>& strategy) const {
  double total = 0.0;
  for (std::size_t j = 0; j < strategy.size(); ++j) total += strategy.probabilities[j] * potential(strategy.actions[j]);
  return total;
}

namespace {

// The size-split marginals of an opponent strategy at the positions its actions touch: for touched
// position t and distinct action size s (|A| for predictor actions, the number of sure tags k for
// adversary actions), weight(t, s) = sum of the weights the actions of size s give it, so that
//     at(t, x) = sum_s weight(t, s) / (size_s + x).
// Dense over (touched position, distinct size): one pass over the strategy builds it.
class SizeSplitTable {
 public:
  // size_of(action) is the action's size; weight_of(code, probability) what one of its codes adds.
  template <class SizeOf, class WeightOf>
  SizeSplitTable(const MixedStrategy<AlignmentAction>& strategy, std::size_t n, SizeOf size_of, WeightOf weight_of) {
    std::vector<std::size_t> action_sizes;
    for (const AlignmentAction& a : strategy.actions) action_sizes.push_back(size_of(a));
    std::vector<std::size_t> distinct_sizes = action_sizes;
    std::sort(distinct_sizes.begin(), distinct_sizes.end());
    distinct_sizes.erase(std::unique(distinct_sizes.begin(), distinct_sizes.end()), distinct_sizes.end());
    for (std::size_t v : distinct_sizes) sizes_.push_back(static_cast<double>(v));
    std::vector<int> slot(n, -1);
    for (const AlignmentAction& a : strategy.actions)
      for (std::uint32_t code : a) slot[link_position(code)] = 0;
    for (std::uint32_t p = 0; p < n; ++p)
      if (slot[p] == 0) {
        slot[p] = static_cast<int>(positions_.size());
        positions_.push_back(p);
      }
    const std::size_t S = sizes_.size();
    weights_.assign(positions_.size() * S, 0.0);
    for (std::size_t j = 0; j < strategy.size(); ++j) {
      const std::size_t s = static_cast<std::size_t>(
          std::lower_bound(distinct_sizes.begin(), distinct_sizes.end(), action_sizes[j]) - distinct_sizes.begin());
      for (std::uint32_t code : strategy.actions[j])
        weights_[static_cast<std::size_t>(slot[link_position(code)]) * S + s] +=
            weight_of(code, strategy.probabilities[j]);
    }
    reciprocal_.resize(S);
    values_.resize(positions_.size());
  }

  std::size_t touched() const { return positions_.size(); }
  std::uint32_t position(std::size_t t) const { return positions_[t]; }
  const std::vector<std::uint32_t>& positions() const { return positions_; }

  // at(t, x) for every touched t, in touched order: one product of the (touched x sizes) weights
  // with the vector 1 / (size_s + x). A size with size + x = 0 (the empty action at x = 0)
  // carries no weight at any position and is skipped.
  const double* at(double x) const {
    const Eigen::Index S = static_cast<Eigen::Index>(sizes_.size());
    const Eigen::Index T = static_cast<Eigen::Index>(positions_.size());
    for (Eigen::Index s = 0; s < S; ++s) reciprocal_[s] = sizes_[s] + x > 0.0 ? 1.0 / (sizes_[s] + x) : 0.0;
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<Eigen::VectorXd>(values_.data(), T).noalias() =
        Eigen::Map<const RowMajor>(weights_.data(), T, S) * Eigen::Map<const Eigen::VectorXd>(reciprocal_.data(), S);
    return values_.data();
  }

 private:
  std::vector<double> sizes_;
  std::vector<std::uint32_t> positions_;  // increasing
  std::vector<double> weights_;           // touched x sizes
  mutable std::vector<double> reciprocal_;
  mutable std::vector<double> values_;  // at(x)'s result
};

// Two values of a best response within this of each other tie (then the smaller size or k wins):
// values equal in exact arithmetic (e.g. the predictor's score 1 at every size from |S| to |P| of a
// pure adversary action) come out of differently ordered sums up to ~1e-14 apart, and a rule on
// exact equality would let rounding pick the size.
double tie_tolerance(double best) { return 1e-12 * (1.0 + std::abs(best)); }

// (value, position) in increasing order: ties broken by position.
struct Keyed {
  double value;
  std::uint32_t position;
  bool operator<(const Keyed& other) const {
    return value != other.value ? value < other.value : position < other.position;
  }
};

std::size_t sure_count(const AlignmentAction& y) {
  return static_cast<std::size_t>(
      std::count_if(y.begin(), y.end(), [](std::uint32_t code) { return !link_is_possible_only(code); }));
}

// The predictor's side against an adversary strategy: g(i, alpha) = sum over the support actions j
// that tag i of q_j (2 [S] + [R]) / (alpha + k_j), for the positions the adversary ever tags.
class PredictorView {
 public:
  PredictorView(const MixedStrategy<AlignmentAction>& adversary, std::size_t n, double empty_score)
      : n_(n),
        table_(adversary, n, sure_count,
               [](std::uint32_t code, double q) { return link_is_possible_only(code) ? q : 2.0 * q; }) {
    double no_sure = 0.0;  // P(|y_S| = 0)
    for (std::size_t j = 0; j < adversary.size(); ++j)
      if (sure_count(adversary.actions[j]) == 0) no_sure += adversary.probabilities[j];
    empty_value_ = empty_score * no_sure;
    gains_.resize(table_.touched());
  }

  std::size_t touched() const { return table_.touched(); }

  // E_Q[score] of the best action of size alpha: the alpha largest g(., alpha) (ties: smaller
  // position); beyond the touched positions, the smallest untouched ones (g = 0).
  double best_of_size(std::size_t alpha, AlignmentAction* action) const {
    if (alpha == 0) {
      if (action) action->clear();
      return empty_value_;
    }
    const std::size_t from_touched = std::min(alpha, table_.touched());
    if (!action) return largest_sum(alpha, from_touched);
    const double* g = table_.at(static_cast<double>(alpha));
    for (std::size_t t = 0; t < table_.touched(); ++t)
      gains_[t] = {-g[t], table_.position(t)};  // ascending = largest g first
    if (from_touched > 0)  // no touched position: nothing to select
      std::nth_element(gains_.begin(), gains_.begin() + static_cast<std::ptrdiff_t>(from_touched) - 1, gains_.end());
    double value = 0.0;
    for (std::size_t i = 0; i < from_touched; ++i) value -= gains_[i].value;
    action->clear();
    for (std::size_t i = 0; i < from_touched; ++i) action->push_back(link_code(gains_[i].position));
    std::vector<char> taken(n_, 0);
    for (std::uint32_t p : table_.positions()) taken[p] = 1;
    for (std::uint32_t p = 0; p < n_ && action->size() < alpha; ++p)
      if (!taken[p]) action->push_back(link_code(p));
    std::sort(action->begin(), action->end());
    return value;
  }

  // The best size: alpha = 0..touched() (more only adds zeros and shrinks every term); ties
  // (tie_tolerance) go to the smaller size. Branch and bound over intervals of alpha: g >= 0
  // decreases in alpha, so for alpha' in [a1, a2] the value is at most the sum of the a2 largest
  // g(., a1) (exact at a1 = a2); intervals are split in decreasing order of that bound until it
  // falls below the best value, and an interval right of the best size whose bound cannot beat
  // it by more than a tie is dropped.
  std::size_t best_size() const {
    double best = best_of_size(0, nullptr);
    std::size_t best_alpha = 0;
    if (table_.touched() == 0) return best_alpha;
    struct Interval {
      double bound;
      std::size_t first, last;
      bool operator<(const Interval& other) const {  // a max-heap: larger bound, then smaller first
        return bound != other.bound ? bound < other.bound : first > other.first;
      }
    };
    std::priority_queue<Interval> open;
    auto push = [&](std::size_t first, std::size_t last) {
      open.push({first == last ? best_of_size(first, nullptr) : largest_sum(first, last), first, last});
    };
    push(1, table_.touched());
    while (!open.empty()) {
      const Interval top = open.top();
      open.pop();
      if (top.bound < best - tie_tolerance(best)) break;
      const bool ties_at_most = top.bound <= best + tie_tolerance(best);
      if (ties_at_most && top.first > best_alpha) continue;
      if (top.first == top.last) {
        if (!ties_at_most || top.first < best_alpha) {
          best = top.bound;
          best_alpha = top.first;
        }
        continue;
      }
      const std::size_t middle = top.first + (top.last - top.first) / 2;
      push(top.first, middle);
      push(middle + 1, top.last);
    }
    return best_alpha;
  }

 private:
  // The sum of the `count` largest g(., alpha) (count <= touched(); 0 for none): a value, so ties
  // need no order and the selection runs on the values alone.
  double largest_sum(std::size_t alpha, std::size_t count) const {
    if (count == 0) return 0.0;
    const double* g = table_.at(static_cast<double>(alpha));
    largest_.assign(g, g + table_.touched());
    std::nth_element(largest_.begin(), largest_.begin() + static_cast<std::ptrdiff_t>(count) - 1, largest_.end(),
                     std::greater<double>());
    double value = 0.0;
    for (std::size_t i = 0; i < count; ++i) value += largest_[i];
    return value;
  }

  std::size_t n_;
  SizeSplitTable table_;
  double empty_value_ = 0.0;
  mutable std::vector<Keyed> gains_;
  mutable std::vector<double> largest_;  // largest_sum's scratch
};

// The adversary's side against a predictor strategy: h(i, x) = sum over the support actions j
// containing i of p_j / (alpha_j + x) at the touched positions; the untouched ones sorted once.
class AdversaryView {
 public:
  AdversaryView(const MixedStrategy<AlignmentAction>& predictor, const std::vector<double>& sure_potentials,
                const std::vector<double>& possible_potentials, double empty_score)
      : sure_(sure_potentials), possible_(possible_potentials),
        table_(predictor, sure_potentials.size(), [](const AlignmentAction& a) { return a.size(); },
               [](std::uint32_t, double p) { return p; }) {
    const std::size_t n = sure_.size();
    double empty_probability = 0.0;
    for (std::size_t j = 0; j < predictor.size(); ++j)
      if (predictor.actions[j].empty()) empty_probability += predictor.probabilities[j];
    std::vector<char> is_touched(n, 0);
    for (std::uint32_t p : table_.positions()) is_touched[p] = 1;
    // Untouched positions: f_S = -psi_S, f_R = -psi_R for every k; d = f_S - min(f_R, 0).
    untouched_.reserve(n - table_.touched());
    for (std::uint32_t i = 0; i < n; ++i) {
      if (is_touched[i]) continue;
      const double r = std::min(-possible_[i], 0.0);
      untouched_r_ += r;
      untouched_.push_back({-sure_[i] - r, i});
    }
    std::sort(untouched_.begin(), untouched_.end());
    for (const Keyed& u : untouched_) untouched_negative_ += u.value < 0.0 ? 1 : 0;
    empty_value_ = empty_score * empty_probability;
    keyed_.resize(table_.touched());
  }

  // E_k: the least E_P[score] - psi over taggings with exactly k sure links.
  double value_of_k(std::size_t k) const {
    if (k == 0) {
      const double* h = table_.at(0.0);
      double r = 0.0;
      for (std::size_t t = 0; t < table_.touched(); ++t) r += std::min(h[t] - possible_[table_.position(t)], 0.0);
      return empty_value_ + r + untouched_r_;
    }
    const double touched_r = fill_touched(k);
    return touched_r + untouched_r_ + sum_of_smallest(k);
  }

  // The sum of the k smallest d over all positions (touched: keyed_ as filled; untouched: exact),
  // by one selection (O(n)).
  double sum_of_smallest(std::size_t k) const {
    all_.clear();
    for (const Keyed& key : keyed_) all_.push_back(key.value);
    for (const Keyed& key : untouched_) all_.push_back(key.value);
    std::nth_element(all_.begin(), all_.begin() + static_cast<std::ptrdiff_t>(k - 1), all_.end());
    double total = 0.0;
    for (std::size_t i = 0; i < k; ++i) total += all_[i];
    return total;
  }

  // The tagging of E_k: the k positions of smallest f_S - min(f_R, 0) sure, the others possible
  // if f_R < 0.
  AlignmentAction action_of_k(std::size_t k) const {
    const std::size_t n = sure_.size();
    std::vector<double> f_r(n);
    for (const Keyed& u : untouched_) f_r[u.position] = -possible_[u.position];
    std::vector<char> sure(n, 0);
    if (k > 0) {
      fill_touched(k);
      std::vector<Keyed> all(keyed_);
      all.insert(all.end(), untouched_.begin(), untouched_.end());
      std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k - 1), all.end());
      for (std::size_t i = 0; i < k; ++i) sure[all[i].position] = 1;
    }
    const double* h = table_.at(static_cast<double>(k));
    for (std::size_t t = 0; t < table_.touched(); ++t) f_r[table_.position(t)] = h[t] - possible_[table_.position(t)];
    AlignmentAction action;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (sure[i]) action.push_back(link_code(i));
      else if (f_r[i] < 0.0) action.push_back(link_code(i, true));
    }
    return action;
  }

  // The smallest k of least E_k (ties: tie_tolerance), by branch and bound over intervals of k. For k' in [k1, k2],
  // h(i, k') >= h(i, k2) >= 0 at every position (h decreases in k), and both
  // d_i = f_S - min(f_R, 0) and min(f_R, 0) increase with h, so
  //     E_k' >= sum_i min(h(i, k2) - psi_R(i), 0) + (sum of the k' smallest d_i at h(., k2))
  // (interval_bound, exact at k1 = k2). Intervals are split in increasing order of their bound
  // until the smallest bound exceeds the best E found; E_k is evaluated exactly at leaves and at
  // each interval's minimizing k', and an interval right of the best k whose bound is within a
  // tie of the best E is not split. Costs O(n) per interval instead of per k.
  std::size_t best_k(double& best) const {
    const std::size_t n = sure_.size();
    best = value_of_k(0);
    std::size_t best_k = 0;
    std::vector<char> evaluated(n + 1, 0);
    auto evaluate = [&](std::size_t k) {
      if (evaluated[k]) return;
      evaluated[k] = 1;
      const double value = value_of_k(k);
      if (value < best - tie_tolerance(best) || (value <= best + tie_tolerance(best) && k < best_k)) {
        best = value;
        best_k = k;
      }
    };
    struct Interval {
      double bound;
      std::size_t first, last, argmin;
      bool operator>(const Interval& other) const {
        return bound != other.bound ? bound > other.bound : first > other.first;
      }
    };
    std::priority_queue<Interval, std::vector<Interval>, std::greater<Interval>> open;
    auto push = [&](std::size_t first, std::size_t last) {
      Interval interval{0.0, first, last, first};
      interval.bound = interval_bound(first, last, interval.argmin);
      open.push(interval);
    };
    push(1, n);
    while (!open.empty()) {
      const Interval top = open.top();
      open.pop();
      if (top.bound > best + tie_tolerance(best)) break;
      evaluate(top.argmin);
      if (top.first == top.last) continue;
      if (top.first > best_k && top.bound >= best - tie_tolerance(best)) continue;
      const std::size_t middle = top.first + (top.last - top.first) / 2;
      push(top.first, middle);
      push(middle + 1, top.last);
    }
    return best_k;
  }

  // The lower bound above on E_k' over k' in [first, last] (1 <= first <= last <= n), and the k'
  // attaining it: the prefix sums of sorted values are convex in k', least at k' = the number of
  // negative values, so the bound is the sum of the argmin smallest, argmin = that count clamped
  // to [first, last] (one selection, O(n)).
  double interval_bound(std::size_t first, std::size_t last, std::size_t& argmin) const {
    const double touched_r = fill_touched(last);
    std::size_t negative = untouched_negative_;
    for (const Keyed& key : keyed_) negative += key.value < 0.0 ? 1 : 0;
    argmin = std::clamp(negative, first, last);
    return touched_r + untouched_r_ + sum_of_smallest(argmin);
  }

 private:
  // keyed_ = (f_S - min(f_R, 0), position) of the touched positions at k; returns their
  // sum of min(f_R, 0).
  double fill_touched(std::size_t k) const {
    const double* at = table_.at(static_cast<double>(k));
    double touched_r = 0.0;
    for (std::size_t t = 0; t < table_.touched(); ++t) {
      const std::uint32_t position = table_.position(t);
      const double h = at[t];
      const double r = std::min(h - possible_[position], 0.0);
      touched_r += r;
      keyed_[t] = {2.0 * h - sure_[position] - r, position};
    }
    return touched_r;
  }

  const std::vector<double>& sure_;
  const std::vector<double>& possible_;
  SizeSplitTable table_;
  std::vector<Keyed> untouched_;
  std::size_t untouched_negative_ = 0;  // untouched positions with d < 0
  double untouched_r_ = 0.0;  // sum of min(-psi_R, 0) over untouched positions
  double empty_value_ = 0.0;
  mutable std::vector<Keyed> keyed_;
  mutable std::vector<double> all_;  // sum_of_smallest's scratch
};

// Distinct values of f over a strategy's actions, increasing.
template <class F>
std::vector<std::size_t> distinct(const MixedStrategy<AlignmentAction>& strategy, F f) {
  std::vector<std::size_t> values;
  for (const AlignmentAction& a : strategy.actions) values.push_back(f(a));
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

BestResponse<AlignmentAction> AerGame::predictor_best_response(
    const MixedStrategy<AlignmentAction>& adversary) const {
  return predictor_responses(adversary, {}).front();
}

std::vector<BestResponse<AlignmentAction>> AerGame::predictor_responses(
    const MixedStrategy<AlignmentAction>& adversary, const MixedStrategy<AlignmentAction>& own) const {
  const PredictorView view(adversary, size(), options_.empty_score);
  const double psi = expected_potential(adversary);
  std::vector<BestResponse<AlignmentAction>> responses(1);
  const std::size_t best = view.best_size();
  responses[0].value = view.best_of_size(best, &responses[0].action) - psi;
  for (std::size_t alpha : distinct(own, [](const AlignmentAction& a) { return a.size(); })) {
    if (alpha == best || alpha > size()) continue;
    BestResponse<AlignmentAction> r;
    r.value = view.best_of_size(alpha, &r.action) - psi;
    responses.push_back(std::move(r));
  }
  return responses;
}

BestResponse<AlignmentAction> AerGame::adversary_best_response(
    const MixedStrategy<AlignmentAction>& predictor) const {
  return adversary_responses(predictor, {}).front();
}

std::vector<BestResponse<AlignmentAction>> AerGame::adversary_responses(
    const MixedStrategy<AlignmentAction>& predictor, const MixedStrategy<AlignmentAction>& own) const {
  const AdversaryView view(predictor, sure_potentials_, possible_potentials_, options_.empty_score);
  std::vector<BestResponse<AlignmentAction>> responses(1);
  const std::size_t best = view.best_k(responses[0].value);
  responses[0].action = view.action_of_k(best);
  for (std::size_t k : distinct(own, sure_count)) {
    if (k == best) continue;
    responses.push_back({view.action_of_k(k), view.value_of_k(k)});
  }
  return responses;
}

}  // namespace mpg
