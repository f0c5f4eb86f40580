// Binarization, grammar, parse encoding and CYK (lib/structures/cfg.hpp).
#include "lib/structures/cfg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t at = text.find(separator, begin);
    parts.push_back(text.substr(begin, at == std::string::npos ? std::string::npos : at - begin));
    if (at == std::string::npos) return parts;
    begin = at + 1;
  }
}

std::string without_annotation(const std::string& label) { return label.substr(0, label.find('^')); }

void check_label(const std::string& label) {
  if (label.find_first_of("+^") != std::string::npos || is_synthetic_label(label))
    throw Error("binarization: treebank label '" + label +
                "' contains '+' or '^' or starts with '@' (reserved for collapsed chains, parent annotation and "
                "synthetic nodes)");
}

// Step 1: unary chains -> one node with a '+'-joined label.
PtbTree collapse_unaries(const PtbTree& tree) {
  check_label(tree.label);
  if (tree.is_preterminal()) return tree;
  if (tree.children.size() == 1) {
    PtbTree child = collapse_unaries(tree.children[0]);
    child.label = tree.label + "+" + child.label;
    return child;
  }
  PtbTree out;
  out.label = tree.label;
  for (const PtbTree& child : tree.children) out.children.push_back(collapse_unaries(child));
  return out;
}

// Step 2: "^" + the first label of the parent's chain on every phrase node.
void annotate_parents(PtbTree& tree, const std::string& parent) {
  if (tree.is_preterminal()) return;
  const std::string own = split_on(tree.label, '+').front();
  tree.label += "^" + parent;
  for (PtbTree& child : tree.children) annotate_parents(child, own);
}

// Step 3: right factoring with '@' nodes.
void factor(PtbTree& tree, int horizontal) {
  if (tree.is_preterminal()) return;
  for (PtbTree& child : tree.children) factor(child, horizontal);
  if (tree.children.size() <= 2) return;
  std::vector<PtbTree> kids = std::move(tree.children);
  const std::size_t k = kids.size();
  // The synthetic node covering kids[i..k-1] (i >= 1), built from the right.
  auto synthetic_label = [&](std::size_t i) {
    std::string label = "@" + tree.label;
    if (horizontal == 0) return label;
    const std::size_t first = horizontal < 0 ? 0 : i - std::min<std::size_t>(i, static_cast<std::size_t>(horizontal));
    label += "|";
    for (std::size_t j = first; j < i; ++j) label += (j > first ? "_" : "") + kids[j].label;
    return label;
  };
  PtbTree right;
  right.label = synthetic_label(k - 2);
  right.children.push_back(std::move(kids[k - 2]));
  right.children.push_back(std::move(kids[k - 1]));
  for (std::size_t i = k - 2; i-- > 1;) {
    PtbTree node;
    node.label = synthetic_label(i);
    node.children.push_back(std::move(kids[i]));
    node.children.push_back(std::move(right));
    right = std::move(node);
  }
  tree.children.clear();
  tree.children.push_back(std::move(kids[0]));
  tree.children.push_back(std::move(right));
}

PtbTree expand(const PtbTree& node);

void append_unfactored(const PtbTree& node, std::vector<PtbTree>& out) {
  if (is_synthetic_label(node.label) && !node.is_preterminal()) {
    for (const PtbTree& child : node.children) append_unfactored(child, out);
  } else {
    out.push_back(expand(node));
  }
}

PtbTree expand(const PtbTree& node) {
  const std::vector<std::string> chain = split_on(without_annotation(node.label), '+');
  PtbTree inner;
  inner.label = chain.back();
  if (node.is_preterminal()) {
    inner.word = node.word;
  } else {
    for (const PtbTree& child : node.children) append_unfactored(child, inner.children);
  }
  for (std::size_t i = chain.size() - 1; i-- > 0;) {
    PtbTree outer;
    outer.label = chain[i];
    outer.children.push_back(std::move(inner));
    inner = std::move(outer);
  }
  return inner;
}

long long pair_key(long long a, long long b, long long size) { return a * size + b; }

}  // namespace

PtbTree to_cnf(const PtbTree& tree, const BinarizationOptions& options) {
  PtbTree out = collapse_unaries(tree);
  if (options.parent_annotation) annotate_parents(out, "TOP");
  factor(out, options.horizontal);
  return out;
}

PtbTree from_cnf(const PtbTree& cnf) { return expand(cnf); }

std::vector<std::string> cnf_tags(const PtbTree& cnf) {
  std::vector<std::string> tags;
  for (const std::string& leaf : tags_of(cnf)) tags.push_back(split_on(without_annotation(leaf), '+').back());
  return tags;
}

