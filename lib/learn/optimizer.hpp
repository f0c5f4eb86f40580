// Convex outer optimization over the Lagrange multipliers theta. The optimizer sees only
// "value and gradient at theta" (an Objective); it knows nothing of games or metrics.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace mpg {

struct Cut;  // lib/learn/cut_model.hpp

// f(theta) and its (sub)gradient. Implementations write the gradient into `gradient`
// (already sized like theta) and return the value.
class Objective {
 public:
  virtual ~Objective() = default;
  virtual double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) = 0;
};

// lbfgs and adadelta follow the (sub)gradient; cutting_plane (BMRM, Teo et al. 2010) needs the
// objective to be regularization/2 ||theta||^2 + R(theta) with R convex and
// regularization > 0, and certifies its result by a lower bound on the minimum.
enum class OptimizerKind { lbfgs, adadelta, cutting_plane };

// Parses "lbfgs" / "adadelta" / "cutting_plane"; throws mpg::Error naming the bad value otherwise.
OptimizerKind parse_optimizer_kind(const std::string& name);
std::string to_string(OptimizerKind kind);

struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::lbfgs;
  int max_iterations = 200;
  // L-BFGS (liblbfgs): corrections kept, stop when ||g|| / max(1, ||theta||) < gradient_tolerance,
  // or when the relative decrease over `past` iterations is below value_tolerance.
  int lbfgs_memory = 10;
  double gradient_tolerance = 1e-6;
  double value_tolerance = 1e-8;
  int past = 5;
  // Line search of L-BFGS: backtracking with the weak Wolfe condition (default), or with the
  // sufficient-decrease (Armijo) condition only, which never asks for curvature and so does not
  // fail at the kinks of a non-smooth objective such as a sum of game values.
  bool lbfgs_armijo_only = false;
  // AdaDelta (Zeiler 2012): decay rate rho and smoothing epsilon as in the reference code, and
  // its stop tests: the average change of the objective per iteration over the last 10
  // iterations, relative to the current value, is below adadelta_value_tolerance (tested from
  // the 5th iteration on); or the step is shorter than adadelta_step_tolerance * max(1, ||theta||).
  double adadelta_rho = 0.95;
  double adadelta_epsilon = 0.00247875217;  // e^-6
  double adadelta_value_tolerance = 1e-4;
  double adadelta_step_tolerance = 1e-6;
  // The reference's own record of these tests (AdaDeltaSGDLite's Record, mpg-java-reference.md
  // §3.4): only the values after each step are recorded (not the start's); the average change is
  // (v_{t-9} - v_t) / 10 once 10 values are recorded, else (v_1 - v_t) / t; the value test runs
  // from the 6th value on; no test of the raw gradient. (Its second step test, against
  // max(1, ||theta||_1), is implied by the one against max(1, ||theta||_2).)
  bool adadelta_reference_tests = false;
  // AdaDelta: return the last iterate (as the reference does) instead of the best point seen.
  bool return_last_iterate = false;
  // L-BFGS: cap on objective evaluations, the start's included (0 = none); the reference's Riso
  // L-BFGS counts evaluations. A run stopped by it is reported as at its iteration limit.
  int max_evaluations = 0;
  // L-BFGS line search: More and Thuente's (strong Wolfe, at most 20 evaluations per search), the
  // MCSRCH of Nocedal's L-BFGS that the reference ran, instead of backtracking.
  bool lbfgs_more_thuente = false;
  // Cutting plane: the objective's strongly convex part lambda/2 ||theta||^2 (lambda =
  // `regularization` > 0, required) is kept exact and R = objective - that part is
  // approximated from below by the cuts R(theta_j) + g_j . (theta - theta_j), g_j = gradient -
  // lambda theta_j. The master min_theta lambda/2 ||theta||^2 + max_j cut_j is solved through
  // its dual, a QP over the simplex of cuts (simplex_qp.hpp); its value is a lower bound on the
  // minimum. Stops when the best value seen minus the lower bound is
  // <= cutting_plane_tolerance * max(1, |best value|). Cuts unused for cut_idle_limit master
  // solves are dropped.
  // cutting_plane_proximal: stabilize the master by mu/2 ||theta - center||^2 (proximal bundle,
  // lib/learn/cut_model.hpp; same cuts, same lower bounds, same stop test), whose steps stay near
  // the best point instead of jumping by O(1/lambda): far fewer iterations when lambda is small.
  // Its first center is theta = 0, so start it there. Its first proximal weight is 1, or, with
  // cutting_plane_scaled_start, max(1, ||g_0||^2) for the subgradient g_0 at the start: a first
  // step of length about 1 / ||g_0||, for objectives that are linear only that close to the start
  // (the AER game's value at theta = 0 with c = 0, docs/methods.md).
  // argument_tolerance delta > 0 adds a certificate on theta itself: f is lambda-strongly convex,
  // so f(theta) - min f <= gap gives ||theta - theta*|| <= sqrt(2 gap / lambda), and the run
  // stops only once gap <= lambda delta^2 / 2 as well (the distance to the minimizer is then at
  // most delta). The relative test may be switched off (cutting_plane_tolerance = 0) when
  // argument_tolerance is set; whichever tests are set must all hold.
  double regularization = 0.0;
  double cutting_plane_tolerance = 1e-6;
  double argument_tolerance = 0.0;
  bool cutting_plane_proximal = false;
  bool cutting_plane_scaled_start = false;
  int cut_idle_limit = 50;
  // Cutting plane without cutting_plane_proximal: solve each master exactly by the active-set
  // method (lib/learn/simplex_qp_active_set.hpp) instead of pairwise coordinate descent. The
  // master's Hessian G / lambda has rank <= dim(theta), so the free set stays small and a master
  // costs a few reduced Newton steps, where coordinate descent at small lambda used its whole
  // iteration cap (92 % of Table XII's training time). Any point of the simplex gives a valid
  // lower bound, so the certificate holds either way; the iterates differ.
  bool cutting_plane_exact_master = false;
  // cutting_plane_proximal along a lambda path: cuts R(theta) >= slope . theta - offset do not
  // involve lambda, so cuts collected for one lambda bound R for every other. When cut_store is
  // set, its cuts enter the masters before the first step (the first lower bound is already
  // close), the first center is the start theta (pass the previous optimum), and on return it
  // holds the cuts the model kept at the end (those with weight in a master or idle for fewer
  // than cut_idle_limit solves; 340 of theta's size on conll.300 PER): what the next lambda
  // inherits. Empty store, theta = 0: the same run as without a store.
  std::vector<Cut>* cut_store = nullptr;
  // Called after each iteration with (iteration, value, gradient norm; for cutting_plane the
  // best value and the certified gap); may be empty.
  std::function<void(int, double, double)> progress;
};

