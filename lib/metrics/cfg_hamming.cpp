// MPG_cfg game and the Table XIV measures (lib/metrics/cfg_hamming.hpp).
#include "lib/metrics/cfg_hamming.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// |a ∩ b| of two sorted multisets.
template <class T>
int sorted_overlap(const std::vector<T>& a, const std::vector<T>& b) {
  int shared = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++shared;
      ++i;
      ++j;
    }
  }
  return shared;
}

// Number of tags of a parse (the end of its root).
std::size_t parse_length(const CnfParse& parse) {
  if (parse.size() < 3) throw Error("parse: empty encoding");
  return static_cast<std::size_t>(parse[1]);
}

// (a, b) of the node weight a * overlap - b * |c|.
std::pair<double, double> score_coefficients(ParseScore score) {
  return score == ParseScore::hamming ? std::pair{2.0, 1.0} : std::pair{1.0, 0.0};
}

}  // namespace

ParseScore parse_parse_score(const std::string& name) {
  if (name == "hamming") return ParseScore::hamming;
  if (name == "shared") return ParseScore::shared;
  throw Error("parse score: unknown '" + name + "' (expected hamming or shared)");
}

std::string to_string(ParseScore score) { return score == ParseScore::hamming ? "hamming" : "shared"; }

ConstituentMatch match_parses(const Grammar& grammar, const CnfParse& a, const CnfParse& b) {
  const std::size_t n = parse_length(a);
  if (parse_length(b) != n) throw Error("parse score: parses of different lengths");
  std::vector<int> label_at(span_count(n), -1);
  ConstituentMatch match;
  for (const CnfNode& node : parse_nodes(b)) {
    label_at[span_index(static_cast<std::size_t>(node.start), static_cast<std::size_t>(node.end), n)] = node.label;
    match.second += static_cast<double>(grammar.constituents(node.label).size());
  }
  for (const CnfNode& node : parse_nodes(a)) {
    const std::vector<int>& mine = grammar.constituents(node.label);
    match.first += static_cast<double>(mine.size());
    const int other = label_at[span_index(static_cast<std::size_t>(node.start), static_cast<std::size_t>(node.end), n)];
    if (other >= 0) match.shared += sorted_overlap(mine, grammar.constituents(other));
  }
  return match;
}

double parse_score(const Grammar& grammar, const CnfParse& prediction, const CnfParse& label, ParseScore score) {
  const ConstituentMatch m = match_parses(grammar, prediction, label);
  return score == ParseScore::hamming ? 2.0 * m.shared - m.first - m.second : m.shared;
}

CfgHammingGame::CfgHammingGame(const Grammar& grammar, std::vector<int> tags, const std::vector<double>& rule_potentials,
                               ParseScore score)
    : grammar_(&grammar), tags_(std::move(tags)), theta_(&rule_potentials), score_(score) {
  if (rule_potentials.size() != grammar.rule_count())
    throw Error(fmt::format("CFG game: {} potentials for {} rules", rule_potentials.size(), grammar.rule_count()));
  if (!std::all_of(rule_potentials.begin(), rule_potentials.end(), [](double v) { return std::isfinite(v); }))
    throw Error("CFG game: a rule potential is not finite");
  const CykResult best = cyk_parse(grammar, tags_, {rule_potentials, {}});
  if (!best.found) throw Error("CFG game: the grammar has no parse of this tag sequence");
  initial_ = best.parse;
}

