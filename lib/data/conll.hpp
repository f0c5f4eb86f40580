// CoNLL-2003 named-entity data (thesis §5.2, Tables IX and X): the 4-column IOB1 reader, the
// statistics of Table IX, and the token feature templates shared by the CRF and the linear-chain
// F1 game. Token- and entity-level F1 of labellings are lib/eval/sequence_measures.hpp.
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
