// SVMrank baselines of SVMcompare (seed 004, §2.2 and §4, Table 2), kernelized as the authors ran
// SVMlight's ranking mode (svm_learn -z p, no bias):
//   rank   min 1/2 ||u||^2 + C sum_{i in I_+-1} xi_i,  xi_i >= 1 - y_i u . (Phi(x'_i) - Phi(x_i))
//          (Eq. 3, Joachims 2002 OP1); equality pairs are not used for u;
//   rank2  each equality pair becomes the two opposite pairs (x'_i, x_i, 1) and (x_i, x'_i, 1),
//          each inequality pair is used twice (2n pairs; here one pair with cost 2C, the same
//          problem).
// Both then fit the threshold tau-hat of Eq. (6) on all training pairs
// (best_comparison_threshold) and predict c_tau-hat(x, x') = t_tau-hat(r(x') - r(x)).
// The dual max sum v - 1/2 v^T K~ v, 0 <= v_i <= C_i, with the pair kernel K~ of oriented pairs
// (pair_kernel_matrix), is a box QP without an equality constraint: it is solved by exact
// coordinate descent (each step minimizes over one v_i) until the largest violation of the
// optimality conditions is below the tolerance.
#pragma once

#include "baselines/svm_compare.hpp"

namespace mpg {

enum class SvmRankVariant { rank, rank2 };
// "rank" / "rank2"; throws mpg::Error otherwise.
SvmRankVariant parse_svm_rank_variant(const std::string& name);
std::string to_string(SvmRankVariant variant);

struct SvmRankOptions {
  SvmRankVariant variant = SvmRankVariant::rank;
  double C = 1.0;            // > 0, per input pair as in Eq. (3)
  Kernel kernel;
  bool standardize = true;   // PairStandardizer fit on the training pairs
  double tolerance = 1e-3;   // largest projected-gradient violation at the solution (SVMlight -e)
  int max_sweeps = 20000;    // passes over all dual variables; reaching it means not converged
};

struct SvmRankSummary {
  bool converged = false;
  int sweeps = 0;
  double max_violation = 0.0;     // largest projected gradient |dD/dv_i| at the returned v
  double dual_objective = 0.0;    // 1/2 v^T K~ v - sum v (minimized)
  std::size_t ranking_pairs = 0;  // pairs in the QP (rank: |I_+-1|; rank2: n + |I_0| weighted)
  std::size_t support_vectors = 0;
  double threshold = 0.0;         // tau-hat
  std::size_t training_errors = 0;  // zero-one errors of c_tau-hat on the training pairs
  double seconds = 0.0;
};

// Throws mpg::Error for invalid pairs, an impossible option, or (rank) no inequality pair.
ComparisonModel train_svm_rank(const PairData& training, const SvmRankOptions& options,
                               SvmRankSummary* summary = nullptr);

// The part that does not depend on C (standardizer, oriented ranking pairs, their kernel), shared
// by the fits of a grid over C.
struct SvmRankProblem {
  SvmRankVariant variant = SvmRankVariant::rank;
  PairStandardizer standardizer;
  Kernel kernel;
  PairData training;                  // as given (tau-hat is fit on it)
  Eigen::MatrixXd worse, better;      // standardized ranking pairs: r(better) - r(worse) >= 1 - xi
  std::vector<double> cost_multiple;  // C_k / C: 1, or 2 for rank2's doubled inequality pairs
  Eigen::MatrixXd kernel_matrix;      // pair kernel of (worse, better)
};
SvmRankProblem prepare_svm_rank(const PairData& training, SvmRankVariant variant, const Kernel& kernel,
                                bool standardize = true);
// Uses options.C, tolerance and max_sweeps (variant, kernel and standardize come from the problem).
ComparisonModel train_svm_rank(const SvmRankProblem& problem, const SvmRankOptions& options,
                               SvmRankSummary* summary = nullptr);

}  // namespace mpg
