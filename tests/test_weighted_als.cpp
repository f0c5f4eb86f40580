// Tests of weighted ALS (lib/diversity/weighted_als): the objective never increases, each half-step
// is the exact ridge minimizer (zero gradient), a fully observed low-rank matrix is recovered,
// and the result does not depend on the order of the entries.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "lib/base/error.hpp"
#include "lib/diversity/weighted_als.hpp"

namespace {

// A users x items matrix of rank `rank` with `share` of its entries observed.
std::vector<Eigen::Triplet<double>> low_rank_entries(int users, int items, int rank, double share, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Eigen::MatrixXd a = Eigen::MatrixXd::NullaryExpr(users, rank, [&] { return unit(rng); });
  const Eigen::MatrixXd b = Eigen::MatrixXd::NullaryExpr(rank, items, [&] { return unit(rng); });
  const Eigen::MatrixXd full = a * b;
  std::vector<Eigen::Triplet<double>> entries;
  for (int u = 0; u < users; ++u)
    for (int i = 0; i < items; ++i)
      if (unit(rng) < share) entries.emplace_back(u, i, full(u, i));
  return entries;
}

}  // namespace

TEST_CASE("Weighted ALS: monotone objective, exact half-steps, recovery of a low-rank matrix", "[weighted_als]") {
  const auto entries = low_rank_entries(30, 25, 3, 1.0, 4);
  mpg::WeightedAlsOptions options;
  options.rank = 3;
  options.lambda = 1e-8;
  options.max_iterations = 300;
  options.tolerance = 1e-14;
  const auto result = mpg::train_weighted_als(30, 25, entries, options);
  const auto& history = result.summary.history;
  REQUIRE(!history.empty());
  for (std::size_t i = 1; i < history.size(); ++i) CHECK(history[i] <= history[i - 1] * (1.0 + 1e-12));
  CHECK(result.summary.objective == Approx(mpg::weighted_als_objective(result.model, entries, options.lambda)));
  CHECK(result.summary.rmse < 1e-3);

  // After a sweep Q solves its ridge problems exactly: dJ/dq_j = -2 sum_u e_uj p_u + 2 lambda q_j = 0.
  const auto sparse = low_rank_entries(20, 15, 2, 0.5, 7);
  mpg::WeightedAlsOptions two;
  two.rank = 4;
  two.lambda = 0.01;
  two.max_iterations = 3;
  const auto fit = mpg::train_weighted_als(20, 15, sparse, two);
  Eigen::MatrixXd gradient = 2.0 * two.lambda * fit.model.item_factors;
  for (const auto& t : sparse) {
    const double e = t.value() - fit.model.predict(t.row(), t.col());
    gradient.row(t.col()) -= 2.0 * e * fit.model.user_factors.row(t.row());
  }
  CHECK(gradient.cwiseAbs().maxCoeff() < 1e-9);
  CHECK(fit.summary.iterations == 3);
  CHECK(!fit.summary.converged);
}

TEST_CASE("Weighted ALS is deterministic and ignores the order of the entries", "[weighted_als]") {
  auto entries = low_rank_entries(25, 20, 3, 0.4, 11);
  mpg::WeightedAlsOptions options;
  options.rank = 5;
  options.max_iterations = 10;
  const auto first = mpg::train_weighted_als(25, 20, entries, options);
  std::reverse(entries.begin(), entries.end());
  const auto second = mpg::train_weighted_als(25, 20, entries, options);
  CHECK(first.model.item_factors == second.model.item_factors);
  CHECK(first.model.user_factors == second.model.user_factors);
  options.seed = 2;
  CHECK(mpg::train_weighted_als(25, 20, entries, options).model.item_factors != first.model.item_factors);
  // A user or item without entries gets a zero factor.
  const auto lonely = mpg::train_weighted_als(26, 21, entries, options);
  CHECK(lonely.model.user_factors.row(25).norm() == 0.0);
  CHECK(lonely.model.item_factors.row(20).norm() == 0.0);
}

TEST_CASE("Weighted ALS rejects impossible input", "[weighted_als]") {
  const std::vector<Eigen::Triplet<double>> entries = {{0, 0, 5.0}, {1, 1, 3.0}};
  mpg::WeightedAlsOptions options;
  CHECK_THROWS_AS(mpg::train_weighted_als(1, 2, entries, options), mpg::Error);
  CHECK_THROWS_AS(mpg::train_weighted_als(2, 2, {{0, 0, 5.0}, {0, 0, 4.0}}, options), mpg::Error);
  CHECK_THROWS_AS(mpg::train_weighted_als(2, 2, {{0, 0, std::nan("")}}, options), mpg::Error);
  options.rank = 0;
  CHECK_THROWS_AS(mpg::train_weighted_als(2, 2, entries, options), mpg::Error);
  options.rank = 2;
  options.lambda = 0.0;
  CHECK_THROWS_AS(mpg::train_weighted_als(2, 2, entries, options), mpg::Error);
}
