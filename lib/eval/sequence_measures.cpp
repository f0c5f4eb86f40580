#include "lib/eval/sequence_measures.hpp"

#include <algorithm>

#include "lib/base/error.hpp"

namespace mpg {

// ---- conlleval rules ------------------------------------------------------------------------

namespace {

struct SplitTag {
  char prefix;  // 'O', 'B', 'I' (IOB1/IOB2), also 'E', 'S' accepted
  int type;     // label index, 0 for O
};

SplitTag split_tag(const std::string& tag) {
  if (tag == "O") return {'O', 0};
  return {tag[0], conll_label_of_tag(tag)};
}

// A chunk ends between `previous` and `current` (conlleval's end-of-chunk rules).
bool chunk_ends(SplitTag previous, SplitTag current) {
  const char p = previous.prefix;
  const char c = current.prefix;
  if (p == 'B' && (c == 'B' || c == 'O' || c == 'S')) return true;
  if (p == 'I' && (c == 'B' || c == 'O' || c == 'S')) return true;
  if (p == 'E' || p == 'S') return true;
  return p != 'O' && previous.type != current.type;
}

// A chunk starts at `current` after `previous` (conlleval's start-of-chunk rules).
bool chunk_starts(SplitTag previous, SplitTag current) {
  const char p = previous.prefix;
  const char c = current.prefix;
  if (c == 'B' || c == 'S') return true;
  if (c == 'I' && (p == 'O' || p == 'E' || p == 'S')) return true;
  if (c == 'E' && (p == 'O' || p == 'E' || p == 'S')) return true;
  return c != 'O' && previous.type != current.type;
}

}  // namespace

ChunkCounts conlleval_counts(const std::vector<std::string>& gold, const std::vector<std::string>& guessed) {
  if (gold.size() != guessed.size()) throw Error("conlleval_counts: sequences of different lengths");
  ChunkCounts counts;
  SplitTag last_gold{'O', 0};
  SplitTag last_guess{'O', 0};
  bool in_correct = false;  // inside a chunk that so far agrees in start and type
  // One pass over the tokens and a final "O O" boundary (the sentence end closes all chunks).
  for (std::size_t t = 0; t <= gold.size(); ++t) {
    const SplitTag g = t < gold.size() ? split_tag(gold[t]) : SplitTag{'O', 0};
    const SplitTag p = t < gold.size() ? split_tag(guessed[t]) : SplitTag{'O', 0};
    const bool gold_ends = chunk_ends(last_gold, g);
    const bool guess_ends = chunk_ends(last_guess, p);
    if (in_correct) {
      if (gold_ends && guess_ends && last_gold.type == last_guess.type) {
        in_correct = false;
        ++counts.correct[static_cast<std::size_t>(last_gold.type)];
      } else if (gold_ends != guess_ends || g.type != p.type) {
        in_correct = false;
      }
    }
    const bool gold_starts = chunk_starts(last_gold, g);
    const bool guess_starts = chunk_starts(last_guess, p);
    if (gold_starts && guess_starts && g.type == p.type) in_correct = true;
    if (gold_starts) ++counts.gold[static_cast<std::size_t>(g.type)];
    if (guess_starts) ++counts.guessed[static_cast<std::size_t>(p.type)];
    last_gold = g;
    last_guess = p;
  }
  return counts;
}

void ChunkCounts::add(const ChunkCounts& other) {
  for (std::size_t c = 0; c < correct.size(); ++c) {
    correct[c] += other.correct[c];
    guessed[c] += other.guessed[c];
    gold[c] += other.gold[c];
  }
}

double ChunkCounts::f1(int label) const {
  const auto c = static_cast<std::size_t>(label);
  const std::size_t denominator = guessed[c] + gold[c];
  return denominator ? 2.0 * static_cast<double>(correct[c]) / static_cast<double>(denominator) : 0.0;
}

double ChunkCounts::overall_f1() const {
  std::size_t tp = 0, denominator = 0;
  for (std::size_t c = 1; c < correct.size(); ++c) {
    tp += correct[c];
    denominator += guessed[c] + gold[c];
  }
  return denominator ? 2.0 * static_cast<double>(tp) / static_cast<double>(denominator) : 0.0;
}

std::vector<std::string> tags_of_labels(const std::vector<int>& labels) {
  std::vector<std::string> tags;
  tags.reserve(labels.size());
  for (int label : labels) {
    std::string tag = label == kConllOutside ? "O" : "I-";
    if (label != kConllOutside) tag.append(conll_label_names()[static_cast<std::size_t>(label)]);
    tags.push_back(std::move(tag));
  }
  return tags;
}

void TokenCounts::add(const std::vector<int>& predicted_labels, const std::vector<int>& gold_labels, int label) {
  if (predicted_labels.size() != gold_labels.size()) throw Error("TokenCounts: sequences of different lengths");
  for (std::size_t t = 0; t < gold_labels.size(); ++t) {
    const bool p = predicted_labels[t] == label;
    const bool g = gold_labels[t] == label;
    true_positives += p && g;
    predicted += p;
    gold += g;
  }
}

double TokenCounts::f1() const {
  const std::size_t denominator = predicted + gold;
  return denominator ? 2.0 * static_cast<double>(true_positives) / static_cast<double>(denominator) : 1.0;
}

ConllStatistics conll_statistics(const std::vector<ConllSentence>& sentences) {
  ConllStatistics s;
  s.sentences = sentences.size();
  for (const auto& sentence : sentences) {
    s.tokens += sentence.size();
    s.max_length = std::max(s.max_length, sentence.size());
    for (int label : sentence.labels) ++s.label_tokens[static_cast<std::size_t>(label)];
    const ChunkCounts chunks = conlleval_counts(sentence.tags, sentence.tags);
    for (int c = 1; c < kConllLabelCount; ++c)
      s.label_entities[static_cast<std::size_t>(c)] += chunks.gold[static_cast<std::size_t>(c)];
  }
  s.average_length = s.sentences ? static_cast<double>(s.tokens) / static_cast<double>(s.sentences) : 0.0;
  return s;
}

}  // namespace mpg
