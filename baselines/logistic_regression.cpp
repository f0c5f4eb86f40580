#include "baselines/logistic_regression.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

void check_lambda(double lambda) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) {
    throw Error(fmt::format("logistic regression needs a finite lambda > 0; got {:g}", lambda));
  }
}

void check_no_nan(const Eigen::VectorXd& values) {
  if (values.hasNaN()) throw Error("decision values contain NaN");
}

// log(1 + exp(-m)) = log1p(exp(-|m|)) + max(0, -m): exp never sees a positive argument.
double logistic_loss(double margin) {
  return std::log1p(std::exp(-std::abs(margin))) + std::max(0.0, -margin);
}

// ||g|| <= tolerance * max(1, ||w||), the gradient test of mpg::minimize.
bool is_stationary(const Eigen::VectorXd& gradient, const Eigen::VectorXd& w, double tolerance) {
  return gradient.norm() <= tolerance * std::max(1.0, w.norm());
}

// Conjugate gradients on H p = -g with H = H(w) symmetric positive definite (eigenvalues
// >= lambda): stops when the residual ||H p + g|| <= 1e-12 ||g|| or after min(2 dim, 500) steps.
Eigen::VectorXd newton_direction(const LogisticRegressionObjective& objective,
                                 const Eigen::VectorXd& w, const Eigen::VectorXd& g) {
  Eigen::VectorXd p = Eigen::VectorXd::Zero(w.size());
  Eigen::VectorXd residual = -g;  // -g - H p
  Eigen::VectorXd direction = residual;
  double residual_squared = residual.squaredNorm();
  const double target = 1e-24 * g.squaredNorm();
  const Eigen::Index max_steps = std::min<Eigen::Index>(2 * w.size(), 500);
  for (Eigen::Index step = 0; step < max_steps && residual_squared > target; ++step) {
    const Eigen::VectorXd h_direction = objective.hessian_times(w, direction);
    const double curvature = direction.dot(h_direction);
    if (!(curvature > 0.0)) break;
    const double alpha = residual_squared / curvature;
    p += alpha * direction;
    residual -= alpha * h_direction;
    const double next_squared = residual.squaredNorm();
    direction = residual + (next_squared / residual_squared) * direction;
    residual_squared = next_squared;
  }
  return p;
}

// Newton steps w <- w + p after L-BFGS, while the gradient test fails: a step is taken only if
// it lowers ||grad f|| and raises f by no more than rounding (1e-10 max(1, |f|)). Updates w,
// value and gradient; returns the number of steps taken and counts evaluations.
int newton_polish(LogisticRegressionObjective& objective, Eigen::VectorXd& w, double& value,
                  Eigen::VectorXd& gradient, double tolerance, int max_steps, int& evaluations) {
  int taken = 0;
  Eigen::VectorXd next_gradient(w.size());
  while (taken < max_steps && !is_stationary(gradient, w, tolerance)) {
    const Eigen::VectorXd next = w + newton_direction(objective, w, gradient);
    const double next_value = objective.evaluate(next, next_gradient);
    ++evaluations;
    if (!std::isfinite(next_value) || !next_gradient.allFinite() ||
        !(next_gradient.norm() < gradient.norm()) ||
        next_value > value + 1e-10 * std::max(1.0, std::abs(value))) {
      break;
    }
    w = next;
    value = next_value;
    gradient = next_gradient;
    ++taken;
  }
  return taken;
}

}  // namespace

double sigmoid(double z) {
  // For z < 0, exp(z) / (1 + exp(z)) keeps exp's argument non-positive.
  if (z >= 0.0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

double LogisticRegressionModel::probability(const Eigen::VectorXd& x) const {
  if (x.size() != weights.size()) {
    throw Error("logistic regression: a row of " + std::to_string(x.size()) +
                " features for a model of " + std::to_string(weights.size()) + " weights");
  }
  return sigmoid(weights.dot(x));
}

Eigen::VectorXd LogisticRegressionModel::probabilities(const SparseRowMatrix& features) const {
  return decision_values(*this, features).unaryExpr([](double z) { return sigmoid(z); });
}

LogisticRegressionObjective::LogisticRegressionObjective(const SparseRowMatrix& features,
                                                         const std::vector<int>& labels,
                                                         double lambda)
    : features_(features), signs_(static_cast<Eigen::Index>(labels.size())), lambda_(lambda) {
  check_lambda(lambda);
  if (static_cast<Eigen::Index>(labels.size()) != features.rows()) {
    throw Error("logistic regression: " + std::to_string(labels.size()) + " labels for " +
                std::to_string(features.rows()) + " feature rows");
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) {
      throw Error("logistic regression: label " + std::to_string(labels[i]) + " of example " +
                  std::to_string(i) + " is neither 0 nor 1");
    }
    signs_[static_cast<Eigen::Index>(i)] = labels[i] == 1 ? 1.0 : -1.0;
  }
  const double* values = features.valuePtr();
  if (!std::all_of(values, values + features.nonZeros(),
                   [](double v) { return std::isfinite(v); })) {
    throw Error("logistic regression: the features contain a non-finite value");
  }
}

double LogisticRegressionObjective::evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& gradient) {
  if (w.size() != features_.cols()) {
    throw Error("logistic regression: " + std::to_string(w.size()) + " weights for " +
                std::to_string(features_.cols()) + " feature columns");
  }
  // m_i = s_i w . x_i;  d loss_i / d m_i = -sigmoid(-m_i).
  const Eigen::VectorXd margins = signs_.cwiseProduct(features_ * w);
  double value = 0.5 * lambda_ * w.squaredNorm();
  Eigen::VectorXd coefficients(margins.size());  // d loss_i / d (w . x_i) = -s_i sigmoid(-m_i)
  for (Eigen::Index i = 0; i < margins.size(); ++i) {
    value += logistic_loss(margins[i]);
    coefficients[i] = -signs_[i] * sigmoid(-margins[i]);
  }
  gradient = features_.transpose() * coefficients + lambda_ * w;
  return value;
}

