// The learning objective of an MPG whose data is a set of independent instances, one game each
// (ranking: one DCG game per query; linear chains: one F1 game per sentence; alignment and
// parsing: one game per sentence), the negated dual of thesis Eqs. 3.9-3.10 summed (or averaged)
// over the instances:
//     f(theta) = w sum_i [ -theta . Phi_i(gold) - v_i(theta) ] + lambda/2 ||theta||^2
//     grad f   = w sum_i [ E_{Q*_i}[Phi_i(Y)] - Phi_i(gold) ] + lambda theta
// with w = 1 (sum) or 1/N (mean), v_i the value of instance i's game at theta and Q*_i its
// adversary equilibrium. The games are solved in parallel (TBB), each warm-started from its
// previous solve, and summed in instance order, so results do not depend on the thread count.
//
// A family of instances supplies the games, as a class with
//     using Warm = ...;      // an instance's warm start (e.g. the last equilibrium's supports)
//     using Solution = ...;  // an instance's solved game: members value, converged, gap, seconds
//     std::size_t size() const;
//     Eigen::Index dimension() const;                                       // of theta
//     void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const;    // sum += Phi_i(gold)
//     Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const;  // thread-safe
//     void add_expected_features(std::size_t i, const Solution& solution, double weight,
//                                Eigen::VectorXd& gradient) const;          // += weight E_Q*_i[Phi_i]
#pragma once

#include <tbb/parallel_for.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/learn/game_statistics.hpp"
#include "lib/learn/optimizer.hpp"

namespace mpg {

// How the instances' terms are combined: summed (w = 1) or averaged (w = 1/N). The two also
// fix the order of the floating-point sums, as the ranking (mean: data terms first, the
// regularizer last) and linear-chain (sum: the regularizer first) objectives had it before they
// shared this code, so that their results stayed bit for bit the same.
enum class InstanceWeighting { sum, mean };

// The optimizer's summary and the statistics of the games solved over all evaluations.
struct SumOfGamesSummary : GameStatistics {
  OptimizerSummary optimizer;
  int last_unconverged_games = 0;  // games stopped by a cap in the last evaluation
  bool time_limit = false;         // the training time cap stopped the optimizer

  bool converged() const { return optimizer.converged(); }
  nlohmann::json to_json() const;
  // "<optimizer report>; <games> games (<unconverged> not converged, max gap <gap>)".
  std::string report() const;
};

template <class Family>
class SumOfGamesObjective : public Objective {
 public:
  using Solution = typename Family::Solution;

  // Keeps a reference to `family`.
  SumOfGamesObjective(const Family& family, double lambda, InstanceWeighting weighting)
      : family_(family), lambda_(lambda), weighting_(weighting) {
    if (!(lambda_ >= 0.0) || !std::isfinite(lambda_)) throw Error("lambda must be a finite number >= 0");
    gold_features_ = Eigen::VectorXd::Zero(family_.dimension());
    for (std::size_t i = 0; i < family_.size(); ++i) family_.add_gold_features(i, gold_features_);
    if (weighting_ == InstanceWeighting::mean) gold_features_ /= static_cast<double>(family_.size());
    warm_.resize(family_.size());
  }

  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override {
    const std::size_t n = family_.size();
    std::vector<Solution> solutions(n);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { solutions[i] = family_.solve(i, theta, warm_[i]); });
    const bool mean = weighting_ == InstanceWeighting::mean;
    const double weight = mean ? 1.0 / static_cast<double>(n) : 1.0;
    double value = 0.0;
    if (mean) {
      gradient = -gold_features_;
      value = -theta.dot(gold_features_);
    } else {
      gradient = lambda_ * theta - gold_features_;
      value = 0.5 * lambda_ * theta.squaredNorm() - theta.dot(gold_features_);
    }
    summary_.last_unconverged_games = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Solution& solution = solutions[i];
      value -= weight * solution.value;
      family_.add_expected_features(i, solution, weight, gradient);
      summary_.record(solution.converged, solution.gap, solution.seconds);
      if (!solution.converged) ++summary_.last_unconverged_games;
    }
    if (mean) {
      gradient += lambda_ * theta;
      value += 0.5 * lambda_ * theta.squaredNorm();
    }
    return value;
  }

  // The same terms over a batch of instances (indices, solved in parallel, summed in the given
  // order) with the whole regularizer, as the reference code's mini-batches have it:
  //     f_B(theta) = w sum_{i in B} [ -theta . Phi_i(gold) - v_i(theta) ] + lambda/2 ||theta||^2
  // and its gradient (lib/learn/minibatch_adadelta.hpp).
  double evaluate_batch(const Eigen::VectorXd& theta, const std::vector<std::size_t>& batch, Eigen::VectorXd& gradient) {
    const double games = batch_terms(theta, batch, gradient);
    return games - batch_weight() * theta.dot(batch_gold_) + 0.5 * lambda_ * theta.squaredNorm();
  }
  // The same gradient without the value (mini-batch AdaDelta reads only the gradient: two passes
  // over theta fewer per step, the same bits).
  void batch_gradient(const Eigen::VectorXd& theta, const std::vector<std::size_t>& batch, Eigen::VectorXd& gradient) {
    batch_terms(theta, batch, gradient);
  }

  // The game statistics so far (the optimizer's summary is filled by minimize_sum_of_games).
  const SumOfGamesSummary& summary() const { return summary_; }
  // Moves along a lambda path: the same games, their warm starts kept, another regularization;
  // the statistics start afresh.
  void set_lambda(double lambda) {
    if (!(lambda >= 0.0) || !std::isfinite(lambda)) throw Error("lambda must be a finite number >= 0");
    lambda_ = lambda;
    summary_ = SumOfGamesSummary();
  }

 private:
  double batch_weight() const {
    return weighting_ == InstanceWeighting::mean ? 1.0 / static_cast<double>(family_.size()) : 1.0;
  }

  // The batch's games in parallel; gradient = sum_k E_Qk[Phi_k] + lambda theta - w sum_k Phi_k(gold),
  // batch_gold_ = sum_k Phi_k(gold); returns -w sum_k v_k. The buffers are kept between calls:
  // per step a mini-batch touches a few sentences but theta has every feature.
  double batch_terms(const Eigen::VectorXd& theta, const std::vector<std::size_t>& batch, Eigen::VectorXd& gradient) {
    std::vector<Solution> solutions(batch.size());
    tbb::parallel_for(std::size_t{0}, batch.size(), [&](std::size_t k) {
      solutions[k] = family_.solve(batch[k], theta, warm_[batch[k]]);
    });
    const double weight = batch_weight();
    batch_gold_.setZero(theta.size());
    gradient.setZero(theta.size());
    double value = 0.0;
    for (std::size_t k = 0; k < batch.size(); ++k) {
      family_.add_gold_features(batch[k], batch_gold_);
      value -= weight * solutions[k].value;
      family_.add_expected_features(batch[k], solutions[k], weight, gradient);
      summary_.record(solutions[k].converged, solutions[k].gap, solutions[k].seconds);
    }
    gradient += lambda_ * theta - weight * batch_gold_;
    return value;
  }

  const Family& family_;
  double lambda_;
  InstanceWeighting weighting_;
  Eigen::VectorXd gold_features_;  // w sum_i Phi_i(gold)
  std::vector<typename Family::Warm> warm_;
  SumOfGamesSummary summary_;
  Eigen::VectorXd batch_gold_;  // evaluate_batch's sum of the batch's gold features
};

