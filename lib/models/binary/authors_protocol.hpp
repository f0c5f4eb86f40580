// The authors' training protocols for the binary MPG (issue 53; lib/learn/protocol.hpp): the
// optimizer the reference code ran (AdaDelta or L-BFGS with its settings) from theta = 0, every
// game stopped by the reference's rule, and the prediction by the likeliest pure action of the
// final predictor strategy (shared/notes/mpg-java-reference.md §2.3, §3, §3.5). Beside the
// certified trainers (binary_mpg_trainer.hpp), whose optimum these runs need not reach.
#pragma once

#include <Eigen/Dense>

#include "lib/learn/protocol.hpp"
#include "lib/models/binary/binary_mpg.hpp"

namespace mpg {

// One game as the authors' protocol plays it. Each game takes the fastest exact machinery that
// applies, in this order:
//   1. the metric's exact equilibrium (P@k with the unrestricted adversary: closed form);
//   2. where every potential is equal (theta = 0) and the metric has a solver over marginals
//      (F1): that solver, exact in milliseconds. The reference's double oracle stops this game
//      at its action cap after adding ~300 of the n tied examples in its own tie and hash order,
//      so its stopped game is a function of that order; we take the exact equilibrium instead;
//   3. otherwise the double oracle with the reference's stop rule (DoubleOracleOptions::
//      StopRule::value_repeat: the LP value repeats at rule.value_precision, or a player holds
//      rule.max_actions actions), seeded with the game's initial actions and `gold` when given
//      (training), with our exact best responses.
struct AuthorsGame {
  // The prediction: the likeliest pure action of the final predictor strategy (ties: see
  // likeliest_action below) and its probability.
  BinaryAction likeliest_action;
  double likeliest_probability = 0.0;
  Eigen::VectorXd predictor_marginals;  // P(y_hat_i = 1)
  Eigen::VectorXd adversary_marginals;  // P(y_check_i = 1): E_Q[Phi] = X^T q for the gradient
  double value = 0.0;                   // the (last) LP value, or the exact game value
  // E_P[metric(Y_hat, labels)] of the final predictor strategy.
  std::function<double(const std::vector<int>& labels)> expected_score;
  BinaryGameSummary summary;
};

AuthorsGame solve_authors_game(const BinaryGame& game, const AuthorsGameRule& rule,
                               const BinaryAction* gold = nullptr);

// The most probable action of a strategy, probabilities compared once rounded to 1e-8 (the
// reference rounds them so); ties go to the larger sum of potentials sum_{i in y} psi_i, then the
// smaller action, then the larger potentials sorted in decreasing order (lexicographically): a
// rule on the game alone, not on the order of the file or of the support. Actions still tied
// hold equal potentials, example for example in that order; among those the smallest index set
// wins. Throws mpg::Error for an empty strategy.
std::size_t likeliest_action(const MixedStrategy<BinaryAction>& strategy, const std::vector<double>& psi);

// f(theta) of binary_mpg.hpp with every game played by solve_authors_game (gold seeded).
class AuthorsBinaryObjective : public Objective {
 public:
  AuthorsBinaryObjective(const BinaryProblem& problem, MetricSettings settings, double lambda, AuthorsGameRule rule);
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override;
  const GameStatistics& statistics() const { return statistics_; }

 private:
  const BinaryProblem& problem_;
  MetricSettings settings_;
  double lambda_;
  AuthorsGameRule rule_;
  BinaryAction gold_;
  Eigen::VectorXd gold_features_;
  GameStatistics statistics_;
};

struct AuthorsTrainOptions {
  TrainingProtocol protocol = TrainingProtocol::authors_adadelta;  // not certified
  double lambda = 0.125;
  AuthorsGameRule rule;
  int max_iterations = 0;  // 0 = the protocol's (200)
  std::function<void(int, double, double)> progress;  // OptimizerOptions::progress
};

// Trains from theta = 0 with authors_optimizer_options(protocol). Throws mpg::Error for the
// certified protocol.
BinaryModel train_binary_mpg_authors(const BinaryProblem& problem, const MetricSettings& settings,
                                     const AuthorsTrainOptions& options, TrainSummary* summary = nullptr);

// One game over the whole file (no gold seeded) played by solve_authors_game; the decision is
// its likeliest action (BinaryPrediction::decision = likeliest).
BinaryPrediction predict_binary_mpg_authors(const BinaryModel& model, const BinaryProblem& problem,
                                            const AuthorsGameRule& rule = {});

}  // namespace mpg
