// Penn Treebank reader: bracket parsing with file-and-line errors, zip archives, evalb-style
// preparation (function tags, traces), sentence length, and the document-level split of the NLTK
// sample (with its sizes beside the thesis's 4,071 / 163 / 270).
#include <catch2/catch.hpp>
#include <zip.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/base/sha256.hpp"
#include "lib/base/io.hpp"
#include "lib/data/ptb.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using mpg::PtbTree;

std::string error_of(const std::string& text) {
  try {
    mpg::parse_ptb(text, "x.mrg");
  } catch (const mpg::InputError& e) {
    return e.what();
  }
  return "";
}

// The registry's copy of the NLTK sample (datasets/registry.json, ptb_nltk_sample).
std::string sample_zip() {
  const auto& archive = mpg::harness::dataset_registry()["ptb_nltk_sample"]["variants"]["nltk"]["archive"];
  return mpg::harness::data_directory() + "/" + archive["file"].get<std::string>();
}

// A zip archive with the given (member, content) pairs.
std::string write_zip(const mpg::testing::TempDir& dir, const std::vector<std::pair<std::string, std::string>>& members) {
  const std::string path = dir.file("sample.zip");
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(archive != nullptr);
  for (const auto& [name, content] : members) {
    zip_source_t* source = zip_source_buffer(archive, content.data(), content.size(), 0);
    REQUIRE(source != nullptr);
    REQUIRE(zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE) >= 0);
  }
  REQUIRE(zip_close(archive) == 0);
  return path;
}

std::size_t leaves(const PtbTree& t, bool traces) {
  if (t.is_preterminal()) return traces || t.label != "-NONE-" ? 1 : 0;
  std::size_t n = 0;
  for (const auto& c : t.children) n += leaves(c, traces);
  return n;
}

}  // namespace

TEST_CASE("bracketed trees are read with their lines", "[ptb]") {
  const auto doc = mpg::parse_ptb("( (S (NP-SBJ (DT The) (NN dog))\n  (VP (VBZ barks)) (. .)))\n\n((NP (NN Yes)))\n", "x.mrg");
  REQUIRE(doc.trees.size() == 2);
  CHECK(doc.lines == std::vector<long>{1, 4});
  CHECK(mpg::to_bracketed(doc.trees[0]) == "( (S (NP-SBJ (DT The) (NN dog)) (VP (VBZ barks)) (. .)))");
  CHECK(mpg::tags_of(doc.trees[0]) == std::vector<std::string>{"DT", "NN", "VBZ", "."});
  CHECK(mpg::words_of(doc.trees[1]) == std::vector<std::string>{"Yes"});
}

TEST_CASE("malformed trees are errors naming file and line", "[ptb]") {
  CHECK_THAT(error_of("(S (NP (DT a) (NN b))\n"), StartsWith("x.mrg:1: unbalanced brackets"));
  CHECK_THAT(error_of("(S (NP (DT a)))\n)"), StartsWith("x.mrg:2: expected '('"));
  CHECK_THAT(error_of("(S\n (DT a b))"), StartsWith("x.mrg:2: a preterminal has exactly one word"));
  CHECK_THAT(error_of("(S\n\n (a))"), StartsWith("x.mrg:3: empty bracket"));
  CHECK_THAT(error_of("word (S (DT a))"), StartsWith("x.mrg:1: expected '(', found \"word\""));
  CHECK_THAT(error_of("(S (NP (DT a) b))"), Contains("a preterminal has exactly one word"));
  CHECK(error_of("") == "");
}

