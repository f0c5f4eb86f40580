// Learning the linear-chain F1 game for one target class C (thesis §3.6 with §4.2.2): one game
// per sentence, its adversary potential a linear chain over theta (lib/structures/linear_chain.hpp layout:
// unigram feature x label weights and label-bigram weights with START). Minimized:
//     f(theta) = sum_i [ -theta . Phi(x_i, y_i) - v_i(theta) ] + lambda/2 ||theta||^2          (-Eq. 3.9)
//     v_i(theta) = min_{P_check} max_{P_hat} E[ F1_C(Y_hat, Y_check) - theta . Phi(x_i, Y_check) ]
//     subgradient = sum_i [ E_{P_check*}[Phi(x_i, Y_check)] - Phi(x_i, y_i) ] + lambda theta    (Eq. 3.10)
// summed over sentences as the authors' code does: the sum-of-games objective of
// lib/learn/sum_of_games.hpp over the family SentenceGames (one F1 game per sentence). Each v_i
// comes from the double oracle (Algorithm 1) with the LCFM/GFM best responses; the games are
// solved in parallel, warm-started from the previous evaluation's supports, and summed in
// sentence order (deterministic). Minimized by the cutting-plane method with the exact regularizer
// and a proximal stabilization (lib/learn/optimizer.hpp), which certifies its result by a lower bound on min f,
// by the same with one cutting-plane model per sentence (instance_planes, lib/learn/block_coordinate.hpp), or by
// L-BFGS (liblbfgs) with a backtracking Armijo line search (the objective has kinks), which stops
// at an iteration cap without a certificate.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/learn/cut_model.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/learn/sum_of_games.hpp"
#include "lib/metrics/linear_chain_f1.hpp"

namespace mpg {

struct LinearChainMpgOptions {
  int target = 1;                 // class C
  double lambda = 1.0;            // > 0
  // cutting_plane: stop when f(best theta) - lower bound <= objective_tolerance * max(1, |f|)
  // (certified), or after max_iterations cuts. lbfgs: stop at ||g|| <= gradient_tolerance
  // max(1, ||theta||) (rarely met at a kink) or after max_iterations iterations (uncertified).
  // Defaults: those of the sequence-labeling spec's `mpg` method (lib/harness/families/
  // sequence_labeling.cpp reads them from here): instance planes, 2000 passes, 1e-4.
  OptimizerKind optimizer = OptimizerKind::cutting_plane;
  double objective_tolerance = 1e-4;
  // cutting_plane: also stop only once ||theta - theta*|| <= argument_tolerance is certified
  // (OptimizerOptions::argument_tolerance; 0 = off).
  double argument_tolerance = 0.0;
  int max_iterations = 2000;
  double gradient_tolerance = 1e-5;
  double game_tolerance = 1e-6;   // double-oracle gap per sentence game
  int max_game_iterations = 500;
  // L-BFGS: theta starts at a seeded N(0, initial_scale^2) draw, not at 0: at theta = 0 every
  // non-C label ties, the games are degenerate, and the subgradient the equilibria give is not a
  // descent direction (L-BFGS's line search then fails at once; measured on conll.300). 0 = start
  // at 0. The cutting plane (a proximal bundle) always starts at 0, its first center.
  double initial_scale = 0.01;
  unsigned long seed = 2017;
  // cutting_plane only: one cutting-plane model per sentence instead of one for the sum, its dual
  // maximized block by block (lib/learn/block_coordinate.hpp); same certificate and tolerances,
  // max_iterations caps its passes over the games.
  bool instance_planes = true;
  // The training protocol (lib/learn/protocol.hpp, issue 53). `certified`: the settings above.
  // An authors' protocol ignores optimizer, instance_planes, tolerances, max_iterations and
  // initial_scale: theta starts at 0; authors_lbfgs runs the protocol's L-BFGS on the whole sum,
  // authors_adadelta AdaDelta over mini-batches of batch_size sentences (the reference's
  // multi-instance AdaDelta, lib/learn/minibatch_adadelta.hpp; its batches drawn from `seed`); every
  // sentence game, in training and prediction (chain_game_options), is solved from the game's
  // initial actions (and the gold in training, no warm start) and stopped by the reference's rule
  // (authors_game_options).
  TrainingProtocol protocol = TrainingProtocol::certified;
  // The reference's batch: its thread-pool size, #cpus + 1 of the machine that ran it (not stated;
  // 9 = an 8-thread machine).
  int batch_size = 9;
  // Called after each optimizer iteration (OptimizerOptions::progress); may be empty.
  std::function<void(int, double, double)> progress;

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("linear-chain MPG", "lambda", lambda);
    option_checks::non_negative("linear-chain MPG", "objective_tolerance", objective_tolerance);
    option_checks::non_negative("linear-chain MPG", "argument_tolerance", argument_tolerance);
    option_checks::at_least("linear-chain MPG", "max_iterations", max_iterations, 1);
    option_checks::non_negative("linear-chain MPG", "game_tolerance", game_tolerance);
    option_checks::at_least("linear-chain MPG", "max_game_iterations", max_game_iterations, 0);
    option_checks::non_negative("linear-chain MPG", "initial_scale", initial_scale);
    option_checks::at_least("linear-chain MPG", "batch_size", batch_size, 1);
  }
};

