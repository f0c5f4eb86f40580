// Binary MPG learner (lib/models/binary/binary_mpg.*): the objective f(theta) = -theta . Phi(gold) - v(theta)
// + lambda/2 ||theta||^2 against the value of the full 2^n x 2^n game, its gradient against finite
// differences, convexity, the symmetric game at theta = 0, training on a separable set, the JSON
// model and the choice of k of precision@k.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "tests/brute_force.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

Eigen::VectorXd random_theta(Eigen::Index size, double scale, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, scale);
  Eigen::VectorXd theta(size);
  for (Eigen::Index j = 0; j < size; ++j) theta[j] = normal(rng);
  return theta;
}

// Phi(x, y_gold) computed independently of the learner: the sum of the positive rows.
Eigen::VectorXd gold_features_of(const BinaryProblem& problem) {
  const Eigen::MatrixXd dense(problem.features);
  Eigen::VectorXd phi = Eigen::VectorXd::Zero(dense.cols());
  for (Eigen::Index i = 0; i < dense.rows(); ++i)
    if (problem.labels[static_cast<std::size_t>(i)] == 1) phi += dense.row(i).transpose();
  return phi;
}

std::vector<double> potentials_of(const BinaryProblem& problem, const Eigen::VectorXd& theta) {
  const Eigen::VectorXd psi = problem.features * theta;
  return {psi.data(), psi.data() + psi.size()};
}

// A set of n points in [-1, 1]^d labelled by a fixed linear rule, each at distance >= margin
// from its boundary.
BinaryProblem separable_problem(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const double w0 = 0.8, w1 = -0.6, b = 0.1, margin = 0.2;  // ||w|| = 1
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  while (rows.size() < n) {
    const double x0 = uniform(rng), x1 = uniform(rng);
    const double s = w0 * x0 + w1 * x1 + b;
    if (std::abs(s) < margin) continue;
    rows.push_back({x0, x1});
    labels.push_back(s > 0.0 ? 1 : 0);
  }
  return make_problem(rows, labels);
}

}  // namespace

TEST_CASE("Objective equals -theta.Phi(gold) - v(full game) + lambda/2 ||theta||^2",
          "[binary_mpg]") {
  std::mt19937 rng(20150611);
  const double lambda = 0.3;
  for (std::size_t n = 5; n <= 7; ++n) {
    const BinaryProblem problem = random_problem(n, 3, rng);
    const Eigen::VectorXd gold = gold_features_of(problem);
    for (const MetricSettings& settings : all_settings()) {
      // One objective for several thetas: later games start from earlier supports.
      BinaryMpgObjective objective(problem, settings, lambda, DoubleOracleOptions{});
      CHECK((objective.gold_features() - gold).norm() < 1e-12);
      for (double scale : {0.1, 0.5, 1.5}) {
        const Eigen::VectorXd theta = random_theta(problem.features.cols(), scale, rng);
        const std::vector<double> psi = potentials_of(problem, theta);
        double full_value = 0.0;
        if (settings.metric == BinaryMetric::f1) {
          const F1Game game(psi);
          full_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
        } else {
          const PrecisionAtKGame game(psi, precision_k(settings, problem.labels),
                                      settings.restriction);
          full_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
        }
        const double expected =
            -theta.dot(gold) - full_value + 0.5 * lambda * theta.squaredNorm();
        Eigen::VectorXd gradient(theta.size());
        const double actual = objective.evaluate(theta, gradient);
        INFO("n = " << n << ", " << describe(settings) << ", theta scale " << scale);
        CHECK(actual == Approx(expected).margin(1e-8));
        CHECK(gradient.allFinite());
      }
      CHECK(objective.statistics().games == 3);
      CHECK(objective.statistics().unconverged_games == 0);
    }
  }
}

