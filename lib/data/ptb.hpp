// Penn Treebank bracketed trees (`.mrg`, Marcus et al. 1993) for the parsing experiments of thesis
// §5.5 / Table XIV: the reader (plain or gzipped files, or the members of a zip archive such as
// NLTK's treebank.zip), the evalb-style preparation of a tree, and the document-level split of the
// NLTK 10% sample into train / testa / testb (sections 2-23 are not available here).
//
// Preparation (prepare_tree), in this order:
//   1. the PTB's unlabeled outer bracket "( (S ...) )" is removed (the tree is its one child);
//   2. function tags and co-indices are stripped from nonterminal labels as evalb does
//      ("NP-SBJ-1" -> "NP", "NP=2" -> "NP"; labels starting with '-' such as -NONE-, -LRB- keep
//      their form); the treebank's ambiguous "A|B" labels stay whole ("ADVP|PRT"), as evalb
//      cuts labels only at '-' and '=' (until issue 58 we kept "ADVP");
//   3. -NONE- traces are deleted, and so is every constituent left without words.
// Punctuation stays in the tree and in the tag sequence that is parsed; the evalb scorer ignores
// it (lib/metrics/cfg_hamming.hpp). Sentence length counts every word except -NONE- traces
// (evalb's DELETE_LABEL_FOR_LENGTH -NONE-), punctuation included.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mpg {

// A bracketed tree. A preterminal has a POS tag as label, a word, and no children.
struct PtbTree {
  std::string label;  // nonterminal or POS tag; "" for the PTB's unlabeled outer bracket
  std::string word;   // preterminals only
  std::vector<PtbTree> children;

  bool is_preterminal() const { return children.empty(); }
  bool operator==(const PtbTree&) const = default;
};

// The trees of one file, with the line on which each starts.
struct PtbDocument {
  std::string name;  // file path, or "<archive>!<member>" for a zip member
  std::vector<PtbTree> trees;
  std::vector<long> lines;
};

// Parses bracketed trees from text (`name` only names it in messages). Throws mpg::InputError
// naming the file and line for unbalanced brackets, a preterminal without a word or with more
// than one, a word outside a bracket, or a node with neither label nor children.
PtbDocument parse_ptb(const std::string& text, const std::string& name);
// One `.mrg` file (plain or .gz, see mpg::read_file).
PtbDocument read_ptb_file(const std::string& path);
// Every member of a zip archive whose path starts with `prefix` and ends with `suffix`, in order
// of member name. Throws mpg::InputError naming the archive (and member and line) if it cannot be
// opened or read, or if no member matches.
std::vector<PtbDocument> read_ptb_archive(const std::string& zip_path,
                                          const std::string& prefix = "treebank/combined/",
                                          const std::string& suffix = ".mrg");

// Bracketed one-line form "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))"; the unlabeled outer
// bracket prints as "( ...)".
std::string to_bracketed(const PtbTree& tree);

// evalb's label normalization (step 2 above) of one label.
std::string strip_function_tags(const std::string& label);
// Steps 1-3 above. Returns a tree with no words at all (label "" and no children) if every word
// is a trace.
PtbTree prepare_tree(const PtbTree& tree);

// POS tags and words of the preterminals, left to right.
std::vector<std::string> tags_of(const PtbTree& tree);
std::vector<std::string> words_of(const PtbTree& tree);
// Words that are not -NONE- traces (evalb's length).
std::size_t sentence_length(const PtbTree& tree);

// ---- The split of the NLTK sample (thesis: sections 2-21 / 22 / 23 = 4,071 / 163 / 270) --------
enum class PtbPart { train, validation, testa, testb };
std::string to_string(PtbPart part);

// Whole documents go to one part by their WSJ file number k (wsj_0001 -> 1): k mod `modulus` in
// `testa_residues` -> testa, in `testb_residues` -> testb, in `validation_residues` -> validation
// (a held-out part of the training documents for choosing hyper-parameters; none by default),
// otherwise train. The default puts 1 file in 10 into testa and 2 into testb, so every part mixes
// early and late files of the sample.
struct PtbSplitOptions {
  int modulus = 10;
  std::vector<int> testa_residues = {8};
  std::vector<int> testb_residues = {9, 0};
  std::vector<int> validation_residues = {};
  std::size_t max_length = 10;  // sentences with more words (traces excluded) are dropped
};

// The WSJ file number of a document named ".../wsj_NNNN.mrg"; throws mpg::Error otherwise.
int wsj_file_number(const std::string& document_name);
PtbPart ptb_part_of(int file_number, const PtbSplitOptions& options);

struct PtbSentence {
  PtbTree tree;           // prepared (prepare_tree)
  std::string document;   // name of its file
  long line = 0;          // where the original tree starts
};

struct PtbSplit {
  std::vector<PtbSentence> train, validation, testa, testb;
  // Every tree of the training documents (not the validation ones), of any length (at least one
  // word): the treebank that a grammar's rule set and the PCFG stand-ins are read from (the
  // Stanford parser of Table XIV was trained on all of sections 2-21; 257 short sentences leave
  // many test sentences unparsable).
  std::vector<PtbSentence> train_all_lengths;
  std::size_t trees = 0;    // read, before the length filter
  std::size_t too_long = 0; // dropped by the length filter (or with no words at all)
};

// Prepares every tree, keeps those of length 1..max_length, and splits them by document. Order:
// documents by name, trees in file order. Throws mpg::Error for a bad option (modulus < 1, a
// residue outside 0..modulus-1 or in two parts) or a document name without a WSJ number.
PtbSplit split_ptb_sample(const std::vector<PtbDocument>& documents, const PtbSplitOptions& options = {});

}  // namespace mpg
