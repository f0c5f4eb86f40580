// The proximal bundle's weight rule (lib/learn/cut_model.cpp, Kiwiel 1990) and the optimizer's
// argument tolerance (a certificate on theta from strong convexity, lib/learn/optimizer.hpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/learn/optimizer.hpp"
#include "tests/polyhedral_objective.hpp"

namespace {

using mpg::minimize;
using mpg::OptimizerKind;
using mpg::OptimizerOptions;
using mpg::testing::proximal_bundle_options;
using mpg::testing::SumOfMaxima;

// f(x) = lambda/2 ||x||^2 + ||x - c||_1, separable: coordinate i is least at c_i when
// lambda |c_i| <= 1, else at sign(c_i) / lambda.
struct QuadraticPlusL1 : mpg::Objective {
  double lambda;
  Eigen::VectorXd c;
  QuadraticPlusL1(double l, Eigen::VectorXd center) : lambda(l), c(std::move(center)) {}
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) override {
    const Eigen::ArrayXd d = (x - c).array();
    gradient = lambda * x + Eigen::VectorXd(d.sign());
    return 0.5 * lambda * x.squaredNorm() + d.abs().sum();
  }
};

// f(x) = lambda/2 ||x||^2 + sum_g max_i (a_gi . x - b_gi): a sum of many small maxima, piecewise
// linear with a great many pieces, like a sum of sentence games. Entries uniform in
// [-scale, scale] (a, from a fixed 64-bit Mersenne twister) and [-1, 1] (b).
SumOfMaxima random_maxima(int dimension, int groups, int pieces, double lambda, double scale, std::uint64_t seed) {
  SumOfMaxima f;
  f.lambda = lambda;
  std::mt19937_64 engine(seed);
  auto uniform = [&engine] { return static_cast<double>(engine() >> 11) * 0x1.0p-52 - 1.0; };
  for (int g = 0; g < groups; ++g) {
    Eigen::MatrixXd a(pieces, dimension);
    Eigen::VectorXd b(pieces);
    for (int i = 0; i < pieces; ++i) {
      for (int j = 0; j < dimension; ++j) a(i, j) = scale * uniform();
      b[i] = -uniform();
    }
    f.slopes.push_back(std::move(a));
    f.offsets.push_back(std::move(b));
  }
  return f;
}

}  // namespace

TEST_CASE("the proximal bundle certifies the known minimum of a quadratic plus an l1 term", "[proximal_weight]") {
  for (const double lambda : {0.5, 1e-3, 50.0}) {
    Eigen::VectorXd c(5);
    c << 1.0, -3.0, 0.5, 4.0, -0.2;
    QuadraticPlusL1 f(lambda, c);
    Eigen::VectorXd minimizer(5);
    for (Eigen::Index i = 0; i < 5; ++i)
      minimizer[i] = lambda * std::abs(c[i]) <= 1.0 ? c[i] : (c[i] > 0.0 ? 1.0 : -1.0) / lambda;
    Eigen::VectorXd g(5);
    const double minimum = f.evaluate(minimizer, g);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(5);
    const auto summary = minimize(f, x, proximal_bundle_options(lambda, 1e-9, 500));
    INFO("lambda " << lambda << ": " << summary.report());
    REQUIRE(summary.converged());
    CHECK(summary.final_value - minimum <= 1e-9 * std::max(1.0, std::abs(minimum)));
    CHECK(summary.lower_bound <= minimum + 1e-12);
    // Strong convexity: ||x - x*||^2 <= 2 (f(x) - f*) / lambda <= distance_bound^2.
    CHECK((x - minimizer).norm() <= summary.distance_bound + 1e-12);
  }
}

TEST_CASE("the proximal weight does not run away on a sum of many maxima with a large lambda", "[proximal_weight]") {
  // The shape of conll.100 at lambda = 1, where growing mu by 1.5 on every null step made the
  // steps vanish and the lower bound stall: the rule of 1.5x per null step and 0.5x per good
  // serious step needed 481 iterations here (measured); the safeguarded rule of cut_model.cpp needs far fewer.
  SumOfMaxima f = random_maxima(100, 300, 4, 1.0, 0.5, 1);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(100);
  const auto summary = minimize(f, x, proximal_bundle_options(1.0, 1e-5, 2000));
  INFO(summary.report());
  REQUIRE(summary.converged());
  CHECK(summary.iterations <= 250);
}

TEST_CASE("the argument tolerance certifies the distance to the minimizer", "[proximal_weight]") {
  for (const double lambda : {0.05, 1.0}) {
    SumOfMaxima f = random_maxima(20, 40, 4, lambda, 1.0, 7);
    Eigen::VectorXd reference = Eigen::VectorXd::Zero(20);
    const auto exact = minimize(f, reference, proximal_bundle_options(lambda, 1e-12, 5000));
    REQUIRE(exact.converged());
    REQUIRE(exact.distance_bound < 1e-4);
    for (const double delta : {0.3, 0.03}) {
      // The relative test alone (1e-2 x |f|) is far looser than lambda delta^2 / 2 here.
      OptimizerOptions options = proximal_bundle_options(lambda, 1e-2, 5000);
      options.argument_tolerance = delta;
      Eigen::VectorXd x = Eigen::VectorXd::Zero(20);
      const auto summary = minimize(f, x, options);
      INFO("lambda " << lambda << ", delta " << delta << ": " << summary.report());
      REQUIRE(summary.converged());
      CHECK(summary.final_value - summary.lower_bound <= 0.5 * lambda * delta * delta);
      CHECK(summary.distance_bound <= delta);
      CHECK((x - reference).norm() <= delta + exact.distance_bound);
      CHECK(summary.to_json().at("distance_bound").get<double>() == summary.distance_bound);
      // Without it the same run stops earlier, farther from the minimizer than delta allows.
      Eigen::VectorXd loose = Eigen::VectorXd::Zero(20);
      const auto relative_only = minimize(f, loose, proximal_bundle_options(lambda, 1e-2, 5000));
      CHECK(relative_only.iterations < summary.iterations);
    }
  }
}

TEST_CASE("the argument tolerance alone, and impossible values, are validated", "[proximal_weight]") {
  QuadraticPlusL1 f(1.0, Eigen::VectorXd::Ones(3));
  OptimizerOptions options = proximal_bundle_options(1.0, 0.0, 200);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
  CHECK_THROWS_AS(minimize(f, x, options), mpg::Error);  // no stop test at all
  options.argument_tolerance = 1e-6;
  const auto summary = minimize(f, x, options);
  REQUIRE(summary.converged());
  CHECK((x - Eigen::VectorXd::Ones(3)).norm() <= 1e-6);
  options.argument_tolerance = -1.0;
  CHECK_THROWS_AS(minimize(f, x, options), mpg::Error);
  options.argument_tolerance = std::nan("");
  CHECK_THROWS_AS(minimize(f, x, options), mpg::Error);
}
