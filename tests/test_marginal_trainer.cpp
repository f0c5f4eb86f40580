// Certified F1-MPG training over marginals (lib/models/binary/marginal_trainer.*): every cut it takes
// from an inexactly solved game is a global minorant of the objective, its certificate brackets
// the optimum of the full game (all 2^n actions, solved by LP), it reaches the objective of the
// cutting-plane trainer over the double oracle, and warm starts change only the path.
#include <catch2/catch.hpp>

#include <random>

#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/models/binary/marginal_trainer.hpp"
#include "tests/f1_objective_truth.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

MarginalTrainOptions options_with(double lambda, double tolerance) {
  MarginalTrainOptions options;
  options.lambda = lambda;
  options.tolerance = tolerance;
  return options;
}

}  // namespace

TEST_CASE("Training over marginals: a cut from an inexact game is a global minorant of F", "[marginal_trainer]") {
  std::mt19937 rng(25);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 3; ++trial) {
    const BinaryProblem problem = random_problem(7, 2, rng);
    const FullGameObjective full{problem, 0.3};
    const Eigen::Index d = problem.features.cols();  // 2 features and the bias
    Eigen::VectorXd theta(d);
    for (Eigen::Index j = 0; j < d; ++j) theta[j] = 0.5 * normal(rng);
    const Eigen::VectorXd psi = problem.features * theta;
    // One round only: bounds far apart, yet the cut (offset by `upper`) stays below F everywhere,
    // and F(theta) stays below the upper bound (from `lower`).
    MarginalSolverOptions one_round;
    one_round.max_rounds = 1;
    const MarginalSolution game =
        F1Game(std::vector<double>(psi.data(), psi.data() + psi.size())).solve_over_marginals(one_round).value();
    INFO("trial " << trial << " game gap " << game.summary.gap);
    const Eigen::VectorXd expected = problem.features.transpose() * game.adversary_marginals;
    const double offset = game.summary.upper + theta.dot(expected);
    auto cut = [&](const Eigen::VectorXd& t) {
      return 0.5 * full.lambda * t.squaredNorm() - t.dot(full.gold) + t.dot(expected) - offset;
    };
    CHECK(full(theta) <= 0.5 * full.lambda * theta.squaredNorm() - theta.dot(full.gold) - game.summary.lower + 1e-9);
    CHECK(full(theta) >= cut(theta) - 1e-9);
    for (int probe = 0; probe < 8; ++probe) {
      Eigen::VectorXd t = theta;
      for (Eigen::Index j = 0; j < d; ++j) t[j] += normal(rng);
      CHECK(full(t) >= cut(t) - 1e-9);
    }
  }
}

TEST_CASE("Training over marginals: the certificate brackets the brute-force optimum", "[marginal_trainer]") {
  check_certificate_brackets_brute_force<MarginalTrainSummary>(
      [](const BinaryProblem& problem, double lambda, double tolerance, MarginalTrainSummary* summary) {
        return train_binary_mpg_over_marginals(problem, f1_settings(), options_with(lambda, tolerance), summary);
      });
}

TEST_CASE("Training over marginals reaches the cutting-plane trainer's objective; warm starts change only the path",
          "[marginal_trainer]") {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 2; ++trial) {
    const BinaryProblem problem = random_problem(trial == 0 ? 10 : 40, 4, rng);
    const double lambda = trial == 0 ? 0.05 : 0.2;
    INFO("trial " << trial);
    MarginalTrainOptions options = options_with(lambda, 1e-7);
    MarginalTrainSummary warm, cold;
    train_binary_mpg_over_marginals(problem, f1_settings(), options, &warm);
    options.warm_start = false;
    train_binary_mpg_over_marginals(problem, f1_settings(), options, &cold);
    CuttingPlaneOptions planes;
    planes.lambda = lambda;
    planes.tolerance = 1e-7;
    CuttingPlaneSummary reference;
    train_binary_mpg_cutting_plane(problem, f1_settings(), planes, &reference);
    REQUIRE(warm.converged());
    REQUIRE(cold.converged());
    REQUIRE(reference.converged());
    // Three certified intervals of width <= 1e-7 around one minimum: they overlap pairwise.
    for (const auto* a : {&warm.objective, &cold.objective, &reference.objective})
      for (const auto* b : {&warm.lower_bound, &cold.lower_bound, &reference.lower_bound}) CHECK(*b <= *a + 1e-12);
    CHECK(warm.objective == Approx(reference.objective).margin(2e-7));
    CHECK(cold.objective == Approx(warm.objective).margin(2e-7));
  }
}

TEST_CASE("Training over marginals rejects impossible settings and reports caps as not converged",
          "[marginal_trainer]") {
  std::mt19937 rng(3);
  const BinaryProblem problem = random_problem(12, 2, rng);
  CHECK_THROWS_WITH(train_binary_mpg_over_marginals(problem, f1_settings(), options_with(0.0, 1e-6)),
                    Catch::Contains("lambda > 0"));
  CHECK_THROWS_WITH(train_binary_mpg_over_marginals(problem, precision_settings(AdversaryRestriction::unrestricted),
                                                    options_with(0.1, 1e-6)),
                    Catch::Contains("solved over marginals (F1)"));
  MarginalTrainOptions options = options_with(0.1, 1e-12);
  options.max_iterations = 2;
  MarginalTrainSummary summary;
  train_binary_mpg_over_marginals(problem, f1_settings(), options, &summary);
  CHECK(summary.status == CuttingPlaneStatus::iteration_limit);
  CHECK(summary.message == "not converged: iteration limit");
  CHECK(summary.iterations == 2);
  options.max_iterations = 0;
  options.max_game_solves = 5;
  train_binary_mpg_over_marginals(problem, f1_settings(), options, &summary);
  CHECK(summary.status == CuttingPlaneStatus::solve_limit);
  CHECK(summary.message == "not converged: restricted-game solve limit (5)");
  CHECK(summary.game_rounds == 5);
  CHECK(summary.to_json()["converged"] == false);
}

TEST_CASE("Training over marginals: games by the double oracle first or over marginals only, one certified optimum",
          "[marginal_trainer]") {
  // The double oracle over pure actions plays each game first (double_oracle_iterations); its
  // adversary strategy's marginals and bounds give the same kind of cut as the solver over
  // marginals, so both runs certify intervals that contain min F and overlap.
  std::mt19937 rng(31);
  const BinaryProblem problem = random_problem(9, 2, rng);
  MarginalTrainOptions pure_first = options_with(0.25, 1e-7);
  MarginalTrainOptions marginals_only = pure_first;
  marginals_only.double_oracle_iterations = 0;
  MarginalTrainSummary pure_summary, marginal_summary;
  train_binary_mpg_over_marginals(problem, f1_settings(), pure_first, &pure_summary);
  train_binary_mpg_over_marginals(problem, f1_settings(), marginals_only, &marginal_summary);
  REQUIRE(pure_summary.converged());
  REQUIRE(marginal_summary.converged());
  CHECK(pure_summary.pure_games > 0);
  CHECK(marginal_summary.pure_games == 0);
  CHECK(pure_summary.lower_bound <= marginal_summary.objective + 1e-12);
  CHECK(marginal_summary.lower_bound <= pure_summary.objective + 1e-12);
}
