// The greedy DCG game solver (lib/metrics/dcg_greedy.cpp): its value equals the compact LP's on
// random games of up to 40 documents (both discounts, potentials from nearly pure to strongly
// mixed, and exact ties), its adversary marginals certify the value (gap <= 1e-9), and its
// permutation mixture reproduces the expected discounts and guarantees the value.
#include <catch2/catch.hpp>

#include <random>

#include "lib/metrics/dcg.hpp"
#include "tests/dcg_checks.hpp"

using mpg::DcgDiscount;
using mpg::DcgGame;
using Approx = Catch::Detail::Approx;

namespace {

Eigen::MatrixXd random_potentials(int n, int levels, double scale, double offset, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, scale);
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(n, levels);
  for (int j = 0; j < n; ++j)
    for (int s = 1; s < levels; ++s) psi(j, s) = offset * s + normal(rng);
  return psi;
}

// E_P[disc(rank of j)] of a mixture of permutations.
Eigen::VectorXd expected_discounts(const mpg::MixedStrategy<std::vector<int>>& p, const std::vector<double>& disc) {
  Eigen::VectorXd c = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(disc.size()));
  for (std::size_t a = 0; a < p.size(); ++a)
    for (std::size_t r = 0; r < disc.size(); ++r) c[p.actions[a][r]] += p.probabilities[a] * disc[r];
  return c;
}

void check_against_lp(const DcgGame& game) {
  const auto lp = mpg::solve_dcg_game(game);
  const auto greedy = mpg::solve_dcg_game_greedy(game);
  const int n = static_cast<int>(game.documents());
  CHECK(greedy.value == Approx(lp.value).margin(1e-7));
  CHECK(std::abs(greedy.gap) <= 1e-9 * std::max(1.0, std::abs(greedy.value)));
  check_equilibrium_shape(game, greedy);
  // The permutation mixture realizes c and guarantees the value against every labeling.
  CHECK(greedy.predictor.size() <= static_cast<std::size_t>(2 * n + 2));
  CHECK((expected_discounts(greedy.predictor, game.discounts()) - greedy.expected_discounts).lpNorm<Eigen::Infinity>() <= 1e-9);
  CHECK(game.adversary_best_response(greedy.predictor).value >= greedy.value - 1e-9);
}

}  // namespace

TEST_CASE("DCG greedy solver equals the compact LP on random games (n <= 40)", "[dcg_greedy]") {
  std::mt19937_64 rng(2026);
  for (int n : {1, 2, 3, 5, 8, 13, 21, 40})
    for (int trial = 0; trial < 6; ++trial) {
      const DcgDiscount discount = trial % 2 ? DcgDiscount::thesis : DcgDiscount::letor;
      // Offsets from "level 0 is cheap" (nearly pure) to potentials near gain x discount (mixed).
      const double scale = 0.1 * (1 + trial), offset = trial < 3 ? -0.5 : 0.4;
      INFO("n = " << n << ", trial " << trial);
      check_against_lp(DcgGame(random_potentials(n, 3, scale, offset, rng), discount));
    }
}

TEST_CASE("DCG greedy solver: ties in potentials and in discounts, more levels, one document", "[dcg_greedy]") {
  // Identical documents: every ordering is optimal; the value still matches the LP.
  check_against_lp(DcgGame(Eigen::MatrixXd::Constant(6, 3, 0.3), DcgDiscount::letor));
  Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(7, 3);
  check_against_lp(DcgGame(zero, DcgDiscount::thesis));
  // Duplicated rows of potentials.
  std::mt19937_64 rng(5);
  Eigen::MatrixXd psi = random_potentials(4, 3, 0.3, 0.2, rng);
  Eigen::MatrixXd twice(8, 3);
  twice << psi, psi;
  check_against_lp(DcgGame(twice, DcgDiscount::letor));
  // Five relevance levels.
  check_against_lp(DcgGame(random_potentials(12, 5, 0.5, 0.3, rng), DcgDiscount::letor));
  // One document: it takes position 1; the adversary plays its cheapest level.
  Eigen::MatrixXd one(1, 3);
  one << 0.0, 0.5, 4.0;
  const auto eq = mpg::solve_dcg_game_greedy(DcgGame(one, DcgDiscount::letor));
  CHECK(eq.value == Approx(std::min({0.0, 1.0 - 0.5, 3.0 - 4.0})));
  CHECK(eq.adversary_marginals(0, 2) == Approx(1.0));
}

TEST_CASE("Permutahedron decomposition of a hand-made point", "[dcg_greedy]") {
  // (1, 1, 1) with discounts (2, 1, 0) = 1/2 (2, 1, 0) + 1/2 (0, 1, 2).
  const std::vector<double> disc = {2.0, 1.0, 0.0};
  const auto p = mpg::decompose_permutahedron_point(Eigen::Vector3d(1.0, 1.0, 1.0), disc);
  REQUIRE(p.size() == 2);
  CHECK(p.probabilities[0] == Approx(0.5));
  CHECK(p.actions[0] == std::vector<int>{0, 1, 2});
  CHECK(p.actions[1] == std::vector<int>{2, 1, 0});
  // A vertex decomposes into itself.
  const auto v = mpg::decompose_permutahedron_point(Eigen::Vector3d(0.0, 2.0, 1.0), disc);
  REQUIRE(v.size() == 1);
  CHECK(v.actions[0] == std::vector<int>{1, 2, 0});
}
