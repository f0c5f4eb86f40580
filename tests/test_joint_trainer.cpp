// F1-MPG training as one saddle-point LP (lib/models/binary/joint_trainer.*): its certificate brackets the
// optimum of the full game (all 2^n actions, solved by LP), its interval overlaps those of the
// cutting-plane and bundle trainers, and caps and impossible settings are reported.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/models/binary/joint_strategy.hpp"
#include "lib/models/binary/joint_trainer.hpp"
#include "lib/models/binary/marginal_trainer.hpp"
#include "tests/f1_objective_truth.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

JointTrainOptions joint_options(double lambda, double tolerance) {
  JointTrainOptions options;
  options.lambda = lambda;
  options.tolerance = tolerance;
  return options;
}

// Two certified intervals [lower bound, objective] around one minimum overlap.
void check_same_minimum(const JointTrainSummary& a, const JointTrainSummary& b) {
  CHECK(a.lower_bound <= b.objective + 1e-12);
  CHECK(b.lower_bound <= a.objective + 1e-12);
}

// The seeded 200-example problem on which the round-count options are compared.
BinaryProblem rounds_problem() {
  std::mt19937 rng(44);
  return random_problem(200, 5, rng);
}

// Trains with `options` into `before`, applies `change` to them and trains again into `after`.
void train_before_and_after(const BinaryProblem& problem, JointTrainOptions& options,
                            const std::function<void(JointTrainOptions&)>& change, JointTrainSummary& before,
                            JointTrainSummary& after) {
  train_f1_mpg_joint(problem, f1_settings(), options, &before);
  change(options);
  train_f1_mpg_joint(problem, f1_settings(), options, &after);
}
}  // namespace

TEST_CASE("Joint training: the certificate brackets the brute-force optimum", "[joint_trainer]") {
  check_certificate_brackets_brute_force<JointTrainSummary>(
      [](const BinaryProblem& problem, double lambda, double tolerance, JointTrainSummary* summary) {
        return train_f1_mpg_joint(problem, f1_settings(), joint_options(lambda, tolerance), summary);
      });
}

TEST_CASE("Joint training certifies the optimum the cutting-plane and bundle trainers certify", "[joint_trainer]") {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 2; ++trial) {
    const BinaryProblem problem = random_problem(trial == 0 ? 10 : 40, 4, rng);
    const double lambda = trial == 0 ? 0.05 : 0.2;
    INFO("trial " << trial);
    JointTrainSummary joint;
    train_f1_mpg_joint(problem, f1_settings(), joint_options(lambda, 1e-7), &joint);
    CuttingPlaneOptions planes;
    planes.lambda = lambda;
    planes.tolerance = 1e-7;
    CuttingPlaneSummary reference;
    train_binary_mpg_cutting_plane(problem, f1_settings(), planes, &reference);
    MarginalTrainOptions bundle_options;
    bundle_options.lambda = lambda;
    bundle_options.tolerance = 1e-7;
    MarginalTrainSummary bundle;
    train_binary_mpg_over_marginals(problem, f1_settings(), bundle_options, &bundle);
    INFO(joint.report());
    REQUIRE(joint.converged());
    REQUIRE(reference.converged());
    REQUIRE(bundle.converged());
    // Three certified intervals of width <= 1e-7 around one minimum: they overlap pairwise.
    for (const auto* a : {&joint.objective, &reference.objective, &bundle.objective})
      for (const auto* b : {&joint.lower_bound, &reference.lower_bound, &bundle.lower_bound}) CHECK(*b <= *a + 1e-12);
  }
}

