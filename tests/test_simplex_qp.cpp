// Simplex-constrained QP (lib/learn/simplex_qp.*): hand-solved instances and the KKT conditions on
// random ones, checked against a fine grid for K = 3.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/simplex_qp.hpp"

using namespace mpg;

TEST_CASE("Simplex QP: hand-solved instances", "[simplex_qp]") {
  SECTION("identity Hessian: the projection of -c onto the simplex") {
    // min 1/2 ||a||^2 + c.a over the simplex with c = (0, 1, 3): a = (1, 0, 0) has gradient
    // (1, 1, 3); a = (1/2 + ..)? The minimizer of ||a + c||^2: project (0, -1, -3) onto the
    // simplex = (1, 0, 0) since 0 - tau = 1 with tau = -1 and -1 - tau = 0.
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp(Eigen::MatrixXd::Identity(3, 3),
                                          Eigen::Vector3d(0.0, 1.0, 3.0), a);
    CHECK(summary.converged);
    CHECK(a[0] == Approx(1.0).margin(1e-12));
    CHECK(a[1] == Approx(0.0).margin(1e-12));
    CHECK(summary.objective == Approx(0.5).margin(1e-12));
  }
  SECTION("two equal coordinates share the mass") {
    // min 1/2 (a1^2 + a2^2): a = (1/2, 1/2), objective 1/4.
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d::Zero(), a);
    CHECK(a[0] == Approx(0.5).margin(1e-12));
    CHECK(summary.objective == Approx(0.25).margin(1e-12));
  }
  SECTION("zero Hessian: a linear program, the smallest c wins") {
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp(Eigen::MatrixXd::Zero(4, 4), Eigen::Vector4d(3, -1, 2, 0), a);
    CHECK(summary.converged);
    CHECK(a[1] == 1.0);
    CHECK(summary.objective == -1.0);
  }
  SECTION("bad shapes are errors") {
    Eigen::VectorXd a;
    CHECK_THROWS_AS(solve_simplex_qp(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector3d::Zero(), a), Error);
  }
}

TEST_CASE("Simplex QP: KKT conditions and a grid search agree on random instances", "[simplex_qp]") {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    // Rank-deficient PSD Hessians, as in the trainer's masters (K cuts in D < K dimensions).
    const Eigen::Index k = 3;
    Eigen::MatrixXd b(2, k);
    for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = normal(rng);
    const Eigen::MatrixXd h = b.transpose() * b;
    Eigen::VectorXd c(k);
    for (Eigen::Index i = 0; i < k; ++i) c[i] = normal(rng);
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp(h, c, a);
    REQUIRE(summary.converged);
    CHECK(a.minCoeff() >= 0.0);
    CHECK(a.sum() == Approx(1.0).margin(1e-12));
    const Eigen::VectorXd gradient = h * a + c;
    for (Eigen::Index i = 0; i < k; ++i)
      if (a[i] > 0.0) CHECK(gradient[i] <= gradient.minCoeff() + 1e-9);
    double best = 1e300;
    const int steps = 400;
    for (int i = 0; i <= steps; ++i)
      for (int j = 0; i + j <= steps; ++j) {
        const Eigen::Vector3d point(double(i) / steps, double(j) / steps, double(steps - i - j) / steps);
        best = std::min(best, 0.5 * point.dot(h * point) + c.dot(point));
      }
    CHECK(summary.objective <= best + 1e-12);
    CHECK(summary.objective >= best - 1e-3);
  }
}
