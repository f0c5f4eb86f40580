#include "lib/models/binary_mpg_marginals.hpp"

#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"

namespace mpg {

BinaryPrediction predict_binary_mpg_over_marginals(const BinaryModel& model, const BinaryProblem& problem,
                                                   const MarginalSolverOptions& options) {
  if (model.settings.metric != BinaryMetric::f1)
    throw Error("the solver over marginals is for F1 models; this model optimizes " + to_string(model.settings.metric));
  const Eigen::VectorXd psi = problem.features * model.aligned_theta(problem.features.cols() - 1);
  const auto solution = solve_f1_over_marginals({psi.data(), psi.data() + psi.size()}, options);
  BinaryPrediction prediction;
  prediction.action = solution.likeliest_action;
  prediction.probability = solution.likeliest_probability;
  prediction.marginals = solution.marginals;
  prediction.score = f1_score(prediction.action, positives_of(problem.labels));
  prediction.expected_score = solution.expected_f1(problem.labels);
  const auto& summary = solution.summary;
  switch (summary.status) {
    case MarginalSolverStatus::converged: prediction.game.status = DoubleOracleStatus::converged; break;
    case MarginalSolverStatus::time_limit: prediction.game.status = DoubleOracleStatus::time_limit; break;
    case MarginalSolverStatus::round_limit: prediction.game.status = DoubleOracleStatus::iteration_limit; break;
    case MarginalSolverStatus::stalled: prediction.game.status = DoubleOracleStatus::stalled; break;
  }
  prediction.game.iterations = summary.rounds;
  prediction.game.gap = summary.gap;
  prediction.game.value = summary.lower;
  prediction.game.predictor_response_value = summary.upper;
  prediction.game.adversary_response_value = summary.lower;
  prediction.game.seconds = summary.seconds;
  prediction.game.lp_seconds = summary.lp_seconds;
  return prediction;
}

}  // namespace mpg
