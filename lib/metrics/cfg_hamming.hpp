// Hamming loss over labeled constituents for CFG parsing (thesis §4.2.6, Algorithm 6 "CYK4MPG";
// digest §4.6): the MPG_cfg game of one sentence, and the two measures of Table XIV.
//
// Constituents. A parse stands for the multiset C(y) of labeled spans (label, start, end) of the
// phrase nodes of its unbinarized tree: each non-synthetic node of the binarized parse contributes
// the labels of its collapsed unary chain (Grammar::constituents; a leaf's POS tag is not a
// constituent, the tags being given). A binary tree has at most one node per span, so
//     shared(y_hat, y_check) = |C(y_hat) ∩ C(y_check)| = sum over spans s of overlap(chain_hat(s), chain_check(s))
// is additive over the nodes of either tree; so is |C(y)|.
//
// Game score (ParseScore):
//   hamming (default):  score = -|C(y_hat) Δ C(y_check)| = 2 shared - |C(y_hat)| - |C(y_check)|,
//                       minus the Hamming distance the thesis says it optimizes;
//   shared:             score = shared, Algorithm 6 as printed (prob[.][.][r] is the predictor's
//                       probability of a constituent, nothing charged for extra constituents).
// Potentials: rule counts, psi(y_check) = sum over the rules r of y_check of theta_r (root rule
// TOP -> X included).
// Adversary's best response (Eq. 3.12, Alg. 6): with q(s, c) = E_P[overlap(c, chain_Yhat(s))],
//     min over y_check of  sum over nodes (s, c) of [a q(s, c) - b |c|] - b E_P|C(Y_hat)| - psi(y_check),
// (a, b) = (2, 1) for hamming, (1, 0) for shared: CYK maximizing span weights -(a q - b|c|) plus
// rule weights theta. Predictor's (Eq. 3.11): the same DP over the adversary's constituent marginals
// with no potentials, maximizing a m(s, c) - b |c|, and the value minus E_Q[psi]. O(|G| n^3) each.
//
// Measures of predicted against gold trees (unbinarized PtbTrees, as prepare_tree makes them):
//   1 - Hamming = |C(pred) ∩ C(gold)| / |C(pred) ∪ C(gold)| per sentence (multisets; 1 when both
//     are empty), the Hamming distance normalized by the union: 1 - |Δ| / |∪|. Thesis §4.2.6 (text
//     line 1104 of shared/papers/001_*.txt): "The score between two parse tree structures ŷ and y̌
//     is measured as (ŷ ∩ y̌)/(ŷ ∪ y̌), based on each constituent with span information", and §4.1.1
//     defines accuracy the same way (correct over the union). The same line goes on: "We
//     adversarially optimize Hamming loss due to its tractability in tree structures": the game
//     keeps the additive score above (the ratio is not additive over the nodes of a tree, so
//     neither best response is a CYK pass). dice() = 2 shared / (|pred| + |gold|) >= it is the
//     normalization Table XIV used before, kept as a diagnostic;
//   evalb labeled-bracket F1 with COLLINS.prm's rules (evalb_counts).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lib/game/game.hpp"
#include "lib/structures/cfg.hpp"

namespace mpg {

enum class ParseScore { hamming, shared };
ParseScore parse_parse_score(const std::string& name);  // "hamming" | "shared"
std::string to_string(ParseScore score);

// shared, |C(a)|, |C(b)| of two parses of the same sentence under one grammar.
struct ConstituentMatch {
  double shared = 0.0, first = 0.0, second = 0.0;
};
ConstituentMatch match_parses(const Grammar& grammar, const CnfParse& a, const CnfParse& b);
double parse_score(const Grammar& grammar, const CnfParse& prediction, const CnfParse& label, ParseScore score);

class CfgHammingGame : public Game<CnfParse> {
 public:
  // `grammar` and `rule_potentials` (theta, one per rule) must outlive the game. Throws
  // mpg::Error if theta has the wrong size or a non-finite entry, or the sentence has no
  // grammatical parse.
  CfgHammingGame(const Grammar& grammar, std::vector<int> tags, const std::vector<double>& rule_potentials,
                 ParseScore score = ParseScore::hamming);

  std::string metric_name() const override { return score_ == ParseScore::hamming ? "cfg_hamming" : "cfg_shared"; }
  double score(const CnfParse& prediction, const CnfParse& label) const override {
    return parse_score(*grammar_, prediction, label, score_);
  }
  double potential(const CnfParse& adversary_action) const override {
    return rule_score(*grammar_, tags_, adversary_action, *theta_);
  }
  // The parse of largest potential theta . Phi, for both players.
  std::vector<CnfParse> initial_predictor_actions() const override { return {initial_}; }
  std::vector<CnfParse> initial_adversary_actions() const override { return {initial_}; }
  bool is_legal_predictor_action(const CnfParse& a) const override { return is_grammatical(*grammar_, tags_, a); }
  bool is_legal_adversary_action(const CnfParse& a) const override { return is_grammatical(*grammar_, tags_, a); }

