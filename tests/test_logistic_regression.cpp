// LR baseline (baselines/logistic_regression.*): the objective against a direct evaluation and
// its gradient against central differences, a symmetric 1-D problem whose optimum solves a
// scalar equation, accuracy on a separated 2-D set, input errors, and the two decision rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "baselines/logistic_regression.hpp"
#include "lib/base/error.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

Eigen::VectorXd random_weights(Eigen::Index size, double scale, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, scale);
  Eigen::VectorXd w(size);
  for (Eigen::Index j = 0; j < size; ++j) w[j] = normal(rng);
  return w;
}

// sum_i log(1 + exp(-s_i w . x_i)) + lambda/2 ||w||^2 evaluated literally (moderate margins only).
double direct_objective(const BinaryProblem& problem, const Eigen::VectorXd& w, double lambda) {
  const Eigen::MatrixXd dense(problem.features);
  double value = 0.5 * lambda * w.squaredNorm();
  for (Eigen::Index i = 0; i < dense.rows(); ++i) {
    const double s = problem.labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    value += std::log(1.0 + std::exp(-s * dense.row(i).dot(w)));
  }
  return value;
}

double value_at(LogisticRegressionObjective& objective, const Eigen::VectorXd& w) {
  Eigen::VectorXd gradient(w.size());
  return objective.evaluate(w, gradient);
}

LogisticRegressionModel train_symmetric(int m, double lambda, int newton_steps,
                                        OptimizerSummary& summary) {
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  for (int copy = 0; copy < m; ++copy) {
    rows.push_back({1.0});
    labels.push_back(1);
    rows.push_back({-1.0});
    labels.push_back(0);
  }
  const BinaryProblem problem = make_problem(rows, labels);
  LogisticRegressionOptions options;
  options.lambda = lambda;
  options.gradient_tolerance = 1e-12;
  options.value_tolerance = 0.0;
  options.newton_steps = newton_steps;
  return train_logistic_regression(problem.features, problem.labels, options, &summary);
}

