// Dual P@k trainer (lib/models/binary/precision_at_k_trainer.*): the proximal map of the top-k sum over the
// box is optimal (no feasible point does better, with or without a warm-start hint), and the
// trainer's certified objective agrees with the cutting-plane trainer's and with the objective
// recomputed from the full game.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"
#include "lib/models/binary/precision_at_k_trainer.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

double top_k_sum(Eigen::VectorXd m, std::size_t k) {
  std::sort(m.data(), m.data() + m.size(), std::greater<>());
  return m.head(static_cast<Eigen::Index>(k)).sum();
}

double prox_objective(const Eigen::VectorXd& m, const Eigen::VectorXd& u, std::size_t k, double s) {
  return 0.5 * (m - u).squaredNorm() + s * top_k_sum(m, k);
}

}  // namespace

TEST_CASE("Top-k proximal map: hand example and optimality against feasible probes", "[precision_at_k_trainer]") {
  // k = 1, s = 0.5, u = (2, 0.2): m = (min(1, 2 - 0.5), 0.2) = (1, 0.2).
  const Eigen::VectorXd hand = prox_top_k_sum(Eigen::Vector2d(2.0, 0.2), 1, 0.5);
  CHECK(hand[0] == Approx(1.0).margin(1e-15));
  CHECK(hand[1] == Approx(0.2).margin(1e-15));
  // k = 1, s = 1, u = (0.9, 0.8): both meet at tau, 1 = (0.9 - tau) + (0.8 - tau): tau = 0.35.
  const Eigen::VectorXd tied = prox_top_k_sum(Eigen::Vector2d(0.9, 0.8), 1, 1.0);
  CHECK(tied[0] == Approx(0.35).margin(1e-12));
  CHECK(tied[1] == Approx(0.35).margin(1e-12));
  CHECK_THROWS_AS(prox_top_k_sum(Eigen::Vector2d(0.9, 0.8), 3, 1.0), Error);

  std::mt19937 rng(404);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial % 7);
    const std::size_t k = 1 + static_cast<std::size_t>(trial) % n;
    const double s = 0.05 + unit(rng);
    Eigen::VectorXd u(static_cast<Eigen::Index>(n));
    for (auto& v : u) v = 0.5 + normal(rng);
    const Eigen::VectorXd m = prox_top_k_sum(u, k, s);
    INFO("trial " << trial << " n " << n << " k " << k);
    REQUIRE(m.minCoeff() >= 0.0);
    REQUIRE(m.maxCoeff() <= 1.0);
    // A warm-start hint (any value) changes only the search, not the map.
    double hint = unit(rng);
    const Eigen::VectorXd hinted = prox_top_k_sum(u, k, s, &hint);
    CHECK((hinted - m).cwiseAbs().maxCoeff() <= 1e-12);
    const double best = prox_objective(m, u, k, s);
    for (int probe = 0; probe < 100; ++probe) {
      Eigen::VectorXd other(static_cast<Eigen::Index>(n));
      for (Eigen::Index i = 0; i < other.size(); ++i)
        other[i] = probe % 2 ? unit(rng) : std::clamp(m[i] + 0.01 * normal(rng), 0.0, 1.0);
      CHECK(prox_objective(other, u, k, s) >= best - 1e-12);
    }
  }
}

TEST_CASE("Dual P@k training: certified and equal to the cutting-plane optimum", "[precision_at_k_trainer]") {
  std::mt19937 rng(77);
  const MetricSettings settings = precision_settings(AdversaryRestriction::unrestricted);
  for (int trial = 0; trial < 4; ++trial) {
    const BinaryProblem problem = random_problem(40, 3, rng);
    const double lambda = trial % 2 ? 0.05 : 0.5;
    INFO("trial " << trial << " lambda " << lambda);
    PrecisionAtKTrainOptions options;
    options.lambda = lambda;
    options.tolerance = 1e-8;
    PrecisionAtKTrainSummary summary;
    const BinaryModel model = train_precision_at_k_mpg(problem, settings, options, &summary);
    REQUIRE(summary.converged());
    CHECK(summary.gap <= 1e-8);
    // The objective recomputed at the returned theta lies in the certified bracket.
    BinaryMpgObjective objective(problem, settings, lambda, DoubleOracleOptions{});
    const double at_model = value_at(objective, model.theta);
    CHECK(at_model <= summary.objective + 1e-12);
    CHECK(at_model >= summary.dual_value - 1e-12);
    CuttingPlaneOptions cutting;
    cutting.lambda = lambda;
    cutting.tolerance = 1e-8;
    CuttingPlaneSummary reference;
    train_binary_mpg_cutting_plane(problem, settings, cutting, &reference);
    REQUIRE(reference.converged());
    CHECK(summary.objective == Approx(reference.objective).margin(2e-8));
  }
}

TEST_CASE("Dual P@k training rejects other games, lambda <= 0, and reports caps", "[precision_at_k_trainer]") {
  std::mt19937 rng(5);
  const BinaryProblem problem = random_problem(30, 2, rng);
  PrecisionAtKTrainOptions options;
  CHECK_THROWS_AS(train_precision_at_k_mpg(problem, f1_settings(), options), Error);
  CHECK_THROWS_AS(
      train_precision_at_k_mpg(problem, precision_settings(AdversaryRestriction::exactly_k), options), Error);
  options.lambda = 0.0;
  CHECK_THROWS_AS(
      train_precision_at_k_mpg(problem, precision_settings(AdversaryRestriction::unrestricted), options), Error);
  options.lambda = 0.01;
  options.tolerance = 1e-15;
  options.max_iterations = 20;
  PrecisionAtKTrainSummary summary;
  train_precision_at_k_mpg(problem, precision_settings(AdversaryRestriction::unrestricted), options, &summary);
  CHECK_FALSE(summary.converged());
  CHECK(summary.status == PrecisionAtKTrainStatus::iteration_limit);
  CHECK(to_string(summary.status) == "not converged: iteration limit");
  CHECK(summary.gap >= 0.0);
}

TEST_CASE("P@k training: the interior point method and ADMM alone certify the same optimum", "[precision_at_k_trainer]") {
  std::mt19937 rng(31);
  const MetricSettings settings = precision_settings(AdversaryRestriction::unrestricted);
  for (int trial = 0; trial < 4; ++trial) {
    const BinaryProblem problem = random_problem(60, 4, rng);
    const double lambda = trial % 2 ? 1e-3 : 0.3;
    INFO("trial " << trial << " lambda " << lambda);
    PrecisionAtKTrainOptions options;
    options.lambda = lambda;
    options.tolerance = 1e-8;
    PrecisionAtKTrainSummary with_interior_point, admm_only;
    train_precision_at_k_mpg(problem, settings, options, &with_interior_point);
    options.interior_point_iterations = 0;
    train_precision_at_k_mpg(problem, settings, options, &admm_only);
    REQUIRE(with_interior_point.converged());
    REQUIRE(admm_only.converged());
    CHECK(with_interior_point.interior_point_iterations > 0);
    CHECK(admm_only.interior_point_iterations == 0);
    // Each run's certified bracket holds the other's objective.
    CHECK(with_interior_point.objective >= admm_only.dual_value - 1e-12);
    CHECK(admm_only.objective >= with_interior_point.dual_value - 1e-12);
    CHECK(with_interior_point.objective == Approx(admm_only.objective).margin(2e-8));
  }
}
