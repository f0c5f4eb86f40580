#include "lib/models/binary/precision_at_k_trainer.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/base/run_limits.hpp"

namespace mpg {
namespace {

double top_k_sum(const Eigen::VectorXd& m, std::size_t k) {
  std::vector<double> values = to_std_vector(m);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k - 1), values.end(),
                   std::greater<>());
  double sum = 0.0;
  for (std::size_t i = 0; i < k; ++i) sum += values[i];
  return sum;
}

// Primal-dual interior point (Mehrotra predictor-corrector) on the dual of the learning problem
// written as a QP over x = (m, u, a) with the top-k sum in epigraph form:
//     min 1/(2 lambda) ||g - X^T m||^2 + a + (1/k) sum_i u_i
//     s.t. m_i >= 0,  1 - m_i >= 0,  u_i >= 0,  u_i - m_i + a >= 0
// (min_a a + (1/k) sum_i (m_i - a)^+ = topk(m)/k, so its value is min D). Each Newton system
// K dx = r with K = H + G^T diag(z/s) G is reduced by eliminating u (a diagonal block) to
// (Q + E) dm - f da over m and the scalar a, where Q = X X^T / lambda has rank d + 1: Woodbury
// turns (Q + E)^-1 into one (d+1) x (d+1) Cholesky factorization per iteration, O(n d^2).
// Every iteration offers its m (clipped into the box) to `certify`, which computes the exact
// bracket F(theta(m)) >= min F >= -D(m); the solver stops when `certify` returns true, and
// returns false if it stalls (the caller then falls back to ADMM).
template <class Certify>
bool interior_point(const SparseRowMatrix& x, const Eigen::VectorXd& g, double lambda, std::size_t k,
                    int max_iterations, int* iterations, Eigen::VectorXd* last_m, Certify certify) {
  using Vec = Eigen::VectorXd;
  const Eigen::Index n = x.rows();
  const double c = 1.0 / static_cast<double>(k);
  // x = (m, u, a); slacks s1 = m, s2 = 1 - m, s3 = u, s4 = u - m + a; multipliers z1..z4.
  Vec m = Vec::Constant(n, 0.5), u = Vec::Constant(n, 0.5);
  double a = 0.5;
  Vec s1 = m, s2 = Vec::Constant(n, 0.5), s3 = u, s4 = Vec::Constant(n, 0.5);
  Vec z1 = Vec::Ones(n), z2 = Vec::Ones(n), z3 = Vec::Ones(n), z4 = Vec::Ones(n);
  const double constraints = 4.0 * static_cast<double>(n);
  for (int iteration = 1; iteration <= max_iterations; ++iteration) {
    *iterations = iteration;
    const Vec theta = (g - x.transpose() * m) / lambda;
    // Residuals: dual r_d = H x + p - G^T z, primal r_p = G x - s - h.
    const Vec rd_m = -(x * theta) - z1 + z2 + z4;  // Q m - X g / lambda = -X theta
    const Vec rd_u = Vec::Constant(n, c) - z3 - z4;
    const double rd_a = 1.0 - z4.sum();
    const Vec rp1 = m - s1, rp2 = (Vec::Ones(n) - m) - s2, rp3 = u - s3;
    const Vec rp4 = (u - m).array() + a - s4.array();
    const double mu = (s1.dot(z1) + s2.dot(z2) + s3.dot(z3) + s4.dot(z4)) / constraints;
    {
      const Vec inside = m.cwiseMax(0.0).cwiseMin(1.0);
      *last_m = inside;
      if (certify(inside, (g - x.transpose() * inside) / lambda)) return true;
      // Near double precision the Newton systems lose their definiteness; theta(m) may still be
      // off by the error of m times X / lambda (seen on ADULT at lambda <= 2^-6): ADMM takes over.
      if (mu < 1e-14) return false;
    }
    // Slacks and multipliers kept off exact zero (0/0 would poison the Newton system).
    for (Vec* v : {&s1, &s2, &s3, &s4, &z1, &z2, &z3, &z4}) *v = v->cwiseMax(1e-300);
    const Vec d1 = z1.cwiseQuotient(s1), d2 = z2.cwiseQuotient(s2), d3 = z3.cwiseQuotient(s3),
              d4 = z4.cwiseQuotient(s4);
    const Vec d34 = d3 + d4;
    const Vec e = d1 + d2 + d3.cwiseProduct(d4).cwiseQuotient(d34);
    const Vec f = d3.cwiseProduct(d4).cwiseQuotient(d34);
    const Vec e_inverse = e.cwiseMax(1e-20).cwiseInverse();
    // (Q + E)^-1 v = E^-1 v - E^-1 X (lambda I + X^T E^-1 X)^-1 X^T E^-1 v.
    Eigen::MatrixXd inner = Eigen::MatrixXd(x.transpose() * e_inverse.asDiagonal() * x);
    inner.diagonal().array() += lambda;
    const Eigen::LDLT<Eigen::MatrixXd> factor(inner);
    if (factor.info() != Eigen::Success) return false;
    auto solve_qe = [&](const Vec& v) -> Vec {
      const Vec ev = e_inverse.cwiseProduct(v);
      return ev - e_inverse.cwiseProduct(x * factor.solve(x.transpose() * ev));
    };
    const Vec qe_f = solve_qe(f);
    const double schur = f.sum() - f.dot(qe_f);
    if (!(schur > 0.0)) return false;
    // One Newton direction for the complementarity targets s_j z_j -> r_c (per constraint j).
    struct Direction { Vec dm, du, ds1, ds2, ds3, ds4, dz1, dz2, dz3, dz4; double da = 0.0; };
    auto direction = [&](const Vec& rc1, const Vec& rc2, const Vec& rc3, const Vec& rc4) {
      // K dx = -r_d - G^T (D r_p + r_c / s); G^T maps (w1, w2, w3, w4) to
      // (w1 - w2 - w4, w3 + w4, sum w4).
      const Vec w1 = d1.cwiseProduct(rp1) + rc1.cwiseQuotient(s1), w2 = d2.cwiseProduct(rp2) + rc2.cwiseQuotient(s2),
                w3 = d3.cwiseProduct(rp3) + rc3.cwiseQuotient(s3), w4 = d4.cwiseProduct(rp4) + rc4.cwiseQuotient(s4);
      const Vec r_m = -rd_m - (w1 - w2 - w4), r_u = -rd_u - (w3 + w4);
      const double r_a = -rd_a - w4.sum();
      // Eliminate u: du = (r_u + D4 dm - d4 da) / (D3 + D4).
      const Vec r_m_reduced = r_m + d4.cwiseProduct(r_u).cwiseQuotient(d34);
      const double r_a_reduced = r_a - d4.cwiseProduct(r_u).cwiseQuotient(d34).sum();
      const Vec base = solve_qe(r_m_reduced);
      Direction dir;
      dir.da = (r_a_reduced + f.dot(base)) / schur;
      dir.dm = base + qe_f * dir.da;
      dir.du = (r_u + d4.cwiseProduct(dir.dm) - d4 * dir.da).cwiseQuotient(d34);
      // ds = G dx + r_p; dz = -(r_c + z ds) / s.
      dir.ds1 = dir.dm + rp1;
      dir.ds2 = -dir.dm + rp2;
      dir.ds3 = dir.du + rp3;
      dir.ds4 = (dir.du - dir.dm).array() + dir.da + rp4.array();
      dir.dz1 = -(rc1 + z1.cwiseProduct(dir.ds1)).cwiseQuotient(s1);
      dir.dz2 = -(rc2 + z2.cwiseProduct(dir.ds2)).cwiseQuotient(s2);
      dir.dz3 = -(rc3 + z3.cwiseProduct(dir.ds3)).cwiseQuotient(s3);
      dir.dz4 = -(rc4 + z4.cwiseProduct(dir.ds4)).cwiseQuotient(s4);
      return dir;
    };
    // The largest step in (0, 1] keeping v + step dv >= 0.
    auto max_step = [](const Vec& v, const Vec& dv) {
      double step = 1.0;
      for (Eigen::Index i = 0; i < v.size(); ++i)
        if (dv[i] < 0.0) step = std::min(step, -v[i] / dv[i]);
      return step;
    };
    auto steps = [&](const Direction& dir) {
      const double primal = std::min({max_step(s1, dir.ds1), max_step(s2, dir.ds2), max_step(s3, dir.ds3),
                                      max_step(s4, dir.ds4)});
      const double dual = std::min({max_step(z1, dir.dz1), max_step(z2, dir.dz2), max_step(z3, dir.dz3),
                                    max_step(z4, dir.dz4)});
      return std::pair{primal, dual};
    };
    // Predictor (affine scaling: r_c = s z), then Mehrotra's corrector with sigma = (mu_aff/mu)^3.
    const Direction affine = direction(s1.cwiseProduct(z1), s2.cwiseProduct(z2), s3.cwiseProduct(z3),
                                       s4.cwiseProduct(z4));
    const auto [primal_affine, dual_affine] = steps(affine);
    auto gap_after = [&](const Vec& s, const Vec& ds, const Vec& z, const Vec& dz) {
      return (s + primal_affine * ds).dot(z + dual_affine * dz);
    };
    const double mu_affine = (gap_after(s1, affine.ds1, z1, affine.dz1) + gap_after(s2, affine.ds2, z2, affine.dz2) +
                              gap_after(s3, affine.ds3, z3, affine.dz3) + gap_after(s4, affine.ds4, z4, affine.dz4)) /
                             constraints;
    const double sigma = std::pow(std::clamp(mu_affine / mu, 0.0, 1.0), 3);
    auto target = [&](const Vec& s, const Vec& z, const Vec& ds, const Vec& dz) -> Vec {
      return (s.cwiseProduct(z) + ds.cwiseProduct(dz)).array() - sigma * mu;
    };
    const Direction step = direction(target(s1, z1, affine.ds1, affine.dz1), target(s2, z2, affine.ds2, affine.dz2),
                                     target(s3, z3, affine.ds3, affine.dz3), target(s4, z4, affine.ds4, affine.dz4));
    auto [primal, dual] = steps(step);
    primal = std::min(1.0, 0.995 * primal);
    dual = std::min(1.0, 0.995 * dual);
    if (!(primal > 1e-12 && dual > 1e-12)) return false;
    m += primal * step.dm;
    u += primal * step.du;
    a += primal * step.da;
    s1 += primal * step.ds1;
    s2 += primal * step.ds2;
    s3 += primal * step.ds3;
    s4 += primal * step.ds4;
    z1 += dual * step.dz1;
    z2 += dual * step.dz2;
    z3 += dual * step.dz3;
    z4 += dual * step.dz4;
  }
  return false;
}

}  // namespace

