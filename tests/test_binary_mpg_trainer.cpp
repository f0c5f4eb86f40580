// The metric-agnostic seams of binary MPGs: the metric plug-in (capabilities, scores, model
// fields), the games' exact-solve and over-marginals hooks, the one training entry point and the
// one prediction entry point (which solver ran, with the same numbers as calling it directly).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <random>

#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

TEST_CASE("metric plug-in: capabilities, k, scores and model fields", "[binary_mpg_trainer]") {
  const auto unrestricted = precision_settings(AdversaryRestriction::unrestricted);
  const auto exactly_k = precision_settings(AdversaryRestriction::exactly_k);
  CHECK(has_dual_trainer(unrestricted));
  CHECK_FALSE(has_dual_trainer(exactly_k));
  CHECK_FALSE(has_dual_trainer(f1_settings()));
  CHECK(has_marginal_solver(f1_settings()));
  CHECK_FALSE(has_marginal_solver(unrestricted));
  CHECK_FALSE(has_marginal_solver(exactly_k));
  const std::vector<int> labels = {1, 0, 1, 1, 0, 1};  // 4 positives: k = 2
  CHECK(metric_k(unrestricted, labels) == 2);
  CHECK(metric_k(f1_settings(), labels) == 0);
  const std::vector<int> predicted = {1, 1, 0, 0, 0, 0};
  CHECK(binary_metric_score(f1_settings(), predicted, labels) == Approx(2.0 * 1 / (2 + 4)));
  CHECK(binary_metric_score(unrestricted, predicted, labels) == 0.5);
  CHECK(to_string(parse_binary_metric("precision_at_k")) == "precision_at_k");
  CHECK_THROWS_WITH(parse_binary_metric("accuracy"), "unknown metric 'accuracy' (expected f1 or precision_at_k)");
  nlohmann::json model;
  write_metric_settings(exactly_k, model);
  CHECK(model["metric"] == "precision_at_k");
  const MetricSettings back = read_metric_settings(model);
  CHECK(back.metric == BinaryMetric::precision_at_k);
  CHECK(back.restriction == AdversaryRestriction::exactly_k);
  CHECK(back.k_fraction == 0.5);
}

TEST_CASE("game hooks: P@k's closed form and F1's solver over marginals", "[binary_mpg_trainer]") {
  const std::vector<double> psi = {0.9, 0.3, 0.1, -0.2, 0.45};
  const PrecisionAtKGame unrestricted(psi, 2);
  const auto exact = unrestricted.exact_equilibrium(1e-9);
  REQUIRE(exact);
  const auto closed_form = solve_precision_at_k_game(psi, 2);
  CHECK(exact->summary.value == closed_form.value);
  CHECK(exact->summary.gap == closed_form.gap);
  CHECK(exact->summary.converged());
  CHECK(exact->summary.method == "closed form");
  CHECK(exact->likeliest_action == BinaryAction{0, 4});
  REQUIRE(exact->adversary.size() == 1);
  CHECK(exact->adversary.actions[0] == closed_form.adversary_action);
  // E[P@k] against labels {0, 1} = (pi_0 + pi_1) / k.
  CHECK(exact->expected_score({1, 1, 0, 0, 0}) ==
        Approx((closed_form.predictor_marginals[0] + closed_form.predictor_marginals[1]) / 2.0));
  CHECK_FALSE(PrecisionAtKGame(psi, 2, AdversaryRestriction::exactly_k).exact_equilibrium(1e-9));
  CHECK_FALSE(unrestricted.solve_over_marginals({}));
  const F1Game f1(psi);
  CHECK_FALSE(f1.exact_equilibrium(1e-9));
  MarginalSolverOptions options;
  options.tolerance = 1e-9;
  const auto over_marginals = f1.solve_over_marginals(options);
  REQUIRE(over_marginals);
  CHECK(over_marginals->summary.converged());
  // The double oracle's value lies within the certified bounds.
  const auto solution = solve_double_oracle(f1);
  CHECK(solution.summary.value >= over_marginals->summary.lower - 1e-8);
  CHECK(solution.summary.value <= over_marginals->summary.upper + 1e-8);
}

