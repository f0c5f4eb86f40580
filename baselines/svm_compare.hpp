// Support vector comparison machines (Venuto, Hocking, Spanurattana and Sugiyama, "Support vector
// comparison machines", seed 004). From labeled pairs (x, x', y), y in {-1, 0, 1}, learn a ranking
// function r and predict c_1(x, x') = t_1(r(x') - r(x)) (Eqs. 4-5):
//   * flip/duplicate transform (8): inequality pairs oriented so that x~' is better (y~ = 1),
//     equality pairs in both orientations with y~ = -1 ("no significant difference");
//   * kernel QP (15) whose dual (18) is a standard C-SVC with the precomputed kernel
//     K~ = M^T K M, K~_ij = k(x~'_i, x~'_j) - k(x~'_i, x~_j) - k(x~_i, x~'_j) + k(x~_i, x~_j),
//     solved by libsvm; r(x) = sum_i y~_i v_i [k(x~'_i, x) - k(x~_i, x)] / (-beta) (Eqs. 13, 19
//     with libsvm's bias beta = -rho), which needs beta < 0 (Lemma 3.1);
//   * the hard-margin LP (7) for linear r, solved by GLPK.
// The SVMrank baselines (baselines/svm_rank.hpp) return the same ComparisonModel.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/data/pairs.hpp"

namespace mpg {

// k(a, b): linear a.b; polynomial (scale a.b + offset)^degree (kernlab's polydot, defaults
// scale = offset = 1); Gaussian exp(-sigma ||a - b||^2) (kernlab's rbfdot: sigma is an inverse
// width, the papers' "width").
enum class KernelKind { linear, polynomial, gaussian };
// "linear" / "polynomial" / "gaussian"; throws mpg::Error otherwise.
KernelKind parse_kernel_kind(const std::string& name);
std::string to_string(KernelKind kind);

struct Kernel {
  KernelKind kind = KernelKind::linear;
  double sigma = 1.0;  // gaussian, > 0
  int degree = 2;      // polynomial, >= 1
  double scale = 1.0;  // polynomial
  double offset = 1.0; // polynomial
  void validate() const;  // throws mpg::Error for an impossible parameter
  // Gram matrix G_ij = k(a_i, b_j) of the rows of a and b.
  Eigen::MatrixXd matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const;
};

// The flipped data set of Eq. (8): m = |I_1| + |I_-1| + 2 |I_0| rows, in the order
// [X_1; X'_-1; X_0; X'_0] for `first` and [X'_1; X_-1; X'_0; X_0] for `second`, labels
// [1; 1; -1; -1]. `source` gives the input pair of each row.
struct FlippedPairs {
  Eigen::MatrixXd first, second;
  std::vector<int> labels;
  std::vector<std::size_t> source;
};
FlippedPairs flip_pairs(const PairData& pairs);

// K~ = M^T K M (Eq. 18) for the pairs (first_i, second_i): K is the Gram matrix of the 2m stacked
// rows [first; second] and M = [-I_m  I_m]^T. For the linear kernel K~ = D D^T, D = second - first.
Eigen::MatrixXd pair_kernel_matrix(const Kernel& kernel, const Eigen::MatrixXd& first, const Eigen::MatrixXd& second);

// A learned comparison function: r(x) = sum_j coefficients_j k(points_j, s(x)) on standardized
// inputs s(x), and c(x, x') = t_threshold(r(x') - r(x)).
struct ComparisonModel {
  PairStandardizer standardizer;
  Kernel kernel;
  Eigen::MatrixXd points;        // standardized expansion points (rows)
  Eigen::VectorXd coefficients;  // one per point
  double threshold = 1.0;        // tau: 1 for SVMcompare, the fitted tau-hat of Eq. (6) for SVMrank
  bool usable = true;            // false for an SVMcompare solution with beta >= 0: rank() throws

