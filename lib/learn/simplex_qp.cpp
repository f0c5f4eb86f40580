#include "lib/learn/simplex_qp.hpp"

#include <cmath>
#include <string>

#include "lib/base/error.hpp"

namespace mpg {

SimplexQpSummary solve_simplex_qp(const Eigen::MatrixXd& H, const Eigen::VectorXd& c,
                                  Eigen::VectorXd& a, double tolerance, int max_iterations) {
  const Eigen::Index k = c.size();
  if (k == 0 || H.rows() != k || H.cols() != k)
    throw Error("simplex QP: H must be " + std::to_string(k) + " x " + std::to_string(k) +
                " and non-empty");
  const bool feasible = a.size() == k && (a.array() >= 0.0).all() &&
                        std::abs(a.sum() - 1.0) <= 1e-12;
  if (!feasible) {
    Eigen::Index best = 0;
    c.minCoeff(&best);
    a = Eigen::VectorXd::Zero(k);
    a[best] = 1.0;
  }
  Eigen::VectorXd gradient = H * a + c;
  SimplexQpSummary summary;
  for (;;) {
    // Mass moves from the support coordinate of largest gradient (j) to the coordinate of
    // smallest gradient (i): along e_i - e_j the objective changes by
    //   delta (g_i - g_j) + delta^2 / 2 (H_ii + H_jj - 2 H_ij).
    Eigen::Index i = 0;
    Eigen::Index j = -1;
    for (Eigen::Index m = 0; m < k; ++m) {
      if (gradient[m] < gradient[i]) i = m;
      if (a[m] > 0.0 && (j < 0 || gradient[m] > gradient[j])) j = m;
    }
    summary.violation = gradient[j] - gradient[i];
    if (summary.violation <= tolerance) {
      summary.converged = true;
      break;
    }
    if (summary.iterations >= max_iterations) break;
    ++summary.iterations;
    const double curvature = H(i, i) + H(j, j) - 2.0 * H(i, j);
    double delta = a[j];
    if (curvature > 0.0) delta = std::min(delta, summary.violation / curvature);
    a[i] += delta;
    a[j] -= delta;
    if (a[j] < 0.0) a[j] = 0.0;
    gradient += delta * (H.col(i) - H.col(j));
    // Refresh the gradient now and then so rounding errors do not accumulate.
    if (summary.iterations % 1000 == 0) gradient = H * a + c;
  }
  summary.objective = 0.5 * a.dot(H * a) + c.dot(a);
  return summary;
}

}  // namespace mpg
