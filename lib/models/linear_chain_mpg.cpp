// Linear-chain F1 MPG: objective over per-sentence games and training (lib/models/linear_chain_mpg.hpp).
#include "lib/models/linear_chain_mpg.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/block_coordinate.hpp"
#include "lib/learn/minibatch_adadelta.hpp"

namespace mpg {

namespace {

std::vector<int> binarized(const std::vector<int>& labels, int target, int other) {
  std::vector<int> out(labels.size());
  for (std::size_t t = 0; t < labels.size(); ++t) out[t] = labels[t] == target ? target : other;
  return out;
}

DoubleOracleOptions game_options(double tolerance, int max_iterations) {
  DoubleOracleOptions o;
  o.tolerance = tolerance;
  o.max_iterations = max_iterations;
  // Sentence games are small: keep every generated action (no pruning).
  o.prune_after = 0;
  return o;
}

}  // namespace

DoubleOracleOptions chain_game_options(const LinearChainMpgOptions& options) {
  const DoubleOracleOptions certified = game_options(options.game_tolerance, options.max_game_iterations);
  return options.protocol == TrainingProtocol::certified ? certified : authors_game_options(certified);
}

SentenceGames::Solution SentenceGames::solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const {
  const FeaturizedSentence& sentence = sentences_[i];
  Solution solution;
  if (sentence.size() == 0) return solution;
  LinearChainF1Game game(chain_scores(sentence, theta, layout_), options_.target);
  if (has_zero_potentials(game.potentials())) {
    // theta = 0 (every training's start): every labelling ties and the game has an exact
    // solution by action sizes (solve_zero_potential_chain_game), far cheaper than the double
    // oracle, whose supports grow large there. The next solve starts without its supports.
    const DoubleOracleOptions settings = chain_game_options(options_);
    const GameSolution<LabelSequence> result = solve_zero_potential_chain_game(game, settings.tolerance);
    if (result.summary.converged()) {
      warm = {};
      solution.value = result.summary.value;
      solution.gap = result.summary.gap;
      solution.seconds = result.summary.seconds;
      solution.adversary = result.adversary;
      return solution;
    }
  }
  // Seeds: the gold labelling (binarized for the predictor) and, certified, last evaluation's
  // supports (the reference starts every solve afresh).
  const bool authors = options_.protocol != TrainingProtocol::certified;
  std::vector<LabelSequence> rows = authors ? std::vector<LabelSequence>{} : warm.rows;
  std::vector<LabelSequence> columns = authors ? std::vector<LabelSequence>{} : warm.columns;
  rows.push_back(binarized(sentence.labels, options_.target, game.other_label()));
  columns.push_back(sentence.labels);
  const GameSolution<LabelSequence> result = solve_double_oracle(game, chain_game_options(options_), rows, columns);
  warm.rows = result.predictor.actions;
  warm.columns = result.adversary.actions;
  solution.value = result.summary.value;
  solution.converged = result.summary.converged();
  solution.gap = result.summary.gap;
  solution.seconds = result.summary.seconds;
  solution.adversary = result.adversary;
  return solution;
}

std::vector<Eigen::Index> SentenceGames::support(std::size_t i) const {
  std::vector<Eigen::Index> out;
  for (const auto& token : sentences_[i].features)
    for (std::uint32_t f : token)
      for (int label = 0; label < layout_.labels; ++label) out.push_back(static_cast<Eigen::Index>(layout_.unary_index(f, label)));
  if (sentences_[i].size() > 0)
    for (int previous = 0; previous <= layout_.labels; ++previous)
      for (int label = 0; label < layout_.labels; ++label)
        out.push_back(static_cast<Eigen::Index>(layout_.transition_index(previous, label)));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

const LinearChainMpgOptions& checked(const LinearChainMpgOptions& options, const ChainLayout& layout) {
  options.validate();
  if (options.target < 0 || options.target >= layout.labels) throw Error("linear-chain MPG: target outside 0..m-1");
  return options;
}

OptimizerOptions chain_optimizer(const LinearChainMpgOptions& options) {
  OptimizerOptions optimizer =
      sum_of_games_optimizer(options.optimizer, options.max_iterations, options.objective_tolerance);
  optimizer.gradient_tolerance = options.gradient_tolerance;
  optimizer.cutting_plane_proximal = true;
  optimizer.argument_tolerance = options.argument_tolerance;
  optimizer.progress = options.progress;
  return optimizer;
}

const LinearChainMpgOptions& path_checked(const LinearChainMpgOptions& options) {
  if (options.optimizer != OptimizerKind::cutting_plane || options.protocol != TrainingProtocol::certified)
    throw Error("linear-chain MPG: a lambda path needs the cutting-plane optimizer (protocol certified)");
  return options;
}

}  // namespace

LinearChainMpgObjective::LinearChainMpgObjective(const std::vector<FeaturizedSentence>& sentences,
                                                 ChainLayout layout, const LinearChainMpgOptions& options)
    : games_(sentences, layout, checked(options, layout)), objective_(games_, options.lambda, InstanceWeighting::sum) {}

LinearChainMpgModel train_linear_chain_mpg(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                                           const LinearChainMpgOptions& options) {
  LinearChainMpgModel model;
  model.layout = layout;
  model.target = options.target;
  model.theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  if (options.protocol != TrainingProtocol::certified) {
    // The authors' protocols (lib/learn/protocol.hpp): from theta = 0, the reference's optimizer.
    LinearChainMpgObjective objective(sentences, layout, options);
    OptimizerOptions optimizer = authors_optimizer_options(options.protocol);
    optimizer.progress = options.progress;
    if (options.protocol == TrainingProtocol::authors_lbfgs)
      model.summary = minimize_sum_of_games(objective.sum_of_games(), model.theta, optimizer, options.lambda, 0.0);
    else
      model.summary = minimize_sum_of_games_minibatch(
          objective.sum_of_games(), sentences.size(), model.theta,
          MinibatchAdaDeltaOptions::from(optimizer, options.batch_size, options.seed));
    return model;
  }
  // The proximal bundle starts at its first center, theta = 0 (a subgradient there is as good a
  // cut as any); L-BFGS needs the seeded start (see LinearChainMpgOptions::initial_scale).
  const bool certified = options.optimizer == OptimizerKind::cutting_plane;
  if (options.instance_planes) {
    // The games alone: the summed objective (gold feature sums, warm starts) is the bundle's.
    if (!certified) throw Error("linear-chain MPG: instance planes need the cutting-plane optimizer");
    BlockCoordinateOptions block;
    block.lambda = options.lambda;
    block.tolerance = options.objective_tolerance;
    block.argument_tolerance = options.argument_tolerance;
    block.max_passes = options.max_iterations;
    block.progress = options.progress;
    model.summary =
        minimize_by_instance_planes(SentenceGames(sentences, layout, checked(options, layout)), model.theta, block);
    return model;
  }
  LinearChainMpgObjective objective(sentences, layout, options);
  if (options.initial_scale > 0.0 && !certified) {
    // Box-Muller on a 64-bit Mersenne twister: the same draw with every standard library.
    std::mt19937_64 engine(options.seed);
    auto uniform = [&engine] { return (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53; };
    for (Eigen::Index i = 0; i < model.theta.size(); ++i) {
      const double u1 = uniform();
      const double u2 = uniform();
      model.theta[i] = options.initial_scale * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
  }
  model.summary = minimize_sum_of_games(objective.sum_of_games(), model.theta, chain_optimizer(options), options.lambda, 0.0);
  return model;
}

LinearChainMpgPath::LinearChainMpgPath(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                                       const LinearChainMpgOptions& options)
    : layout_(layout),
      options_(path_checked(options)),
      objective_(sentences, layout, options),
      optimizer_(chain_optimizer(options)),
      theta_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()))) {
  optimizer_.cut_store = &cuts_;
}

