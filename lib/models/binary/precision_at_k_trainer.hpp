// Exact training of the P@k MPG with the unrestricted adversary, through the dual of the
// learning problem.
//
// With the game in closed form (solve_precision_at_k_game) the adversary's strategy matters
// only through its marginals m in [0,1]^n, and the predictor's best response to m is worth
// topk(m)/k (the sum of the k largest m_i, over k). Minimizing the learning objective
//     F(theta) = lambda/2 ||theta||^2 - theta . g - v(theta),   g = Phi(x, y_gold)   (Eq. 3.9)
// over theta is then dual to
//     D(m) = 1/(2 lambda) ||g - X^T m||^2 + topk(m) / k   over m in [0,1]^n,
// with theta(m) = (g - X^T m) / lambda and min F = -min D. In the primal,
//     F(theta) = lambda/2 ||theta||^2 - theta . g + h(X theta),
//     h(psi) = max(sum_i psi_i^+ - 1, sum_i (psi_i - 1/k)^+)   (= -v, the closed-form game),
// and h* is topk(m)/k on the box, whose proximal map costs O(n) per bisection step
// (topk(m) = min_tau k tau + sum_i (m_i - tau)^+). The trainer runs ADMM on the split
// psi = X theta (Boyd et al. 2011): the theta-step is one solve with a cached Cholesky factor
// of the small matrix lambda I + rho X^T X, the psi-step is that proximal map (through Moreau's
// identity), with over-relaxation and residual balancing of rho. Its multiplier m is always a
// feasible dual point, so every few iterations F(theta) (exact, from the closed-form game) and
// -D(m) bracket min F, and the run stops when
//     F(theta) + D(m) <= tolerance,
// a certificate that the returned theta is tolerance-optimal for the learning problem.
// (Accelerated proximal gradient on D, the first version, reached only a gap of 1e-3 in 60 s
// on ADULT: D's quadratic has rank d + 1 in n dimensions.)
// ADMM needs up to ~10^6 iterations where lambda is small (OPTDIGITS, lambda = 2^-10: 238 s),
// so a primal-dual interior point method on D in epigraph form runs first (~20-35 Newton steps
// of O(n d^2), each offering its m to the same certificate): OPTDIGITS at every lambda is
// certified in < 1 s. Where it stalls before the certificate (ADULT, lambda <= 2^-6: theta(m)
// amplifies the error of m by 1/lambda), ADMM continues from its last dual point.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "lib/models/binary/binary_mpg.hpp"

namespace mpg {

struct PrecisionAtKTrainOptions {
  double lambda = 0.125;        // must be > 0
  double tolerance = 1e-6;      // on F(theta) + D(m)
  // A primal-dual interior point method on the dual QP runs first, up to this many iterations
  // (0 = ADMM only), where theta has at most interior_point_max_features entries (it factors
  // (d+1) x (d+1) matrices); ADMM runs only if it stops before the certificate.
  int interior_point_iterations = 200;
  long interior_point_max_features = 2000;
  int max_iterations = 1000000; // ADMM iterations; 0 = no cap
  double max_seconds = 0.0;     // 0 = no cap
  int check_every = 10;         // iterations between duality-gap evaluations
  double relaxation = 1.8;      // ADMM over-relaxation, in (0, 2)
  int rho_every = 1000;         // iterations between penalty (rho) updates
};

enum class PrecisionAtKTrainStatus { converged, iteration_limit, time_limit };
std::string to_string(PrecisionAtKTrainStatus status);

struct PrecisionAtKTrainSummary {
  PrecisionAtKTrainStatus status = PrecisionAtKTrainStatus::iteration_limit;
  int interior_point_iterations = 0;
  int iterations = 0;  // of ADMM (0 when the interior point method certified the optimum)
  double objective = 0.0;    // F(theta) of the returned theta (exact)
  double dual_value = 0.0;   // -D(m): min F >= dual_value
  double gap = 0.0;          // objective - dual_value
  int rho_changes = 0;
  double seconds = 0.0;

  bool converged() const { return status == PrecisionAtKTrainStatus::converged; }
  nlohmann::json to_json() const;
  // "<status> after <n> interior-point [and <m> ADMM] iterations: objective <F> (certified gap <g>); <s> s".
  std::string report() const;
};

// Throws mpg::Error unless the metric has this dual trainer (has_dual_trainer: P@k with the
// unrestricted adversary) and lambda > 0.
BinaryModel train_precision_at_k_mpg(const BinaryProblem& problem, const MetricSettings& settings,
                                     const PrecisionAtKTrainOptions& options,
                                     PrecisionAtKTrainSummary* summary = nullptr);

// The proximal map of m -> s * topk(m) + indicator([0,1]^n):
//     argmin_{m in [0,1]^n} 1/2 ||m - u||^2 + s * (sum of the k largest m_i).
// Exposed for its test.
// `tau_hint`, if given, starts the threshold search (the previous call's threshold) and receives
// this call's.
Eigen::VectorXd prox_top_k_sum(const Eigen::VectorXd& u, std::size_t k, double s, double* tau_hint = nullptr);

}  // namespace mpg
