// Per-instance cutting planes with block-coordinate dual maximization (lib/learn/block_coordinate.hpp):
// its certified interval holds the minimum that a tight proximal bundle finds, on a polyhedral sum
// of maxima (a sum of games in miniature) and on linear-chain F1 MPG training; a family whose
// support misses coordinates and impossible options are errors; same bits on 1 and 2 threads.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/block_coordinate.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "tests/polyhedral_objective.hpp"

namespace {

// f(theta) = lambda/2 ||theta||^2 - g . theta + sum_t max_k (A_t theta + b_t)_k as a family of
// instances: instance t's "game" has value v_t = -max_k (A_t theta + b_t)_k and expected features
// the maximizing row; instance 0 carries the gold features g.
class MaximaFamily {
 public:
  struct Warm {};
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    Eigen::VectorXd expected;
  };
  explicit MaximaFamily(const mpg::testing::SumOfMaxima& f, Eigen::Index missing = -1) : f_(f), missing_(missing) {}
  std::size_t size() const { return f_.slopes.size(); }
  Eigen::Index dimension() const { return f_.gold.size(); }
  void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const {
    if (i == 0) sum += f_.gold;
  }
  std::vector<Eigen::Index> support(std::size_t) const {
    std::vector<Eigen::Index> all;
    for (Eigen::Index j = 0; j < dimension(); ++j)
      if (j != missing_) all.push_back(j);
    return all;
  }
  Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm&) const {
    Solution s;
    Eigen::Index best = 0;
    s.value = -(f_.slopes[i] * theta + f_.offsets[i]).maxCoeff(&best);
    s.expected = f_.slopes[i].row(best).transpose();
    return s;
  }
  void add_expected_features(std::size_t, const Solution& s, double weight, Eigen::VectorXd& gradient) const {
    gradient += weight * s.expected;
  }

 private:
  const mpg::testing::SumOfMaxima& f_;
  Eigen::Index missing_;
};

mpg::testing::SumOfMaxima random_maxima(int dimension, int terms, int pieces, double lambda, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  mpg::testing::SumOfMaxima f;
  f.lambda = lambda;
  for (int t = 0; t < terms; ++t) {
    f.slopes.emplace_back(pieces, dimension);
    f.offsets.emplace_back(pieces);
    for (Eigen::Index k = 0; k < f.slopes.back().size(); ++k) f.slopes.back().data()[k] = normal(rng);
    for (Eigen::Index k = 0; k < pieces; ++k) f.offsets.back()[k] = normal(rng);
  }
  f.gold = Eigen::VectorXd(dimension);
  for (Eigen::Index k = 0; k < dimension; ++k) f.gold[k] = normal(rng);
  return f;
}

}  // namespace

TEST_CASE("instance planes certify an interval holding the minimum of a sum of maxima", "[instance_planes]") {
  for (const double lambda : {0.01, 0.3, 4.0}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      auto f = random_maxima(6, 12, 5, lambda, seed);
      // The reference: a proximal bundle certified to 1e-11.
      Eigen::VectorXd reference = Eigen::VectorXd::Zero(6);
      const auto tight = mpg::minimize(f, reference, mpg::testing::proximal_bundle_options(lambda, 1e-11, 20000));
      REQUIRE(tight.converged());
      MaximaFamily family(f);
      mpg::BlockCoordinateOptions options;
      options.lambda = lambda;
      options.tolerance = 1e-8;
      Eigen::VectorXd theta = Eigen::VectorXd::Zero(6);
      const auto summary = mpg::minimize_by_instance_planes(family, theta, options);
      INFO("lambda " << lambda << " seed " << seed << ": " << summary.optimizer.message);
      REQUIRE(summary.converged());
      const auto& r = summary.optimizer;
      CHECK(r.final_value - r.lower_bound <= 1e-8 * std::max(1.0, std::abs(r.final_value)));
      // Both intervals hold the minimum, so they overlap.
      CHECK(r.lower_bound <= tight.final_value + 1e-12 * std::max(1.0, std::abs(tight.final_value)));
      CHECK(tight.lower_bound <= r.final_value + 1e-12 * std::max(1.0, std::abs(r.final_value)));
      // The reported value is f at the returned theta, and theta is as close to the minimizer as
      // strong convexity certifies.
      Eigen::VectorXd gradient(6);
      CHECK(f.evaluate(theta, gradient) == Approx(r.final_value).epsilon(1e-12));
      CHECK((theta - reference).norm() <= r.distance_bound + tight.distance_bound + 1e-9);
      CHECK(summary.games == static_cast<long>(12 * r.iterations));
    }
  }
}

