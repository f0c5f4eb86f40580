#include "lib/models/binary/authors_protocol.hpp"

#include <algorithm>
#include <cmath>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"

namespace mpg {
namespace {

// Potentials of an action sorted in decreasing order.
std::vector<double> sorted_potentials(const BinaryAction& action, const std::vector<double>& psi) {
  std::vector<double> values;
  values.reserve(action.size());
  for (auto i : action) values.push_back(psi[i]);
  std::sort(values.begin(), values.end(), std::greater<>());
  return values;
}

bool all_equal(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [&](double v) { return v == values.front(); });
}

}  // namespace

std::size_t likeliest_action(const MixedStrategy<BinaryAction>& strategy, const std::vector<double>& psi) {
  if (strategy.size() == 0) throw Error("likeliest_action: an empty strategy");
  auto rounded = [](double p) { return std::round(p / 1e-8); };
  // true when action a ranks before action b (see the header).
  auto before = [&](std::size_t a, std::size_t b) {
    const double pa = rounded(strategy.probabilities[a]), pb = rounded(strategy.probabilities[b]);
    if (pa != pb) return pa > pb;
    const BinaryAction& x = strategy.actions[a];
    const BinaryAction& y = strategy.actions[b];
    const double sx = sum_over(x, psi), sy = sum_over(y, psi);
    if (sx != sy) return sx > sy;
    if (x.size() != y.size()) return x.size() < y.size();
    const auto vx = sorted_potentials(x, psi), vy = sorted_potentials(y, psi);
    if (vx != vy) return vx > vy;
    return x < y;
  };
  std::size_t best = 0;
  for (std::size_t j = 1; j < strategy.size(); ++j)
    if (before(j, best)) best = j;
  return best;
}

AuthorsGame solve_authors_game(const BinaryGame& game, const AuthorsGameRule& rule, const BinaryAction* gold) {
  AuthorsGame out;
  const std::size_t n = game.size();
  // 1. A closed-form equilibrium.
  if (auto exact = game.exact_equilibrium(1e-6)) {
    out.likeliest_action = std::move(exact->likeliest_action);
    out.likeliest_probability = exact->likeliest_probability;
    out.predictor_marginals = std::move(exact->marginals);
    out.adversary_marginals = binary_marginals(exact->adversary, n);
    out.value = exact->summary.value;
    out.expected_score = std::move(exact->expected_score);
    out.summary = BinaryGameSummary(exact->summary);
    return out;
  }
  // 2. Tied potentials: the solver over marginals, exact (see the header).
  if (all_equal(game.potentials())) {
    MarginalSolverOptions options;
    options.tolerance = 1e-9;
    if (auto solved = game.solve_over_marginals(options); solved && solved->summary.converged()) {
      out.likeliest_action = std::move(solved->likeliest_action);
      out.likeliest_probability = solved->likeliest_probability;
      out.predictor_marginals = std::move(solved->marginals);
      out.adversary_marginals = std::move(solved->adversary_marginals);
      out.value = 0.5 * (solved->summary.lower + solved->summary.upper);
      out.expected_score = std::move(solved->expected_score);
      out.summary = BinaryGameSummary(solved->summary);
      return out;
    }
  }
  // 3. The double oracle stopped by the reference's rule.
  DoubleOracleOptions options = authors_game_options({}, rule);
  options.tolerance = 1e-6;  // only labels the stopped game converged when its gap is within this
  std::vector<BinaryAction> seed;
  if (gold) seed.push_back(*gold);
  auto solution = solve_double_oracle(game, options, seed, seed);
  const std::size_t best = likeliest_action(solution.predictor, game.potentials());
  out.likeliest_action = solution.predictor.actions[best];
  out.likeliest_probability = solution.predictor.probabilities[best];
  out.predictor_marginals = binary_marginals(solution.predictor, n);
  out.adversary_marginals = binary_marginals(solution.adversary, n);
  out.value = solution.summary.value;
  out.expected_score = [&game, strategy = solution.predictor](const std::vector<int>& labels) {
    const BinaryAction truth = positives_of(labels);
    double expected = 0.0;
    for (std::size_t j = 0; j < strategy.size(); ++j)
      expected += strategy.probabilities[j] * game.score(strategy.actions[j], truth);
    return expected;
  };
  out.summary = BinaryGameSummary(solution.summary);
  return out;
}

