// MPG for ranking with DCG (thesis §4.2.4, §5.3): one DCG game per query. The adversary's
// features are one block per relevance level s = 1..L-1,
//     Phi(x, y) = sum_j [y_j = s] phi(x_j)  (block s),   phi(x_j) = (x_j, 1),
// so psi_j(s) = theta_s . phi(x_j) and psi_j(0) = 0 (level 0 is the reference: adding a common
// vector to every theta_s, level 0 included, changes no game, so fixing theta_0 = 0 loses
// nothing). Learning minimizes the negated dual (thesis Eqs. 3.9-3.10), averaged over queries:
//     f(theta) = (1/|Q|) sum_q [ -theta . Phi_q(gold) - v_q(theta) ] + lambda/2 ||theta||^2
//     grad f   = (1/|Q|) sum_q [ E_{Q*_q}[Phi_q(Y)] - Phi_q(gold) ] + lambda theta
// with v_q the value of query q's game and Q*_q its adversary equilibrium: the sum-of-games
// objective of lib/learn/sum_of_games.hpp over the family RankingGames (one DCG game per query),
// solved in parallel and summed in query order, so results do not depend on the thread count.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/base/option_checks.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/learn/sum_of_games.hpp"
#include "lib/metrics/dcg.hpp"

namespace mpg {

// A query for learning: documents' features (n x d, no bias) and relevance labels.
struct RankingQuery {
  Eigen::MatrixXd features;
  std::vector<int> relevance;
};

struct RankingMpgModel {
  int levels = 3;                       // L: relevance levels 0..L-1
  DcgDiscount discount = DcgDiscount::letor;
  Eigen::MatrixXd theta;                // (d + 1) x (L - 1): column s - 1 = theta_s, bias last
  // psi_j(s) for every document: n x L, column 0 zero.
  Eigen::MatrixXd potentials(const Eigen::MatrixXd& features) const;
};

// How each query's game is solved: the polymatroid greedy over expected discounts (exact, no LP;
// default), the compact LP (exact), or the generic double oracle over permutations and labelings
// (the reference; slow on queries of ~100 documents).
enum class DcgGameSolver { greedy, lp, double_oracle };
DcgGameSolver parse_dcg_game_solver(const std::string& name);  // "greedy" | "lp" | "double_oracle"

// One solved query game: value, the adversary's level marginals (n x L) and the predictor's
// strategy, whichever solver ran.
struct QueryGameResult {
  double value = 0.0;
  Eigen::MatrixXd adversary_marginals;
  MixedStrategy<std::vector<int>> predictor;  // most probable first for the LP solver
  double gap = 0.0;
  bool converged = true;
  double seconds = 0.0;
  int iterations = 0;  // double oracle only
};
QueryGameResult solve_query_game(const DcgGame& game, DcgGameSolver solver, const DoubleOracleOptions& options,
                                 const std::vector<std::vector<int>>& warm_predictor = {},
                                 const std::vector<std::vector<int>>& warm_adversary = {},
                                 MixedStrategy<std::vector<int>>* adversary = nullptr,
                                 bool predictor_strategy = true);

struct RankingMpgOptions {
  DcgGameSolver solver = DcgGameSolver::greedy;
  double lambda = 1e-2;
  int levels = 3;
  DcgDiscount discount = DcgDiscount::letor;
  OptimizerOptions optimizer;
  DoubleOracleOptions game;
  double max_seconds = 0.0;   // training cap (0 = none): the optimizer stops at the next evaluation
  // The training protocol (lib/learn/protocol.hpp, issue 53). `certified`: `optimizer` as given.
  // An authors' protocol replaces `optimizer` by the protocol's preset from theta = 0 (as every
  // training here starts): authors_lbfgs L-BFGS on the whole objective, authors_adadelta AdaDelta
  // over mini-batches of batch_size queries drawn from `seed` (lib/learn/minibatch_adadelta.hpp).
  // The query games keep their exact solver (greedy or LP: no double oracle to stop early); with
  // solver = double_oracle they are stopped by the reference's rule (authors_game_options).
  TrainingProtocol protocol = TrainingProtocol::certified;
  int batch_size = 9;  // the reference's thread-pool size, #cpus + 1 (not stated; 9 = 8 threads)
  unsigned long seed = 2017;

