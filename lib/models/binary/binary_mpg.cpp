#include "lib/models/binary/binary_mpg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "lib/base/choices.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
#include "lib/base/limits.hpp"
#include "lib/base/overloaded.hpp"
#include "lib/data/libsvm.hpp"

namespace mpg {
namespace {

}  // namespace

std::size_t BinaryProblem::positives() const {
  std::size_t count = 0;
  for (int y : labels) count += y == 1;
  return count;
}

void BinaryProblem::require_both_classes(double positive_label) const {
  const std::size_t positive = positives();
  if (positive > 0 && positive < labels.size()) return;
  std::map<double, std::size_t> counts;
  for (double label : raw_labels) ++counts[label];
  std::string listed;
  for (const auto& [label, count] : counts) listed += fmt::format("{}{:g} x {}", listed.empty() ? "" : ", ", label, count);
  throw InputError(path, fmt::format("no {} example to train on: the positive label is {:g} and the file's labels are "
                                     "{} (set the positive class with --positive)",
                                     positive == 0 ? "positive" : "negative", positive_label, listed));
}

Eigen::VectorXd BinaryProblem::potentials(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd psi = features * theta;
  for (Eigen::Index i = 0; i < psi.size(); ++i)
    if (!(std::abs(psi[i]) <= kMaxPotential))
      throw InputError(path, source_lines.empty() ? 0 : source_lines[static_cast<std::size_t>(i)],
                       fmt::format("the example's potential psi = theta . x = {:g} is beyond +-{:g}, where the game's "
                                   "payoffs (in [0, 1]) drown in rounding; scale the features down",
                                   psi[i], kMaxPotential));
  return psi;
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
  problem.source_lines = std::move(data.source_lines);
  problem.raw_labels = std::move(data.labels);
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

CompactProblem compact_columns(const BinaryProblem& problem) {
  const Eigen::Index bias = problem.features.cols() - 1;
  CompactProblem compact;
  // The used columns, in the order of the sorted non-zero list: memory in the non-zeros only.
  std::vector<long>& columns = compact.columns;
  for (Eigen::Index row = 0; row < problem.features.outerSize(); ++row)
    for (SparseRowMatrix::InnerIterator it(problem.features, row); it; ++it)
      if (it.col() != bias && it.value() != 0.0) columns.push_back(static_cast<long>(it.col()));
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  const auto new_column = [&](Eigen::Index column) {
    if (column == bias) return static_cast<Eigen::Index>(columns.size());
    return static_cast<Eigen::Index>(std::lower_bound(columns.begin(), columns.end(), column) - columns.begin());
  };
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(problem.features.nonZeros()));
  for (Eigen::Index row = 0; row < problem.features.outerSize(); ++row)
    for (SparseRowMatrix::InnerIterator it(problem.features, row); it; ++it)
      if (it.col() == bias || it.value() != 0.0) entries.emplace_back(row, new_column(it.col()), it.value());
  compact.problem = problem;
  compact.problem.features = SparseRowMatrix(problem.features.rows(), static_cast<Eigen::Index>(columns.size()) + 1);
  compact.problem.features.setFromTriplets(entries.begin(), entries.end());
  return compact;
}

void require_certified_lambda(const std::string& trainer, double lambda) {
  if (lambda == 0.0)
    throw Error(trainer + " needs lambda > 0 (got 0); use --optimizer lbfgs for lambda = 0");
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw Error(fmt::format("{} needs lambda > 0: lambda must be a positive finite number, got {}", trainer, lambda));
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
  const auto game = make_binary_game(settings_, to_std_vector(psi), problem_.labels);
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
  j["version"] = columns.empty() ? 1 : 2;
  write_metric_settings(settings, j);
  j["lambda"] = lambda;
  j["bias"] = bias;
  j["positive_label"] = positive_label;
  j["feature_count"] = feature_count;
  if (!columns.empty()) {
    std::vector<long> listed;  // 1-based, as the data file's indices
    for (const long column : columns) listed.push_back(column + 1);
    j["theta_columns"] = listed;
  }
  j["theta"] = to_std_vector(theta);
  return j;
}

BinaryModel BinaryModel::read(const std::string& path) { return parse(read_file(path), path); }

BinaryModel BinaryModel::parse(const std::string& text, const std::string& source) {
  // The last key read, so that a number too large for a double (1e999) is reported at its key.
  std::string last_key;
  const nlohmann::json::parser_callback_t track_keys = [&last_key](int, nlohmann::json::parse_event_t event,
                                                                   nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::key && parsed.is_string()) last_key = parsed.get<std::string>();
    return true;
  };
  nlohmann::json j;
  try {
    j = parse_json(text, source, track_keys);
  } catch (const nlohmann::json::out_of_range& e) {
    throw InputError(source, (last_key.empty() ? "" : "key '" + clipped(last_key) + "': ") +
                                 "a number beyond the range of a double (" + clipped(e.what()) + ")");
  }
  return from_json(j, source);
}

