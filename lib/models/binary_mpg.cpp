#include "lib/models/binary_mpg.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "lib/base/choices.hpp"
#include "lib/base/error.hpp"
#include "lib/base/overloaded.hpp"
#include "lib/base/io.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/metrics/f1_decision.hpp"

namespace mpg {
namespace {

std::vector<double> to_std(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

std::size_t BinaryProblem::positives() const {
  std::size_t count = 0;
  for (int y : labels) count += y == 1;
  return count;
}

BinaryProblem load_binary_problem(const std::string& path, double positive_label,
                                  long min_features, double bias) {
  LibsvmReadOptions options;
  options.min_features = min_features;
  options.bias = bias;
  LibsvmData data = read_libsvm(path, options);
  BinaryProblem problem;
  problem.path = path;
  problem.features = std::move(data.features);
  problem.labels = binarize_labels(data.labels, positive_label);
  return problem;
}

BinaryMpgObjective::BinaryMpgObjective(const BinaryProblem& problem, MetricSettings settings,
                                       double lambda, DoubleOracleOptions game_options)
    : problem_(problem),
      settings_(std::move(settings)),
      lambda_(lambda),
      game_options_(game_options),
      gold_(positives_of(problem.labels)) {
  if (!(lambda_ >= 0.0) || !std::isfinite(lambda_))
    throw Error("lambda must be a finite number >= 0, got " + std::to_string(lambda_));
  Eigen::VectorXd y(problem.features.rows());
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = problem.labels[static_cast<std::size_t>(i)];
  gold_features_ = problem.features.transpose() * y;
  metric_k(settings_, problem.labels);  // validates the metric's parameters before any game is played
}

Eigen::VectorXd features_of(const SparseRowMatrix& x, const BinaryAction& action) {
  Eigen::VectorXd phi = Eigen::VectorXd::Zero(x.cols());
  for (std::uint32_t i : action)
    for (SparseRowMatrix::InnerIterator it(x, static_cast<Eigen::Index>(i)); it; ++it)
      phi[it.col()] += it.value();
  return phi;
}

double BinaryMpgObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const Eigen::VectorXd psi = problem_.features * theta;
  const auto game = make_binary_game(settings_, to_std(psi), problem_.labels);
  if (const auto exact = game->exact_equilibrium(game_options_.tolerance)) {
    statistics_.record(exact->summary.converged(), exact->summary.gap, exact->summary.seconds);
    // E_Q*[Phi] = sum_j q_j Phi(x, y_j) (exact equilibria have a pure adversary strategy).
    const auto& q = exact->adversary;
    Eigen::VectorXd expected = q.probabilities[0] * features_of(problem_.features, q.actions[0]);
    for (std::size_t j = 1; j < q.size(); ++j) expected += q.probabilities[j] * features_of(problem_.features, q.actions[j]);
    gradient = expected - gold_features_ + lambda_ * theta;
    return -theta.dot(gold_features_) - exact->summary.value + 0.5 * lambda_ * theta.squaredNorm();
  }
  // The gold labelling seeds both players' sets when legal (as the reference code).
  std::vector<BinaryAction> predictor_seed = warm_predictor_;
  std::vector<BinaryAction> adversary_seed = warm_adversary_;
  predictor_seed.push_back(gold_);
  adversary_seed.push_back(gold_);
  const auto solution =
      solve_double_oracle(*game, game_options_, predictor_seed, adversary_seed);
  warm_predictor_ = solution.predictor.actions;
  warm_adversary_ = solution.adversary.actions;

  statistics_.record(solution.summary.converged(), solution.summary.gap, solution.summary.seconds,
                     solution.summary.iterations);

  const Eigen::VectorXd adversary_marginals =
      binary_marginals(solution.adversary, game->size());
  gradient = problem_.features.transpose() * adversary_marginals - gold_features_ + lambda_ * theta;
  return -theta.dot(gold_features_) - solution.summary.value + 0.5 * lambda_ * theta.squaredNorm();
}

nlohmann::json TrainSummary::to_json() const {
  nlohmann::json out = optimizer.to_json();
  write(out);
  return out;
}

std::string TrainSummary::report() const {
  return fmt::format(
      "{} after {} iterations ({}), objective {:.10g}, {} games ({} not converged, max gap {:.2e}; {} double-oracle "
      "iterations, {:.2f} s in games), {:.2f} s",
      optimizer.converged() ? "converged" : "stopped", optimizer.iterations, optimizer.message, optimizer.final_value,
      games, unconverged_games, max_gap, game_iterations, game_seconds, optimizer.seconds);
}

TrainStart parse_train_start(const std::string& name) {
  if (name == "gold_direction") return TrainStart::gold_direction;
  if (name == "zero") return TrainStart::zero;
  throw Error("unknown start '" + name + "' (expected gold_direction or zero)");
}

std::string to_string(TrainStart start) {
  return start == TrainStart::zero ? "zero" : "gold_direction";
}

BinaryModel BinaryModel::trained(const MetricSettings& settings, double lambda, Eigen::VectorXd theta) {
  BinaryModel model;
  model.settings = settings;
  model.lambda = lambda;
  model.feature_count = static_cast<long>(theta.size()) - 1;
  model.theta = std::move(theta);
  return model;
}

nlohmann::json BinaryModel::to_json() const {
  nlohmann::json j;
  j["format"] = "mpg-binary-model";
  j["version"] = 1;
  write_metric_settings(settings, j);
  j["lambda"] = lambda;
  j["bias"] = bias;
  j["positive_label"] = positive_label;
  j["feature_count"] = feature_count;
  j["theta"] = to_std(theta);
  return j;
}

BinaryModel BinaryModel::read(const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, std::string("not valid JSON: ") + e.what());
  }
  return from_json(j, path);
}

