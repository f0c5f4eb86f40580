#include "baselines/weighted_svm_primal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mpg {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Huber-smoothed hinge L_mu(z) and its derivative clamp(z / mu, 0, 1).
double smoothed_hinge(double z, double mu) {
  if (z <= 0.0) return 0.0;
  return z < mu ? 0.5 * z * z / mu : z - 0.5 * mu;
}
double smoothed_slope(double z, double mu) { return std::clamp(z / mu, 0.0, 1.0); }

// -H^{-1} g for H = I + sum_{i in Q} (U_i / mu) x_i x_i^T. Woodbury over the m rows of Q when
// m < D:  H^{-1} g = g - A^T (I_m + A A^T)^{-1} A g  with A's rows sqrt(U_i / mu) x_i; otherwise
// the D x D system, accumulated from dense rows (BLAS-3 rank update) or row by row from sparse ones.
Eigen::VectorXd newton_direction(const SparseRowMatrix& x, const std::vector<long>& quadratic,
                                 const std::vector<double>& upper, double mu, const Eigen::VectorXd& g) {
  const long m = static_cast<long>(quadratic.size());
  const long d = x.cols();
  if (m == 0) return -g;
  long nonzeros = 0;
  for (const long i : quadratic) nonzeros += x.outerIndexPtr()[i + 1] - x.outerIndexPtr()[i];
  const bool dense_rows = static_cast<double>(nonzeros) > 0.25 * static_cast<double>(m) * static_cast<double>(d);
  if (m < d || dense_rows) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(m, d);
    for (long r = 0; r < m; ++r) {
      const long i = quadratic[static_cast<std::size_t>(r)];
      const double scale = std::sqrt(upper[static_cast<std::size_t>(i)] / mu);
      for (SparseRowMatrix::InnerIterator it(x, i); it; ++it) a(r, it.col()) = scale * it.value();
    }
    if (m < d) {
      Eigen::MatrixXd k = Eigen::MatrixXd::Identity(m, m);
      k.selfadjointView<Eigen::Lower>().rankUpdate(a);
      const Eigen::VectorXd ag = a * g;
      return -(g - a.transpose() * k.selfadjointView<Eigen::Lower>().llt().solve(ag));
    }
    Eigen::MatrixXd h = Eigen::MatrixXd::Identity(d, d);
    h.selfadjointView<Eigen::Lower>().rankUpdate(a.transpose());
    return -h.selfadjointView<Eigen::Lower>().llt().solve(g);
  }
  Eigen::MatrixXd h = Eigen::MatrixXd::Identity(d, d);
  for (const long i : quadratic) {
    const double c = upper[static_cast<std::size_t>(i)] / mu;
    const int* columns = x.innerIndexPtr() + x.outerIndexPtr()[i];
    const double* values = x.valuePtr() + x.outerIndexPtr()[i];
    const long count = x.outerIndexPtr()[i + 1] - x.outerIndexPtr()[i];
    for (long k = 0; k < count; ++k) {
      const double ck = c * values[k];
      for (long l = 0; l < count; ++l) {
        if (columns[l] <= columns[k]) h(columns[k], columns[l]) += ck * values[l];  // lower triangle
      }
    }
  }
  return -h.selfadjointView<Eigen::Lower>().llt().solve(g);
}

// Exact minimizer over t >= 0 of phi(t) = P_mu(v + t d), given phi'(0) = slope0 < 0, z = 1 - y.(Xv),
// r = y.(Xd): phi'(t) = v.d + t d.d - sum_i U_i L'_mu(z_i - t r_i) r_i is piecewise linear and
// increasing; bracket its root by doubling from t = 1, then Newton steps kept inside the bracket
// (bisection otherwise).
double line_search(const Eigen::VectorXd& z, const Eigen::VectorXd& r, const std::vector<double>& upper,
                   double mu, double vd, double dd, double slope0) {
  auto derivative = [&](double t, double* curvature) {
    double value = vd + t * dd;
    double second = dd;
    for (long i = 0; i < z.size(); ++i) {
      if (r[i] == 0.0) continue;
      const double zi = z[i] - t * r[i];
      if (zi <= 0.0) continue;
      const double u = upper[static_cast<std::size_t>(i)];
      if (zi < mu) {
        value -= u * (zi / mu) * r[i];
        second += u * r[i] * r[i] / mu;
      } else {
        value -= u * r[i];
      }
    }
    *curvature = second;
    return value;
  };
  double lo = 0.0, hi = kInfinity;
  double t = 1.0, curvature = 0.0;
  double value = derivative(t, &curvature);
  for (int k = 0; k < 64 && value < 0.0; ++k) {
    lo = t;
    t *= 2.0;
    value = derivative(t, &curvature);
  }
  if (value < 0.0) return t;  // unbounded below is impossible (phi is strongly convex); rounding
  if (value == 0.0) return t;
  hi = t;
  const double tolerance = 1e-12 * std::abs(slope0);
  for (int k = 0; k < 100; ++k) {
    double next = t - value / curvature;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    t = next;
    value = derivative(t, &curvature);
    if (std::abs(value) <= tolerance || hi - lo <= 1e-15 * hi) break;
    (value < 0.0 ? lo : hi) = t;
  }
  return t;
}

}  // namespace

