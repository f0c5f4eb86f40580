// Word alignment with linear word-pair scores (thesis §5.4): the pieces shared by max-margin
// matching (baselines/matching_ssvm.hpp) and the two alignment MPGs, and the per-sentence-pair
// games of MPG_bip and MPG_aer built from a parameter vector theta.
//
// Features: phi(e) in R^d for each word pair e of a pair (lib/features/alignment_features.hpp).
//   MPG_bip (lib/metrics/matching_game.hpp): Phi(x, y) = sum_{e in y} phi(e) (theta in R^d), the
//     adversary's potential psi(e) = theta . phi(e); the gold adversary action is the pair's
//     target matching (below).
//   MPG_aer (lib/metrics/aer.hpp): Phi(x, y) = [sum_{e: y_e = S} phi(e); sum_{e: y_e = R} phi(e)]
//     (theta = [theta_S; theta_R] in R^2d, "psi^(S) for S tags, psi^(R) for P tags that are not
//     also S", thesis §4.2.5), psi_S(e) = theta_S . phi(e), psi_R(e) = theta_R . phi(e); the gold
//     adversary action is the pair's gold S / R tags.
// Learning (phase B, through the shared sum of per-instance games) maximizes, with the game value
// v_n(theta) of pair n (thesis Eq. 3.9, summed as the authors' code does),
//     sum_n [theta . Phi(x_n, y_n) + v_n(theta)] - lambda/2 ||theta||^2,
// with subgradient sum_n [Phi(x_n, y_n) - E_{Q_n*}[Phi(x_n, Y)]] - lambda theta (Eq. 3.10).
// Prediction (digest §2.7): solve the pair's game with the learned theta (no gold in the
// strategy sets) and return the predictor's most probable pure action.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/features/alignment_features.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/learn/sum_of_games.hpp"
#include "lib/metrics/aer.hpp"
#include "lib/metrics/matching_game.hpp"

namespace mpg {

// The loss of a proposed link set against the gold S ⊆ P, per missed sure link and per proposed
// link outside P (the max-margin matching loss; Taskar et al. 2005 use a weighted Hamming loss):
//     L(y) = c_fn |S \ y| + c_fp |y \ P|.
struct AlignmentCosts {
  double false_negative_cost = 1.0;  // c_fn >= 0
  double false_positive_cost = 1.0;  // c_fp >= 0
};
double alignment_loss(const AlignmentAction& proposal, const AlignmentAction& gold, const AlignmentCosts& costs);

// The target matching of a pair: a matching minimizing L (the most sure links a matching can
// hold), with possible-only links added where they fit without displacing a sure link (weight
// c_fn for a sure link, c_fn / (min(|e|, |f|) + 1) for a possible-only one: the number of sure
// links decides first). The gold action of the matching game and of max-margin matching.
AlignmentAction target_matching(const AlignmentInstance& instance, const AlignmentCosts& costs = {});

// theta . phi(e) for every word pair e (theta of size d).
std::vector<double> edge_scores(const AlignmentInstance& instance, const Eigen::VectorXd& theta);

// Phi(x, y) = sum_{e in y} phi(e), tags ignored (size d).
Eigen::VectorXd link_features(const AlignmentInstance& instance, const AlignmentAction& action);
// [sum_{S} phi(e); sum_{R} phi(e)] (size 2d), the AER game's joint features.
Eigen::VectorXd tagged_link_features(const AlignmentInstance& instance, const AlignmentAction& action);

// The games of one pair at theta: MPG_bip (theta of size d), MPG_aer (theta of size 2d).
MatchingGame make_matching_game(const AlignmentInstance& instance, const Eigen::VectorXd& theta,
                                const MatchingGameOptions& options = {});
AerGame make_aer_game(const AlignmentInstance& instance, const Eigen::VectorXd& theta,
                      const AerGameOptions& options = {});

// E_Q[Phi(x, Y)] of an adversary strategy of either game (link_features or tagged_link_features).
Eigen::VectorXd expected_link_features(const AlignmentInstance& instance, const MixedStrategy<AlignmentAction>& strategy);
Eigen::VectorXd expected_tagged_link_features(const AlignmentInstance& instance,
                                              const MixedStrategy<AlignmentAction>& strategy);

// The test-time decision of an alignment MPG: the predictor's most probable pure action of the
// solved game (ties: the action generated first), with the game's summary.
struct AlignmentPrediction {
  AlignmentAction links;
  DoubleOracleSummary game;
};
// With authors_game_options (the reference's stop rule), the last restricted LP's predictor strategy.
AlignmentPrediction predict_by_game(const Game<AlignmentAction>& game, const DoubleOracleOptions& options = {});

}  // namespace mpg

