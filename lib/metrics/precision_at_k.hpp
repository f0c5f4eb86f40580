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

 private:
  Eigen::VectorXd adversary_costs(const MixedStrategy<BinaryAction>& predictor) const;
  BestResponse<BinaryAction> adversary_best_response(const Eigen::VectorXd& cost) const;
  std::size_t k_;
  AdversaryRestriction restriction_;
};

}  // namespace mpg
