// 1-slack cutting planes (lib/learn/one_slack_cutting_plane.hpp).
#include "lib/learn/one_slack_cutting_plane.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/learn/simplex_qp_one_slack.hpp"

namespace mpg {

namespace {

// Working-set QP (solved exactly by the active-set method): KKT tolerance relative to epsilon,
// and a cap on active-set iterations per solve.
constexpr double kQpTolerance = 1e-3;
constexpr int kQpIterations = 20000;

}  // namespace

std::string to_string(OneSlackStatus status) {
  return status == OneSlackStatus::converged ? "converged" : "not converged: iteration limit";
}

nlohmann::json OneSlackSummary::to_json() const {
  return {{"converged", converged()},     {"status", to_string(status)},
          {"iterations", iterations},     {"constraints", constraints},
          {"objective", objective},       {"dual_objective", dual_objective},
          {"gap", objective - dual_objective}, {"slack", slack},
          {"qp_iterations", qp_iterations}, {"qp_converged", qp_converged},
          {"seconds", seconds}};
}

Eigen::VectorXd train_one_slack(Eigen::Index dimension, const OneSlackOptions& options,
                                const std::function<OneSlackConstraint(const Eigen::VectorXd&)>& oracle,
                                OneSlackSummary* summary, OneSlackCuts* warm) {
  const auto start_time = std::chrono::steady_clock::now();
  const double W = options.slack_weight;
  if (!(W > 0.0) || !std::isfinite(W))
    throw Error(fmt::format("1-slack cutting plane: the slack weight must be finite and > 0; got {:g}", W));
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon))
    throw Error(fmt::format("1-slack cutting plane: epsilon must be finite and > 0; got {:g}", options.epsilon));
  if (options.max_iterations < 1) throw Error("1-slack cutting plane: max_iterations must be >= 1");

  // The working set and its dual QP: lib/learn/simplex_qp_one_slack.hpp.
  OneSlackWorkingSet working_set(dimension, W);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(dimension);
  double dual = 0.0;

  OneSlackSummary result;
  if (warm != nullptr && !warm->cuts.empty()) {
    for (OneSlackConstraint& cut : warm->cuts) {
      if (cut.direction.size() != dimension)
        throw Error(fmt::format("1-slack cutting plane: a warm-start cut has {} coordinates for {} dimensions",
                                cut.direction.size(), dimension));
      working_set.add(std::move(cut.direction), cut.loss);
    }
    const SimplexQpSummary qp = working_set.solve(kQpTolerance * options.epsilon, kQpIterations);
    result.qp_iterations += qp.iterations;
    w = working_set.weights();
    dual = working_set.dual();
  }
  for (;;) {
    OneSlackConstraint worst = oracle(w);
    if (worst.direction.size() != dimension)
      throw Error(fmt::format("1-slack cutting plane: the oracle returned {} coordinates for {} dimensions",
                              worst.direction.size(), dimension));
    const double slack = std::max(0.0, worst.loss - w.dot(worst.direction));
    const double working_slack = working_set.slack(w);
    result.objective = 0.5 * w.squaredNorm() + W * slack;
    result.dual_objective = dual;
    result.slack = slack;
    // Stop when the duality gap certifies the objective within W epsilon of the optimum. When w
    // solves the working-set QP, this is Joachims 2005's test xi(w) <= working-set xi + epsilon.
    if (result.objective - dual <= W * options.epsilon) {
      result.status = OneSlackStatus::converged;
      break;
    }
    if (result.iterations >= options.max_iterations) break;
    ++result.iterations;
    // Add the most violated constraint unless it exceeds the working set's slack by at most
    // epsilon / 2; then only the QP needs more steps (the gap is then <= W (epsilon / 2 + QP
    // tolerance) once the QP has converged, so the loop always ends).
    if (slack > working_slack + 0.5 * options.epsilon) working_set.add(std::move(worst.direction), worst.loss);
    // The QP's KKT violation is in units of xi, so the restricted duality gap is at most W times it.
    const SimplexQpSummary qp = working_set.solve(kQpTolerance * options.epsilon, kQpIterations);
    result.qp_violation = W * qp.violation;
    result.qp_converged = qp.converged;
    result.qp_iterations += qp.iterations;
    w = working_set.weights();
    dual = working_set.dual();
  }
  result.constraints = static_cast<int>(working_set.size());
  if (warm != nullptr) warm->cuts = working_set.support();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (summary) *summary = result;
  return w;
}

}  // namespace mpg