AuthorsBinaryObjective::AuthorsBinaryObjective(const BinaryProblem& problem, MetricSettings settings, double lambda,
                                               AuthorsGameRule rule)
    : problem_(problem), settings_(std::move(settings)), lambda_(lambda), rule_(rule), gold_(positives_of(problem.labels)) {
  if (!(lambda_ >= 0.0) || !std::isfinite(lambda_))
    throw Error("lambda must be a finite number >= 0, got " + std::to_string(lambda_));
  Eigen::VectorXd y(problem.features.rows());
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = problem.labels[static_cast<std::size_t>(i)];
  gold_features_ = problem.features.transpose() * y;
  metric_k(settings_, problem.labels);  // validates the metric's parameters before any game
}

// f = -theta . Phi_gold - v + lambda/2 ||theta||^2, grad = E_Q[Phi] - Phi_gold + lambda theta
// (binary_mpg.hpp; the reference's §3.3), with v and Q from the authors' game.
double AuthorsBinaryObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const Eigen::VectorXd psi = problem_.potentials(theta);
  const auto game = make_binary_game(settings_, to_std_vector(psi), problem_.labels);
  const AuthorsGame played = solve_authors_game(*game, rule_, &gold_);
  statistics_.record(played.summary.converged(), played.summary.gap(), played.summary.seconds(),
                     played.summary.iterations());
  gradient = problem_.features.transpose() * played.adversary_marginals - gold_features_ + lambda_ * theta;
  return -theta.dot(gold_features_) - played.value + 0.5 * lambda_ * theta.squaredNorm();
}

BinaryModel train_binary_mpg_authors(const BinaryProblem& problem, const MetricSettings& settings,
                                     const AuthorsTrainOptions& options, TrainSummary* summary) {
  OptimizerOptions optimizer = authors_optimizer_options(options.protocol);  // throws for certified
  if (options.max_iterations > 0) optimizer.max_iterations = options.max_iterations;
  optimizer.progress = options.progress;
  AuthorsBinaryObjective objective(problem, settings, options.lambda, options.rule);
  BinaryModel model = BinaryModel::trained(settings, options.lambda, Eigen::VectorXd::Zero(problem.features.cols()));
  const OptimizerSummary result = minimize(objective, model.theta, optimizer);
  if (summary) {
    summary->optimizer = result;
    static_cast<GameStatistics&>(*summary) = objective.statistics();
  }
  return model;
}

BinaryPrediction predict_binary_mpg_authors(const BinaryModel& model, const BinaryProblem& problem,
                                            const AuthorsGameRule& rule) {
  const Eigen::VectorXd psi = problem.potentials(model.aligned_theta(problem.features.cols() - 1));
  const auto game = make_binary_game(model.settings, to_std_vector(psi), problem.labels);
  AuthorsGame played = solve_authors_game(*game, rule);
  const BinaryAction gold = positives_of(problem.labels);
  BinaryPrediction prediction;
  prediction.k = metric_k(model.settings, problem.labels);
  prediction.decision = DecisionRule::likeliest;
  prediction.likeliest_action = played.likeliest_action;
  prediction.action = std::move(played.likeliest_action);
  prediction.probability = played.likeliest_probability;
  prediction.marginals = std::move(played.predictor_marginals);
  prediction.score = prediction.likeliest_score = game->score(prediction.action, gold);
  prediction.expected_score = played.expected_score(problem.labels);
  prediction.game = std::move(played.summary);
  return prediction;
}

}  // namespace mpg
