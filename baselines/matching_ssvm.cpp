// Max-margin matching (baselines/matching_ssvm.hpp).
#include "baselines/matching_ssvm.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/game/bipartite_matching.hpp"

namespace mpg {

LinearAlignmentModel train_matching_ssvm(const std::vector<AlignmentInstance>& instances,
                                         const MatchingSsvmOptions& options, MatchingSsvmSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  if (instances.empty()) throw Error("max-margin matching: no training pairs");
  if (!(options.C > 0.0) || !std::isfinite(options.C))
    throw Error(fmt::format("max-margin matching: C must be finite and > 0; got {:g}", options.C));
  const double fn = options.costs.false_negative_cost, fp = options.costs.false_positive_cost;
  if (!(fn >= 0.0) || !(fp >= 0.0) || !std::isfinite(fn) || !std::isfinite(fp))
    throw Error("max-margin matching: the costs must be finite and >= 0");
  const Eigen::Index d = instances.front().features.cols();
  for (const AlignmentInstance& instance : instances)
    if (instance.features.cols() != d) throw Error("max-margin matching: pairs with different feature counts");
  const auto N = static_cast<double>(instances.size());

  // Targets y_n*, their features and losses L_n(y_n*).
  std::vector<AlignmentAction> targets;
  std::vector<double> target_loss;
  Eigen::VectorXd target_features = Eigen::VectorXd::Zero(d);
  for (const AlignmentInstance& instance : instances) {
    targets.push_back(target_matching(instance, options.costs));
    target_loss.push_back(alignment_loss(targets.back(), instance.gold, options.costs));
    target_features += link_features(instance, targets.back());
  }
  // Loss terms of the augmented edge weights: c_fp [e not in P] - c_fn [e in S].
  std::vector<std::vector<double>> loss_weights;
  for (const AlignmentInstance& instance : instances) {
    std::vector<double> w(instance.positions(), fp);
    for (std::uint32_t code : instance.gold) w[link_position(code)] = link_is_possible_only(code) ? 0.0 : -fn;
    loss_weights.push_back(std::move(w));
  }

  auto oracle = [&](const Eigen::VectorXd& w) {
    OneSlackConstraint constraint;
    constraint.direction = target_features;
    for (std::size_t n = 0; n < instances.size(); ++n) {
      std::vector<double> weights = edge_scores(instances[n], w);
      for (std::size_t p = 0; p < weights.size(); ++p) weights[p] += loss_weights[n][p];
      const AlignmentAction worst = max_weight_matching_links(instances[n].english_length, instances[n].french_length, weights);
      constraint.direction -= link_features(instances[n], worst);
      constraint.loss += alignment_loss(worst, instances[n].gold, options.costs) - target_loss[n];
    }
    constraint.direction /= N;
    constraint.loss /= N;
    return constraint;
  };
  OneSlackOptions one_slack;
  one_slack.slack_weight = options.C;
  one_slack.epsilon = options.epsilon;
  one_slack.max_iterations = options.max_iterations;
  MatchingSsvmSummary result;
  LinearAlignmentModel model;
  model.weights = train_one_slack(d, one_slack, oracle, &result);
  for (const AlignmentInstance& instance : instances)
    result.training_loss += alignment_loss(predict_matching(model, instance), instance.gold, options.costs) / N;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.message = fmt::format(
      "{} after {} iteration(s): objective {:.9g}, dual {:.9g}, slack {:.4g}, {} constraints, training loss {:.4g} per pair",
      result.converged() ? "converged" : "iteration cap reached, not converged", result.iterations, result.objective,
      result.dual_objective, result.slack, result.constraints, result.training_loss);
  if (summary) *summary = result;
  return model;
}

AlignmentAction predict_matching(const LinearAlignmentModel& model, const AlignmentInstance& instance) {
  return max_weight_matching_links(instance.english_length, instance.french_length, edge_scores(instance, model.weights));
}

}  // namespace mpg
