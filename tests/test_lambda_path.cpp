// Lambda paths of the proximal bundle (OptimizerOptions::cut_store, lib/learn/optimizer.hpp) and
// of the linear-chain MPG (LinearChainMpgPath): cuts of R = f - lambda/2 ||theta||^2 collected for
// one lambda bound R for every lambda, so a path-trained model is certified like one trained from
// scratch. The oracle: a polyhedral R whose minimum a tight from-scratch run pins down.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "lib/learn/cut_model.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "tests/polyhedral_objective.hpp"

namespace {

// f(theta) = lambda/2 ||theta||^2 + R(theta),  R(theta) = sum_i max_k (A_ik . theta + b_ik) - g . theta
// (tests/polyhedral_objective.hpp): convex, piecewise linear, exactly computable (a sum of games in
// miniature); `terms` maxima of `pieces` affine functions, standard normal entries.
mpg::testing::SumOfMaxima polyhedral_objective(int dimension, int terms, int pieces, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  mpg::testing::SumOfMaxima f;
  for (int i = 0; i < terms; ++i) {
    Eigen::MatrixXd columns(dimension, pieces);  // one column per piece
    for (Eigen::Index k = 0; k < columns.size(); ++k) columns.data()[k] = normal(rng);
    f.slopes.emplace_back(columns.transpose());
    f.offsets.emplace_back(pieces);
    for (Eigen::Index k = 0; k < pieces; ++k) f.offsets.back()[k] = normal(rng);
  }
  f.gold = Eigen::VectorXd(dimension);
  for (Eigen::Index k = 0; k < dimension; ++k) f.gold[k] = normal(rng);
  return f;
}

mpg::OptimizerOptions bundle_options(double lambda, double tolerance) {
  return mpg::testing::proximal_bundle_options(lambda, tolerance, 5000);
}

const std::vector<double> kPath = {1.0, 0.25, 0.0625, 0.015625};

}  // namespace

TEST_CASE("Cuts kept along a lambda path stay below R at random points, whatever lambda they came from",
          "[lambda_path]") {
  auto objective = polyhedral_objective(6, 8, 5, 3);
  std::vector<mpg::Cut> store;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(6);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-20.0, 20.0);
  int checked = 0;
  for (const double lambda : kPath) {
    objective.lambda = lambda;
    mpg::OptimizerOptions o = bundle_options(lambda, 1e-8);
    o.cut_store = &store;
    const std::size_t inherited = store.size();
    const auto summary = mpg::minimize(objective, theta, o);
    REQUIRE(summary.converged());
    CHECK(summary.inherited_cuts == static_cast<int>(inherited));
    REQUIRE_FALSE(store.empty());
    for (const auto& cut : store)
      for (int trial = 0; trial < 50; ++trial) {
        Eigen::VectorXd at(6), g;
        for (Eigen::Index k = 0; k < 6; ++k) at[k] = u(rng);
        CHECK(cut.slope.dot(at) - cut.offset <= objective.data_term(at, g) + 1e-9 * (1.0 + at.norm()));
        ++checked;
      }
  }
  CHECK(checked > 0);
}

TEST_CASE("A path-trained minimum is certified within tolerance of the from-scratch minimum, in fewer iterations",
          "[lambda_path]") {
  auto objective = polyhedral_objective(6, 8, 5, 7);
  const double tolerance = 1e-6;
  std::vector<mpg::Cut> store;
  Eigen::VectorXd path_theta = Eigen::VectorXd::Zero(6);
  int path_iterations = 0, scratch_iterations = 0;
  for (const double lambda : kPath) {
    objective.lambda = lambda;
    // The true minimum, pinned from scratch to 1e-12: min f lies in [lower, value].
    Eigen::VectorXd tight_theta = Eigen::VectorXd::Zero(6);
    const auto tight = mpg::minimize(objective, tight_theta, bundle_options(lambda, 1e-12));
    REQUIRE(tight.converged());
    Eigen::VectorXd scratch_theta = Eigen::VectorXd::Zero(6);
    const auto scratch = mpg::minimize(objective, scratch_theta, bundle_options(lambda, tolerance));
    mpg::OptimizerOptions o = bundle_options(lambda, tolerance);
    o.cut_store = &store;
    const auto path = mpg::minimize(objective, path_theta, o);
    INFO("lambda " << lambda);
    REQUIRE(path.converged());
    const double scale = std::max(1.0, std::abs(tight.final_value));
    // An honest certificate: the path's lower bound is below the true minimum, its value above.
    CHECK(path.lower_bound <= tight.final_value + 1e-12 * scale);
    CHECK(path.final_value >= tight.lower_bound - 1e-12 * scale);
    CHECK(path.final_value - tight.final_value <= tolerance * scale);
    CHECK(std::abs(path.final_value - scratch.final_value) <= tolerance * scale);
    path_iterations += path.iterations;
    scratch_iterations += scratch.iterations;
  }
  CHECK(path_iterations < scratch_iterations);
}

