// Mini-batch AdaDelta as the reference code runs it (lib/learn/minibatch_adadelta.hpp): the first
// step from theta = 0 by hand, the batches (a permutation of the instances per pass, fixed by the
// seed), the step count floor(passes N / B), and both stop tests at hand-checkable passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/learn/minibatch_adadelta.hpp"
#include "lib/learn/protocol.hpp"

using namespace mpg;

namespace {

constexpr double kEps = 0.00247875217;  // e^-6, the reference's epsilon

// N instances in one dimension: term i is -a_i theta, so a batch B has gradient
// -sum_{i in B} a_i + lambda theta and f = -sum a_i theta + lambda/2 theta^2.
struct Linear {
  explicit Linear(std::vector<double> terms) : a(std::move(terms)) {}
  std::vector<double> a;
  double lambda = 0.0;
  std::vector<std::vector<std::size_t>> batches;  // every batch asked for, in order
  int values = 0;
  BatchObjective objective() {
    BatchObjective o;
    o.instances = a.size();
    o.value = [this](const Eigen::VectorXd& x) {
      ++values;
      double sum = 0.0;
      for (double ai : a) sum += ai;
      return -sum * x[0] + 0.5 * lambda * x[0] * x[0];
    };
    o.batch_gradient = [this](const Eigen::VectorXd& x, const std::vector<std::size_t>& batch, Eigen::VectorXd& g) {
      batches.push_back(batch);
      g.resize(1);
      g[0] = lambda * x[0];
      for (std::size_t i : batch) g[0] -= a[i];
    };
    return o;
  }
};

MinibatchAdaDeltaOptions reference_options(int batch, int passes) {
  MinibatchAdaDeltaOptions o = MinibatchAdaDeltaOptions::from(authors_optimizer_options(TrainingProtocol::authors_adadelta), batch, 7);
  o.passes = passes;
  return o;
}

}  // namespace

TEST_CASE("Mini-batch AdaDelta takes the reference's presets and its first step by hand", "[minibatch_adadelta]") {
  const MinibatchAdaDeltaOptions o = MinibatchAdaDeltaOptions::from(authors_optimizer_options(TrainingProtocol::authors_adadelta), 9, 3);
  CHECK(o.passes == 200);
  CHECK(o.rho == 0.95);
  CHECK(o.epsilon == kEps);
  CHECK(o.value_tolerance == 1e-4);
  CHECK(o.step_tolerance == 1e-6);
  CHECK(o.batch_size == 9);
  CHECK(o.seed == 3);

  // One instance, a = 1: g_0 = -1, E[g^2] = 0.05, dx = sqrt(eps) / sqrt(0.05 + eps) * (-1).
  Linear linear{{1.0}};
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
  const OptimizerSummary s = minimize_minibatch_adadelta(linear.objective(), theta, reference_options(1, 1));
  CHECK(theta[0] == Approx(std::sqrt(kEps / (0.05 + kEps))).epsilon(1e-14));  // 0.21733...
  CHECK(theta[0] == Approx(0.217332).margin(1e-6));
  CHECK(s.iterations == 1);  // passes
  CHECK(s.evaluations == 1);
  CHECK(s.status == OptimizerStatus::iteration_limit);
  CHECK(s.initial_value == 0.0);
  CHECK(s.final_value == Approx(-theta[0]).epsilon(1e-14));
}

