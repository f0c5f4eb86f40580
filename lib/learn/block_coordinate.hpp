// Certified minimization of a summed sum-of-games objective (lib/learn/sum_of_games.hpp)
//     f(theta) = sum_i f_i(theta) + lambda/2 ||theta||^2,   f_i(theta) = -theta . Phi_i(gold) - v_i(theta),
// by one cutting-plane model per instance instead of one for the sum (the "n-slack" model of
// structured SVMs, Tsochantaridis et al. 2005, with its dual maximized block by block as in
// block-coordinate Frank-Wolfe with cached planes, Lacoste-Julien et al. 2013, Shah et al. 2015).
//
// Planes. f_i = max over adversary strategies Q of theta . (E_Q[Phi_i] - Phi_i(gold)) - u_i(Q),
// u_i(Q) the payoff Q concedes before the potential term, so a game solved at theta with gap g_i,
// value v_i and adversary strategy Q gives the plane (valid whatever the gap: Q concedes at most
// v_i + g_i)
//     f_i(theta') >= a . theta' + b,   a = E_Q[Phi_i] - Phi_i(gold),   b = f_i(theta) - g_i - a . theta.
// Dual. For planes held per instance and alpha_i on each instance's simplex of planes,
//     D(alpha) = sum_i alpha_i . b_i - 1/(2 lambda) ||sum_i A_i alpha_i||^2  <=  min f
// (weak duality: any alpha, whatever master it came from).
// Passes. Each pass solves every game at theta (in parallel; one theta, so f there is exact and
// the certificate is f(best) - max D <= tolerance max(1, |f(best)|)), adds the new planes, and
// then maximizes the dual of the proximal master
//     min_theta lambda/2 ||theta||^2 + mu/2 ||theta - center||^2 + sum_i max_k (planes of i)
// over the held planes by exact block maximizations (InstancePlanes::maximize) in instance order
// until the model's own gap is below BlockCoordinateOptions::inner_fraction of the certified one;
// its minimizer theta = (mu center - sum_i A_i alpha_i) / (lambda + mu) is the next point. The
// center is the best point so far; mu starts at ||g_0|| - lambda (a first step of length about 1),
// halves after a pass that realizes half the decrease the model promised, and doubles after one
// that ends above the center by more than that promise. One pass costs one evaluation of f, as
// one bundle iteration does; where the bundle's one model of the sum needs many iterations
// because each instance's kinks near the optimum must be learned through the sum (large lambda),
// the per-instance models need few.
// Deterministic: games are independent given theta and everything else runs in instance order.
//
// The family must provide, beside what sum_of_games.hpp asks,
//     std::vector<Eigen::Index> support(std::size_t i) const;  // increasing; every coordinate of
//                                                              // theta Phi_i can touch
#pragma once

#include <tbb/parallel_for.h>

#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <functional>
#include <fmt/format.h>
#include <limits>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/base/error.hpp"
#include "lib/learn/instance_planes.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/sum_of_games.hpp"

namespace mpg {

struct BlockCoordinateOptions {
  double lambda = 1.0;          // > 0
  double tolerance = 1e-4;      // certified relative gap (0 allowed with argument_tolerance > 0)
  // Also stop only once ||theta - theta*|| <= argument_tolerance is certified, i.e. gap <= lambda
  // argument_tolerance^2 / 2 (OptimizerOptions::argument_tolerance); 0 = off.
  double argument_tolerance = 0.0;
  int max_passes = 2000;        // passes over the games (evaluations of f)
  int max_inner_passes = 200;   // dual block passes over the held planes per game pass
  // Stop the inner passes once the model's gap is <= this x the certified gap: the next theta is
  // then nearly the minimizer of the per-instance model (conll.1000 PER: 0.1 left theta far
  // behind the lower bound, gap 45 after 70 passes; 0.001 certified 1e-4 in 35 passes).
  double inner_fraction = 1e-3;
  int idle_limit = 10;          // drop planes unused for this many game passes
  // (pass, best value, certified gap) after each pass; may be empty.
  std::function<void(int, double, double)> progress;

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("instance planes", "lambda", lambda);
    option_checks::non_negative("instance planes", "tolerance", tolerance);
    option_checks::non_negative("instance planes", "argument_tolerance", argument_tolerance);
  }
};

