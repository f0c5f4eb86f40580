#include "lib/models/binary/binary_mpg_trainer.hpp"

#include <nlohmann/json.hpp>

#include "lib/base/choices.hpp"
#include "lib/base/error.hpp"

namespace mpg {

namespace {

const Choice<BinaryTrainer> kTrainers[] = {{"auto", BinaryTrainer::automatic},
                                           {"dual", BinaryTrainer::dual},
                                           {"marginals", BinaryTrainer::marginals},
                                           {"joint", BinaryTrainer::joint},
                                           {"cutting_plane", BinaryTrainer::cutting_plane},
                                           {"lbfgs", BinaryTrainer::lbfgs},
                                           {"adadelta", BinaryTrainer::adadelta},
                                           {"authors_lbfgs", BinaryTrainer::authors_lbfgs},
                                           {"authors_adadelta", BinaryTrainer::authors_adadelta}};

// A certified trainer (dual, marginals, joint, cutting_plane) with lambda, tolerance and the caps of `options`.
template <class TrainerOptions, class Summary, class Train>
BinaryModel train_certified(TrainerOptions trainer_options, const BinaryTrainingOptions& options,
                            BinaryTrainer trainer, Train train, BinaryTrainingSummary* summary) {
  trainer_options.lambda = options.lambda;
  trainer_options.tolerance = options.tolerance;
  trainer_options.max_seconds = options.max_seconds;
  if (options.max_iterations > 0) trainer_options.max_iterations = options.max_iterations;
  Summary result;
  BinaryModel model = train(trainer_options, &result);
  if (summary) *summary = BinaryTrainingSummary(trainer, result);
  return model;
}

}  // namespace

BinaryTrainer parse_binary_trainer(const std::string& name) { return parse_choice(name, kTrainers, "trainer"); }
std::string to_string(BinaryTrainer trainer) { return choice_name(trainer, kTrainers); }

BinaryTrainer trainer_for_protocol(TrainingProtocol protocol, BinaryTrainer trainer, const std::string& who) {
  if (protocol == TrainingProtocol::certified) return trainer;
  const BinaryTrainer own =
      protocol == TrainingProtocol::authors_lbfgs ? BinaryTrainer::authors_lbfgs : BinaryTrainer::authors_adadelta;
  if (trainer != BinaryTrainer::automatic && trainer != own)
    throw Error(who + ": protocol " + to_string(protocol) + " runs its own optimizer (trainer " + to_string(own) +
                "); trainer must be auto, got " + to_string(trainer));
  return own;
}

BinaryTrainer resolve_trainer(BinaryTrainer trainer, const MetricSettings& settings) {
  if (trainer != BinaryTrainer::automatic) return trainer;
  // Not yet the trainer over marginals where the game has that solver: it certifies the same
  // optimum, but along the training path its F1 games are slower than the cutting-plane trainer's
  // double oracle (docs/methods.md); switch here once they are fast.
  return has_dual_trainer(settings) ? BinaryTrainer::dual : BinaryTrainer::cutting_plane;
}

bool BinaryTrainingSummary::converged() const {
  return std::visit([](const auto& s) { return s.converged(); }, summary_);
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
  options.validate();
  const BinaryTrainer trainer = resolve_trainer(options.trainer, settings);
  if (trainer == BinaryTrainer::dual)
    return train_certified<PrecisionAtKTrainOptions, PrecisionAtKTrainSummary>(
        options.dual, options, trainer,
        [&](const auto& dual, auto* result) { return train_precision_at_k_mpg(problem, settings, dual, result); },
        summary);
  if (trainer == BinaryTrainer::marginals) {
    MarginalTrainOptions marginals = options.marginals;
    if (options.max_game_solves > 0) marginals.max_game_solves = options.max_game_solves;
    return train_certified<MarginalTrainOptions, MarginalTrainSummary>(
        marginals, options, trainer,
        [&](const auto& over_marginals, auto* result) {
          return train_binary_mpg_over_marginals(problem, settings, over_marginals, result);
        },
        summary);
  }
  if (trainer == BinaryTrainer::joint)
    return train_certified<JointTrainOptions, JointTrainSummary>(
        options.joint, options, trainer,
        [&](const auto& joint, auto* result) { return train_f1_mpg_joint(problem, settings, joint, result); },
        summary);
  if (trainer == BinaryTrainer::cutting_plane) {
    CuttingPlaneOptions planes = options.cutting_plane;
    if (options.max_game_solves > 0) planes.max_game_solves = options.max_game_solves;
    return train_certified<CuttingPlaneOptions, CuttingPlaneSummary>(
        planes, options, trainer,
        [&](const auto& cutting_plane, auto* result) {
          return train_binary_mpg_cutting_plane(problem, settings, cutting_plane, result);
        },
        summary);
  }
  if (trainer == BinaryTrainer::authors_lbfgs || trainer == BinaryTrainer::authors_adadelta) {
    AuthorsTrainOptions authors;
    authors.protocol =
        trainer == BinaryTrainer::authors_lbfgs ? TrainingProtocol::authors_lbfgs : TrainingProtocol::authors_adadelta;
    authors.lambda = options.lambda;
    authors.max_iterations = options.max_iterations;
    authors.progress = options.gradient.optimizer.progress;
    TrainSummary result;
    BinaryModel model = train_binary_mpg_authors(problem, settings, authors, &result);
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
