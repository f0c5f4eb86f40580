#include "lib/learn/optimizer.hpp"

#include <fmt/format.h>
#include <lbfgs.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/learn/adadelta_step.hpp"
#include "lib/learn/cut_model.hpp"
#include "lib/learn/lbfgs_status.hpp"
#include "lib/learn/simplex_qp.hpp"
#include "lib/learn/simplex_qp_active_set.hpp"

namespace mpg {

OptimizerKind parse_optimizer_kind(const std::string& name) {
  if (name == "lbfgs") return OptimizerKind::lbfgs;
  if (name == "adadelta") return OptimizerKind::adadelta;
  if (name == "cutting_plane") return OptimizerKind::cutting_plane;
  throw Error("unknown optimizer '" + name + "' (expected lbfgs, adadelta or cutting_plane)");
}

std::string to_string(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::lbfgs:
      return "lbfgs";
    case OptimizerKind::adadelta:
      return "adadelta";
    case OptimizerKind::cutting_plane:
      return "cutting_plane";
  }
  throw Error("invalid OptimizerKind value");
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The objective plus bookkeeping: counts calls and keeps the lowest finite value seen together
// with its point and gradient.
struct TrackedObjective {
  explicit TrackedObjective(Objective& wrapped) : objective(wrapped) {}

  Objective& objective;
  int evaluations = 0;
  double best_value = std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_theta;
  Eigen::VectorXd best_gradient;
  double last_value = std::numeric_limits<double>::infinity();  // of the last evaluation
  Eigen::VectorXd last_theta;
  Eigen::VectorXd last_gradient;

  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    ++evaluations;
    const double value = objective.evaluate(theta, gradient);
    last_value = value;
    last_theta = theta;
    last_gradient = gradient;
    if (std::isfinite(value) && gradient.allFinite() && value < best_value) {
      best_value = value;
      best_theta = theta;
      best_gradient = gradient;
    }
    return value;
  }
};

// Relative decrease from `older` to `newer`, (older - newer) / |older|.
double relative_decrease(double older, double newer) {
  return (older - newer) / std::max(std::abs(older), std::numeric_limits<double>::min());
}

// ||g|| <= tolerance * max(1, ||theta||): the stationarity test shared by both methods.
bool gradient_is_small(const Eigen::VectorXd& gradient, const Eigen::VectorXd& theta,
                       double tolerance) {
  return gradient.norm() <= tolerance * std::max(1.0, theta.norm());
}

void validate(const OptimizerOptions& options) {
  if (options.max_iterations < 1) throw Error("optimizer max_iterations must be at least 1");
  if (options.lbfgs_memory < 1) throw Error("optimizer lbfgs_memory must be at least 1");
  if (options.past < 0) throw Error("optimizer past must be non-negative");
  if (!(options.gradient_tolerance >= 0.0) || !(options.value_tolerance >= 0.0) ||
      !(options.adadelta_value_tolerance >= 0.0) || !(options.adadelta_step_tolerance >= 0.0)) {
    throw Error("optimizer tolerances must be non-negative");
  }
  if (!(options.adadelta_rho >= 0.0 && options.adadelta_rho < 1.0)) {
    throw Error("optimizer adadelta_rho must lie in [0, 1)");
  }
  if (!(options.adadelta_epsilon > 0.0)) throw Error("optimizer adadelta_epsilon must be positive");
  if (options.kind == OptimizerKind::cutting_plane) {
    if (!(options.regularization > 0.0) || !std::isfinite(options.regularization))
      throw Error("the cutting-plane optimizer needs the objective's regularization lambda > 0");
    check_stopping_tolerances("optimizer", "cutting_plane_tolerance", options.cutting_plane_tolerance,
                              options.argument_tolerance);
    if (options.cut_idle_limit < 1) throw Error("optimizer cut_idle_limit must be at least 1");
  }
}

// ---- L-BFGS (liblbfgs) ----

bool lbfgs_converged(int status) {
  return status == LBFGS_SUCCESS || status == LBFGS_STOP || status == LBFGS_ALREADY_MINIMIZED;
}

// State shared with the C callbacks. No exception may unwind through liblbfgs: one thrown by the
// objective or the progress callback is stored here, the run is stopped, and it is rethrown
// after lbfgs() returns.
struct LbfgsContext {
  LbfgsContext(TrackedObjective& tracked_objective, const OptimizerOptions& optimizer_options)
      : tracked(tracked_objective),
        options(optimizer_options),
        start_value(tracked_objective.best_value),
        start_gradient(tracked_objective.best_gradient),
        theta(start_gradient.size()),
        gradient(start_gradient.size()),
        values{start_value} {}

