// Mini-batch AdaDelta as the reference code runs it (lib/learn/minibatch_adadelta.hpp).
#include "lib/learn/minibatch_adadelta.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <numeric>
#include <random>

#include "lib/base/error.hpp"
#include "lib/learn/adadelta_step.hpp"

namespace mpg {

MinibatchAdaDeltaOptions MinibatchAdaDeltaOptions::from(const OptimizerOptions& optimizer, int batch_size,
                                                        unsigned long seed) {
  MinibatchAdaDeltaOptions o;
  o.batch_size = batch_size;
  o.passes = optimizer.max_iterations;
  o.rho = optimizer.adadelta_rho;
  o.epsilon = optimizer.adadelta_epsilon;
  o.value_tolerance = optimizer.adadelta_value_tolerance;
  o.step_tolerance = optimizer.adadelta_step_tolerance;
  o.seed = seed;
  o.progress = optimizer.progress;
  return o;
}

namespace {

void check(const BatchObjective& objective, const MinibatchAdaDeltaOptions& o) {
  if (objective.instances == 0) throw Error("mini-batch AdaDelta: no instances");
  if (o.batch_size < 1) throw Error("mini-batch AdaDelta: batch_size must be at least 1");
  if (o.passes < 1) throw Error("mini-batch AdaDelta: passes must be at least 1");
  if (!(o.rho >= 0.0 && o.rho < 1.0)) throw Error("mini-batch AdaDelta: rho must lie in [0, 1)");
  if (!(o.epsilon > 0.0)) throw Error("mini-batch AdaDelta: epsilon must be > 0");
  if (!(o.value_tolerance >= 0.0) || !(o.step_tolerance >= 0.0) || !(o.max_seconds >= 0.0))
    throw Error("mini-batch AdaDelta: tolerances and max_seconds must be >= 0");
}

// The instances in a seeded random order, drawn again each time it is used up. Fisher-Yates on a
// 64-bit Mersenne twister with our own bounded draw: the same order with every standard library.
class BatchSampler {
 public:
  BatchSampler(std::size_t n, unsigned long seed) : order_(n), engine_(seed) {
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    shuffle();
  }
  std::vector<std::size_t> next(std::size_t size) {
    std::vector<std::size_t> batch;
    while (batch.size() < size) {
      if (position_ == order_.size()) shuffle();
      batch.push_back(order_[position_++]);
    }
    return batch;
  }

 private:
  void shuffle() {
    for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[engine_() % i]);
    position_ = 0;
  }
  std::vector<std::size_t> order_;
  std::mt19937_64 engine_;
  std::size_t position_ = 0;
};

}  // namespace

OptimizerSummary minimize_minibatch_adadelta(const BatchObjective& objective, Eigen::VectorXd& theta,
                                             const MinibatchAdaDeltaOptions& options) {
  check(objective, options);
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = objective.instances;
  const std::size_t batch_size = std::min(n, static_cast<std::size_t>(options.batch_size));
  const std::size_t steps = static_cast<std::size_t>(options.passes) * n / batch_size;
  OptimizerSummary summary;
  summary.initial_value = objective.value(theta);
  summary.final_value = summary.initial_value;
  summary.status = OptimizerStatus::iteration_limit;
  summary.message = fmt::format("mini-batch AdaDelta stopped: reached the pass limit ({})", options.passes);
  BatchSampler sampler(n, options.seed);
  AdadeltaStep adadelta(theta.size(), options.rho, options.epsilon);
  Eigen::VectorXd gradient(theta.size());
  std::deque<double> values;  // the full values after each pass, at most 10 kept
  int passes = 0;
  for (std::size_t t = 0; t < steps; ++t) {
    objective.batch_gradient(theta, sampler.next(batch_size), gradient);
    ++summary.evaluations;
    adadelta.apply(gradient, theta);

    const bool completed_pass = (t + 1) * batch_size / n > static_cast<std::size_t>(passes);
    const bool last = t + 1 == steps;
    const bool timed_out = options.max_seconds > 0.0 &&
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= options.max_seconds;
    if (!completed_pass && !last && !timed_out) continue;
    const double value = objective.value(theta);
    summary.final_value = value;
    if (!std::isfinite(value) || !theta.allFinite()) {
      summary.status = OptimizerStatus::stopped;
      summary.message = "mini-batch AdaDelta stopped: the objective became non-finite";
      break;
    }
    if (timed_out && !completed_pass) {
      summary.status = OptimizerStatus::time_limit;
      summary.message = "time limit";
      break;
    }
    if (!completed_pass) break;  // the last step ends inside a pass: the pass limit
    ++passes;
    const double step_norm = adadelta.step().matrix().norm();
    if (options.progress) options.progress(passes, value, step_norm);
    values.push_back(value);
    if (values.size() > 10) values.pop_front();
    // s recorded values; the reference compares v_s with v_{s-9} (s >= 10) or v_1, over min(10, s).
    const std::size_t s = static_cast<std::size_t>(passes);
    const double average_improvement = (values.front() - value) / static_cast<double>(std::min<std::size_t>(10, s));
    if (s > 5 && std::abs(average_improvement / value) < options.value_tolerance) {
      summary.status = OptimizerStatus::converged;
      summary.message = fmt::format("mini-batch AdaDelta converged: average relative improvement below {:g} after {} "
                                    "passes",
                                    options.value_tolerance, passes);
      break;
    }
    if (step_norm < options.step_tolerance * std::max(1.0, theta.lpNorm<1>()) &&
        step_norm < options.step_tolerance * std::max(1.0, theta.norm())) {
      summary.status = OptimizerStatus::converged;
      summary.message = fmt::format("mini-batch AdaDelta converged: step norm below {:g} after {} passes",
                                    options.step_tolerance, passes);
      break;
    }
    if (timed_out) {
      summary.status = OptimizerStatus::time_limit;
      summary.message = "time limit";
      break;
    }
  }
  if (summary.evaluations > 0) summary.gradient_norm = gradient.norm();  // the last batch's, as before
  summary.iterations = passes;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace mpg
