// 1-slack structured SVM for CFG parsing with the Hamming loss (baselines/svm_cfg.hpp).
#include "baselines/svm_cfg.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>

#include "lib/base/error.hpp"
#include "lib/learn/one_slack_cutting_plane.hpp"
#include "lib/metrics/cfg_hamming.hpp"

namespace mpg {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

LossAugmentedParse most_violated_parse(const Grammar& grammar, const ParseExample& example,
                                       const std::vector<double>& weights) {
  // Delta(y, ybar) = |C(y)| + sum over ybar's nodes of (|c| - 2 overlap(c, chain_y(s))).
  MixedStrategy<CnfParse> gold{{example.gold}, {1.0}};
  double unused = 0.0;
  const std::vector<double> spans =
      constituent_span_weights(grammar, example.tags.size(), gold, ParseScore::hamming, -1.0, unused);
  const CykResult best = cyk_parse(grammar, example.tags, {weights, spans});
  if (!best.found) throw Error("svm_cfg: no parse of a training sentence");
  const ConstituentMatch match = match_parses(grammar, best.parse, example.gold);
  LossAugmentedParse out;
  out.loss = match.first + match.second - 2.0 * match.shared;
  out.value = best.value + match.second;
  out.parse = best.parse;
  return out;
}

std::vector<double> train_svm_cfg(const Grammar& grammar, const std::vector<ParseExample>& examples,
                                  const SvmCfgOptions& options, SvmCfgSummary* summary) {
  const auto start_time = std::chrono::steady_clock::now();
  const double C = options.C;
  if (!(C > 0.0) || !std::isfinite(C)) throw Error(fmt::format("svm_cfg needs a finite C > 0; got {:g}", C));
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon))
    throw Error(fmt::format("svm_cfg needs a finite epsilon > 0; got {:g}", options.epsilon));
  if (options.max_iterations < 1) throw Error("svm_cfg: max_iterations must be >= 1");
  if (examples.empty()) throw Error("svm_cfg: no training examples");
  const auto R = static_cast<Eigen::Index>(grammar.rule_count());
  const double N = static_cast<double>(examples.size());

  // Phi of the gold parses, averaged.
  Eigen::VectorXd gold_features = Eigen::VectorXd::Zero(R);
  for (const ParseExample& e : examples) {
    if (!is_grammatical(grammar, e.tags, e.gold)) throw Error("svm_cfg: a gold parse is not derivable by the grammar");
    for (const auto& [rule, count] : rule_counts(grammar, e.tags, e.gold)) gold_features[rule] += count / N;
  }

  // 1-slack cutting plane (lib/learn/one_slack_cutting_plane.hpp) with slack weight C: the most
  // violated constraint at w is g = mean_i(Phi(y_i) - Phi(ybar_i)), l = mean_i Delta(y_i, ybar_i).
  SvmCfgSummary result;
  std::vector<LossAugmentedParse> worst(examples.size());
  auto oracle = [&](const Eigen::VectorXd& weights) {
    const std::vector<double> w(weights.data(), weights.data() + weights.size());
    const auto t = std::chrono::steady_clock::now();
    tbb::parallel_for(std::size_t{0}, examples.size(),
                      [&](std::size_t i) { worst[i] = most_violated_parse(grammar, examples[i], w); });
    result.inference_seconds += seconds_since(t);
    // In example order, so the sums do not depend on the thread count.
    OneSlackConstraint constraint{gold_features, 0.0};
    for (std::size_t i = 0; i < examples.size(); ++i) {
      for (const auto& [rule, count] : rule_counts(grammar, examples[i].tags, worst[i].parse))
        constraint.direction[rule] -= count / N;
      constraint.loss += worst[i].loss / N;
    }
    return constraint;
  };
  OneSlackOptions one_slack;
  one_slack.slack_weight = C;
  one_slack.epsilon = options.epsilon;
  one_slack.max_iterations = options.max_iterations;
  const Eigen::VectorXd trained = train_one_slack(R, one_slack, oracle, &result);
  std::vector<double> w(trained.data(), trained.data() + trained.size());
  result.seconds = seconds_since(start_time);
  result.message = fmt::format("{} after {} iteration(s): objective {:.9g}, dual {:.9g}, slack {:.4g}, {} constraints",
                               result.converged() ? "converged" : "iteration cap reached, not converged", result.iterations,
                               result.objective, result.dual_objective, result.slack, result.constraints);
  if (summary) *summary = result;
  return w;
}

}  // namespace mpg