TEST_CASE("Gradient of the objective matches central finite differences", "[binary_mpg]") {
  std::mt19937 rng(424242);
  const double h = 1e-6;
  DoubleOracleOptions game_options;
  game_options.tolerance = 1e-12;  // game values exact enough for a difference quotient
  for (const MetricSettings& settings : all_settings()) {
    INFO(describe(settings));
    const BinaryProblem problem = random_problem(8, 3, rng);
    BinaryMpgObjective objective(problem, settings, 0.25, game_options);
    const int trials = 8;
    int first_attempt_agreements = 0;
    int trials_agreeing = 0;
    for (int trial = 0; trial < trials; ++trial) {
      // The objective is piecewise linear plus quadratic: at a random theta it is differentiable
      // with probability 1, but a kink within h of theta spoils the quotient; retry then.
      for (int attempt = 0; attempt < 4; ++attempt) {
        const Eigen::VectorXd theta = random_theta(problem.features.cols(), 0.7, rng);
        Eigen::VectorXd gradient(theta.size());
        objective.evaluate(theta, gradient);
        double worst = 0.0;
        for (Eigen::Index j = 0; j < theta.size(); ++j) {
          Eigen::VectorXd plus = theta, minus = theta;
          plus[j] += h;
          minus[j] -= h;
          const double quotient = (value_at(objective, plus) - value_at(objective, minus)) / (2 * h);
          worst = std::max(worst, std::abs(quotient - gradient[j]));
        }
        if (worst <= 1e-4) {
          first_attempt_agreements += attempt == 0;
          ++trials_agreeing;
          break;
        }
      }
    }
    CHECK(trials_agreeing == trials);
    CHECK(first_attempt_agreements >= trials * 3 / 4);
    CHECK(objective.statistics().unconverged_games == 0);
  }
}

TEST_CASE("Objective is convex along random segments", "[binary_mpg]") {
  std::mt19937 rng(7);
  DoubleOracleOptions game_options;
  game_options.tolerance = 1e-12;
  for (const MetricSettings& settings : all_settings()) {
    INFO(describe(settings));
    const BinaryProblem problem = random_problem(8, 3, rng);
    BinaryMpgObjective objective(problem, settings, 0.05, game_options);
    double largest_excess = -std::numeric_limits<double>::infinity();
    for (int pair = 0; pair < 20; ++pair) {
      const Eigen::VectorXd a = random_theta(problem.features.cols(), 1.0, rng);
      const Eigen::VectorXd b = random_theta(problem.features.cols(), 1.0, rng);
      const double middle = value_at(objective, 0.5 * (a + b));
      const double chord = 0.5 * (value_at(objective, a) + value_at(objective, b));
      largest_excess = std::max(largest_excess, middle - chord);
      CHECK(middle <= chord + 1e-9);
    }
    // Piecewise linear: somewhere the inequality is strict (the check is not vacuous).
    CHECK(largest_excess < -1e-6);
    CHECK(objective.statistics().unconverged_games == 0);
  }
}

TEST_CASE("F1 objective at theta = 0 is -2/(n+3)", "[binary_mpg]") {
  std::mt19937 rng(3);
  for (std::size_t n = 3; n <= 6; ++n) {
    const BinaryProblem problem = random_problem(n, 2, rng);
    BinaryMpgObjective objective(problem, f1_settings(), 0.5, DoubleOracleOptions{});
    const Eigen::VectorXd theta = Eigen::VectorXd::Zero(problem.features.cols());
    Eigen::VectorXd gradient(theta.size());
    INFO("n = " << n);
    CHECK(objective.evaluate(theta, gradient) == Approx(-2.0 / double(n + 3)).margin(1e-9));
    CHECK(gradient.allFinite());
    CHECK(objective.statistics().unconverged_games == 0);
  }
}

TEST_CASE("Training on a separable set reaches F1 and P@k >= 0.9 on it", "[binary_mpg]") {
  std::mt19937 rng(99);
  const BinaryProblem problem = separable_problem(40, rng);
  REQUIRE(problem.positives() >= 5);
  REQUIRE(problem.positives() <= 35);
  TrainOptions options;
  options.lambda = 0.01;
  for (const MetricSettings& settings :
       {f1_settings(), precision_settings(AdversaryRestriction::unrestricted)}) {
    INFO(describe(settings));
    TrainSummary summary;
    const BinaryModel model = train_binary_mpg(problem, settings, options, &summary);
    INFO(summary.games << " games, " << summary.unconverged_games << " not converged, max gap "
                       << summary.max_gap << "; optimizer: " << summary.optimizer.message);
    CHECK(summary.games > 0);
    CHECK(summary.unconverged_games == 0);
    CHECK(summary.optimizer.final_value < summary.optimizer.initial_value);
    REQUIRE(model.theta.size() == 3);
    CHECK(model.feature_count == 2);
    CHECK(model.lambda == 0.01);
    CHECK(model.settings.metric == settings.metric);

    const BinaryPrediction prediction = predict_binary_mpg(model, problem);
    CHECK(prediction.game.converged());
    const BinaryAction gold = positives_of(problem.labels);
    if (settings.metric == BinaryMetric::f1) {
      const double f1 = f1_score(prediction.action, gold);
      CHECK(f1 >= 0.9);
      CHECK(prediction.score == Approx(f1).margin(1e-12));
    } else {
      const std::size_t k = problem.positives() / 2;
      CHECK(prediction.k == k);
      REQUIRE(prediction.action.size() == k);
      const double precision = precision_at_k(prediction.action, gold, k);
      CHECK(precision >= 0.9);
      CHECK(prediction.score == Approx(precision).margin(1e-12));
    }
  }
}

