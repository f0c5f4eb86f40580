#include "lib/learn/cut_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lib/learn/simplex_qp.hpp"

namespace mpg {

void CutModel::add(const Eigen::VectorXd& a, double c) {
  const Eigen::Index k = offsets_.size();
  directions_.conservativeResize(gold_.size(), k + 1);
  directions_.col(k) = a - gold_;
  offsets_.conservativeResize(k + 1);
  offsets_[k] = c;
  gram_.conservativeResize(k + 1, k + 1);
  const Eigen::VectorXd products = directions_.transpose() * directions_.col(k);
  gram_.col(k) = products;
  gram_.row(k) = products.transpose();
  for (Eigen::VectorXd* w : {&proximal_weights_, &plain_weights_}) {
    w->conservativeResize(k + 1);
    (*w)[k] = 0.0;
  }
}

Eigen::VectorXd CutModel::proximal_step(const Eigen::VectorXd& center, double mu) {
  const double l = lambda_ + mu;
  const Eigen::VectorXd pull = mu * center;
  const Eigen::VectorXd linear = offsets_ - directions_.transpose() * pull / l;
  solve_simplex_qp(gram_ / l, linear, proximal_weights_, 1e-12, 100000);
  return (pull - directions_ * proximal_weights_) / l;
}

double CutModel::lower_bound() {
  solve_simplex_qp(gram_ / lambda_, offsets_, plain_weights_, 1e-12, 100000);
  const Eigen::VectorXd aggregate = directions_ * plain_weights_;
  return -aggregate.squaredNorm() / (2.0 * lambda_) - offsets_.dot(plain_weights_);
}

double CutModel::proximal_lower_bound() const {
  const Eigen::VectorXd aggregate = directions_ * proximal_weights_;
  return -aggregate.squaredNorm() / (2.0 * lambda_) - offsets_.dot(proximal_weights_);
}

std::vector<Cut> CutModel::cuts() const {
  std::vector<Cut> out;
  for (Eigen::Index k = 0; k < offsets_.size(); ++k) out.push_back({directions_.col(k) + gold_, offsets_[k]});
  return out;
}

double CutModel::model_value(const Eigen::VectorXd& theta) const {
  const Eigen::VectorXd cut_values = directions_.transpose() * theta - offsets_;  // (a_k - g) . theta - c_k
  return 0.5 * lambda_ * theta.squaredNorm() + cut_values.maxCoeff();
}

void CutModel::drop_idle(int limit) {
  const Eigen::Index k = offsets_.size();
  idle_.resize(static_cast<std::size_t>(k), 0);
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < k; ++i) {
    int& idle = idle_[static_cast<std::size_t>(i)];
    idle = (proximal_weights_[i] > 0.0 || plain_weights_[i] > 0.0) ? 0 : idle + 1;
    if (idle <= limit || i == k - 1) keep.push_back(i);
  }
  if (static_cast<Eigen::Index>(keep.size()) == k) return;
  directions_ = Eigen::MatrixXd(directions_(Eigen::all, keep));
  offsets_ = Eigen::VectorXd(offsets_(keep));
  gram_ = Eigen::MatrixXd(gram_(keep, keep));
  proximal_weights_ = Eigen::VectorXd(proximal_weights_(keep));
  plain_weights_ = Eigen::VectorXd(plain_weights_(keep));
  std::vector<int> idle;
  for (auto i : keep) idle.push_back(idle_[static_cast<std::size_t>(i)]);
  idle_ = std::move(idle);
}

ProximalBundle::ProximalBundle(const Eigen::VectorXd& gold, double lambda, double first_weight,
                               const Eigen::VectorXd* center)
    : cuts_(gold, lambda),
      center_(center ? *center : Eigen::VectorXd::Zero(gold.size())),
      center_value_(std::numeric_limits<double>::infinity()),
      predicted_decrease_(std::numeric_limits<double>::infinity()),
      mu_(std::max({1.0, gold.squaredNorm(), first_weight})) {}

Eigen::VectorXd ProximalBundle::step(const Eigen::VectorXd& theta, const Eigen::VectorXd& a, double c, double upper,
                                     double oracle_gap, double& lower_bound, int cut_idle_limit) {
  cuts_.add(a, c);
  if (!std::isfinite(center_value_)) {
    center_value_ = upper;
  } else {
    const double decrease = center_value_ - upper;
    if (decrease >= 0.1 * predicted_decrease_) {  // serious step
      center_ = theta;
      center_value_ = upper;
      if (decrease >= 0.5 * predicted_decrease_) mu_ = std::max(mu_ * 0.5, 1e-9);
      ++serious_steps_;
    } else if (oracle_gap < 0.25 * predicted_decrease_) {
      // A null step with an accurate oracle: the model was too optimistic, shorten steps.
      // (When the oracle's gap is comparable to the predicted decrease the failure may be noise
      // of the inexact oracle, and a larger mu would only stall the method.)
      mu_ = std::min(mu_ * 1.5, 1e12);
    }
  }
  // The masters: a lower bound, the next theta, and the decrease the model predicts there.
  lower_bound = std::max(lower_bound, cuts_.lower_bound());
  Eigen::VectorXd next = cuts_.proximal_step(center_, mu_);
  lower_bound = std::max(lower_bound, cuts_.proximal_lower_bound());
  predicted_decrease_ = center_value_ - cuts_.model_value(next);
  cuts_.drop_idle(cut_idle_limit);
  return next;
}

}  // namespace mpg
