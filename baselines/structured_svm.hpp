// Linear multivariate structured SVM (SVM^perf; Joachims 2005, "A support vector method for
// multivariate performance measures", ICML), the SSVM / SSVM' baselines of thesis Tables VIII
// and XI. The whole training set is one structured example with labelling y in {-1, +1}^n:
//     Psi(ybar) = 1/(2n) sum_i ybar_i x_i                (x_i includes the bias feature, last)
//     min_w 1/2 ||w||^2 + 100 C xi
//     s.t.  w . (Psi(y) - Psi(ybar)) >= Delta(ybar, y) - xi   for every labelling ybar,
// which is the problem of `svm_perf_learn -c C` exactly (the same w and objective): SVM^perf
// scales the labels to +-50/n and measures Delta in percent, so its C means the same here and
// the spec's C grid is in SVM^perf's units. (Joachims 2005 writes Psi as the plain sum; that is
// this problem with C multiplied by (2n)^2 / 100, millions for our files, i.e. a hard margin.)
// with Delta = 1 - F1 (loss "f1") or Delta = 1 - P@k over the labellings with exactly k
// positives (loss "precision_at_k"). Trained by the 1-slack cutting-plane algorithm (Joachims
// 2005, Alg. 2): the most violated constraint is found by exact loss-augmented inference over
// contingency tables and added to a working set whose dual, a QP over the simplex, is re-solved
// exactly (lib/learn/simplex_qp_active_set.hpp).
// Prediction: sign(w . x_i) (SSVM) or the top k of w . x_i (SSVM', thesis §5.3); the rules are
// predict_threshold / predict_top_k of baselines/logistic_regression.hpp.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstddef>
#include <string>
#include <vector>

#include "baselines/logistic_regression.hpp"
#include "lib/learn/one_slack_cutting_plane.hpp"

namespace mpg {

enum class StructuredSvmLoss { f1, precision_at_k };

// "f1" / "precision_at_k"; throws mpg::Error otherwise.
StructuredSvmLoss parse_structured_svm_loss(const std::string& name);

struct StructuredSvmOptions {
  double C = 1.0;           // > 0, SVM^perf's C: the slack xi has weight 100 C
  std::string loss = "f1";  // "f1" | "precision_at_k"
  std::size_t k = 0;        // precision_at_k only: 1 <= k <= n
  // Stop when primal - dual <= 100 C epsilon (epsilon in units of Delta in [0, 1]; 1e-3 is
  // SVM^perf's default -e 0.1 in percent): the returned objective is certified within that of
  // the optimum. With the working-set QP solved, this is Joachims' test "no constraint violated
  // by more than epsilon beyond the working set".
  double epsilon = 1e-3;
  // Cutting-plane iterations (each adds the most violated constraint, or only continues the
  // working-set QP when that constraint is violated by <= epsilon / 2 beyond the working set);
  // reaching the cap is reported as not converged.
  int max_iterations = 2000;
};

struct StructuredSvmModel {
  Eigen::VectorXd weights;  // d + 1 weights, bias last
  double C = 0.0;
};

// status, iterations, constraints, objective (primal 1/2 ||w||^2 + C xi(w) at the returned
// w, exact xi), dual_objective (a lower bound), slack (xi(w), the largest violation over all
// labellings), seconds, to_json(): lib/learn/one_slack_cutting_plane.hpp.
struct StructuredSvmSummary : OneSlackSummary {
  std::string message;  // the one-line report
  std::string report() const { return message; }
};

// Delta(ybar, y) for 0/1 labellings: 1 - F1 (F1 = 1 when both have no positives), or
// 1 - |ybar AND y| / k for precision_at_k (ybar must then have exactly k positives).
double structured_svm_loss(const std::vector<int>& predicted, const std::vector<int>& labels,
                           StructuredSvmLoss loss, std::size_t k = 0);

struct LossAugmentedLabelling {
  std::vector<int> labels;  // ybar as 0/1
  double loss = 0.0;        // Delta(ybar, y)
  double value = 0.0;       // Delta(ybar, y) + sum_i ybar_i s_i with ybar_i in {-1, +1}
};

// argmax_ybar Delta(ybar, y) + sum_i ybar_i s_i exactly, for scores s_i = w . x_i. Both losses
// depend on ybar only through its contingency table (a true, b false positives), and for a fixed
// table the best ybar marks the a highest-scoring positives and the b highest-scoring negatives
// (Joachims 2005, Alg. 2): F1 searches all (P + 1)(N + 1) tables, P@k the tables with a + b = k.
LossAugmentedLabelling most_violated_labelling(const Eigen::VectorXd& scores,
                                               const std::vector<int>& labels,
                                               StructuredSvmLoss loss, std::size_t k = 0);

// Trains from w = 0, or warm-started from `warm`: the cuts a previous training on the SAME
// features, labels and loss left there (any C; OneSlackCuts of lib/learn/one_slack_cutting_plane.hpp),
// which this training replaces by its own. Throws mpg::Error for C <= 0 or non-finite, epsilon <= 0,
// max_iterations < 1, an unknown loss, k outside [1, n] for precision_at_k, labels other than 0/1,
// a label count different from the row count, or non-finite features.
StructuredSvmModel train_structured_svm(const SparseRowMatrix& features,
                                        const std::vector<int>& labels,
                                        const StructuredSvmOptions& options,
                                        StructuredSvmSummary* summary = nullptr,
                                        OneSlackCuts* warm = nullptr);

// w . x_i for every row; the column count must equal the number of weights.
Eigen::VectorXd decision_values(const StructuredSvmModel& model, const SparseRowMatrix& features);

}  // namespace mpg