// The root of lambda w = 2 m sigmoid(-w) by bisection (the left side increases, the right
// decreases, so the root is unique and lies in [0, 2m / lambda]).
double symmetric_root(double lambda, double m) {
  double low = 0.0, high = 2.0 * m / lambda;
  for (int step = 0; step < 200; ++step) {
    const double mid = 0.5 * (low + high);
    (lambda * mid - 2.0 * m * sigmoid(-mid) < 0.0 ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace

TEST_CASE("the objective and its gradient match a direct evaluation and central differences",
          "[logistic_regression]") {
  std::mt19937 rng(8);
  const double lambda = 0.7;
  for (int trial = 0; trial < 5; ++trial) {
    const BinaryProblem problem = random_problem(12, 4, rng);
    LogisticRegressionObjective objective(problem.features, problem.labels, lambda);
    for (const double scale : {0.1, 1.0, 3.0}) {
      const Eigen::VectorXd w = random_weights(problem.features.cols(), scale, rng);
      INFO("trial " << trial << ", w = " << w.transpose());
      Eigen::VectorXd gradient(w.size());
      const double value = objective.evaluate(w, gradient);
      CHECK(value == Approx(direct_objective(problem, w, lambda)).epsilon(1e-12));
      const double h = 1e-5;
      for (Eigen::Index j = 0; j < w.size(); ++j) {
        Eigen::VectorXd plus = w, minus = w;
        plus[j] += h;
        minus[j] -= h;
        const double numeric = (value_at(objective, plus) - value_at(objective, minus)) / (2 * h);
        CHECK(gradient[j] == Approx(numeric).epsilon(1e-6).margin(1e-7));
      }
      // H v against the central difference of the gradient along v.
      const Eigen::VectorXd v = random_weights(w.size(), 1.0, rng);
      Eigen::VectorXd gradient_plus(w.size()), gradient_minus(w.size());
      objective.evaluate(w + h * v, gradient_plus);
      objective.evaluate(w - h * v, gradient_minus);
      const Eigen::VectorXd numeric_hv = (gradient_plus - gradient_minus) / (2 * h);
      CHECK((objective.hessian_times(w, v) - numeric_hv).norm() <= 1e-6 * numeric_hv.norm());
    }
  }
}

TEST_CASE("the loss stays finite and exact at extreme margins", "[logistic_regression]") {
  // One example x = (1, bias 1), label 1: margin w0 + w1. At margin -1000 the loss is 1000 (plus
  // e^-1000), at +1000 it is e^-1000, which underflows to 0; the gradient is -1 resp. 0 per
  // weight, plus lambda w.
  const BinaryProblem problem = make_problem({{1.0}}, {1});
  const double lambda = 1e-3;
  LogisticRegressionObjective objective(problem.features, problem.labels, lambda);
  Eigen::VectorXd gradient(2);
  Eigen::VectorXd w(2);
  w << -600.0, -400.0;
  CHECK(objective.evaluate(w, gradient) == Approx(1000.0 + 0.5 * lambda * w.squaredNorm()));
  CHECK(gradient[0] == Approx(-1.0 + lambda * w[0]));
  CHECK(gradient[1] == Approx(-1.0 + lambda * w[1]));
  w << 600.0, 400.0;
  CHECK(objective.evaluate(w, gradient) == Approx(0.5 * lambda * w.squaredNorm()));
  CHECK(gradient[0] == Approx(lambda * w[0]));
  CHECK(gradient[1] == Approx(lambda * w[1]));
  CHECK(sigmoid(-1000.0) == 0.0);
  CHECK(sigmoid(1000.0) == 1.0);
  CHECK(sigmoid(0.0) == 0.5);
  CHECK(sigmoid(-2.0) == Approx(1.0 - sigmoid(2.0)).epsilon(1e-14));
}

TEST_CASE("a symmetric 1-D problem has zero bias and w solving lambda w = 2 m sigmoid(-w)",
          "[logistic_regression]") {
  // m copies of x = +1 (label 1) and of x = -1 (label 0), with a bias column. Mirroring x and the
  // labels maps the problem onto itself with the bias negated, and f is strictly convex, so the
  // optimal bias is 0. Then both margins equal w and df/dw = -2 m sigmoid(-w) + lambda w = 0.
  for (const int m : {1, 3, 10}) {
    for (const double lambda : {0.1, 1.0, 5.0}) {
      INFO("m = " << m << ", lambda = " << lambda);
      OptimizerSummary summary;
      const LogisticRegressionModel model = train_symmetric(m, lambda, 10, summary);
      INFO(summary.message);
      REQUIRE(model.weights.size() == 2);
      CHECK(model.lambda == lambda);
      const double w = model.weights[0];
      CHECK(std::abs(model.weights[1]) < 1e-8);
      CHECK(std::abs(lambda * w - 2.0 * m * sigmoid(-w)) < 1e-8);
      CHECK(w == Approx(symmetric_root(lambda, m)).epsilon(1e-8));
      CHECK(summary.gradient_norm < 1e-8);
      CHECK(summary.final_value < summary.initial_value);
      // The probability of the positive point is sigmoid(w), of the negative one sigmoid(-w).
      const BinaryProblem problem = make_problem({{1.0}, {-1.0}}, {1, 0});
      const Eigen::VectorXd p = model.probabilities(problem.features);
      CHECK(p[0] == Approx(sigmoid(w)));
      CHECK(p[1] == Approx(1.0 - sigmoid(w)));
      CHECK(model.probability(Eigen::Vector2d(1.0, 1.0)) == Approx(p[0]));
    }
  }
}

TEST_CASE("L-BFGS alone gets close; the Newton polish reaches the gradient tolerance",
          "[logistic_regression]") {
  // m = 10, lambda = 5: f is about 9, so a step lowering f by less than ~1e-15 is invisible to
  // the line search, which stalls near ||grad f|| ~ sqrt(2 H eps f) ~ 1e-7.
  OptimizerSummary lbfgs_only;
  const double w_lbfgs = train_symmetric(10, 5.0, 0, lbfgs_only).weights[0];
  INFO(lbfgs_only.message);
  CHECK(w_lbfgs == Approx(symmetric_root(5.0, 10)).epsilon(1e-6));
  CHECK(lbfgs_only.message.find("Newton") == std::string::npos);

  OptimizerSummary polished;
  const double w_polished = train_symmetric(10, 5.0, 10, polished).weights[0];
  INFO(polished.message);
  CHECK(polished.converged());
  CHECK(polished.gradient_norm <= 1e-12 * std::max(1.0, std::abs(w_polished)));
  CHECK(w_polished == Approx(symmetric_root(5.0, 10)).epsilon(1e-12));
}

TEST_CASE("training on a well-separated 2-D set classifies it", "[logistic_regression]") {
  // Two unit-variance Gaussian clouds centred at (2, 1) (label 1) and (-2, -1) (label 0).
  std::mt19937 rng(1357);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  for (int i = 0; i < 200; ++i) {
    const int y = i % 2;
    const double sign = y == 1 ? 1.0 : -1.0;
    rows.push_back({2.0 * sign + normal(rng), 1.0 * sign + normal(rng)});
    labels.push_back(y);
  }
  const BinaryProblem problem = make_problem(rows, labels);
  LogisticRegressionOptions options;
  options.lambda = 0.1;
  OptimizerSummary summary;
  const LogisticRegressionModel model =
      train_logistic_regression(problem.features, problem.labels, options, &summary);
  INFO(summary.message);
  CHECK(summary.converged());
  const Eigen::VectorXd scores = decision_values(model, problem.features);
  REQUIRE(scores.size() == 200);
  const std::vector<int> predicted = predict_threshold(scores);
  int correct = 0;
  for (std::size_t i = 0; i < predicted.size(); ++i) correct += predicted[i] == labels[i];
  CHECK(correct >= 190);
  CHECK(model.weights[0] > 0.0);
  CHECK(model.weights[1] > 0.0);
  // The decision values are w . x_i.
  const Eigen::MatrixXd dense(problem.features);
  CHECK((scores - dense * model.weights).norm() < 1e-12);
}

TEST_CASE("bad lambda, labels or sizes are errors", "[logistic_regression]") {
  const BinaryProblem problem = make_problem({{1.0}, {-1.0}, {0.5}}, {1, 0, 1});
  LogisticRegressionOptions options;
  for (const double lambda : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity()}) {
    INFO("lambda = " << lambda);
    options.lambda = lambda;
    CHECK_THROWS_AS(train_logistic_regression(problem.features, problem.labels, options),
                    mpg::Error);
    CHECK_THROWS_AS(LogisticRegressionObjective(problem.features, problem.labels, lambda),
                    mpg::Error);
  }
  options.lambda = 1.0;
  options.newton_steps = -1;
  CHECK_THROWS_AS(train_logistic_regression(problem.features, problem.labels, options),
                  mpg::Error);
  options.newton_steps = 10;
  CHECK_THROWS_WITH(train_logistic_regression(problem.features, {1, 0}, options),
                    "logistic regression: 2 labels for 3 feature rows");
  CHECK_THROWS_AS(train_logistic_regression(problem.features, {1, 0, 1, 0}, options), mpg::Error);
  CHECK_THROWS_AS(train_logistic_regression(problem.features, {1, 0, 2}, options), mpg::Error);
  CHECK_THROWS_AS(train_logistic_regression(problem.features, {1, -1, 1}, options), mpg::Error);

  BinaryProblem with_nan = problem;
  with_nan.features.coeffRef(1, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(train_logistic_regression(with_nan.features, with_nan.labels, options),
                  mpg::Error);

  // Weights and features must agree in size.
  LogisticRegressionObjective objective(problem.features, problem.labels, 1.0);
  Eigen::VectorXd gradient(3);
  CHECK_THROWS_AS(objective.evaluate(Eigen::VectorXd::Zero(3), gradient), mpg::Error);
  const LogisticRegressionModel model =
      train_logistic_regression(problem.features, problem.labels, options);
  const BinaryProblem wider = make_problem({{1.0, 2.0}}, {1});
  CHECK_THROWS_AS(decision_values(model, wider.features), mpg::Error);
  CHECK_THROWS_AS(model.probabilities(wider.features), mpg::Error);
  CHECK_THROWS_AS(model.probability(Eigen::VectorXd::Ones(3)), mpg::Error);
}

TEST_CASE("threshold and top-k decision rules", "[logistic_regression]") {
  const auto values = [](std::initializer_list<double> list) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(list.size()));
    Eigen::Index i = 0;
    for (double x : list) v[i++] = x;
    return v;
  };
  using Labels = std::vector<int>;

  // A value exactly at the threshold (probability 1/2) is negative.
  const Eigen::VectorXd scores = values({0.5, -0.2, 0.0, 3.0, -1e-300});
  CHECK(predict_threshold(scores) == Labels{1, 0, 0, 1, 0});
  CHECK(predict_threshold(scores, 0.5) == Labels{0, 0, 0, 1, 0});
  CHECK(predict_threshold(scores, -0.2) == Labels{1, 0, 1, 1, 1});
  CHECK(predict_threshold(values({})).empty());

  // Ties: 0.9 at indices 1 and 4, 0.3 at indices 0 and 2; the smaller index goes first.
  const Eigen::VectorXd tied = values({0.3, 0.9, 0.3, 0.1, 0.9});
  CHECK(predict_top_k(tied, 0) == Labels{0, 0, 0, 0, 0});
  CHECK(predict_top_k(tied, 1) == Labels{0, 1, 0, 0, 0});
  CHECK(predict_top_k(tied, 2) == Labels{0, 1, 0, 0, 1});
  CHECK(predict_top_k(tied, 3) == Labels{1, 1, 0, 0, 1});
  CHECK(predict_top_k(tied, 4) == Labels{1, 1, 1, 0, 1});
  CHECK(predict_top_k(tied, 5) == Labels{1, 1, 1, 1, 1});
  CHECK(predict_top_k(values({2.0, 2.0, 2.0}), 2) == Labels{1, 1, 0});
  CHECK(predict_top_k(values({-5.0, -1.0, -3.0}), 1) == Labels{0, 1, 0});
  CHECK(predict_top_k(values({}), 0).empty());

  CHECK_THROWS_WITH(predict_top_k(tied, 6), "top-k prediction needs k <= n; got k = 6 for n = 5");
  const Eigen::VectorXd with_nan = values({0.1, std::numeric_limits<double>::quiet_NaN()});
  CHECK_THROWS_AS(predict_top_k(with_nan, 1), mpg::Error);
  CHECK_THROWS_AS(predict_threshold(with_nan), mpg::Error);
}
