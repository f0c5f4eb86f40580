#include "baselines/svm_rank.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"
#include "lib/eval/comparison.hpp"

namespace mpg {

SvmRankVariant parse_svm_rank_variant(const std::string& name) {
  if (name == "rank") return SvmRankVariant::rank;
  if (name == "rank2") return SvmRankVariant::rank2;
  throw Error("unknown SVMrank variant '" + name + "' (expected rank or rank2)");
}

std::string to_string(SvmRankVariant variant) { return variant == SvmRankVariant::rank ? "rank" : "rank2"; }

namespace {

// The ranking pairs (a_k, b_k) of the QP, each asking r(b_k) - r(a_k) >= 1 - xi_k, with cost C_k.
struct RankingPairs {
  Eigen::MatrixXd worse, better;
  std::vector<double> cost;  // multiples of C
};

RankingPairs ranking_pairs(const PairData& pairs, SvmRankVariant variant) {
  std::vector<std::pair<std::size_t, bool>> chosen;  // (pair, swapped)
  std::vector<double> cost;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const int y = pairs.labels[i];
    if (y != 0) {
      chosen.emplace_back(i, y == -1);
      cost.push_back(variant == SvmRankVariant::rank2 ? 2.0 : 1.0);
    } else if (variant == SvmRankVariant::rank2) {
      chosen.emplace_back(i, false);
      cost.push_back(1.0);
      chosen.emplace_back(i, true);
      cost.push_back(1.0);
    }
  }
  RankingPairs out;
  out.worse.resize(static_cast<long>(chosen.size()), pairs.features());
  out.better.resize(static_cast<long>(chosen.size()), pairs.features());
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const auto [i, swapped] = chosen[k];
    const auto r = static_cast<long>(i), row = static_cast<long>(k);
    out.worse.row(row) = swapped ? pairs.second.row(r) : pairs.first.row(r);
    out.better.row(row) = swapped ? pairs.first.row(r) : pairs.second.row(r);
  }
  out.cost = std::move(cost);
  return out;
}

}  // namespace

SvmRankProblem prepare_svm_rank(const PairData& training, SvmRankVariant variant, const Kernel& kernel, bool standardize) {
  training.validate("train_svm_rank");
  kernel.validate();
  if (training.count(0) == training.size() && variant == SvmRankVariant::rank)
    throw Error("train_svm_rank: rank needs inequality pairs (y = +-1); the training pairs have none");
  SvmRankProblem problem;
  problem.variant = variant;
  problem.kernel = kernel;
  problem.training = training;
  problem.standardizer = standardize ? PairStandardizer::fit(training) : PairStandardizer::identity(training.features());
  RankingPairs pairs = ranking_pairs(problem.standardizer.apply(training), variant);
  problem.worse = std::move(pairs.worse);
  problem.better = std::move(pairs.better);
  problem.cost_multiple = std::move(pairs.cost);
  problem.kernel_matrix = pair_kernel_matrix(kernel, problem.worse, problem.better);
  return problem;
}

ComparisonModel train_svm_rank(const PairData& training, const SvmRankOptions& options, SvmRankSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  const SvmRankProblem problem = prepare_svm_rank(training, options.variant, options.kernel, options.standardize);
  ComparisonModel model = train_svm_rank(problem, options, summary);
  if (summary) summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return model;
}

ComparisonModel train_svm_rank(const SvmRankProblem& problem, const SvmRankOptions& options, SvmRankSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  if (!(options.C > 0.0 && std::isfinite(options.C)))
    throw Error("train_svm_rank: C = " + std::to_string(options.C) + " must be positive and finite");
  if (!(options.tolerance > 0.0) || options.max_sweeps < 1)
    throw Error("train_svm_rank: tolerance must be positive and max_sweeps >= 1");
  const PairData& training = problem.training;
  ComparisonModel model;
  model.kernel = problem.kernel;
  model.standardizer = problem.standardizer;
  const Eigen::MatrixXd& q = problem.kernel_matrix;
  const long m = q.rows();
  std::vector<double> cap(problem.cost_multiple.size());
  for (std::size_t k = 0; k < cap.size(); ++k) cap[k] = options.C * problem.cost_multiple[k];

  // Coordinate descent on D(v) = 1/2 v^T Q v - sum v over the box; gradient g = Q v - 1.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m), gradient = -Eigen::VectorXd::Ones(m);
  SvmRankSummary result;
  result.ranking_pairs = static_cast<std::size_t>(m);
  auto projected = [&](long i) {
    if (v(i) <= 0.0) return std::min(gradient(i), 0.0);
    if (v(i) >= cap[static_cast<std::size_t>(i)]) return std::max(gradient(i), 0.0);
    return gradient(i);
  };
  for (; result.sweeps < options.max_sweeps; ++result.sweeps) {
    double violation = 0.0;
    for (long i = 0; i < m; ++i) {
      const double pg = projected(i);
      violation = std::max(violation, std::abs(pg));
      if (pg == 0.0 || !(q(i, i) > 0.0)) continue;
      const double next = std::clamp(v(i) - gradient(i) / q(i, i), 0.0, cap[static_cast<std::size_t>(i)]);
      const double step = next - v(i);
      if (step == 0.0) continue;
      v(i) = next;
      gradient += step * q.col(i);
    }
    if (violation <= options.tolerance) {
      result.converged = true;
      break;
    }
  }
  result.max_violation = 0.0;
  for (long i = 0; i < m; ++i) result.max_violation = std::max(result.max_violation, std::abs(projected(i)));
  result.dual_objective = 0.5 * v.dot((gradient.array() + 1.0).matrix()) - v.sum();  // Q v = g + 1

  // r(x) = sum_k v_k [k(b_k, x) - k(a_k, x)].
  std::vector<long> support;
  for (long i = 0; i < m; ++i)
    if (v(i) > 0.0) support.push_back(i);
  result.support_vectors = support.size();
  model.points.resize(2 * static_cast<long>(support.size()), problem.worse.cols());
  model.coefficients.resize(2 * static_cast<long>(support.size()));
  for (std::size_t k = 0; k < support.size(); ++k) {
    const long i = support[k], row = 2 * static_cast<long>(k);
    model.points.row(row) = problem.better.row(i);
    model.points.row(row + 1) = problem.worse.row(i);
    model.coefficients(row) = v(i);
    model.coefficients(row + 1) = -v(i);
  }
  // tau-hat of Eq. (6) on all training pairs.
  model.threshold = best_comparison_threshold(model.differences(training), training.labels, &result.training_errors);
  result.threshold = model.threshold;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (summary) *summary = result;
  return model;
}

}  // namespace mpg