template <class Family>
SumOfGamesSummary minimize_by_instance_planes(const Family& family, Eigen::VectorXd& theta,
                                              const BlockCoordinateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  options.validate();
  check_stopping_tolerances("instance planes", "tolerance", options.tolerance, options.argument_tolerance);
  if (options.max_passes < 1 || options.max_inner_passes < 1 || options.idle_limit < 1 || !(options.inner_fraction >= 0.0))
    throw Error("instance planes: max_passes, max_inner_passes and idle_limit must be >= 1, inner_fraction >= 0");
  const double lambda = options.lambda;
  const std::size_t n = family.size();
  const Eigen::Index d = family.dimension();
  if (theta.size() != d) throw Error("instance planes: theta has the wrong dimension");

  // Per instance: its support, its gold features there, its planes and its game's warm start.
  std::vector<InstancePlanes> planes;
  std::vector<Eigen::VectorXd> gold(n);
  std::vector<typename Family::Warm> warm(n);
  Eigen::VectorXd scratch = Eigen::VectorXd::Zero(d);
  auto gather = [&](const std::vector<Eigen::Index>& support) {
    Eigen::VectorXd out(static_cast<Eigen::Index>(support.size()));
    for (std::size_t s = 0; s < support.size(); ++s) {
      out[static_cast<Eigen::Index>(s)] = scratch[support[s]];
      scratch[support[s]] = 0.0;
    }
    return out;
  };
  auto check_scratch = [&](const char* what) {
    if (scratch.cwiseAbs().maxCoeff() != 0.0)
      throw Error(std::string("instance planes: the family's support misses coordinates of its ") + what);
  };
  planes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    planes.emplace_back(family.support(i));
    family.add_gold_features(i, scratch);
    gold[i] = gather(planes[i].support());
  }
  check_scratch("gold features");

  SumOfGamesSummary summary;
  OptimizerSummary& result = summary.optimizer;
  double best_value = std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_theta = theta;
  double best_gradient_norm = 0.0;
  double lower = -std::numeric_limits<double>::infinity();
  // The proximal term mu/2 ||theta - center||^2 of the masters (center: the best point so far).
  Eigen::VectorXd center = theta;
  double mu = 0.0;
  double max_mu = 0.0;
  double predicted = 0.0;  // f(center) - model(theta): the decrease the model promised
  Eigen::VectorXd sum_phi = Eigen::VectorXd::Zero(d);  // Phi = sum_i phi_i at the current alpha
  std::vector<typename Family::Solution> solutions(n);
  int pass = 0;
  for (;;) {
    // Every game at one theta: f(theta), its subgradient, and one plane per instance.
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { solutions[i] = family.solve(i, theta, warm[i]); });
    ++pass;
    double value = 0.5 * lambda * theta.squaredNorm();
    Eigen::VectorXd gradient = lambda * theta;
    summary.last_unconverged_games = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& solution = solutions[i];
      summary.record(solution.converged, solution.gap, solution.seconds);
      if (!solution.converged) ++summary.last_unconverged_games;
      family.add_expected_features(i, solution, 1.0, scratch);
      const std::vector<Eigen::Index>& support = planes[i].support();
      Eigen::VectorXd slope = gather(support) - gold[i];
      double theta_gold = 0.0, theta_slope = 0.0;
      for (std::size_t s = 0; s < support.size(); ++s) {
        const double t = theta[support[s]];
        theta_gold += t * gold[i][static_cast<Eigen::Index>(s)];
        theta_slope += t * slope[static_cast<Eigen::Index>(s)];
        gradient[support[s]] += slope[static_cast<Eigen::Index>(s)];
      }
      const double term = -theta_gold - solution.value;
      value += term;
      planes[i].add(slope, term - solution.gap - theta_slope);
    }
    check_scratch("expected features");
    if (!std::isfinite(value)) {
      result.status = OptimizerStatus::stopped;
      result.message = "instance planes stopped: the objective became non-finite";
      break;
    }
    if (pass == 1) {
      result.initial_value = value;
      // A first step of length about 1 (the step is g / (lambda + mu) while one plane per instance
      // holds), not ||g|| / lambda: per-instance models from one point jump far otherwise
      // (conll.3000 ORG at lambda = 1/4: ||theta|| = 5,574 and f = 2.9e7 at the second pass).
      mu = std::max(gradient.norm() - lambda, 0.0);
      max_mu = 1e12 * std::max(1.0, mu);
    } else if (value < best_value) {
      // Serious step: trust the model further where it predicted at least half the decrease.
      if (best_value - value >= 0.5 * predicted) mu *= 0.5;
    } else if (value - best_value > predicted) {
      // Null step far above the center: stay nearer it (bounded: a model that promises nothing
      // more, predicted <= 0, must not drive mu to overflow).
      mu = std::min(std::max(2.0 * mu, lambda), max_mu);
    }
    if (value < best_value) {
      best_value = value;
      best_theta = theta;
      best_gradient_norm = gradient.norm();
      center = theta;
    }
    // The dual of the plain master (mu = 0) at the current alpha: a lower bound on min f.
    double offsets = 0.0;
    for (const InstancePlanes& p : planes) offsets += p.offset_sum();
    if (pass > 1) lower = std::max(lower, offsets - 0.5 / lambda * sum_phi.squaredNorm());
    const double gap = best_value - lower;
    if (options.progress) options.progress(pass, best_value, gap);
    const bool relative = options.tolerance == 0.0 || gap <= options.tolerance * std::max(1.0, std::abs(best_value));
    const double delta = options.argument_tolerance;
    if (relative && (delta == 0.0 || gap <= 0.5 * lambda * delta * delta)) {
      result.status = OptimizerStatus::converged;
      result.message = fmt::format("instance planes converged: objective certified within {:.6g}", gap);
      if (delta > 0.0) result.message += fmt::format(", theta within {:.3g} of the minimizer", std::sqrt(2.0 * gap / lambda));
      break;
    }
    if (pass >= options.max_passes) {
      result.status = OptimizerStatus::iteration_limit;
      result.message =
          fmt::format("instance planes stopped: reached the pass limit ({}), certified gap {:.6g}", options.max_passes, gap);
      break;
    }
    // Maximize the dual over the held planes, block by block.
    // theta(alpha) = (mu center - Phi) / (lambda + mu) for the current alpha and center.
    const double curvature = lambda + mu;
    theta = (mu * center - sum_phi) / curvature;
    const double target = std::isfinite(gap) ? options.inner_fraction * gap : 0.0;
    for (int inner = 0; inner < options.max_inner_passes; ++inner) {
      double model_gap = 0.0;
      for (InstancePlanes& p : planes) model_gap += p.maximize(theta, curvature);
      if (model_gap <= target) break;
    }
    // Phi and theta afresh from the blocks (the moves above accumulate rounding), so that the
    // lower bound at the next pass is the dual value at exactly this alpha.
    sum_phi.setZero();
    for (InstancePlanes& p : planes) {
      p.drop_idle(options.idle_limit);
      const Eigen::VectorXd& phi = p.phi();
      for (std::size_t s = 0; s < p.support().size(); ++s) sum_phi[p.support()[s]] += phi[static_cast<Eigen::Index>(s)];
    }
    theta = (mu * center - sum_phi) / curvature;
    predicted = best_value - 0.5 * lambda * theta.squaredNorm();
    for (const InstancePlanes& p : planes) predicted -= p.model_value(theta);
  }
  theta = best_theta;
  result.iterations = pass;
  result.evaluations = pass;
  result.final_value = best_value;
  result.gradient_norm = best_gradient_norm;
  result.lower_bound = lower;
  result.distance_bound = std::sqrt(2.0 * std::max(best_value - lower, 0.0) / lambda);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace mpg