  TrackedObjective& tracked;
  const OptimizerOptions& options;
  // liblbfgs evaluates the start point first; minimize() already did, so that result is reused.
  bool start_pending = true;
  double start_value;
  Eigen::VectorXd start_gradient;
  Eigen::VectorXd theta;     // copy of liblbfgs's x (Objective takes a VectorXd)
  Eigen::VectorXd gradient;  // written by Objective, copied into liblbfgs's g
  std::vector<double> values;  // f_0 (start), f_1, ... after each iteration
  int iterations = 0;
  bool evaluation_limit = false;  // OptimizerOptions::max_evaluations reached
  std::exception_ptr error;
};

lbfgsfloatval_t lbfgs_evaluate(void* instance, const lbfgsfloatval_t* x, lbfgsfloatval_t* g,
                               const int n, const lbfgsfloatval_t /*step*/) {
  auto& context = *static_cast<LbfgsContext*>(instance);
  Eigen::Map<Eigen::VectorXd> gradient_out(g, n);
  if (context.start_pending) {
    context.start_pending = false;
    gradient_out = context.start_gradient;
    return context.start_value;
  }
  // After a failure or at the evaluation cap: a NaN value with zero gradient ends the line
  // search, then progress cancels.
  const int cap = context.options.max_evaluations;
  if (cap > 0 && context.tracked.evaluations >= cap) context.evaluation_limit = true;
  if (context.error || context.evaluation_limit) {
    gradient_out.setZero();
    return kNaN;
  }
  try {
    context.theta = Eigen::Map<const Eigen::VectorXd>(x, n);
    const double value = context.tracked.evaluate(context.theta, context.gradient);
    gradient_out = context.gradient;
    return value;
  } catch (...) {
    context.error = std::current_exception();
    gradient_out.setZero();
    return kNaN;
  }
}

int lbfgs_progress(void* instance, const lbfgsfloatval_t* /*x*/, const lbfgsfloatval_t* /*g*/,
                   const lbfgsfloatval_t fx, const lbfgsfloatval_t /*xnorm*/,
                   const lbfgsfloatval_t gnorm, const lbfgsfloatval_t /*step*/, int /*n*/, int k,
                   int /*ls*/) {
  auto& context = *static_cast<LbfgsContext*>(instance);
  context.iterations = k;
  if (context.error || context.evaluation_limit) return LBFGSERR_CANCELED;
  if (context.options.progress) {
    try {
      context.options.progress(k, fx, gnorm);
    } catch (...) {
      context.error = std::current_exception();
      return LBFGSERR_CANCELED;
    }
  }
  // Value test (f_{k-past} - f_k) / |f_{k-past}| < value_tolerance. liblbfgs 1.10's own test
  // divides by the signed f_k, so with f < 0 it stops as soon as k reaches `past`; it is off.
  context.values.push_back(fx);
  const int past = context.options.past;
  if (past > 0 && k >= past &&
      relative_decrease(context.values[k - past], fx) < context.options.value_tolerance) {
    return LBFGS_STOP;
  }
  return 0;
}

struct LbfgsFree {
  void operator()(lbfgsfloatval_t* x) const { lbfgs_free(x); }
};

