#include "lib/precision_at_k_trainer.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "lib/error.hpp"

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

// With topk(m) = min_tau k tau + sum_i (m_i - tau)^+ the map is a joint minimization over
// (m, tau). For fixed tau in [0, 1] each coordinate has the closed form
//     m_i = max(0, u_i)       if u_i <= tau,
//           min(1, u_i - s)   if u_i - s >= tau,
//           tau               otherwise,
// and the value is convex in tau with the non-decreasing derivative
//     s k - s #{i : u_i - s >= tau} + sum_{i : u_i - s < tau < u_i} (tau - u_i),
// whose root (clamped to [0, 1], where the k-th largest m_i lies) is found by bisection.
Eigen::VectorXd prox_top_k_sum(const Eigen::VectorXd& u, std::size_t k, double s) {
  const auto n = static_cast<std::size_t>(u.size());
  if (k < 1 || k > n) throw Error("prox_top_k_sum: need 1 <= k <= n");
  auto derivative = [&](double tau) {
    double d = s * static_cast<double>(k);
    for (Eigen::Index i = 0; i < u.size(); ++i) {
      if (u[i] - s >= tau) d -= s;
      else if (u[i] > tau) d += tau - u[i];
    }
    return d;
  };
  double tau = 0.0;
  if (derivative(0.0) < 0.0) {
    if (derivative(1.0) <= 0.0) {
      tau = 1.0;
    } else {
      double lo = 0.0, hi = 1.0;
      for (int step = 0; step < 64 && hi - lo > 1e-16; ++step) {
        const double mid = 0.5 * (lo + hi);
        (derivative(mid) < 0.0 ? lo : hi) = mid;
      }
      tau = 0.5 * (lo + hi);
    }
  }
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
  if (!has_closed_form(settings))
    throw Error("the dual P@k trainer needs metric precision_at_k with the unrestricted adversary");
  const double lambda = options.lambda;
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw Error("the dual P@k trainer needs lambda > 0 (got " + std::to_string(lambda) + ")");
  const SparseRowMatrix& x = problem.features;
  const std::size_t k = precision_k(settings, problem.labels);
  const double kk = static_cast<double>(k);
  Eigen::VectorXd gold(x.rows());
  for (Eigen::Index i = 0; i < x.rows(); ++i) gold[i] = problem.labels[static_cast<std::size_t>(i)] == 1 ? 1.0 : 0.0;
  const Eigen::VectorXd g = x.transpose() * gold;

  // Lipschitz constant of grad 1/(2 lambda) ||g - X^T m||^2: the largest eigenvalue of X^T X
  // (a small (d+1) x (d+1) matrix) over lambda.
  const Eigen::MatrixXd gram = Eigen::MatrixXd(x.transpose() * x);
  const double largest = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(gram, Eigen::EigenvaluesOnly)
                             .eigenvalues()
                             .maxCoeff();
  const double lipschitz = std::max(largest, 1e-12) / lambda;
  double local_lipschitz = lipschitz * 1e-3;

  auto theta_of = [&](const Eigen::VectorXd& m) -> Eigen::VectorXd { return (g - x.transpose() * m) / lambda; };
  PrecisionAtKTrainSummary summary;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.dual_value = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_theta = Eigen::VectorXd::Zero(x.cols());
  Eigen::VectorXd m = gold;  // theta(m) = 0 to start
  Eigen::VectorXd z = m;
  double t = 1.0;
  for (;;) {
    if (summary.iterations % std::max(1, options.check_every) == 0) {
      // Certificate: F(theta(m)) (exact, from the closed-form game) and -D(m) bracket min F.
      const Eigen::VectorXd theta = theta_of(m);
      const Eigen::VectorXd psi = x * theta;
      const auto eq = solve_precision_at_k_game(std::vector<double>(psi.data(), psi.data() + psi.size()), k);
      const double half_norm = 0.5 * lambda * theta.squaredNorm();
      // v(theta) >= the adversary's best-response value against the predictor's pi.
      const double objective = half_norm - theta.dot(g) - eq.adversary_response_value;
      const double dual = -(half_norm + top_k_sum(m, k) / kk);
      if (objective < summary.objective) {
        summary.objective = objective;
        best_theta = theta;
      }
      summary.dual_value = std::max(summary.dual_value, dual);
      summary.gap = summary.objective - summary.dual_value;
      if (summary.gap <= options.tolerance) {
        summary.converged = true;
        summary.status = "converged";
        break;
      }
      if (options.max_iterations > 0 && summary.iterations >= options.max_iterations) {
        summary.status = "not converged: iteration limit";
        break;
      }
      if (options.max_seconds > 0.0 && seconds_since(start) >= options.max_seconds) {
        summary.status = "not converged: time limit";
        break;
      }
    }
    ++summary.iterations;
    // FISTA step from z: gradient -X theta(z), then the proximal map of step * topk / k. The
    // step comes from a local Lipschitz estimate (backtracking: doubled until the quadratic
    // model bounds f, then allowed to shrink again), far larger than 1/L_max on these problems.
    const Eigen::VectorXd theta_z = theta_of(z);
    const Eigen::VectorXd gradient = -(x * theta_z);
    const double f_z = 0.5 * lambda * theta_z.squaredNorm();
    Eigen::VectorXd next;
    for (;;) {
      next = prox_top_k_sum(z - gradient / local_lipschitz, k, 1.0 / (local_lipschitz * kk));
      const Eigen::VectorXd d = next - z;
      const double f_next = 0.5 * lambda * theta_of(next).squaredNorm();
      if (f_next <= f_z + gradient.dot(d) + 0.5 * local_lipschitz * d.squaredNorm() + 1e-12 * std::abs(f_z) ||
          local_lipschitz >= lipschitz)
        break;
      local_lipschitz = std::min(2.0 * local_lipschitz, lipschitz);
    }
    local_lipschitz = std::max(local_lipschitz / 1.25, lipschitz * 1e-9);
    if ((z - next).dot(next - m) > 0.0) {  // adaptive restart (O'Donoghue and Candes 2015)
      t = 1.0;
      z = next;
      ++summary.restarts;
    } else {
      const double t_next = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
      z = next + ((t - 1.0) / t_next) * (next - m);
      t = t_next;
    }
    m = next;
  }
  summary.seconds = seconds_since(start);
  if (summary_out) *summary_out = summary;
  return BinaryModel::trained(settings, lambda, best_theta);
}

}  // namespace mpg
