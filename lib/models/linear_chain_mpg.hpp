// Learning the linear-chain F1 game for one target class C (thesis §3.6 with §4.2.2): one game
// per sentence, its adversary potential a linear chain over theta (lib/models/linear_chain.hpp layout:
// unigram feature x label weights and label-bigram weights with START). Minimized:
//     f(theta) = sum_i [ -theta . Phi(x_i, y_i) - v_i(theta) ] + lambda/2 ||theta||^2          (-Eq. 3.9)
//     v_i(theta) = min_{P_check} max_{P_hat} E[ F1_C(Y_hat, Y_check) - theta . Phi(x_i, Y_check) ]
//     subgradient = sum_i [ E_{P_check*}[Phi(x_i, Y_check)] - Phi(x_i, y_i) ] + lambda theta    (Eq. 3.10)
// summed over sentences as the authors' code does. Each v_i comes from the double oracle
// (Algorithm 1) with the LCFM/GFM best responses; the games are solved in parallel, warm-started
// from the previous evaluation's supports, and summed in sentence order (deterministic).
// L-BFGS (liblbfgs) with a backtracking Armijo line search: the objective has kinks.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/linear_chain_f1.hpp"
#include "lib/learn/optimizer.hpp"

namespace mpg {

struct LinearChainMpgOptions {
  int target = 1;                 // class C
  double lambda = 1.0;            // > 0
  int max_iterations = 100;       // L-BFGS iterations
  double gradient_tolerance = 1e-5;
  double game_tolerance = 1e-6;   // double-oracle gap per sentence game
  int max_game_iterations = 500;
  // theta starts at a seeded N(0, initial_scale^2) draw, not at 0: at theta = 0 every non-C label
  // ties, the games are degenerate, and the subgradient the equilibria give is not a descent
  // direction (L-BFGS's line search then fails at once; measured on conll.300). 0 = start at 0.
  double initial_scale = 0.01;
  unsigned long seed = 2017;
};

class LinearChainMpgObjective : public Objective {
 public:
  // Keeps a reference to `sentences`.
  LinearChainMpgObjective(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                          const LinearChainMpgOptions& options);
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override;
  int unconverged_games() const { return unconverged_; }  // in the last evaluation

 private:
  const std::vector<FeaturizedSentence>& sentences_;
  ChainLayout layout_;
  LinearChainMpgOptions options_;
  Eigen::VectorXd empirical_counts_;
  std::vector<std::vector<LabelSequence>> warm_rows_, warm_columns_;
  int unconverged_ = 0;
};

struct LinearChainMpgModel {
  ChainLayout layout;
  int target = 1;
  Eigen::VectorXd theta;
  OptimizerSummary summary;
  int unconverged_games = 0;  // at the last evaluation of training
};

LinearChainMpgModel train_linear_chain_mpg(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                                           const LinearChainMpgOptions& options);

// Test-time decision (the papers' rule, digest §2.7): solve the sentence's game with the learned
// theta (no gold in the strategy sets) and return the predictor's most probable pure action as a
// labelling: target where it predicts C, other labels elsewhere. `converged` reports the game.
LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       double game_tolerance = 1e-6, bool* converged = nullptr);

}  // namespace mpg