  // Throws mpg::Error naming the first field out of its range (lib/base/option_checks.hpp).
  void validate() const {
    option_checks::non_negative("ranking MPG", "lambda", lambda);
    option_checks::at_least("ranking MPG", "levels", levels, 2);
    option_checks::non_negative("ranking MPG", "max_seconds", max_seconds);
    option_checks::at_least("ranking MPG", "batch_size", batch_size, 1);
  }
};

// The queries' DCG games as a family of instances of the sum-of-games objective
// (lib/learn/sum_of_games.hpp): Phi_q over (x_j, 1) in one block per relevance level 1..L-1.
class RankingGames {
 public:
  // The previous equilibrium's supports (double_oracle solver only): seeds of the next solve.
  struct Warm {
    std::vector<std::vector<int>> predictor, adversary;
  };
  struct Solution {
    double value = 0.0;
    bool converged = true;
    double gap = 0.0;
    double seconds = 0.0;
    Eigen::VectorXd expected_features;  // E_Q*[Phi_q(Y)]: block s sums phi(x_j) weighted by Q*(Y_j = s)
  };
  // Keeps a reference to `queries`. Throws mpg::Error for no queries, fewer than 2 levels,
  // queries that differ in feature count or a relevance outside 0..L-1.
  RankingGames(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options);
  std::size_t size() const { return queries_.size(); }
  Eigen::Index dimension() const { return static_cast<Eigen::Index>((features_ + 1) * (options_.levels - 1)); }
  void add_gold_features(std::size_t q, Eigen::VectorXd& sum) const;
  Solution solve(std::size_t q, const Eigen::VectorXd& theta, Warm& warm) const;
  void add_expected_features(std::size_t, const Solution& solution, double weight, Eigen::VectorXd& gradient) const {
    gradient += weight * solution.expected_features;
  }

 private:
  const std::vector<RankingQuery>& queries_;
  RankingMpgOptions options_;
  long features_ = 0;
  std::vector<Eigen::MatrixXd> augmented_;  // (x_j, 1) per query
  std::vector<std::vector<DocumentKey>> keys_;  // document_keys per query: the games' tie-breaks
};

using RankingMpgSummary = SumOfGamesSummary;

// f(theta) and its gradient over the training queries (see the header comment).
class RankingMpgObjective : public Objective {
 public:
  // Keeps a reference to `queries`.
  RankingMpgObjective(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options);
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override {
    return objective_.evaluate(theta, gradient);
  }
  Eigen::Index dimension() const { return games_.dimension(); }
  SumOfGamesObjective<RankingGames>& sum_of_games() { return objective_; }

 private:
  RankingGames games_;
  SumOfGamesObjective<RankingGames> objective_;
};

RankingMpgModel train_ranking_mpg(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options,
                                  RankingMpgSummary* summary = nullptr);

// The test-time decision (thesis §2.7) under the decision rule of lib/metrics/dcg.hpp
// (dcg_decision): the most probable permutation of the canonical equilibrium strategy c* of the
// query's game with the learned potentials, the same whichever exact solver is used; ties between
// documents by the top level's potential, then by a hash of the feature vector (never file order).
// `order` is that rule. `expected_gain_order` is a second summary of the same equilibrium reported
// beside it: documents by E_Q*[2^Y_j - 1] (the predictor's best response to the adversary marginals
// paired with c*). `score_order` is a diagnostic, not a game decision: documents by the top
// level's potential psi_j(L-1) = theta_{L-1} . (x_j, 1). `game` is the solve by `solver`, which
// certifies the value (gap); the rankings do not depend on it.
struct RankingMpgPrediction {
  Ranking order;
  Ranking expected_gain_order;
  Ranking score_order;
  QueryGameResult game;
};
RankingMpgPrediction predict_ranking_mpg(const RankingMpgModel& model, const Eigen::MatrixXd& features,
                                         DcgGameSolver solver = DcgGameSolver::greedy,
                                         const DoubleOracleOptions& game_options = {});

}  // namespace mpg