std::vector<double> constituent_span_weights(const Grammar& grammar, std::size_t n, const MixedStrategy<CnfParse>& strategy,
                                             ParseScore score, double sign, double& expected_size) {
  const std::size_t L = grammar.label_count();
  const auto [a, b] = score_coefficients(score);
  std::vector<double> weights(span_count(n) * L);
  for (std::size_t l = 0; l < L; ++l) {
    const double size_term = -b * static_cast<double>(grammar.constituents(static_cast<int>(l)).size());
    for (std::size_t cell = 0; cell < span_count(n); ++cell) weights[cell * L + l] = sign * size_term;
  }
  // Probability of each (span, label) under the strategy, then its overlap with every label.
  std::map<std::pair<std::size_t, int>, double> mass;
  expected_size = 0.0;
  for (std::size_t i = 0; i < strategy.size(); ++i) {
    const double p = strategy.probabilities[i];
    for (const CnfNode& node : parse_nodes(strategy.actions[i])) {
      if (node.start < 0 || node.end <= node.start || node.end > static_cast<int>(n))
        throw Error("span weights: a parse does not fit the sentence");
      const std::size_t cell = span_index(static_cast<std::size_t>(node.start), static_cast<std::size_t>(node.end), n);
      mass[{cell, node.label}] += p;
      expected_size += p * static_cast<double>(grammar.constituents(node.label).size());
    }
  }
  expected_size *= b;
  for (const auto& [key, p] : mass) {
    const auto& [cell, other] = key;
    const std::vector<int>& theirs = grammar.constituents(other);
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      if (i + 1 < theirs.size() && theirs[i + 1] == theirs[i]) continue;  // once per distinct constituent
      const int count = static_cast<int>(std::count(theirs.begin(), theirs.end(), theirs[i]));
      // overlap(c, c') = sum over constituents x of min(count_x(c), count_x(c')).
      for (const auto& [label, multiplicity] : grammar.labels_with_constituent(theirs[i]))
        weights[cell * L + static_cast<std::size_t>(label)] += sign * a * p * std::min(count, multiplicity);
    }
  }
  return weights;
}

BestResponse<CnfParse> CfgHammingGame::predictor_best_response(const MixedStrategy<CnfParse>& adversary) const {
  double expected_size = 0.0;
  const std::vector<double> spans = constituent_span_weights(*grammar_, tags_.size(), adversary, score_, 1.0, expected_size);
  const CykResult best = cyk_parse(*grammar_, tags_, {{}, spans});
  if (!best.found) throw Error("CFG game: no parse in the predictor's best response");
  double expected_potential = 0.0;
  for (std::size_t i = 0; i < adversary.size(); ++i) expected_potential += adversary.probabilities[i] * potential(adversary.actions[i]);
  return {best.parse, best.value - expected_size - expected_potential};
}

BestResponse<CnfParse> CfgHammingGame::adversary_best_response(const MixedStrategy<CnfParse>& predictor) const {
  double expected_size = 0.0;
  const std::vector<double> spans = constituent_span_weights(*grammar_, tags_.size(), predictor, score_, -1.0, expected_size);
  const CykResult best = cyk_parse(*grammar_, tags_, {*theta_, spans});
  if (!best.found) throw Error("CFG game: no parse in the adversary's best response");
  return {best.parse, -best.value - expected_size};
}

std::vector<double> expected_rule_counts(const Grammar& grammar, const std::vector<int>& tags,
                                         const MixedStrategy<CnfParse>& strategy) {
  std::vector<double> expected(grammar.rule_count(), 0.0);
  for (std::size_t i = 0; i < strategy.size(); ++i)
    for (const auto& [rule, count] : rule_counts(grammar, tags, strategy.actions[i]))
      expected[static_cast<std::size_t>(rule)] += strategy.probabilities[i] * count;
  return expected;
}

// ---- Measures ------------------------------------------------------------------------------------

