// The bias-free class-weighted RBF SVM of baselines/kernel_svm: the Gram matrix and cross
// kernel, the dual optimum against an exact enumeration of active sets, precomputed Gram
// matrix vs LRU column cache, warm starts, the duality gap, and errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "baselines/kernel_svm.hpp"
#include "lib/base/error.hpp"

using namespace mpg;

namespace {

Eigen::MatrixXd random_points(int n, int d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) x(i, j) = normal(rng);
  return x;
}

// Dual objective 1/2 a^T Q a - sum a.
double dual_objective(const Eigen::MatrixXd& q, const Eigen::VectorXd& a) {
  return 0.5 * a.dot(q * a) - a.sum();
}

// The exact minimizer of the box QP by enumeration: every assignment of each a_i to 0, U_i or
// "free" (then Q_FF a_F = 1 - Q_FB U_B); the feasible candidate of least objective.
Eigen::VectorXd enumerate_box_qp(const Eigen::MatrixXd& q, const Eigen::VectorXd& upper) {
  const int n = static_cast<int>(q.rows());
  int states = 1;
  for (int i = 0; i < n; ++i) states *= 3;
  Eigen::VectorXd best;
  double best_value = std::numeric_limits<double>::infinity();
  for (int code = 0; code < states; ++code) {
    std::vector<int> state(static_cast<std::size_t>(n));
    for (int i = 0, c = code; i < n; ++i, c /= 3) state[static_cast<std::size_t>(i)] = c % 3;
    Eigen::VectorXd a = Eigen::VectorXd::Zero(n);
    std::vector<int> free;
    for (int i = 0; i < n; ++i) {
      if (state[static_cast<std::size_t>(i)] == 1) a[i] = upper[i];
      if (state[static_cast<std::size_t>(i)] == 2) free.push_back(i);
    }
    if (!free.empty()) {
      const int f = static_cast<int>(free.size());
      Eigen::MatrixXd qff(f, f);
      Eigen::VectorXd rhs(f);
      for (int r = 0; r < f; ++r) {
        rhs[r] = 1.0;
        for (int j = 0; j < n; ++j)
          if (state[static_cast<std::size_t>(j)] == 1) rhs[r] -= q(free[static_cast<std::size_t>(r)], j) * upper[j];
        for (int c = 0; c < f; ++c) qff(r, c) = q(free[static_cast<std::size_t>(r)], free[static_cast<std::size_t>(c)]);
      }
      const Eigen::VectorXd solution = qff.ldlt().solve(rhs);
      bool feasible = true;
      for (int r = 0; r < f; ++r) {
        const double v = solution[r];
        if (v < -1e-12 || v > upper[free[static_cast<std::size_t>(r)]] + 1e-12) feasible = false;
        a[free[static_cast<std::size_t>(r)]] = v;
      }
      if (!feasible) continue;
    }
    const double value = dual_objective(q, a);
    if (value < best_value) {
      best_value = value;
      best = a;
    }
  }
  return best;
}

}  // namespace

TEST_CASE("RBF Gram matrix and cross kernel follow exp(-gamma ||x - z||^2)", "[kernel_svm]") {
  const Eigen::MatrixXd x = random_points(7, 3, 1);
  const RbfGram full(x, 0.7);
  const RbfGram columns(x, 0.7, 0);  // nothing precomputed
  REQUIRE(full.precomputed());
  REQUIRE_FALSE(columns.precomputed());
  const Eigen::MatrixXd cross = rbf_cross_kernel(x.topRows(2), x, 0.7);
  for (int i = 0; i < 7; ++i) {
    for (int j = 0; j < 7; ++j) {
      const double expected = std::exp(-0.7 * (x.row(i) - x.row(j)).squaredNorm());
      CHECK(full(i, j) == Approx(expected).margin(1e-14));
      CHECK(columns(i, j) == Approx(expected).margin(1e-14));
      if (i < 2) CHECK(cross(i, j) == Approx(expected).margin(1e-14));
    }
    CHECK(full(i, i) == 1.0);
  }
  // A constant feature (the thesis' 100) does not change the kernel.
  Eigen::MatrixXd with_constant(7, 4);
  with_constant << x, Eigen::VectorXd::Constant(7, 100.0);
  const RbfGram shifted(with_constant, 0.7);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) CHECK(shifted(i, j) == Approx(full(i, j)).margin(1e-12));
  CHECK_THROWS_AS(RbfGram(x, 0.0), Error);
  CHECK_THROWS_AS(rbf_cross_kernel(x, random_points(3, 2, 2), 1.0), Error);
}

