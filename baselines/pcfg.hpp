// STAND-IN for the Stanford parser of thesis Table XIV (Klein & Manning 2003's unlexicalized
// parser, not available here): maximum-likelihood PCFGs read off the training trees and decoded by
// Viterbi CYK over the given POS tags (lib/structures/cfg.hpp). Two presets:
//   treebank:   the plain treebank grammar (Charniak 1996): full-memory right binarization
//               (h = -1, equivalent to the n-ary rules), no annotation;
//   markovized: parent annotation (v = 2) and second-order horizontal Markovization (h = 2),
//               the basic annotation of Klein & Manning 2003 (their Table 2), without their
//               hand-made splits, tag splitting or lexicon: only a stand-in.
// P(A -> B C | A) and P(D -> tag | D) are relative frequencies over all rules of their left-hand
// side; P(TOP -> X) over the roots. Backoff (the Stanford parser, being smoothed, always parses):
// a sentence the grammar cannot parse is parsed with the most general grammar of the same trees,
// the unannotated '@X' (h = 0) PCFG; only a sentence that one cannot parse either (an unknown tag)
// gets predict_tree's flat fallback tree. TreePrediction::fallback marks both cases.
#pragma once

#include <string>
#include <vector>

#include "lib/data/ptb.hpp"
#include "lib/structures/cfg.hpp"

namespace mpg {

struct PcfgOptions {
  BinarizationOptions binarization{-1, false};  // treebank preset
};
// "treebank" | "markovized"; throws mpg::Error otherwise.
PcfgOptions pcfg_preset(const std::string& name);

struct Pcfg {
  Grammar grammar;
  std::vector<double> log_probabilities;  // per rule id
  BinarizationOptions binarization;
  std::string fallback_label;
  // The h = 0, unannotated PCFG of the same trees (empty when the grammar is that one already).
  std::vector<Pcfg> backoff;
};

// From prepared trees (prepare_tree). Throws mpg::Error for no trees.
Pcfg train_pcfg(const std::vector<PtbTree>& trees, const PcfgOptions& options = {});
// Viterbi parse of a tag sequence, unbinarized and with annotations removed.
TreePrediction pcfg_parse(const Pcfg& pcfg, const std::vector<std::string>& tags, const std::vector<std::string>& words);

}  // namespace mpg
