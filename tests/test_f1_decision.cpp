// The F1 decision rule that no solver can change (lib/metrics/f1_decision): the maximin pure
// action against brute force over all 2^n x 2^n actions (random, tied, equal and negative
// potentials), the pruned search against every size evaluated, and one decision from every
// solver and setting (double oracle, windows of 1 and 64 ranks, segments, auto) where their
// equilibria, and likeliest actions, differ.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <set>

#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/f1_decision.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "tests/brute_force.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {
// g(a) = min over all 2^n labellings y of F1(a, y) - psi(y).
double brute_force_guarantee(const BinaryAction& a, const std::vector<double>& psi) {
  double worst = INFINITY;
  for (const auto& y : all_binary_actions(psi.size())) worst = std::min(worst, f1_score(a, y) - sum_over(y, psi));
  return worst;
}

std::vector<double> ranked(std::vector<double> psi) {
  std::sort(psi.begin(), psi.end(), std::greater<double>());
  return psi;
}

std::vector<double> draw_potentials(std::mt19937& rng, std::size_t n, int kind) {
  std::uniform_real_distribution<double> draw(-0.6, 0.6);
  std::vector<double> psi(n);
  for (double& x : psi) {
    x = draw(rng);
    if (kind == 1) x *= 0.01;                     // small: the adversary mixes widely
    if (kind == 2) x = std::round(4.0 * x) / 8.0; // rounded: ties
    if (kind == 3) x = 0.05;                      // all equal
    if (kind == 4) x = -std::abs(x);              // no positive potential
  }
  return psi;
}
}  // namespace

TEST_CASE("F1 decision: the maximin action equals brute force over all actions for n <= 7", "[f1_decision]") {
  std::mt19937 rng(2511);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial % 7);
    const auto psi = draw_potentials(rng, n, trial % 5);
    INFO("trial " << trial << ", n = " << n);
    // The best guarantee over all 2^n actions, and the smallest size attaining it.
    double best = -INFINITY;
    std::size_t best_size = n + 1;
    for (const auto& a : all_binary_actions(n)) {
      const double g = brute_force_guarantee(a, psi);
      if (g > best + 1e-12) {
        best = g;
        best_size = a.size();
      } else if (g > best - 1e-12) {
        best_size = std::min(best_size, a.size());
      }
    }
    const F1Decision decision = f1_maximin_decision(psi);
    CHECK(decision.guarantee == Approx(best).margin(1e-12));
    CHECK(static_cast<std::size_t>(decision.size) == best_size);
    CHECK(decision.action.size() == best_size);
    CHECK(brute_force_guarantee(decision.action, psi) == Approx(best).margin(1e-12));
    // The guarantee of each top k (the adversary's reply through the top j and the top m).
    for (long k = 0; k <= static_cast<long>(n); ++k) {
      std::vector<std::uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::sort(order.begin(), order.end(), [&](auto a, auto b) { return psi[a] > psi[b] || (psi[a] == psi[b] && a < b); });
      BinaryAction top(order.begin(), order.begin() + k);
      std::sort(top.begin(), top.end());
      CHECK(f1_top_k_guarantee(ranked(psi), k) == Approx(brute_force_guarantee(top, psi)).margin(1e-12));
    }
  }
}

TEST_CASE("F1 decision: the pruned search equals every size evaluated", "[f1_decision]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t n = 150 + 40 * static_cast<std::size_t>(trial);
    const double scale = trial % 3 == 0 ? 1e-3 : trial % 3 == 1 ? 0.02 : 0.3;
    std::normal_distribution<double> normal(-0.2 * scale, scale);
    std::vector<double> psi(n);
    for (double& x : psi) x = trial == 5 ? std::round(normal(rng) / scale) * scale : normal(rng);
    INFO("trial " << trial << ", n = " << n);
    const auto r = ranked(psi);
    double best = -INFINITY;
    long best_size = -1;
    for (long k = 0; k <= static_cast<long>(n); ++k) {
      const double g = f1_top_k_guarantee(r, k);
      if (g > best) {
        best = g;
        best_size = k;
      }
    }
    const F1Decision decision = f1_maximin_decision(psi);
    CHECK(decision.size == best_size);
    CHECK(decision.guarantee == best);
    CHECK(decision.sizes_evaluated <= static_cast<long>(n) + 1);
  }
  // theta = 0: every nonempty action guarantees 0, so does the empty one: the smallest size wins.
  const F1Decision zero = f1_maximin_decision(std::vector<double>(30000, 0.0));
  CHECK(zero.size == 0);
  CHECK(zero.guarantee == 0.0);
  CHECK(zero.sizes_evaluated <= 2);
}

