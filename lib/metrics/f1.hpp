// Binary F1 game (thesis §4.2.1, Alg. 2 "GFM4MPG"; NIPS 2015 §4).
//   F1(y_hat, y) = 2 |y_hat AND y| / (|y_hat| + |y|),   F1(0^n, 0^n) = 1.
// Both best responses follow the General F-measure Maximizer (Dembczynski et al. 2011): for an
// opponent mixed strategy with P_is = P(Y_i = 1, |Y| = s) and p0 = P(Y = 0^n),
//     E[F1(y, Y)] = sum_{i in y} sum_s 2 P_is / (s + k)   for |y| = k >= 1       (Eq. 4.19)
// and p0 for y = 0^n. The predictor takes the k largest entries of column k of F = 2PW; the
// adversary the k smallest of F - psi 1^T; each maximizes/minimizes over k. Both run on the
// groups of items with equal membership in the opponent's support (entries of F are equal within
// a group) and search k exactly by branch and bound (size_search.hpp) instead of all n columns.
#pragma once

#include "lib/metrics/binary_game.hpp"
#include "lib/metrics/f1_segment_solver.hpp"

namespace mpg {

// F1 score of two labellings (F1(0,0) = 1).
double f1_score(const BinaryAction& prediction, const BinaryAction& label);

class F1Game : public BinaryGame {
 public:
  explicit F1Game(std::vector<double> potentials);

  std::string metric_name() const override { return "f1"; }
  double score(const BinaryAction& prediction, const BinaryAction& label) const override {
    return f1_score(prediction, label);
  }
  // {0^n, 1^n} for both players (as the reference code).
  std::vector<BinaryAction> initial_predictor_actions() const override;
  std::vector<BinaryAction> initial_adversary_actions() const override;
  bool is_legal_predictor_action(const BinaryAction& a) const override { return is_action(a); }
  bool is_legal_adversary_action(const BinaryAction& a) const override { return is_action(a); }

  BestResponse<BinaryAction> predictor_best_response(
      const MixedStrategy<BinaryAction>& adversary) const override;
  BestResponse<BinaryAction> adversary_best_response(
      const MixedStrategy<BinaryAction>& predictor) const override;
  // The best response, then the best action of each size in the player's own support.
  std::vector<BestResponse<BinaryAction>> predictor_responses(
      const MixedStrategy<BinaryAction>& adversary,
      const MixedStrategy<BinaryAction>& own) const override;
  std::vector<BestResponse<BinaryAction>> adversary_responses(
      const MixedStrategy<BinaryAction>& predictor,
      const MixedStrategy<BinaryAction>& own) const override;
  // The game solved over marginals with an exact certificate (f1_segment_solver.hpp,
  // options.algorithm), warm-started from `warm` if given.
  std::optional<MarginalSolution> solve_over_marginals(const MarginalSolverOptions& options,
                                                       SegmentWarmStart* warm = nullptr) const override {
    return solve_f1_game_over_marginals(potentials(), options, warm);
  }

 private:
  std::vector<std::uint32_t> item_at_rank_;  // examples by decreasing psi (ties: smaller index)
};

}  // namespace mpg
