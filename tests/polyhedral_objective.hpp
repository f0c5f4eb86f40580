// A polyhedral test objective for the cutting-plane optimizers, shaped like a sum of games:
// F(x) = lambda/2 ||x||^2 - g . x + sum_t max_k (A_t x + b_t)_k, and the options of the proximal
// bundle that minimizes it.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "lib/learn/optimizer.hpp"

namespace mpg::testing {

struct SumOfMaxima : Objective {
  double lambda = 1.0;
  Eigen::VectorXd gold;                  // g (empty: none)
  std::vector<Eigen::MatrixXd> slopes;   // A_t, pieces x dimension
  std::vector<Eigen::VectorXd> offsets;  // b_t

  // The lambda-free part R(x) = -g . x + sum_t max_k (A_t x + b_t)_k and a subgradient.
  double data_term(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) const {
    gradient = gold.size() > 0 ? Eigen::VectorXd(-gold) : Eigen::VectorXd::Zero(x.size());
    double value = gold.size() > 0 ? -gold.dot(x) : 0.0;
    for (std::size_t t = 0; t < slopes.size(); ++t) {
      const Eigen::VectorXd pieces = slopes[t] * x + offsets[t];
      Eigen::Index best = 0;
      value += pieces.maxCoeff(&best);
      gradient += slopes[t].row(best).transpose();
    }
    return value;
  }
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    const double value = data_term(x, gradient) + 0.5 * lambda * x.squaredNorm();
    gradient += lambda * x;
    return value;
  }
};

inline OptimizerOptions proximal_bundle_options(double lambda, double tolerance, int max_iterations) {
  OptimizerOptions options;
  options.kind = OptimizerKind::cutting_plane;
  options.cutting_plane_proximal = true;
  options.regularization = lambda;
  options.cutting_plane_tolerance = tolerance;
  options.max_iterations = max_iterations;
  return options;
}

}  // namespace mpg::testing