TEST_CASE("train_binary_mpg_model: auto picks the metric's dual trainer, the same model as calling it; F1 over marginals on request",
          "[binary_mpg_trainer]") {
  std::mt19937 rng(11);
  const BinaryProblem problem = random_problem(12, 3, rng);
  BinaryTrainingOptions options;
  options.lambda = 0.5;
  options.tolerance = 1e-7;
  for (const MetricSettings& settings : all_settings()) {
    INFO(describe(settings));
    BinaryTrainingSummary summary;
    const BinaryModel model = train_binary_mpg_model(problem, settings, options, &summary);
    REQUIRE(summary.converged());
    const nlohmann::json json = summary.to_json();
    if (has_dual_trainer(settings)) {
      CHECK(summary.trainer() == BinaryTrainer::dual);
      CHECK(json["trainer"] == "dual");
      PrecisionAtKTrainOptions dual;
      dual.lambda = options.lambda;
      dual.tolerance = options.tolerance;
      CHECK(model.theta == train_precision_at_k_mpg(problem, settings, dual).theta);
    } else {
      if (has_marginal_solver(settings)) {
        // The trainer over marginals on request: the same model as calling it, and a certificate
        // of the same minimum as the cutting-plane trainer's.
        BinaryTrainingOptions marginal_options = options;
        marginal_options.trainer = BinaryTrainer::marginals;
        BinaryTrainingSummary over_marginals;
        const BinaryModel marginal_model = train_binary_mpg_model(problem, settings, marginal_options, &over_marginals);
        REQUIRE(over_marginals.converged());
        const nlohmann::json m = over_marginals.to_json();
        CHECK(m["trainer"] == "marginals");
        MarginalTrainOptions marginals;
        marginals.lambda = options.lambda;
        marginals.tolerance = options.tolerance;
        CHECK(marginal_model.theta == train_binary_mpg_over_marginals(problem, settings, marginals).theta);
        CHECK(m["lower_bound"].get<double>() <= json["objective"].get<double>() + 1e-12);
        CHECK(json["lower_bound"].get<double>() <= m["objective"].get<double>() + 1e-12);
      }
      CHECK(summary.trainer() == BinaryTrainer::cutting_plane);
      CHECK(json["trainer"] == "cutting_plane");
      CuttingPlaneOptions cutting_plane;
      cutting_plane.lambda = options.lambda;
      cutting_plane.tolerance = options.tolerance;
      CHECK(model.theta == train_binary_mpg_cutting_plane(problem, settings, cutting_plane).theta);
    }
    CHECK(json["converged"] == true);
    CHECK(json["gap"].get<double>() <= options.tolerance);
    CHECK(summary.report().rfind("converged after ", 0) == 0);
  }
  options.trainer = BinaryTrainer::dual;
  CHECK_THROWS_AS(train_binary_mpg_model(problem, f1_settings(), options), Error);
  options.trainer = BinaryTrainer::lbfgs;
  options.max_iterations = 3;
  BinaryTrainingSummary capped;
  train_binary_mpg_model(problem, f1_settings(), options, &capped);
  CHECK_FALSE(capped.converged());
  CHECK(capped.to_json()["status"] == "L-BFGS stopped: reached the iteration limit (3)");
  CHECK(parse_binary_trainer("auto") == BinaryTrainer::automatic);
  CHECK_THROWS_WITH(parse_binary_trainer("sgd"),
                    "unknown trainer 'sgd' (expected auto, dual, marginals, joint, cutting_plane, lbfgs, adadelta, "
                    "authors_lbfgs or authors_adadelta)");
  options.trainer = BinaryTrainer::marginals;
  options.max_iterations = 0;
  CHECK_THROWS_AS(train_binary_mpg_model(problem, precision_settings(AdversaryRestriction::exactly_k), options), Error);
  options.trainer = BinaryTrainer::joint;
  CHECK_THROWS_AS(train_binary_mpg_model(problem, precision_settings(AdversaryRestriction::exactly_k), options), Error);
  BinaryTrainingSummary joint;
  train_binary_mpg_model(problem, f1_settings(), options, &joint);
  INFO(joint.report());
  CHECK(joint.converged());
  CHECK(joint.to_json()["trainer"] == "joint");
}

TEST_CASE("predict_binary_mpg: the game's exact solution, the double oracle or the solver over marginals",
          "[binary_mpg_trainer]") {
  std::mt19937 rng(5);
  const BinaryProblem problem = random_problem(14, 3, rng);
  BinaryTrainingOptions training;
  training.lambda = 0.5;
  const BinaryModel pk = train_binary_mpg_model(problem, precision_settings(AdversaryRestriction::unrestricted), training);
  const BinaryPrediction closed_form = predict_binary_mpg(pk, problem);
  CHECK(closed_form.game.solver() == "closed form");
  CHECK(closed_form.game.iterations() == 0);
  CHECK(closed_form.k == precision_k(pk.settings, problem.labels));
  CHECK(closed_form.score == precision_at_k(closed_form.action, positives_of(problem.labels), closed_form.k));
  BinaryPredictOptions marginals;
  marginals.solver = BinaryGameSolver::marginals;
  CHECK_THROWS_AS(predict_binary_mpg(pk, problem, marginals), Error);

  const BinaryModel f1 = train_binary_mpg_model(problem, f1_settings(), training);
  BinaryPredictOptions double_oracle;
  double_oracle.solver = BinaryGameSolver::double_oracle;
  const BinaryPrediction by_double_oracle = predict_binary_mpg(f1, problem, double_oracle);
  CHECK(by_double_oracle.game.solver() == "double oracle");
  // The default (auto) plays an F1 game over marginals.
  CHECK(predict_binary_mpg(f1, problem).game.solver() == "marginals");
  CHECK(parse_binary_game_solver("auto") == BinaryGameSolver::automatic);
  CHECK(by_double_oracle.game.converged());
  CHECK(by_double_oracle.k == 0);
  marginals.marginals.tolerance = 1e-9;
  const BinaryPrediction over_marginals = predict_binary_mpg(f1, problem, marginals);
  CHECK(over_marginals.game.solver() == "marginals");
  CHECK(over_marginals.game.converged());
  CHECK(over_marginals.game.to_json()["solver"] == "marginals");
  CHECK(over_marginals.game.report().rfind("converged after ", 0) == 0);
  // Both equilibria guarantee the game value; the expected F1 against the gold labels need not
  // agree (equilibria are not unique), but both are F1 values.
  CHECK(over_marginals.expected_score >= 0.0);
  CHECK(over_marginals.expected_score <= 1.0 + 1e-12);
}
