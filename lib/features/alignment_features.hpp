// Word-pair features for discriminative word alignment, in the manner of Taskar, Lacoste-Julien
// & Klein 2005 (thesis §5.4 re-created them "with best efforts" and does not list them; these are
// ours). Every feature is a function of one word pair (e_i, f_j) of a sentence pair with I
// English and J French words (0-based i, j; words lower-cased), and of counts over a parallel
// corpus (all the available text; gold links are never used):
//     C(e) = pairs whose English side contains e,  C(f) likewise,  C(e, f) = pairs containing both,
//     N = number of pairs.
//
//   name                        definition
//   bias                        1
//   dice                        Dice(e, f) = 2 C(e, f) / (C(e) + C(f))
//   dice_best_english           1 if f_j has the largest Dice with e_i among the pair's French words (ties count)
//   dice_best_french            1 if e_i has the largest Dice with f_j among the pair's English words
//   dice_best_both              both of the above (mutual best: competitive linking, Melamed 2000)
//   dice_diagonal               mean Dice of the diagonal neighbours (e_{i-1}, f_{j-1}) and (e_{i+1}, f_{j+1}),
//                               0 beyond the sentence ends
//   relative_distance           | (i + 1/2) / I - (j + 1/2) / J |, the distortion from the diagonal
//   identical                   1 if e == f (numbers, names, punctuation, cognates)
//   prefix4                     1 if e != f, both have >= 4 bytes and the same first 4 bytes (cognates)
//   edit_similarity             1 - Levenshtein(e, f) / max(|e|, |f|) in bytes, for words of >= 3 bytes; else 0
//   punctuation_both            1 if both words are punctuation (no letter or digit)
//   punctuation_one             1 if exactly one of them is
//   frequency_difference        | ln (1 + C(e)) - ln (1 + C(f)) | / ln (1 + N)
// with the aligner ("+IBM1/HMM (GIZA++ stand-in)", lib/features/hmm_aligner.hpp):
//   aligner_intersection        1 if both directions' Viterbi alignments link (i, j)
//   aligner_grow_diag_final     1 if the grow-diag-final symmetrization links (i, j)
// and, only with AlignmentFeatureOptions::aligner_posteriors:
//   aligner_posterior           (P_e->f(i, j) + P_f->e(i, j)) / 2, the two HMMs' link posteriors
#pragma once

#include <Eigen/SparseCore>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/data/naacl_alignment.hpp"
#include "lib/features/hmm_aligner.hpp"
#include "lib/game/alignment_action.hpp"

namespace mpg {

using AlignmentFeatureMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Sentence-level co-occurrence counts of a parallel corpus (words lower-cased).
class AssociationStatistics {
 public:
  explicit AssociationStatistics(const std::vector<SentencePair>& corpus);

  double dice(const std::string& english, const std::string& french) const;  // lower-cased words
  std::size_t english_count(const std::string& english) const;
  std::size_t french_count(const std::string& french) const;
  std::size_t pairs() const { return pairs_; }

 private:
  std::size_t pairs_ = 0;
  std::unordered_map<std::string, std::uint32_t> english_ids_, french_ids_;
  std::vector<std::uint32_t> english_counts_, french_counts_;
  std::unordered_map<std::uint64_t, std::uint32_t> pair_counts_;
};

struct AlignmentFeatureOptions {
  bool aligner = false;             // add the aligner_* features (needs a trained aligner)
  bool aligner_posteriors = false;  // also aligner_posterior
};

// The names of the features, in column order.
std::vector<std::string> alignment_feature_names(const AlignmentFeatureOptions& options);

// One sentence pair ready for learning: its word-pair features and its gold links.
struct AlignmentInstance {
  std::string id;
  std::size_t english_length = 0;
  std::size_t french_length = 0;
  AlignmentFeatureMatrix features;  // (I J) x d, row english * J + french
  AlignmentAction gold;             // sure (r = 0) and possible-only (r = 1) codes

  std::size_t positions() const { return english_length * french_length; }
};

// The gold links of a pair as an action (lib/game/alignment_action.hpp).
AlignmentAction gold_action(const SentencePair& pair);

// Features of a labeled pair. `aligner` must be non-null when options.aligner is set (throws
// mpg::Error otherwise).
AlignmentInstance featurize_pair(const SentencePair& pair, const AssociationStatistics& statistics,
                                 const BidirectionalAligner* aligner, const AlignmentFeatureOptions& options);
// The same for several pairs, in order (in parallel; the result does not depend on the threads).
std::vector<AlignmentInstance> featurize_pairs(const std::vector<SentencePair>& pairs,
                                               const AssociationStatistics& statistics,
                                               const BidirectionalAligner* aligner,
                                               const AlignmentFeatureOptions& options);

}  // namespace mpg
