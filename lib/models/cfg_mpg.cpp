// MPG_cfg: the sum of per-sentence parsing games, training and prediction (lib/models/cfg_mpg.hpp).
#include "lib/models/cfg_mpg.hpp"

#include <cmath>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"

namespace mpg {

namespace {

DoubleOracleOptions game_options(double tolerance) {
  DoubleOracleOptions o;
  o.tolerance = tolerance;
  return o;
}

}  // namespace

void ParseGames::add_gold_features(std::size_t i, Eigen::VectorXd& sum) const {
  for (const auto& [rule, count] : rule_counts(grammar_, examples_[i].tags, examples_[i].gold)) sum[rule] += count;
}

ParseGames::Solution ParseGames::solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const {
  const ParseExample& example = examples_[i];
  const std::vector<double> potentials = to_std_vector(theta);
  const CfgHammingGame game(grammar_, example.tags, potentials, options_.score);
  const bool authors = options_.protocol != TrainingProtocol::certified;
  // Seeds: the gold parse for both players; certified also the last evaluation's supports (the
  // reference keeps no warm start).
  std::vector<CnfParse> rows = authors ? std::vector<CnfParse>{} : warm.rows;
  std::vector<CnfParse> columns = authors ? std::vector<CnfParse>{} : warm.columns;
  rows.push_back(example.gold);
  columns.push_back(example.gold);
  const GameSolution<CnfParse> result =
      authors ? solve_double_oracle(game, authors_game_options({}, options_.authors_game), rows, columns)
              : solve_double_oracle(game, game_options(options_.game_tolerance), rows, columns);
  if (!authors) {
    warm.rows = result.predictor.actions;
    warm.columns = result.adversary.actions;
  }
  Solution solution;
  solution.value = result.summary.value;
  // authors': a game stopped by the reference's own rule counts as finished, one stopped at the
  // action cap does not; the gap is reported either way.
  solution.converged = authors ? result.summary.status != DoubleOracleStatus::action_limit : result.summary.converged();
  solution.gap = result.summary.gap;
  solution.seconds = result.summary.seconds;
  solution.adversary = result.adversary;
  return solution;
}

void ParseGames::add_expected_features(std::size_t i, const Solution& solution, double weight,
                                       Eigen::VectorXd& gradient) const {
  const std::vector<double> expected = expected_rule_counts(grammar_, examples_[i].tags, solution.adversary);
  for (std::size_t r = 0; r < expected.size(); ++r) gradient[static_cast<Eigen::Index>(r)] += weight * expected[r];
}

CfgMpgModel train_cfg_mpg(const Grammar& grammar, const std::vector<ParseExample>& examples,
                          const CfgMpgOptions& options) {
  options.validate();
  if (examples.empty()) throw Error("MPG_cfg: no training sentences");
  for (std::size_t i = 0; i < examples.size(); ++i)
    if (!is_grammatical(grammar, examples[i].tags, examples[i].gold))
      throw Error("MPG_cfg: the gold parse of training sentence " + std::to_string(i + 1) + " is not in the grammar");
  const ParseGames games(grammar, examples, options);
  SumOfGamesObjective<ParseGames> objective(games, options.lambda, InstanceWeighting::sum);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(games.dimension());
  OptimizerOptions optimizer;
  if (options.protocol == TrainingProtocol::certified) {
    optimizer = sum_of_games_optimizer(options.optimizer, options.max_iterations, options.objective_tolerance);
  } else {
    optimizer = authors_optimizer_options(options.protocol);
    if (options.authors_max_iterations > 0) optimizer.max_iterations = options.authors_max_iterations;
  }
  CfgMpgModel model;
  model.score = options.score;
  model.protocol = options.protocol;
  model.authors_game = options.authors_game;
  model.summary = minimize_sum_of_games(objective, theta, optimizer, options.lambda, options.max_seconds);
  model.theta.assign(theta.data(), theta.data() + theta.size());
  return model;
}

TreePrediction predict_cfg_mpg(const Grammar& grammar, const CfgMpgModel& model, const std::vector<std::string>& tags,
                               const std::vector<std::string>& words, const std::string& fallback_label,
                               double game_tolerance, DoubleOracleSummary* game) {
  const std::vector<int> ids = grammar.tag_ids(tags);
  if (!cyk_parse(grammar, ids, {}).found)  // an unknown tag, or no rule combination
    return predict_tree(grammar, tags, words, model.theta, fallback_label);
  const CfgHammingGame parse_game(grammar, ids, model.theta, model.score);
  const GameSolution<CnfParse> solution =
      model.protocol != TrainingProtocol::certified
          ? solve_double_oracle(parse_game, authors_game_options({}, model.authors_game))
          : solve_double_oracle(parse_game, game_options(game_tolerance));
  if (game) *game = solution.summary;
  const CnfParse& best = solution.predictor.actions[most_probable_index(solution.predictor)];
  TreePrediction prediction;
  prediction.tree = from_cnf(decode_parse(grammar, best, ids, words));
  prediction.value = rule_score(grammar, ids, best, model.theta);
  return prediction;
}

}  // namespace mpg