TEST_CASE("F1 decision: permuting the examples permutes the decision", "[f1_decision]") {
  const std::vector<double> psi{0.05, -0.1, 0.2, 0.07, -0.3, 0.0, 0.12, 0.01};
  std::vector<std::size_t> perm{3, 7, 0, 5, 1, 6, 2, 4};
  std::vector<double> permuted(psi.size());
  for (std::size_t i = 0; i < psi.size(); ++i) permuted[i] = psi[perm[i]];
  const F1Decision a = f1_maximin_decision(psi), b = f1_maximin_decision(permuted);
  CHECK(a.guarantee == b.guarantee);
  std::set<std::size_t> mapped;
  for (auto i : b.action) mapped.insert(perm[i]);
  CHECK(mapped == std::set<std::size_t>(a.action.begin(), a.action.end()));
}

TEST_CASE("F1 decision: every solver and setting gives one decision", "[f1_decision]") {
  // The games: random potentials, tied ones, and equal ones (where the predictor's optimal
  // strategies are far from unique: any strategy mixing sizes over uniformly random subsets, and
  // many others, and the solvers land on different ones).
  std::mt19937 rng(25);
  BinaryPredictOptions settings[5];
  settings[0].solver = BinaryGameSolver::double_oracle;
  for (int s = 1; s < 5; ++s) settings[s].solver = BinaryGameSolver::marginals;
  settings[1].marginals.algorithm = MarginalAlgorithm::windows;
  settings[1].marginals.window = 1;
  settings[2].marginals.algorithm = MarginalAlgorithm::windows;
  settings[3].marginals.algorithm = MarginalAlgorithm::segments;
  settings[4].marginals.algorithm = MarginalAlgorithm::automatic;
  for (auto& s : settings) {
    s.double_oracle.tolerance = 1e-9;
    s.marginals.tolerance = 1e-9;
  }
  int differing_likeliest = 0;
  for (int trial = 0; trial < 9; ++trial) {
    const std::size_t n = 6 + static_cast<std::size_t>(trial);
    const auto psi = draw_potentials(rng, n, trial % 3 == 0 ? 3 : trial % 3 == 1 ? 2 : 0);
    std::vector<std::vector<double>> rows;
    std::vector<int> labels;
    for (std::size_t i = 0; i < n; ++i) {
      rows.push_back({psi[i]});
      labels.push_back(static_cast<int>(i % 2));
    }
    const BinaryProblem problem = make_problem(rows, labels);
    Eigen::VectorXd theta(2);
    theta << 1.0, 0.0;  // psi = x
    const BinaryModel model = BinaryModel::trained(f1_settings(), 0.0, theta);
    INFO("trial " << trial << ", n = " << n);
    std::set<BinaryAction> likeliest;
    const BinaryPrediction first = predict_binary_mpg(model, problem, settings[0]);
    CHECK(first.decision == DecisionRule::maximin);
    CHECK(first.action == f1_maximin_decision(psi).action);
    for (const auto& s : settings) {
      const BinaryPrediction prediction = predict_binary_mpg(model, problem, s);
      CHECK(prediction.game.converged());
      CHECK(prediction.action == first.action);
      CHECK(prediction.score == first.score);
      likeliest.insert(prediction.likeliest_action);
      // The papers' rule through the same solver: its likeliest action.
      BinaryPredictOptions papers = s;
      papers.decision = DecisionRule::likeliest;
      const BinaryPrediction by_likeliest = predict_binary_mpg(model, problem, papers);
      CHECK(by_likeliest.decision == DecisionRule::likeliest);
      CHECK(by_likeliest.action == by_likeliest.likeliest_action);
    }
    differing_likeliest += likeliest.size() > 1;
  }
  // The rule is needed: on some of these games the solvers' likeliest actions differ.
  CHECK(differing_likeliest > 0);
}

TEST_CASE("F1 decision rejects bad input", "[f1_decision]") {
  CHECK_THROWS_AS(f1_maximin_decision({}), Error);
  CHECK_THROWS_AS(f1_maximin_decision({0.1, NAN}), Error);
  CHECK_THROWS_AS(f1_top_k_guarantee({0.2, 0.1}, 3), Error);
  CHECK(parse_decision_rule("likeliest") == DecisionRule::likeliest);
  CHECK(to_string(DecisionRule::maximin) == "maximin");
  CHECK_THROWS_AS(parse_decision_rule("mode"), Error);
}