// Runs liblbfgs from tracked.best_theta (the evaluated start point).
void run_lbfgs(TrackedObjective& tracked, const OptimizerOptions& options,
               OptimizerSummary& summary) {
  const Eigen::Index n = tracked.best_theta.size();
  LbfgsContext context(tracked, options);

  // lbfgs_malloc honours the alignment and padding an SSE build of liblbfgs requires.
  std::unique_ptr<lbfgsfloatval_t, LbfgsFree> x(lbfgs_malloc(static_cast<int>(n)));
  if (!x) throw Error("out of memory allocating the L-BFGS variables");
  Eigen::Map<Eigen::VectorXd>(x.get(), n) = tracked.best_theta;

  lbfgs_parameter_t parameters;
  lbfgs_parameter_init(&parameters);
  parameters.m = options.lbfgs_memory;
  parameters.epsilon = options.gradient_tolerance;
  parameters.past = 0;  // the value test runs in lbfgs_progress
  parameters.max_iterations = options.max_iterations;
  // Backtracking with the regular (weak) Wolfe condition: on kinked objectives it keeps making
  // progress where More-Thuente and strong Wolfe stop after a few iterations at a kink.
  parameters.linesearch =
      options.lbfgs_armijo_only ? LBFGS_LINESEARCH_BACKTRACKING_ARMIJO : LBFGS_LINESEARCH_BACKTRACKING_WOLFE;
  if (options.lbfgs_more_thuente) {
    parameters.linesearch = LBFGS_LINESEARCH_MORETHUENTE;
    parameters.max_linesearch = 20;
  }

  const int status = lbfgs(static_cast<int>(n), x.get(), nullptr, lbfgs_evaluate, lbfgs_progress,
                           &context, &parameters);
  if (context.error) std::rethrow_exception(context.error);

  summary.iterations = context.iterations;
  summary.status = lbfgs_converged(status)                  ? OptimizerStatus::converged
                   : status == LBFGSERR_MAXIMUMITERATION ? OptimizerStatus::iteration_limit
                                                         : OptimizerStatus::stopped;
  summary.message = lbfgs_status_text(status);
  if (context.evaluation_limit) {
    summary.status = OptimizerStatus::iteration_limit;
    summary.message = "L-BFGS stopped: reached the evaluation limit (" + std::to_string(options.max_evaluations) + ")";
  }
  if (status == LBFGSERR_MAXIMUMITERATION) {
    summary.message += " (" + std::to_string(options.max_iterations) + ")";
  }
}

// ---- AdaDelta (Zeiler 2012), full-batch gradients ----

void run_adadelta(TrackedObjective& tracked, const OptimizerOptions& options,
                  OptimizerSummary& summary) {
  const double rho = options.adadelta_rho;
  const double eps = options.adadelta_epsilon;
  Eigen::VectorXd theta = tracked.best_theta;
  Eigen::VectorXd gradient = tracked.best_gradient;
  double value = tracked.best_value;
  AdadeltaStep adadelta(theta.size(), rho, eps);
  // Values of the last <= 11 iterates (the current one and up to 10 before it), for the
  // average-change test; the initial point counts as the first value.
  // The reference's record (adadelta_reference_tests) holds the values after each step only.
  const bool reference = options.adadelta_reference_tests;
  std::deque<double> recent_values;
  if (!reference) recent_values.push_back(value);
  const std::size_t kept_values = reference ? 10 : 11;
  constexpr std::size_t kMinValuesBeforeValueTest = 6;
  std::size_t recorded = 0;  // values recorded after steps

  int iteration = 0;
  for (;;) {
    if (!reference && gradient_is_small(gradient, theta, options.gradient_tolerance)) {
      summary.status = OptimizerStatus::converged;
      summary.message = "AdaDelta converged: gradient norm below tolerance";
      break;
    }
    if (iteration == options.max_iterations) {
      summary.status = OptimizerStatus::iteration_limit;
      summary.message = "AdaDelta stopped: reached the iteration limit (" +
                        std::to_string(options.max_iterations) + ")";
      break;
    }
    adadelta.apply(gradient, theta);  // Zeiler's step (adadelta_step.hpp)

    value = tracked.evaluate(theta, gradient);
    ++iteration;
    if (options.progress) options.progress(iteration, value, gradient.norm());
    if (!std::isfinite(value) || !gradient.allFinite()) {
      summary.message = "AdaDelta stopped: the objective became non-finite";
      break;
    }

    // Stop tests of the reference code: the average change per iteration over the last <= 10
    // iterations, |v_{t-w} - v_t| / w, relative to |v_t|; or a step that no longer moves theta.
    // In absolute value: an objective that keeps rising is not "converged".
    // The reference: (v_{t-9} - v_t) / 10, or (v_1 - v_t) / t before 10 values.
    recent_values.push_back(value);
    ++recorded;
    if (recent_values.size() > kept_values) recent_values.pop_front();
    const double window = reference ? static_cast<double>(std::min<std::size_t>(10, recorded))
                                    : static_cast<double>(recent_values.size() - 1);
    const double average_change = std::abs(recent_values.front() - value) / window /
                                  std::max(std::abs(value), std::numeric_limits<double>::min());
    const bool enough_values = (reference ? recorded : recent_values.size()) >= kMinValuesBeforeValueTest;
    if (enough_values && average_change < options.adadelta_value_tolerance) {
      summary.status = OptimizerStatus::converged;
      summary.message = "AdaDelta converged: average relative change below tolerance";
      break;
    }
    if (adadelta.step().matrix().norm() < options.adadelta_step_tolerance * std::max(1.0, theta.norm())) {
      summary.status = OptimizerStatus::converged;
      summary.message = "AdaDelta converged: step norm below tolerance";
      break;
    }
  }
  summary.iterations = iteration;
}