TEST_CASE("Joint training: LPs the strict simplex cannot finish are rescued by the scaled copy, same certificate",
          "[joint_trainer]") {
  std::mt19937 rng(8);
  const BinaryProblem problem = random_problem(40, 4, rng);
  JointTrainSummary plain;
  train_f1_mpg_joint(problem, f1_settings(), joint_options(0.2, 1e-7), &plain);
  // One pivot per strict attempt: every LP that needs more fails both strict attempts and goes to
  // the rescue (the path GLPK's numerical failures take at small lambda on OPTDIGITS).
  JointTrainOptions starved = joint_options(0.2, 1e-7);
  starved.pivot_limit = 1;
  JointTrainSummary rescued;
  train_f1_mpg_joint(problem, f1_settings(), starved, &rescued);
  INFO(plain.report() << "\n" << rescued.report());
  REQUIRE(plain.converged());
  REQUIRE(rescued.converged());
  CHECK(plain.rescued_lps == 0);
  CHECK(rescued.rescued_lps > 0);
  CHECK(rescued.rescued_lps <= rescued.iterations);
  check_same_minimum(rescued, plain);
  starved.pivot_limit = -1;
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), starved), Catch::Contains("pivot_limit >= 0"));
}

TEST_CASE("Joint training rejects impossible settings and reports caps as not converged", "[joint_trainer]") {
  std::mt19937 rng(3);
  const BinaryProblem problem = random_problem(12, 2, rng);
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), joint_options(0.0, 1e-6)),
                    Catch::Contains("lambda > 0"));
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), joint_options(0.1, 0.0)),
                    Catch::Contains("tolerance > 0"));
  JointTrainOptions no_start = joint_options(0.1, 1e-6);
  no_start.start_potential = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), no_start), Catch::Contains("finite start_potential"));
  MetricSettings at_k = f1_settings();
  at_k.metric = BinaryMetric::precision_at_k;
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, at_k, joint_options(0.1, 1e-6)), Catch::Contains("F1 only"));
  // Caps: a round count, and a time that also stops an LP solve running past it.
  auto capped_run = [](const BinaryProblem& capped_problem, int max_iterations, double max_seconds) {
    JointTrainOptions options = joint_options(0.1, 1e-9);
    options.max_iterations = max_iterations;
    options.max_seconds = max_seconds;
    JointTrainSummary out;
    train_f1_mpg_joint(capped_problem, f1_settings(), options, &out);
    return out;
  };
  const JointTrainSummary summary = capped_run(problem, 1, 0.0);
  CHECK_FALSE(summary.converged());
  CHECK(summary.status == CuttingPlaneStatus::iteration_limit);
  CHECK(summary.message == "not converged: iteration limit");
  CHECK(summary.lower_bound <= summary.objective);
  std::mt19937 rng_large(9);
  const JointTrainSummary timed = capped_run(random_problem(300, 8, rng_large), 0, 0.05);
  INFO(timed.report());
  CHECK(timed.status == CuttingPlaneStatus::time_limit);
  CHECK(timed.seconds < 1.0);
}

namespace {

// Fixing at every rank (margin 0) after one round, and dropping sizes idle for one round: the LP is
// restricted as much as the mechanisms allow, so their mistakes show.
JointTrainOptions aggressive_options(double lambda, double tolerance) {
  JointTrainOptions options = joint_options(lambda, tolerance);
  options.fix_margin = 0;
  options.fix_after = 1;
  options.drop_idle_rounds = 1;
  return options;
}

}  // namespace

TEST_CASE("Joint training with aggressive fixing and dropping still brackets the brute-force optimum",
          "[joint_trainer]") {
  check_certificate_brackets_brute_force<JointTrainSummary>(
      [](const BinaryProblem& problem, double lambda, double tolerance, JointTrainSummary* summary) {
        return train_f1_mpg_joint(problem, f1_settings(), aggressive_options(lambda, tolerance), summary);
      });
}

