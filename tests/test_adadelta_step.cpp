// AdaDelta's per-coordinate update (lib/learn/adadelta_step.*): its vectorized loop gives the bits
// of the scalar formula (Zeiler 2012, Algorithm 1) whatever SIMD clone the machine runs, and the
// first step from zero state by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/adadelta_step.hpp"

using namespace mpg;

TEST_CASE("AdaDelta step: the first step from zero state by hand", "[adadelta_step]") {
  const double rho = 0.95, epsilon = std::exp(-6.0);
  AdadeltaStep adadelta(2, rho, epsilon);
  Eigen::VectorXd theta(2), gradient(2);
  theta << 1.0, -2.0;
  gradient << 2.0, 0.0;
  adadelta.apply(gradient, theta);
  // E[g^2] = (1 - rho) g^2 = (0.2, 0); dx = sqrt(eps) / sqrt(0.2 + eps) * 2 for the first
  // coordinate (0.04979 / 0.44998 * 2), 0 for the second (no gradient, no step).
  const double dx = std::sqrt(epsilon) / std::sqrt((1.0 - rho) * 4.0 + epsilon) * 2.0;
  CHECK(adadelta.step()[0] == dx);
  CHECK(adadelta.step()[1] == 0.0);
  CHECK(theta[0] == 1.0 - dx);
  CHECK(theta[1] == -2.0);
  CHECK(dx == Approx(0.22129).epsilon(1e-4));
}

TEST_CASE("AdaDelta step: the vectorized update equals the scalar formula bit for bit", "[adadelta_step]") {
  const double rho = 0.95, epsilon = std::exp(-6.0);
  std::mt19937_64 engine(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (const Eigen::Index n : {1, 7, 8, 9, 33, 1000, 4099}) {  // remainders of every SIMD width
    AdadeltaStep adadelta(n, rho, epsilon);
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(n), gradient(n);
    Eigen::VectorXd x = theta;  // the scalar formula's state
    Eigen::ArrayXd msg = Eigen::ArrayXd::Zero(n), mss = Eigen::ArrayXd::Zero(n), dx(n);
    for (int t = 0; t < 25; ++t) {
      for (Eigen::Index j = 0; j < n; ++j) gradient[j] = (j % 5 == 0 ? 0.0 : normal(engine)) + 0.1 * x[j];
      adadelta.apply(gradient, theta);
      for (Eigen::Index j = 0; j < n; ++j) {
        volatile double g = gradient[j];  // volatile: no contraction or reordering in the reference
        msg[j] = rho * msg[j] + (1.0 - rho) * (g * g);
        volatile double num = std::sqrt(mss[j] + epsilon), den = std::sqrt(msg[j] + epsilon);
        dx[j] = num / den * g;
        x[j] -= dx[j];
        mss[j] = rho * mss[j] + (1.0 - rho) * (dx[j] * dx[j]);
      }
      INFO("n = " << n << ", step " << t);
      REQUIRE((theta.array() == x.array()).all());
      REQUIRE((adadelta.step() == dx).all());
    }
  }
}

TEST_CASE("AdaDelta step: mismatched dimensions are an error", "[adadelta_step]") {
  AdadeltaStep adadelta(3, 0.95, 1e-6);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(3), gradient = Eigen::VectorXd::Zero(2);
  CHECK_THROWS_AS(adadelta.apply(gradient, theta), Error);
}