TEST_CASE("An empty cut store from theta = 0 is the run without a store", "[lambda_path]") {
  auto objective = polyhedral_objective(5, 6, 4, 5);
  objective.lambda = 0.1;
  Eigen::VectorXd plain_theta = Eigen::VectorXd::Zero(5), store_theta = Eigen::VectorXd::Zero(5);
  const auto plain = mpg::minimize(objective, plain_theta, bundle_options(0.1, 1e-7));
  std::vector<mpg::Cut> store;
  mpg::OptimizerOptions o = bundle_options(0.1, 1e-7);
  o.cut_store = &store;
  const auto stored = mpg::minimize(objective, store_theta, o);
  CHECK(stored.iterations == plain.iterations);
  CHECK(stored.final_value == plain.final_value);
  CHECK(stored.lower_bound == plain.lower_bound);
  CHECK(stored.inherited_cuts == 0);
  CHECK(store_theta == plain_theta);
  CHECK_FALSE(store.empty());
  // A cut of another dimension is refused.
  store.push_back({Eigen::VectorXd::Zero(3), 0.0});
  CHECK_THROWS_WITH(mpg::minimize(objective, store_theta, o), Catch::Matchers::Contains("cut of another dimension"));
}

TEST_CASE("Linear-chain MPG along a lambda path: each model certified within tolerance of its from-scratch minimum",
          "[lambda_path]") {
  std::mt19937 rng(8);
  std::vector<mpg::FeaturizedSentence> sentences;
  std::uniform_int_distribution<int> label(0, 2), noise(0, 9);
  for (int i = 0; i < 12; ++i) {
    mpg::FeaturizedSentence s;
    for (int t = 0, T = 1 + i % 4; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      // The label's own feature, and a noisy one, so that small lambdas matter.
      s.features.push_back({static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(3 + noise(rng) % 3)});
    }
    sentences.push_back(s);
  }
  const mpg::ChainLayout layout{6, 3};
  mpg::LinearChainMpgOptions options;
  options.target = 1;
  options.objective_tolerance = 1e-6;
  options.game_tolerance = 1e-9;
  options.max_iterations = 2000;
  options.instance_planes = false;  // the path warm-starts the proximal bundle (cutting_plane)
  const std::vector<double> lambdas = {0.0625, 1.0, 0.25};  // trained 1, 0.25, 0.0625
  const auto path = mpg::train_linear_chain_mpg_path(sentences, layout, options, lambdas);
  REQUIRE(path.size() == lambdas.size());
  for (std::size_t i = 0; i < lambdas.size(); ++i) {
    options.lambda = lambdas[i];
    const auto scratch = mpg::train_linear_chain_mpg(sentences, layout, options);
    const auto& p = path[i].summary.optimizer;
    const auto& s = scratch.summary.optimizer;
    INFO("lambda " << lambdas[i]);
    REQUIRE(p.converged());
    REQUIRE(s.converged());
    if (lambdas[i] == 1.0)
      CHECK(p.inherited_cuts == 0);
    else
      CHECK(p.inherited_cuts > 0);
    const double scale = std::max(1.0, std::abs(s.final_value));
    // Both certified within 1e-6 of the same minimum: each value above the other's lower bound.
    CHECK(p.final_value >= s.lower_bound - 1e-9 * scale);
    CHECK(s.final_value >= p.lower_bound - 1e-9 * scale);
    CHECK(std::abs(p.final_value - s.final_value) <= 1e-6 * scale);
    CHECK(path[i].theta.size() == static_cast<Eigen::Index>(layout.size()));
  }
  // The largest lambda is trained first, from theta = 0 and no cuts: exactly the training from scratch.
  options.lambda = 1.0;
  CHECK(mpg::train_linear_chain_mpg(sentences, layout, options).theta == path[1].theta);
  options.optimizer = mpg::OptimizerKind::lbfgs;
  CHECK_THROWS_WITH(mpg::train_linear_chain_mpg_path(sentences, layout, options, lambdas),
                    Catch::Matchers::Contains("cutting-plane"));
}
