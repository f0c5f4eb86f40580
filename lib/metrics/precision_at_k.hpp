// Precision@k game (thesis §4.2.3, Eq. 3.7/4.12/4.27; NIPS 2015 §4).
//   P@k(y_hat, y) = |y_hat AND y| / k, the predictor restricted to |y_hat| = k.
// Predictor best response: the k examples with the largest adversary marginals P(Y_i = 1).
// Adversary best response, with p_i = P(Y_hat_i = 1) and c_i = p_i / k - psi_i:
//   unrestricted (thesis, reference code): every i with c_i < 0;
//   exactly k positives (NIPS experiments): the k smallest c_i.
#pragma once

#include "lib/metrics/binary_game.hpp"

namespace mpg {

enum class AdversaryRestriction { unrestricted, exactly_k };

// Parses "unrestricted" / "exactly_k"; throws mpg::Error otherwise.
AdversaryRestriction parse_adversary_restriction(const std::string& name);
std::string to_string(AdversaryRestriction restriction);

// P@k of a prediction with exactly k ones.
double precision_at_k(const BinaryAction& prediction, const BinaryAction& label, std::size_t k);

// Closed-form equilibrium of the P@k game with the UNRESTRICTED adversary. Mixed strategies
// enter the expected payoff only through the marginals pi_i = P(i in Y_hat), which range over
// the hypersimplex {pi in [0,1]^n : sum pi = k}, and m_i = P(Y_i = 1) in [0,1]^n:
//     E[P@k - psi . Y] = sum_i m_i (pi_i / k - psi_i).
// So  v = max_pi sum_i min(0, pi_i / k - psi_i) = -sum_i psi_i^+ + min(1, C / k),
//     C = sum_i min(1, k psi_i^+)  (the "useful capacity"):
// every unit of pi_i lowers the adversary's gain by 1/k while pi_i < k psi_i, and nothing after.
// An optimal predictor fills min(1, k psi_i^+) in decreasing order of psi until k units are
// placed (the rest, if C < k, tops up the next examples in that order); an optimal adversary
// plays the pure action {i : psi_i >= 1/k} when C <= k and {i : psi_i > 0} when C > k.
// Both facts are checked, not assumed: `gap` is the predictor's best-response value against
// that pure action minus the adversary's best-response value against pi (exactly 0 in exact
// arithmetic). O(n log n); the double oracle needs hundreds of iterations on the same games
// when the potentials are of order 1/k (as at the learned theta).
struct PrecisionAtKEquilibrium {
  double value = 0.0;
  Eigen::VectorXd predictor_marginals;  // pi
  BinaryAction adversary_action;        // an optimal (pure) adversary strategy
  double predictor_response_value = 0.0;  // max_{|y_hat| = k} P@k(y_hat, y) - psi . y
  double adversary_response_value = 0.0;  // min_y E_pi[P@k(Y_hat, y)] - psi . y
  double gap = 0.0;                       // their difference
  BinaryAction top_k;  // the k examples of largest psi (ties: smaller index), largest pi first
};
PrecisionAtKEquilibrium solve_precision_at_k_game(const std::vector<double>& potentials, std::size_t k);

class PrecisionAtKGame : public BinaryGame {
 public:
  // Throws mpg::Error unless 1 <= k <= n.
  PrecisionAtKGame(std::vector<double> potentials, std::size_t k,
                   AdversaryRestriction restriction = AdversaryRestriction::unrestricted);

  std::size_t k() const { return k_; }
  AdversaryRestriction restriction() const { return restriction_; }

  std::string metric_name() const override { return "precision_at_k"; }
  double score(const BinaryAction& prediction, const BinaryAction& label) const override {
    return precision_at_k(prediction, label, k_);
  }
  // Predictor: first k and last k examples. Adversary: {0^n, 1^n}, or the predictor's two
  // actions when restricted to exactly k positives.
  std::vector<BinaryAction> initial_predictor_actions() const override;
  std::vector<BinaryAction> initial_adversary_actions() const override;
  bool is_legal_predictor_action(const BinaryAction& a) const override;
  bool is_legal_adversary_action(const BinaryAction& a) const override;

  BestResponse<BinaryAction> predictor_best_response(
      const MixedStrategy<BinaryAction>& adversary) const override;
  BestResponse<BinaryAction> adversary_best_response(
      const MixedStrategy<BinaryAction>& predictor) const override;
  // The best response, then, for the unrestricted adversary, its best action of each size it
  // already mixes over (the m smallest c_i). The predictor's actions all have size k.
  std::vector<BestResponse<BinaryAction>> adversary_responses(
      const MixedStrategy<BinaryAction>& predictor,
      const MixedStrategy<BinaryAction>& own) const override;
  // With the unrestricted adversary, the closed-form equilibrium (solve_precision_at_k_game):
  // the likeliest action is the top k by psi, the adversary's strategy pure. nullopt for the
  // adversary restricted to exactly k positives.
  std::optional<ExactEquilibrium> exact_equilibrium(double tolerance) const override;

 private:
  Eigen::VectorXd adversary_costs(const MixedStrategy<BinaryAction>& predictor) const;
  BestResponse<BinaryAction> adversary_best_response(const Eigen::VectorXd& cost) const;
  std::size_t k_;
  AdversaryRestriction restriction_;
};

}  // namespace mpg