TEST_CASE("BinaryModel JSON round trip and validation", "[binary_mpg]") {
  BinaryModel model;
  model.settings = precision_settings(AdversaryRestriction::exactly_k);
  model.settings.k_fraction = 0.3;
  model.settings.k = 4;
  model.lambda = 0.0625;
  model.positive_label = -3.0;
  model.feature_count = 3;
  model.theta.resize(4);
  model.theta << 0.1, -1.0 / 3.0, 1e-300, std::sqrt(2.0);

  SECTION("round trip of a precision@k model, also through text") {
    const nlohmann::json j = model.to_json();
    CHECK(j.at("format") == "mpg-binary-model");
    for (const nlohmann::json& copy : {j, nlohmann::json::parse(j.dump())}) {
      const BinaryModel back = BinaryModel::from_json(copy, "model.json");
      CHECK(back.settings.metric == BinaryMetric::precision_at_k);
      CHECK(back.settings.k_fraction == 0.3);
      REQUIRE(back.settings.k.has_value());
      CHECK(*back.settings.k == 4);
      CHECK(back.settings.restriction == AdversaryRestriction::exactly_k);
      CHECK(back.lambda == 0.0625);
      CHECK(back.bias == 1.0);
      CHECK(back.positive_label == -3.0);
      CHECK(back.feature_count == 3);
      REQUIRE(back.theta.size() == 4);
      for (Eigen::Index j2 = 0; j2 < 4; ++j2) CHECK(back.theta[j2] == model.theta[j2]);
    }
  }

  SECTION("round trip of an F1 model") {
    BinaryModel f1 = model;
    f1.settings = f1_settings();
    const BinaryModel back = BinaryModel::from_json(f1.to_json(), "f1.json");
    CHECK(back.settings.metric == BinaryMetric::f1);
    CHECK_FALSE(back.settings.k.has_value());
    CHECK(back.theta == f1.theta);
  }

  SECTION("a precision@k model without k keeps k unset") {
    BinaryModel no_k = model;
    no_k.settings.k.reset();
    const BinaryModel back = BinaryModel::from_json(no_k.to_json(), "m.json");
    CHECK_FALSE(back.settings.k.has_value());
    CHECK(back.settings.k_fraction == 0.3);
  }

  SECTION("wrong theta length") {
    nlohmann::json j = model.to_json();
    j["theta"] = {0.1, 0.2, 0.3};
    CHECK_THROWS_AS(BinaryModel::from_json(j, "short.json"), InputError);
    j["theta"] = {0.1, 0.2, 0.3, 0.4, 0.5};
    CHECK_THROWS_AS(BinaryModel::from_json(j, "long.json"), InputError);
    j = model.to_json();
    j["feature_count"] = 5;
    CHECK_THROWS_WITH(BinaryModel::from_json(j, "count.json"), Catch::Contains("count.json"));
  }

  SECTION("non-finite weights") {
    for (double bad : {std::numeric_limits<double>::quiet_NaN(),
                       std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
      nlohmann::json j = model.to_json();
      j["theta"][2] = bad;
      CHECK_THROWS_AS(BinaryModel::from_json(j, "bad.json"), InputError);
    }
    // NaN written to text becomes null.
    nlohmann::json j = nlohmann::json::parse(R"({"format": "mpg-binary-model", "metric": "f1",
        "lambda": 0.1, "bias": 1.0, "positive_label": 1.0, "feature_count": 1,
        "theta": [0.5, null]})");
    CHECK_THROWS_AS(BinaryModel::from_json(j, "null.json"), InputError);
  }

  SECTION("other malformed models") {
    nlohmann::json j = model.to_json();
    j["format"] = "something-else";
    CHECK_THROWS_AS(BinaryModel::from_json(j, "f.json"), InputError);
    j = model.to_json();
    j.erase("lambda");
    CHECK_THROWS_AS(BinaryModel::from_json(j, "l.json"), InputError);
    j = model.to_json();
    j["metric"] = "accuracy";
    CHECK_THROWS_AS(BinaryModel::from_json(j, "m.json"), Error);
    // The bias feature is the constant 1 `mpg train` appends; another value is refused.
    j = model.to_json();
    j["bias"] = 2.5;
    CHECK_THROWS_WITH(BinaryModel::from_json(j, "b.json"), Catch::Contains("b.json: key 'bias': expected 1"));
    // parse() = JSON text + from_json; a round trip through text keeps every weight.
    const BinaryModel back = BinaryModel::parse(model.to_json().dump(), "t.json");
    CHECK(back.theta == model.theta);
  }

  SECTION("aligned_theta keeps the bias weight last") {
    model.theta << 1.0, 2.0, 3.0, 4.0;  // bias weight 4
    Eigen::VectorXd more(6);
    more << 1.0, 2.0, 3.0, 0.0, 0.0, 4.0;
    CHECK(model.aligned_theta(5) == more);
    Eigen::VectorXd fewer(3);
    fewer << 1.0, 2.0, 4.0;
    CHECK(model.aligned_theta(2) == fewer);
    CHECK(model.aligned_theta(3) == model.theta);
    const Eigen::VectorXd bias_only = model.aligned_theta(0);
    REQUIRE(bias_only.size() == 1);
    CHECK(bias_only[0] == 4.0);
  }
}

