// Test helpers for the parsing tests: a small ambiguous grammar and brute-force enumeration of
// every grammatical parse of a tag sequence.
#pragma once

#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lib/data/ptb.hpp"
#include "lib/game/game.hpp"
#include "lib/structures/cfg.hpp"
#include "tests/brute_force.hpp"

namespace mpg::testing {

inline PtbTree bracketed(const std::string& text) { return parse_ptb(text, "<test>").trees.at(0); }

// Binarized (h = 0) training trees over the tags "t" and "u" whose grammar derives many parses of
// every tag string: phrase labels A, B, @A, @B, unary chains (A+B, B+t, A+u, ...), roots A and B.
inline std::vector<PtbTree> small_treebank() {
  const char* trees[] = {
      "(A (B (t x) (t x)) (t x))",
      "(A (t x) (B (t x) (u x)))",
      "(B (A (t x) (u x)) (A (u x) (t x)))",
      "(B (B (t x) (t x)) (t x) (u x))",
      "(A (A (B (t x)) (u x)) (B (A (u x) (t x))))",
      "(A (B (u x) (A (t x))) (t x) (u x))",
      "(B (A (B (t x) (u x)) (t x)) (u x))",
      "(A (A (u x) (u x)) (B (t x) (t x)))",
      "(B (t x) (A (u x) (B (u x) (t x))))",
      "(A (B (t x)))",
      "(B (u x))",
      "(A (u x) (t x))",
      "(B (t x) (B (t x)))",
  };
  std::vector<PtbTree> out;
  for (const char* t : trees) out.push_back(to_cnf(bracketed(t)));
  return out;
}

// Every grammatical parse of `tags` (a root rule included), by enumeration over spans.
inline std::vector<CnfParse> all_parses(const Grammar& grammar, const std::vector<int>& tags) {
  const int n = static_cast<int>(tags.size());
  // fragments[(start, end)][label] = preorder encodings of the subtrees
  std::map<std::pair<int, int>, std::map<int, std::vector<CnfParse>>> fragments;
  for (int i = 0; i < n; ++i)
    for (int rule : grammar.rules_by_tag(tags[static_cast<std::size_t>(i)])) {
      const int label = grammar.lexical_rules()[static_cast<std::size_t>(rule) - grammar.binary_rule_count()].label;
      fragments[{i, i + 1}][label].push_back({i, i + 1, label});
    }
  for (int length = 2; length <= n; ++length)
    for (int start = 0; start + length <= n; ++start) {
      const int end = start + length;
      for (int split = start + 1; split < end; ++split)
        for (const BinaryRule& r : grammar.binary_rules()) {
          const auto& left = fragments[{start, split}][r.left];
          const auto& right = fragments[{split, end}][r.right];
          for (const CnfParse& a : left)
            for (const CnfParse& b : right) {
              CnfParse whole{start, end, r.parent};
              whole.insert(whole.end(), a.begin(), a.end());
              whole.insert(whole.end(), b.begin(), b.end());
              fragments[{start, end}][r.parent].push_back(std::move(whole));
            }
        }
    }
  std::vector<CnfParse> parses;
  for (int root : grammar.root_labels())
    for (const CnfParse& p : fragments[{0, n}][root]) parses.push_back(p);
  return parses;
}

// Random tags (ids 0 and 1) of length n that the grammar can parse.
inline std::vector<int> random_parsable_tags(const Grammar& grammar, int n, std::mt19937& rng) {
  for (;;) {
    std::vector<int> tags;
    for (int i = 0; i < n; ++i) tags.push_back(std::uniform_int_distribution<int>(0, 1)(rng));
    if (!all_parses(grammar, tags).empty()) return tags;
  }
}

// A random mixed strategy over 1..4 distinct parses (tests/brute_force.hpp's random_strategy).
inline MixedStrategy<CnfParse> random_parse_strategy(const std::vector<CnfParse>& all, std::mt19937& rng) {
  const std::size_t support = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
  return random_strategy(all, support, rng);
}

inline std::vector<double> random_weights(std::size_t size, std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> w(size);
  for (double& v : w) v = u(rng);
  return w;
}

}  // namespace mpg::testing
