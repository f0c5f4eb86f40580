#include "lib/diversity/weighted_als.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// The observed entries of each row as (column, value) pairs.
using Lists = std::vector<std::vector<std::pair<int, double>>>;

// Exact ridge solve of every row of `solved` against the fixed factors:
// x_r = (sum_{(c, v) in lists[r]} f_c f_c^T + lambda I)^{-1} sum v f_c.
void solve_rows(const Lists& lists, const Eigen::MatrixXd& fixed, double lambda, Eigen::MatrixXd& solved) {
  const Eigen::Index z = fixed.cols();
  Eigen::MatrixXd gram(z, z);
  Eigen::VectorXd target(z);
  for (std::size_t r = 0; r < lists.size(); ++r) {
    gram.setZero();
    target.setZero();
    for (const auto& [c, v] : lists[r]) {
      const auto f = fixed.row(c).transpose();
      gram.selfadjointView<Eigen::Lower>().rankUpdate(f);
      target += v * f;
    }
    gram.diagonal().array() += lambda;
    solved.row(static_cast<Eigen::Index>(r)) = gram.selfadjointView<Eigen::Lower>().llt().solve(target).transpose();
  }
}

}  // namespace

double weighted_als_objective(const FactorModel& model, const std::vector<Eigen::Triplet<double>>& ratings,
                              double lambda) {
  double loss = 0.0;
  for (const auto& t : ratings) {
    const double e = t.value() - model.predict(t.row(), t.col());
    loss += e * e;
  }
  return loss + lambda * (model.user_factors.squaredNorm() + model.item_factors.squaredNorm());
}

WeightedAlsResult train_weighted_als(int users, int items, const std::vector<Eigen::Triplet<double>>& ratings,
                                     const WeightedAlsOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  options.validate();
  if (users < 0 || items < 0) throw Error("weighted ALS: negative matrix size");
  Lists by_user(static_cast<std::size_t>(users)), by_item(static_cast<std::size_t>(items));
  for (const auto& t : ratings) {
    if (t.row() < 0 || t.row() >= users || t.col() < 0 || t.col() >= items)
      throw Error(fmt::format("weighted ALS: entry ({}, {}) outside the {} x {} matrix", t.row(), t.col(), users, items));
    if (!std::isfinite(t.value())) throw Error(fmt::format("weighted ALS: entry ({}, {}) is not finite", t.row(), t.col()));
    by_user[static_cast<std::size_t>(t.row())].emplace_back(t.col(), t.value());
    by_item[static_cast<std::size_t>(t.col())].emplace_back(t.row(), t.value());
  }
  // Sorted lists make the sums independent of the input order.
  for (auto* lists : {&by_user, &by_item})
    for (auto& list : *lists) {
      std::sort(list.begin(), list.end());
      for (std::size_t i = 1; i < list.size(); ++i)
        if (list[i].first == list[i - 1].first) throw Error("weighted ALS: an entry is given twice");
    }

  WeightedAlsResult result;
  FactorModel& model = result.model;
  std::mt19937_64 engine(options.seed);
  model.user_factors.resize(users, options.rank);
  model.item_factors.resize(items, options.rank);
  // Uniform in [-init_scale, init_scale) from the top 53 bits (the same stream on every platform).
  for (Eigen::Index j = 0; j < model.item_factors.size(); ++j)
    model.item_factors.data()[j] = options.init_scale * (2.0 * std::ldexp(static_cast<double>(engine() >> 11), -53) - 1.0);
  model.user_factors.setZero();  // the first half-step solves P from Q

  WeightedAlsSummary& summary = result.summary;
  double previous = std::numeric_limits<double>::infinity();
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    solve_rows(by_user, model.item_factors, options.lambda, model.user_factors);
    solve_rows(by_item, model.user_factors, options.lambda, model.item_factors);
    const double objective = weighted_als_objective(model, ratings, options.lambda);
    summary.history.push_back(objective);
    summary.iterations = sweep;
    summary.objective = objective;
    if (previous - objective <= options.tolerance * objective) {
      summary.converged = true;
      break;
    }
    previous = objective;
  }
  double squared = 0.0;
  for (const auto& t : ratings) squared += std::pow(t.value() - model.predict(t.row(), t.col()), 2);
  summary.rmse = ratings.empty() ? 0.0 : std::sqrt(squared / static_cast<double>(ratings.size()));
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mpg