namespace mpg {

// ---- Learning MPG_bip and MPG_aer (thesis §5.4) -------------------------------------------------
// The training pairs' games as a family of instances of the sum-of-games objective
// (lib/learn/sum_of_games.hpp), summed over pairs as the authors' code sums:
//     f(theta) = sum_n [ -theta . Phi_n(gold) - v_n(theta) ] + lambda/2 ||theta||^2        (-Eq. 3.9)
//     subgradient = sum_n [ E_{Q*_n}[Phi_n(Y)] - Phi_n(gold) ] + lambda theta              (Eq. 3.10)
// v_n is the double oracle's predictor_response_value: the value the best adversary strategy
// found guarantees, consistent with the E_{Q*}Phi of that strategy (an upper bound on the game
// value within the game's gap). Each game is seeded with the gold (adversary) and its links
// (predictor) and warm-started from the previous evaluation's most probable actions.

enum class AlignmentMpgKind {
  matching,  // MPG_bip: matchings for both players, theta in R^d
  aer,       // MPG_aer: link sets vs S/R/N taggings, theta = [theta_S; theta_R] in R^2d
};

struct AlignmentMpgOptions {
  AlignmentMpgKind kind = AlignmentMpgKind::aer;
  double lambda = 1.0;  // > 0
  MatchingGameOptions matching;  // MPG_bip's score costs
  AerGameOptions aer;            // MPG_aer's 0/0 convention
  OptimizerKind optimizer = OptimizerKind::cutting_plane;
  // cutting_plane only: a proximal bundle whose first step has length about 1 / ||g(0)||
  // (OptimizerOptions::cutting_plane_scaled_start) instead of plain BMRM, whose first step
  // Phi(gold) / lambda is far outside the region where MPG_aer's objective falls below f(0) = 0
  // (docs/methods.md, "Word alignment").
  bool proximal = true;
  int max_iterations = 300;
  double objective_tolerance = 1e-4;  // cutting_plane: certified relative gap; lbfgs: gradient tolerance
  double game_tolerance = 1e-6;       // double-oracle gap of each pair's game
  int max_game_actions = 0;           // per player and game (0 = no cap; a capped game reports its gap)
  int max_game_iterations = 10000;    // double-oracle iterations per game (0 = no cap; deterministic,
                                      // unlike a time cap)
  int warm_actions = 50;              // most probable actions of the last solve kept as seeds (0 = no warm start)
  double max_seconds = 0.0;           // wall-clock cap of a training (0 = none)
  // How theta is found (lib/learn/protocol.hpp). certified: `optimizer` and the fields above.
  // authors_lbfgs / authors_adadelta: the protocol's optimizer preset (its iteration cap replaced
  // by authors_max_iterations when > 0), theta = 0, every game (training and prediction) solved
  // by the reference's double oracle (authors_game_options: gold seeds, no warm start, stop
  // when the LP value repeats or at authors_game.max_actions), v_n = the last LP value and Q_n its
  // adversary strategy, as the reference pairs them; game_tolerance and the game caps unused.
  TrainingProtocol protocol = TrainingProtocol::certified;
  AuthorsGameRule authors_game;
  int authors_max_iterations = 0;  // 0 = the preset's 200

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("alignment MPG", "lambda", lambda);
    option_checks::non_negative("alignment MPG", "objective_tolerance", objective_tolerance);
    option_checks::non_negative("alignment MPG", "game_tolerance", game_tolerance);
    option_checks::at_least("alignment MPG", "max_game_actions", max_game_actions, 0);
    option_checks::at_least("alignment MPG", "max_game_iterations", max_game_iterations, 0);
    option_checks::at_least("alignment MPG", "warm_actions", warm_actions, 0);
    option_checks::non_negative("alignment MPG", "max_seconds", max_seconds);
    option_checks::at_least("alignment MPG", "authors_max_iterations", authors_max_iterations, 0);
  }
};

class AlignmentGames {
 public:
  struct Warm {
    std::vector<AlignmentAction> rows, columns;
  };
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    MixedStrategy<AlignmentAction> adversary;
  };
  // Keeps a reference to `instances`.
  AlignmentGames(const std::vector<AlignmentInstance>& instances, const AlignmentMpgOptions& options);
  std::size_t size() const { return instances_.size(); }
  Eigen::Index dimension() const;
  void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const;
  Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const;
  void add_expected_features(std::size_t i, const Solution& solution, double weight, Eigen::VectorXd& gradient) const;

 private:
  const std::vector<AlignmentInstance>& instances_;
  AlignmentMpgOptions options_;
  std::vector<AlignmentAction> gold_;  // the adversary's gold action of each pair
};

struct AlignmentMpgModel {
  AlignmentMpgKind kind = AlignmentMpgKind::aer;
  Eigen::VectorXd theta;
  MatchingGameOptions matching;
  AerGameOptions aer;
  TrainingProtocol protocol = TrainingProtocol::certified;  // authors': predictions by the reference's rule
  AuthorsGameRule authors_game;
  SumOfGamesSummary summary;
};

// Trains from theta = 0. Throws mpg::Error for lambda <= 0 or no instances.
AlignmentMpgModel train_alignment_mpg(const std::vector<AlignmentInstance>& instances,
                                      const AlignmentMpgOptions& options);

// The model's test-time alignment of a pair (predict_by_game on the pair's game at theta, to
// the gap game_tolerance within max_game_iterations double-oracle iterations, 0 = no cap; under
// an authors' protocol the game is stopped by model.authors_game instead).
AlignmentPrediction predict_alignment_mpg(const AlignmentMpgModel& model, const AlignmentInstance& instance,
                                          double game_tolerance = 1e-6, int max_game_iterations = 10000);

}  // namespace mpg