// The stop tests of both cutting-plane variants below: the objective certified by the lower bound
// within the tolerance, or the iteration cap. Records the bound, and the status when it stops.
bool cutting_plane_stops(const TrackedObjective& tracked, double lower, int iteration, const OptimizerOptions& options,
                         const std::string& method, OptimizerSummary& summary) {
  summary.lower_bound = lower;
  const double gap = tracked.best_value - lower;
  const double lambda = options.regularization;
  summary.distance_bound = std::sqrt(2.0 * std::max(gap, 0.0) / lambda);
  // Every test the caller set: the relative gap, and the distance to the minimizer (strong convexity).
  const bool relative = options.cutting_plane_tolerance == 0.0 ||
                        gap <= options.cutting_plane_tolerance * std::max(1.0, std::abs(tracked.best_value));
  const double delta = options.argument_tolerance;
  const bool argument = delta == 0.0 || gap <= 0.5 * lambda * delta * delta;
  if (relative && argument) {
    summary.status = OptimizerStatus::converged;
    summary.message = method + " converged: objective certified within " + std::to_string(gap) +
                      (delta > 0.0 ? fmt::format(", theta within {:.3g} of the minimizer", summary.distance_bound) : "");
    return true;
  }
  if (iteration == options.max_iterations) {
    summary.status = OptimizerStatus::iteration_limit;
    summary.message = method + " stopped: reached the iteration limit (" + std::to_string(options.max_iterations) +
                      "), certified gap " + std::to_string(gap);
    return true;
  }
  return false;
}

// Evaluates f at the next theta and reports progress with the gap before it; false (the summary
// says why) when f or its gradient is not finite there.
bool cutting_plane_evaluates(TrackedObjective& tracked, const Eigen::VectorXd& theta, Eigen::VectorXd& gradient,
                             double& value, int& iteration, double lower, const OptimizerOptions& options,
                             const std::string& method, OptimizerSummary& summary) {
  const double gap = tracked.best_value - lower;
  value = tracked.evaluate(theta, gradient);
  ++iteration;
  if (options.progress) options.progress(iteration, tracked.best_value, gap);
  if (std::isfinite(value) && gradient.allFinite()) return true;
  summary.message = method + " stopped: the objective became non-finite";
  return false;
}

// ---- Cutting planes with an exact regularizer (BMRM, Teo et al. 2010) ----
//
// f(theta) = lambda/2 ||theta||^2 + R(theta). With cuts R >= a_j . theta + b_j, the master
//     min_theta lambda/2 ||theta||^2 + max_j (a_j . theta + b_j)
//   = max_{alpha in simplex} sum_j alpha_j b_j - 1/(2 lambda) ||sum_j alpha_j a_j||^2,
// theta = -(1/lambda) sum_j alpha_j a_j; the master value bounds min f from below.
void run_proximal_bundle(TrackedObjective& tracked, const OptimizerOptions& options, OptimizerSummary& summary);