TEST_CASE("Mini-batch AdaDelta: floor(passes N / B) steps, each pass a permutation fixed by the seed",
          "[minibatch_adadelta]") {
  Linear linear{{1.0, 2.0, 3.0, 4.0, 5.0, 6.0}};
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
  MinibatchAdaDeltaOptions o = reference_options(2, 3);
  o.value_tolerance = 0.0;  // no early stop
  o.step_tolerance = 0.0;
  const OptimizerSummary s = minimize_minibatch_adadelta(linear.objective(), theta, o);
  REQUIRE(linear.batches.size() == 9);  // 3 passes x 6 / 2
  CHECK(s.iterations == 3);
  CHECK(linear.values == 1 + 3);  // the start, then one full value per pass
  for (std::size_t pass = 0; pass < 3; ++pass) {
    std::vector<std::size_t> seen;
    for (std::size_t b = 3 * pass; b < 3 * pass + 3; ++b) {
      CHECK(linear.batches[b].size() == 2);
      seen.insert(seen.end(), linear.batches[b].begin(), linear.batches[b].end());
    }
    std::sort(seen.begin(), seen.end());
    CHECK(seen == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
  }
  // The same seed, the same batches; another seed, other batches.
  Linear again{linear.a};
  Eigen::VectorXd theta_again = Eigen::VectorXd::Zero(1);
  minimize_minibatch_adadelta(again.objective(), theta_again, o);
  CHECK(again.batches == linear.batches);
  CHECK(theta_again[0] == theta[0]);
  Linear other{linear.a};
  Eigen::VectorXd theta_other = Eigen::VectorXd::Zero(1);
  o.seed = 8;
  minimize_minibatch_adadelta(other.objective(), theta_other, o);
  CHECK(other.batches != linear.batches);

  // N = 5, B = 2, one pass: floor(5 / 2) = 2 steps, no pass completed (the reference's count).
  Linear odd{{1.0, 1.0, 1.0, 1.0, 1.0}};
  Eigen::VectorXd theta_odd = Eigen::VectorXd::Zero(1);
  const OptimizerSummary short_run = minimize_minibatch_adadelta(odd.objective(), theta_odd, reference_options(2, 1));
  CHECK(odd.batches.size() == 2);
  CHECK(short_run.iterations == 0);
  CHECK(short_run.status == OptimizerStatus::iteration_limit);
}

TEST_CASE("Mini-batch AdaDelta stops by the reference's tests at hand-checkable passes", "[minibatch_adadelta]") {
  SECTION("a zero gradient: the step test after the first pass, theta stays 0") {
    Linear zero{{0.0, 0.0, 0.0, 0.0}};
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
    const OptimizerSummary s = minimize_minibatch_adadelta(zero.objective(), theta, reference_options(2, 200));
    CHECK(s.converged());
    CHECK(s.iterations == 1);
    CHECK(zero.batches.size() == 2);
    CHECK(theta[0] == 0.0);
    CHECK_THAT(s.message, Catch::Matchers::Contains("step norm"));
  }
  SECTION("a constant value: the value test at pass 6, the first with more than 5 values") {
    // f stays -2 whatever theta: the average improvement is 0 from the first pass, tested from the 6th.
    BatchObjective flat;
    flat.instances = 3;
    flat.value = [](const Eigen::VectorXd&) { return -2.0; };
    int steps = 0;
    flat.batch_gradient = [&steps](const Eigen::VectorXd&, const std::vector<std::size_t>&, Eigen::VectorXd& g) {
      ++steps;
      g = Eigen::VectorXd::Constant(1, -1.0);
    };
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
    const OptimizerSummary s = minimize_minibatch_adadelta(flat, theta, reference_options(3, 200));
    CHECK(s.converged());
    CHECK(s.iterations == 6);
    CHECK(steps == 6);
    CHECK_THAT(s.message, Catch::Matchers::Contains("average relative improvement"));
    // Six steps with g = -1 by the recurrence: theta is their sum.
    double eg = 0.0, edx = 0.0, x = 0.0;
    for (int t = 0; t < 6; ++t) {
      eg = 0.95 * eg + 0.05;
      const double dx = std::sqrt(edx + kEps) / std::sqrt(eg + kEps) * -1.0;
      x -= dx;
      edx = 0.95 * edx + 0.05 * dx * dx;
    }
    CHECK(theta[0] == Approx(x).epsilon(1e-14));
  }
  SECTION("a value that keeps improving by 1% a pass is not stopped by the value test") {
    BatchObjective falling;
    falling.instances = 1;
    int calls = 0;
    falling.value = [&calls](const Eigen::VectorXd&) { return -std::pow(1.01, calls++); };
    falling.batch_gradient = [](const Eigen::VectorXd&, const std::vector<std::size_t>&, Eigen::VectorXd& g) {
      g = Eigen::VectorXd::Constant(1, -1.0);
    };
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
    const OptimizerSummary s = minimize_minibatch_adadelta(falling, theta, reference_options(1, 20));
    CHECK(s.iterations == 20);
    CHECK(s.status == OptimizerStatus::iteration_limit);
  }
}

TEST_CASE("Mini-batch AdaDelta rejects bad options by name", "[minibatch_adadelta]") {
  Linear linear{{1.0}};
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(1);
  MinibatchAdaDeltaOptions o = reference_options(0, 1);
  CHECK_THROWS_WITH(minimize_minibatch_adadelta(linear.objective(), theta, o), Catch::Matchers::Contains("batch_size"));
  Linear none{{}};
  CHECK_THROWS_WITH(minimize_minibatch_adadelta(none.objective(), theta, reference_options(1, 1)),
                    Catch::Matchers::Contains("no instances"));
}
