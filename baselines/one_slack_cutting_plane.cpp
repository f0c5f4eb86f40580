// 1-slack cutting planes (baselines/one_slack_cutting_plane.hpp).
#include "baselines/one_slack_cutting_plane.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "baselines/simplex_qp_active_set.hpp"
#include "lib/base/error.hpp"

namespace mpg {

namespace {

// Working-set QP (solved exactly by the active-set method): KKT tolerance relative to epsilon,
// and a cap on active-set iterations per solve.
constexpr double kQpTolerance = 1e-3;
constexpr int kQpIterations = 20000;

}  // namespace

Eigen::VectorXd train_one_slack(Eigen::Index dimension, const OneSlackOptions& options,
                                const std::function<OneSlackConstraint(const Eigen::VectorXd&)>& oracle,
                                OneSlackSummary* summary) {
  const auto start_time = std::chrono::steady_clock::now();
  const double W = options.slack_weight;
  if (!(W > 0.0) || !std::isfinite(W))
    throw Error(fmt::format("1-slack cutting plane: the slack weight must be finite and > 0; got {:g}", W));
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon))
    throw Error(fmt::format("1-slack cutting plane: epsilon must be finite and > 0; got {:g}", options.epsilon));
  if (options.max_iterations < 1) throw Error("1-slack cutting plane: max_iterations must be >= 1");

  // Working set: constraint c is w . g_c >= l_c - xi; c = 0 is g = 0, l = 0 (xi >= 0). With Gram
  // matrix G and alpha = W beta, the dual is W * min_{beta in simplex} 1/2 beta^T (W G) beta - l . beta
  // (times -1), and w = W sum_c beta_c g_c.
  std::vector<Eigen::VectorXd> cuts{Eigen::VectorXd::Zero(dimension)};
  std::vector<double> losses{0.0};
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(64, 64);  // top-left corner used; capacity doubles
  Eigen::VectorXd beta = Eigen::VectorXd::Ones(1);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(dimension);
  double dual = 0.0;

  OneSlackSummary result;
  for (;;) {
    OneSlackConstraint worst = oracle(w);
    if (worst.direction.size() != dimension)
      throw Error(fmt::format("1-slack cutting plane: the oracle returned {} coordinates for {} dimensions",
                              worst.direction.size(), dimension));
    const double slack = std::max(0.0, worst.loss - w.dot(worst.direction));
    double working_slack = 0.0;
    for (std::size_t c = 0; c < cuts.size(); ++c) working_slack = std::max(working_slack, losses[c] - w.dot(cuts[c]));
    result.objective = 0.5 * w.squaredNorm() + W * slack;
    result.dual_objective = dual;
    result.slack = slack;
    // Stop when the duality gap certifies the objective within W epsilon of the optimum. When w
    // solves the working-set QP, this is Joachims 2005's test xi(w) <= working-set xi + epsilon.
    if (result.objective - dual <= W * options.epsilon) {
      result.converged = true;
      break;
    }
    if (result.iterations >= options.max_iterations) break;
    ++result.iterations;
    // Add the most violated constraint unless it exceeds the working set's slack by at most
    // epsilon / 2; then only the QP needs more steps (the gap is then <= W (epsilon / 2 + QP
    // tolerance) once the QP has converged, so the loop always ends).
    if (slack > working_slack + 0.5 * options.epsilon) {
      cuts.push_back(std::move(worst.direction));
      losses.push_back(worst.loss);
      const auto size = static_cast<Eigen::Index>(cuts.size());
      if (size > gram.rows()) gram.conservativeResize(2 * gram.rows(), 2 * gram.cols());
      for (Eigen::Index c = 0; c < size; ++c) {
        const double product = cuts.back().dot(cuts[static_cast<std::size_t>(c)]);
        gram(size - 1, c) = product;
        gram(c, size - 1) = product;
      }
      beta.conservativeResize(size);
      beta[size - 1] = 0.0;
    }
    const auto m = static_cast<Eigen::Index>(cuts.size());
    // The QP's KKT violation is in units of xi (its gradient is w . g_c - l_c), so the restricted
    // duality gap is at most W times the tolerance. It is solved as min 1/2 beta^T G beta -
    // (l / W) . beta, the same minimizer with gradient and violation divided by W.
    const Eigen::VectorXd l = Eigen::Map<const Eigen::VectorXd>(losses.data(), m);
    const SimplexQpSummary qp = solve_simplex_qp_active_set(gram.topLeftCorner(m, m), -l / W, beta,
                                                            kQpTolerance * options.epsilon / W, kQpIterations);
    result.qp_violation = W * qp.violation;
    result.qp_converged = qp.converged;
    result.qp_iterations += qp.iterations;
    w.setZero();
    for (Eigen::Index c = 0; c < m; ++c) w += (W * beta[c]) * cuts[static_cast<std::size_t>(c)];
    dual = W * beta.dot(l) - 0.5 * w.squaredNorm();
  }
  result.constraints = static_cast<int>(cuts.size());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (summary) *summary = result;
  return w;
}

}  // namespace mpg
