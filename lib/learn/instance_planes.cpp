// Per-instance cutting planes and exact block maximization of the dual (lib/learn/instance_planes.hpp).
#include "lib/learn/instance_planes.hpp"

#include <algorithm>
#include <limits>

#include "lib/learn/simplex_qp.hpp"

namespace mpg {

InstancePlanes::InstancePlanes(std::vector<Eigen::Index> support)
    : support_(std::move(support)),
      slopes_(static_cast<Eigen::Index>(support_.size()), 0),
      phi_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(support_.size()))) {}

Eigen::VectorXd InstancePlanes::on_support(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd out(static_cast<Eigen::Index>(support_.size()));
  for (std::size_t s = 0; s < support_.size(); ++s) out[static_cast<Eigen::Index>(s)] = theta[support_[s]];
  return out;
}

double InstancePlanes::model_value(const Eigen::VectorXd& theta) const {
  if (slopes_.cols() == 0) return -std::numeric_limits<double>::infinity();
  return (slopes_.transpose() * on_support(theta) + offsets_).maxCoeff();
}

bool InstancePlanes::add(const Eigen::VectorXd& slope, double offset) {
  const Eigen::Index k = slopes_.cols();
  for (Eigen::Index j = 0; j < k; ++j) {
    if ((slopes_.col(j) - slope).cwiseAbs().maxCoeff() > 1e-12 * (1.0 + slope.cwiseAbs().maxCoeff())) continue;
    if (offset <= offsets_[j]) return false;
    offsets_[j] = offset;
    return true;
  }
  slopes_.conservativeResize(Eigen::NoChange, k + 1);
  slopes_.col(k) = slope;
  offsets_.conservativeResize(k + 1);
  offsets_[k] = offset;
  const Eigen::VectorXd products = slopes_.transpose() * slope;
  gram_.conservativeResize(k + 1, k + 1);
  gram_.row(k) = products.transpose();
  gram_.col(k) = products;
  alpha_.conservativeResize(k + 1);
  alpha_[k] = 0.0;  // the block's weights reach the simplex at its first maximization
  idle_.push_back(0);
  return true;
}

double InstancePlanes::maximize(Eigen::VectorXd& theta, double curvature) {
  const double l = curvature;
  const Eigen::Index k = slopes_.cols();
  if (k == 0) return 0.0;
  const Eigen::VectorXd theta_support = on_support(theta);
  // Plane values at theta, and the gap of the block's model there.
  const Eigen::VectorXd values = slopes_.transpose() * theta_support + offsets_;
  const double gap = values.maxCoeff() - (phi_.dot(theta_support) + alpha_.dot(offsets_));
  // theta without this block: theta_rest = theta + phi / l. In alpha the block's dual is
  // -(1/2 l) alpha^T G alpha + (b + A^T theta_rest) . alpha + const: the simplex QP with
  // H = G / l and c = -(b + A^T theta_rest) = -(values + G alpha / l).
  const Eigen::VectorXd c = -(values + gram_ * alpha_ / l);
  const Eigen::MatrixXd H = gram_ / l;
  // A block maximization need not be exact (the next pass returns to the block; the lower bound
  // holds at any alpha): a relative violation of 1e-12, and a cap on SMO steps per plane.
  solve_simplex_qp(H, c, alpha_, 1e-12 * (1.0 + c.cwiseAbs().maxCoeff()), 1000 + 100 * static_cast<int>(k));
  const Eigen::VectorXd phi = slopes_ * alpha_;
  const Eigen::VectorXd move = (phi_ - phi) / l;
  for (std::size_t s = 0; s < support_.size(); ++s) theta[support_[s]] += move[static_cast<Eigen::Index>(s)];
  phi_ = phi;
  return std::max(gap, 0.0);
}

void InstancePlanes::drop_idle(int limit) {
  const Eigen::Index k = slopes_.cols();
  std::vector<Eigen::Index> keep;
  for (Eigen::Index j = 0; j < k; ++j) {
    int& idle = idle_[static_cast<std::size_t>(j)];
    idle = alpha_[j] > 0.0 ? 0 : idle + 1;
    if (idle < limit || j == k - 1) keep.push_back(j);
  }
  if (static_cast<Eigen::Index>(keep.size()) == k) return;
  slopes_ = Eigen::MatrixXd(slopes_(Eigen::all, keep));
  offsets_ = Eigen::VectorXd(offsets_(keep));
  gram_ = Eigen::MatrixXd(gram_(keep, keep));
  Eigen::VectorXd alpha = alpha_(keep);
  // Dropped planes have zero weight, so phi is unchanged; renormalize against rounding.
  alpha_ = alpha / alpha.sum();
  std::vector<int> idle;
  for (auto j : keep) idle.push_back(idle_[static_cast<std::size_t>(j)]);
  idle_ = std::move(idle);
}

}  // namespace mpg