// ---- Grammar -----------------------------------------------------------------------------------

Grammar Grammar::from_cnf_trees(const std::vector<PtbTree>& cnf_trees) {
  if (cnf_trees.empty()) throw Error("grammar: no trees");
  using Key = std::pair<std::string, bool>;  // label text, leaf
  std::set<Key> labels;
  std::set<std::string> tags;
  std::set<std::tuple<Key, Key, Key>> binary_keys;
  std::set<std::pair<std::string, std::string>> lexical;
  std::set<Key> roots;
  auto key_of = [](const PtbTree& t) { return Key{t.label, t.is_preterminal()}; };
  auto visit = [&](auto&& self, const PtbTree& t) -> void {
    labels.insert(key_of(t));
    if (t.is_preterminal()) {
      const std::string tag = split_on(without_annotation(t.label), '+').back();
      tags.insert(tag);
      lexical.insert({t.label, tag});
      return;
    }
    if (t.children.size() != 2)
      throw Error(fmt::format("grammar: node '{}' has {} children; binarize the trees first (to_cnf)", t.label,
                              t.children.size()));
    binary_keys.insert({key_of(t), key_of(t.children[0]), key_of(t.children[1])});
    self(self, t.children[0]);
    self(self, t.children[1]);
  };
  for (const PtbTree& tree : cnf_trees) {
    visit(visit, tree);
    roots.insert(key_of(tree));
  }

  Grammar g;
  std::map<Key, int> label_ids;
  std::set<std::string> constituent_set;
  for (const Key& key : labels) {
    label_ids[key] = static_cast<int>(g.labels_.size());
    (key.second ? g.leaf_ids_ : g.phrase_ids_)[key.first] = static_cast<int>(g.labels_.size());
    g.labels_.push_back({key.first, key.second, {}});
    if (!is_synthetic_label(key.first)) {
      auto chain = split_on(without_annotation(key.first), '+');
      if (key.second) chain.pop_back();
      constituent_set.insert(chain.begin(), chain.end());
    }
  }
  g.constituent_names_.assign(constituent_set.begin(), constituent_set.end());
  for (Label& label : g.labels_) {
    if (is_synthetic_label(label.name)) continue;
    auto chain = split_on(without_annotation(label.name), '+');
    if (label.leaf) chain.pop_back();
    for (const std::string& c : chain)
      label.constituents.push_back(static_cast<int>(
          std::lower_bound(g.constituent_names_.begin(), g.constituent_names_.end(), c) - g.constituent_names_.begin()));
    std::sort(label.constituents.begin(), label.constituents.end());
  }
  g.with_constituent_.assign(g.constituent_names_.size(), {});
  for (std::size_t l = 0; l < g.labels_.size(); ++l) {
    const std::vector<int>& c = g.labels_[l].constituents;
    for (std::size_t i = 0; i < c.size(); ++i)
      if (i + 1 == c.size() || c[i + 1] != c[i])
        g.with_constituent_[static_cast<std::size_t>(c[i])].emplace_back(
            static_cast<int>(l), static_cast<int>(std::count(c.begin(), c.end(), c[i])));
  }
  g.tags_.assign(tags.begin(), tags.end());
  for (std::size_t t = 0; t < g.tags_.size(); ++t) g.tag_ids_[g.tags_[t]] = static_cast<int>(t);

  const auto L = static_cast<long long>(g.labels_.size());
  for (const auto& [p, l, r] : binary_keys) g.binary_.push_back({label_ids[p], label_ids[l], label_ids[r]});
  std::sort(g.binary_.begin(), g.binary_.end(), [](const BinaryRule& a, const BinaryRule& b) {
    return std::tie(a.parent, a.left, a.right) < std::tie(b.parent, b.left, b.right);
  });
  for (std::size_t r = 0; r < g.binary_.size(); ++r) {
    const BinaryRule& rule = g.binary_[r];
    g.binary_ids_[pair_key(pair_key(rule.parent, rule.left, L), rule.right, L)] = static_cast<int>(r);
  }
  for (const auto& [label, tag] : lexical) g.lexical_.push_back({g.leaf_ids_.at(label), g.tag_ids_.at(tag)});
  std::sort(g.lexical_.begin(), g.lexical_.end(),
            [](const LexicalRule& a, const LexicalRule& b) { return std::tie(a.label, a.tag) < std::tie(b.label, b.tag); });
  const auto T = static_cast<long long>(g.tags_.size());
  for (std::size_t r = 0; r < g.lexical_.size(); ++r)
    g.lexical_ids_[pair_key(g.lexical_[r].label, g.lexical_[r].tag, T)] = static_cast<int>(g.binary_.size() + r);
  for (const Key& key : roots) g.roots_.push_back(label_ids[key]);
  std::sort(g.roots_.begin(), g.roots_.end());
  g.root_ids_.assign(g.labels_.size(), -1);
  for (std::size_t r = 0; r < g.roots_.size(); ++r)
    g.root_ids_[static_cast<std::size_t>(g.roots_[r])] = static_cast<int>(g.binary_.size() + g.lexical_.size() + r);

  g.by_left_.assign(g.labels_.size(), {});
  for (std::size_t r = 0; r < g.binary_.size(); ++r) g.by_left_[static_cast<std::size_t>(g.binary_[r].left)].push_back(static_cast<int>(r));
  g.by_tag_.assign(g.tags_.size(), {});
  for (std::size_t r = 0; r < g.lexical_.size(); ++r)
    g.by_tag_[static_cast<std::size_t>(g.lexical_[r].tag)].push_back(static_cast<int>(g.binary_.size() + r));
  return g;
}

