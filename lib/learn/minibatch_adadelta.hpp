// AdaDelta over mini-batches of instances, as the reference code runs it on an objective with
// several instances (shared/notes/mpg-java-reference.md §3.4; issue 53's authors_adadelta on the
// linear-chain and ranking MPGs, whose instances are sentences and queries). With N instances and
// batch size B = min(N, batch_size):
//   * steps = floor(passes N / B) (the reference takes the ceiling of an integer quotient);
//   * step t draws the next B instances of a seeded random order of 0..N-1 (drawn again, from
//     the same generator, each time it is used up: sampling without replacement), takes the
//     gradient g of f_B = sum over the batch + lambda/2 ||theta||^2 at theta, and moves
//         E[g^2] <- rho E[g^2] + (1 - rho) g^2
//         dx      = sqrt(E[dx^2] + eps) / sqrt(E[g^2] + eps) * g,   theta <- theta - dx
//         E[dx^2] <- rho E[dx^2] + (1 - rho) dx^2;
//   * after each completed pass (t B / N crosses an integer) f over all instances is recorded and
//     the two stop tests run: with v_1..v_s the recorded values (the start is not recorded),
//     s > 5 and |(v_{max(1, s-9)} - v_s) / min(10, s)| / |v_s| < value_tolerance; or
//     ||dx|| < step_tolerance max(1, ||theta||_1) and ||dx|| < step_tolerance max(1, ||theta||_2).
// The result is the last iterate (the reference's), not the best point seen. Deterministic: the
// batches depend on the seed only.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <functional>
#include <vector>

#include "lib/learn/optimizer.hpp"
#include "lib/learn/sum_of_games.hpp"

namespace mpg {

struct MinibatchAdaDeltaOptions {
  int batch_size = 1;  // B = min(N, batch_size); the reference: its thread-pool size, #cpus + 1
  int passes = 200;
  double rho = 0.95;
  double epsilon = 0.00247875217;  // e^-6
  double value_tolerance = 1e-4;
  double step_tolerance = 1e-6;
  unsigned long seed = 2017;
  double max_seconds = 0.0;  // stop after the step that passes this (0 = no cap; status time_limit)
  // Called after each pass with (pass, f over all instances, ||dx||); may be empty.
  std::function<void(int, double, double)> progress;

  // The AdaDelta settings of `optimizer` (passes = max_iterations) with this batch size and seed.
  static MinibatchAdaDeltaOptions from(const OptimizerOptions& optimizer, int batch_size, unsigned long seed);
};

// The objective as the mini-batch method sees it: N instances; f over all of them (value only);
// f_B and its gradient over a batch of instance indices.
struct BatchObjective {
  std::size_t instances = 0;
  std::function<double(const Eigen::VectorXd&)> value;
  std::function<void(const Eigen::VectorXd&, const std::vector<std::size_t>&, Eigen::VectorXd&)> batch_gradient;
};

// Minimizes from theta (in/out; the reference starts at 0). summary.iterations counts completed
// passes, evaluations the batch gradients; initial_value is f at the start (recorded for the
// report, not used by the stop test); final_value f at the returned theta. Throws mpg::Error for
// no instances or options out of range.
OptimizerSummary minimize_minibatch_adadelta(const BatchObjective& objective, Eigen::VectorXd& theta,
                                             const MinibatchAdaDeltaOptions& options);

// The same on a sum-of-games objective (lib/learn/sum_of_games.hpp); the games' statistics are
// those of every solve, batches and full values alike.
template <class Family>
SumOfGamesSummary minimize_sum_of_games_minibatch(SumOfGamesObjective<Family>& objective, std::size_t instances,
                                                  Eigen::VectorXd& theta, const MinibatchAdaDeltaOptions& options) {
  BatchObjective batch;
  batch.instances = instances;
  batch.value = [&objective](const Eigen::VectorXd& x) {
    Eigen::VectorXd unused(x.size());
    return objective.evaluate(x, unused);
  };
  batch.batch_gradient = [&objective](const Eigen::VectorXd& x, const std::vector<std::size_t>& indices,
                                      Eigen::VectorXd& gradient) { objective.batch_gradient(x, indices, gradient); };
  const OptimizerSummary result = minimize_minibatch_adadelta(batch, theta, options);
  SumOfGamesSummary summary = objective.summary();
  summary.optimizer = result;
  summary.time_limit = result.status == OptimizerStatus::time_limit;
  return summary;
}

}  // namespace mpg