// The optimizer settings every sum-of-games trainer shares: f is a sum of game values and has
// kinks, so L-BFGS uses the Armijo test alone; `tolerance` is both the cutting plane's certified
// relative gap and L-BFGS's gradient tolerance.
inline OptimizerOptions sum_of_games_optimizer(OptimizerKind kind, int max_iterations, double tolerance) {
  OptimizerOptions optimizer;
  optimizer.kind = kind;
  optimizer.max_iterations = max_iterations;
  optimizer.cutting_plane_tolerance = tolerance;
  optimizer.gradient_tolerance = tolerance;
  optimizer.lbfgs_armijo_only = true;
  return optimizer;
}

// Minimizes f from theta (in/out) with the optimizer, stopping it at the first evaluation after
// max_seconds (0 = no cap; the summary then says time_limit). The cutting-plane optimizer gets
// lambda as the objective's regularization.
template <class Family>
SumOfGamesSummary minimize_sum_of_games(SumOfGamesObjective<Family>& objective, Eigen::VectorXd& theta,
                                        OptimizerOptions optimizer, double lambda, double max_seconds);

namespace sum_of_games {

// Stops the optimizer at the time cap: after the cap every evaluation returns the same value
// and a zero gradient, which ends liblbfgs' line search and AdaDelta's progress test.
class TimeCappedObjective : public Objective {
 public:
  TimeCappedObjective(Objective& inner, double max_seconds, bool stop_with_nan)
      : inner_(inner), max_seconds_(max_seconds), stop_with_nan_(stop_with_nan), start_(std::chrono::steady_clock::now()) {}
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (max_seconds_ > 0.0 && elapsed >= max_seconds_ && have_last_) {
      capped_ = true;
      gradient = Eigen::VectorXd::Zero(theta.size());
      // A cutting-plane method would take (value, gradient) as a cut, which must stay a valid
      // lower bound: stop it with a non-finite value instead.
      if (stop_with_nan_) return std::numeric_limits<double>::quiet_NaN();
      return last_value_ + 1.0;  // never better than a point already seen: the best is returned
    }
    last_value_ = inner_.evaluate(theta, gradient);
    have_last_ = true;
    return last_value_;
  }
  bool capped() const { return capped_; }

 private:
  Objective& inner_;
  double max_seconds_;
  bool stop_with_nan_;
  std::chrono::steady_clock::time_point start_;
  double last_value_ = 0.0;
  bool have_last_ = false;
  bool capped_ = false;
};

}  // namespace sum_of_games

template <class Family>
SumOfGamesSummary minimize_sum_of_games(SumOfGamesObjective<Family>& objective, Eigen::VectorXd& theta,
                                        OptimizerOptions optimizer, double lambda, double max_seconds) {
  const bool cutting_plane = optimizer.kind == OptimizerKind::cutting_plane;
  if (cutting_plane) optimizer.regularization = lambda;
  sum_of_games::TimeCappedObjective capped(objective, max_seconds, cutting_plane);
  const OptimizerSummary result = minimize(capped, theta, optimizer);
  SumOfGamesSummary summary = objective.summary();
  summary.optimizer = result;
  summary.time_limit = capped.capped();
  if (capped.capped()) {
    summary.optimizer.status = OptimizerStatus::time_limit;
    summary.optimizer.message = "time limit";
  }
  return summary;
}

}  // namespace mpg
