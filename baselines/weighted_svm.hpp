// Class-weighted L2-regularized hinge-loss linear SVM, the cost-sensitive SVM of Parambath's
// thesis ch. 2 (LIBLINEAR -s 3 with -w1 c_FN -w-1 1 there):
//     min_w  1/2 ||w||^2 + sum_i U_i max(0, 1 - y_i w . x_i),    U_i = C c_{y_i},
// y_i in {-1, +1}, c_+ = positive_weight (the FN cost), c_- = negative_weight (1 in the thesis).
// No separate bias: the thesis appends a constant feature of value s = 100 to every example "to
// simulate an unregularized offset". Writing b = s w_{d+1} for that feature's weight, the
// problem is
//     min_{w,b} 1/2 ||w||^2 + b^2 / (2 s^2) + sum_i U_i max(0, 1 - y_i (w . x_i + b)).   (P)
// LIBLINEAR's dual coordinate descent (Hsieh et al. 2008) converges very slowly on it: the
// constant column adds s^2 y y^T to the dual Hessian, so every single-coordinate step moves the
// offset by s^2 times more than the rest (on ADULT, -s 3 stops at its 1,000-pass cap, which the
// Debian build cannot raise). This solver treats b as a scalar outer variable instead:
//   inner: for fixed b, the dual of min_w is  max_{0<=a<=U} sum_i a_i (1 - y_i b) - 1/2 ||w(a)||^2
//          with w(a) = sum_i a_i y_i x_i, solved by dual coordinate descent (random permutation
//          passes with shrinking, the algorithm of LIBLINEAR -s 3, Hsieh et al. 2008 Alg. 3),
//          interleaved with subspace Newton steps on the free set (minimum-norm, since the free
//          rows' Gram matrix is singular beyond d of them): at large C x FN weight coordinate
//          descent alone needs 10^5 passes and more (Yeast, Scene), the steps cut that 5-20x;
//   outer: g(b) = b^2 / (2 s^2) + min_w (...) is convex with derivative
//          phi(b) = b / s^2 - sum_i a_i(b) y_i, and the root of phi is found by a safeguarded
//          secant search (Illinois).
// Certificate: for any feasible a and any b, with D(a) = sum_i a_i - 1/2 ||w(a)||^2
// - s^2/2 (sum_i a_i y_i)^2 the dual of (P), the duality gap of (P) is
//     P(w(a), b) - D(a) = [inner gap at b] + s^2/2 phi(b)^2,
// and the solver stops when it is <= relative_gap * P. Without a constant feature
// (offset_feature = 0) it is one inner solve at b = 0, LIBLINEAR -s 3 exactly.
//
// Second solver (baselines/weighted_svm_primal.hpp): (P) is, with v = (w, b / s) and x~_i = (x_i, s),
// the bias-free SVM 1/2 ||v||^2 + sum_i U_i max(0, 1 - y_i v . x~_i); a Newton method on its
// Huber-smoothed primal, certified by the same gap P(v) - D(a). It wins where the columns are few
// (a D x D Newton system) and C U_i is large (where coordinate descent needs 10^5 passes);
// WeightedSvmSolver::automatic picks it up to kPrimalNewtonMaxColumns columns.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstdint>
#include <string>
#include <vector>

