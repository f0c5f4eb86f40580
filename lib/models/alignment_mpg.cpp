// Word alignment models and per-pair games (lib/models/alignment_mpg.hpp).
#include "lib/models/alignment_mpg.hpp"

#include <algorithm>

#include "lib/base/error.hpp"
#include "lib/game/bipartite_matching.hpp"

namespace mpg {

double alignment_loss(const AlignmentAction& proposal, const AlignmentAction& gold, const AlignmentCosts& costs) {
  const AerCounts counts = aer_counts(proposal, gold);
  return costs.false_negative_cost * (counts.sure - counts.proposed_sure) +
         costs.false_positive_cost * (counts.proposed - counts.proposed_possible);
}

AlignmentAction target_matching(const AlignmentInstance& instance, const AlignmentCosts& costs) {
  std::vector<double> weights(instance.positions(), 0.0);
  const double sure = costs.false_negative_cost > 0.0 ? costs.false_negative_cost : 1.0;
  const double possible = sure / static_cast<double>(std::min(instance.english_length, instance.french_length) + 1);
  for (std::uint32_t code : instance.gold) weights[link_position(code)] = link_is_possible_only(code) ? possible : sure;
  return max_weight_matching_links(instance.english_length, instance.french_length, weights);
}

std::vector<double> edge_scores(const AlignmentInstance& instance, const Eigen::VectorXd& theta) {
  if (theta.size() != instance.features.cols())
    throw Error("alignment model: " + std::to_string(theta.size()) + " weights for " +
                std::to_string(instance.features.cols()) + " features");
  const Eigen::VectorXd scores = instance.features * theta;
  return {scores.data(), scores.data() + scores.size()};
}

Eigen::VectorXd link_features(const AlignmentInstance& instance, const AlignmentAction& action) {
  Eigen::VectorXd total = Eigen::VectorXd::Zero(instance.features.cols());
  for (std::uint32_t code : action) total += instance.features.row(link_position(code)).transpose();
  return total;
}

Eigen::VectorXd tagged_link_features(const AlignmentInstance& instance, const AlignmentAction& action) {
  const Eigen::Index d = instance.features.cols();
  Eigen::VectorXd total = Eigen::VectorXd::Zero(2 * d);
  for (std::uint32_t code : action) {
    const Eigen::Index offset = link_is_possible_only(code) ? d : 0;
    for (AlignmentFeatureMatrix::InnerIterator it(instance.features, link_position(code)); it; ++it)
      total[offset + it.col()] += it.value();
  }
  return total;
}

MatchingGame make_matching_game(const AlignmentInstance& instance, const Eigen::VectorXd& theta,
                                const MatchingGameOptions& options) {
  return MatchingGame(instance.english_length, instance.french_length, edge_scores(instance, theta), options);
}

AerGame make_aer_game(const AlignmentInstance& instance, const Eigen::VectorXd& theta, const AerGameOptions& options) {
  const Eigen::Index d = instance.features.cols();
  if (theta.size() != 2 * d)
    throw Error("AER game: " + std::to_string(theta.size()) + " weights for 2 x " + std::to_string(d) + " features");
  return AerGame(edge_scores(instance, theta.head(d)), edge_scores(instance, theta.tail(d)), options);
}

Eigen::VectorXd expected_link_features(const AlignmentInstance& instance, const MixedStrategy<AlignmentAction>& strategy) {
  Eigen::VectorXd total = Eigen::VectorXd::Zero(instance.features.cols());
  for (std::size_t j = 0; j < strategy.size(); ++j)
    total += strategy.probabilities[j] * link_features(instance, strategy.actions[j]);
  return total;
}

Eigen::VectorXd expected_tagged_link_features(const AlignmentInstance& instance,
                                              const MixedStrategy<AlignmentAction>& strategy) {
  Eigen::VectorXd total = Eigen::VectorXd::Zero(2 * instance.features.cols());
  for (std::size_t j = 0; j < strategy.size(); ++j)
    total += strategy.probabilities[j] * tagged_link_features(instance, strategy.actions[j]);
  return total;
}

AlignmentPrediction predict_by_game(const Game<AlignmentAction>& game, const DoubleOracleOptions& options) {
  const GameSolution<AlignmentAction> solution = solve_double_oracle(game, options);
  const MixedStrategy<AlignmentAction>& p = solution.predictor;
  if (p.size() == 0) throw Error("alignment prediction: the game returned an empty predictor strategy");
  // The most probable action; exact ties go to the smaller, then lexicographically smaller, action
  // (a function of the strategy, not of the order its actions were generated in).
  std::size_t best = 0;
  for (std::size_t j = 1; j < p.size(); ++j) {
    const double a = p.probabilities[j], b = p.probabilities[best];
    const bool smaller = p.actions[j].size() != p.actions[best].size() ? p.actions[j].size() < p.actions[best].size()
                                                                       : p.actions[j] < p.actions[best];
    if (a > b || (a == b && smaller)) best = j;
  }
  return {p.actions[best], solution.summary};
}

}  // namespace mpg