  BestResponse<CnfParse> predictor_best_response(const MixedStrategy<CnfParse>& adversary) const override;
  BestResponse<CnfParse> adversary_best_response(const MixedStrategy<CnfParse>& predictor) const override;

  const std::vector<int>& tags() const { return tags_; }
  const Grammar& grammar() const { return *grammar_; }

 private:
  const Grammar* grammar_;
  std::vector<int> tags_;
  const std::vector<double>* theta_;
  ParseScore score_;
  CnfParse initial_;
};

// CYK span weights sign * (a m(s, c) - b |c|) for every (span, label) of a sentence of n tags,
// where m(s, c) = E_strategy[overlap(c, chain_Y(s))] and (a, b) = (2, 1) for hamming, (1, 0) for
// shared (layout of CykWeights::span). `expected_size` receives b E_strategy|C(Y)|. The predictor's
// best response uses sign +1 against the adversary's strategy, the adversary's sign -1, and
// loss-augmented inference (svm_cfg) sign -1 against the gold parse.
std::vector<double> constituent_span_weights(const Grammar& grammar, std::size_t n, const MixedStrategy<CnfParse>& strategy,
                                             ParseScore score, double sign, double& expected_size);

// E_Q[Phi(Y)] as a dense vector over rules.
std::vector<double> expected_rule_counts(const Grammar& grammar, const std::vector<int>& tags,
                                         const MixedStrategy<CnfParse>& strategy);

// ---- Measures on unbinarized trees ---------------------------------------------------------------
struct LabeledSpan {
  std::string label;
  int start, end;
  auto operator<=>(const LabeledSpan&) const = default;
};
// Phrase nodes (not preterminals) with their spans over all words; an empty label (the PTB's
// outer bracket) is skipped.
std::vector<LabeledSpan> labeled_constituents(const PtbTree& tree);

struct HammingCounts {
  double shared = 0.0, predicted = 0.0, gold = 0.0;
  void add(const HammingCounts& other);
  double distance() const { return predicted + gold - 2.0 * shared; }
  // shared / (predicted + gold - shared) = 1 - distance / |union|; 1 when both are 0.
  double one_minus_hamming() const;
  // 2 shared / (predicted + gold) (the Dice coefficient; >= one_minus_hamming); 1 when both are 0.
  double dice() const;
};
// Throws mpg::Error if the trees have different numbers of words.
HammingCounts hamming_counts(const PtbTree& predicted, const PtbTree& gold);

// Labeled brackets scored as evalb with COLLINS.prm (Sekine & Collins 1997):
//   DELETE_LABEL TOP -NONE- , : `` '' .  (preterminals with these tags are removed with their
//     words, phrases with these labels are not counted, and phrases left dominating nothing are
//     removed);
//   labels cut at the first '-' or '=' after their first character ("NP-SBJ" -> "NP"; "ADVP|PRT"
//     stays whole, as in evalb); EQ_LABEL ADVP PRT; spans over the remaining words; brackets
//     matched as multisets; preterminals are not brackets (the root phrase is).
// The PTB's unlabeled outer bracket "( (S ...) )" (EvalbOptions::outer_bracket):
//   deleted (default): an unlabeled phrase is not counted, as if it were TOP;
//   kept: both trees are scored as written in the PTB's form, inside the unlabeled bracket (added
//     where the root has a label), which counts as one more bracket labelled "": evalb run on PTB
//     files does this, since "" is not in COLLINS.prm's DELETE_LABEL list.
enum class OuterBracket { deleted, kept };
OuterBracket parse_outer_bracket(const std::string& name);  // "delete" | "keep"
std::string to_string(OuterBracket outer);
struct EvalbOptions {
  OuterBracket outer_bracket = OuterBracket::deleted;
};
struct EvalbCounts {
  double matched = 0.0, gold = 0.0, test = 0.0;
  std::size_t sentences = 0;
  void add(const EvalbCounts& other);
  double precision() const;  // matched / test (0 if test = 0)
  double recall() const;     // matched / gold (0 if gold = 0)
  double f1() const;         // 2 matched / (gold + test) (0 if both are 0)
};
// Throws mpg::Error if the two trees' words after deletion differ in number.
EvalbCounts evalb_counts(const PtbTree& gold, const PtbTree& test, const EvalbOptions& options = {});

}  // namespace mpg
