// The working set of a 1-slack cutting-plane structural SVM (Joachims 2005, Alg. 2; Joachims,
// Finley & Yu 2009), shared by the SVM^perf baseline (baselines/structured_svm) and svm_cfg
// (baselines/svm_cfg). Constraint c reads w . g_c >= l_c - xi; c = 0 is g = 0, l = 0 (xi >= 0).
// With slack weight W, Gram matrix G of the cuts and alpha = W beta, the dual
//     max_{alpha >= 0, sum alpha = W} alpha . l - 1/2 ||sum_c alpha_c g_c||^2
// is W times min_{beta in simplex} 1/2 beta^T (W G) beta - l . beta (negated); it is solved as
// min 1/2 beta^T G beta - (l / W) . beta (same minimizer) by the exact active-set method, and
// w = W sum_c beta_c g_c.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <vector>

#include "lib/learn/one_slack_cutting_plane.hpp"
#include "lib/learn/simplex_qp_active_set.hpp"

namespace mpg {

class OneSlackWorkingSet {
 public:
  OneSlackWorkingSet(Eigen::Index dimension, double slack_weight)
      : W_(slack_weight), cuts_{Eigen::VectorXd::Zero(dimension)}, losses_{0.0}, gram_(Eigen::MatrixXd::Zero(64, 64)),
        beta_(Eigen::VectorXd::Ones(1)), w_(Eigen::VectorXd::Zero(dimension)) {}

  // max_c l_c - w . g_c: the slack the working set asks of w (>= 0 thanks to the zero cut).
  double slack(const Eigen::VectorXd& w) const {
    double most = 0.0;
    for (std::size_t c = 0; c < cuts_.size(); ++c) most = std::max(most, losses_[c] - w.dot(cuts_[c]));
    return most;
  }

  void add(Eigen::VectorXd cut, double loss) {
    cuts_.push_back(std::move(cut));
    losses_.push_back(loss);
    const auto size = static_cast<Eigen::Index>(cuts_.size());
    if (size > gram_.rows()) gram_.conservativeResize(2 * gram_.rows(), 2 * gram_.cols());
    for (Eigen::Index c = 0; c < size; ++c) {
      const double product = cuts_.back().dot(cuts_[static_cast<std::size_t>(c)]);
      gram_(size - 1, c) = product;
      gram_(c, size - 1) = product;
    }
    beta_.conservativeResize(size);
    beta_[size - 1] = 0.0;
  }

  // Re-solves the dual to a KKT violation of `tolerance` (in units of xi), warm-started from the
  // last solution, and updates weights() and dual().
  SimplexQpSummary solve(double tolerance, int max_iterations) {
    const auto m = static_cast<Eigen::Index>(cuts_.size());
    const Eigen::VectorXd l = Eigen::Map<const Eigen::VectorXd>(losses_.data(), m);
    const SimplexQpSummary qp = solve_simplex_qp_active_set(gram_.topLeftCorner(m, m), -l / W_, beta_, tolerance / W_,
                                                            max_iterations);
    w_.setZero();
    for (Eigen::Index c = 0; c < m; ++c) w_ += (W_ * beta_[c]) * cuts_[static_cast<std::size_t>(c)];
    dual_ = W_ * beta_.dot(l) - 0.5 * w_.squaredNorm();
    return qp;
  }

  // The cuts of positive weight in the last solution (the zero cut excepted).
  std::vector<OneSlackConstraint> support() const {
    std::vector<OneSlackConstraint> out;
    for (std::size_t c = 1; c < cuts_.size(); ++c)
      if (beta_[static_cast<Eigen::Index>(c)] > 0.0) out.push_back({cuts_[c], losses_[c]});
    return out;
  }

  const Eigen::VectorXd& weights() const { return w_; }
  double dual() const { return dual_; }  // the working-set dual at weights() (a lower bound)
  std::size_t size() const { return cuts_.size(); }

 private:
  double W_;
  std::vector<Eigen::VectorXd> cuts_;
  std::vector<double> losses_;
  Eigen::MatrixXd gram_;  // G in the top-left corner of a buffer whose capacity doubles
  Eigen::VectorXd beta_;
  Eigen::VectorXd w_;
  double dual_ = 0.0;
};

}  // namespace mpg
