// The bipartite-matching game (lib/metrics/matching_game.hpp).
#include "lib/metrics/matching_game.hpp"

#include <algorithm>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/game/bipartite_matching.hpp"

namespace mpg {

double matching_score(const AlignmentAction& prediction, const AlignmentAction& label,
                      const MatchingGameOptions& options) {
  std::size_t shared = 0;
  std::size_t g = 0;
  for (std::uint32_t code : prediction) {
    while (g < label.size() && link_position(label[g]) < link_position(code)) ++g;
    if (g < label.size() && link_position(label[g]) == link_position(code)) ++shared;
  }
  const auto both = static_cast<double>(shared);
  return options.false_negative_cost * (both - static_cast<double>(label.size())) +
         options.false_positive_cost * (both - static_cast<double>(prediction.size()));
}

MatchingGame::MatchingGame(std::size_t english_length, std::size_t french_length, std::vector<double> potentials,
                           const MatchingGameOptions& options)
    : english_length_(english_length), french_length_(french_length), potentials_(std::move(potentials)),
      options_(options) {
  if (english_length_ == 0 || french_length_ == 0) throw Error("matching game: empty sentence");
  if (potentials_.size() != english_length_ * french_length_)
    throw Error("matching game: " + std::to_string(potentials_.size()) + " potentials for a " +
                std::to_string(english_length_) + " x " + std::to_string(french_length_) + " grid");
  if (!std::all_of(potentials_.begin(), potentials_.end(), [](double x) { return std::isfinite(x); }))
    throw Error("matching game: non-finite potential");
  const double fn = options_.false_negative_cost, fp = options_.false_positive_cost;
  if (!std::isfinite(fn) || !std::isfinite(fp) || fn < 0.0 || fp < 0.0 || fn + fp <= 0.0)
    throw Error("matching game: the costs must be finite, >= 0 and not both 0");
}

double MatchingGame::potential(const AlignmentAction& adversary_action) const {
  double total = 0.0;
  for (std::uint32_t code : adversary_action) total += potentials_[link_position(code)];
  return total;
}

bool MatchingGame::is_matching(const AlignmentAction& action) const {
  if (!is_alignment_action(action, potentials_.size(), true)) return false;
  std::vector<char> english_used(english_length_, 0), french_used(french_length_, 0);
  for (std::uint32_t code : action) {
    const std::uint32_t p = link_position(code);
    char& e = english_used[p / french_length_];
    char& f = french_used[p % french_length_];
    if (e || f) return false;
    e = f = 1;
  }
  return true;
}

BestResponse<AlignmentAction> MatchingGame::predictor_best_response(
    const MixedStrategy<AlignmentAction>& adversary) const {
  const double fn = options_.false_negative_cost, fp = options_.false_positive_cost;
  std::vector<double> weights = position_marginals(adversary, potentials_.size());
  for (double& w : weights) w = (fn + fp) * w - fp;
  double expected_size = 0.0, expected_potential = 0.0;
  for (std::size_t j = 0; j < adversary.size(); ++j) {
    expected_size += adversary.probabilities[j] * static_cast<double>(adversary.actions[j].size());
    expected_potential += adversary.probabilities[j] * potential(adversary.actions[j]);
  }
  BestResponse<AlignmentAction> response;
  response.action = max_weight_matching_links(english_length_, french_length_, weights, &response.value);
  response.value -= fn * expected_size + expected_potential;
  return response;
}

BestResponse<AlignmentAction> MatchingGame::adversary_best_response(
    const MixedStrategy<AlignmentAction>& predictor) const {
  const double fn = options_.false_negative_cost, fp = options_.false_positive_cost;
  std::vector<double> weights = position_marginals(predictor, potentials_.size());
  for (std::size_t p = 0; p < weights.size(); ++p) weights[p] = potentials_[p] + fn - (fn + fp) * weights[p];
  double expected_size = 0.0;
  for (std::size_t j = 0; j < predictor.size(); ++j)
    expected_size += predictor.probabilities[j] * static_cast<double>(predictor.actions[j].size());
  BestResponse<AlignmentAction> response;
  response.action = max_weight_matching_links(english_length_, french_length_, weights, &response.value);
  response.value = -response.value - fp * expected_size;
  return response;
}

}  // namespace mpg