TEST_CASE("Joint training: fixed pairs the best responses leave are released, idle sizes dropped, and the "
          "certified optimum is the one without them", "[joint_trainer]") {
  std::mt19937 rng(21);
  const BinaryProblem problem = random_problem(60, 4, rng);
  const double lambda = 0.1;
  JointTrainOptions plain = joint_options(lambda, 1e-7);
  plain.fix_margin = -1;
  plain.drop_idle_rounds = 0;
  JointTrainSummary without;
  train_f1_mpg_joint(problem, f1_settings(), plain, &without);
  INFO(without.report());
  REQUIRE(without.converged());
  CHECK(without.adversary_fixed + without.predictor_fixed == 0);
  CHECK(without.unfixed == 0);
  CHECK(without.dropped_sizes == 0);
  for (const JointTrainOptions& options : {joint_options(lambda, 1e-7), aggressive_options(lambda, 1e-7)}) {
    JointTrainSummary with;
    train_f1_mpg_joint(problem, f1_settings(), options, &with);
    INFO("fix_margin " << options.fix_margin << ", drop_idle_rounds " << options.drop_idle_rounds << ": "
                       << with.report());
    REQUIRE(with.converged());
    // The LP was restricted: pairs fixed in both players; aggressively: some released again,
    // sizes dropped.
    CHECK(with.adversary_fixed > 0);
    CHECK(with.predictor_fixed > 0);
    if (options.drop_idle_rounds == 1) {  // the aggressive options
      CHECK(with.unfixed > 0);
      CHECK(with.dropped_sizes > 0);
    }
    // Two certified intervals of width <= 1e-7 around one minimum overlap.
    check_same_minimum(with, without);
  }
}

TEST_CASE("Joint training from theta = 0 certifies the optimum it certifies from the gold direction", "[joint_trainer]") {
  std::mt19937 rng(5);
  const BinaryProblem problem = random_problem(30, 3, rng);
  JointTrainSummary from_zero, from_gold;
  JointTrainOptions options = joint_options(0.2, 1e-7);
  train_f1_mpg_joint(problem, f1_settings(), options, &from_gold);
  options.start = TrainStart::zero;
  train_f1_mpg_joint(problem, f1_settings(), options, &from_zero);
  INFO(from_zero.report() << "\n" << from_gold.report());
  REQUIRE(from_zero.converged());
  REQUIRE(from_gold.converged());
  check_same_minimum(from_zero, from_gold);
}

namespace {

// U(alpha) of gold_direction_step by brute force over all 2^n labellings y.
double gold_bound_by_brute_force(const BinaryProblem& problem, double lambda, double alpha) {
  const BinaryAction gold = positives_of(problem.labels);
  Eigen::VectorXd gold_features = Eigen::VectorXd::Zero(problem.features.cols());
  for (auto i : gold) gold_features += problem.features.row(static_cast<long>(i)).transpose();
  const Eigen::VectorXd u = problem.features * (gold_features / gold_features.norm());
  const std::size_t n = problem.labels.size();
  double worst = -std::numeric_limits<double>::infinity();
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    BinaryAction y;
    double potential = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (mask & (1u << i)) {
        y.push_back(static_cast<decltype(y)::value_type>(i));
        potential += alpha * u[static_cast<long>(i)];
      }
    worst = std::max(worst, potential - f1_score(gold, y));
  }
  return 0.5 * lambda * alpha * alpha - alpha * gold_features.norm() + worst;
}

}  // namespace

TEST_CASE("Joint training's start step minimizes the gold labelling's bound (brute force over all labellings)",
          "[joint_trainer]") {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 4; ++trial) {
    const BinaryProblem problem = random_problem(9, 3, rng);
    const double lambda = trial % 2 == 0 ? 0.05 : 2.0;
    const double step = gold_direction_step(problem, lambda);
    INFO("trial " << trial << ", step " << step);
    CHECK(step >= 0.0);
    CHECK(step <= std::sqrt(2.0 / lambda) + 1e-12);
    // No point of a fine grid over [0, sqrt(2/lambda)] has a lower bound than the step's.
    const double at_step = gold_bound_by_brute_force(problem, lambda, step);
    for (int g = 0; g <= 400; ++g) {
      const double alpha = std::sqrt(2.0 / lambda) * g / 400.0;
      CHECK(at_step <= gold_bound_by_brute_force(problem, lambda, alpha) + 1e-9);
    }
  }
}