TEST_CASE("precision_k is floor(k_fraction * positives) within [1, n]", "[binary_mpg]") {
  MetricSettings settings = precision_settings(AdversaryRestriction::unrestricted);
  CHECK(precision_k(settings, {1, 1, 1, 1, 1, 0, 0}) == 2);  // floor(2.5)
  CHECK(precision_k(settings, {1, 0, 1, 0, 1, 1}) == 2);
  CHECK(precision_k(settings, {0, 1, 1, 1}) == 1);  // floor(1.5)
  CHECK_THROWS_AS(precision_k(settings, {0, 1, 0}), Error);  // floor(0.5) = 0
  CHECK_THROWS_AS(precision_k(settings, {0, 0, 0, 0}), Error);  // no positives
  settings.k_fraction = 1.0;
  CHECK(precision_k(settings, {1, 0, 1, 1, 0}) == 3);
  settings.k = 4;  // an explicit k wins over the fraction
  CHECK(precision_k(settings, {1, 0, 1, 1, 0}) == 4);
  CHECK(precision_k(settings, {0, 0, 0, 0}) == 4);
  settings.k = 6;
  CHECK_THROWS_AS(precision_k(settings, {1, 0, 1, 1, 0}), Error);  // k > n
  settings.k = 0;
  CHECK_THROWS_AS(precision_k(settings, {1, 0, 1, 1, 0}), Error);

  // The game built for a P@k problem uses that k.
  const auto game = make_binary_game(precision_settings(AdversaryRestriction::exactly_k),
                                     {0.1, 0.2, 0.3, 0.4, 0.5}, {1, 1, 0, 1, 1});
  const auto* precision_game = dynamic_cast<const PrecisionAtKGame*>(game.get());
  REQUIRE(precision_game != nullptr);
  CHECK(precision_game->k() == 2);
  CHECK(precision_game->restriction() == AdversaryRestriction::exactly_k);
}

TEST_CASE("F1 training does not need a valid precision@k k", "[binary_mpg]") {
  // One positive of four: floor(0.5 * 1) = 0 is no valid k, but the F1 game is well defined.
  Eigen::SparseMatrix<double, Eigen::RowMajor> x(4, 2);
  const double values[4] = {0.5, 0.2, -0.3, 0.1};
  for (int i = 0; i < 4; ++i) {
    x.insert(i, 0) = values[i];
    x.insert(i, 1) = 1.0;
  }
  mpg::BinaryProblem problem;
  problem.features = x;
  problem.labels = {1, 0, 0, 0};
  mpg::MetricSettings f1;
  CHECK_NOTHROW(mpg::BinaryMpgObjective(problem, f1, 0.1, {}));
  mpg::MetricSettings pk;
  pk.metric = mpg::BinaryMetric::precision_at_k;
  CHECK_THROWS_AS(mpg::BinaryMpgObjective(problem, pk, 0.1, {}), mpg::Error);
}
