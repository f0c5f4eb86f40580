// Context-free grammar parsing from POS tags (thesis §4.2.6 and §5.5): binarization of treebank
// trees to Chomsky normal form and its exact inverse, the grammar read off binarized trees, rule
// counts (the features of MPG_cfg and svm_cfg), and CYK over additive weights, the one dynamic
// program behind every parser here (Viterbi PCFG, both best responses of Algorithm 6, the
// SSVM's loss-augmented inference).
//
// Binarization (to_cnf), in this order:
//   1. unary chains are collapsed into one node whose label joins the chain's labels with '+',
//      top first: (S (VP (VBZ sleeps))) -> one leaf "S+VP+VBZ", (S (VP (VB go) (NP ..))) -> an
//      "S+VP" node with two children. A leaf's label always ends with its POS tag; it has no
//      other form, so a binarized tree has only rules A -> B C and D -> tag (CNF);
//   2. optional parent annotation (Johnson 1998; Klein & Manning 2003): each phrase node's label
//      gets "^" and the first label of its parent's chain ("NP^S"); the root gets "^TOP";
//   3. a node with k > 2 children is right-factored with synthetic nodes:
//      X -> c1 @X,  @X -> c2 @X,  ...,  @X -> c(k-1) ck   (thesis Figure 6's '@NP'). With
//      horizontal Markovization of order h >= 1 a synthetic label also remembers the last h
//      siblings already generated: "@X|c1", "@X|c1_c2" (Klein & Manning 2003); h = -1 keeps all.
// from_cnf undoes the three steps exactly: annotations are cut at '^', '@' nodes are spliced into
// their parent, '+' labels are expanded into chains. Treebank labels must not contain '+' or '^'
// nor start with '@' (to_cnf throws otherwise); round trips hold for any other labels and words.
//
// A binarized parse of n tags is encoded as a flat vector of ints (the game seam's Action): the
// nodes in preorder as (start, end, label) triples over tag positions 0..n, 2n - 1 nodes. Label
// ids index the grammar's labels; a leaf label and a phrase label with the same text are
// different ids.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/data/ptb.hpp"

namespace mpg {

struct BinarizationOptions {
  int horizontal = 0;              // h: siblings a synthetic label remembers (0 = '@X'; -1 = all)
  bool parent_annotation = false;  // v = 2 when true
};

PtbTree to_cnf(const PtbTree& tree, const BinarizationOptions& options = {});
PtbTree from_cnf(const PtbTree& cnf);

// The POS tags of a binarized tree's leaves (the last label of each leaf's chain; tags_of would
// return the chain labels).
std::vector<std::string> cnf_tags(const PtbTree& cnf);

// A label of a binarized tree made by to_cnf starts with '@' iff it is synthetic.
inline bool is_synthetic_label(const std::string& label) { return !label.empty() && label[0] == '@'; }

using CnfParse = std::vector<int>;  // preorder (start, end, label) triples

struct BinaryRule {
  int parent, left, right;
};
struct LexicalRule {
  int label, tag;
};

// The rules of a set of binarized trees. Rule ids (feature indices): binary rules first, then
// lexical rules D -> tag, then root rules TOP -> X (one per label seen at a root; a parse's root
// must have one). Labels, tags and rules are numbered in sorted order of their text, so ids do not
// depend on the order of the trees.
class Grammar {
 public:
  Grammar() = default;
  // From trees made by to_cnf (their leaves' POS tags are the terminals). Throws mpg::Error for a
  // tree that is not binary or an empty list.
  static Grammar from_cnf_trees(const std::vector<PtbTree>& cnf_trees);

  std::size_t label_count() const { return labels_.size(); }
  std::size_t tag_count() const { return tags_.size(); }
  std::size_t rule_count() const { return binary_.size() + lexical_.size() + roots_.size(); }
  std::size_t binary_rule_count() const { return binary_.size(); }
  std::size_t lexical_rule_count() const { return lexical_.size(); }

  const std::string& label_name(int label) const { return labels_[static_cast<std::size_t>(label)].name; }
  bool is_leaf_label(int label) const { return labels_[static_cast<std::size_t>(label)].leaf; }
  bool is_synthetic(int label) const { return is_synthetic_label(label_name(label)); }
  const std::string& tag_name(int tag) const { return tags_[static_cast<std::size_t>(tag)]; }
  // -1 when unknown.
  int label_id(const std::string& name, bool leaf) const;
  int tag_id(const std::string& name) const;
  std::vector<int> tag_ids(const std::vector<std::string>& tags) const;  // -1 for unknown tags

  const std::vector<BinaryRule>& binary_rules() const { return binary_; }
  const std::vector<LexicalRule>& lexical_rules() const { return lexical_; }
  const std::vector<int>& root_labels() const { return roots_; }
  // Rule ids, -1 when the grammar has no such rule.
  int binary_rule_id(int parent, int left, int right) const;
  int lexical_rule_id(int label, int tag) const;
  int root_rule_id(int label) const;
  std::string rule_name(std::size_t rule) const;  // "NP -> DT @NP", "NP+PRP -> PRP", "TOP -> S"

  // The labeled constituents a node with this label stands for: the labels of its chain without
  // annotations, the POS tag of a leaf and synthetic nodes (none). Ids into constituent names.
  const std::vector<int>& constituents(int label) const { return labels_[static_cast<std::size_t>(label)].constituents; }
  std::size_t constituent_name_count() const { return constituent_names_.size(); }
  const std::string& constituent_name(int id) const { return constituent_names_[static_cast<std::size_t>(id)]; }

