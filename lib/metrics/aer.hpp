// Alignment error rate (Och & Ney 2000, 2003; thesis Eq. 4.16) and the AER game (thesis
// §4.2.5, Algorithm 5 "AERMax"; digest §3 and §4.5).
//
// For a proposed link set A and gold sure links S ⊆ possible links P (R = P \ S):
//     AER(A; S, P) = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|).
// Over a corpus the four counts are summed before dividing (Och & Ney's evaluation), which is how
// Table XIII is scored (aer_of_counts). Inside one sentence pair's game the score is
//     1 - AER = sum_i a_i (2 s_i + r_i) / (alpha + k),   alpha = |A|, k = |S|,
// and the 0/0 case alpha = k = 0 scores `empty_score` = c: c = 0 is Algorithm 5 as printed (its
// E_0 has no c q_empty term, the default here), c = 1 is the F1 convention F1(0, 0) = 1.
//
// Game (one sentence pair, n = |e||f| positions). The predictor picks any A ⊆ positions (tags A);
// the adversary tags every position S, R or N, with potential
//     psi(y) = sum_{i: y_i = S} psi_S(i) + sum_{i: y_i = R} psi_R(i)     (theta_S . phi_i, theta_R . phi_i).
// Adversary's best response (Eq. 4.32, Algorithm 5), against the predictor's strategy with
// q(i, alpha) = P(a_i = 1, |A| = alpha) and q_empty = P(A = empty):
//     k >= 1:  f_S(i, k) = 2 h(i, k) - psi_S(i),  f_R(i, k) = h(i, k) - psi_R(i),
//              h(i, k) = sum_{alpha >= 1} q(i, alpha) / (alpha + k);
//              the k positions of smallest f_S - min(f_R, 0) get S, the others R if f_R < 0 else N;
//              E_k = sum_S f_S + sum_{not S} min(f_R, 0);
//     k = 0:   E_0 = c q_empty + sum_i min(h(i, 0) - psi_R(i), 0),  h(i, 0) = sum_alpha q(i, alpha) / alpha;
// the response is the argmin over k, worth min_k E_k in payoff units. Each E_k is one selection
// (O(n)); a branch and bound over intervals of k (h decreases in k, and E increases with h)
// evaluates only the k whose interval's bound can beat the best E found.
// Predictor's best response (Eq. 4.30; "F' = Q_S W_S + Q_P W_P", digest §4.5 [RECON]), against
// the adversary's strategy with qS(i, k) = P(y_i = S, |y_S| = k), qR(i, k) = P(y_i = R, |y_S| = k):
//     alpha >= 1:  g(i, alpha) = sum_{k >= 0} (2 qS(i, k) + qR(i, k)) / (alpha + k); take the alpha
//                  largest g(i, alpha);   alpha = 0: c P(|y_S| = 0);
// the best alpha wins (alpha only up to the number of positions the adversary ever tags: more
// would add zeros and shrink every term; found by the same branch and bound over alpha, as g
// decreases in alpha). Its payoff value subtracts E_Q[psi(Y)].
// Ties are broken by position (never by the order of a strategy's support).
#pragma once

#include <string>
#include <vector>

#include "lib/game/alignment_action.hpp"
#include "lib/game/game.hpp"

namespace mpg {

// The counts AER is made of; add() accumulates sentences.
struct AerCounts {
  double proposed = 0;           // |A|
  double sure = 0;               // |S|
  double proposed_sure = 0;      // |A ∩ S|
  double proposed_possible = 0;  // |A ∩ P|, P = S ∪ R

  void add(const AerCounts& other);
};

// Counts of a proposal (tags ignored: every position is a proposed link) against a gold action
// (S codes and R codes, lib/game/alignment_action.hpp).
AerCounts aer_counts(const AlignmentAction& proposal, const AlignmentAction& gold);

// AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|); `empty_aer` when |A| + |S| = 0.
double aer_of_counts(const AerCounts& counts, double empty_aer = 0.0);

// The game's score 1 - AER of one sentence pair, `empty_score` (= c) when |A| = |S| = 0.
double aer_score(const AlignmentAction& proposal, const AlignmentAction& gold, double empty_score);

struct AerGameOptions {
  // c, the score 1 - AER when the proposal and the gold's sure set are both empty: 0 as
  // Algorithm 5 is printed (default), 1 as the F1 convention.
  double empty_score = 0.0;
};

class AerGame : public Game<AlignmentAction> {
 public:
  // Throws mpg::Error if the potential vectors are empty, of different lengths, or not finite,
  // or if empty_score is not finite.
  AerGame(std::vector<double> sure_potentials, std::vector<double> possible_potentials,
          const AerGameOptions& options = {});

  std::string metric_name() const override { return "aer"; }
  double score(const AlignmentAction& prediction, const AlignmentAction& label) const override {
    return aer_score(prediction, label, options_.empty_score);
  }
  double potential(const AlignmentAction& adversary_action) const override;
  // The empty alignment for both players.
  std::vector<AlignmentAction> initial_predictor_actions() const override { return {{}}; }
  std::vector<AlignmentAction> initial_adversary_actions() const override { return {{}}; }
  bool is_legal_predictor_action(const AlignmentAction& a) const override {
    return is_alignment_action(a, size(), true);
  }
  bool is_legal_adversary_action(const AlignmentAction& a) const override {
    return is_alignment_action(a, size(), false);
  }

  BestResponse<AlignmentAction> predictor_best_response(
      const MixedStrategy<AlignmentAction>& adversary) const override;
  BestResponse<AlignmentAction> adversary_best_response(
      const MixedStrategy<AlignmentAction>& predictor) const override;
  // The best response, then the best action of each size |A| (predictor) or each number of sure
  // tags k (adversary) that the player's own strategy uses (Game::*_responses).
  std::vector<BestResponse<AlignmentAction>> predictor_responses(
      const MixedStrategy<AlignmentAction>& adversary, const MixedStrategy<AlignmentAction>& own) const override;
  std::vector<BestResponse<AlignmentAction>> adversary_responses(
      const MixedStrategy<AlignmentAction>& predictor, const MixedStrategy<AlignmentAction>& own) const override;

  std::size_t size() const { return sure_potentials_.size(); }
  const AerGameOptions& options() const { return options_; }
  double expected_potential(const MixedStrategy<AlignmentAction>& strategy) const;

 private:
  std::vector<double> sure_potentials_;
  std::vector<double> possible_potentials_;
  AerGameOptions options_;
};

}  // namespace mpg
