#include "lib/models/ranking_mpg.hpp"

#include <algorithm>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/learn/minibatch_adadelta.hpp"

namespace mpg {
namespace {

Eigen::MatrixXd with_bias(const Eigen::MatrixXd& x) {
  Eigen::MatrixXd out(x.rows(), x.cols() + 1);
  out << x, Eigen::VectorXd::Ones(x.rows());
  return out;
}

Eigen::MatrixXd potentials_of(const Eigen::MatrixXd& augmented, const Eigen::MatrixXd& theta) {
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(augmented.rows(), theta.cols() + 1);
  psi.rightCols(theta.cols()) = augmented * theta;
  return psi;
}

QueryGameResult from_equilibrium(DcgEquilibrium eq, const DoubleOracleOptions& options) {
  QueryGameResult result;
  result.value = eq.value;
  result.adversary_marginals = std::move(eq.adversary_marginals);
  result.predictor = std::move(eq.predictor);
  result.gap = eq.gap;
  result.converged = eq.gap <= std::max(options.tolerance, 1e-6) * std::max(1.0, std::abs(eq.value));
  result.seconds = eq.seconds;
  return result;
}

}  // namespace

DcgGameSolver parse_dcg_game_solver(const std::string& name) {
  if (name == "greedy") return DcgGameSolver::greedy;
  if (name == "lp") return DcgGameSolver::lp;
  if (name == "double_oracle") return DcgGameSolver::double_oracle;
  throw Error("unknown DCG game solver '" + name + "' (expected 'greedy', 'lp' or 'double_oracle')");
}

QueryGameResult solve_query_game(const DcgGame& game, DcgGameSolver solver, const DoubleOracleOptions& options,
                                 const std::vector<std::vector<int>>& warm_predictor,
                                 const std::vector<std::vector<int>>& warm_adversary,
                                 MixedStrategy<std::vector<int>>* adversary, bool predictor_strategy) {
  if (solver != DcgGameSolver::double_oracle)
    return from_equilibrium(
        solver == DcgGameSolver::lp ? solve_dcg_game(game) : solve_dcg_game_greedy(game, predictor_strategy), options);
  QueryGameResult result;
  const auto solution = solve_double_oracle(game, options, warm_predictor, warm_adversary);
  result.value = solution.summary.value;
  result.adversary_marginals = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(game.documents()), game.levels());
  for (std::size_t a = 0; a < solution.adversary.size(); ++a)
    for (std::size_t j = 0; j < game.documents(); ++j)
      result.adversary_marginals(static_cast<Eigen::Index>(j), solution.adversary.actions[a][j]) +=
          solution.adversary.probabilities[a];
  result.predictor = solution.predictor;
  std::swap(result.predictor.actions[0], result.predictor.actions[most_probable_index(solution.predictor)]);
  std::swap(result.predictor.probabilities[0], result.predictor.probabilities[most_probable_index(solution.predictor)]);
  result.gap = solution.summary.gap;
  result.converged = solution.summary.converged();
  result.seconds = solution.summary.seconds;
  result.iterations = solution.summary.iterations;
  if (adversary) *adversary = solution.adversary;
  return result;
}

Eigen::MatrixXd RankingMpgModel::potentials(const Eigen::MatrixXd& features) const {
  if (features.cols() + 1 != theta.rows())
    throw Error("ranking MPG model has " + std::to_string(theta.rows() - 1) + " features, the data " +
                std::to_string(features.cols()));
  return potentials_of(with_bias(features), theta);
}

RankingGames::RankingGames(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options)
    : queries_(queries), options_(options) {
  if (queries_.empty()) throw Error("ranking MPG: no training queries");
  options_.validate();
  features_ = queries_.front().features.cols();
  for (const auto& q : queries_) {
    if (q.features.cols() != features_) throw Error("ranking MPG: queries differ in feature count");
    for (int s : q.relevance)
      if (s < 0 || s >= options_.levels)
        throw Error("ranking MPG: relevance " + std::to_string(s) + " outside 0.." + std::to_string(options_.levels - 1));
    augmented_.push_back(with_bias(q.features));
    keys_.push_back(document_keys(q.features));
  }
}