Eigen::VectorXd LogisticRegressionObjective::hessian_times(const Eigen::VectorXd& w,
                                                           const Eigen::VectorXd& v) const {
  if (w.size() != features_.cols() || v.size() != features_.cols()) {
    throw Error("logistic regression: Hessian product of size " + std::to_string(v.size()) +
                " at " + std::to_string(w.size()) + " weights for " +
                std::to_string(features_.cols()) + " feature columns");
  }
  const Eigen::VectorXd z = features_ * w;
  const Eigen::VectorXd curvatures =
      z.unaryExpr([](double zi) { return sigmoid(zi) * sigmoid(-zi); });
  return features_.transpose() * curvatures.cwiseProduct(features_ * v) + lambda_ * v;
}

LogisticRegressionModel train_logistic_regression(const SparseRowMatrix& features,
                                                  const std::vector<int>& labels,
                                                  const LogisticRegressionOptions& options,
                                                  OptimizerSummary* summary) {
  LogisticRegressionObjective objective(features, labels, options.lambda);
  if (options.newton_steps < 0) throw Error("logistic regression: newton_steps must be >= 0");
  OptimizerOptions optimizer;
  optimizer.kind = OptimizerKind::lbfgs;
  optimizer.max_iterations = options.max_iterations;
  optimizer.gradient_tolerance = options.gradient_tolerance;
  optimizer.value_tolerance = options.value_tolerance;

  LogisticRegressionModel model;
  model.lambda = options.lambda;
  model.weights = Eigen::VectorXd::Zero(features.cols());
  const auto start_time = std::chrono::steady_clock::now();
  OptimizerSummary result = minimize(objective, model.weights, optimizer);

  const double tolerance = options.gradient_tolerance;
  if (options.newton_steps > 0 &&
      result.gradient_norm > tolerance * std::max(1.0, model.weights.norm())) {
    Eigen::VectorXd gradient(model.weights.size());
    double value = objective.evaluate(model.weights, gradient);
    ++result.evaluations;
    const double before = gradient.norm();
    const int steps = newton_polish(objective, model.weights, value, gradient, tolerance,
                                    options.newton_steps, result.evaluations);
    result.message += fmt::format("; then {} Newton step(s): gradient norm {:.3g} -> {:.3g}",
                                  steps, before, gradient.norm());
    result.final_value = value;
    result.gradient_norm = gradient.norm();
    if (is_stationary(gradient, model.weights, tolerance)) result.status = OptimizerStatus::converged;
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (summary) *summary = result;
  return model;
}

Eigen::VectorXd decision_values(const LogisticRegressionModel& model,
                                const SparseRowMatrix& features) {
  if (features.cols() != model.weights.size()) {
    throw Error("logistic regression: " + std::to_string(features.cols()) +
                " feature columns for a model of " + std::to_string(model.weights.size()) +
                " weights");
  }
  return features * model.weights;
}

std::vector<int> predict_threshold(const Eigen::VectorXd& values, double threshold) {
  check_no_nan(values);
  std::vector<int> predictions(static_cast<std::size_t>(values.size()));
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    predictions[static_cast<std::size_t>(i)] = values[i] > threshold ? 1 : 0;
  }
  return predictions;
}

std::vector<int> predict_top_k(const Eigen::VectorXd& values, std::size_t k) {
  check_no_nan(values);
  const auto n = static_cast<std::size_t>(values.size());
  if (k > n) {
    throw Error("top-k prediction needs k <= n; got k = " + std::to_string(k) + " for n = " +
                std::to_string(n));
  }
  // Order: larger value first, then smaller index; a strict total order, so the first k are
  // unique.
  std::vector<Eigen::Index> order(n);
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const auto before = [&values](Eigen::Index a, Eigen::Index b) {
    return values[a] != values[b] ? values[a] > values[b] : a < b;
  };
  std::vector<int> predictions(n, 0);
  if (k == 0) return predictions;
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k - 1), order.end(),
                   before);
  for (std::size_t r = 0; r < k; ++r) predictions[static_cast<std::size_t>(order[r])] = 1;
  return predictions;
}

}  // namespace mpg