namespace mpg {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

enum class WeightedSvmSolver {
  automatic,      // primal_newton up to kPrimalNewtonMaxColumns columns (constant one included), else dual_cd
  dual_cd,        // dual coordinate descent with shrinking and subspace Newton steps, outer search on b
  primal_newton,  // Newton on the smoothed primal (weighted_svm_primal.hpp)
};
// Above this many columns a D x D Newton system costs more than coordinate descent's passes
// (measured: RCV1's 945 columns, label path 0.86 s primal vs 0.10 s dual; Scene's 295: 41 vs 104 s).
inline constexpr long kPrimalNewtonMaxColumns = 600;

struct WeightedSvmOptions {
  WeightedSvmSolver solver = WeightedSvmSolver::automatic;
  double C = 1.0;                // > 0
  double positive_weight = 1.0;  // c_+ > 0: U_i = C c_+ for positive examples (the FN cost)
  double negative_weight = 1.0;  // c_- > 0 (the FP cost; 1 in the thesis)
  // Value s of the constant feature in the LAST column of the features (thesis: 100); it is
  // checked on every row and handled as the offset b = s w_last of (P). 0: no such column.
  double offset_feature = 100.0;
  // Stop when the duality gap of (P) is <= relative_gap * max(P, 1e-12).
  double relative_gap = 1e-4;
  // Inner stopping rule (LIBLINEAR's): the spread of projected gradients over one pass is
  // <= inner_epsilon (LIBLINEAR's default 0.1); divided by 10 whenever the inner gap alone is
  // too large for the certificate.
  double inner_epsilon = 0.1;
  // Cap on coordinate-descent passes of one inner solve (the thesis raised LIBLINEAR's 1,000 to
  // 50,000) and on outer steps; reaching either is reported as not converged.
  long max_iterations = 50000;
  int max_outer_iterations = 60;
  // Cap on Newton steps of one primal_newton training (reaching it: not converged).
  long max_newton_iterations = 1000;
  // Interleave subspace Newton steps on the free set with the coordinate-descent passes of each
  // inner solve (see weighted_svm.cpp); false: coordinate descent with shrinking alone.
  bool subspace_newton = true;
  // Shrinking of bounded coordinates (Hsieh et al. 2008 §3); false: every pass visits all of them.
  bool shrinking = true;
  std::uint64_t seed = 1;  // permutation of the passes (fixed: results do not depend on threads)
};

struct WeightedSvmModel {
  Eigen::VectorXd weights;  // one weight per column (the constant column's is b / s)
  // The dual variables a_i and the offset b, kept for warm starts (WeightedSvmWarmStart).
  Eigen::VectorXd dual;
  double offset = 0.0;
  double positive_bound = 0.0;  // U_i of the positive and negative examples it was trained with
  double negative_bound = 0.0;
};

struct WeightedSvmSummary {
  bool converged = false;
  std::string status;      // "converged", "iteration cap", "outer iteration cap", "Newton cap", ...
  WeightedSvmSolver solver = WeightedSvmSolver::dual_cd;  // the one that ran
  long passes = 0;         // coordinate-descent passes over the active set, all inner solves (dual_cd)
  long newton_steps = 0;   // accepted subspace Newton steps (dual_cd) or primal Newton steps
  int outer_iterations = 0;  // steps of the search on b (dual_cd) or smoothing decreases (primal_newton)
  double primal = 0.0;     // P at the returned (w, b)
  double dual = 0.0;       // D at the returned a (a lower bound on the optimum)
  double gap = 0.0;        // primal - dual
  double seconds = 0.0;
};

// Trains from a = 0, b = 0, or from `warm_start` (a model trained on the same rows, e.g. at the
// previous C of a grid): its a_i are rescaled by U_i(new) / U_i(old) so that bounded variables
// stay bounded, and its offset is the first b (primal_newton starts from its weights instead).
// Labels are 0/1. Throws mpg::Error on bad options, labels other than 0/1, a label count different
// from the row count, non-finite features, a last column that is not the constant offset_feature,
// or a warm start of another size.
WeightedSvmModel train_weighted_svm(const SparseRowMatrix& features, const std::vector<int>& labels,
                                    const WeightedSvmOptions& options,
                                    WeightedSvmSummary* summary = nullptr,
                                    const WeightedSvmModel* warm_start = nullptr);

// "auto", "dual_cd", "primal_newton" (throws mpg::Error naming the allowed values otherwise).
WeightedSvmSolver parse_weighted_svm_solver(const std::string& name);
const char* weighted_svm_solver_name(WeightedSvmSolver solver);

// Decision values w . x_i (the constant column included).
Eigen::VectorXd decision_values(const WeightedSvmModel& model, const SparseRowMatrix& features);

}  // namespace mpg