// The sentences' F1 games as a family of instances of the sum-of-games objective
// (lib/learn/sum_of_games.hpp), with Phi the chain's feature counts.
class SentenceGames {
 public:
  // The previous equilibrium's supports: seeds of the next solve, with the gold labelling.
  struct Warm {
    std::vector<LabelSequence> rows, columns;
  };
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    MixedStrategy<LabelSequence> adversary;  // its equilibrium strategy (empty for an empty sentence)
  };
  // Keeps a reference to `sentences`.
  SentenceGames(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout, const LinearChainMpgOptions& options)
      : sentences_(sentences), layout_(layout), options_(options) {}
  std::size_t size() const { return sentences_.size(); }
  Eigen::Index dimension() const { return static_cast<Eigen::Index>(layout_.size()); }
  void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const {
    add_feature_counts(sentences_[i], sentences_[i].labels, 1.0, layout_, sum);
  }
  Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const;
  // The coordinates of theta sentence i's feature counts can touch, increasing: every label with
  // each of its features, and every label bigram (lib/learn/block_coordinate.hpp).
  std::vector<Eigen::Index> support(std::size_t i) const;
  void add_expected_features(std::size_t i, const Solution& solution, double weight, Eigen::VectorXd& gradient) const {
    for (std::size_t j = 0; j < solution.adversary.size(); ++j)
      add_feature_counts(sentences_[i], solution.adversary.actions[j], weight * solution.adversary.probabilities[j],
                         layout_, gradient);
  }

 private:
  const std::vector<FeaturizedSentence>& sentences_;
  ChainLayout layout_;
  LinearChainMpgOptions options_;
};

// f(theta) and its subgradient over the training sentences (see the header comment).
class LinearChainMpgObjective : public Objective {
 public:
  // Keeps a reference to `sentences`. Throws mpg::Error unless lambda > 0 and 0 <= target < m.
  LinearChainMpgObjective(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                          const LinearChainMpgOptions& options);
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override {
    return objective_.evaluate(theta, gradient);
  }
  SumOfGamesObjective<SentenceGames>& sum_of_games() { return objective_; }

 private:
  SentenceGames games_;
  SumOfGamesObjective<SentenceGames> objective_;
};

struct LinearChainMpgModel {
  ChainLayout layout;
  int target = 1;
  Eigen::VectorXd theta;
  // Training: the optimizer's summary and the games' statistics (last_unconverged_games: at the
  // last evaluation).
  SumOfGamesSummary summary;
};

LinearChainMpgModel train_linear_chain_mpg(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                                           const LinearChainMpgOptions& options);

// Trains the models of a lambda path (largest lambda first pays most) one after the other with the
// cutting plane, each warm-started from the one before: the cuts of R(theta) = f - lambda/2
// ||theta||^2 the previous training kept (they do not involve lambda, so the lower bound stays a
// true lower bound and certifies each model as from scratch), the previous optimum as the first
// center, and the sentence games' supports. Each model is certified to
// options.objective_tolerance, so it ends within that tolerance of the same minimum as a training
// from scratch (not at the same point). Deterministic: the same lambdas in the same order give
// the same models. options.lambda is ignored; options.optimizer must be cutting_plane.
class LinearChainMpgPath {
 public:
  // Keeps a reference to `sentences`.
  LinearChainMpgPath(const std::vector<FeaturizedSentence>& sentences, ChainLayout layout,
                     const LinearChainMpgOptions& options);
  LinearChainMpgPath(const LinearChainMpgPath&) = delete;  // the optimizer points at cuts_
  LinearChainMpgPath& operator=(const LinearChainMpgPath&) = delete;
  // The next model of the path.
  LinearChainMpgModel train(double lambda);

 private:
  ChainLayout layout_;
  LinearChainMpgOptions options_;
  LinearChainMpgObjective objective_;
  OptimizerOptions optimizer_;
  std::vector<Cut> cuts_;
  Eigen::VectorXd theta_;
};

// The models of `lambdas` (returned in the given order) trained along one path, largest first.
std::vector<LinearChainMpgModel> train_linear_chain_mpg_path(const std::vector<FeaturizedSentence>& sentences,
                                                             ChainLayout layout, const LinearChainMpgOptions& options,
                                                             const std::vector<double>& lambdas);

// The double-oracle settings of a sentence game under `options`: the gap tolerance
// game_tolerance and max_game_iterations (certified), or the reference's stop rule (an authors'
// protocol, lib/learn/protocol.hpp). Training and prediction both use them.
DoubleOracleOptions chain_game_options(const LinearChainMpgOptions& options);

// Test-time decision rules.
//   most_probable  the papers' rule (digest §2.7): solve the sentence's game with the learned theta
//                  (no gold in the strategy sets) and return the predictor's most probable pure
//                  action. The predictor's equilibrium is often not unique, so this depends on the
//                  equilibrium the double oracle lands on (its seeds, tolerance, LP basis).
//   maximin        a rule stated on the game alone, which no solver can change (issue 25, item 3):
//                  the candidates a_0..a_T put C at the k positions with the largest marginal
//                  P(y_t = C) of the adversary's potential as a chain distribution (exp psi / Z,
//                  forward-backward; ties: the earlier position); the decision is the candidate
//                  with the best guaranteed payoff min_y F1(a_k, y) - psi(y) (the adversary's exact
//                  best response, LCFM), ties to the smaller k. No equilibrium is computed.
// Both return a labelling: target where C is predicted, other labels elsewhere. `converged`
// reports the game (always true for maximin).
enum class ChainDecisionRule { most_probable, maximin };
LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       double game_tolerance = 1e-6, bool* converged = nullptr,
                                       ChainDecisionRule rule = ChainDecisionRule::most_probable);
// The same with the sentence game's double-oracle settings given (chain_game_options).
LabelSequence predict_linear_chain_mpg(const LinearChainMpgModel& model, const FeaturizedSentence& sentence,
                                       const DoubleOracleOptions& game, bool* converged = nullptr,
                                       ChainDecisionRule rule = ChainDecisionRule::most_probable);
// The maximin rule on one game (see above).
LabelSequence maximin_chain_decision(const LinearChainF1Game& game);

}  // namespace mpg