namespace {

// The model file's keys, each checked for its type and range (the file's name, the key and the
// value in every message).
class ModelKeys {
 public:
  ModelKeys(const nlohmann::json& j, const std::string& source) : j_(j), source_(source) {
    if (!j.is_object()) fail("", "a model file holds one JSON object, not " + std::string(j.type_name()));
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(source_, (key.empty() ? "" : "key '" + clipped(key) + "': ") + what);
  }
  const nlohmann::json& at(const std::string& key) const {
    if (!j_.contains(key)) fail(key, "missing (a model written by `mpg train` has it)");
    return j_.at(key);
  }
  std::string value_text(const std::string& key) const { return clipped(at(key).dump()); }
  std::string string(const std::string& key) const {
    if (!at(key).is_string()) fail(key, "expected a string, got " + value_text(key));
    return at(key).get<std::string>();
  }
  double number(const std::string& key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(key, "expected a finite number, got " + value_text(key));
    return v.get<double>();
  }
  // A JSON integer from 0 to `limit` (10.7, -1 and "3" are not).
  long count(const std::string& key, long limit) const {
    const nlohmann::json& v = at(key);
    const bool in_range = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(limit)
                                                 : v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
                                                       v.get<std::int64_t>() <= limit;
    if (!in_range) fail(key, "expected an integer from 0 to " + std::to_string(limit) + ", got " + value_text(key));
    return static_cast<long>(v.get<std::int64_t>());
  }

 private:
  const nlohmann::json& j_;
  const std::string& source_;
};

}  // namespace

BinaryModel BinaryModel::from_json(const nlohmann::json& j, const std::string& source) {
  const ModelKeys keys(j, source);
  if (keys.string("format") != "mpg-binary-model")
    keys.fail("format", "expected \"mpg-binary-model\", got " + keys.value_text("format"));
  const std::set<std::string> known = {"format", "version", "metric", "k_fraction", "k", "adversary", "lambda",
                                       "bias", "positive_label", "feature_count", "theta", "theta_columns", "training"};
  for (const auto& item : j.items())
    if (!known.count(item.key())) keys.fail(item.key(), "unknown key of an mpg binary model");
  const long version = j.contains("version") ? keys.count("version", 2) : 1;
  if (version == 0) keys.fail("version", "expected 1 (dense theta) or 2 (theta_columns), got 0");
  if ((version == 2) != j.contains("theta_columns"))
    keys.fail(version == 2 ? "theta_columns" : "version",
              version == 2 ? "missing (a version 2 model lists its columns)" : "theta_columns needs version 2");
  BinaryModel model;
  try {
    model.settings.metric = parse_binary_metric(keys.string("metric"));
  } catch (const Error& e) {
    keys.fail("metric", e.what());
  }
  if (binary_metric_plugin(model.settings.metric).has_k) {
    model.settings.k_fraction = keys.number("k_fraction");
    if (!(model.settings.k_fraction >= 0.0 && model.settings.k_fraction <= 1.0))
      keys.fail("k_fraction", "expected a fraction from 0 to 1, got " + keys.value_text("k_fraction"));
    if (j.contains("k")) {
      model.settings.k = static_cast<std::size_t>(keys.count("k", std::numeric_limits<int>::max()));
      if (*model.settings.k == 0) keys.fail("k", "expected k >= 1, got 0");
    }
    try {
      model.settings.restriction = parse_adversary_restriction(keys.string("adversary"));
    } catch (const Error& e) {
      keys.fail("adversary", e.what());
    }
  }
  model.lambda = keys.number("lambda");
  if (model.lambda < 0.0) keys.fail("lambda", "expected a number >= 0, got " + keys.value_text("lambda"));
  // The bias feature's value is part of the model's inputs: `mpg train` appends a constant 1 to
  // every example, and a model with another value would score other potentials than it learned.
  model.bias = keys.number("bias");
  if (model.bias != 1.0) keys.fail("bias", "expected 1 (the bias feature `mpg train` appends), got " + keys.value_text("bias"));
  model.positive_label = keys.number("positive_label");
  model.feature_count = keys.count("feature_count", kMaxFeatureIndex);
  if (version == 2) {
    const nlohmann::json& listed = keys.at("theta_columns");
    if (!listed.is_array()) keys.fail("theta_columns", "expected an array of column indices, got " + keys.value_text("theta_columns"));
    for (const nlohmann::json& column : listed) {
      const long previous = model.columns.empty() ? 0 : model.columns.back() + 1;
      if (!column.is_number_integer() || column.get<std::int64_t>() <= previous ||
          column.get<std::int64_t>() > model.feature_count)
        keys.fail("theta_columns", "expected ascending indices from 1 to feature_count = " +
                                       std::to_string(model.feature_count) + ", got " + clipped(column.dump()) +
                                       " after " + std::to_string(previous));
      model.columns.push_back(static_cast<long>(column.get<std::int64_t>()) - 1);
    }
  }
  const std::size_t weights = (version == 2 ? model.columns.size() : static_cast<std::size_t>(model.feature_count)) + 1;
  const nlohmann::json& theta = keys.at("theta");
  if (!theta.is_array()) keys.fail("theta", "expected an array of numbers, got " + keys.value_text("theta"));
  if (theta.size() != weights)
    keys.fail("theta", "has " + std::to_string(theta.size()) + " weights, expected " +
                           (version == 2 ? "one per entry of theta_columns and the bias = "
                                         : "feature_count + 1 = ") +
                           std::to_string(weights) + " (the bias weight last)");
  model.theta.resize(static_cast<Eigen::Index>(theta.size()));
  for (std::size_t i = 0; i < theta.size(); ++i) {
    if (!theta[i].is_number() || !std::isfinite(theta[i].get<double>()))
      keys.fail("theta", "weight " + std::to_string(i) + " is not a finite number: " + clipped(theta[i].dump()));
    // Beyond it, any example with the feature would have a potential the game cannot play.
    if (std::abs(theta[i].get<double>()) > kMaxPotential)
      keys.fail("theta", fmt::format("weight {} = {:g} is beyond +-{:g}: every potential it enters would drown the "
                                     "game's payoffs in rounding (not a model `mpg train` writes)",
                                     i, theta[i].get<double>(), kMaxPotential));
    model.theta[static_cast<Eigen::Index>(i)] = theta[i].get<double>();
  }
  return model;
}

