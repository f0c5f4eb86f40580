#include "baselines/svm_rank.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"
#include "lib/metrics/comparison.hpp"

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
  std::vector<double> cost;
};

RankingPairs ranking_pairs(const PairData& pairs, SvmRankVariant variant, double C) {
  std::vector<std::pair<std::size_t, bool>> chosen;  // (pair, swapped)
  std::vector<double> cost;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const int y = pairs.labels[i];
    if (y != 0) {
      chosen.emplace_back(i, y == -1);
      cost.push_back(variant == SvmRankVariant::rank2 ? 2.0 * C : C);
    } else if (variant == SvmRankVariant::rank2) {
      chosen.emplace_back(i, false);
      cost.push_back(C);
      chosen.emplace_back(i, true);
      cost.push_back(C);
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

ComparisonModel train_svm_rank(const PairData& training, const SvmRankOptions& options, SvmRankSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  training.validate("train_svm_rank");
  options.kernel.validate();
  if (!(options.C > 0.0 && std::isfinite(options.C)))
    throw Error("train_svm_rank: C = " + std::to_string(options.C) + " must be positive and finite");
  if (!(options.tolerance > 0.0) || options.max_sweeps < 1)
    throw Error("train_svm_rank: tolerance must be positive and max_sweeps >= 1");
  if (training.count(0) == training.size() && options.variant == SvmRankVariant::rank)
    throw Error("train_svm_rank: rank needs inequality pairs (y = +-1); the training pairs have none");

  ComparisonModel model;
  model.kernel = options.kernel;
  model.standardizer = options.standardize ? PairStandardizer::fit(training)
                                           : PairStandardizer::identity(training.features());
  const PairData standardized = model.standardizer.apply(training);
  const RankingPairs qp = ranking_pairs(standardized, options.variant, options.C);
  const Eigen::MatrixXd q = pair_kernel_matrix(options.kernel, qp.worse, qp.better);
  const long m = q.rows();

  // Coordinate descent on D(v) = 1/2 v^T Q v - sum v over the box; gradient g = Q v - 1.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(m), gradient = -Eigen::VectorXd::Ones(m);
  SvmRankSummary result;
  result.ranking_pairs = static_cast<std::size_t>(m);
  auto projected = [&](long i) {
    const double cap = qp.cost[static_cast<std::size_t>(i)];
    if (v(i) <= 0.0) return std::min(gradient(i), 0.0);
    if (v(i) >= cap) return std::max(gradient(i), 0.0);
    return gradient(i);
  };
  for (; result.sweeps < options.max_sweeps; ++result.sweeps) {
    double violation = 0.0;
    for (long i = 0; i < m; ++i) {
      const double pg = projected(i);
      violation = std::max(violation, std::abs(pg));
      if (pg == 0.0 || !(q(i, i) > 0.0)) continue;
      const double next = std::clamp(v(i) - gradient(i) / q(i, i), 0.0, qp.cost[static_cast<std::size_t>(i)]);
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
  model.points.resize(2 * static_cast<long>(support.size()), qp.worse.cols());
  model.coefficients.resize(2 * static_cast<long>(support.size()));
  for (std::size_t k = 0; k < support.size(); ++k) {
    const long i = support[k], row = 2 * static_cast<long>(k);
    model.points.row(row) = qp.better.row(i);
    model.points.row(row + 1) = qp.worse.row(i);
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