TEST_CASE("instance planes: the argument test, pass limit, bad options and a support that misses coordinates",
          "[instance_planes]") {
  auto f = random_maxima(5, 8, 4, 0.5, 9);
  MaximaFamily family(f);
  mpg::BlockCoordinateOptions options;
  options.lambda = 0.5;
  options.tolerance = 0.0;
  options.argument_tolerance = 1e-4;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(5);
  auto summary = mpg::minimize_by_instance_planes(family, theta, options);
  REQUIRE(summary.converged());
  CHECK(summary.optimizer.distance_bound <= 1e-4);

  options.argument_tolerance = 0.0;
  options.tolerance = 1e-14;
  options.max_passes = 2;
  theta.setZero();
  summary = mpg::minimize_by_instance_planes(family, theta, options);
  CHECK(summary.optimizer.status == mpg::OptimizerStatus::iteration_limit);
  CHECK(summary.optimizer.iterations == 2);

  options = mpg::BlockCoordinateOptions();
  options.lambda = 0.0;
  CHECK_THROWS_AS(mpg::minimize_by_instance_planes(family, theta, options), mpg::Error);
  options.lambda = 1.0;
  options.tolerance = 0.0;
  CHECK_THROWS_AS(mpg::minimize_by_instance_planes(family, theta, options), mpg::Error);
  options.tolerance = 1e-6;
  Eigen::VectorXd wrong = Eigen::VectorXd::Zero(4);
  CHECK_THROWS_AS(mpg::minimize_by_instance_planes(family, wrong, options), mpg::Error);

  MaximaFamily short_support(f, 2);
  CHECK_THROWS_WITH(mpg::minimize_by_instance_planes(short_support, theta, options),
                    Catch::Contains("support misses coordinates"));
}

TEST_CASE("linear-chain MPG: instance planes and the proximal bundle certify overlapping intervals, on 1 and 2 threads",
          "[instance_planes]") {
  // Noisy toy sentences: a token's first feature is its label 80 % of the time.
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> label(0, 2), feature(0, 5);
  std::bernoulli_distribution honest(0.8);
  std::vector<mpg::FeaturizedSentence> sentences;
  for (int i = 0; i < 30; ++i) {
    mpg::FeaturizedSentence s;
    for (int t = 0, T = 1 + i % 6; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      const auto first = static_cast<std::uint32_t>(honest(rng) ? y : label(rng));
      const auto second = static_cast<std::uint32_t>(3 + feature(rng) % 3);
      s.features.push_back({first, second});
    }
    sentences.push_back(s);
  }
  const mpg::ChainLayout layout{6, 3};
  for (const double lambda : {0.01, 1.0}) {
    mpg::LinearChainMpgOptions options;
    options.target = 2;
    options.lambda = lambda;
    options.objective_tolerance = 1e-7;
    options.max_iterations = 5000;
    options.game_tolerance = 1e-10;
    options.instance_planes = false;  // the proximal bundle (the library default is instance planes)
    const auto bundle = mpg::train_linear_chain_mpg(sentences, layout, options);
    REQUIRE(bundle.summary.converged());
    options.instance_planes = true;
    mpg::LinearChainMpgModel planes[2];
    for (int threads : {1, 2}) {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
      planes[threads - 1] = mpg::train_linear_chain_mpg(sentences, layout, options);
    }
    const auto& a = bundle.summary.optimizer;
    const auto& b = planes[0].summary.optimizer;
    INFO("lambda " << lambda << ": " << a.message << " / " << b.message);
    REQUIRE(planes[0].summary.converged());
    // Games are solved to 1e-10 each, so both bounds hold up to the summed game gaps.
    const double slack = 30 * 1e-10 + 1e-9;
    CHECK(b.lower_bound <= a.final_value + slack);
    CHECK(a.lower_bound <= b.final_value + slack);
    CHECK(b.iterations < a.iterations);
    CHECK(planes[0].theta == planes[1].theta);
    CHECK(planes[0].summary.optimizer.final_value == planes[1].summary.optimizer.final_value);
  }
}
