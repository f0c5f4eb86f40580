// L2-regularized binary logistic regression, the LR baseline of thesis Table VIII:
//     f(w)   = sum_i log(1 + exp(-s_i w . x_i)) + lambda/2 ||w||^2
//     grad f = -sum_i sigmoid(-s_i w . x_i) s_i x_i + lambda w
// with s_i = +1 for label 1 and -1 for label 0.
// The bias weight (last column, value 1) is regularized like every other weight, as LIBLINEAR
// does with -B 1. In LIBLINEAR's terms (C sum_i loss_i + 1/2 ||w||^2) this is C = 1 / lambda.
// Training minimizes f from w = 0 with mpg::minimize (L-BFGS), then polishes with a few Newton
// steps: L-BFGS's line search compares values of f, so it stalls once a step's decrease,
// about ||grad f||^2 / (2 H), falls below the rounding error of f; Newton steps, accepted on the
// gradient norm, reach stationarity far below that.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstddef>
#include <vector>

#include "lib/learn/optimizer.hpp"

namespace mpg {

// The same type as in lib/models/binary/binary_mpg.hpp: n x (d + 1) features, bias column last.
using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct LogisticRegressionOptions {
  double lambda = 1.0;  // > 0
  // Stop when ||grad f|| <= gradient_tolerance * max(1, ||w||), or when the relative decrease
  // of f over 5 iterations is below value_tolerance (0 turns that test off).
  double gradient_tolerance = 1e-6;
  double value_tolerance = 1e-10;
  int max_iterations = 1000;
  // Newton steps after L-BFGS while the gradient test fails (0: none). Each solves
  // H p = -grad f by conjugate gradients with Hessian-vector products only.
  int newton_steps = 10;
};

struct LogisticRegressionModel {
  Eigen::VectorXd weights;  // d + 1 weights, bias last
  double lambda = 0.0;

  // P(y = 1 | x) = sigmoid(w . x) for one dense row x (bias entry included).
  double probability(const Eigen::VectorXd& x) const;
  // sigmoid(w . x_i) for every row of `features`.
  Eigen::VectorXd probabilities(const SparseRowMatrix& features) const;
};

// sigmoid(z) = 1 / (1 + exp(-z)), without overflow for any finite z.
double sigmoid(double z);

// f(w) and its gradient (see the header comment). Keeps a reference to `features`, which must
// outlive the objective. Throws mpg::Error for lambda <= 0, labels other than 0/1, a label count
// different from the row count, or non-finite features.
class LogisticRegressionObjective : public Objective {
 public:
  LogisticRegressionObjective(const SparseRowMatrix& features, const std::vector<int>& labels,
                              double lambda);

  // Each loss term log(1 + exp(-m)) is evaluated as log1p(exp(-|m|)) + max(0, -m).
  double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& gradient) override;

  // H(w) v = X^T diag(sigmoid(z_i) sigmoid(-z_i)) X v + lambda v with z_i = w . x_i (the Hessian
  // of f does not depend on the signs s_i).
  Eigen::VectorXd hessian_times(const Eigen::VectorXd& w, const Eigen::VectorXd& v) const;

 private:
  const SparseRowMatrix& features_;
  Eigen::VectorXd signs_;  // s_i
  double lambda_;
};

// Minimizes f from w = 0 (L-BFGS, then Newton polish). `summary`, if given, receives the
// optimizer's report, updated after the polish: final value, gradient norm, evaluations,
// seconds, converged (the gradient test after the polish) and a note in the message.
LogisticRegressionModel train_logistic_regression(const SparseRowMatrix& features,
                                                  const std::vector<int>& labels,
                                                  const LogisticRegressionOptions& options,
                                                  OptimizerSummary* summary = nullptr);

// w . x_i for every row; the column count must equal the number of weights.
Eigen::VectorXd decision_values(const LogisticRegressionModel& model,
                                const SparseRowMatrix& features);

// y_i = 1 iff value_i > threshold (threshold 0: probability above 1/2; a value exactly at the
// threshold is negative, as LIBLINEAR's "dec > 0"). Throws mpg::Error on NaN.
std::vector<int> predict_threshold(const Eigen::VectorXd& values, double threshold = 0.0);

// y_i = 1 for the k largest values; among equal values the smaller index wins. Needs k <= n;
// throws mpg::Error otherwise or on NaN.
std::vector<int> predict_top_k(const Eigen::VectorXd& values, std::size_t k);

}  // namespace mpg