BinaryModel BinaryModel::from_json(const nlohmann::json& j, const std::string& source) {
  try {
    if (j.at("format").get<std::string>() != "mpg-binary-model")
      throw InputError(source, "not an mpg binary model (format field)");
    BinaryModel model;
    model.settings = read_metric_settings(j);
    model.lambda = j.at("lambda").get<double>();
    model.bias = j.at("bias").get<double>();
    model.positive_label = j.at("positive_label").get<double>();
    model.feature_count = j.at("feature_count").get<long>();
    const auto weights = j.at("theta").get<std::vector<double>>();
    if (static_cast<long>(weights.size()) != model.feature_count + 1)
      throw InputError(source, "theta has " + std::to_string(weights.size()) +
                                   " weights, expected feature_count + 1 = " +
                                   std::to_string(model.feature_count + 1));
    for (double w : weights)
      if (!std::isfinite(w)) throw InputError(source, "theta holds a non-finite weight");
    model.theta = Eigen::Map<const Eigen::VectorXd>(weights.data(),
                                                    static_cast<Eigen::Index>(weights.size()));
    return model;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source, std::string("malformed model: ") + e.what());
  }
}

Eigen::VectorXd BinaryModel::aligned_theta(long features) const {
  Eigen::VectorXd aligned = Eigen::VectorXd::Zero(features + 1);
  const long shared = std::min(features, feature_count);
  aligned.head(shared) = theta.head(shared);
  aligned[features] = theta[feature_count];
  return aligned;
}

BinaryModel train_binary_mpg(const BinaryProblem& problem, const MetricSettings& settings,
                             const TrainOptions& options, TrainSummary* summary) {
  BinaryMpgObjective objective(problem, settings, options.lambda, options.game);
  BinaryModel model =
      BinaryModel::trained(settings, options.lambda, Eigen::VectorXd::Zero(problem.features.cols()));
  const Eigen::VectorXd& gold = objective.gold_features();
  if (options.start == TrainStart::gold_direction && gold.norm() > 0.0) model.theta = gold / gold.norm();
  OptimizerSummary optimizer = minimize(objective, model.theta, options.optimizer);
  if (summary) {
    summary->optimizer = optimizer;
    static_cast<GameStatistics&>(*summary) = objective.statistics();
  }
  return model;
}

namespace {
const Choice<BinaryGameSolver> kGameSolvers[] = {{"auto", BinaryGameSolver::automatic},
                                                 {"double_oracle", BinaryGameSolver::double_oracle},
                                                 {"marginals", BinaryGameSolver::marginals}};
}  // namespace

namespace {
const Choice<DecisionRule> kDecisionRules[] = {{"maximin", DecisionRule::maximin},
                                               {"likeliest", DecisionRule::likeliest}};
}  // namespace

DecisionRule parse_decision_rule(const std::string& name) { return parse_choice(name, kDecisionRules, "decision rule"); }
std::string to_string(DecisionRule rule) { return choice_name(rule, kDecisionRules); }

