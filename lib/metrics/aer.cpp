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

// A touched position's terms sum_t weight_t / (size_t + x), one per distinct size among the
// opponent actions that contain it (weights of equal sizes merged).
struct Terms {
  std::vector<double> sizes;
  std::vector<double> weights;
  void add(double size, double weight) {
    for (std::size_t t = 0; t < sizes.size(); ++t)
      if (sizes[t] == size) {
        weights[t] += weight;
        return;
      }
    sizes.push_back(size);
    weights.push_back(weight);
  }
  double at(double x) const {
    double total = 0.0;
    for (std::size_t t = 0; t < sizes.size(); ++t) total += weights[t] / (sizes[t] + x);
    return total;
  }
};

// (value, position) in increasing order: ties broken by position.
struct Keyed {
  double value;
  std::uint32_t position;
  bool operator<(const Keyed& other) const {
    return value != other.value ? value < other.value : position < other.position;
  }
};

}  // namespace

BestResponse<AlignmentAction> AerGame::predictor_best_response(
    const MixedStrategy<AlignmentAction>& adversary) const {
  // g(i, alpha) = sum over support actions j tagging i: q_j (2 [S] + [R]) / (alpha + k_j).
  std::map<std::uint32_t, Terms> touched;  // ordered by position
  double no_sure = 0.0;                    // P(|y_S| = 0)
  for (std::size_t j = 0; j < adversary.size(); ++j) {
    const AlignmentAction& y = adversary.actions[j];
    const double q = adversary.probabilities[j];
    const auto k = static_cast<double>(
        std::count_if(y.begin(), y.end(), [](std::uint32_t code) { return !link_is_possible_only(code); }));
    if (k == 0.0) no_sure += q;
    for (std::uint32_t code : y) touched[link_position(code)].add(k, link_is_possible_only(code) ? q : 2.0 * q);
  }
  double best = options_.empty_score * no_sure;  // alpha = 0
  std::vector<Keyed> gains(touched.size()), chosen;
  for (std::size_t alpha = 1; alpha <= touched.size(); ++alpha) {
    std::size_t t = 0;
    for (const auto& [position, terms] : touched)
      gains[t++] = {-terms.at(static_cast<double>(alpha)), position};  // ascending = largest g first
    std::nth_element(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(alpha - 1), gains.end());
    double value = 0.0;
    for (std::size_t i = 0; i < alpha; ++i) value -= gains[i].value;
    if (value > best) {
      best = value;
      chosen.assign(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(alpha));
    }
  }
  AlignmentAction action;
  for (const Keyed& g : chosen) action.push_back(link_code(g.position));
  std::sort(action.begin(), action.end());
  return {std::move(action), best - expected_potential(adversary)};
}

BestResponse<AlignmentAction> AerGame::adversary_best_response(
    const MixedStrategy<AlignmentAction>& predictor) const {
  const std::size_t n = size();
  // h(i, x) = sum over support actions j containing i: p_j / (alpha_j + x).
  std::map<std::uint32_t, Terms> touched_terms;
  double empty_probability = 0.0;
  for (std::size_t j = 0; j < predictor.size(); ++j) {
    const AlignmentAction& a = predictor.actions[j];
    if (a.empty()) empty_probability += predictor.probabilities[j];
    for (std::uint32_t code : a)
      touched_terms[link_position(code)].add(static_cast<double>(a.size()), predictor.probabilities[j]);
  }
  std::vector<char> is_touched(n, 0);
  for (const auto& entry : touched_terms) is_touched[entry.first] = 1;

  // Untouched positions: f_S = -psi_S, f_R = -psi_R for every k; d = f_S - min(f_R, 0).
  std::vector<Keyed> untouched;
  double untouched_r = 0.0;  // sum of min(-psi_R, 0) over untouched positions
  untouched.reserve(n - touched_terms.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    if (is_touched[i]) continue;
    const double r = std::min(-possible_potentials_[i], 0.0);
    untouched_r += r;
    untouched.push_back({-sure_potentials_[i] - r, i});
  }
  std::sort(untouched.begin(), untouched.end());
  std::vector<double> untouched_prefix(untouched.size() + 1, 0.0);
  for (std::size_t i = 0; i < untouched.size(); ++i) untouched_prefix[i + 1] = untouched_prefix[i] + untouched[i].value;

  // k = 0: only R or N.
  double touched_r = 0.0;
  for (const auto& [position, terms] : touched_terms)
    touched_r += std::min(terms.at(0.0) - possible_potentials_[position], 0.0);
  double best = options_.empty_score * empty_probability + touched_r + untouched_r;
  std::size_t best_k = 0;

  std::vector<Keyed> touched(touched_terms.size());
  std::vector<double> touched_prefix(touched.size() + 1);
  for (std::size_t k = 1; k <= n; ++k) {
    const auto x = static_cast<double>(k);
    std::size_t t = 0;
    touched_r = 0.0;
    for (const auto& [position, terms] : touched_terms) {
      const double h = terms.at(x);
      const double r = std::min(h - possible_potentials_[position], 0.0);
      touched_r += r;
      touched[t++] = {2.0 * h - sure_potentials_[position] - r, position};
    }
    std::sort(touched.begin(), touched.end());
    for (std::size_t i = 0; i < touched.size(); ++i) touched_prefix[i + 1] = touched_prefix[i] + touched[i].value;
    // The k smallest of the two sorted lists: `from_touched` of them from the touched list, the
    // largest count whose last touched element precedes the untouched element it displaces.
    std::size_t low = k > untouched.size() ? k - untouched.size() : 0;
    std::size_t high = std::min(k, touched.size());
    while (low < high) {  // smallest count c in [low, high] with not (touched[c] < untouched[k-c-1])
      const std::size_t c = (low + high) / 2;
      if (touched[c] < untouched[k - c - 1]) low = c + 1;
      else high = c;
    }
    const std::size_t from_touched = low;
    const double value = touched_r + untouched_r + touched_prefix[from_touched] + untouched_prefix[k - from_touched];
    if (value < best) {
      best = value;
      best_k = k;
    }
  }

  // The action of the best k.
  AlignmentAction action;
  if (best_k == 0) {
    for (const auto& [position, terms] : touched_terms)
      if (terms.at(0.0) - possible_potentials_[position] < 0.0) action.push_back(link_code(position, true));
    for (const Keyed& u : untouched)
      if (-possible_potentials_[u.position] < 0.0) action.push_back(link_code(u.position, true));
  } else {
    const auto x = static_cast<double>(best_k);
    std::vector<Keyed> all;
    std::vector<double> f_r(n);
    for (const auto& [position, terms] : touched_terms) {
      const double h = terms.at(x);
      f_r[position] = h - possible_potentials_[position];
      all.push_back({2.0 * h - sure_potentials_[position] - std::min(f_r[position], 0.0), position});
    }
    for (const Keyed& u : untouched) {
      f_r[u.position] = -possible_potentials_[u.position];
      all.push_back(u);
    }
    std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(best_k - 1), all.end());
    std::vector<char> sure(n, 0);
    for (std::size_t i = 0; i < best_k; ++i) sure[all[i].position] = 1;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (sure[i]) action.push_back(link_code(i));
      else if (f_r[i] < 0.0) action.push_back(link_code(i, true));
    }
  }
  std::sort(action.begin(), action.end());
  return {std::move(action), best};
}

}  // namespace mpg
