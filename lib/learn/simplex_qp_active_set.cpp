#include "lib/learn/simplex_qp_active_set.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// Relative size below which an eigenvalue of the reduced Hessian counts as zero.
constexpr double kZeroCurvature = 1e-11;

// The step of one iteration on the free set: p over F (aligned with `free`), and whether f is
// unbounded below along it (zero curvature with descent), so that only a bound can end the step.
struct Step {
  Eigen::VectorXd p;
  bool unbounded = false;
};

// Reduced Newton (or zero-curvature descent) step on the free set F with pivot F[pivot]:
// Z has columns e_o - e_pivot for the other members o of F, so with M = Z^T H Z and b = Z^T g
// the Newton step is p = Z pz with M pz = -b.
Step reduced_step(const Eigen::Ref<const Eigen::MatrixXd>& H, const Eigen::VectorXd& g,
                  const std::vector<Eigen::Index>& free, std::size_t pivot, double tolerance) {
  const Eigen::Index r = free[pivot];
  std::vector<Eigen::Index> others;
  for (std::size_t s = 0; s < free.size(); ++s)
    if (s != pivot) others.push_back(free[s]);
  const auto q = static_cast<Eigen::Index>(others.size());
  Eigen::MatrixXd M(q, q);
  Eigen::VectorXd b(q);
  for (Eigen::Index s = 0; s < q; ++s) {
    const Eigen::Index o = others[static_cast<std::size_t>(s)];
    b[s] = g[o] - g[r];
    for (Eigen::Index t = 0; t <= s; ++t) {
      const Eigen::Index u = others[static_cast<std::size_t>(t)];
      M(s, t) = M(t, s) = H(o, u) - H(o, r) - H(r, u) + H(r, r);
    }
  }

  Step step;
  Eigen::VectorXd pz;
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(M);
  const Eigen::VectorXd d = ldlt.vectorD();
  const double largest = q > 0 ? d.cwiseAbs().maxCoeff() : 0.0;
  if (ldlt.info() == Eigen::Success && largest > 0.0 && d.minCoeff() > kZeroCurvature * largest) {
    pz = -ldlt.solve(b);
  } else {
    // Singular reduced Hessian: descend along its null space if b has a component there (f is
    // then linear along that direction), else take the Newton step on the nonsingular part.
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(M);
    const Eigen::VectorXd& lambda = eigen.eigenvalues();
    const Eigen::MatrixXd& v = eigen.eigenvectors();
    const double top = std::max(lambda.cwiseAbs().maxCoeff(), 0.0);
    Eigen::VectorXd newton = Eigen::VectorXd::Zero(q), descent = Eigen::VectorXd::Zero(q);
    for (Eigen::Index e = 0; e < q; ++e) {
      const double projection = v.col(e).dot(b);
      if (lambda[e] > kZeroCurvature * top)
        newton -= (projection / lambda[e]) * v.col(e);
      else
        descent -= projection * v.col(e);
    }
    // Along descent, f falls at rate ||descent||^2 per unit step; below the tolerance that is
    // rounding noise, not a direction of the problem.
    step.unbounded = descent.norm() > 0.25 * tolerance;
    pz = step.unbounded ? descent : newton;
  }
  step.p.resize(static_cast<Eigen::Index>(free.size()));
  for (std::size_t s = 0, t = 0; s < free.size(); ++s)
    step.p[static_cast<Eigen::Index>(s)] = s == pivot ? -pz.sum() : pz[static_cast<Eigen::Index>(t++)];
  return step;
}

}  // namespace

