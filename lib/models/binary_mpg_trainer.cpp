#include "lib/models/binary_mpg_trainer.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"
#include "lib/base/overloaded.hpp"

namespace mpg {

BinaryTrainer parse_binary_trainer(const std::string& name) {
  if (name == "auto") return BinaryTrainer::automatic;
  if (name == "dual") return BinaryTrainer::dual;
  if (name == "cutting_plane") return BinaryTrainer::cutting_plane;
  if (name == "lbfgs") return BinaryTrainer::lbfgs;
  if (name == "adadelta") return BinaryTrainer::adadelta;
  throw Error("unknown trainer '" + name + "' (expected auto, dual, cutting_plane, lbfgs or adadelta)");
}

std::string to_string(BinaryTrainer trainer) {
  switch (trainer) {
    case BinaryTrainer::automatic: return "auto";
    case BinaryTrainer::dual: return "dual";
    case BinaryTrainer::cutting_plane: return "cutting_plane";
    case BinaryTrainer::lbfgs: return "lbfgs";
    case BinaryTrainer::adadelta: return "adadelta";
  }
  return "unknown";
}

BinaryTrainer resolve_trainer(BinaryTrainer trainer, const MetricSettings& settings) {
  if (trainer != BinaryTrainer::automatic) return trainer;
  return has_dual_trainer(settings) ? BinaryTrainer::dual : BinaryTrainer::cutting_plane;
}

bool BinaryTrainingSummary::converged() const {
  return std::visit([](const auto& s) { return s.converged(); }, summary_);
}

std::string BinaryTrainingSummary::status() const {
  return std::visit(Overloaded{[](const PrecisionAtKTrainSummary& s) { return to_string(s.status); },
                               [](const CuttingPlaneSummary& s) { return s.message; },
                               [](const TrainSummary& s) { return s.optimizer.message; }},
                    summary_);
}

int BinaryTrainingSummary::iterations() const {
  return std::visit(Overloaded{[](const TrainSummary& s) { return s.optimizer.iterations; },
                               [](const auto& s) { return s.iterations; }},
                    summary_);
}

double BinaryTrainingSummary::objective() const {
  return std::visit(Overloaded{[](const TrainSummary& s) { return s.optimizer.final_value; },
                               [](const auto& s) { return s.objective; }},
                    summary_);
}

double BinaryTrainingSummary::gap() const {
  return std::visit(Overloaded{[](const TrainSummary&) { return std::numeric_limits<double>::infinity(); },
                               [](const auto& s) { return s.gap; }},
                    summary_);
}

double BinaryTrainingSummary::seconds() const {
  return std::visit(Overloaded{[](const TrainSummary& s) { return s.optimizer.seconds; },
                               [](const auto& s) { return s.seconds; }},
                    summary_);
}

nlohmann::json BinaryTrainingSummary::to_json() const {
  nlohmann::json out = std::visit([](const auto& s) { return s.to_json(); }, summary_);
  out["trainer"] = to_string(trainer_);
  return out;
}

std::string BinaryTrainingSummary::report() const {
  return std::visit([](const auto& s) { return s.report(); }, summary_);
}

BinaryModel train_binary_mpg_model(const BinaryProblem& problem, const MetricSettings& settings,
                                   const BinaryTrainingOptions& options, BinaryTrainingSummary* summary) {
  const BinaryTrainer trainer = resolve_trainer(options.trainer, settings);
  if (trainer == BinaryTrainer::dual) {
    PrecisionAtKTrainOptions dual = options.dual;
    dual.lambda = options.lambda;
    dual.tolerance = options.tolerance;
    dual.max_seconds = options.max_seconds;
    if (options.max_iterations > 0) dual.max_iterations = options.max_iterations;
    PrecisionAtKTrainSummary result;
    BinaryModel model = train_precision_at_k_mpg(problem, settings, dual, &result);
    if (summary) *summary = BinaryTrainingSummary(trainer, result);
    return model;
  }
  if (trainer == BinaryTrainer::cutting_plane) {
    CuttingPlaneOptions cutting_plane = options.cutting_plane;
    cutting_plane.lambda = options.lambda;
    cutting_plane.tolerance = options.tolerance;
    cutting_plane.max_seconds = options.max_seconds;
    if (options.max_iterations > 0) cutting_plane.max_iterations = options.max_iterations;
    CuttingPlaneSummary result;
    BinaryModel model = train_binary_mpg_cutting_plane(problem, settings, cutting_plane, &result);
    if (summary) *summary = BinaryTrainingSummary(trainer, result);
    return model;
  }
  TrainOptions gradient = options.gradient;
  gradient.lambda = options.lambda;
  gradient.optimizer.kind = trainer == BinaryTrainer::lbfgs ? OptimizerKind::lbfgs : OptimizerKind::adadelta;
  if (options.max_iterations > 0) gradient.optimizer.max_iterations = options.max_iterations;
  TrainSummary result;
  BinaryModel model = train_binary_mpg(problem, settings, gradient, &result);
  if (summary) *summary = BinaryTrainingSummary(trainer, result);
  return model;
}

}  // namespace mpg
