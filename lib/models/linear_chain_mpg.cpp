// Linear-chain F1 MPG: objective over per-sentence games and training (lib/models/linear_chain_mpg.hpp).
#include "lib/models/linear_chain_mpg.hpp"

#include <tbb/parallel_for.h>

#include <cmath>
#include <numbers>
#include <random>

#include "lib/base/error.hpp"

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

LinearChainMpgObjective::LinearChainMpgObjective(const std::vector<FeaturizedSentence>& sentences,
                                                 ChainLayout layout, const LinearChainMpgOptions& options)
    : sentences_(sentences), layout_(layout), options_(options) {
  if (!(options.lambda > 0.0)) throw Error("linear-chain MPG: lambda must be > 0");
  if (options.target < 0 || options.target >= layout.labels) throw Error("linear-chain MPG: target outside 0..m-1");
  empirical_counts_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout_.size()));
  for (const auto& sentence : sentences_) add_feature_counts(sentence, sentence.labels, 1.0, layout_, empirical_counts_);
  warm_rows_.resize(sentences_.size());
  warm_columns_.resize(sentences_.size());
}

double LinearChainMpgObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const std::size_t n = sentences_.size();
  std::vector<double> values(n, 0.0);
  std::vector<MixedStrategy<LabelSequence>> adversaries(n);
  std::vector<char> converged(n, 1);
  const DoubleOracleOptions options = game_options(options_.game_tolerance, options_.max_game_iterations);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
    const FeaturizedSentence& sentence = sentences_[i];
    if (sentence.size() == 0) return;
    LinearChainF1Game game(chain_scores(sentence, theta, layout_), options_.target);
    // Seeds: the gold labelling (binarized for the predictor) and last evaluation's supports.
    std::vector<LabelSequence> rows = warm_rows_[i];
    std::vector<LabelSequence> columns = warm_columns_[i];
    rows.push_back(binarized(sentence.labels, options_.target, game.other_label()));
    columns.push_back(sentence.labels);
    const GameSolution<LabelSequence> solution = solve_double_oracle(game, options, rows, columns);
    values[i] = solution.summary.value;
    converged[i] = solution.summary.converged();
    adversaries[i] = solution.adversary;
    warm_rows_[i] = solution.predictor.actions;
    warm_columns_[i] = solution.adversary.actions;
  });
  gradient = options_.lambda * theta - empirical_counts_;
  double value = 0.5 * options_.lambda * theta.squaredNorm() - theta.dot(empirical_counts_);
  unconverged_ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    value -= values[i];
    unconverged_ += converged[i] ? 0 : 1;
    for (std::size_t j = 0; j < adversaries[i].size(); ++j)
      add_feature_counts(sentences_[i], adversaries[i].actions[j], adversaries[i].probabilities[j], layout_, gradient);
  }
  return value;
}

LinearChainMpgModel train_linear_chain_mpg(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                                           const LinearChainMpgOptions& options) {
  LinearChainMpgObjective objective(sentences, layout, options);
  LinearChainMpgModel model;
  model.layout = layout;
  model.target = options.target;
  model.theta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  if (options.initial_scale > 0.0) {
    // Box-Muller on a 64-bit Mersenne twister: the same draw with every standard library.
    std::mt19937_64 engine(options.seed);
    auto uniform = [&engine] { return (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53; };
    for (Eigen::Index i = 0; i < model.theta.size(); ++i) {
      const double u1 = uniform();
      const double u2 = uniform();
      model.theta[i] = options.initial_scale * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
  }
  OptimizerOptions optimizer;
  optimizer.kind = OptimizerKind::lbfgs;
  optimizer.lbfgs_armijo_only = true;
  optimizer.max_iterations = options.max_iterations;
  optimizer.gradient_tolerance = options.gradient_tolerance;
  model.summary = minimize(objective, model.theta, optimizer);
  model.unconverged_games = objective.unconverged_games();
  return model;
}

LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       double game_tolerance, bool* converged) {
  if (sentence.size() == 0) return {};
  LinearChainF1Game game(chain_scores(sentence, model.theta, model.layout), model.target);
  const GameSolution<LabelSequence> solution = solve_double_oracle(game, game_options(game_tolerance, 500));
  if (converged) *converged = solution.summary.converged();
  return solution.predictor.actions[most_probable_index(solution.predictor)];
}

}  // namespace mpg