// converged: a tolerance was met; iteration_limit, time_limit: a cap stopped the run; stopped: the
// method could not go on (line-search failure, non-finite objective, ...), the message says why.
enum class OptimizerStatus { converged, iteration_limit, time_limit, stopped };
std::string to_string(OptimizerStatus status);

// The stopping rule of the certified optimizers (cutting plane, instance planes): stop when
// gap <= tolerance x max(1, |f|) and, if argument_tolerance > 0, also sqrt(2 gap / lambda) <= it.
// Throws mpg::Error, naming `who` and `tolerance_name`, unless argument_tolerance is finite and >= 0
// and tolerance > 0 (or 0 with argument_tolerance > 0).
void check_stopping_tolerances(const std::string& who, const std::string& tolerance_name, double tolerance,
                               double argument_tolerance);

struct OptimizerSummary {
  OptimizerStatus status = OptimizerStatus::stopped;
  int iterations = 0;
  int evaluations = 0;          // calls to Objective::evaluate
  double initial_value = 0.0;
  double final_value = 0.0;     // objective at the returned theta (the best point seen)
  double gradient_norm = 0.0;   // at the returned theta
  double seconds = 0.0;
  std::string message;          // why it stopped, in words (e.g. liblbfgs status text)
  // Cutting plane only: min f >= lower_bound, so final_value - lower_bound certifies theta.
  double lower_bound = -std::numeric_limits<double>::infinity();
  int inherited_cuts = 0;       // cutting_plane_proximal: cuts taken from OptimizerOptions::cut_store
  // Cutting plane only: ||theta - theta*|| <= distance_bound = sqrt(2 (final_value - lower_bound) / lambda).
  double distance_bound = std::numeric_limits<double>::infinity();

  bool converged() const { return status == OptimizerStatus::converged; }
  nlohmann::json to_json() const;
  // "<message> after <n> iterations, objective <f> [(certified gap <g>)]; <s> s".
  std::string report() const;
};

// Minimizes the objective from theta (in/out). Returns the best point seen, never a worse one
// than the start. Non-smooth objectives may end the line search early; that is reported in
// the summary's message with converged=false, not thrown.
OptimizerSummary minimize(Objective& objective, Eigen::VectorXd& theta,
                          const OptimizerOptions& options);

}  // namespace mpg