void run_cutting_plane(TrackedObjective& tracked, const OptimizerOptions& options,
                       OptimizerSummary& summary) {
  if (options.cutting_plane_proximal) return run_proximal_bundle(tracked, options, summary);
  const double lambda = options.regularization;
  const Eigen::Index d = tracked.best_theta.size();
  std::vector<Eigen::VectorXd> slopes;  // a_j
  std::vector<double> offsets;          // b_j
  std::vector<int> idle;                // master solves since alpha_j was last > 0
  Eigen::MatrixXd H(0, 0);              // H_ij = a_i . a_j / lambda
  Eigen::VectorXd alpha;
  Eigen::VectorXd theta = tracked.best_theta;
  Eigen::VectorXd gradient = tracked.best_gradient;
  double value = tracked.best_value;
  double lower = -std::numeric_limits<double>::infinity();
  int iteration = 0;
  for (;;) {
    // The cut of R at theta.
    const Eigen::VectorXd a = gradient - lambda * theta;
    const double r = value - 0.5 * lambda * theta.squaredNorm();
    const Eigen::Index m = static_cast<Eigen::Index>(slopes.size());
    H.conservativeResize(m + 1, m + 1);
    for (Eigen::Index j = 0; j < m; ++j) H(j, m) = H(m, j) = slopes[static_cast<std::size_t>(j)].dot(a) / lambda;
    H(m, m) = a.squaredNorm() / lambda;
    slopes.push_back(a);
    offsets.push_back(r - a.dot(theta));
    idle.push_back(0);
    alpha.conservativeResize(m + 1);
    alpha[m] = m == 0 ? 1.0 : 0.0;
    // Master: minimize 1/2 alpha^T H alpha - b^T alpha over the simplex.
    const Eigen::VectorXd c = -Eigen::Map<const Eigen::VectorXd>(offsets.data(), m + 1);
    if (options.cutting_plane_exact_master)
      solve_simplex_qp_active_set(H, c, alpha);
    else
      solve_simplex_qp(H, c, alpha);
    lower = std::max(lower, -(0.5 * alpha.dot(H * alpha) + c.dot(alpha)));
    if (cutting_plane_stops(tracked, lower, iteration, options, "cutting plane", summary)) break;
    theta = Eigen::VectorXd::Zero(d);
    for (std::size_t j = 0; j < slopes.size(); ++j) theta -= alpha[static_cast<Eigen::Index>(j)] * slopes[j];
    theta /= lambda;
    // Drop cuts idle for too long (never the newest).
    std::vector<Eigen::Index> keep;
    for (std::size_t j = 0; j < slopes.size(); ++j) {
      idle[j] = alpha[static_cast<Eigen::Index>(j)] > 0.0 ? 0 : idle[j] + 1;
      if (idle[j] < options.cut_idle_limit || j + 1 == slopes.size()) keep.push_back(static_cast<Eigen::Index>(j));
    }
    if (keep.size() < slopes.size()) {
      std::vector<Eigen::VectorXd> kept_slopes;
      std::vector<double> kept_offsets;
      std::vector<int> kept_idle;
      Eigen::MatrixXd kept_H(static_cast<Eigen::Index>(keep.size()), static_cast<Eigen::Index>(keep.size()));
      Eigen::VectorXd kept_alpha(static_cast<Eigen::Index>(keep.size()));
      for (std::size_t x = 0; x < keep.size(); ++x) {
        kept_slopes.push_back(slopes[static_cast<std::size_t>(keep[x])]);
        kept_offsets.push_back(offsets[static_cast<std::size_t>(keep[x])]);
        kept_idle.push_back(idle[static_cast<std::size_t>(keep[x])]);
        kept_alpha[static_cast<Eigen::Index>(x)] = alpha[keep[x]];
        for (std::size_t y = 0; y < keep.size(); ++y)
          kept_H(static_cast<Eigen::Index>(x), static_cast<Eigen::Index>(y)) = H(keep[x], keep[y]);
      }
      slopes = std::move(kept_slopes);
      offsets = std::move(kept_offsets);
      idle = std::move(kept_idle);
      H = std::move(kept_H);
      alpha = kept_alpha / kept_alpha.sum();
    }
    if (!cutting_plane_evaluates(tracked, theta, gradient, value, iteration, lower, options, "cutting plane", summary))
      break;
  }
  summary.iterations = iteration;
}

// ---- The same cuts with a proximal stabilization (Kiwiel 1990; lib/learn/cut_model.hpp) ----
//
// The master adds mu/2 ||theta - center||^2, so steps stay near the best point (the center moves
// on a serious step, one that realizes a tenth of the model's predicted decrease); with
// gold = 0 the model is lambda/2 ||theta||^2 + max_j (a_j . theta - c_j), c_j = a_j . theta_j -
// R(theta_j). Lower bounds: the plain master and the proximal master's dual, as for BMRM.
void run_proximal_bundle(TrackedObjective& tracked, const OptimizerOptions& options, OptimizerSummary& summary) {
  const double lambda = options.regularization;
  const double first_weight = options.cutting_plane_scaled_start ? tracked.best_gradient.squaredNorm() : 1.0;
  std::vector<Cut>* store = options.cut_store;
  ProximalBundle bundle(Eigen::VectorXd::Zero(tracked.best_theta.size()), lambda, first_weight,
                        store ? &tracked.best_theta : nullptr);
  if (store) {
    for (const Cut& cut : *store) {
      if (cut.slope.size() != tracked.best_theta.size()) throw Error("optimizer cut_store: a cut of another dimension");
      bundle.add_cut(cut);
    }
    summary.inherited_cuts = static_cast<int>(store->size());
  }
  Eigen::VectorXd theta = tracked.best_theta;
  Eigen::VectorXd gradient = tracked.best_gradient;
  double value = tracked.best_value;
  double lower = -std::numeric_limits<double>::infinity();
  int iteration = 0;
  for (;;) {
    const Eigen::VectorXd a = gradient - lambda * theta;
    const double c = a.dot(theta) - (value - 0.5 * lambda * theta.squaredNorm());
    theta = bundle.step(theta, a, c, value, 0.0, lower, options.cut_idle_limit);
    if (cutting_plane_stops(tracked, lower, iteration, options, "proximal bundle", summary)) break;
    if (!cutting_plane_evaluates(tracked, theta, gradient, value, iteration, lower, options, "proximal bundle", summary))
      break;
  }
  summary.iterations = iteration;
  if (store) *store = bundle.held_cuts();
}

}  // namespace