TEST_CASE("Joint training: new sizes and examples grown within their bands certify the optimum of the dense LP, "
          "with a smaller LP", "[joint_trainer]") {
  std::mt19937 rng(44);
  const BinaryProblem problem = random_problem(200, 5, rng);
  JointTrainOptions options = joint_options(0.1, 1e-7);
  JointTrainSummary sparse, dense;
  train_f1_mpg_joint(problem, f1_settings(), options, &sparse);
  options.sparse_growth = false;
  train_f1_mpg_joint(problem, f1_settings(), options, &dense);
  INFO(sparse.report() << "\n" << dense.report());
  REQUIRE(sparse.converged());
  REQUIRE(dense.converged());
  check_same_minimum(sparse, dense);
  CHECK(sparse.lp_rows < dense.lp_rows);
}

TEST_CASE("Joint training: the sizes that cut off the LP's solution, best first and spread apart (worked by hand)",
          "[joint_trainer]") {
  using joint_detail::violating_sizes;
  // Values at sizes 0..6. The adversary (lower is better) with size 3 in the LP: the threshold is
  // min(values[0], values[3]) = 0.3, so sizes 2 (0.1) and 5 (0.2) cut off the LP's solution, 1 and
  // 6 do not; size 4 is the best size, added anyway. Span 5 - 2 = 3: separation max(1, 3 / 4) = 1,
  // so 5 (one from 4) is too close and 2 (two from 4) is taken.
  const std::vector<double> values{0.5, 0.4, 0.1, 0.3, 0.05, 0.2, 0.35};
  CHECK(violating_sizes(values, {3}, 4, 2, -1.0) == std::vector<long>{2});
  CHECK(violating_sizes(values, {3}, 4, 1, -1.0) == std::vector<long>{2});
  CHECK(violating_sizes(values, {3}, 4, 0, -1.0).empty());
  // Best size 6: size 4 (0.05) is a candidate now and comes first, then 2 (two from 4); 5 is one
  // from 4 and from 6.
  CHECK(violating_sizes(values, {3}, 6, 3, -1.0) == (std::vector<long>{4, 2}));
  // Best size 0 (the empty action, never added): candidates 4 (0.05), 2, 5; 4 first, then 2 (two
  // from 4); 5 is one from 4.
  CHECK(violating_sizes(values, {3}, 0, 3, -1.0) == (std::vector<long>{4, 2}));
  // The predictor (higher is better) with size 1 in the LP: nothing beats values[0] = 0.5.
  CHECK(violating_sizes(values, {1}, 4, 3, 1.0).empty());
  // With the empty action worth 0 and size 3 in the LP the threshold is 0.3: sizes 1 (0.4) and 6
  // (0.35) beat it (span 5, separation 1), best first; the best size 4 is not repeated.
  std::vector<double> higher = values;
  higher[0] = 0.0;
  CHECK(violating_sizes(higher, {3}, 4, 3, 1.0) == (std::vector<long>{1, 6}));
}

TEST_CASE("Joint training with several sizes per round brackets the brute-force optimum (all 2^n actions)",
          "[joint_trainer]") {
  check_certificate_brackets_brute_force<JointTrainSummary>(
      [](const BinaryProblem& problem, double lambda, double tolerance, JointTrainSummary* summary) {
        JointTrainOptions options = joint_options(lambda, tolerance);
        options.sizes_per_round = 4;
        return train_f1_mpg_joint(problem, f1_settings(), options, summary);
      });
}

