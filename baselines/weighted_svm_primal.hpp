// Newton's method on the smoothed primal of the class-weighted hinge SVM (the primal_newton solver
// of baselines/weighted_svm.hpp). With the constant column kept as an ordinary feature, problem
// (P) of weighted_svm.hpp is the bias-free SVM
//     P(v) = 1/2 ||v||^2 + sum_i U_i max(0, z_i),   z_i = 1 - y_i v . x_i.
// The hinge is replaced by its Huber smoothing of width mu,
//     L_mu(z) = 0 (z <= 0),  z^2 / (2 mu) (0 < z < mu),  z - mu/2 (z >= mu),
// whose objective P_mu is C^1 and piecewise quadratic: gradient v - sum_i a_i y_i x_i with
// a_i = U_i clamp(z_i / mu, 0, 1), Hessian I + sum_{0 < z_i < mu} (U_i / mu) x_i x_i^T. Each step
// solves the Newton system (D x D by Cholesky, or by Woodbury over the m quadratic-region rows
// when m < D) and takes the exact minimizer of P_mu along the direction (a safeguarded Newton
// search on the piecewise-linear derivative).
// Certificate: a_i in [0, U_i] is feasible for the dual D(a) = sum_i a_i - 1/2 ||sum_i a_i y_i x_i||^2,
// so P(v_best) - D(a_best), over every iterate, bounds the suboptimality; the training stops when
// it is <= relative_gap * P. mu starts at 1 (0.01 from a warm start) and is divided by 10 whenever
// the Newton decrement says P_mu is solved to within a quarter of the current gap (the smoothing,
// at most mu/2 sum_i U_i, then dominates) or a step stalls.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "baselines/weighted_svm.hpp"

namespace mpg {

struct PrimalNewtonResult {
  Eigen::VectorXd weights;  // v, one per column (the constant column's weight is b / s)
  Eigen::VectorXd dual;     // a of the best dual bound
  WeightedSvmSummary summary;
};

// `features` has every column (the constant one included, if any); sign[i] = +-1; upper[i] = U_i > 0.
// `start`: initial weights (size = columns) or nullptr for v = 0. Uses options.relative_gap and
// options.max_newton_iterations; the summary's seconds are left to the caller.
PrimalNewtonResult train_weighted_svm_primal(const SparseRowMatrix& features, const std::vector<double>& sign,
                                             const std::vector<double>& upper, const WeightedSvmOptions& options,
                                             const Eigen::VectorXd* start);

}  // namespace mpg
