// NAACL/HLT 2003 English-French word alignment data (Mihalcea & Pedersen 2003; thesis §5.4,
// Table XIII), in the layout of the Berkeley Aligner's copy:
//   - sentence files `test.e` / `test.f` / `trial.e` / `trial.f`: one pair per line,
//         <s snum=0001> tok tok ... </s>
//     the English and French files list the same snum ids in the same order;
//   - gold alignment files `test.align` / `trial.align`: line k holds the links of the k-th
//     pair as white-space separated "f-e" (sure) or "f-e-P" (possible only), 0-based French then
//     English word indices; a possible link that is also sure is listed once, as sure (S ⊆ P);
//   - unlabeled parallel text (`hansard.36.1.house.debates.*.{e,f}`): line k of the English file
//     and line k of the French file are a pair of tokenized sentences.
// Tokens are kept as in the files (the corpus is mostly, not entirely, lower-cased; features
// lower-case them, lib/features/alignment_features.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mpg {

// A gold link between English word `english` and French word `french` (0-based).
struct WordLink {
  std::uint32_t english = 0;
  std::uint32_t french = 0;
  bool sure = true;  // false: possible only (P \ S)

  friend bool operator==(const WordLink&, const WordLink&) = default;
};

struct SentencePair {
  std::string id;                    // snum of a labeled pair ("0001"); "" for unlabeled text
  std::vector<std::string> english;  // tokens
  std::vector<std::string> french;
  std::vector<WordLink> links;       // gold, sorted by (english, french); empty if unlabeled

  std::size_t sure_links() const;
  std::size_t possible_only_links() const;
};

// One line of a sentence file: the snum id and the tokens between the tags.
struct NumberedSentence {
  std::string id;
  std::vector<std::string> tokens;
};

// Reads a sentence file. Throws mpg::InputError naming the file and line for a line that is not
// "<s snum=ID> ... </s>", an empty or repeated id, or an empty file. `.gz`/`.xz` are read
// transparently (lib/base/io.hpp).
std::vector<NumberedSentence> read_naacl_sentences(const std::string& path);
std::vector<NumberedSentence> parse_naacl_sentences(const std::string& text, const std::string& path);

// Reads a gold alignment file, one vector of links per line (in file order, not yet checked
// against sentence lengths). Throws mpg::InputError naming the file and line for a token that is
// not "F-E" or "F-E-P" with non-negative integers, or a link listed twice on a line.
std::vector<std::vector<WordLink>> read_naacl_alignments(const std::string& path);
std::vector<std::vector<WordLink>> parse_naacl_alignments(const std::string& text, const std::string& path);

// The labeled pairs of an English file, its French file and their gold alignment file, checked
// together: the same number of lines, the same ids in the same order, every link inside both
// sentences (errors name the offending file and line).
std::vector<SentencePair> read_naacl_labeled(const std::string& english_path, const std::string& french_path,
                                             const std::string& alignment_path);

// Unlabeled parallel text: line k of each file is a pair. Throws mpg::InputError for files with
// different line counts (naming both) or an empty line (naming the file and line).
std::vector<SentencePair> read_parallel_text(const std::string& english_path, const std::string& french_path);

// Sure and possible-only links as a dense tag grid over the |e| x |f| word pairs, position
// english * |f| + french: 0 = none (N), 1 = sure (S), 2 = possible only (R = P \ S).
std::vector<std::uint8_t> gold_tag_grid(const SentencePair& pair);

}  // namespace mpg
