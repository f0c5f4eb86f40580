// An unsupervised word aligner in-tree, the stand-in for GIZA++ in thesis Table XIII ("+GIZA":
// the 1^5 H^5 3^3 4^3 scheme; GIZA++ is not packaged in Debian). It runs the first two stages of
// that scheme: IBM Model 1 (Brown et al. 1993), then the HMM alignment model (Vogel, Ney &
// Tillmann 1996, with Och & Ney 2003's empty word), both trained by EM on all the parallel text
// given, in both directions, and symmetrizes the two Viterbi alignments (Och & Ney 2003;
// Koehn, Och & Marcu 2003).
//
// A direction generates the target sentence f_1..f_J from the source sentence e_1..e_I and the
// empty word e_0 = NULL; every target word is aligned to one source position or to NULL.
// Model 1:  p(f, a | e) = prod_j t(f_j | e_{a_j}) / (I + 1).
//           E-step posteriors P(a_j = i) = t(f_j | e_i) / sum_i' t(f_j | e_i'); M-step
//           t(f | e) = expected count(e, f) / expected count(e).
// HMM:      p(f, a | e) = prod_j p(a_j | a_{j-1}, I) t(f_j | e_{a_j}), with 2I + 1 hidden states:
//           the I source words and I + 1 empty-word states NULL_i' that remember the last source
//           position i' in -1..I-1 (the HMM's jump then continues from i'). From a state whose
//           remembered position is i' (i' = -1 before the first word):
//             to word i:      (1 - p0) c(b(i - i')) / sum_{i''=0}^{I-1} c(b(i'' - i')),
//             to NULL_i':      p0,
//           b(d) = clamp(d, -max_jump, max_jump); the jump weights c are shared by all I, the
//           empty-word probability p0 is fixed. Posteriors by scaled forward-backward.
//           M-step: t as in Model 1 from the state posteriors; c by minorize-maximize iterations
//             c_b <- N_b / sum_ctx N_ctx m(ctx, b) / Z_ctx(c),   Z_ctx(c) = sum_b m(ctx, b) c_b,
//           (N_b: expected jumps in bucket b; N_ctx: expected jumps out of context (I, i');
//           m(ctx, b): the number of targets of bucket b in that context), each of which increases
//           the expected complete log-likelihood, so EM's log-likelihood never decreases (the
//           usual count-and-normalize update of c does not guarantee that).
// Log-likelihood reported per iteration: sum over pairs of log p(f | e) under the parameters the
// E-step used (Model 1 without the constant length term).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/data/naacl_alignment.hpp"

namespace mpg {

// A sentence-aligned corpus as word ids, the same word ids for every occurrence; id 0 is the
// empty word on both sides. Words are lower-cased (lowercase_word).
struct IndexedCorpus {
  std::vector<std::vector<std::uint32_t>> english, french;  // per pair, ids >= 1
  std::vector<std::string> english_words = {"<null>"};      // id -> word
  std::vector<std::string> french_words = {"<null>"};

  // Appends pairs, adding new words to the vocabularies.
  void add(const std::vector<SentencePair>& pairs);
  // Ids of the words of one side of a pair (lower-cased); 0 for a word not in the vocabulary.
  std::vector<std::uint32_t> english_ids(const std::vector<std::string>& words) const;
  std::vector<std::uint32_t> french_ids(const std::vector<std::string>& words) const;
  std::size_t size() const { return english.size(); }

 private:
  std::unordered_map<std::string, std::uint32_t> english_index_, french_index_;
};

// Lower-cases ASCII letters and the upper-case letters of UTF-8 Latin-1 Supplement and Latin
// Extended-A (É -> é, Œ -> œ); other bytes are kept.
std::string lowercase_word(const std::string& word);

enum class AlignmentDirection {
  english_to_french,  // p(french | english): each French word aligned to an English word or NULL
  french_to_english,  // p(english | french)
};

struct HmmAlignerOptions {
  int model1_iterations = 5;     // the 1^5 of the 1^5 H^5 3^3 4^3 scheme
  int hmm_iterations = 5;        // its H^5
  double null_probability = 0.2; // p0 of the HMM's empty-word states, in (0, 1)
  int max_jump = 7;              // jumps beyond +-max_jump share one weight (>= 1)
  int jump_mm_iterations = 20;   // minorize-maximize steps per M-step of the jump weights
};

// One direction's trained model.
class DirectionalHmmAligner {
 public:
  DirectionalHmmAligner() = default;
  DirectionalHmmAligner(AlignmentDirection direction, const HmmAlignerOptions& options);

  // Trains on `corpus`: Model 1, then the HMM (starting from Model 1's t). Appends each
  // iteration's log-likelihood to model1_log_likelihood() / hmm_log_likelihood().
  void train(const IndexedCorpus& corpus);