PrimalNewtonResult train_weighted_svm_primal(const SparseRowMatrix& x, const std::vector<double>& sign,
                                             const std::vector<double>& upper, const WeightedSvmOptions& options,
                                             const Eigen::VectorXd* start) {
  const long n = x.rows();
  const long d = x.cols();
  const Eigen::Map<const Eigen::VectorXd> y(sign.data(), n);
  const Eigen::Map<const Eigen::VectorXd> u(upper.data(), n);
  const double upper_total = u.sum();

  PrimalNewtonResult result;
  WeightedSvmSummary& s = result.summary;
  s.solver = WeightedSvmSolver::primal_newton;
  Eigen::VectorXd v = start != nullptr ? *start : Eigen::VectorXd::Zero(d);
  double mu = start != nullptr ? 0.01 : 1.0;
  double best_primal = kInfinity, best_dual = -kInfinity;
  Eigen::VectorXd best_v = v, best_a = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd z(n), a(n), r(n);
  std::vector<long> quadratic;
  // Divides mu by 10; false once the smoothing error mu/2 sum U_i is far below the tolerance,
  // where a smaller mu cannot help (the gap left is rounding).
  auto decrease_mu = [&](double tolerance) {
    if (0.5 * mu * upper_total < 1e-3 * tolerance) return false;
    mu *= 0.1;
    ++s.outer_iterations;
    return true;
  };
  for (;;) {
    z = Eigen::VectorXd::Ones(n) - y.cwiseProduct(x * v);
    double loss = 0.0, smoothed_loss = 0.0, smoothing = 0.0;
    for (long i = 0; i < n; ++i) {
      loss += u[i] * std::max(0.0, z[i]);
      smoothed_loss += u[i] * smoothed_hinge(z[i], mu);
      a[i] = u[i] * smoothed_slope(z[i], mu);
      smoothing += a[i] * a[i] / u[i];
    }
    const Eigen::VectorXd wa = x.transpose() * a.cwiseProduct(y);
    const double primal = 0.5 * v.squaredNorm() + loss;
    const double smoothed_primal = 0.5 * v.squaredNorm() + smoothed_loss;  // P_mu(v)
    const double dual = a.sum() - 0.5 * wa.squaredNorm();
    // The smoothed problem's own gap: P_mu(v) - D_mu(a), D_mu(a) = D(a) - mu/2 sum_i a_i^2 / U_i.
    const double smoothed_gap = smoothed_primal - (dual - 0.5 * mu * smoothing);
    if (primal < best_primal) {
      best_primal = primal;
      best_v = v;
    }
    if (dual > best_dual) {
      best_dual = dual;
      best_a = a;
    }
    const double gap = best_primal - best_dual;
    const double tolerance = options.relative_gap * std::max(best_primal, 1e-12);
    if (gap <= tolerance) {
      s.converged = true;
      s.status = "converged";
      break;
    }
    if (s.newton_steps >= options.max_newton_iterations) {
      s.status = "Newton cap";
      break;
    }
    // Gradient of P_mu: v - sum_i a_i y_i x_i; Hessian rows: 0 < z_i <= mu.
    const Eigen::VectorXd g = v - wa;
    quadratic.clear();
    for (long i = 0; i < n; ++i)
      if (z[i] > 0.0 && z[i] <= mu) quadratic.push_back(i);  // z = mu: a generalized Hessian row
    const Eigen::VectorXd direction = newton_direction(x, quadratic, upper, mu, g);
    const double decrement = -g.dot(direction);  // g^T H^{-1} g > 0
    if (!direction.allFinite() || !(decrement > 0.0) || smoothed_gap <= 0.25 * (primal - dual)) {
      // P_mu is solved to well within this iterate's gap: the smoothing dominates what is left.
      if (!decrease_mu(tolerance)) {
        s.status = "rounding floor";
        break;
      }
      continue;
    }
    r = y.cwiseProduct(x * direction);
    const double t = line_search(z, r, upper, mu, v.dot(direction), direction.squaredNorm(), -decrement);
    v += t * direction;
    double after = 0.5 * v.squaredNorm();  // P_mu at the new v
    for (long i = 0; i < n; ++i) after += u[i] * smoothed_hinge(z[i] - t * r[i], mu);
    ++s.newton_steps;
    if (!(smoothed_primal - after > 1e-15 * std::max(1.0, std::abs(smoothed_primal))) && !decrease_mu(tolerance)) {
      s.status = "rounding floor";
      break;
    }
  }
  result.weights = std::move(best_v);
  result.dual = std::move(best_a);
  s.primal = best_primal;
  s.dual = best_dual;
  s.gap = best_primal - best_dual;
  return result;
}

}  // namespace mpg
