// Cutting-plane trainer (lib/models/binary/cutting_plane_trainer.*): its certificate brackets the true
// objective F(theta) (the full game solved by double oracle, itself checked against the full
// 2^n x 2^n LP in test_binary_mpg), no other theta beats its lower bound, and it is at least as
// good as L-BFGS over exactly solved games.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "lib/base/error.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

TEST_CASE("Cutting-plane training: certified bounds bracket F at the returned theta", "[cutting_plane]") {
  std::mt19937 rng(2026);
  for (const MetricSettings& settings : all_settings()) {
    for (int trial = 0; trial < 3; ++trial) {
      const BinaryProblem problem = random_problem(9, 3, rng);
      const double lambda = trial == 0 ? 0.05 : 0.5;
      INFO(describe(settings) << " trial " << trial << " lambda " << lambda);
      CuttingPlaneOptions options;
      options.lambda = lambda;
      options.tolerance = 1e-7;
      CuttingPlaneSummary summary;
      const BinaryModel model = train_binary_mpg_cutting_plane(problem, settings, options, &summary);
      REQUIRE(summary.converged());
      REQUIRE(summary.gap <= 1e-7);
      // Equal up to rounding when the model is exact at the optimum (P@k's closed-form game).
      INFO("lower bound - objective = " << summary.lower_bound - summary.objective);
      REQUIRE(summary.lower_bound <= summary.objective + 1e-12 * std::max(1.0, std::abs(summary.objective)));

      BinaryMpgObjective objective(problem, settings, lambda, DoubleOracleOptions{});
      const double at_model = value_at(objective, model.theta);
      CHECK(at_model <= summary.objective + 1e-9);
      CHECK(at_model >= summary.lower_bound - 1e-9);
      // No theta does better than the lower bound: random probes and the L-BFGS optimum.
      std::normal_distribution<double> normal(0.0, 0.3);
      for (int probe = 0; probe < 10; ++probe) {
        Eigen::VectorXd theta = model.theta;
        for (Eigen::Index j = 0; j < theta.size(); ++j) theta[j] += normal(rng) / (1 + probe);
        CHECK(value_at(objective, theta) >= summary.lower_bound - 1e-9);
      }
      TrainOptions lbfgs;
      lbfgs.lambda = lambda;
      TrainSummary lbfgs_summary;
      train_binary_mpg(problem, settings, lbfgs, &lbfgs_summary);
      CHECK(lbfgs_summary.optimizer.final_value >= summary.lower_bound - 1e-9);
      // ... and the certified objective is at least as good as where L-BFGS stops (L-BFGS has
      // no stopping certificate on this non-smooth objective and may stop short).
      CHECK(summary.objective <= lbfgs_summary.optimizer.final_value + 1e-7);
    }
  }
}

TEST_CASE("Cutting-plane training with on-demand game accuracy certifies the same optimum",
          "[cutting_plane]") {
  std::mt19937 rng(77);
  for (const MetricSettings& settings : all_settings()) {
    for (int trial = 0; trial < 2; ++trial) {
      const BinaryProblem problem = random_problem(10, 3, rng);
      INFO(describe(settings) << " trial " << trial);
      CuttingPlaneOptions options;
      options.lambda = trial == 0 ? 0.05 : 0.5;
      options.tolerance = 1e-7;
      CuttingPlaneSummary plain;
      train_binary_mpg_cutting_plane(problem, settings, options, &plain);
      options.on_demand_accuracy = true;
      CuttingPlaneSummary on_demand;
      const BinaryModel model = train_binary_mpg_cutting_plane(problem, settings, options, &on_demand);
      REQUIRE(plain.converged());
      REQUIRE(on_demand.converged());
      // Both certificates bracket the same minimum, and F at the returned theta is inside (up to
      // rounding, relative to |F|: the bounds meet exactly at a vertex of the piecewise-linear model).
      const double rounding = 1e-13 * (1.0 + std::abs(plain.objective));
      CAPTURE(on_demand.lower_bound - plain.objective, plain.lower_bound - on_demand.objective);
      CHECK(on_demand.lower_bound <= plain.objective + rounding);
      CHECK(plain.lower_bound <= on_demand.objective + rounding);
      BinaryMpgObjective objective(problem, settings, options.lambda, DoubleOracleOptions{});
      const double at_model = value_at(objective, model.theta);
      CHECK(at_model <= on_demand.objective + 1e-9);
      CHECK(at_model >= on_demand.lower_bound - 1e-9);
    }
  }
}

TEST_CASE("Cutting-plane training rejects lambda <= 0 and reports caps as not converged",
          "[cutting_plane]") {
  std::mt19937 rng(7);
  const BinaryProblem problem = random_problem(8, 2, rng);
  CuttingPlaneOptions options;
  options.lambda = 0.0;
  CHECK_THROWS_WITH(train_binary_mpg_cutting_plane(problem, f1_settings(), options),
                    Catch::Contains("lambda > 0"));
  options.lambda = 0.1;
  options.max_iterations = 2;
  options.tolerance = 1e-12;
  CuttingPlaneSummary summary;
  train_binary_mpg_cutting_plane(problem, f1_settings(), options, &summary);
  CHECK_FALSE(summary.converged());
  CHECK(summary.status == CuttingPlaneStatus::iteration_limit);
  CHECK(summary.message == "not converged: iteration limit");
  CHECK(summary.iterations == 2);
  // The deterministic cap on restricted-game solves.
  options.max_iterations = 0;
  options.max_game_solves = 3;
  train_binary_mpg_cutting_plane(problem, f1_settings(), options, &summary);
  CHECK_FALSE(summary.converged());
  CHECK(summary.status == CuttingPlaneStatus::solve_limit);
  CHECK(summary.message == "not converged: restricted-game solve limit (3)");
  CHECK(summary.game_iterations == 3);
}

TEST_CASE("Cutting-plane training reports every restricted-game solve to game_progress",
          "[cutting_plane]") {
  std::mt19937 rng(7);
  const BinaryProblem problem = random_problem(8, 2, rng);
  CuttingPlaneOptions options;
  options.lambda = 0.1;
  std::vector<long> solves;
  int last_iteration = 0;
  bool gaps_valid = true;
  options.game_progress = [&](int iteration, long solve, double gap, double target) {
    CHECK(iteration >= last_iteration);
    last_iteration = iteration;
    solves.push_back(solve);
    gaps_valid = gaps_valid && gap >= -1e-9 && target > 0.0;
  };
  CuttingPlaneSummary summary;
  train_binary_mpg_cutting_plane(problem, f1_settings(), options, &summary);
  REQUIRE(summary.converged());
  REQUIRE(solves.size() == static_cast<std::size_t>(summary.game_iterations));
  for (std::size_t i = 0; i < solves.size(); ++i) CHECK(solves[i] == static_cast<long>(i) + 1);
  CHECK(last_iteration == summary.iterations);
  CHECK(gaps_valid);
}
