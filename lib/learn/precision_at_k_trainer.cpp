#include "lib/learn/precision_at_k_trainer.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"
#include "lib/base/run_limits.hpp"

namespace mpg {
namespace {

double top_k_sum(const Eigen::VectorXd& m, std::size_t k) {
  std::vector<double> values(m.data(), m.data() + m.size());
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k - 1), values.end(),
                   std::greater<>());
  double sum = 0.0;
  for (std::size_t i = 0; i < k; ++i) sum += values[i];
  return sum;
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
  return {{"converged", converged()}, {"status", to_string(status)}, {"iterations", iterations},
          {"objective", objective},   {"lower_bound", dual_value},     {"gap", gap},
          {"rho_changes", rho_changes}, {"seconds", seconds}};
}

std::string PrecisionAtKTrainSummary::report() const {
  return fmt::format("{} after {} iterations: objective {:.10g} (certified gap {:.2e}); {:.2f} s", to_string(status),
                     iterations, objective, gap, seconds);
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
    throw Error("the dual P@k trainer needs metric precision_at_k with the unrestricted adversary");
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
    const auto eq = solve_precision_at_k_game(std::vector<double>(psi.data(), psi.data() + psi.size()), k);
    const double objective = 0.5 * lambda * theta.squaredNorm() - theta.dot(g) - eq.adversary_response_value;
    if (objective < summary.objective) {
      summary.objective = objective;
      best_theta = theta;
    }
  };
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(d);
  Eigen::VectorXd psi = Eigen::VectorXd::Zero(x.rows());
  Eigen::VectorXd m = Eigen::VectorXd::Zero(x.rows());  // the scaled ADMM multiplier rho u
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
