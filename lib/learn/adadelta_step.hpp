// One AdaDelta step (Zeiler 2012, Algorithm 1), shared by the full-batch optimizer
// (optimizer.cpp) and the reference's mini-batch protocol (minibatch_adadelta.cpp):
//   E[g^2] <- rho E[g^2] + (1 - rho) g^2;   dx = sqrt(E[dx^2] + eps) / sqrt(E[g^2] + eps) g;
//   theta  <- theta - dx;                    E[dx^2] <- rho E[dx^2] + (1 - rho) dx^2,
// per coordinate, in place. Under the reference's mini-batches the regularizer makes every step
// dense, and on Table X's CoNLL cells this update was half the training time.
#pragma once

#include <Eigen/Dense>

namespace mpg {

class AdadeltaStep {
 public:
  AdadeltaStep(Eigen::Index dimension, double rho, double epsilon);

  // theta <- theta - dx for the gradient at theta.
  void apply(const Eigen::VectorXd& gradient, Eigen::VectorXd& theta);

  // The last step dx.
  const Eigen::ArrayXd& step() const { return step_; }

 private:
  double rho_, epsilon_;
  Eigen::ArrayXd mean_squared_gradient_;  // E[g^2]
  Eigen::ArrayXd mean_squared_step_;      // E[dx^2]
  Eigen::ArrayXd step_;                   // dx
};

}  // namespace mpg
