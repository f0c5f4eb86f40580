// 1-slack structured SVM for CFG parsing with the Hamming loss (baselines/svm_cfg.hpp).
#include "baselines/svm_cfg.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>

#include "baselines/simplex_qp_one_slack.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/cfg_hamming.hpp"

namespace mpg {
namespace {

constexpr double kQpTolerance = 1e-3;  // of epsilon
constexpr int kQpIterations = 20000;

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

  // Working set (baselines/simplex_qp_one_slack.hpp) with slack weight C: cut c is
  // w . g_c >= l_c - xi with g_c = mean_i(Phi(y_i) - Phi(ybar_i)), l_c = mean_i Delta(y_i, ybar_i).
  OneSlackWorkingSet working_set(R, C);
  std::vector<double> w(static_cast<std::size_t>(R), 0.0);
  double dual = 0.0;
  SvmCfgSummary result;
  std::vector<LossAugmentedParse> worst(examples.size());
  for (;;) {
    const auto t = std::chrono::steady_clock::now();
    tbb::parallel_for(std::size_t{0}, examples.size(),
                      [&](std::size_t i) { worst[i] = most_violated_parse(grammar, examples[i], w); });
    result.inference_seconds += seconds_since(t);
    // In example order, so the sums do not depend on the thread count.
    Eigen::VectorXd violator = Eigen::VectorXd::Zero(R);
    double mean_loss = 0.0, mean_value = 0.0;
    for (std::size_t i = 0; i < examples.size(); ++i) {
      for (const auto& [rule, count] : rule_counts(grammar, examples[i].tags, worst[i].parse)) violator[rule] += count / N;
      mean_loss += worst[i].loss / N;
      mean_value += worst[i].value / N;
    }
    const Eigen::Map<const Eigen::VectorXd> weights(w.data(), R);
    const double slack = std::max(0.0, mean_value - weights.dot(gold_features));
    const double working_slack = working_set.slack(weights);
    result.objective = 0.5 * weights.squaredNorm() + C * slack;
    result.dual_objective = dual;
    result.slack = slack;
    if (result.objective - dual <= C * options.epsilon) {
      result.converged = true;
      break;
    }
    if (result.iterations >= options.max_iterations) break;
    ++result.iterations;
    if (slack > working_slack + 0.5 * options.epsilon) working_set.add(gold_features - violator, mean_loss);
    working_set.solve(kQpTolerance * options.epsilon, kQpIterations);
    for (Eigen::Index r = 0; r < R; ++r) w[static_cast<std::size_t>(r)] = working_set.weights()[r];
    dual = working_set.dual();
  }
  result.constraints = static_cast<int>(working_set.size());
  result.seconds = seconds_since(start_time);
  result.message = fmt::format("{} after {} iteration(s): objective {:.9g}, dual {:.9g}, slack {:.4g}, {} constraints",
                               result.converged ? "converged" : "iteration cap reached, not converged", result.iterations,
                               result.objective, result.dual_objective, result.slack, result.constraints);
  if (summary) *summary = result;
  return w;
}

}  // namespace mpg
