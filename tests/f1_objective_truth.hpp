// The F1-MPG training objective by brute force, the truth the certified trainers are tested
// against: F(theta) over the full 2^n x 2^n game solved by LP, and its minimum over one weight and
// the bias by nested golden-section searches.
#pragma once

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "tests/brute_force.hpp"
#include "tests/problems.hpp"

namespace mpg::testing {

// F(theta) = lambda/2 ||theta||^2 - theta . Phi_gold - v(theta), v the value of the full
// 2^n x 2^n game (payoff F1(y_hat, y_check) - psi . y_check) solved by LP: the brute-force truth.
struct FullGameObjective {
  const BinaryProblem& problem;
  double lambda;
  std::vector<BinaryAction> actions = all_binary_actions(problem.labels.size());
  Eigen::MatrixXd scores = [this] {
    Eigen::MatrixXd s(static_cast<Eigen::Index>(actions.size()), static_cast<Eigen::Index>(actions.size()));
    for (std::size_t r = 0; r < actions.size(); ++r)
      for (std::size_t c = 0; c < actions.size(); ++c)
        s(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = f1_score(actions[r], actions[c]);
    return s;
  }();
  Eigen::VectorXd gold = features_of(problem.features, positives_of(problem.labels));

  double operator()(const Eigen::VectorXd& theta) const {
    const Eigen::VectorXd psi = problem.features * theta;
    Eigen::MatrixXd payoff = scores;
    for (std::size_t c = 0; c < actions.size(); ++c) {
      double potential = 0.0;
      for (auto i : actions[c]) potential += psi[static_cast<Eigen::Index>(i)];
      payoff.col(static_cast<Eigen::Index>(c)).array() -= potential;
    }
    const double value = solve_matrix_game(payoff, default_lp_backend()).value;
    return 0.5 * lambda * theta.squaredNorm() - theta.dot(gold) - value;
  }
};

// min F over (weight, bias) of a one-feature problem, by nested golden-section searches on
// [-6, 6]^2 (F is convex): accurate to about 1e-6.
inline double brute_force_minimum(const FullGameObjective& full) {
  auto golden = [](auto f, double low, double high, int steps) {
    const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
    double a = high - ratio * (high - low), b = low + ratio * (high - low), fa = f(a), fb = f(b);
    for (int s = 0; s < steps; ++s) {
      if (fa <= fb) {
        high = b, b = a, fb = fa, a = high - ratio * (high - low), fa = f(a);
      } else {
        low = a, a = b, fa = fb, b = low + ratio * (high - low), fb = f(b);
      }
    }
    return std::min(fa, fb);
  };
  return golden([&](double w) { return golden([&](double bias) { return full(Eigen::Vector2d(w, bias)); }, -6.0, 6.0, 40); },
                -6.0, 6.0, 40);
}

// For three tiny one-feature problems (lambda 0.05, 0.5, 0.5): the certified trainer `train`
// (problem, lambda, tolerance 1e-7, summary*) -> model converges, F at its model lies inside its
// interval, and the interval reaches the brute-force minimum.
template <class Summary, class Train>
void check_certificate_brackets_brute_force(Train train) {
  std::mt19937 rng(2025);
  for (int trial = 0; trial < 3; ++trial) {
    const BinaryProblem problem = random_problem(6, 1, rng);
    const double lambda = trial == 0 ? 0.05 : 0.5;
    INFO("trial " << trial << " lambda " << lambda);
    Summary summary;
    const BinaryModel model = train(problem, lambda, 1e-7, &summary);
    INFO(summary.report());
    REQUIRE(summary.converged());
    REQUIRE(summary.gap <= 1e-7);
    const FullGameObjective full{problem, lambda};
    const double at_model = full(model.theta);
    CHECK(at_model <= summary.objective + 1e-9);
    CHECK(at_model >= summary.lower_bound - 1e-9);
    const double brute = brute_force_minimum(full);
    CHECK(summary.lower_bound <= brute + 1e-9);
    CHECK(summary.objective <= brute + 1e-7 + 1e-6);  // the search's own inaccuracy: ~1e-6
  }
}

}  // namespace mpg::testing