  Eigen::VectorXd rank(const Eigen::MatrixXd& rows) const;  // r at raw (unstandardized) rows; throws if !usable
  std::vector<double> differences(const PairData& pairs) const;  // r(x'_i) - r(x_i)
  std::vector<int> predict(const PairData& pairs) const;         // c_tau(x_i, x'_i)
  // Linear kernel only: w with r(x) = w . s(x) on the standardized features.
  Eigen::VectorXd linear_weights() const;
};

struct SvmCompareOptions {
  double C = 1.0;           // cost of Eq. (15), > 0
  Kernel kernel;
  bool standardize = true;  // fit PairStandardizer on the training pairs (the authors' code)
  double tolerance = 1e-3;  // libsvm's stopping tolerance eps (its default, as kernlab)
  double cache_mb = 100.0;  // libsvm's kernel cache
};

// How training ended. `usable` is false when beta >= 0: then -u/beta is not a ranking function
// (Lemma 3.1 needs beta < 0) and the model must not be used; a grid search skips such cells.
struct SvmCompareSummary {
  bool converged = false;          // the dual optimality violation is <= tolerance plus libsvm's
                                   // single-precision rounding (libsvm may instead stop at its
                                   // internal iteration cap, warning on stderr)
  bool usable = false;             // beta < 0
  std::string status;              // "ok" | "nonnegative_bias"
  double beta = 0.0;               // bias of f(x) = beta + u . (Phi(x~') - Phi(x~)), = -rho of libsvm
  double dual_objective = 0.0;     // 1/2 v^T Y K~ Y v - 1^T v at the solution (Eq. 18)
  double max_kkt_violation = 0.0;  // largest violation of the dual optimality conditions
  std::size_t flipped_pairs = 0;   // m
  std::size_t support_vectors = 0; // |{i : v_i > 0}|
  std::vector<double> dual;        // v_i per flipped pair (0 <= v_i <= C, sum v_i y~_i = 0)
  double seconds = 0.0;
};

// Algorithm 1. Throws mpg::Error if the pairs are invalid, or have no equality pair or no
// inequality pair (the flipped SVM would have one class).
ComparisonModel train_svm_compare(const PairData& training, const SvmCompareOptions& options,
                                  SvmCompareSummary* summary = nullptr);

// The part of Algorithm 1 that does not depend on C: standardizer, flipped pairs (8) and K~.
// A grid over C fits many models from one problem (computing K~ is most of a fit's time).
struct SvmCompareProblem {
  PairStandardizer standardizer;
  Kernel kernel;
  FlippedPairs flipped;
  Eigen::MatrixXd reduced;  // K~ = M^T K M
};
SvmCompareProblem prepare_svm_compare(const PairData& training, const Kernel& kernel, bool standardize = true);
// Solves (18) for options.C, options.tolerance and options.cache_mb (the problem's kernel and
// standardizer are used; options.kernel and options.standardize are ignored).
ComparisonModel train_svm_compare(const SvmCompareProblem& problem, const SvmCompareOptions& options,
                                  SvmCompareSummary* summary = nullptr);

// The hard-margin LP (7) for a linear r(x) = w . x on the pairs as given (no standardization):
//   max mu  s.t.  mu <= 1 - |w . (x'_i - x_i)|, i in I_0;  mu <= -1 + y_i w . (x'_i - x_i), i in I_+-1,
// with mu >= 0 (the paper) or free. Infeasible with mu >= 0 iff the pairs are not linearly
// separable in this sense; unbounded when I_0 is empty.
enum class LpStatus { optimal, infeasible, unbounded };
std::string to_string(LpStatus status);
struct HardMarginLpResult {
  LpStatus status = LpStatus::infeasible;
  double margin = 0.0;      // mu*
  Eigen::VectorXd weights;  // w* (optimal status only)
  double seconds = 0.0;
};
HardMarginLpResult solve_hard_margin_comparison_lp(const PairData& pairs, bool nonnegative_margin = true);

}  // namespace mpg