int Grammar::label_id(const std::string& name, bool leaf) const {
  const auto& ids = leaf ? leaf_ids_ : phrase_ids_;
  const auto it = ids.find(name);
  return it == ids.end() ? -1 : it->second;
}

int Grammar::tag_id(const std::string& name) const {
  const auto it = tag_ids_.find(name);
  return it == tag_ids_.end() ? -1 : it->second;
}

std::vector<int> Grammar::tag_ids(const std::vector<std::string>& tags) const {
  std::vector<int> ids;
  for (const std::string& t : tags) ids.push_back(tag_id(t));
  return ids;
}

int Grammar::binary_rule_id(int parent, int left, int right) const {
  const auto L = static_cast<long long>(labels_.size());
  const auto it = binary_ids_.find(pair_key(pair_key(parent, left, L), right, L));
  return it == binary_ids_.end() ? -1 : it->second;
}

int Grammar::lexical_rule_id(int label, int tag) const {
  if (tag < 0) return -1;
  const auto it = lexical_ids_.find(pair_key(label, tag, static_cast<long long>(tags_.size())));
  return it == lexical_ids_.end() ? -1 : it->second;
}

int Grammar::root_rule_id(int label) const {
  return label < 0 || static_cast<std::size_t>(label) >= root_ids_.size() ? -1 : root_ids_[static_cast<std::size_t>(label)];
}

std::string Grammar::rule_name(std::size_t rule) const {
  if (rule < binary_.size()) {
    const BinaryRule& r = binary_[rule];
    return label_name(r.parent) + " -> " + label_name(r.left) + " " + label_name(r.right);
  }
  rule -= binary_.size();
  if (rule < lexical_.size()) return label_name(lexical_[rule].label) + " -> " + tag_name(lexical_[rule].tag);
  rule -= lexical_.size();
  return "TOP -> " + label_name(roots_.at(rule));
}

// ---- Parses ------------------------------------------------------------------------------------

std::vector<CnfNode> parse_nodes(const CnfParse& parse) {
  std::vector<CnfNode> nodes;
  for (std::size_t i = 0; i + 2 < parse.size(); i += 3) nodes.push_back({parse[i], parse[i + 1], parse[i + 2]});
  return nodes;
}

CnfParse encode_parse(const Grammar& grammar, const PtbTree& cnf) {
  CnfParse parse;
  int position = 0;
  auto visit = [&](auto&& self, const PtbTree& t) -> void {
    const int label = grammar.label_id(t.label, t.is_preterminal());
    if (label < 0) throw Error("parse: the grammar has no " + std::string(t.is_preterminal() ? "leaf" : "phrase") +
                               " label '" + t.label + "'");
    const std::size_t at = parse.size();
    parse.insert(parse.end(), {position, 0, label});
    if (t.is_preterminal()) {
      ++position;
    } else {
      if (t.children.size() != 2) throw Error("parse: node '" + t.label + "' is not binary");
      self(self, t.children[0]);
      self(self, t.children[1]);
    }
    parse[at + 1] = position;
  };
  visit(visit, cnf);
  return parse;
}

