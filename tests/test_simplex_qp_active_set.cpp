// Active-set simplex QP (lib/learn/simplex_qp_active_set.*): hand-solved instances, and on
// random rank-deficient instances the KKT conditions and agreement with pairwise coordinate
// descent (lib/learn/simplex_qp.*) run to a tight tolerance.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/simplex_qp.hpp"
#include "lib/learn/simplex_qp_active_set.hpp"

using namespace mpg;

namespace {

// H = B^T B for a rank x k Gaussian B, and Gaussian c: the shape of the structured SVM's
// working-set QP (k cuts in rank < k dimensions).
std::pair<Eigen::MatrixXd, Eigen::VectorXd> random_instance(Eigen::Index k, Eigen::Index rank, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd b(rank, k);
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = normal(rng);
  Eigen::VectorXd c(k);
  for (Eigen::Index i = 0; i < k; ++i) c[i] = normal(rng);
  return {b.transpose() * b, c};
}

// KKT of the simplex QP: a feasible and g_k = min_l g_l wherever a_k > 0, g = H a + c.
void check_kkt(const Eigen::MatrixXd& h, const Eigen::VectorXd& c, const Eigen::VectorXd& a, double tolerance) {
  CHECK(a.minCoeff() >= 0.0);
  CHECK(a.sum() == Approx(1.0).margin(1e-12));
  const Eigen::VectorXd g = h * a + c;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (a[i] > 0.0) CHECK(g[i] <= g.minCoeff() + tolerance);
}

}  // namespace

TEST_CASE("Active-set simplex QP: hand-solved instances", "[simplex_qp_active_set]") {
  SECTION("identity Hessian: the projection of -c = (0, -1, -3) onto the simplex is (1, 0, 0)") {
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp_active_set(Eigen::MatrixXd::Identity(3, 3), Eigen::Vector3d(0, 1, 3), a);
    CHECK(summary.converged);
    CHECK(a[0] == 1.0);
    CHECK(summary.objective == 0.5);
  }
  SECTION("identity Hessian, interior optimum: c = (0, 0.5, 3) gives a = (3/4, 1/4, 0)") {
    // On F = {0, 1}: a_0 + 0 = a_1 + 0.5 and a_0 + a_1 = 1; g_2 = 3 > 3/4.
    Eigen::VectorXd a;
    const auto summary =
        solve_simplex_qp_active_set(Eigen::MatrixXd::Identity(3, 3), Eigen::Vector3d(0, 0.5, 3), a);
    CHECK(summary.converged);
    CHECK(a[0] == Approx(0.75).margin(1e-15));
    CHECK(a[1] == Approx(0.25).margin(1e-15));
    CHECK(a[2] == 0.0);
    CHECK(summary.objective == Approx(0.5 * (0.5625 + 0.0625) + 0.125).margin(1e-15));
  }
  SECTION("zero Hessian, a linear program: the vertex of least c, from a vertex or the centre") {
    // From the centre the reduced Hessian is singular: zero-curvature descent steps.
    for (const bool centre : {false, true}) {
      Eigen::VectorXd a = centre ? Eigen::VectorXd(Eigen::Vector4d::Constant(0.25)) : Eigen::VectorXd();
      const auto summary =
          solve_simplex_qp_active_set(Eigen::MatrixXd::Zero(4, 4), Eigen::Vector4d(3, -1, 2, 0), a);
      INFO("from the centre: " << centre);
      CHECK(summary.converged);
      CHECK(a[1] == Approx(1.0).margin(1e-15));
      CHECK(summary.objective == Approx(-1.0).margin(1e-15));
    }
  }
  SECTION("bad shapes are errors") {
    Eigen::VectorXd a;
    CHECK_THROWS_AS(solve_simplex_qp_active_set(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector3d::Zero(), a), Error);
    CHECK_THROWS_AS(solve_simplex_qp_active_set(Eigen::MatrixXd(0, 0), Eigen::VectorXd(0), a), Error);
  }
}

TEST_CASE("Active-set simplex QP: KKT and agreement with coordinate descent on rank-deficient instances",
          "[simplex_qp_active_set]") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 30; ++trial) {
    const Eigen::Index k = 5 + trial * 3;
    const Eigen::Index rank = 1 + trial % 6;
    auto [h, c] = random_instance(k, rank, rng);
    Eigen::VectorXd a;
    const auto summary = solve_simplex_qp_active_set(h, c, a, 1e-12);
    INFO("trial " << trial << ": k " << k << ", rank " << rank << ", " << summary.iterations << " iterations");
    REQUIRE(summary.converged);
    check_kkt(h, c, a, 1e-12);
    // Inertia control keeps the free set affinely independent in the range of H.
    CHECK((a.array() > 0.0).count() <= rank + 1);
    Eigen::VectorXd reference;
    const auto smo = solve_simplex_qp(h, c, reference, 1e-12, 10000000);
    REQUIRE(smo.converged);
    CHECK(summary.objective == Approx(smo.objective).margin(1e-10));
  }
}

TEST_CASE("Active-set simplex QP: duplicated columns, warm starts and the iteration cap",
          "[simplex_qp_active_set]") {
  std::mt19937 rng(99);
  SECTION("exact duplicates of the optimal columns") {
    auto [h0, c0] = random_instance(12, 3, rng);
    // Columns 12..23 repeat 0..11: H = [H0 H0; H0 H0], c = [c0; c0].
    Eigen::MatrixXd h(24, 24);
    h << h0, h0, h0, h0;
    Eigen::VectorXd c(24);
    c << c0, c0;
    Eigen::VectorXd a0, a = Eigen::VectorXd::Constant(24, 1.0 / 24.0);
    const auto single = solve_simplex_qp_active_set(h0, c0, a0);
    const auto doubled = solve_simplex_qp_active_set(h, c, a);
    REQUIRE(doubled.converged);
    check_kkt(h, c, a, 1e-12);
    CHECK(doubled.objective == Approx(single.objective).margin(1e-12));
  }
  SECTION("a warm start after a new column is appended, as in the cutting plane") {
    auto [h, c] = random_instance(30, 4, rng);
    Eigen::VectorXd a;
    solve_simplex_qp_active_set(h.topLeftCorner(29, 29), c.head(29), a);
    a.conservativeResize(30);
    a[29] = 0.0;
    const auto warm = solve_simplex_qp_active_set(h, c, a);
    Eigen::VectorXd cold_a;
    const auto cold = solve_simplex_qp_active_set(h, c, cold_a);
    REQUIRE(warm.converged);
    CHECK(warm.objective == Approx(cold.objective).margin(1e-12));
    CHECK(warm.iterations <= cold.iterations);
  }
  SECTION("the cap is reported as not converged") {
    auto [h, c] = random_instance(40, 6, rng);
    Eigen::VectorXd a;
    const auto capped = solve_simplex_qp_active_set(h, c, a, 1e-12, 1);
    CHECK_FALSE(capped.converged);
    CHECK(capped.iterations == 1);
    CHECK(capped.violation > 1e-12);
  }
}