BinaryGameSolver parse_binary_game_solver(const std::string& name) {
  return parse_choice(name, kGameSolvers, "game solver");
}
std::string to_string(BinaryGameSolver solver) { return choice_name(solver, kGameSolvers); }

std::string BinaryGameSummary::solver() const {
  return std::visit(Overloaded{[](const DoubleOracleSummary&) { return std::string("double oracle"); },
                               [](const ExactSolveSummary& s) { return s.method; },
                               [](const MarginalSolverSummary&) { return std::string("marginals"); }},
                    summary_);
}

bool BinaryGameSummary::converged() const {
  return std::visit([](const auto& s) { return s.converged(); }, summary_);
}

int BinaryGameSummary::iterations() const {
  return std::visit(Overloaded{[](const MarginalSolverSummary& s) { return s.rounds; },
                               [](const auto& s) { return s.iterations; }},
                    summary_);
}

double BinaryGameSummary::gap() const {
  return std::visit([](const auto& s) { return s.gap; }, summary_);
}

double BinaryGameSummary::seconds() const {
  return std::visit([](const auto& s) { return s.seconds; }, summary_);
}

nlohmann::json BinaryGameSummary::to_json() const {
  nlohmann::json out = std::visit([](const auto& s) { return s.to_json(); }, summary_);
  out["solver"] = solver();
  return out;
}

std::string BinaryGameSummary::report() const {
  return std::visit([](const auto& s) { return s.report(); }, summary_);
}

BinaryPrediction predict_binary_mpg(const BinaryModel& model, const BinaryProblem& problem,
                                    const BinaryPredictOptions& options) {
  const Eigen::VectorXd theta = model.aligned_theta(problem.features.cols() - 1);
  const Eigen::VectorXd psi = problem.features * theta;
  const BinaryAction gold = positives_of(problem.labels);
  const auto game = make_binary_game(model.settings, to_std(psi), problem.labels);
  BinaryPrediction prediction;
  prediction.k = metric_k(model.settings, problem.labels);
  // The decision: the equilibrium's likeliest action, or for F1 by default the maximin action.
  auto decide = [&] {
    prediction.likeliest_score = game->score(prediction.likeliest_action, gold);
    prediction.action = prediction.likeliest_action;
    if (options.decision == DecisionRule::maximin && model.settings.metric == BinaryMetric::f1) {
      F1Decision maximin = f1_maximin_decision(to_std(psi));
      prediction.action = std::move(maximin.action);
      prediction.guarantee = maximin.guarantee;
      prediction.decision = DecisionRule::maximin;
    }
    prediction.score = game->score(prediction.action, gold);
    return prediction;
  };
  // A strategy given by its marginals.
  auto predict_from = [&](MarginalStrategy& strategy, BinaryGameSummary summary) {
    prediction.likeliest_action = std::move(strategy.likeliest_action);
    prediction.probability = strategy.likeliest_probability;
    prediction.marginals = std::move(strategy.marginals);
    prediction.expected_score = strategy.expected_score(problem.labels);
    prediction.game = std::move(summary);
    return decide();
  };
  if (options.solver != BinaryGameSolver::marginals)
    if (auto exact = game->exact_equilibrium(options.double_oracle.tolerance))
      return predict_from(*exact, BinaryGameSummary(exact->summary));
  if (options.solver != BinaryGameSolver::double_oracle) {
    auto solution = game->solve_over_marginals(options.marginals);
    if (solution) return predict_from(*solution, BinaryGameSummary(solution->summary));
    if (options.solver == BinaryGameSolver::marginals)
      throw Error("the solver over marginals is for F1 models; this model optimizes " + to_string(model.settings.metric));
  }
  const auto solution = solve_double_oracle(*game, options.double_oracle);
  const auto& strategy = solution.predictor;
  const std::size_t best = most_probable_index(strategy);
  prediction.likeliest_action = strategy.actions[best];
  prediction.probability = strategy.probabilities[best];
  prediction.marginals = binary_marginals(strategy, game->size());
  for (std::size_t j = 0; j < strategy.size(); ++j)
    prediction.expected_score += strategy.probabilities[j] * game->score(strategy.actions[j], gold);
  prediction.game = BinaryGameSummary(solution.summary);
  return decide();
}

}  // namespace mpg