  // Posterior P(a_j = i | e, f) of the HMM (of Model 1 before any HMM iteration): a J x (I + 1)
  // row-major matrix, column 0 = NULL, column i = source word i (1-based). Source and target are
  // the direction's (english/french for english_to_french).
  std::vector<double> posteriors(const std::vector<std::uint32_t>& source,
                                 const std::vector<std::uint32_t>& target) const;
  // The Viterbi alignment: per target word its source word index (0-based), -1 for NULL.
  std::vector<int> viterbi(const std::vector<std::uint32_t>& source, const std::vector<std::uint32_t>& target) const;
  // log p(target | source) under the current parameters.
  double log_likelihood(const std::vector<std::uint32_t>& source, const std::vector<std::uint32_t>& target) const;

  const std::vector<double>& model1_log_likelihood() const { return model1_log_likelihood_; }
  const std::vector<double>& hmm_log_likelihood() const { return hmm_log_likelihood_; }
  double translation(std::uint32_t source, std::uint32_t target) const;  // t(target | source)
  AlignmentDirection direction() const { return direction_; }
  bool uses_hmm() const { return hmm_trained_; }
  // The HMM's transition probability from remembered position `from` (-1..I-1) to source word
  // `to` (0..I-1), without the (1 - p0) factor.
  double jump_probability(int from, int to, int source_length) const;
  // All of them: row p + 1 = from remembered position p (-1..I-1), column i = to word i.
  std::vector<double> jump_matrix(int source_length) const;

 private:
  // The emission matrix t(target_j | source_i), J x (I + 1), column 0 = NULL.
  std::vector<double> emissions(const std::vector<std::uint32_t>& source,
                                const std::vector<std::uint32_t>& target) const;
  // The same for training pair k, from its parameter ids.
  std::vector<double> training_emissions(std::size_t k) const;
  // Indexes every (source, target) word pair of the corpus (NULL included): cells_[k] holds the
  // parameter id of each cell of pair k's J x (I + 1) emission matrix.
  void index_parameters(const IndexedCorpus& corpus);
  // t(f | e) <- count(e, f) / count(e) from expected counts per parameter id.
  void normalize_counts(const std::vector<double>& counts);
  double model1_iteration(const IndexedCorpus& corpus);
  double hmm_iteration(const IndexedCorpus& corpus);
  const std::vector<std::vector<std::uint32_t>>& sources(const IndexedCorpus& corpus) const;
  const std::vector<std::vector<std::uint32_t>>& targets(const IndexedCorpus& corpus) const;

  AlignmentDirection direction_ = AlignmentDirection::english_to_french;
  HmmAlignerOptions options_;
  std::unordered_map<std::uint64_t, std::uint32_t> parameter_ids_;  // key source << 32 | target
  std::vector<std::uint32_t> parameter_source_;                     // source word of each id
  std::vector<double> translation_;                                 // t by id
  std::vector<std::vector<std::uint32_t>> cells_;                   // training pairs' ids
  bool translation_trained_ = false;                                // false: t uniform
  double uniform_translation_ = 1.0;                                // t before any Model 1 iteration
  std::vector<double> jump_weights_;                                // c_b, b = -max_jump..max_jump
  bool hmm_trained_ = false;
  std::vector<double> model1_log_likelihood_, hmm_log_likelihood_;
};

// Symmetrization of two directional alignments of one pair, as links (english, french):
enum class Symmetrization {
  intersection,          // links in both directions
  union_of_both,         // links in either
  grow_diag_final,       // Koehn et al. 2003: intersection, grown by neighbouring (diagonals
                         // included) union links that align a yet-unaligned word, then any union
                         // link with a yet-unaligned word
  grow_diag_final_and,   // the same, the final step only for links whose two words are unaligned
};

// english_to_french[j] = English index of French word j (or -1); french_to_english[i] = French
// index of English word i (or -1). Links sorted by (english, french).
std::vector<WordLink> symmetrize(const std::vector<int>& english_to_french, const std::vector<int>& french_to_english,
                                 std::size_t english_length, std::size_t french_length, Symmetrization method);

// Both directions trained on the same corpus.
struct BidirectionalAligner {
  IndexedCorpus corpus;
  DirectionalHmmAligner english_to_french;
  DirectionalHmmAligner french_to_english;
  double seconds = 0.0;

  // Trains both directions on `pairs` (all the parallel text: labeled pairs may be included,
  // their gold links are not used).
  static BidirectionalAligner train(const std::vector<SentencePair>& pairs, const HmmAlignerOptions& options = {});
  // The symmetrized Viterbi alignment of a pair (its words looked up in the training vocabulary;
  // unknown words get id 0 and align by position only).
  std::vector<WordLink> align(const SentencePair& pair, Symmetrization method) const;
  // Posterior of each link (english, french) in each direction: |e| x |f| row-major.
  std::vector<double> english_to_french_posteriors(const SentencePair& pair) const;
  std::vector<double> french_to_english_posteriors(const SentencePair& pair) const;
};

}  // namespace mpg