namespace {

void collect_constituents(const PtbTree& tree, int& position, std::vector<LabeledSpan>& out) {
  if (tree.is_preterminal()) {
    ++position;
    return;
  }
  const int start = position;
  for (const PtbTree& child : tree.children) collect_constituents(child, position, out);
  if (!tree.label.empty()) out.push_back({tree.label, start, position});
}

std::size_t word_count(const PtbTree& tree) {
  if (tree.is_preterminal()) return 1;
  std::size_t n = 0;
  for (const PtbTree& child : tree.children) n += word_count(child);
  return n;
}

// |a ∩ b| of two multisets given as vectors (sorted in place).
double multiset_intersection(std::vector<LabeledSpan>& a, std::vector<LabeledSpan>& b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return sorted_overlap(a, b);
}

// COLLINS.prm's DELETE_LABEL list; the unlabeled outer bracket ("") joins it unless kept.
bool evalb_deleted(const std::string& label, OuterBracket outer) {
  static const std::vector<std::string> deleted = {"TOP", "-NONE-", ",", ":", "``", "''", "."};
  if (label.empty()) return outer == OuterBracket::deleted;
  return std::find(deleted.begin(), deleted.end(), label) != deleted.end();
}

// Brackets of the tree after evalb's deletions; returns the number of words kept below `tree`.
int evalb_brackets(const PtbTree& tree, OuterBracket outer, int& position, std::vector<LabeledSpan>& out) {
  if (tree.is_preterminal()) {
    if (evalb_deleted(tree.label, OuterBracket::deleted)) return 0;
    ++position;
    return 1;
  }
  const int start = position;
  int kept = 0;
  for (const PtbTree& child : tree.children) kept += evalb_brackets(child, outer, position, out);
  std::string label = strip_function_tags(tree.label);
  if (label == "PRT") label = "ADVP";  // EQ_LABEL ADVP PRT
  if (kept > 0 && !evalb_deleted(label, outer)) out.push_back({label, start, position});
  return kept;
}

// evalb's brackets of a tree, with the unlabeled outer bracket added first when it is kept.
int evalb_brackets(const PtbTree& tree, OuterBracket outer, std::vector<LabeledSpan>& out) {
  int position = 0;
  if (outer == OuterBracket::deleted || tree.label.empty()) return evalb_brackets(tree, outer, position, out);
  PtbTree wrapped;
  wrapped.children.push_back(tree);
  return evalb_brackets(wrapped, outer, position, out);
}

}  // namespace

std::vector<LabeledSpan> labeled_constituents(const PtbTree& tree) {
  std::vector<LabeledSpan> out;
  int position = 0;
  collect_constituents(tree, position, out);
  return out;
}

void HammingCounts::add(const HammingCounts& other) {
  shared += other.shared;
  predicted += other.predicted;
  gold += other.gold;
}

double HammingCounts::one_minus_hamming() const {
  const double union_size = predicted + gold - shared;
  return union_size == 0.0 ? 1.0 : shared / union_size;
}

double HammingCounts::dice() const {
  const double total = predicted + gold;
  return total == 0.0 ? 1.0 : 2.0 * shared / total;
}

HammingCounts hamming_counts(const PtbTree& predicted, const PtbTree& gold) {
  if (word_count(predicted) != word_count(gold))
    throw Error(fmt::format("Hamming: predicted tree has {} words, gold tree {}", word_count(predicted), word_count(gold)));
  std::vector<LabeledSpan> p = labeled_constituents(predicted);
  std::vector<LabeledSpan> g = labeled_constituents(gold);
  HammingCounts counts;
  counts.predicted = static_cast<double>(p.size());
  counts.gold = static_cast<double>(g.size());
  counts.shared = multiset_intersection(p, g);
  return counts;
}

void EvalbCounts::add(const EvalbCounts& other) {
  matched += other.matched;
  gold += other.gold;
  test += other.test;
  sentences += other.sentences;
}

double EvalbCounts::precision() const { return test == 0.0 ? 0.0 : matched / test; }
double EvalbCounts::recall() const { return gold == 0.0 ? 0.0 : matched / gold; }
double EvalbCounts::f1() const { return gold + test == 0.0 ? 0.0 : 2.0 * matched / (gold + test); }

OuterBracket parse_outer_bracket(const std::string& name) {
  if (name == "delete") return OuterBracket::deleted;
  if (name == "keep") return OuterBracket::kept;
  throw Error("unknown outer-bracket rule '" + name + "' (expected 'delete' or 'keep')");
}

std::string to_string(OuterBracket outer) { return outer == OuterBracket::deleted ? "delete" : "keep"; }

EvalbCounts evalb_counts(const PtbTree& gold, const PtbTree& test, const EvalbOptions& options) {
  std::vector<LabeledSpan> g, t;
  const int gold_words = evalb_brackets(gold, options.outer_bracket, g);
  const int test_words = evalb_brackets(test, options.outer_bracket, t);
  if (gold_words != test_words)
    throw Error(fmt::format("evalb: sentence length mismatch ({} gold words, {} test words after deletion)", gold_words,
                            test_words));
  EvalbCounts counts;
  counts.sentences = 1;
  counts.gold = static_cast<double>(g.size());
  counts.test = static_cast<double>(t.size());
  counts.matched = multiset_intersection(g, t);
  return counts;
}

}  // namespace mpg
