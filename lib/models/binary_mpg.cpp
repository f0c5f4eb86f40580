#include "lib/models/binary_mpg.hpp"

#include <chrono>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/metrics/f1.hpp"

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

BinaryMetric parse_binary_metric(const std::string& name) {
  if (name == "f1") return BinaryMetric::f1;
  if (name == "precision_at_k") return BinaryMetric::precision_at_k;
  throw Error("unknown metric '" + name + "' (expected f1 or precision_at_k)");
}

std::string to_string(BinaryMetric metric) {
  return metric == BinaryMetric::f1 ? "f1" : "precision_at_k";
}

std::size_t precision_k(const MetricSettings& settings, const std::vector<int>& labels) {
  std::size_t positives = 0;
  for (int y : labels) positives += y == 1;
  const std::size_t k = settings.k ? *settings.k
                                   : static_cast<std::size_t>(std::floor(
                                         settings.k_fraction * static_cast<double>(positives)));
  if (k < 1 || k > labels.size())
    throw Error("precision@k needs 1 <= k <= n; got k = " + std::to_string(k) + " for n = " +
                std::to_string(labels.size()) + " with " + std::to_string(positives) +
                " positives");
  return k;
}

std::unique_ptr<BinaryGame> make_binary_game(const MetricSettings& settings,
                                             std::vector<double> potentials,
                                             const std::vector<int>& labels) {
  if (settings.metric == BinaryMetric::f1) return std::make_unique<F1Game>(std::move(potentials));
  return std::make_unique<PrecisionAtKGame>(std::move(potentials), precision_k(settings, labels),
                                            settings.restriction);
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
  if (settings_.metric == BinaryMetric::precision_at_k)
    precision_k(settings_, problem.labels);  // validate k before any game is played
}

Eigen::VectorXd features_of(const SparseRowMatrix& x, const BinaryAction& action) {
  Eigen::VectorXd phi = Eigen::VectorXd::Zero(x.cols());
  for (std::uint32_t i : action)
    for (SparseRowMatrix::InnerIterator it(x, static_cast<Eigen::Index>(i)); it; ++it)
      phi[it.col()] += it.value();
  return phi;
}

bool has_closed_form(const MetricSettings& settings) {
  return settings.metric == BinaryMetric::precision_at_k &&
         settings.restriction == AdversaryRestriction::unrestricted;
}

double BinaryMpgObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const Eigen::VectorXd psi = problem_.features * theta;
  if (has_closed_form(settings_)) {
    const auto start = std::chrono::steady_clock::now();
    const auto eq = solve_precision_at_k_game(to_std(psi), precision_k(settings_, problem_.labels));
    ++games_;
    max_gap_ = std::max(max_gap_, eq.gap);
    game_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // E_Q*[Phi] = Phi(x, y*) for the adversary's optimal pure action y*.
    gradient = features_of(problem_.features, eq.adversary_action) - gold_features_ + lambda_ * theta;
    return -theta.dot(gold_features_) - eq.value + 0.5 * lambda_ * theta.squaredNorm();
  }
  const auto game = make_binary_game(settings_, to_std(psi), problem_.labels);
  // The gold labelling seeds both players' sets when legal (as the reference code).
  std::vector<BinaryAction> predictor_seed = warm_predictor_;
  std::vector<BinaryAction> adversary_seed = warm_adversary_;
  predictor_seed.push_back(gold_);
  adversary_seed.push_back(gold_);
  const auto solution =
      solve_double_oracle(*game, game_options_, predictor_seed, adversary_seed);
  warm_predictor_ = solution.predictor.actions;
  warm_adversary_ = solution.adversary.actions;

  ++games_;
  game_iterations_ += solution.summary.iterations;
  unconverged_games_ += !solution.summary.converged();
  max_gap_ = std::max(max_gap_, solution.summary.gap);
  game_seconds_ += solution.summary.seconds;

  const Eigen::VectorXd adversary_marginals =
      binary_marginals(solution.adversary, game->size());
  gradient = problem_.features.transpose() * adversary_marginals - gold_features_ + lambda_ * theta;
  return -theta.dot(gold_features_) - solution.summary.value + 0.5 * lambda_ * theta.squaredNorm();
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
  j["metric"] = to_string(settings.metric);
  if (settings.metric == BinaryMetric::precision_at_k) {
    j["k_fraction"] = settings.k_fraction;
    if (settings.k) j["k"] = *settings.k;
    j["adversary"] = to_string(settings.restriction);
  }
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
    model.settings.metric = parse_binary_metric(j.at("metric").get<std::string>());
    if (model.settings.metric == BinaryMetric::precision_at_k) {
      model.settings.k_fraction = j.at("k_fraction").get<double>();
      if (j.contains("k")) model.settings.k = j.at("k").get<std::size_t>();
      model.settings.restriction = parse_adversary_restriction(j.at("adversary").get<std::string>());
    }
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
    summary->games = objective.games();
    summary->game_iterations = objective.game_iterations();
    summary->unconverged_games = objective.unconverged_games();
    summary->max_gap = objective.max_gap();
    summary->game_seconds = objective.game_seconds();
  }
  return model;
}