TEST_CASE("preparation strips function tags and removes traces as evalb does", "[ptb]") {
  CHECK(mpg::strip_function_tags("NP-SBJ-1") == "NP");
  CHECK(mpg::strip_function_tags("NP=2") == "NP");
  CHECK(mpg::strip_function_tags("PP-LOC-CLR") == "PP");
  CHECK(mpg::strip_function_tags("-NONE-") == "-NONE-");
  CHECK(mpg::strip_function_tags("-LRB-") == "-LRB-");
  CHECK(mpg::strip_function_tags("ADVP|PRT") == "ADVP|PRT");  // evalb cuts only at '-' and '='
  CHECK(mpg::strip_function_tags("S") == "S");
  // The example of evalb's README: constituents dominating only traces disappear.
  const PtbTree raw = mpg::parse_ptb(
      "( (S (NP-SBJ (PRP He)) (VP (VBD reported) (SBAR (-NONE- 0) (S (-NONE- *T*-1)))) (. .)) )", "x").trees[0];
  const PtbTree prepared = mpg::prepare_tree(raw);
  CHECK(mpg::to_bracketed(prepared) == "(S (NP (PRP He)) (VP (VBD reported)) (. .))");
  CHECK(mpg::sentence_length(raw) == 3);  // He reported . : traces excluded, punctuation counted
  CHECK(mpg::sentence_length(prepared) == 3);
  // A tree of traces only is empty after preparation.
  const PtbTree empty = mpg::prepare_tree(mpg::parse_ptb("( (S (-NONE- *)) )", "x").trees[0]);
  CHECK(mpg::sentence_length(empty) == 0);
}

TEST_CASE("zip archives are read member by member; errors name archive, member and line", "[ptb]") {
  mpg::testing::TempDir dir("ptb");
  const std::string good = write_zip(dir, {{"treebank/combined/wsj_0002.mrg", "((S (NP (NN b)) (VP (VB c))))\n"},
                                          {"treebank/combined/wsj_0001.mrg", "((S (NP (NN a)) (VP (VB c))))\n((NP (NN z)))"},
                                          {"treebank/combined/README", "not a tree"}});
  const auto docs = mpg::read_ptb_archive(good);
  REQUIRE(docs.size() == 2);
  CHECK(docs[0].name == good + "!treebank/combined/wsj_0001.mrg");
  CHECK(docs[0].trees.size() == 2);
  CHECK(docs[1].trees.size() == 1);
  const std::string bad = write_zip(dir, {{"treebank/combined/wsj_0001.mrg", "((S (NP (NN a))\n (VP (VB c) b c)))\n"}});
  CHECK_THROWS_WITH(mpg::read_ptb_archive(bad),
                    StartsWith(bad + "!treebank/combined/wsj_0001.mrg:2: a preterminal has exactly one word"));
  CHECK_THROWS_WITH(mpg::read_ptb_archive(good, "parsed/"), Contains("no member 'parsed/*.mrg'"));
  CHECK_THROWS_WITH(mpg::read_ptb_archive(dir.file("missing.zip")), StartsWith(dir.file("missing.zip") + ": cannot open zip archive"));
  const std::string not_zip = dir.file("plain.zip");
  mpg::write_file_atomically(not_zip, "(S (NN a))");
  CHECK_THROWS_AS(mpg::read_ptb_archive(not_zip), mpg::InputError);
}

