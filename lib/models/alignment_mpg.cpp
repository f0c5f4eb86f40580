// Word alignment models and per-pair games (lib/models/alignment_mpg.hpp).
#include "lib/models/alignment_mpg.hpp"

#include <algorithm>
#include <cmath>

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

namespace {

// The most probable action of the predictor's strategy; exact ties go to the smaller, then
// lexicographically smaller, action (a function of the strategy, not of the order its actions
// were generated in).
AlignmentPrediction most_probable_alignment(const GameSolution<AlignmentAction>& solution) {
  const MixedStrategy<AlignmentAction>& p = solution.predictor;
  if (p.size() == 0) throw Error("alignment prediction: the game returned an empty predictor strategy");
  std::size_t best = 0;
  for (std::size_t j = 1; j < p.size(); ++j) {
    const double a = p.probabilities[j], b = p.probabilities[best];
    const bool smaller = p.actions[j].size() != p.actions[best].size() ? p.actions[j].size() < p.actions[best].size()
                                                                       : p.actions[j] < p.actions[best];
    if (a > b || (a == b && smaller)) best = j;
  }
  return {p.actions[best], solution.summary};
}

}  // namespace

AlignmentPrediction predict_by_game(const Game<AlignmentAction>& game, const DoubleOracleOptions& options) {
  return most_probable_alignment(solve_double_oracle(game, options));
}

}  // namespace mpg

namespace mpg {

namespace {

// The links of an action (tags dropped): the predictor's seed from a gold action.
AlignmentAction links_of(const AlignmentAction& action) {
  AlignmentAction links;
  for (std::uint32_t code : action) links.push_back(link_code(link_position(code)));
  return links;
}

// The `count` most probable actions (ties: the smaller, then lexicographically smaller action,
// so that the seeds do not depend on the order the actions were generated in).
std::vector<AlignmentAction> most_probable_actions(const MixedStrategy<AlignmentAction>& strategy, int count) {
  std::vector<std::size_t> index(strategy.size());
  for (std::size_t j = 0; j < index.size(); ++j) index[j] = j;
  std::sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
    if (strategy.probabilities[a] != strategy.probabilities[b]) return strategy.probabilities[a] > strategy.probabilities[b];
    const AlignmentAction &x = strategy.actions[a], &y = strategy.actions[b];
    return x.size() != y.size() ? x.size() < y.size() : x < y;
  });
  index.resize(std::min(index.size(), static_cast<std::size_t>(std::max(count, 0))));
  std::vector<AlignmentAction> out;
  for (std::size_t j : index) out.push_back(strategy.actions[j]);
  return out;
}

}  // namespace

AlignmentGames::AlignmentGames(const std::vector<AlignmentInstance>& instances, const AlignmentMpgOptions& options)
    : instances_(instances), options_(options) {
  for (const AlignmentInstance& x : instances_)
    gold_.push_back(options_.kind == AlignmentMpgKind::matching
                        ? target_matching(x, {options_.matching.false_negative_cost, options_.matching.false_positive_cost})
                        : x.gold);
}

Eigen::Index AlignmentGames::dimension() const {
  const Eigen::Index d = instances_.empty() ? 0 : instances_.front().features.cols();
  return options_.kind == AlignmentMpgKind::matching ? d : 2 * d;
}

void AlignmentGames::add_gold_features(std::size_t i, Eigen::VectorXd& sum) const {
  sum += options_.kind == AlignmentMpgKind::matching ? link_features(instances_[i], gold_[i])
                                                     : tagged_link_features(instances_[i], gold_[i]);
}