PtbTree decode_parse(const Grammar& grammar, const CnfParse& parse, const std::vector<int>& tags,
                     const std::vector<std::string>& words) {
  std::size_t next = 0;
  auto build = [&](auto&& self) -> PtbTree {
    if (next + 3 > parse.size()) throw Error("parse: truncated encoding");
    const int start = parse[next], end = parse[next + 1], label = parse[next + 2];
    next += 3;
    PtbTree t;
    t.label = grammar.label_name(label);
    if (end - start == 1) {
      const auto s = static_cast<std::size_t>(start);
      t.word = !words.empty() ? words.at(s) : grammar.tag_name(tags.at(s));
      return t;
    }
    t.children.push_back(self(self));
    t.children.push_back(self(self));
    return t;
  };
  return build(build);
}

namespace {

// Walks a parse, calling rule(id) for every rule (root rule included); false if it is malformed
// or uses a rule the grammar lacks (rule(-1) is then not called).
template <class OnRule>
bool walk_rules(const Grammar& grammar, const std::vector<int>& tags, const CnfParse& parse, OnRule on_rule) {
  const auto n = static_cast<int>(tags.size());
  if (n == 0 || parse.size() != static_cast<std::size_t>(3 * (2 * n - 1))) return false;
  const auto L = static_cast<int>(grammar.label_count());
  std::size_t next = 0;
  // Returns the label of the subtree at `next` spanning [start, ...), checking it ends at `end`.
  auto visit = [&](auto&& self, int start, int end) -> int {
    if (next + 3 > parse.size()) return -1;
    const int s = parse[next], e = parse[next + 1], label = parse[next + 2];
    next += 3;
    if (s != start || e != end || label < 0 || label >= L) return -1;
    if (e - s == 1) {
      if (!grammar.is_leaf_label(label)) return -1;
      const int rule = grammar.lexical_rule_id(label, tags[static_cast<std::size_t>(s)]);
      if (rule < 0) return -1;
      on_rule(rule);
      return label;
    }
    if (grammar.is_leaf_label(label) || next + 3 > parse.size()) return -1;
    const int split = parse[next + 1];
    if (split <= s || split >= e) return -1;
    const int left = self(self, s, split);
    if (left < 0) return -1;
    const int right = self(self, split, e);
    if (right < 0) return -1;
    const int rule = grammar.binary_rule_id(label, left, right);
    if (rule < 0) return -1;
    on_rule(rule);
    return label;
  };
  const int root = visit(visit, 0, n);
  if (root < 0 || next != parse.size()) return false;
  const int rule = grammar.root_rule_id(root);
  if (rule < 0) return false;
  on_rule(rule);
  return true;
}

}  // namespace

bool is_grammatical(const Grammar& grammar, const std::vector<int>& tags, const CnfParse& parse) {
  return walk_rules(grammar, tags, parse, [](int) {});
}

std::vector<std::pair<int, double>> rule_counts(const Grammar& grammar, const std::vector<int>& tags,
                                                const CnfParse& parse) {
  std::map<int, double> counts;
  if (!walk_rules(grammar, tags, parse, [&](int rule) { counts[rule] += 1.0; }))
    throw Error("rule counts: the parse is malformed or uses a rule the grammar lacks");
  return {counts.begin(), counts.end()};
}

double rule_score(const Grammar& grammar, const std::vector<int>& tags, const CnfParse& parse,
                  const std::vector<double>& rule_weights) {
  double score = 0.0;
  for (const auto& [rule, count] : rule_counts(grammar, tags, parse))
    score += count * rule_weights[static_cast<std::size_t>(rule)];
  return score;
}

// ---- CYK ---------------------------------------------------------------------------------------

