// Learning MPG_cfg, the CFG parsing game of thesis §4.2.6 / §5.5 (Algorithm 6; digest §4.6): one
// game per training sentence (lib/metrics/cfg_hamming.hpp, CfgHammingGame), the adversary's
// potential psi(y) = theta . Phi(y) over rule counts (lib/structures/cfg.hpp). Minimized:
//     f(theta) = sum_i [ -theta . Phi(y_i) - v_i(theta) ] + lambda/2 ||theta||^2          (-Eq. 3.9)
//     subgradient = sum_i [ E_{Q*_i}[Phi(Y)] - Phi(y_i) ] + lambda theta                   (Eq. 3.10)
// summed over sentences as the authors' code does: the sum-of-games objective of
// lib/learn/sum_of_games.hpp over the family ParseGames. Each v_i comes from the double oracle
// (Algorithm 1) with the CYK best responses of Algorithm 6, seeded with the gold parse (as
// mpg_java does) and warm-started from the previous evaluation's supports.
// Prediction (digest §2.7): the sentence's game at the learned theta, no gold in the strategy
// sets; the predictor's most probable pure action, unbinarized.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/learn/sum_of_games.hpp"
#include "lib/metrics/cfg_hamming.hpp"
#include "lib/structures/cfg.hpp"

namespace mpg {

struct CfgMpgOptions {
  double lambda = 1.0;  // > 0 (the cutting-plane optimizer needs a strongly convex part)
  ParseScore score = ParseScore::hamming;
  OptimizerKind optimizer = OptimizerKind::cutting_plane;
  int max_iterations = 300;
  // cutting_plane: the certified relative gap; lbfgs: the gradient tolerance.
  double objective_tolerance = 1e-3;
  double game_tolerance = 1e-6;  // double-oracle gap of each sentence game
  double max_seconds = 0.0;      // wall-clock cap of a training (0 = none)
  // How theta is found (lib/learn/protocol.hpp). certified: the fields above. authors_lbfgs /
  // authors_adadelta: the protocol's optimizer preset (its iteration cap replaced by
  // authors_max_iterations when > 0) from theta = 0, every game (training and prediction) by the
  // reference's double oracle (authors_game_options in lib/learn/protocol.hpp: gold seeds in training, no warm
  // start, stop when the LP value repeats or at authors_game.max_actions); game_tolerance unused.
  TrainingProtocol protocol = TrainingProtocol::certified;
  AuthorsGameRule authors_game;
  int authors_max_iterations = 0;  // 0 = the preset's 200

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::positive("MPG_cfg", "lambda", lambda);
    option_checks::non_negative("MPG_cfg", "objective_tolerance", objective_tolerance);
    option_checks::non_negative("MPG_cfg", "game_tolerance", game_tolerance);
    option_checks::non_negative("MPG_cfg", "max_seconds", max_seconds);
    option_checks::at_least("MPG_cfg", "authors_max_iterations", authors_max_iterations, 0);
  }
};

// The training sentences' games as a family of instances of the sum-of-games objective.
class ParseGames {
 public:
  struct Warm {
    std::vector<CnfParse> rows, columns;
  };
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    MixedStrategy<CnfParse> adversary;
  };
  // Keeps references to `grammar` and `examples` (every gold parse grammatical).
  ParseGames(const Grammar& grammar, const std::vector<ParseExample>& examples, const CfgMpgOptions& options)
      : grammar_(grammar), examples_(examples), options_(options) {}
  std::size_t size() const { return examples_.size(); }
  Eigen::Index dimension() const { return static_cast<Eigen::Index>(grammar_.rule_count()); }
  void add_gold_features(std::size_t i, Eigen::VectorXd& sum) const;
  Solution solve(std::size_t i, const Eigen::VectorXd& theta, Warm& warm) const;
  void add_expected_features(std::size_t i, const Solution& solution, double weight, Eigen::VectorXd& gradient) const;

 private:
  const Grammar& grammar_;
  const std::vector<ParseExample>& examples_;
  CfgMpgOptions options_;
};

struct CfgMpgModel {
  std::vector<double> theta;  // one per rule of the grammar
  ParseScore score = ParseScore::hamming;
  TrainingProtocol protocol = TrainingProtocol::certified;  // authors': predictions by the reference's rule
  AuthorsGameRule authors_game;
  SumOfGamesSummary summary;
};

// Trains from theta = 0. Throws mpg::Error for lambda <= 0, no examples, or a gold parse the
// grammar cannot derive.
CfgMpgModel train_cfg_mpg(const Grammar& grammar, const std::vector<ParseExample>& examples,
                          const CfgMpgOptions& options);

// The test-time parse of a tag sequence: the predictor's most probable action of the sentence's
// game (ties: the action generated first; an authors' protocol's model stops the game by its
// rule, game_tolerance unused), unbinarized, with the given words at the leaves. A
// sentence the grammar cannot parse (unknown tag, no rule combination) has no game: it gets
// predict_tree's flat fallback tree (fallback = true, `game` untouched).
TreePrediction predict_cfg_mpg(const Grammar& grammar, const CfgMpgModel& model, const std::vector<std::string>& tags,
                               const std::vector<std::string>& words, const std::string& fallback_label,
                               double game_tolerance = 1e-6, DoubleOracleSummary* game = nullptr);

}  // namespace mpg