AlignmentGames::Solution AlignmentGames::solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const {
  const bool authors = options_.protocol != TrainingProtocol::certified;
  // The reference seeds every game with the gold for both players and keeps no warm start.
  std::vector<AlignmentAction> rows = authors ? std::vector<AlignmentAction>{} : warm.rows;
  std::vector<AlignmentAction> columns = authors ? std::vector<AlignmentAction>{} : warm.columns;
  rows.push_back(links_of(gold_[i]));
  columns.push_back(gold_[i]);
  auto run = [&](const Game<AlignmentAction>& game) {
    if (authors) return solve_double_oracle(game, authors_game_options({}, options_.authors_game), rows, columns);
    DoubleOracleOptions game_options;
    game_options.tolerance = options_.game_tolerance;
    game_options.max_actions = options_.max_game_actions;
    game_options.max_iterations = options_.max_game_iterations;
    return solve_double_oracle(game, game_options, rows, columns);
  };
  GameSolution<AlignmentAction> result;
  if (options_.kind == AlignmentMpgKind::matching)
    result = run(make_matching_game(instances_[i], theta, options_.matching));
  else
    result = run(make_aer_game(instances_[i], theta, options_.aer));
  if (!authors) {
    warm.rows = most_probable_actions(result.predictor, options_.warm_actions);
    warm.columns = most_probable_actions(result.adversary, options_.warm_actions);
  }
  Solution solution;
  // certified: the guarantee of the best adversary strategy found (a valid cut, docs/methods.md);
  // authors': the last LP value with that LP's adversary strategy, as the reference pairs them.
  solution.value = authors ? result.summary.value : result.summary.predictor_response_value;
  // authors': a game stopped by the reference's own rule counts as finished, one stopped at the
  // action cap does not; the gap is reported either way.
  solution.converged = authors ? result.summary.status != DoubleOracleStatus::action_limit : result.summary.converged();
  solution.gap = result.summary.gap;
  solution.seconds = result.summary.seconds;
  solution.adversary = std::move(result.adversary);
  return solution;
}

void AlignmentGames::add_expected_features(std::size_t i, const Solution& solution, double weight,
                                           Eigen::VectorXd& gradient) const {
  gradient += weight * (options_.kind == AlignmentMpgKind::matching
                            ? expected_link_features(instances_[i], solution.adversary)
                            : expected_tagged_link_features(instances_[i], solution.adversary));
}

AlignmentMpgModel train_alignment_mpg(const std::vector<AlignmentInstance>& instances,
                                      const AlignmentMpgOptions& options) {
  options.validate();
  if (instances.empty()) throw Error("alignment MPG: no training pairs");
  const AlignmentGames games(instances, options);
  SumOfGamesObjective<AlignmentGames> objective(games, options.lambda, InstanceWeighting::sum);
  AlignmentMpgModel model;
  model.kind = options.kind;
  model.matching = options.matching;
  model.aer = options.aer;
  model.protocol = options.protocol;
  model.authors_game = options.authors_game;
  model.theta = Eigen::VectorXd::Zero(games.dimension());
  OptimizerOptions optimizer;
  if (options.protocol == TrainingProtocol::certified) {
    optimizer = sum_of_games_optimizer(options.optimizer, options.max_iterations, options.objective_tolerance);
    optimizer.cutting_plane_proximal = options.proximal;
    optimizer.cutting_plane_scaled_start = options.proximal;
  } else {
    optimizer = authors_optimizer_options(options.protocol);
    if (options.authors_max_iterations > 0) optimizer.max_iterations = options.authors_max_iterations;
  }
  model.summary = minimize_sum_of_games(objective, model.theta, optimizer, options.lambda, options.max_seconds);
  return model;
}

AlignmentPrediction predict_alignment_mpg(const AlignmentMpgModel& model, const AlignmentInstance& instance,
                                          double game_tolerance, int max_game_iterations) {
  if (model.protocol != TrainingProtocol::certified) {
    const DoubleOracleOptions rule = authors_game_options({}, model.authors_game);
    if (model.kind == AlignmentMpgKind::matching)
      return predict_by_game(make_matching_game(instance, model.theta, model.matching), rule);
    return predict_by_game(make_aer_game(instance, model.theta, model.aer), rule);
  }
  DoubleOracleOptions options;
  options.tolerance = game_tolerance;
  options.max_iterations = max_game_iterations;
  if (model.kind == AlignmentMpgKind::matching)
    return predict_by_game(make_matching_game(instance, model.theta, model.matching), options);
  return predict_by_game(make_aer_game(instance, model.theta, model.aer), options);
}

}  // namespace mpg