TEST_CASE("the split assigns whole documents by file number and ignores document order", "[ptb]") {
  mpg::PtbSplitOptions options;
  CHECK(mpg::ptb_part_of(18, options) == mpg::PtbPart::testa);
  CHECK(mpg::ptb_part_of(19, options) == mpg::PtbPart::testb);
  CHECK(mpg::ptb_part_of(20, options) == mpg::PtbPart::testb);
  CHECK(mpg::ptb_part_of(21, options) == mpg::PtbPart::train);
  CHECK(mpg::wsj_file_number("a.zip!treebank/combined/wsj_0123.mrg") == 123);
  CHECK_THROWS_WITH(mpg::wsj_file_number("x/readme.mrg"), Contains("not named wsj_NNNN.mrg"));
  std::vector<mpg::PtbDocument> docs;
  for (int k : {1, 8, 9, 10, 11}) {
    mpg::PtbDocument d = mpg::parse_ptb("((S (NP (NN a)) (VP (VB c) (-NONE- *))))\n((S (NN a) (NN a) (NN a)))", "wsj_00" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ".mrg");
    docs.push_back(d);
  }
  options.max_length = 2;
  const auto split = mpg::split_ptb_sample(docs, options);
  CHECK(split.trees == 10);
  CHECK(split.too_long == 5);
  CHECK(split.train.size() == 2);
  CHECK(split.testa.size() == 1);
  CHECK(split.testb.size() == 2);
  CHECK(split.testb[0].document == "wsj_0009.mrg");
  CHECK(split.train_all_lengths.size() == 4);  // files 1 and 11, both trees
  std::reverse(docs.begin(), docs.end());
  const auto again = mpg::split_ptb_sample(docs, options);
  REQUIRE(again.testb.size() == 2);
  CHECK(again.testb[0].document == "wsj_0009.mrg");
  options.testb_residues = {8};
  CHECK_THROWS_WITH(mpg::split_ptb_sample(docs, options), Contains("in both testa and testb"));
  options.testb_residues = {10};
  CHECK_THROWS_WITH(mpg::split_ptb_sample(docs, options), Contains("outside 0..9"));
  options.testb_residues = {9, 0};
  options.validation_residues = {0};
  CHECK_THROWS_WITH(mpg::split_ptb_sample(docs, options), Contains("residue 0 is in both testb and validation"));
  // A validation part of the training documents: files 1 and 11 (mod 10 = 1), so no training
  // sentence and no tree for the grammar's treebank are left.
  options.validation_residues = {1};
  CHECK(mpg::ptb_part_of(11, options) == mpg::PtbPart::validation);
  const auto held_out = mpg::split_ptb_sample(docs, options);
  REQUIRE(held_out.validation.size() == 2);
  CHECK(held_out.validation[0].document == "wsj_0001.mrg");
  CHECK(held_out.train.empty());
  CHECK(held_out.train_all_lengths.empty());
  CHECK(held_out.testb.size() == 2);
}

TEST_CASE("the NLTK sample: 199 files, 3,914 trees, and the split's sizes", "[ptb_shared]") {
  const std::string zip = sample_zip();
  if (!std::filesystem::exists(zip)) {
    MPG_SKIP(zip << " not found (set MPG_DATA_DIR)");
  }
  const auto& archive = mpg::harness::dataset_registry()["ptb_nltk_sample"]["variants"]["nltk"]["archive"];
  const std::string bytes = mpg::read_file(zip);
  CHECK(mpg::sha256_hex(bytes) == archive["sha256"].get<std::string>());
  CHECK(bytes.size() == archive["bytes"].get<std::size_t>());
  const auto docs = mpg::read_ptb_archive(zip);
  CHECK(docs.size() == 199);
  std::size_t trees = 0, all = 0, words = 0;
  for (const auto& d : docs) {
    trees += d.trees.size();
    for (const auto& t : d.trees) {
      all += leaves(t, true);
      words += leaves(t, false);
    }
  }
  CHECK(trees == 3914);  // SOURCES.md
  CHECK(all == 100676);
  CHECK(words == 94084);
  const auto split = mpg::split_ptb_sample(docs);
  // Sentences of <= 10 words (traces excluded, punctuation counted): 393 of 3,914 (10.0%); the
  // thesis's 4,071 / 39,832 of sections 2-21 is 10.2%.
  CHECK(split.train.size() + split.testa.size() + split.testb.size() == 393);
  CHECK(split.train.size() == 257);
  CHECK(split.testa.size() == 54);
  CHECK(split.testb.size() == 82);
  CHECK(split.train_all_lengths.size() == 2585);  // every tree of the training documents
  for (const auto* part : {&split.train, &split.testa, &split.testb})
    for (const auto& s : *part) {
      CHECK(mpg::sentence_length(s.tree) >= 1);
      CHECK(mpg::sentence_length(s.tree) <= 10);
    }
}
