// README's recipe "Add a metric", shown by a metric defined entirely in this file: Hamming
// accuracy, (1/n) #{i : y_hat_i = y_i}, as a BinaryGame with both best responses, registered as
// a plug-in (lib/metrics/binary_metric.hpp). Its best responses match brute force over all 2^n
// actions, the generic double oracle solves its games, and the generic cutting-plane trainer
// learns a binary MPG of it; the metric-specific trainers refuse it by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>

#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/metrics/binary_metric.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"
#include "lib/models/binary/joint_trainer.hpp"
#include "lib/models/binary/marginal_trainer.hpp"
#include "lib/models/binary/precision_at_k_trainer.hpp"
#include "tests/brute_force.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

const char* const kName = "hamming_accuracy";

// acc(y_hat, y) = 1 - |y_hat XOR y| / n: linear in each label, so against a mixed strategy only
// the opponent's marginals m_i = P(Y_i = 1) matter:
//   predictor: E_Q[acc(y_hat, Y)] = (1/n) sum_i (y_hat_i m_i + (1 - y_hat_i)(1 - m_i)): y_hat_i = [m_i > 1/2];
//   adversary: E_P[acc(Y_hat, y)] - psi(y) = sum_i y_i (p_i / n - psi_i) + (1 - y_i)(1 - p_i) / n:
//              y_i = [p_i / n - psi_i < (1 - p_i) / n].
class AccuracyGame : public BinaryGame {
 public:
  using BinaryGame::BinaryGame;
  std::string metric_name() const override { return kName; }
  double score(const BinaryAction& prediction, const BinaryAction& label) const override {
    BinaryAction both;
    std::set_intersection(prediction.begin(), prediction.end(), label.begin(), label.end(), std::back_inserter(both));
    const double differing = static_cast<double>(prediction.size() + label.size() - 2 * both.size());
    return 1.0 - differing / static_cast<double>(size());
  }
  std::vector<BinaryAction> initial_predictor_actions() const override { return {all_zeros(), all_ones(size())}; }
  std::vector<BinaryAction> initial_adversary_actions() const override { return {all_zeros(), all_ones(size())}; }
  bool is_legal_predictor_action(const BinaryAction& a) const override { return is_action(a); }
  bool is_legal_adversary_action(const BinaryAction& a) const override { return is_action(a); }

  BestResponse<BinaryAction> predictor_best_response(const MixedStrategy<BinaryAction>& adversary) const override {
    const Eigen::VectorXd m = binary_marginals(adversary, size());
    BestResponse<BinaryAction> best;
    for (std::size_t i = 0; i < size(); ++i)
      if (m[static_cast<Eigen::Index>(i)] > 0.5) best.action.push_back(static_cast<std::uint32_t>(i));
    for (std::size_t j = 0; j < adversary.size(); ++j)
      best.value += adversary.probabilities[j] * payoff(best.action, adversary.actions[j]);
    return best;
  }
  BestResponse<BinaryAction> adversary_best_response(const MixedStrategy<BinaryAction>& predictor) const override {
    const Eigen::VectorXd p = binary_marginals(predictor, size());
    const double n = static_cast<double>(size());
    BestResponse<BinaryAction> best;
    for (std::size_t i = 0; i < size(); ++i) {
      const double pi = p[static_cast<Eigen::Index>(i)];
      if (pi / n - potentials()[i] < (1.0 - pi) / n) best.action.push_back(static_cast<std::uint32_t>(i));
    }
    for (std::size_t j = 0; j < predictor.size(); ++j)
      best.value += predictor.probabilities[j] * payoff(predictor.actions[j], best.action);
    return best;
  }
};

BinaryMetricPlugin accuracy_plugin() {
  BinaryMetricPlugin plugin;
  plugin.name = kName;
  plugin.title = "Hamming accuracy";
  plugin.make_game = [](const MetricSettings&, std::vector<double> potentials, const std::vector<int>&) {
    return std::unique_ptr<BinaryGame>(std::make_unique<AccuracyGame>(std::move(potentials)));
  };
  plugin.score = [](const MetricSettings&, const std::vector<int>& predicted, const std::vector<int>& gold) {
    double same = 0.0;
    for (std::size_t i = 0; i < gold.size(); ++i) same += predicted[i] == gold[i];
    return same / static_cast<double>(gold.size());
  };
  return plugin;  // no capabilities: learning and prediction use the generic double oracle
}

// The metric is registered for one test case.
struct Registered {
  Registered() { register_binary_metric(accuracy_plugin()); }
  ~Registered() { unregister_binary_metric(kName); }
  Registered(const Registered&) = delete;
  Registered& operator=(const Registered&) = delete;
};

MetricSettings accuracy_settings() {
  MetricSettings settings;
  settings.metric = parse_binary_metric(kName);
  return settings;
}

}  // namespace

