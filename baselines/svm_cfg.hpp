// svm_cfg: the structured SVM for CFG parsing of thesis Table XIV (SVM^struct's svm_cfg instance;
// Tsochantaridis et al. 2004/2005), with the Hamming loss over labeled constituents and rule-count
// features (lib/structures/cfg.hpp, lib/metrics/cfg_hamming.hpp):
//     min_w 1/2 ||w||^2 + C xi
//     s.t. (1/N) sum_i w . (Phi(y_i) - Phi(ybar_i)) >= (1/N) sum_i Delta(y_i, ybar_i) - xi   for all (ybar_1..ybar_N),
// the 1-slack form (Joachims, Finley & Yu 2009), equal to SVM^struct's n-slack objective
// 1/2 ||w||^2 + (C/N) sum_i xi_i, so C means what `svm_struct_learn -c C` means. Delta(y, ybar) =
// |C(y) Δ C(ybar)| counts constituents. The most violated constraint is exact loss-augmented CYK,
//     ybar_i = argmax_ybar Delta(y_i, ybar) + w . Phi(ybar),
// and the working-set dual (a QP over the simplex) is re-solved exactly by the active-set method
// (lib/learn/simplex_qp_active_set.hpp), as baselines/structured_svm does for SVM^perf.
#pragma once

#include <string>
#include <vector>

#include "lib/learn/one_slack_cutting_plane.hpp"
#include "lib/structures/cfg.hpp"

namespace mpg {

struct SvmCfgOptions {
  double C = 1.0;         // > 0
  // Stop when primal - dual <= C epsilon (epsilon in constituents per sentence; SVM^struct's
  // default -e 0.1).
  double epsilon = 0.1;
  int max_iterations = 1000;  // cutting-plane iterations; reaching it is "not converged"
};

// converged, iterations, constraints, objective (primal at the returned w, exact slack),
// dual_objective (working-set dual, a lower bound on the optimum), slack, seconds:
// lib/learn/one_slack_cutting_plane.hpp.
struct SvmCfgSummary : OneSlackSummary {
  double inference_seconds = 0.0;  // loss-augmented CYK
  std::string message;
};

struct LossAugmentedParse {
  CnfParse parse;
  double loss = 0.0;   // Delta(gold, parse)
  double value = 0.0;  // loss + w . Phi(parse)
};
// argmax over grammatical parses of Delta(gold, ybar) + w . Phi(ybar), exactly (one CYK).
LossAugmentedParse most_violated_parse(const Grammar& grammar, const ParseExample& example,
                                       const std::vector<double>& weights);

// Trains from w = 0; returns one weight per rule. Throws mpg::Error for C <= 0 or non-finite,
// epsilon <= 0, max_iterations < 1, no examples, or a gold parse the grammar cannot derive.
std::vector<double> train_svm_cfg(const Grammar& grammar, const std::vector<ParseExample>& examples,
                                  const SvmCfgOptions& options, SvmCfgSummary* summary = nullptr);

}  // namespace mpg
