// The sum-of-games objective (lib/learn/sum_of_games.hpp) on a family of toy instances whose
// "games" have the closed-form value v_i(theta) = -(b_i . theta)^2 / 2: the value and gradient
// formulas for both weightings, the statistics, the warm starts, and the same bits on 1 and 2
// threads.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <nlohmann/json.hpp>
#include <random>

#include "lib/learn/sum_of_games.hpp"

using namespace mpg;

namespace {

class ToyFamily {
 public:
  struct Warm {
    int solves = 0;
  };
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    Eigen::VectorXd expected;  // -dv_i/dtheta = (b_i . theta) b_i
  };
  explicit ToyFamily(std::size_t n) {
    std::mt19937 rng(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
      gold_.emplace_back(Eigen::Vector3d(normal(rng), normal(rng), normal(rng)));
      b_.emplace_back(Eigen::Vector3d(normal(rng), normal(rng), normal(rng)));
    }
  }
  std::size_t size() const { return b_.size(); }
  Eigen::Index dimension() const { return 3; }
  void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const { sum += gold_[i]; }
  Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const {
    ++warm.solves;
    Solution s;
    const double projection = b_[i].dot(theta);
    s.value = -0.5 * projection * projection;
    s.expected = projection * b_[i];
    s.converged = i % 3 != 0;
    s.gap = 0.01 * static_cast<double>(i) + warm.solves;  // the warm start reaches the solver
    s.seconds = 1.0;
    return s;
  }
  void add_expected_features(std::size_t, const Solution& s, double weight, Eigen::VectorXd& gradient) const {
    gradient += weight * s.expected;
  }

  std::vector<Eigen::VectorXd> gold_, b_;
};

}  // namespace

TEST_CASE("sum of games: value, gradient, weighting and statistics", "[sum_of_games]") {
  const ToyFamily family(7);
  const double lambda = 0.3;
  const Eigen::Vector3d theta(0.2, -0.5, 1.1);
  for (InstanceWeighting weighting : {InstanceWeighting::sum, InstanceWeighting::mean}) {
    SumOfGamesObjective<ToyFamily> objective(family, lambda, weighting);
    const double w = weighting == InstanceWeighting::mean ? 1.0 / 7.0 : 1.0;
    double expected_value = 0.5 * lambda * theta.squaredNorm();
    Eigen::VectorXd expected_gradient = lambda * theta;
    for (std::size_t i = 0; i < 7; ++i) {
      const double projection = family.b_[i].dot(theta);
      expected_value += w * (-theta.dot(family.gold_[i]) + 0.5 * projection * projection);
      expected_gradient += w * (projection * family.b_[i] - family.gold_[i]);
    }
    Eigen::VectorXd gradient(3);
    CHECK(objective.evaluate(theta, gradient) == Approx(expected_value).epsilon(1e-12));
    CHECK((gradient - expected_gradient).norm() <= 1e-12);
    objective.evaluate(theta, gradient);
    const SumOfGamesSummary& summary = objective.summary();
    CHECK(summary.games == 14);
    CHECK(summary.unconverged_games == 6);  // instances 0, 3, 6 in each evaluation
    CHECK(summary.last_unconverged_games == 3);
    CHECK(summary.max_gap == Approx(0.06 + 2.0));  // instance 6 on its second solve
    CHECK(summary.game_seconds == 14.0);
  }
  CHECK_THROWS_AS(SumOfGamesObjective<ToyFamily>(family, -1.0, InstanceWeighting::sum), Error);
}

TEST_CASE("sum of games: the same bits on 1 and 2 threads, and the time cap", "[sum_of_games]") {
  const ToyFamily family(40);
  Eigen::VectorXd one, two;
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    SumOfGamesObjective<ToyFamily> objective(family, 0.1, InstanceWeighting::mean);
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(3);
    OptimizerOptions optimizer;
    optimizer.max_iterations = 20;
    const SumOfGamesSummary summary = minimize_sum_of_games(objective, theta, optimizer, 0.1, 0.0);
    CHECK_FALSE(summary.time_limit);
    CHECK(summary.to_json()["games"] == summary.games);
    (threads == 1 ? one : two) = theta;
  }
  CHECK(one == two);
  // A cap of a microsecond stops the optimizer after its first evaluation, reported as such.
  SumOfGamesObjective<ToyFamily> objective(family, 0.1, InstanceWeighting::mean);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(3);
  OptimizerOptions optimizer;
  const SumOfGamesSummary capped = minimize_sum_of_games(objective, theta, optimizer, 0.1, 1e-6);
  CHECK(capped.time_limit);
  CHECK(capped.optimizer.status == OptimizerStatus::time_limit);
  CHECK_FALSE(capped.converged());
}