BinaryPrediction predict_binary_mpg(const BinaryModel& model, const BinaryProblem& problem,
                                    const DoubleOracleOptions& game_options) {
  const Eigen::VectorXd theta = model.aligned_theta(problem.features.cols() - 1);
  const Eigen::VectorXd psi = problem.features * theta;
  const BinaryAction gold = positives_of(problem.labels);
  if (has_closed_form(model.settings)) {
    // Every equilibrium marginal pi* can be taken non-increasing in psi (the greedy fill of
    // solve_precision_at_k_game), so the prediction is the top k by psi. Its probability is
    // the largest any decomposition of pi* into k-subsets can give it:
    // min(min_{i in S} pi_i, 1 - max_{i not in S} pi_i).
    const auto start = std::chrono::steady_clock::now();
    const std::size_t k = precision_k(model.settings, problem.labels);
    const auto eq = solve_precision_at_k_game(to_std(psi), k);
    BinaryPrediction prediction;
    prediction.k = k;
    prediction.action = eq.top_k;
    std::sort(prediction.action.begin(), prediction.action.end());
    prediction.marginals = eq.predictor_marginals;
    double inside = 1.0, outside = 0.0;
    std::vector<char> chosen(problem.labels.size(), 0);
    for (auto i : prediction.action) chosen[i] = 1;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      const double pi = eq.predictor_marginals[static_cast<Eigen::Index>(i)];
      if (chosen[i]) inside = std::min(inside, pi);
      else outside = std::max(outside, pi);
    }
    prediction.probability = std::min(inside, 1.0 - outside);
    for (auto i : gold) prediction.expected_score += eq.predictor_marginals[i] / static_cast<double>(k);
    prediction.score = precision_at_k(prediction.action, gold, k);
    prediction.game.status = eq.gap <= game_options.tolerance ? DoubleOracleStatus::converged
                                                              : DoubleOracleStatus::stalled;
    prediction.game.closed_form = true;
    prediction.game.value = eq.value;
    prediction.game.gap = eq.gap;
    prediction.game.predictor_response_value = eq.predictor_response_value;
    prediction.game.adversary_response_value = eq.adversary_response_value;
    prediction.game.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return prediction;
  }
  const auto game = make_binary_game(model.settings, to_std(psi), problem.labels);
  const auto solution = solve_double_oracle(*game, game_options);
  BinaryPrediction prediction;
  const auto& strategy = solution.predictor;
  const std::size_t best = most_probable_index(strategy);
  prediction.action = strategy.actions[best];
  prediction.probability = strategy.probabilities[best];
  prediction.marginals = binary_marginals(strategy, game->size());
  for (std::size_t j = 0; j < strategy.size(); ++j)
    prediction.expected_score += strategy.probabilities[j] * game->score(strategy.actions[j], gold);
  prediction.score = game->score(prediction.action, gold);
  if (model.settings.metric == BinaryMetric::precision_at_k)
    prediction.k = precision_k(model.settings, problem.labels);
  prediction.game = solution.summary;
  return prediction;
}

}  // namespace mpg
