// Convex quadratic programs over the probability simplex,
//     minimize  1/2 a^T H a + c^T a   subject to  a >= 0,  sum_k a_k = 1,
// with H symmetric positive semidefinite, solved by pairwise coordinate descent (SMO with the
// maximal violating pair, Keerthi et al. 2001 / LIBSVM's WSS1). Small dense problems only: the
// master problems of the cutting-plane trainer have one variable per cut.
#pragma once

#include <Eigen/Dense>

namespace mpg {

struct SimplexQpSummary {
  int iterations = 0;
  double objective = 0.0;
  // KKT violation max_{k: a_k > 0} g_k - min_k g_k with g = H a + c (0 at the optimum).
  double violation = 0.0;
  bool converged = false;
};

// `a` is the warm start (any point of the simplex; resized and reset to a vertex if it is not
// one) and receives the solution. Stops when the violation is <= tolerance.
SimplexQpSummary solve_simplex_qp(const Eigen::MatrixXd& H, const Eigen::VectorXd& c,
                                  Eigen::VectorXd& a, double tolerance = 1e-13,
                                  int max_iterations = 1000000);

}  // namespace mpg
