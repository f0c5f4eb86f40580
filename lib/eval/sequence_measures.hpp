// Evaluation measures of sequence labellings (thesis §5.2, Table X): entity-level F1 by the
// conlleval rules and token-level F1 of one class, over the CoNLL class labels of
// lib/data/conll.hpp. Measures only: the linear-chain F1 game is lib/metrics/linear_chain_f1.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "lib/data/conll.hpp"

namespace mpg {

// ---- Entity-level scoring (conlleval rules) ------------------------------------------------
// A chunk starts/ends by the conlleval rules on IOB tags: e.g. "I-X" after "O" or after a
// tag of another type starts a chunk, "B-X" always starts one. A guessed chunk is correct when
// it starts and ends at the same tokens as a gold chunk of the same type.
struct ChunkCounts {
  std::array<std::size_t, kConllLabelCount> correct{};
  std::array<std::size_t, kConllLabelCount> guessed{};
  std::array<std::size_t, kConllLabelCount> gold{};
  void add(const ChunkCounts& other);
  // F1 of class `label` (1..4) = 2 correct / (guessed + gold); 0 when both are 0 (as conlleval).
  double f1(int label) const;
  double overall_f1() const;  // over all four classes
};
// Counts of one sentence: gold IOB tags against guessed IOB tags (same length).
ChunkCounts conlleval_counts(const std::vector<std::string>& gold, const std::vector<std::string>& guessed);
// IOB1 tags of a class labelling: "I-<class>" for each entity label, "O" otherwise.
std::vector<std::string> tags_of_labels(const std::vector<int>& labels);

// Token-level counts for one class C: tp = |{t: pred_t = C and gold_t = C}|, etc.
struct TokenCounts {
  std::size_t true_positives = 0;
  std::size_t predicted = 0;
  std::size_t gold = 0;
  void add(const std::vector<int>& predicted_labels, const std::vector<int>& gold_labels, int label);
  // 2 tp / (predicted + gold), and 1 when both are 0 (F1(0,0) = 1 as in the game).
  double f1() const;
};

// Table IX statistics of a set of sentences (entities counted by the conlleval rules above).
struct ConllStatistics {
  std::size_t sentences = 0;
  std::size_t tokens = 0;
  std::size_t max_length = 0;
  double average_length = 0.0;
  std::array<std::size_t, kConllLabelCount> label_tokens{};    // tokens per class
  std::array<std::size_t, kConllLabelCount> label_entities{};  // conlleval chunks per class
};
ConllStatistics conll_statistics(const std::vector<ConllSentence>& sentences);

}  // namespace mpg