void RankingGames::add_gold_features(std::size_t q, Eigen::VectorXd& sum) const {
  const long d1 = features_ + 1;
  const auto& relevance = queries_[q].relevance;
  for (std::size_t j = 0; j < relevance.size(); ++j) {
    const int s = relevance[j];
    if (s > 0) sum.segment((s - 1) * d1, d1) += augmented_[q].row(static_cast<Eigen::Index>(j)).transpose();
  }
}

RankingGames::Solution RankingGames::solve(std::size_t q, const Eigen::VectorXd& theta, Warm& warm) const {
  const int blocks = options_.levels - 1;
  const Eigen::Map<const Eigen::MatrixXd> weights(theta.data(), features_ + 1, blocks);
  const DcgGame game(potentials_of(augmented_[q], weights), options_.discount, keys_[q]);
  MixedStrategy<std::vector<int>> adversary;
  const QueryGameResult result = solve_query_game(game, options_.solver, options_.game, warm.predictor, warm.adversary,
                                                  &adversary, /*predictor_strategy=*/false);
  if (options_.solver == DcgGameSolver::double_oracle) {
    warm.predictor = result.predictor.actions;
    warm.adversary = adversary.actions;
  }
  Solution solution;
  solution.value = result.value;
  solution.converged = result.converged;
  solution.gap = result.gap;
  solution.seconds = result.seconds;
  const Eigen::MatrixXd block = augmented_[q].transpose() * result.adversary_marginals.rightCols(blocks);  // d1 x blocks
  solution.expected_features = Eigen::Map<const Eigen::VectorXd>(block.data(), block.size());
  return solution;
}

RankingMpgObjective::RankingMpgObjective(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options)
    : games_(queries, options), objective_(games_, options.lambda, InstanceWeighting::mean) {}

RankingMpgModel train_ranking_mpg(const std::vector<RankingQuery>& queries, const RankingMpgOptions& given,
                                  RankingMpgSummary* summary) {
  RankingMpgOptions options = given;
  const bool authors = options.protocol != TrainingProtocol::certified;
  if (authors) {
    const auto progress = options.optimizer.progress;
    options.optimizer = authors_optimizer_options(options.protocol);
    options.optimizer.progress = progress;
    if (options.solver == DcgGameSolver::double_oracle) options.game = authors_game_options(options.game);
  }
  RankingMpgObjective objective(queries, options);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(objective.dimension());
  SumOfGamesSummary result;
  if (options.protocol == TrainingProtocol::authors_adadelta) {
    MinibatchAdaDeltaOptions minibatch = MinibatchAdaDeltaOptions::from(options.optimizer, options.batch_size, options.seed);
    minibatch.max_seconds = options.max_seconds;
    result = minimize_sum_of_games_minibatch(objective.sum_of_games(), queries.size(), theta, minibatch);
  } else {
    result = minimize_sum_of_games(objective.sum_of_games(), theta, options.optimizer, options.lambda, options.max_seconds);
  }
  RankingMpgModel model;
  model.levels = options.levels;
  model.discount = options.discount;
  model.theta = Eigen::Map<const Eigen::MatrixXd>(theta.data(), queries.front().features.cols() + 1, options.levels - 1);
  if (summary) *summary = result;
  return model;
}

RankingMpgPrediction predict_ranking_mpg(const RankingMpgModel& model, const Eigen::MatrixXd& features,
                                         DcgGameSolver solver, const DoubleOracleOptions& game_options) {
  const std::vector<DocumentKey> keys = document_keys(features);
  const DcgGame game(model.potentials(features), model.discount, keys);
  DcgDecision decision = dcg_decision(game);
  RankingMpgPrediction prediction;
  prediction.order = std::move(decision.order);
  prediction.expected_gain_order = std::move(decision.expected_gain_order);
  prediction.score_order = ranking_by_scores(game.potentials().col(game.levels() - 1), keys);
  prediction.game = solver == DcgGameSolver::greedy ? from_equilibrium(std::move(decision.equilibrium), game_options)
                                                    : solve_query_game(game, solver, game_options);
  return prediction;
}

}  // namespace mpg