OptimizerSummary minimize(Objective& objective, Eigen::VectorXd& theta,
                          const OptimizerOptions& options) {
  const auto start_time = std::chrono::steady_clock::now();
  validate(options);

  TrackedObjective tracked(objective);
  Eigen::VectorXd gradient(theta.size());
  const double initial_value = tracked.evaluate(theta, gradient);
  if (!std::isfinite(initial_value) || !gradient.allFinite()) {
    throw Error("objective is not finite at the starting point");
  }

  OptimizerSummary summary;
  summary.initial_value = initial_value;
  if (theta.size() == 0) {
    summary.status = OptimizerStatus::converged;
    summary.message = "nothing to optimize: no variables";
  } else if (options.kind == OptimizerKind::lbfgs) {
    run_lbfgs(tracked, options, summary);
  } else if (options.kind == OptimizerKind::adadelta) {
    run_adadelta(tracked, options, summary);
  } else {
    run_cutting_plane(tracked, options, summary);
  }

  summary.evaluations = tracked.evaluations;
  if (options.return_last_iterate && options.kind == OptimizerKind::adadelta && std::isfinite(tracked.last_value)) {
    theta = tracked.last_theta;
    summary.final_value = tracked.last_value;
    summary.gradient_norm = tracked.last_gradient.norm();
  } else {
    theta = tracked.best_theta;
    summary.final_value = tracked.best_value;
    summary.gradient_norm = tracked.best_gradient.norm();
  }
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return summary;
}

std::string to_string(OptimizerStatus status) {
  switch (status) {
    case OptimizerStatus::converged: return "converged";
    case OptimizerStatus::iteration_limit: return "not converged: iteration limit";
    case OptimizerStatus::time_limit: return "not converged: time limit";
    case OptimizerStatus::stopped: return "not converged: stopped";
  }
  return "unknown";
}

void check_stopping_tolerances(const std::string& who, const std::string& tolerance_name, double tolerance,
                               double argument_tolerance) {
  if (!(argument_tolerance >= 0.0) || !std::isfinite(argument_tolerance))
    throw Error(who + ": argument_tolerance must be a finite number >= 0");
  if (!(tolerance > 0.0) && !(tolerance == 0.0 && argument_tolerance > 0.0))
    throw Error(fmt::format("{}: {} must be > 0 (or 0 with argument_tolerance > 0)", who, tolerance_name));
}

nlohmann::json OptimizerSummary::to_json() const {
  nlohmann::json out = {{"converged", converged()},
                        {"status", message},
                        {"iterations", iterations},
                        {"evaluations", evaluations},
                        {"initial_objective", initial_value},
                        {"objective", final_value},
                        {"gradient_norm", gradient_norm},
                        {"seconds", seconds}};
  if (inherited_cuts > 0) out["inherited_cuts"] = inherited_cuts;
  if (std::isfinite(lower_bound)) {
    out["lower_bound"] = lower_bound;
    out["certified_gap"] = final_value - lower_bound;
    if (std::isfinite(distance_bound)) out["distance_bound"] = distance_bound;
  }
  return out;
}

std::string OptimizerSummary::report() const {
  const std::string certificate =
      std::isfinite(lower_bound) ? fmt::format(" (certified gap {:.2e})", final_value - lower_bound) : "";
  return fmt::format("{} after {} iterations, objective {:.10g}{}; {:.2f} s", message, iterations, final_value,
                     certificate, seconds);
}

}  // namespace mpg