TEST_CASE("A metric added in a test registers by name, with its model-file fields", "[metric_plugin]") {
  CHECK(find_binary_metric(kName) == nullptr);
  {
    const Registered registered;
    const MetricSettings settings = accuracy_settings();
    CHECK(to_string(settings.metric) == kName);
    CHECK(binary_metric_choices() == "f1, precision_at_k or hamming_accuracy");
    CHECK_THROWS_AS(register_binary_metric(accuracy_plugin()), Error);
    nlohmann::json model;
    write_metric_settings(settings, model);
    CHECK(model == nlohmann::json{{"metric", kName}});
    CHECK(read_metric_settings(model).metric == settings.metric);
    CHECK(metric_k(settings, {1, 0, 1}) == 0);
    CHECK(binary_metric_score(settings, {1, 0, 0, 1}, {1, 1, 0, 0}) == 0.5);
    // No capability: the metric-specific trainers are not offered.
    CHECK_FALSE(has_dual_trainer(settings));
    CHECK_FALSE(has_marginal_solver(settings));
    CHECK_FALSE(has_joint_trainer(settings));
    CHECK_FALSE(maximin_decision(settings, {0.1, -0.2}).has_value());
  }
  CHECK(find_binary_metric(kName) == nullptr);
  CHECK_THROWS_AS(parse_binary_metric(kName), Error);
  CHECK_THROWS_AS(unregister_binary_metric("f1"), Error);
}

TEST_CASE("The added metric's best responses match brute force over all 2^n actions", "[metric_plugin]") {
  const Registered registered;
  std::mt19937 rng(7);
  for (std::size_t n = 1; n <= 6; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      const auto game = make_binary_game(accuracy_settings(), random_potentials(n, rng), std::vector<int>(n, 0));
      const std::vector<BinaryAction> all = all_binary_actions(n);
      const auto adversary = random_strategy(all, 1 + trial % 4, rng);
      const auto predictor = random_strategy(all, 1 + trial % 3, rng);
      INFO("n " << n << " trial " << trial);
      const auto p = game->predictor_best_response(adversary);
      CHECK(p.value == Approx(brute_force_predictor_value(*game, n, adversary)).margin(1e-12));
      CHECK(p.value == Approx(predictor_value_of(*game, p.action, adversary)).margin(1e-12));
      const auto a = game->adversary_best_response(predictor);
      CHECK(a.value == Approx(brute_force_adversary_value(*game, n, predictor)).margin(1e-12));
      CHECK(a.value == Approx(adversary_value_of(*game, a.action, predictor)).margin(1e-12));
    }
  }
}

TEST_CASE("The generic double oracle solves the added metric's games", "[metric_plugin]") {
  const Registered registered;
  std::mt19937 rng(11);
  for (std::size_t n : {2, 4, 7}) {
    const auto game = make_binary_game(accuracy_settings(), random_potentials(n, rng), std::vector<int>(n, 0));
    DoubleOracleOptions options;
    options.tolerance = 1e-9;
    const auto solution = solve_double_oracle(*game, options);
    INFO("n " << n);
    REQUIRE(solution.summary.converged());
    // The certificate by brute force: neither player gains by any of the 2^n actions.
    const double upper = brute_force_predictor_value(*game, n, solution.adversary);
    const double lower = brute_force_adversary_value(*game, n, solution.predictor);
    CHECK(upper - lower <= 1e-7);
    CHECK(solution.summary.value == Approx(upper).margin(1e-7));
  }
}

TEST_CASE("The generic trainer learns a binary MPG of the added metric", "[metric_plugin]") {
  const Registered registered;
  const MetricSettings settings = accuracy_settings();
  const BinaryProblem problem = make_problem({{1.0, 0.2}, {0.8, -0.1}, {0.9, 0.4}, {-0.7, 0.3}, {-1.0, -0.5}, {-0.2, 0.9}},
                                             {1, 1, 1, 0, 0, 0});
  const double lambda = 0.1;
  CHECK(resolve_trainer(BinaryTrainer::automatic, settings) == BinaryTrainer::cutting_plane);
  BinaryTrainingOptions options;
  options.lambda = lambda;
  options.tolerance = 1e-7;
  BinaryTrainingSummary summary;
  const BinaryModel model = train_binary_mpg_model(problem, settings, options, &summary);
  REQUIRE(summary.trainer() == BinaryTrainer::cutting_plane);
  REQUIRE(summary.converged());
  const auto& cuts = std::get<CuttingPlaneSummary>(summary.summary());
  // The certificate brackets the objective at the returned theta (the full game by double oracle).
  BinaryMpgObjective objective(problem, settings, lambda, DoubleOracleOptions{});
  const double at_model = value_at(objective, model.theta);
  CHECK(at_model <= cuts.objective + 1e-9);
  CHECK(at_model >= cuts.lower_bound - 1e-9);
  CHECK(at_model < value_at(objective, Eigen::VectorXd::Zero(model.theta.size())));
  // The model predicts through the generic double oracle, scored by the added metric.
  const BinaryPrediction prediction = predict_binary_mpg(model, problem, {});
  CHECK(prediction.game.converged());
  CHECK(prediction.score >= 0.0);
  CHECK(prediction.score <= 1.0);
  // The metric-specific trainers refuse it, naming it.
  for (BinaryTrainer trainer : {BinaryTrainer::dual, BinaryTrainer::marginals, BinaryTrainer::joint}) {
    BinaryTrainingOptions specific = options;
    specific.trainer = trainer;
    CHECK_THROWS_WITH(train_binary_mpg_model(problem, settings, specific), Catch::Contains(kName));
  }
}
