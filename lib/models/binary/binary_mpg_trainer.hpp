// One entry point that trains a binary MPG model, whichever trainer fits: the metric's exact dual
// trainer where it has one (lib/models/binary/precision_at_k_trainer), cutting planes with the double
// oracle folded in (lib/models/binary/cutting_plane_trainer), on request the proximal bundle over games
// solved over marginals (F1; lib/models/binary/marginal_trainer), on request the F1 training as one
// saddle-point LP (lib/models/binary/joint_trainer), or a gradient method over exactly solved
// games (train_binary_mpg). `mpg train` and `mpg run` both call it. A file of its own so that
// code that only scores or predicts does not depend on the trainers.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <variant>

#include "lib/base/option_checks.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/models/binary/authors_protocol.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "lib/models/binary/cutting_plane_trainer.hpp"
#include "lib/models/binary/joint_trainer.hpp"
#include "lib/models/binary/marginal_trainer.hpp"
#include "lib/models/binary/precision_at_k_trainer.hpp"

namespace mpg {

// automatic: the metric's dual trainer where it has one (has_dual_trainer), else cutting_plane;
// marginals (the game's solver over marginals, has_marginal_solver: F1) and joint
// (has_joint_trainer: F1) only when asked for. authors_lbfgs, authors_adadelta: the authors'
// protocols (authors_protocol.hpp), uncertified.
enum class BinaryTrainer { automatic, dual, marginals, joint, cutting_plane, lbfgs, adadelta, authors_lbfgs, authors_adadelta };
// "auto" | "dual" | "marginals" | "joint" | "cutting_plane" | "lbfgs" | "adadelta" | "authors_lbfgs" |
// "authors_adadelta"
BinaryTrainer parse_binary_trainer(const std::string& name);
std::string to_string(BinaryTrainer trainer);
// The trainer of a training protocol: `trainer` itself under the certified protocol; an authors'
// protocol runs its own trainer, so `trainer` must then be auto or that one, else mpg::Error
// "<who>: protocol <name> runs its own optimizer (trainer <same name>); trainer must be auto, got <trainer>".
BinaryTrainer trainer_for_protocol(TrainingProtocol protocol, BinaryTrainer trainer, const std::string& who);
inline bool is_authors_trainer(BinaryTrainer trainer) {
  return trainer == BinaryTrainer::authors_lbfgs || trainer == BinaryTrainer::authors_adadelta;
}
// The trainer `automatic` stands for with these settings; others unchanged.
BinaryTrainer resolve_trainer(BinaryTrainer trainer, const MetricSettings& settings);

struct BinaryTrainingOptions {
  BinaryTrainer trainer = BinaryTrainer::automatic;
  double lambda = 0.125;     // L2 weight; the certified trainers (dual, marginals, cutting_plane) need lambda > 0
  double tolerance = 1e-6;   // certified trainers: stop when the objective is certified within this
  int max_iterations = 0;    // 0 = the trainer's own default cap
  double max_seconds = 0.0;  // certified trainers: training time cap (0 = none)
  // Certified trainers over games (marginals, cutting_plane): cap on the restricted-game LP solves
  // over the whole run (0 = none), a deterministic alternative to max_seconds; overrides theirs.
  long max_game_solves = 0;
  // The trainers' other settings; lambda, tolerance and the caps above override theirs.
  PrecisionAtKTrainOptions dual;
  MarginalTrainOptions marginals;
  JointTrainOptions joint;
  CuttingPlaneOptions cutting_plane;
  TrainOptions gradient;  // lbfgs and adadelta (the optimizer kind follows `trainer`)

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::non_negative("binary MPG training", "lambda", lambda);
    option_checks::positive("binary MPG training", "tolerance", tolerance);
    option_checks::at_least("binary MPG training", "max_iterations", max_iterations, 0);
    option_checks::non_negative("binary MPG training", "max_seconds", max_seconds);
    option_checks::at_least("binary MPG training", "max_game_solves", max_game_solves, 0);
  }
};

// The summary of whichever trainer ran, with the accessors they share.
class BinaryTrainingSummary {
 public:
  using Summary = std::variant<PrecisionAtKTrainSummary, MarginalTrainSummary, JointTrainSummary, CuttingPlaneSummary,
                               TrainSummary>;
  BinaryTrainingSummary() = default;
  BinaryTrainingSummary(BinaryTrainer trainer, Summary summary) : trainer_(trainer), summary_(std::move(summary)) {}

  BinaryTrainer trainer() const { return trainer_; }  // never automatic
  const Summary& summary() const { return summary_; }
  bool converged() const;
  nlohmann::json to_json() const;  // the trainer's summary and "trainer"
  std::string report() const;      // the trainer's one-line report

 private:
  BinaryTrainer trainer_ = BinaryTrainer::cutting_plane;
  Summary summary_;
};

// Trains theta on the whole training file as one game (thesis Eq. 3.9/3.10). Throws mpg::Error
// for impossible options (e.g. the dual trainer for a metric without one, lambda <= 0 for a
// certified trainer).
BinaryModel train_binary_mpg_model(const BinaryProblem& problem, const MetricSettings& settings,
                                   const BinaryTrainingOptions& options, BinaryTrainingSummary* summary = nullptr);

}  // namespace mpg