TEST_CASE("Joint training with several sizes per round certifies the optimum of one size per round, in fewer rounds",
          "[joint_trainer]") {
  const BinaryProblem problem = rounds_problem();
  JointTrainOptions options = joint_options(0.1, 1e-7);
  JointTrainSummary one, many;
  train_before_and_after(problem, options, [](JointTrainOptions& o) { o.sizes_per_round = 6; }, one, many);
  INFO(one.report() << "\n" << many.report());
  REQUIRE(one.converged());
  REQUIRE(many.converged());
  CHECK(one.sizes_per_round == 1);
  CHECK(many.sizes_per_round == 6);
  CHECK(many.gap <= 1e-7);
  CHECK(many.lp_pivots > 0);
  check_same_minimum(many, one);
  CHECK(many.iterations < one.iterations);
  options.sizes_per_round = 0;
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), options), Catch::Contains("sizes_per_round >= 1"));
}

TEST_CASE("Joint training: fixing exactly what the best actions take (fix_margin 0, long-step ratio test) "
          "certifies the optimum of the default margin of 10, with a smaller LP", "[joint_trainer]") {
  std::mt19937 rng(44);
  const BinaryProblem problem = random_problem(200, 5, rng);
  JointTrainOptions options = joint_options(0.1, 1e-7);
  CHECK(options.fix_margin == 10);
  JointTrainSummary tight, wide;
  train_f1_mpg_joint(problem, f1_settings(), options, &wide);
  options.fix_margin = 0;
  options.long_step = true;
  train_f1_mpg_joint(problem, f1_settings(), options, &tight);
  INFO(tight.report() << "\n" << wide.report());
  REQUIRE(tight.converged());
  REQUIRE(wide.converged());
  check_same_minimum(tight, wide);
  CHECK(tight.lp_rows < wide.lp_rows);
}

TEST_CASE("Joint training with fix_margin 0 and the long-step ratio test brackets the brute-force optimum",
          "[joint_trainer]") {
  check_certificate_brackets_brute_force<JointTrainSummary>(
      [](const BinaryProblem& problem, double lambda, double tolerance, JointTrainSummary* summary) {
        JointTrainOptions options = joint_options(lambda, tolerance);
        options.fix_margin = 0;
        options.long_step = true;
        return train_f1_mpg_joint(problem, f1_settings(), options, summary);
      });
}

TEST_CASE("Joint training: lazy best values (bounds per block of sizes) give the same theta, rounds and certificate",
          "[joint_trainer]") {
  std::mt19937 rng(47);
  const BinaryProblem problem = random_problem(300, 5, rng);  // sizes 0..300: five blocks of 64
  for (const int sizes : {1, 6}) {
    CAPTURE(sizes);
    JointTrainOptions options = joint_options(0.1, 1e-7);
    options.sizes_per_round = sizes;
    JointTrainSummary lazy, full;
    const Eigen::VectorXd a = train_f1_mpg_joint(problem, f1_settings(), options, &lazy).theta;
    options.lazy_best_values = false;
    const Eigen::VectorXd b = train_f1_mpg_joint(problem, f1_settings(), options, &full).theta;
    REQUIRE(lazy.converged());
    CHECK(a == b);  // bit for bit
    CHECK(lazy.iterations == full.iterations);
    CHECK(lazy.objective == full.objective);
    CHECK(lazy.lower_bound == full.lower_bound);
  }
}

TEST_CASE("Joint training with many sizes per round in the tail certifies the same optimum in fewer rounds",
          "[joint_trainer]") {
  const BinaryProblem problem = rounds_problem();
  JointTrainOptions options = joint_options(0.1, 1e-7);
  JointTrainSummary plain, tail;
  train_before_and_after(problem, options, [](JointTrainOptions& o) {
    o.tail_sizes_per_round = 16;
    o.tail_gap = 1000.0;
  }, plain, tail);
  INFO(plain.report() << "\n" << tail.report());
  REQUIRE(plain.converged());
  REQUIRE(tail.converged());
  CHECK(plain.tail_rounds == 0);
  CHECK(tail.tail_rounds > 0);
  CHECK(tail.iterations < plain.iterations);
  check_same_minimum(tail, plain);
  options.tail_gap = 0.5;
  CHECK_THROWS_WITH(train_f1_mpg_joint(problem, f1_settings(), options), Catch::Contains("tail_gap >= 1"));
}