  // CYK indices: binary rules by left child, lexical rules by tag (both in rule-id order).
  const std::vector<int>& rules_by_left(int left) const { return by_left_[static_cast<std::size_t>(left)]; }
  const std::vector<int>& rules_by_tag(int tag) const { return by_tag_[static_cast<std::size_t>(tag)]; }
  // (label, multiplicity) of the labels whose constituents include constituent `id`.
  const std::vector<std::pair<int, int>>& labels_with_constituent(int id) const {
    return with_constituent_[static_cast<std::size_t>(id)];
  }

 private:
  struct Label {
    std::string name;
    bool leaf = false;
    std::vector<int> constituents;
  };
  std::vector<Label> labels_;
  std::vector<std::string> tags_;
  std::vector<std::string> constituent_names_;
  std::unordered_map<std::string, int> leaf_ids_, phrase_ids_, tag_ids_;
  std::vector<BinaryRule> binary_;
  std::vector<LexicalRule> lexical_;
  std::vector<int> roots_;  // labels, sorted
  std::unordered_map<long long, int> binary_ids_, lexical_ids_;
  std::vector<int> root_ids_;  // per label, -1 if not a root
  std::vector<std::vector<int>> by_left_, by_tag_;
  std::vector<std::vector<std::pair<int, int>>> with_constituent_;
};

// ---- Parses ------------------------------------------------------------------------------------
struct CnfNode {
  int start, end, label;
};
// The nodes of a parse (preorder).
std::vector<CnfNode> parse_nodes(const CnfParse& parse);
// A binarized tree as a parse; throws mpg::Error naming the label or rule the grammar lacks.
CnfParse encode_parse(const Grammar& grammar, const PtbTree& cnf);
// The binarized tree of a parse, with the given words at its leaves (tags if `words` is empty).
PtbTree decode_parse(const Grammar& grammar, const CnfParse& parse, const std::vector<int>& tags,
                     const std::vector<std::string>& words = {});
// True iff `parse` is a well-formed binarized parse of `tags` all of whose rules (root rule
// included) are in the grammar.
bool is_grammatical(const Grammar& grammar, const std::vector<int>& tags, const CnfParse& parse);
// Phi(parse): (rule id, count) pairs in increasing rule id. Throws mpg::Error if a rule is not in
// the grammar.
std::vector<std::pair<int, double>> rule_counts(const Grammar& grammar, const std::vector<int>& tags,
                                                const CnfParse& parse);
// theta . Phi(parse).
double rule_score(const Grammar& grammar, const std::vector<int>& tags, const CnfParse& parse,
                  const std::vector<double>& rule_weights);

// ---- CYK ---------------------------------------------------------------------------------------
// Weights of an additive parse score
//     value(parse) = sum over nodes (s, label) of span(s, label) + sum over its rules of rule[r],
// maximized by cyk_parse. `rule` has rule_count() entries or is empty (all 0); `span` has
// span_count(n) * label_count() entries laid out as span_index(start, end, n) * L + label, or is
// empty (all 0).
struct CykWeights {
  std::span<const double> rule;
  std::span<const double> span;
};
inline std::size_t span_count(std::size_t n) { return n * (n + 1) / 2; }
// Spans [start, end), 0 <= start < end <= n, numbered by length, then start.
inline std::size_t span_index(std::size_t start, std::size_t end, std::size_t n) {
  const std::size_t length = end - start;
  return (length - 1) * n - (length - 1) * (length - 2) / 2 + start;
}

struct CykResult {
  bool found = false;  // false: no grammatical parse (an unknown tag, or no rule combination)
  CnfParse parse;
  double value = 0.0;
};

// argmax over the grammatical parses of `tags` of value(parse), O(|G| n^3). Ties go to the first
// maximum in order of split point, then rule id. Throws mpg::Error for wrongly sized weights or
// an empty sentence.
CykResult cyk_parse(const Grammar& grammar, const std::vector<int>& tags, const CykWeights& weights);

// ---- Prediction ----------------------------------------------------------------------------------
struct TreePrediction {
  PtbTree tree;           // unbinarized (from_cnf), words at the leaves
  bool fallback = false;  // no grammatical parse: the flat tree (fallback_label t1 ... tn)
  double value = 0.0;     // theta . Phi of the parse (0 for the fallback)
};
// The parse of largest rule score theta . Phi of a tag sequence (CYK), unbinarized; a sentence the
// grammar cannot parse (unknown tag, no rule combination) gets the flat fallback tree instead.
TreePrediction predict_tree(const Grammar& grammar, const std::vector<std::string>& tags,
                            const std::vector<std::string>& words, std::span<const double> rule_weights,
                            const std::string& fallback_label);
// The most frequent first chain label of the grammar's roots in `cnf_trees` (ties: smallest text);
// the fallback label of predict_tree.
std::string most_frequent_root(const std::vector<PtbTree>& cnf_trees);

// A tagged sentence with its gold parse: one training example of SVM-CFG and of the CFG MPG.
struct ParseExample {
  std::vector<int> tags;  // grammar tag ids
  CnfParse gold;          // grammatical under the grammar
};

}  // namespace mpg