LinearChainMpgModel LinearChainMpgPath::train(double lambda) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) throw Error("linear-chain MPG: lambda must be > 0");
  objective_.sum_of_games().set_lambda(lambda);
  LinearChainMpgModel model;
  model.layout = layout_;
  model.target = options_.target;
  model.summary = minimize_sum_of_games(objective_.sum_of_games(), theta_, optimizer_, lambda, 0.0);
  model.theta = theta_;
  return model;
}

std::vector<LinearChainMpgModel> train_linear_chain_mpg_path(const std::vector<FeaturizedSentence>& sentences,
                                                             ChainLayout layout, const LinearChainMpgOptions& options,
                                                             const std::vector<double>& lambdas) {
  std::vector<std::size_t> order(lambdas.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Largest lambda first (its optimum is nearest the start, theta = 0); equal values keep their order.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lambdas[a] > lambdas[b]; });
  std::vector<LinearChainMpgModel> models(lambdas.size());
  if (lambdas.empty()) return models;
  LinearChainMpgOptions first = options;
  first.lambda = lambdas[order[0]];
  LinearChainMpgPath path(sentences, layout, first);
  for (std::size_t i : order) models[i] = path.train(lambdas[i]);
  return models;
}

LabelSequence maximin_chain_decision(const LinearChainF1Game& game) {
  const std::size_t T = game.length();
  const ChainMarginals marginals = chain_marginals(game.potentials());
  std::vector<Eigen::Index> positions(T);
  std::iota(positions.begin(), positions.end(), Eigen::Index{0});
  std::stable_sort(positions.begin(), positions.end(), [&](Eigen::Index a, Eigen::Index b) {
    return marginals.unary(a, game.target()) > marginals.unary(b, game.target());
  });
  // The guaranteed payoff of a pure labelling: the adversary's best response value against it.
  auto security = [&](const LabelSequence& action) {
    MixedStrategy<LabelSequence> pure;
    pure.actions = {action};
    pure.probabilities = {1.0};
    return game.adversary_best_response(pure).value;
  };
  std::vector<bool> binary(T, false);
  LabelSequence best = game.from_binary(binary);
  double best_value = security(best);
  for (std::size_t k = 1; k <= T; ++k) {
    binary[static_cast<std::size_t>(positions[k - 1])] = true;
    LabelSequence candidate = game.from_binary(binary);
    const double value = security(candidate);
    if (value > best_value + 1e-12) {
      best_value = value;
      best = std::move(candidate);
    }
  }
  return best;
}

LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       double game_tolerance, bool* converged, ChainDecisionRule rule) {
  return predict_linear_chain_mpg(model, sentence, game_options(game_tolerance, 500), converged, rule);
}

LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       const DoubleOracleOptions& game_settings, bool* converged,
                                       ChainDecisionRule rule) {
  if (sentence.size() == 0) return {};
  LinearChainF1Game game(chain_scores(sentence, model.theta, model.layout), model.target);
  if (rule == ChainDecisionRule::maximin) {
    if (converged) *converged = true;
    return maximin_chain_decision(game);
  }
  GameSolution<LabelSequence> solution;
  if (has_zero_potentials(game.potentials())) solution = solve_zero_potential_chain_game(game, game_settings.tolerance);
  if (!solution.summary.converged()) solution = solve_double_oracle(game, game_settings);
  if (converged) *converged = solution.summary.converged();
  return solution.predictor.actions[most_probable_index(solution.predictor)];
}

}  // namespace mpg