TEST_CASE("kernel SVM reaches the exact optimum of the box-constrained dual (no bias)", "[kernel_svm]") {
  std::mt19937_64 rng(3);
  std::bernoulli_distribution coin(0.4);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 4 + trial % 4;
    const Eigen::MatrixXd x = random_points(n, 2, 100 + static_cast<std::uint64_t>(trial));
    std::vector<int> y(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = coin(rng) ? 1 : 0;
    const double gamma = trial % 2 == 0 ? 0.5 : 2.0;
    const double C = trial % 3 == 0 ? 0.3 : 4.0;
    const double weight = trial % 2 == 0 ? 3.0 : 0.5;
    const RbfGram gram(x, gamma);
    Eigen::MatrixXd q(n, n);
    Eigen::VectorXd upper(n);
    for (int i = 0; i < n; ++i) {
      const double si = y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
      upper[i] = C * (y[static_cast<std::size_t>(i)] == 1 ? weight : 1.0);
      for (int j = 0; j < n; ++j) q(i, j) = si * (y[static_cast<std::size_t>(j)] == 1 ? 1.0 : -1.0) * gram(i, j);
    }
    const Eigen::VectorXd exact = enumerate_box_qp(q, upper);
    KernelSvmOptions options;
    options.C = C;
    options.positive_weight = weight;
    options.epsilon = 1e-10;
    KernelSvmSummary summary;
    const KernelSvmModel model = train_kernel_svm(gram, y, options, &summary);
    REQUIRE(summary.converged);
    CHECK(dual_objective(q, model.dual) == Approx(dual_objective(q, exact)).margin(1e-9));
    CHECK((model.dual - exact).norm() <= 1e-6);
    CHECK(summary.gap == Approx(0.0).margin(1e-8));
    CHECK(summary.dual == Approx(-dual_objective(q, exact)).margin(1e-9));
  }
}

TEST_CASE("kernel SVM: precomputed Gram matrix and LRU column cache give the same model; warm starts",
          "[kernel_svm]") {
  const Eigen::MatrixXd x = random_points(60, 3, 9);
  std::vector<int> y;
  for (int i = 0; i < 60; ++i) y.push_back(x(i, 0) + 0.5 * x(i, 1) > 0.4 ? 1 : 0);
  KernelSvmOptions options;
  options.C = 2.0;
  options.positive_weight = 2.0;
  options.epsilon = 1e-8;
  const RbfGram full(x, 0.5);
  const RbfGram by_column(x, 0.5, 0);
  options.cache_bytes = 8 * sizeof(double) * 60;  // 8 columns: evictions happen
  KernelSvmSummary full_summary, cached_summary;
  const KernelSvmModel a = train_kernel_svm(full, y, options, &full_summary);
  const KernelSvmModel b = train_kernel_svm(by_column, y, options, &cached_summary);
  CHECK(a.dual == b.dual);
  CHECK(full_summary.iterations == cached_summary.iterations);
  CHECK(full_summary.columns_computed == 0);
  CHECK(cached_summary.columns_computed > 8);

  KernelSvmOptions larger = options;
  larger.C = 4.0;
  KernelSvmSummary warm_summary, cold_summary;
  const KernelSvmModel warm = train_kernel_svm(full, y, larger, &warm_summary, &a);
  const KernelSvmModel cold = train_kernel_svm(full, y, larger, &cold_summary);
  CHECK(warm_summary.dual == Approx(cold_summary.dual).epsilon(1e-9));
  CHECK((warm.dual - cold.dual).norm() <= 1e-5 * cold.dual.norm());

  // Decision values: f(x) = sum_i a_i y_i K(x_i, x).
  const Eigen::MatrixXd cross = rbf_cross_kernel(x.topRows(5), x, 0.5);
  const Eigen::VectorXd f = decision_values(a, cross);
  for (int r = 0; r < 5; ++r) {
    double expected = 0.0;
    for (int i = 0; i < 60; ++i) expected += a.dual[i] * (y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0) * full(r, i);
    CHECK(f[r] == Approx(expected).margin(1e-12));
  }
}