Eigen::VectorXd BinaryModel::aligned_theta(long features) const {
  Eigen::VectorXd aligned = Eigen::VectorXd::Zero(features + 1);
  aligned[features] = theta[theta.size() - 1];
  if (!columns.empty()) {
    for (std::size_t j = 0; j < columns.size() && columns[j] < features; ++j)
      aligned[columns[j]] = theta[static_cast<Eigen::Index>(j)];
    return aligned;
  }
  const long shared = std::min(features, feature_count);
  aligned.head(shared) = theta.head(shared);
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
  const Eigen::VectorXd psi = problem.potentials(theta);
  const BinaryAction gold = positives_of(problem.labels);
  const auto game = make_binary_game(model.settings, to_std_vector(psi), problem.labels);
  BinaryPrediction prediction;
  prediction.k = metric_k(model.settings, problem.labels);
  // The decision: the equilibrium's likeliest action, or by default the maximin action where the
  // metric has one (F1).
  auto decide = [&] {
    prediction.likeliest_score = game->score(prediction.likeliest_action, gold);
    prediction.action = prediction.likeliest_action;
    std::optional<MaximinDecision> maximin;
    if (options.decision == DecisionRule::maximin) maximin = maximin_decision(model.settings, to_std_vector(psi));
    if (maximin) {
      prediction.action = std::move(maximin->action);
      prediction.guarantee = maximin->guarantee;
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
  // The solver over marginals needs 2 examples; the double oracle solves a game of 1 exactly.
  if (options.solver == BinaryGameSolver::marginals && game->size() < 2)
    throw InputError(problem.path, "has 1 example: the solver over marginals needs at least 2 (the default "
                                   "solver plays a 1-example game by double oracle)");
  if (options.solver != BinaryGameSolver::double_oracle && game->size() >= 2) {
    auto solution = game->solve_over_marginals(options.marginals);
    if (solution) return predict_from(*solution, BinaryGameSummary(solution->summary));
    if (options.solver == BinaryGameSolver::marginals)
      throw Error("the solver over marginals is for metrics that have one (F1); this model optimizes " +
                  to_string(model.settings.metric));
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
