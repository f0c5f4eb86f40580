// AER and the AER game (lib/metrics/aer.hpp).
#include "lib/metrics/aer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

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
  }

  std::size_t touched() const { return positions_.size(); }
  std::uint32_t position(std::size_t t) const { return positions_[t]; }
  const std::vector<std::uint32_t>& positions() const { return positions_; }

  // Sets x for the following at() calls. A size with size + x = 0 (the empty action at x = 0)
  // carries no weight at any position and is skipped.
  void set_x(double x) const {
    for (std::size_t s = 0; s < sizes_.size(); ++s) reciprocal_[s] = sizes_[s] + x > 0.0 ? 1.0 / (sizes_[s] + x) : 0.0;
  }
  double at(std::size_t t) const {
    const double* w = &weights_[t * sizes_.size()];
    double total = 0.0;
    for (std::size_t s = 0; s < sizes_.size(); ++s) total += w[s] * reciprocal_[s];
    return total;
  }

 private:
  std::vector<double> sizes_;
  std::vector<std::uint32_t> positions_;  // increasing
  std::vector<double> weights_;           // touched x sizes
  mutable std::vector<double> reciprocal_;
};

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
    table_.set_x(static_cast<double>(alpha));
    for (std::size_t t = 0; t < table_.touched(); ++t)
      gains_[t] = {-table_.at(t), table_.position(t)};  // ascending = largest g first
    const std::size_t from_touched = std::min(alpha, table_.touched());
    std::nth_element(gains_.begin(), gains_.begin() + static_cast<std::ptrdiff_t>(from_touched) - 1, gains_.end());
    double value = 0.0;
    for (std::size_t i = 0; i < from_touched; ++i) value -= gains_[i].value;
    if (action) {
      action->clear();
      for (std::size_t i = 0; i < from_touched; ++i) action->push_back(link_code(gains_[i].position));
      std::vector<char> taken(n_, 0);
      for (std::uint32_t p : table_.positions()) taken[p] = 1;
      for (std::uint32_t p = 0; p < n_ && action->size() < alpha; ++p)
        if (!taken[p]) action->push_back(link_code(p));
      std::sort(action->begin(), action->end());
    }
    return value;
  }

  // The best size: alpha = 0..touched() (more only adds zeros and shrinks every term); ties go to
  // the smaller size.
  std::size_t best_size() const {
    double best = best_of_size(0, nullptr);
    std::size_t best_alpha = 0;
    for (std::size_t alpha = 1; alpha <= table_.touched(); ++alpha) {
      const double value = best_of_size(alpha, nullptr);
      if (value > best) {
        best = value;
        best_alpha = alpha;
      }
    }
    return best_alpha;
  }

 private:
  std::size_t n_;
  SizeSplitTable table_;
  double empty_value_ = 0.0;
  mutable std::vector<Keyed> gains_;
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
    untouched_prefix_.assign(untouched_.size() + 1, 0.0);
    for (std::size_t i = 0; i < untouched_.size(); ++i) untouched_prefix_[i + 1] = untouched_prefix_[i] + untouched_[i].value;
    empty_value_ = empty_score * empty_probability;
    keyed_.resize(table_.touched());
    keyed_prefix_.resize(table_.touched() + 1);
  }

  // E_k: the least E_P[score] - psi over taggings with exactly k sure links.
  double value_of_k(std::size_t k) const {
    if (k == 0) {
      table_.set_x(0.0);
      double r = 0.0;
      for (std::size_t t = 0; t < table_.touched(); ++t) r += std::min(table_.at(t) - possible_[table_.position(t)], 0.0);
      return empty_value_ + r + untouched_r_;
    }
    const double touched_r = fill_touched(k);
    std::sort(keyed_.begin(), keyed_.end());
    for (std::size_t i = 0; i < keyed_.size(); ++i) keyed_prefix_[i + 1] = keyed_prefix_[i] + keyed_[i].value;
    // The k smallest of the two sorted lists: `from_touched` of them from the touched list.
    std::size_t low = k > untouched_.size() ? k - untouched_.size() : 0;
    std::size_t high = std::min(k, keyed_.size());
    while (low < high) {  // smallest c in [low, high] with not (keyed[c] < untouched[k-c-1])
      const std::size_t c = (low + high) / 2;
      if (keyed_[c] < untouched_[k - c - 1]) low = c + 1;
      else high = c;
    }
    return touched_r + untouched_r_ + keyed_prefix_[low] + untouched_prefix_[k - low];
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
    table_.set_x(static_cast<double>(k));
    for (std::size_t t = 0; t < table_.touched(); ++t) f_r[table_.position(t)] = table_.at(t) - possible_[table_.position(t)];
    AlignmentAction action;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (sure[i]) action.push_back(link_code(i));
      else if (f_r[i] < 0.0) action.push_back(link_code(i, true));
    }
    return action;
  }

  // The smallest k of least E_k. Lower bounds on E_k from h >= 0 at the touched positions:
  // min(f_R, 0) >= min(-psi_R, 0) and f_S - min(f_R, 0) >= -psi_S + min(psi_R, 0) (untouched
  // positions are exact), so E_k >= sum_i min(-psi_R(i), 0) + (sum of the k smallest such bounds);
  // exact E_k are computed in increasing order of the bound until it exceeds the best E found.
  std::size_t best_k(double& best) const {
    const std::size_t n = sure_.size();
    std::vector<double> d_low;
    d_low.reserve(n);
    double r_low = untouched_r_;
    for (std::uint32_t p : table_.positions()) {
      r_low += std::min(-possible_[p], 0.0);
      d_low.push_back(-sure_[p] + std::min(possible_[p], 0.0));
    }
    for (const Keyed& u : untouched_) d_low.push_back(u.value);
    std::sort(d_low.begin(), d_low.end());
    std::vector<double> bound(n + 1, 0.0);
    std::vector<std::size_t> order;
    double prefix = 0.0;
    for (std::size_t k = 1; k <= n; ++k) {
      prefix += d_low[k - 1];
      bound[k] = r_low + prefix;
      order.push_back(k);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bound[a] < bound[b]; });
    best = value_of_k(0);
    std::size_t best_k = 0;
    for (std::size_t k : order) {
      if (bound[k] > best + 1e-12 * (1.0 + std::abs(best))) break;
      const double value = value_of_k(k);
      if (value < best || (value == best && k < best_k)) {
        best = value;
        best_k = k;
      }
    }
    return best_k;
  }

 private:
  // keyed_ = (f_S - min(f_R, 0), position) of the touched positions at k; returns their
  // sum of min(f_R, 0).
  double fill_touched(std::size_t k) const {
    table_.set_x(static_cast<double>(k));
    double touched_r = 0.0;
    for (std::size_t t = 0; t < table_.touched(); ++t) {
      const std::uint32_t position = table_.position(t);
      const double h = table_.at(t);
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
  std::vector<double> untouched_prefix_;
  double untouched_r_ = 0.0;  // sum of min(-psi_R, 0) over untouched positions
  double empty_value_ = 0.0;
  mutable std::vector<Keyed> keyed_;
  mutable std::vector<double> keyed_prefix_;
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