std::string to_string(PrecisionAtKTrainStatus status) {
  switch (status) {
    case PrecisionAtKTrainStatus::converged: return "converged";
    case PrecisionAtKTrainStatus::iteration_limit: return to_string(RunLimit::iterations);
    case PrecisionAtKTrainStatus::time_limit: return to_string(RunLimit::seconds);
  }
  return "unknown";
}

nlohmann::json PrecisionAtKTrainSummary::to_json() const {
  return {{"converged", converged()},
          {"status", to_string(status)},
          {"interior_point_iterations", interior_point_iterations},
          {"iterations", iterations},
          {"objective", objective},
          {"lower_bound", dual_value},
          {"gap", gap},
          {"rho_changes", rho_changes},
          {"seconds", seconds}};
}

std::string PrecisionAtKTrainSummary::report() const {
  const std::string steps = iterations == 0 ? fmt::format("{} interior-point iterations", interior_point_iterations)
                                            : fmt::format("{} interior-point and {} ADMM iterations",
                                                          interior_point_iterations, iterations);
  return fmt::format("{} after {}: objective {:.10g} (certified gap {:.2e}); {:.2f} s", to_string(status), steps,
                     objective, gap, seconds);
}

// With topk(m) = min_tau k tau + sum_i (m_i - tau)^+ the map is a joint minimization over
// (m, tau). For fixed tau in [0, 1] each coordinate has the closed form
//     m_i = max(0, u_i)       if u_i <= tau,
//           min(1, u_i - s)   if u_i - s >= tau,
//           tau               otherwise,
// and the value is convex in tau with the non-decreasing derivative
//     s k - s #{i : u_i - s >= tau} + sum_{i : u_i - s < tau < u_i} (tau - u_i),
// whose root (clamped to [0, 1], where the k-th largest m_i lies) is found below.
Eigen::VectorXd prox_top_k_sum(const Eigen::VectorXd& u, std::size_t k, double s, double* tau_hint) {
  const auto n = static_cast<std::size_t>(u.size());
  if (k < 1 || k > n) throw Error("prox_top_k_sum: need 1 <= k <= n");
  // The derivative is continuous and piecewise linear in tau with slope
  // #{i : u_i - s < tau < u_i}; its root is found by Newton steps safeguarded by bisection
  // (exact once a step lands on the root's linear piece, so a good hint needs few passes).
  auto derivative = [&](double tau, double* slope) {
    double d = s * static_cast<double>(k);
    double count = 0.0;
    for (Eigen::Index i = 0; i < u.size(); ++i) {
      if (u[i] - s >= tau) {
        d -= s;
      } else if (u[i] > tau) {
        d += tau - u[i];
        count += 1.0;
      }
    }
    if (slope) *slope = count;
    return d;
  };
  double tau = 0.0;
  if (derivative(0.0, nullptr) < 0.0) {
    if (derivative(1.0, nullptr) <= 0.0) {
      tau = 1.0;
    } else {
      double lo = 0.0, hi = 1.0;
      tau = tau_hint && *tau_hint > 0.0 && *tau_hint < 1.0 ? *tau_hint : 0.5;
      for (int step = 0; step < 200; ++step) {
        double slope = 0.0;
        const double d = derivative(tau, &slope);
        if (d == 0.0) break;
        (d < 0.0 ? lo : hi) = tau;
        if (hi - lo <= 1e-16) break;
        double next = slope > 0.0 ? tau - d / slope : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (next == tau) break;
        tau = next;
      }
    }
  }
  if (tau_hint) *tau_hint = tau;
  Eigen::VectorXd m(u.size());
  for (Eigen::Index i = 0; i < u.size(); ++i)
    m[i] = u[i] <= tau ? std::max(0.0, u[i]) : (u[i] - s >= tau ? std::min(1.0, u[i] - s) : tau);
  return m;
}