TEST_CASE("kernel SVM reports the iteration cap and rejects bad input", "[kernel_svm]") {
  const Eigen::MatrixXd x = random_points(20, 2, 4);
  std::vector<int> y;
  for (int i = 0; i < 20; ++i) y.push_back(i % 2);
  const RbfGram gram(x, 1.0);
  KernelSvmOptions options;
  options.max_iterations = 2;
  KernelSvmSummary summary;
  (void)train_kernel_svm(gram, y, options, &summary);
  CHECK_FALSE(summary.converged);
  CHECK(summary.iterations == 2);
  options.max_iterations = 1000000;
  options.C = -1.0;
  CHECK_THROWS_AS(train_kernel_svm(gram, y, options), Error);
  options.C = 1.0;
  CHECK_THROWS_AS(train_kernel_svm(gram, std::vector<int>(19, 0), options), Error);
  CHECK_THROWS_AS(train_kernel_svm(gram, std::vector<int>(20, 2), options), Error);
}

TEST_CASE("kernel SVM: subspace Newton steps reach the same optimum as plain coordinate descent, faster at "
          "small gamma", "[kernel_svm]") {
  // A nearly constant kernel (gamma 0.002 on points of unit spread: K_ij in [0.97, 1]) with
  // large bounds: Q_FF is ill-conditioned and coordinate descent alone zigzags.
  const int n = 8;
  const Eigen::MatrixXd x = random_points(n, 2, 21);
  const std::vector<int> y = {1, 0, 1, 1, 0, 0, 1, 0};
  const RbfGram gram(x, 0.002);
  Eigen::MatrixXd q(n, n);
  Eigen::VectorXd upper(n);
  KernelSvmOptions options;
  options.C = 64.0;
  options.positive_weight = 3.0;
  options.epsilon = 1e-9;
  for (int i = 0; i < n; ++i) {
    const double si = y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    upper[i] = options.C * (y[static_cast<std::size_t>(i)] == 1 ? options.positive_weight : 1.0);
    for (int j = 0; j < n; ++j) q(i, j) = si * (y[static_cast<std::size_t>(j)] == 1 ? 1.0 : -1.0) * gram(i, j);
  }
  const Eigen::VectorXd exact = enumerate_box_qp(q, upper);
  KernelSvmSummary newton_summary, plain_summary;
  const KernelSvmModel newton = train_kernel_svm(gram, y, options, &newton_summary);
  KernelSvmOptions plain_options = options;
  plain_options.subspace_newton = false;
  const KernelSvmModel plain = train_kernel_svm(gram, y, plain_options, &plain_summary);
  REQUIRE(newton_summary.converged);
  REQUIRE(plain_summary.converged);
  CHECK(newton_summary.newton_steps >= 1);
  CHECK(plain_summary.newton_steps == 0);
  CHECK(newton_summary.iterations * 10 < plain_summary.iterations);
  CHECK(dual_objective(q, newton.dual) == Approx(dual_objective(q, exact)).margin(1e-7));
  CHECK(dual_objective(q, plain.dual) == Approx(dual_objective(q, exact)).margin(1e-7));
  CHECK((newton.dual - exact).norm() <= 1e-4 * exact.norm());
  CHECK(newton_summary.gap == Approx(0.0).margin(1e-6));
}

TEST_CASE("kernel SVM: warm-started (along C) and cold solutions agree within the certified gaps, small and "
          "large gamma", "[kernel_svm]") {
  const Eigen::MatrixXd x = random_points(120, 4, 31);
  std::vector<int> y;
  for (int i = 0; i < 120; ++i) y.push_back(x(i, 0) * x(i, 1) + 0.3 * x(i, 2) > 0.1 ? 1 : 0);
  for (const double gamma : {1.0 / 64.0, 1.0, 8.0}) {
    const RbfGram gram(x, gamma);
    KernelSvmOptions options;  // epsilon 1e-3, LIBSVM's default
    options.positive_weight = 19.0;
    KernelSvmModel previous;
    for (const double C : {0.25, 1.0, 4.0, 16.0, 64.0}) {
      options.C = C;
      KernelSvmSummary warm_summary, cold_summary;
      const KernelSvmModel warm = train_kernel_svm(gram, y, options, &warm_summary, C > 0.25 ? &previous : nullptr);
      const KernelSvmModel cold = train_kernel_svm(gram, y, options, &cold_summary);
      REQUIRE(warm_summary.converged);
      REQUIRE(cold_summary.converged);
      CHECK(warm_summary.max_violation <= options.epsilon);
      // Both duals lie within their gaps below the optimum: D <= D* <= P.
      const double tolerance = std::max(warm_summary.gap, cold_summary.gap) + 1e-9;
      CHECK(std::abs(warm_summary.dual - cold_summary.dual) <= tolerance);
      CHECK(warm_summary.gap >= -1e-9);
      CHECK(cold_summary.gap >= -1e-9);
      previous = warm;
    }
  }
}
