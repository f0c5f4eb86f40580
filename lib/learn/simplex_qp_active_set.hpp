// Exact solver for convex QPs over the probability simplex,
//     minimize  f(a) = 1/2 a^T H a + c^T a   subject to  a >= 0,  sum_k a_k = 1,
// by a primal active-set method with inertia control (Nocedal & Wright 2006, §16.5; Fletcher
// 1987, §10.3), for H positive semidefinite and of low rank. It is the working-set QP of the
// 1-slack structured SVM (baselines/structured_svm.cpp), whose Hessian C G is the Gram matrix
// of up to thousands of nearly collinear cuts in d + 1 dimensions: pairwise coordinate descent
// (lib/learn/simplex_qp.hpp) needs tens of thousands of O(m) steps there, while the active-set
// method solves a reduced Newton system on the free set F = {k : a_k > 0}, whose reduced
// Hessian is kept nonsingular, so |F| <= rank(H) + 1.
//
// One iteration, with g = H a + c and Z a basis of {p : p_k = 0 off F, sum_k p_k = 0}:
//   - if g is not constant on F, step along the Newton direction p = -Z (Z^T H Z)^-1 Z^T g,
//     or, when Z^T H Z is singular after a coordinate was freed, along a zero-curvature descent
//     direction (f then decreases linearly, and the step ends on a bound);
//     the step is cut at the first a_k reaching 0, and k leaves F;
//   - else F is optimal for its subproblem, and the coordinate of least gradient enters F unless
//     the KKT violation max_{k in F} g_k - min_k g_k is <= tolerance (then a is optimal).
#pragma once

#include <Eigen/Dense>

#include "lib/learn/simplex_qp.hpp"

namespace mpg {

// `a` is the warm start (any point of the simplex; reset to the vertex of least c otherwise) and
// receives the solution. Stops when the KKT violation is <= tolerance (converged) or after
// max_iterations active-set iterations (not converged). Throws mpg::Error for bad shapes.
SimplexQpSummary solve_simplex_qp_active_set(const Eigen::Ref<const Eigen::MatrixXd>& H,
                                             const Eigen::VectorXd& c, Eigen::VectorXd& a,
                                             double tolerance = 1e-12, int max_iterations = 100000);

}  // namespace mpg
