// CoNLL-2003 named-entity data (thesis §5.2, Tables IX and X): the 4-column IOB1 reader, the
// statistics of Table IX, entity-level scoring by the conlleval rules, and the token feature
// templates shared by the CRF and the linear-chain F1 game.
//
// Labels are the four entity classes with the B-/I- prefixes collapsed, plus O:
//     0 = O, 1 = PER, 2 = LOC, 3 = ORG, 4 = MISC        (m = 5)
// The games and the CRF label tokens with these; the original IOB1 tags are kept for the
// entity-level evaluation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace mpg {

inline constexpr int kConllLabelCount = 5;
inline constexpr int kConllOutside = 0;

// "O", "PER", "LOC", "ORG", "MISC".
const std::array<std::string, kConllLabelCount>& conll_label_names();
// Label index of a class name ("PER" -> 1); -1 if unknown.
int conll_label_of_name(const std::string& name);
// Label of an IOB tag: "O" -> 0, "I-PER" / "B-PER" -> 1, ...; -1 if the tag is not one of these.
int conll_label_of_tag(const std::string& tag);

struct ConllSentence {
  std::vector<std::string> words;
  std::vector<std::string> pos;
  std::vector<std::string> chunks;
  std::vector<std::string> tags;  // IOB1 named-entity tags as in the file
  std::vector<int> labels;        // collapsed class labels (see above)
  std::size_t size() const { return words.size(); }
};

// Reads sentences `first`, `first + 1`, ..., `first + count - 1` (0-based, count 0 = to the end)
// of a CoNLL-2003 file (gzip or plain; see mpg::read_file). Blank lines separate sentences;
// "-DOCSTART-" lines are skipped and not counted. Throws mpg::InputError naming the file and
// line for a line without exactly 4 space-separated columns or an unknown NE tag.
std::vector<ConllSentence> read_conll(const std::string& path, std::size_t first = 0,
                                      std::size_t count = 0);
// The same from text already in memory (`path` only names it in messages).
std::vector<ConllSentence> parse_conll(const std::string& text, const std::string& path,
                                       std::size_t first = 0, std::size_t count = 0);

// Table IX statistics of a set of sentences.
struct ConllStatistics {
  std::size_t sentences = 0;
  std::size_t tokens = 0;
  std::size_t max_length = 0;
  double average_length = 0.0;
  std::array<std::size_t, kConllLabelCount> label_tokens{};    // tokens per class
  std::array<std::size_t, kConllLabelCount> label_entities{};  // conlleval chunks per class
};
ConllStatistics conll_statistics(const std::vector<ConllSentence>& sentences);

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

// ---- Features -----------------------------------------------------------------------------
// Observation features of token t, as strings, in the spirit of Stanford NER's first-order CRF
// configuration (our own templates, not its feature exporter):
//   BIAS; W= the word; LW= the lower-cased word
//   P1..P4= prefixes and S1..S4= suffixes of the word (lengths up to the word's length)
//   SH= word shape (below)
//   PW=, NW= previous / next lower-cased word ("<S>", "</S>" at the ends); PSH=, NSH= their shapes
//   PW|W=, W|NW= lower-cased word bigrams; PSH|SH|NSH= the shape trigram
//   DL=, DR= the lower-cased words within 4 tokens to the left / right, position-free
//           ("disjunctive")
// Not used: the POS and chunk columns, gazetteers, distributional similarity classes, character
// n-grams inside the word (Stanford's useNGrams), label-observation bigrams. FeatureDictionary
// indexes the strings of the training sentences only (unseen strings are dropped elsewhere);
// each carries one weight per label (m = 5) in the CRF and in the linear-chain MPG, which add
// (m + 1) x m label-bigram weights (previous label or START -> label).
std::vector<std::string> token_feature_strings(const ConllSentence& sentence, std::size_t t);
// Word shape: upper -> X, lower -> x, digit -> d, other characters kept; runs of the same class
// longer than 2 are cut to 2 ("Blackburn" -> "Xxx", "1996-08-22" -> "dd-dd-dd").
std::string word_shape(const std::string& word);

// A sentence as feature ids per token, with its gold class labels.
struct FeaturizedSentence {
  std::vector<std::vector<std::uint32_t>> features;  // per token, increasing ids
  std::vector<int> labels;
  std::size_t size() const { return labels.size(); }
};

// The feature dictionary: built from training sentences; features of other sentences that it
// does not know are dropped.
class FeatureDictionary {
 public:
  void build(const std::vector<ConllSentence>& training);
  std::size_t size() const { return ids_.size(); }
  FeaturizedSentence featurize(const ConllSentence& sentence) const;
  std::vector<FeaturizedSentence> featurize(const std::vector<ConllSentence>& sentences) const;

 private:
  std::unordered_map<std::string, std::uint32_t> ids_;
};

}  // namespace mpg