CykResult cyk_parse(const Grammar& grammar, const std::vector<int>& tags, const CykWeights& weights) {
  const std::size_t n = tags.size();
  const std::size_t L = grammar.label_count();
  if (n == 0) throw Error("CYK: empty sentence");
  if (!weights.rule.empty() && weights.rule.size() != grammar.rule_count())
    throw Error(fmt::format("CYK: {} rule weights for {} rules", weights.rule.size(), grammar.rule_count()));
  if (!weights.span.empty() && weights.span.size() != span_count(n) * L)
    throw Error(fmt::format("CYK: {} span weights; expected {} spans x {} labels", weights.span.size(), span_count(n), L));
  auto rule_weight = [&](int rule) { return weights.rule.empty() ? 0.0 : weights.rule[static_cast<std::size_t>(rule)]; };

  const std::size_t cells = span_count(n);
  std::vector<double> best(cells * L, kMinusInfinity);
  std::vector<int> back_rule(cells * L, -1), back_split(cells * L, -1);
  std::vector<std::vector<int>> active(cells);  // labels with a finite value, per cell

  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t cell = span_index(i, i + 1, n);
    if (tags[i] < 0) continue;
    for (int rule : grammar.rules_by_tag(tags[i])) {
      const int label = grammar.lexical_rules()[static_cast<std::size_t>(rule) - grammar.binary_rule_count()].label;
      const std::size_t at = cell * L + static_cast<std::size_t>(label);
      const double value = rule_weight(rule);
      if (best[at] == kMinusInfinity) active[cell].push_back(label);
      if (value > best[at]) {
        best[at] = value;
        back_rule[at] = rule;
      }
    }
  }
  auto add_span_weights = [&](std::size_t cell) {
    if (weights.span.empty()) return;
    for (int label : active[cell]) best[cell * L + static_cast<std::size_t>(label)] += weights.span[cell * L + static_cast<std::size_t>(label)];
  };
  for (std::size_t i = 0; i < n; ++i) add_span_weights(span_index(i, i + 1, n));

  const auto& rules = grammar.binary_rules();
  for (std::size_t length = 2; length <= n; ++length) {
    for (std::size_t start = 0; start + length <= n; ++start) {
      const std::size_t end = start + length;
      const std::size_t cell = span_index(start, end, n);
      for (std::size_t split = start + 1; split < end; ++split) {
        const std::size_t left_cell = span_index(start, split, n);
        const std::size_t right_cell = span_index(split, end, n);
        const double* right_best = &best[right_cell * L];
        for (int left : active[left_cell]) {
          const double left_value = best[left_cell * L + static_cast<std::size_t>(left)];
          for (int rule : grammar.rules_by_left(left)) {
            const BinaryRule& r = rules[static_cast<std::size_t>(rule)];
            const double right_value = right_best[r.right];
            if (right_value == kMinusInfinity) continue;
            const double value = left_value + right_value + rule_weight(rule);
            const std::size_t at = cell * L + static_cast<std::size_t>(r.parent);
            if (best[at] == kMinusInfinity) active[cell].push_back(r.parent);
            if (value > best[at]) {
              best[at] = value;
              back_rule[at] = rule;
              back_split[at] = static_cast<int>(split);
            }
          }
        }
      }
      add_span_weights(cell);
    }
  }

  CykResult result;
  const std::size_t top = span_index(0, n, n);
  int root = -1;
  double root_value = kMinusInfinity;
  for (int label : grammar.root_labels()) {
    const double value = best[top * L + static_cast<std::size_t>(label)];
    if (value == kMinusInfinity) continue;
    const double total = value + rule_weight(grammar.root_rule_id(label));
    if (root < 0 || total > root_value) {
      root = label;
      root_value = total;
    }
  }
  if (root < 0) return result;
  result.found = true;
  result.value = root_value;
  result.parse.reserve(3 * (2 * n - 1));
  auto emit = [&](auto&& self, std::size_t start, std::size_t end, int label) -> void {
    result.parse.insert(result.parse.end(), {static_cast<int>(start), static_cast<int>(end), label});
    if (end - start == 1) return;
    const std::size_t at = span_index(start, end, n) * L + static_cast<std::size_t>(label);
    const BinaryRule& r = rules[static_cast<std::size_t>(back_rule[at])];
    const auto split = static_cast<std::size_t>(back_split[at]);
    self(self, start, split, r.left);
    self(self, split, end, r.right);
  };
  emit(emit, 0, n, root);
  return result;
}

// ---- Prediction ----------------------------------------------------------------------------------

TreePrediction predict_tree(const Grammar& grammar, const std::vector<std::string>& tags,
                            const std::vector<std::string>& words, std::span<const double> rule_weights,
                            const std::string& fallback_label) {
  if (tags.size() != words.size()) throw Error("predict_tree: tags and words differ in number");
  const std::vector<int> ids = grammar.tag_ids(tags);
  const CykResult best = cyk_parse(grammar, ids, {rule_weights, {}});
  TreePrediction prediction;
  if (best.found) {
    prediction.tree = from_cnf(decode_parse(grammar, best.parse, ids, words));
    prediction.value = best.value;
    return prediction;
  }
  prediction.fallback = true;
  prediction.tree.label = fallback_label;
  for (std::size_t i = 0; i < tags.size(); ++i) prediction.tree.children.push_back({tags[i], words[i], {}});
  return prediction;
}

std::string most_frequent_root(const std::vector<PtbTree>& cnf_trees) {
  std::map<std::string, int> counts;
  for (const PtbTree& t : cnf_trees) ++counts[split_on(without_annotation(t.label), '+').front()];
  std::string best;
  int best_count = 0;
  for (const auto& [label, count] : counts)
    if (count > best_count) {
      best = label;
      best_count = count;
    }
  return best;
}

}  // namespace mpg