SimplexQpSummary solve_simplex_qp_active_set(const Eigen::Ref<const Eigen::MatrixXd>& H,
                                             const Eigen::VectorXd& c, Eigen::VectorXd& a, double tolerance,
                                             int max_iterations) {
  const Eigen::Index k = c.size();
  if (k == 0 || H.rows() != k || H.cols() != k)
    throw Error("simplex QP: H must be " + std::to_string(k) + " x " + std::to_string(k) + " and non-empty");
  if (a.size() != k || !(a.array() >= 0.0).all() || std::abs(a.sum() - 1.0) > 1e-12) {
    Eigen::Index vertex = 0;
    c.minCoeff(&vertex);
    a = Eigen::VectorXd::Unit(k, vertex);
  }
  std::vector<Eigen::Index> free;
  for (Eigen::Index m = 0; m < k; ++m)
    if (a[m] > 0.0) free.push_back(m);

  SimplexQpSummary summary;
  Eigen::VectorXd g(k);
  Eigen::Index entered = -1;  // the coordinate freed last, while it is still at 0
  for (;;) {
    g = c;
    for (const Eigen::Index f : free) g += a[f] * H.col(f);
    Eigen::Index low = 0;
    g.minCoeff(&low);
    // Spread of g over F, and its rounding floor: the Newton steps equalize g on F only to about
    // machine precision times the size of the terms |c_k| + sum_f a_f |H_kf| that make up g_k.
    double free_high = -std::numeric_limits<double>::infinity(), free_low = -free_high, terms = 0.0;
    std::size_t pivot = 0;
    for (std::size_t s = 0; s < free.size(); ++s) {
      const Eigen::Index k_s = free[s];
      free_high = std::max(free_high, g[k_s]);
      free_low = std::min(free_low, g[k_s]);
      if (a[k_s] > a[free[pivot]]) pivot = s;
      double size = std::abs(c[k_s]);
      for (const Eigen::Index f : free) size += a[f] * std::abs(H(k_s, f));
      terms = std::max(terms, size);
    }
    const double floor = 1e3 * std::numeric_limits<double>::epsilon() * terms;
    summary.violation = -std::numeric_limits<double>::infinity();
    for (const Eigen::Index f : free)
      if (a[f] > 0.0) summary.violation = std::max(summary.violation, g[f] - g[low]);
    if (summary.violation <= tolerance) {
      summary.converged = true;
      break;
    }
    if (summary.iterations >= max_iterations) break;
    ++summary.iterations;

    if (free_high - free_low <= std::max(0.5 * tolerance, floor)) {
      // F solves its subproblem: the coordinate of least gradient (outside F, since the
      // violation exceeds the spread on F) enters with a_low = 0.
      if (std::find(free.begin(), free.end(), low) != free.end()) break;  // stalled at rounding level
      free.push_back(low);
      entered = low;
      continue;
    }

    const Step step = reduced_step(H, g, free, pivot, tolerance);
    double alpha = step.unbounded ? std::numeric_limits<double>::infinity() : 1.0;
    std::size_t blocking = free.size();
    for (std::size_t s = 0; s < free.size(); ++s) {
      const double p = step.p[static_cast<Eigen::Index>(s)];
      if (p < 0.0 && a[free[s]] < -alpha * p) {
        alpha = a[free[s]] / -p;
        blocking = s;
      }
    }
    if (!std::isfinite(alpha)) break;  // no bound ends a descent ray: cannot happen with sum p = 0
    // A zero step blocked by the coordinate just freed would free it again: stalled.
    if (alpha == 0.0 && blocking < free.size() && free[blocking] == entered) break;
    entered = -1;
    for (std::size_t s = 0; s < free.size(); ++s) a[free[s]] += alpha * step.p[static_cast<Eigen::Index>(s)];
    if (blocking < free.size()) a[free[blocking]] = 0.0;
    // The blocking coordinate (and any that rounding left at or below 0) leaves F.
    std::erase_if(free, [&](Eigen::Index f) {
      if (a[f] > 0.0) return false;
      a[f] = 0.0;
      return true;
    });
    a /= a.sum();
  }
  summary.objective = 0.5 * a.dot(H * a) + c.dot(a);
  return summary;
}

}  // namespace mpg
