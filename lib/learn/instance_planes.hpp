// The cutting planes of one instance's term of a sum-of-games objective, and the exact
// maximization of the dual over that instance's block (lib/learn/block_coordinate.hpp):
//     f_i(theta) >= a_k . theta + b_k   for every held plane k,
// each slope a_k nonzero only on the instance's support S (the coordinates of theta its features
// can touch), so a plane costs |S| numbers, not the dimension of theta.
// The block's dual variables alpha (a point of the simplex over the planes) give
//     phi = sum_k alpha_k a_k,   sum_k alpha_k b_k,
// and with Phi = sum_i phi_i over all instances the master's minimizer is
// theta = (mu center - Phi) / (lambda + mu).
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg {

class InstancePlanes {
 public:
  explicit InstancePlanes(std::vector<Eigen::Index> support = {});
  const std::vector<Eigen::Index>& support() const { return support_; }
  // Adds a plane unless one with the same slope and an offset at least as large is held (its
  // offset then rises to this one's if larger). Returns whether the planes changed.
  bool add(const Eigen::VectorXd& slope, double offset);
  // Maximizes the dual of the proximal master (curvature l = lambda + mu, center c) over this
  // block with the other blocks fixed:
  //     max_{alpha in simplex} alpha . b - 1/(2 l) ||Phi_rest + A alpha - mu c||^2,
  // Phi_rest - mu c = -l theta - phi (theta = (mu c - Phi) / l is the current full iterate), and
  // moves theta by (phi - A alpha) / l on the support. Returns the block's model gap before the move,
  //     max_k (a_k . theta + b_k) - (phi . theta + sum_k alpha_k b_k)  (>= 0),
  // which summed over blocks is the gap between the model's primal and dual values at theta.
  double maximize(Eigen::VectorXd& theta, double curvature);
  // max_k (a_k . theta + b_k): the block's model of f_i at theta (-inf without planes).
  double model_value(const Eigen::VectorXd& theta) const;
  // sum_k alpha_k a_k on the support.
  const Eigen::VectorXd& phi() const { return phi_; }
  // sum_k alpha_k b_k.
  double offset_sum() const { return alpha_.size() ? alpha_.dot(offsets_) : 0.0; }
  // Counts, for each plane, the consecutive calls at which its weight is zero, and drops those
  // counted `limit` times (never the newest). Called once per pass over the games.
  void drop_idle(int limit);

 private:
  Eigen::VectorXd on_support(const Eigen::VectorXd& theta) const;  // theta's coordinates on the support

  std::vector<Eigen::Index> support_;
  Eigen::MatrixXd slopes_;   // |S| x K
  Eigen::VectorXd offsets_;  // K
  Eigen::MatrixXd gram_;     // A^T A
  Eigen::VectorXd alpha_;    // K: 0 until the first maximize, then on the simplex
  Eigen::VectorXd phi_;      // A alpha, |S|
  std::vector<int> idle_;
};

}  // namespace mpg
