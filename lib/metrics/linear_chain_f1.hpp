// F1 of a target class C on a linear chain (thesis §4.2.2, Algorithms 3-4 "LCFM/MSUM"; digest
// §4.2): one game per sentence of length T over m labels. Both players choose label sequences;
// the score is the binary F1 of the indicators I(y_t = C), with F1(0, 0) = 1. The adversary's
// potential is a linear-chain score with unigram and bigram (START included) terms,
//     psi(y) = sum_t psi_u(t, y_t) + psi_b(y_{t-1}, y_t)          (lib/structures/linear_chain.hpp layout).
//
// Predictor's best response (Eq. 3.11): psi does not depend on the prediction, so only the
// binarized adversary strategy matters; GFM (Dembczynski et al. 2011) on
//     F(t, k) = sum_s 2 P(Y_t = C, |Y|_C = s) / (s + k)
// takes the k largest entries of column k, the best k (k = 0 is worth P(|Y|_C = 0)); the chosen
// positions get C and the others a fixed non-C label.
// Adversary's best response (Eqs. 4.23-4.24, LCFM): for each k = 0..T, the DP MSUM maximizes
//     E_k = max_{y: |y|_C = k} psi(y) - sum_{t: y_t = C} f(t, k)      (k >= 1; f = F of the predictor)
//     E_0 = max_{y: |y|_C = 0} psi(y) - P(|Y_hat|_C = 0)
// over states (position, C labels used, previous label), O(m^2 T^2) per k, O(m^2 T^3) for all k;
// the adversary plays the argmax sequence of the best k, worth -max_k E_k in payoff units.
// Speed-up (exact): one psi-only DP, run once per game, gives psi_max(k) for every k in
// O(m^2 T^2); as f >= 0,
// E_k <= psi_max(k) - (sum of the k smallest f(t, k)), so the exact DPs run in decreasing order
// of that bound and stop once no bound exceeds the best E_k found.
#pragma once

#include <string>
#include <vector>

#include "lib/game/double_oracle.hpp"
#include "lib/game/game.hpp"
#include "lib/structures/linear_chain.hpp"

namespace mpg {

using LabelSequence = std::vector<int>;

// Binary F1 of I(prediction_t = target) against I(label_t = target); 1 if neither has target.
double chain_f1_score(const LabelSequence& prediction, const LabelSequence& label, int target);

class LinearChainF1Game : public Game<LabelSequence> {
 public:
  // Throws mpg::Error if the chain is empty, m < 2, target is outside 0..m-1, the transition
  // matrix is not (m+1) x m, or a potential is not finite.
  LinearChainF1Game(ChainScores potentials, int target);

  std::string metric_name() const override { return "linear_chain_f1"; }
  double score(const LabelSequence& prediction, const LabelSequence& label) const override {
    return chain_f1_score(prediction, label, target_);
  }
  double potential(const LabelSequence& adversary_action) const override {
    return sequence_score(potentials_, adversary_action);
  }
  // All non-C and all C, for both players.
  std::vector<LabelSequence> initial_predictor_actions() const override;
  std::vector<LabelSequence> initial_adversary_actions() const override;
  bool is_legal_predictor_action(const LabelSequence& a) const override { return is_sequence(a); }
  bool is_legal_adversary_action(const LabelSequence& a) const override { return is_sequence(a); }

  BestResponse<LabelSequence> predictor_best_response(const MixedStrategy<LabelSequence>& adversary) const override;
  BestResponse<LabelSequence> adversary_best_response(const MixedStrategy<LabelSequence>& predictor) const override;

  int target() const { return target_; }
  int other_label() const { return target_ == 0 ? 1 : 0; }  // the non-C label of predictions
  std::size_t length() const { return potentials_.length(); }
  const ChainScores& potentials() const { return potentials_; }
  // Sequence with C exactly at the positions where binary[t] is true, other_label() elsewhere.
  LabelSequence from_binary(const std::vector<bool>& binary) const;

 private:
  bool is_sequence(const LabelSequence& a) const;
  ChainScores potentials_;
  int target_;
  // psi_max_[k] = max psi(y) over the sequences with exactly k C labels, k = 0..T (computed once:
  // every adversary best response bounds E_k by it).
  std::vector<double> psi_max_;
};

// True when every unary and transition potential is 0 (theta = 0: every labelling ties).
bool has_zero_potentials(const ChainScores& potentials);

// The game with zero potentials (the start theta = 0 of every training; issue 53), solved exactly
// without the double oracle. The payoff depends only on where C is, and every position is alike:
// against the adversary's strategy "size s with probability q_s, then s positions spread evenly",
// a prediction of size k earns in expectation
//     A(k, s) = 2 k s / (T (k + s)),   A(0, 0) = 1,   A(0, s) = A(k, 0) = 0   (k, s >= 1),
// since each position is C with probability s / T; likewise for the predictor's strategy. So the
// game's value is that of the (T + 1) x (T + 1) matrix game A over sizes (one LP per length T,
// cached), and both players' equilibria are its size strategies spread evenly over positions:
// size s (0 < s < T) by the N = T / gcd(T, s) cyclic blocks of s consecutive positions starting
// at 0, s, 2s, ... (mod T), each with probability q_s / N: consecutive blocks tile the cycle, so
// each position is C in exactly s N / T of them. Non-C positions get other_label() (the LCFM's
// choice among tied labels). The summary's gap is the size game's exact best-response gap (equal
// to the full game's, by the argument above); status converged when it is <= tolerance.
// Throws mpg::Error unless has_zero_potentials(game.potentials()).
GameSolution<LabelSequence> solve_zero_potential_chain_game(const LinearChainF1Game& game, double tolerance);

}  // namespace mpg
