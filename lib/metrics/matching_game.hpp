// The bipartite-matching game MPG_bip (thesis §5.4; digest §4.5): word alignment as a matching
// between the |e| English and |f| French words of one sentence pair (Taskar, Lacoste-Julien &
// Klein 2005), "best responses by maximum weight bipartite matching with the Lagrangian
// potentials as edge weights". Both players choose matchings (each word in at most one link);
// actions are lib/game/alignment_action.hpp codes with r = 0 at positions english * |f| + french.
//
// Score [AMBIG: the thesis does not state it]: minus the weighted Hamming distance between the
// two link sets, the loss of max-margin matching (baselines/matching_ssvm.hpp),
//     score(y_hat, y) = -(c_fn |y \ y_hat| + c_fp |y_hat \ y|)
//                     = (c_fn + c_fp) |y_hat ∩ y| - c_fn |y| - c_fp |y_hat|,
// which is additive over links, so both best responses are matchings:
//   predictor (Eq. 3.11): edge weights (c_fn + c_fp) Q(e) - c_fp, Q(e) = P(e in Y) under the
//     adversary's strategy; value = weight - c_fn E_Q|Y| - E_Q[psi(Y)];
//   adversary (Eq. 3.12): edge weights psi(e) + c_fn - (c_fn + c_fp) P(e), P(e) = P(e in Y_hat);
//     value = -weight - c_fp E_P|Y_hat|,
// with psi(y) = sum_{e in y} psi(e) = theta . sum_{e in y} phi(e). With c_fp = 0 the score is the
// digest's "natural choice", the number of shared links (the predictor then never loses by adding
// a link); the default c_fn = c_fp = 1 is minus the Hamming distance.
#pragma once

#include <string>
#include <vector>

#include "lib/game/alignment_action.hpp"
#include "lib/game/game.hpp"

namespace mpg {

struct MatchingGameOptions {
  double false_negative_cost = 1.0;  // c_fn >= 0, per link of the adversary's matching missed
  double false_positive_cost = 1.0;  // c_fp >= 0, per predicted link not in it; c_fn + c_fp > 0
};

// score(y_hat, y) above for two sorted action code lists.
double matching_score(const AlignmentAction& prediction, const AlignmentAction& label,
                      const MatchingGameOptions& options);

class MatchingGame : public Game<AlignmentAction> {
 public:
  // potentials: |e| x |f| edge potentials, row-major (position english * |f| + french). Throws
  // mpg::Error for an empty grid, a size mismatch, non-finite potentials or bad costs.
  MatchingGame(std::size_t english_length, std::size_t french_length, std::vector<double> potentials,
               const MatchingGameOptions& options = {});

  std::string metric_name() const override { return "matching"; }
  double score(const AlignmentAction& prediction, const AlignmentAction& label) const override {
    return matching_score(prediction, label, options_);
  }
  double potential(const AlignmentAction& adversary_action) const override;
  // The empty matching for both players.
  std::vector<AlignmentAction> initial_predictor_actions() const override { return {{}}; }
  std::vector<AlignmentAction> initial_adversary_actions() const override { return {{}}; }
  bool is_legal_predictor_action(const AlignmentAction& a) const override { return is_matching(a); }
  bool is_legal_adversary_action(const AlignmentAction& a) const override { return is_matching(a); }

  BestResponse<AlignmentAction> predictor_best_response(
      const MixedStrategy<AlignmentAction>& adversary) const override;
  BestResponse<AlignmentAction> adversary_best_response(
      const MixedStrategy<AlignmentAction>& predictor) const override;

  std::size_t english_length() const { return english_length_; }
  std::size_t french_length() const { return french_length_; }
  // A valid alignment action with r = 0 codes in which no English and no French word repeats.
  bool is_matching(const AlignmentAction& action) const;

 private:
  std::size_t english_length_;
  std::size_t french_length_;
  std::vector<double> potentials_;
  MatchingGameOptions options_;
};

}  // namespace mpg