BinaryModel train_precision_at_k_mpg(const BinaryProblem& problem, const MetricSettings& settings,
                                     const PrecisionAtKTrainOptions& options,
                                     PrecisionAtKTrainSummary* summary_out) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  if (!has_dual_trainer(settings))
    throw Error("the dual P@k trainer needs metric precision_at_k with the unrestricted adversary; got metric " +
                to_string(settings.metric) +
                (binary_metric_plugin(settings.metric).has_k ? " with adversary " + to_string(settings.restriction) : ""));
  const double lambda = options.lambda;
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw Error("the dual P@k trainer needs lambda > 0 (got " + std::to_string(lambda) + ")");
  if (!(options.relaxation > 0.0 && options.relaxation < 2.0))
    throw Error("the dual P@k trainer needs a relaxation in (0, 2) (got " + std::to_string(options.relaxation) + ")");
  const SparseRowMatrix& x = problem.features;
  const std::size_t k = precision_k(settings, problem.labels);
  const double kk = static_cast<double>(k);
  Eigen::VectorXd gold(x.rows());
  for (Eigen::Index i = 0; i < x.rows(); ++i) gold[i] = problem.labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : 0.0;
  const Eigen::VectorXd g = x.transpose() * gold;
  const Eigen::MatrixXd gram = Eigen::MatrixXd(x.transpose() * x);  // (d+1) x (d+1)
  const Eigen::Index d = x.cols();

  // The theta-step solves (lambda I + rho X^T X) theta = g + X^T (rho psi - m): one Cholesky
  // factorization of a (d+1) x (d+1) matrix per value of rho.
  double rho = lambda / std::max(gram.trace() / static_cast<double>(d), 1e-12);
  Eigen::LLT<Eigen::MatrixXd> factor;
  auto refactor = [&] {
    Eigen::MatrixXd system = rho * gram;
    system.diagonal().array() += lambda;
    factor.compute(system);
  };
  refactor();

  auto theta_of = [&](const Eigen::VectorXd& m) -> Eigen::VectorXd { return (g - x.transpose() * m) / lambda; };
  PrecisionAtKTrainSummary summary;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.dual_value = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_theta = Eigen::VectorXd::Zero(d);
  // F(theta) exactly, from the closed-form game: v(theta) = the adversary's best-response value.
  auto try_primal = [&](const Eigen::VectorXd& theta) {
    const Eigen::VectorXd psi = x * theta;
    const auto eq = solve_precision_at_k_game(to_std_vector(psi), k);
    const double objective = 0.5 * lambda * theta.squaredNorm() - theta.dot(g) - eq.adversary_response_value;
    if (objective < summary.objective) {
      summary.objective = objective;
      best_theta = theta;
    }
  };
  // First the interior point method where the (d+1) x (d+1) matrices it factors are small; ADMM
  // below if it is off, does not apply, or stalls before the certificate.
  Eigen::VectorXd m = Eigen::VectorXd::Zero(x.rows());  // the scaled ADMM multiplier rho u, a dual point
  if (options.interior_point_iterations > 0 && d <= options.interior_point_max_features) {
    auto certify = [&](const Eigen::VectorXd& dual_point, const Eigen::VectorXd& primal_theta) {
      try_primal(primal_theta);
      const Eigen::VectorXd theta_m = theta_of(dual_point);
      summary.dual_value = std::max(summary.dual_value, -(0.5 * lambda * theta_m.squaredNorm() + top_k_sum(dual_point, k) / kk));
      summary.gap = summary.objective - summary.dual_value;
      return summary.gap <= options.tolerance;
    };
    if (interior_point(x, g, lambda, k, options.interior_point_iterations, &summary.interior_point_iterations, &m,
                       certify)) {
      summary.status = PrecisionAtKTrainStatus::converged;
      summary.seconds = seconds_since(start);
      if (summary_out) *summary_out = summary;
      return BinaryModel::trained(settings, lambda, best_theta);
    }
  }
  // ADMM starts from the interior point method's last dual point, if any (else from zero).
  Eigen::VectorXd theta = theta_of(m);
  Eigen::VectorXd psi = x * theta;
  double tau = 0.5;  // the proximal map's threshold, a warm start for the next one
  const int check_every = std::max(1, options.check_every);
  // rho is updated on certificate iterations only: every rho_every, rounded up to check_every.
  const int rho_period = check_every * std::max(1, (options.rho_every + check_every - 1) / check_every);
  for (;;) {
    ++summary.iterations;
    theta = factor.solve(g + x.transpose() * (rho * psi - m));
    const Eigen::VectorXd x_theta = x * theta;
    // Over-relaxed psi-step; prox_{h/rho}(v) = v - prox_{rho h*}(rho v) / rho (Moreau), and the new
    // multiplier rho u = prox_{rho h*}(rho v) lies in the subdifferential of h at the new psi.
    const Eigen::VectorXd v = options.relaxation * x_theta + (1.0 - options.relaxation) * psi + m / rho;
    const Eigen::VectorXd next_m = prox_top_k_sum(rho * v, k, rho / kk, &tau);
    const Eigen::VectorXd next_psi = v - next_m / rho;
    const bool update_rho = summary.iterations % rho_period == 0;
    double primal_residual = 0.0, dual_residual = 0.0;
    if (update_rho) {  // residuals relative to their scales (Boyd et al. 2011, §3.3.1)
      primal_residual = (x_theta - next_psi).norm() / std::max({x_theta.norm(), next_psi.norm(), 1e-300});
      dual_residual = rho * (x.transpose() * (next_psi - psi)).norm() /
                      std::max((x.transpose() * next_m).norm(), 1e-300);
    }
    psi = next_psi;
    m = next_m;
    if (summary.iterations % check_every != 0) continue;
    // Certificate: F at theta and at theta(m) bounds min F from above, -D(m) from below.
    try_primal(theta);
    const Eigen::VectorXd theta_m = theta_of(m);
    try_primal(theta_m);
    summary.dual_value = std::max(summary.dual_value, -(0.5 * lambda * theta_m.squaredNorm() + top_k_sum(m, k) / kk));
    summary.gap = summary.objective - summary.dual_value;
    if (summary.gap <= options.tolerance) {
      summary.status = PrecisionAtKTrainStatus::converged;
      break;
    }
    if (auto limit = limit_reached(summary.iterations, options.max_iterations, seconds_since(start),
                                   options.max_seconds)) {
      summary.status = *limit == RunLimit::iterations ? PrecisionAtKTrainStatus::iteration_limit
                                                      : PrecisionAtKTrainStatus::time_limit;
      break;
    }
    // Residual balancing (Boyd et al. 2011, §3.4.1) every `rho_every` iterations; m = rho u is
    // kept, so the scaled multiplier u follows rho.
    if (update_rho) {
      if (primal_residual > 10.0 * dual_residual) {
        rho *= 2.0;
        refactor();
        ++summary.rho_changes;
      } else if (dual_residual > 10.0 * primal_residual) {
        rho /= 2.0;
        refactor();
        ++summary.rho_changes;
      }
    }
  }
  summary.seconds = seconds_since(start);
  if (summary_out) *summary_out = summary;
  return BinaryModel::trained(settings, lambda, best_theta);
}

}  // namespace mpg
