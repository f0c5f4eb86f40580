// The 1-slack cutting-plane algorithm for structural SVMs with margin rescaling (Joachims,
// Finley & Yu 2009, "Cutting-plane training of structural SVMs", Alg. 4; Joachims 2005, Alg. 2),
// for any structure: the caller supplies the separation oracle.
//     min_w 1/2 ||w||^2 + W xi   s.t.  w . g >= l - xi   for every constraint (g, l) of the problem,
// where the oracle returns, at w, the most violated one: for a structured SVM with joint features
// Psi and loss Delta over examples n,
//     g = (1/N) sum_n [Psi_n(y_n) - Psi_n(ybar_n)],   l = (1/N) sum_n Delta_n(ybar_n),
//     ybar_n = argmax_y Delta_n(y) + w . Psi_n(y)          (loss-augmented inference),
// so that xi(w) = max(0, l - w . g) is the exact 1-slack hinge at w. The working set's dual is a
// QP over the simplex solved exactly (lib/learn/simplex_qp_one_slack.hpp). The loop stops when the
// primal at the current w minus the working-set dual is <= W epsilon, which certifies the
// objective within W epsilon of the optimum.
// Users: the multivariate SVM^perf baseline (baselines/structured_svm.hpp), SVM^struct for CFG
// parsing (baselines/svm_cfg.hpp) and max-margin bipartite matching (baselines/matching_ssvm.hpp).
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpg {

struct OneSlackConstraint {
  Eigen::VectorXd direction;  // g: the constraint is w . g >= loss - xi
  double loss = 0.0;          // l
};

struct OneSlackOptions {
  double slack_weight = 1.0;  // W > 0
  double epsilon = 1e-3;      // > 0, in units of the loss l
  int max_iterations = 2000;  // cutting-plane iterations (>= 1); the cap is reported as not converged
};

enum class OneSlackStatus { converged, iteration_limit };
std::string to_string(OneSlackStatus status);

struct OneSlackSummary {
  OneSlackStatus status = OneSlackStatus::iteration_limit;
  int iterations = 0;          // cutting-plane iterations (one working-set QP each)
  int constraints = 0;         // working-set size, the zero constraint included
  double objective = 0.0;      // primal 1/2 ||w||^2 + W xi(w) at the returned w (exact xi)
  double dual_objective = 0.0; // dual of the working set at the returned w (a lower bound)
  double slack = 0.0;          // xi(w)
  long qp_iterations = 0;      // active-set iterations over all working-set QPs
  bool qp_converged = true;    // the last working-set QP met its KKT tolerance
  double qp_violation = 0.0;   // and its KKT violation (units of W xi)
  double seconds = 0.0;

  bool converged() const { return status == OneSlackStatus::converged; }
  nlohmann::json to_json() const;
};

// Cuts carried from one training to the next. A cut (g, l) depends only on the labelling that
// made it, not on the slack weight W, so the cuts of a training at one W are valid constraints of
// the same problem at any other W: starting the working set with them (a warm start along C) leaves
// the optimum and the stopping certificate unchanged and only saves cutting-plane iterations.
struct OneSlackCuts {
  std::vector<OneSlackConstraint> cuts;
};

// Trains in `dimension` dimensions and returns w: from w = 0, or, when `warm` holds cuts, from the
// solution of the working set made of them. `oracle(w)` must return the most violated constraint
// at w, with a direction of size `dimension`. On return `warm` (if given) holds the cuts of positive
// dual weight at the solution, for the next training of the same problem. Throws mpg::Error for bad
// options or an oracle result (or warm cut) of the wrong size.
Eigen::VectorXd train_one_slack(Eigen::Index dimension, const OneSlackOptions& options,
                                const std::function<OneSlackConstraint(const Eigen::VectorXd&)>& oracle,
                                OneSlackSummary* summary = nullptr, OneSlackCuts* warm = nullptr);

}  // namespace mpg
