// Our measures beside the fields' official scorers, run on the same crafted inputs: conlleval.pl
// (entity F1), LETOR's Eval-Score-4.0.pl and 3.0.pl (NDCG@k, P@k, MAP, Mean NDCG), EVALB with
// COLLINS.prm (bracket counts) and wa_eval_align.pl (AER). The scorers are third-party programs
// in ../shared/scorers ($MPG_SCORERS_DIR; SOURCES.md there): they are run, never copied. Where
// they are absent the cases report SKIPPED. Each input is chosen for a rule the scorers settle:
// IOB1 chunk boundaries; punctuation, traces, unary duplicates, function tags, ADVP|PRT and the
// unlabeled outer bracket; LETOR queries shorter than k, with tied scores and without a relevant
// document; alignments with sure and possible links.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/data/ptb.hpp"
#include "lib/eval/ranking_measures.hpp"
#include "lib/eval/sequence_measures.hpp"
#include "lib/metrics/aer.hpp"
#include "lib/metrics/cfg_hamming.hpp"
#include "tests/run_mpg.hpp"
#include "tests/shared_data.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

namespace {

using mpg::testing::quote;
using mpg::testing::read_text;
using mpg::testing::TempDir;

std::string scorer(const std::string& name) { return mpg::testing::shared_scorers_directory() + "/" + name; }

// Runs a shell command reading `input`, with its standard output in a file of `dir`; returns that output.
std::string output_of(const TempDir& dir, const std::string& command, const std::string& input = "/dev/null") {
  const std::string out = dir.file("scorer.out");
  const int status = std::system((command + " <" + quote(input) + " >" + quote(out) + " 2>/dev/null").c_str());
  INFO(command);
  REQUIRE(status == 0);
  return read_text(out);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The numbers of a line after its first `skip` fields (split at white space).
std::vector<double> numbers_after(const std::string& line, std::size_t skip) {
  std::istringstream in(line);
  std::vector<double> values;
  std::string field;
  for (std::size_t i = 0; in >> field; ++i)
    if (i >= skip) values.push_back(std::stod(field));
  return values;
}

// ---- LETOR --------------------------------------------------------------------------------------

struct LetorQuery {
  std::vector<int> relevance;
  std::vector<double> scores;
};

// Queries shorter than k = 10 (1, 3, 5 and 8 documents, as 403 of MQ2008's 784), longer than 10,
// one without a relevant document; tied scores in most (the scripts keep file order among ties,
// as ranking_by_scores without keys keeps index order).
const std::vector<LetorQuery> kLetorQueries = {
    {{2, 0, 1}, {0.5, 0.5, 0.1}},
    {{0, 1, 2, 0, 0, 1, 0, 2, 0, 0, 1, 0}, {0.9, 0.3, 0.3, 0.8, 0.1, 0.3, 0.5, 0.2, 0.9, 0.0, 0.4, 0.6}},
    {{0, 0, 0, 0, 0}, {0.3, 0.1, 0.3, 0.2, 0.0}},
    {{1}, {0.0}},
    {{0, 0, 1, 0, 2, 0, 0, 1}, {0.2, 0.7, 0.7, 0.1, 0.4, 0.4, 0.9, 0.3}},
};

// Writes the feature and prediction files of kLetorQueries (qid 1, 2, ...); `letor4` adds the
// "inc = .. prob = .." tail that Eval-Score-4.0.pl requires.
void write_letor(const TempDir& dir, bool letor4) {
  std::string features, predictions;
  for (std::size_t q = 0; q < kLetorQueries.size(); ++q)
    for (std::size_t j = 0; j < kLetorQueries[q].relevance.size(); ++j) {
      features += std::to_string(kLetorQueries[q].relevance[j]) + " qid:" + std::to_string(q + 1) + " 1:0.5 #docid = d" +
                  std::to_string(q + 1) + "_" + std::to_string(j) + (letor4 ? " inc = 1 prob = 0.5" : "") + "\n";
      predictions += std::to_string(kLetorQueries[q].scores[j]) + "\n";
    }
  dir.write("features.txt", features);
  dir.write("predictions.txt", predictions);
}

mpg::QueryMetrics our_metrics(const LetorQuery& q, std::size_t max_k, mpg::NdcgPastEnd past_end) {
  const Eigen::VectorXd scores = Eigen::Map<const Eigen::VectorXd>(q.scores.data(), static_cast<Eigen::Index>(q.scores.size()));
  return mpg::evaluate_ranking(mpg::ranking_by_scores(scores), q.relevance, mpg::DcgDiscount::letor, max_k, {}, past_end);
}

// ---- EVALB --------------------------------------------------------------------------------------

// Gold and test trees (written without the PTB's outer bracket).
const std::vector<std::pair<const char*, const char*>> kTreePairs = {
    // punctuation attached differently: deleted before spans are computed
    {"(S (NP-SBJ (DT The) (NN dog)) (VP (VBZ barks)) (. .))", "(S (NP (DT The) (NN dog)) (VP (VBZ barks) (. .)))"},
    // a trace and its emptied phrase
    {"(S (NP-SBJ-1 (PRP He)) (VP (VBD left) (NP (-NONE- *T*-1))) (. .))", "(S (NP (PRP He)) (VP (VBD left)) (. .))"},
    // unary duplicates: NP over NP over the same span
    {"(S (NP (NP (DT the) (NN man))) (VP (VBD ran)))", "(S (NP (DT the) (NN man)) (VP (VBD ran)))"},
    // ADVP|PRT is a label of its own; PRT and ADVP are equal
    {"(S (NP (PRP we)) (VP (VBD gave) (ADVP|PRT (RP up))))", "(S (NP (PRP we)) (VP (VBD gave) (PRT (RP up))))"},
    {"(VP (VB give) (PRT (RP in)) (, ,) (ADVP (RB now)))", "(VP (VB give) (ADVP (RP in)) (, ,) (ADVP (RB now)))"},
    // function tags and '=' indices; a wrong attachment
    {"(S (NP-SBJ=2 (NNS prices)) (VP (VBD rose) (NP-EXT (CD 5) (NN %))))",
     "(S (NP (NNS prices)) (VP (VBD rose) (NP (CD 5)) (NN %)))"},
    // quotes and a phrase of punctuation only
    {"(S (`` ``) (NP (NNP Yes)) ('' '') (PRN (, ,) (: :)) (NP (PRP he)) (VP (VBD said)))",
     "(S (`` ``) (NP (NNP Yes) ('' '') (, ,) (: :) (NP (PRP he))) (VP (VBD said)))"},
    // a one-word sentence, and TOP
    {"(NP (NN Yes))", "(FRAG (NN Yes))"},
    {"(TOP (S (NP (NN a)) (VP (VBZ b))))", "(S (NP (NN a)) (VP (VBZ b)))"},
};

struct EvalbLine {
  int status;  // 0 scored, 1 error, 2 skipped
  double matched, gold, test;
};

// EVALB's per-sentence lines (between its first two rules of '=').
std::vector<EvalbLine> evalb_lines(const std::string& output) {
  std::vector<EvalbLine> out;
  int rules = 0;
  for (const std::string& line : lines_of(output)) {
    if (line.rfind("=====", 0) == 0) {
      ++rules;
      continue;
    }
    if (rules != 1) continue;
    const std::vector<double> v = numbers_after(line, 0);  // ID Len Stat Recall Prec Matched Gold Test ...
    REQUIRE(v.size() >= 8);
    out.push_back({static_cast<int>(v[2]), v[5], v[6], v[7]});
  }
  return out;
}

// The value after '=' of EVALB's first summary line starting with `name`.
double evalb_summary(const std::string& output, const std::string& name) {
  for (const std::string& line : lines_of(output))
    if (line.rfind(name, 0) == 0) return std::stod(line.substr(line.find('=') + 1));
  FAIL("no line '" << name << "' in EVALB's output");
  return 0.0;
}

// ---- AER ----------------------------------------------------------------------------------------

struct AlignedPair {
  std::uint32_t english, french;  // sentence lengths
  std::vector<std::array<std::uint32_t, 2>> sure, possible, proposed;  // 1-based (english, french)
};

const std::vector<AlignedPair> kAlignedPairs = {
    {3, 3, {{1, 1}, {2, 3}}, {{2, 2}, {3, 3}}, {{1, 1}, {2, 2}, {3, 1}}},
    {2, 4, {{1, 2}}, {{2, 3}, {2, 4}}, {{1, 2}, {2, 4}, {2, 3}, {1, 1}}},
    {4, 2, {{1, 1}, {2, 1}, {3, 2}, {4, 2}}, {}, {{1, 1}, {4, 2}}},
};

std::uint32_t position_of(const AlignedPair& pair, const std::array<std::uint32_t, 2>& link) {
  return (link[0] - 1) * pair.french + (link[1] - 1);
}

mpg::AlignmentAction gold_of(const AlignedPair& pair) {
  mpg::AlignmentAction gold;
  for (const auto& l : pair.sure) gold.push_back(mpg::link_code(position_of(pair, l)));
  for (const auto& l : pair.possible) gold.push_back(mpg::link_code(position_of(pair, l), true));
  std::sort(gold.begin(), gold.end());
  return gold;
}

mpg::AlignmentAction proposal_of(const AlignedPair& pair) {
  mpg::AlignmentAction proposal;
  for (const auto& l : pair.proposed) proposal.push_back(mpg::link_code(position_of(pair, l)));
  std::sort(proposal.begin(), proposal.end());
  return proposal;
}

// wa_eval_align.pl's "AER = x" line.
double script_aer(const std::string& output) {
  for (const std::string& line : lines_of(output))
    if (line.find("AER") != std::string::npos) return std::stod(line.substr(line.find('=') + 1));
  FAIL("no AER line in wa_eval_align.pl's output");
  return 0.0;
}

}  // namespace

TEST_CASE("The official scorers' folder: $MPG_SCORERS_DIR, else ../shared/scorers", "[official_scorers]") {
  const char* set = std::getenv("MPG_SCORERS_DIR");
  if (set == nullptr || *set == '\0') {
    CHECK(mpg::testing::shared_scorers_directory() == std::string(MPG_SOURCE_DIR) + "/../shared/scorers");
  } else {
    CHECK(mpg::testing::shared_scorers_directory() == set);
  }
}

TEST_CASE("Entity F1 equals conlleval.pl on IOB1 edge cases", "[official_scorers_shared]") {
  if (!std::filesystem::exists(scorer("conlleval.pl"))) MPG_SKIP(scorer("conlleval.pl") << " not found (set MPG_SCORERS_DIR)");
  // (gold, guessed) per sentence: B- between same-type tokens, I- after another type, B- after O,
  // a chunk ending at the sentence's end, a one-token sentence, false positives only.
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> sentences = {
      {{"I-PER", "I-PER", "O", "I-LOC", "B-LOC"}, {"I-PER", "B-PER", "O", "I-LOC", "I-LOC"}},
      {{"B-ORG", "I-ORG", "O", "I-MISC"}, {"I-ORG", "I-ORG", "O", "I-PER"}},
      {{"O", "O", "I-LOC"}, {"O", "I-LOC", "I-LOC"}},
      {{"I-PER", "I-LOC", "I-LOC"}, {"I-PER", "I-PER", "I-LOC"}},
      {{"I-MISC"}, {"I-MISC"}},
      {{"O", "O", "O"}, {"I-ORG", "O", "B-ORG"}},
      {{"I-ORG", "B-ORG", "I-ORG"}, {"I-ORG", "I-ORG", "I-ORG"}},
  };
  TempDir dir("conlleval");
  std::string text;
  mpg::ChunkCounts ours;
  std::size_t tokens = 0;
  for (const auto& [gold, guessed] : sentences) {
    for (std::size_t t = 0; t < gold.size(); ++t) text += std::string("w") + std::to_string(tokens++) + " " + gold[t] + " " + guessed[t] + "\n";
    text += "\n";
    ours.add(mpg::conlleval_counts(gold, guessed));
  }
  const std::string output =
      output_of(dir, std::string("perl ") + quote(scorer("conlleval.pl")), dir.write("tagged.txt", text));
  std::size_t gold = 0, guessed = 0, correct = 0;
  for (int c = 1; c < mpg::kConllLabelCount; ++c) {
    gold += ours.gold[static_cast<std::size_t>(c)];
    guessed += ours.guessed[static_cast<std::size_t>(c)];
    correct += ours.correct[static_cast<std::size_t>(c)];
  }
  const std::string expected = std::string("processed ") + std::to_string(tokens) + " tokens with " + std::to_string(gold) +
                               " phrases; found: " + std::to_string(guessed) + " phrases; correct: " +
                               std::to_string(correct) + ".";
  CHECK(lines_of(output).at(0) == expected);
  CHECK(gold == 11);
  CHECK(correct == 2);
  // Per class: "<class>: precision: p%; recall: r%; FB1: f  <found>", f to 2 decimals.
  int classes = 0;
  for (const std::string& line : lines_of(output)) {
    for (int c = 1; c < mpg::kConllLabelCount; ++c) {
      const std::string& name = mpg::conll_label_names()[static_cast<std::size_t>(c)];
      if (line.find(name + ":") == std::string::npos) continue;
      ++classes;
      std::string cleaned = line;
      for (char& ch : cleaned)
        if (ch == '%' || ch == ';') ch = ' ';
      // Fields: "<class>:" "precision:" p "recall:" r "FB1:" f found.
      const std::vector<double> v = numbers_after(cleaned, 6);
      REQUIRE(v.size() == 2);
      INFO(line);
      CHECK(std::abs(v[0] - 100.0 * ours.f1(c)) <= 0.005 + 1e-9);
      CHECK(v[1] == static_cast<double>(ours.guessed[static_cast<std::size_t>(c)]));
    }
  }
  CHECK(classes == 4);
}

TEST_CASE("NDCG@k, P@k, MAP and Mean NDCG equal LETOR's Eval-Score-4.0.pl (0 past the end)", "[official_scorers_shared]") {
  if (!std::filesystem::exists(scorer("Eval-Score-4.0.pl"))) MPG_SKIP(scorer("Eval-Score-4.0.pl") << " not found (set MPG_SCORERS_DIR)");
  TempDir dir("letor4");
  write_letor(dir, true);
  output_of(dir, std::string("perl ") + quote(scorer("Eval-Score-4.0.pl")) + " " + quote(dir.file("features.txt")) + " " +
                     quote(dir.file("predictions.txt")) + " " + quote(dir.file("scores.txt")) + " 1");
  // Two blocks, each a header and one row per qid (1, 2, ...) then "Average": P@1..10 MAP, then
  // NDCG@1..10 MeanNDCG, all to 4 decimals.
  std::vector<std::vector<double>> precision_rows, ndcg_rows;
  int block = -1;
  for (const std::string& line : lines_of(read_text(dir.file("scores.txt")))) {
    if (line.rfind("qid", 0) == 0) {
      ++block;
      continue;
    }
    if (line.empty()) continue;
    (block == 0 ? precision_rows : ndcg_rows).push_back(numbers_after(line, 1));
  }
  const std::size_t n = kLetorQueries.size();
  REQUIRE(precision_rows.size() == n + 1);
  REQUIRE(ndcg_rows.size() == n + 1);
  const double half_unit = 0.00005 + 1e-9;
  mpg::RankingMetrics average, carried;
  for (std::size_t q = 0; q < n; ++q) {
    const mpg::QueryMetrics m = our_metrics(kLetorQueries[q], 10, mpg::NdcgPastEnd::zero);
    average.add(m);
    carried.add(our_metrics(kLetorQueries[q], 10, mpg::NdcgPastEnd::carry));
    INFO("query " << q + 1);
    for (std::size_t k = 0; k < 10; ++k) {
      CHECK(std::abs(precision_rows[q][k] - m.precision_at[k]) <= half_unit);
      CHECK(std::abs(ndcg_rows[q][k] - m.ndcg_at[k]) <= half_unit);
    }
    CHECK(std::abs(precision_rows[q][10] - m.average_precision) <= half_unit);
    CHECK(std::abs(ndcg_rows[q][10] - m.mean_ndcg) <= half_unit);
  }
  average.finish();
  carried.finish();
  for (std::size_t k = 0; k < 10; ++k) CHECK(std::abs(ndcg_rows[n][k] - average.ndcg_at[k]) <= half_unit);
  CHECK(std::abs(ndcg_rows[n][10] - average.mean_ndcg) <= half_unit);
  // The 3-document query: NDCG@4..10 are 0 for the script; carrying NDCG@3 forward is not its rule.
  CHECK(ndcg_rows[0][9] == 0.0);
  CHECK(our_metrics(kLetorQueries[0], 10, mpg::NdcgPastEnd::carry).ndcg_at[9] > 0.9);
  CHECK(carried.ndcg_at[9] - ndcg_rows[n][9] > 0.3);
}

TEST_CASE("NDCG@k, P@k and MAP equal LETOR's Eval-Score-3.0.pl (OHSUMED's script, k up to 16)", "[official_scorers_shared]") {
  if (!std::filesystem::exists(scorer("Eval-Score-3.0.pl"))) MPG_SKIP(scorer("Eval-Score-3.0.pl") << " not found (set MPG_SCORERS_DIR)");
  TempDir dir("letor3");
  write_letor(dir, false);
  output_of(dir, std::string("perl ") + quote(scorer("Eval-Score-3.0.pl")) + " " + quote(dir.file("features.txt")) + " " +
                     quote(dir.file("predictions.txt")) + " " + quote(dir.file("scores.txt")) + " 1");
  // "precision of queryI:", "Map of queryI:", "NDCG of queryI:" rows (query I = the I-th qid),
  // values at full precision for positions 1..min(16, n); "NDCG:" averages them, a missing
  // position counting 0.
  std::map<std::string, std::vector<std::vector<double>>> rows;
  std::vector<double> ndcg_average;
  double map_average = -1.0;
  for (const std::string& line : lines_of(read_text(dir.file("scores.txt")))) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string head = line.substr(0, colon);
    const std::vector<double> values = numbers_after(line.substr(colon + 1), 0);
    for (const char* kind : {"precision of query", "Map of query", "NDCG of query"})
      if (head.rfind(kind, 0) == 0) rows[kind].push_back(values);
    if (head == "NDCG") ndcg_average = values;
    if (head == "MAP") map_average = values.at(0);
  }
  const std::size_t n = kLetorQueries.size();
  REQUIRE(rows["NDCG of query"].size() == n);
  mpg::RankingMetrics average;
  for (std::size_t q = 0; q < n; ++q) {
    const mpg::QueryMetrics m = our_metrics(kLetorQueries[q], 16, mpg::NdcgPastEnd::zero);
    average.add(m);
    INFO("query " << q + 1);
    const std::size_t defined = std::min<std::size_t>(16, kLetorQueries[q].relevance.size());
    REQUIRE(rows["NDCG of query"][q].size() == defined);
    // P@k past the list's end is not printed (and averages as 0 in 3.0, unlike 4.0's hits / k and
    // ours; OHSUMED's queries have 35 or more documents), so only k <= n is compared.
    REQUIRE(rows["precision of query"][q].size() == defined);
    for (std::size_t k = 0; k < defined; ++k) {
      CHECK(rows["NDCG of query"][q][k] == Approx(m.ndcg_at[k]).margin(1e-12));
      CHECK(rows["precision of query"][q][k] == Approx(m.precision_at[k]).margin(1e-12));
    }
    CHECK(rows["Map of query"][q].at(0) == Approx(m.average_precision).margin(1e-12));
  }
  average.finish();
  REQUIRE(ndcg_average.size() == 12);  // the longest query
  for (std::size_t k = 0; k < ndcg_average.size(); ++k) CHECK(ndcg_average[k] == Approx(average.ndcg_at[k]).margin(1e-12));
  CHECK(map_average == Approx(average.map).margin(1e-12));
}

TEST_CASE("Bracket counts equal EVALB with COLLINS.prm under both outer-bracket rules", "[official_scorers_shared]") {
  const std::string source = scorer("evalb/evalb.c"), parameters = scorer("evalb/COLLINS.prm");
  if (!std::filesystem::exists(source) || !std::filesystem::exists(parameters))
    MPG_SKIP(source << " or COLLINS.prm not found (set MPG_SCORERS_DIR)");
  if (std::system("gcc --version >/dev/null 2>&1") != 0) MPG_SKIP("no gcc to compile EVALB");
  TempDir dir("evalb");
  const std::string evalb = dir.file("evalb");
  output_of(dir, std::string("gcc -O2 -w -o ") + quote(evalb) + " " + quote(source));
  for (const mpg::OuterBracket outer : {mpg::OuterBracket::deleted, mpg::OuterBracket::kept}) {
    const bool kept = outer == mpg::OuterBracket::kept;
    INFO("outer bracket " << mpg::to_string(outer));
    // EVALB sees the trees as written: inside "( ... )" for `keep`, bare for `delete`. The last
    // test tree lacks a word: EVALB reports the sentence as an error and leaves it out (the spec
    // option evalb.unparsable = skip).
    std::string gold_text, test_text;
    for (const auto& [gold, test] : kTreePairs) {
      gold_text += kept ? std::string("( ") + std::string(gold) + " )\n" : std::string(gold) + "\n";
      test_text += kept ? std::string("( ") + std::string(test) + " )\n" : std::string(test) + "\n";
    }
    gold_text += "(S (NP (NN a)) (VP (VBZ b) (NP (NN c))))\n";
    test_text += "(S (NP (NN a)) (VP (VBZ b)))\n";
    const std::string output = output_of(dir, quote(evalb) + " -p " + quote(parameters) + " " +
                                                  quote(dir.write("gold.txt", gold_text)) + " " +
                                                  quote(dir.write("test.txt", test_text)));
    const std::vector<EvalbLine> lines = evalb_lines(output);
    REQUIRE(lines.size() == kTreePairs.size() + 1);
    mpg::EvalbCounts total;
    for (std::size_t i = 0; i < kTreePairs.size(); ++i) {
      INFO("pair " << i + 1 << ": " << kTreePairs[i].first << " / " << kTreePairs[i].second);
      const mpg::PtbTree doc_gold = mpg::parse_ptb(kTreePairs[i].first, "gold").trees.at(0);
      const mpg::PtbTree doc_test = mpg::parse_ptb(kTreePairs[i].second, "test").trees.at(0);
      const mpg::EvalbCounts ours = mpg::evalb_counts(doc_gold, doc_test, {outer});
      CHECK(lines[i].status == 0);
      CHECK(lines[i].matched == ours.matched);
      CHECK(lines[i].gold == ours.gold);
      CHECK(lines[i].test == ours.test);
      // A tree already written inside the outer bracket scores the same.
      const mpg::PtbTree wrapped = mpg::parse_ptb(std::string("( ") + std::string(kTreePairs[i].first) + " )", "gold").trees.at(0);
      CHECK(mpg::evalb_counts(wrapped, doc_test, {outer}).matched == ours.matched);
      total.add(ours);
    }
    CHECK(lines.back().status == 1);
    CHECK(evalb_summary(output, "Number of Error sentence") == 1.0);
    CHECK(std::abs(evalb_summary(output, "Bracketing FMeasure") - 100.0 * total.f1()) <= 0.005 + 1e-9);
    CHECK(std::abs(evalb_summary(output, "Bracketing Recall") - 100.0 * total.recall()) <= 0.005 + 1e-9);
    // Nine sentences; the kept rule adds one matched bracket to each.
    CHECK(total.gold == (kept ? 38.0 : 29.0));
  }
}

TEST_CASE("Corpus AER equals wa_eval_align.pl with sure and possible links; the empty proposal departs", "[official_scorers_shared]") {
  if (!std::filesystem::exists(scorer("wa_eval_align.pl"))) MPG_SKIP(scorer("wa_eval_align.pl") << " not found (set MPG_SCORERS_DIR)");
  TempDir dir("aer");
  std::string gold_text, proposal_text;
  mpg::AerCounts ours;
  for (std::size_t s = 0; s < kAlignedPairs.size(); ++s) {
    const AlignedPair& pair = kAlignedPairs[s];
    const std::string id = std::to_string(s + 1) + " ";
    for (const auto& l : pair.sure) gold_text += id + std::to_string(l[0]) + " " + std::to_string(l[1]) + " S\n";
    for (const auto& l : pair.possible) gold_text += id + std::to_string(l[0]) + " " + std::to_string(l[1]) + " P\n";
    for (const auto& l : pair.proposed) proposal_text += id + std::to_string(l[0]) + " " + std::to_string(l[1]) + "\n";
    ours.add(mpg::aer_counts(proposal_of(pair), gold_of(pair)));
  }
  const std::string gold = dir.write("gold.wa", gold_text);
  // The script's arguments: the answer (gold) file, then the submission.
  const std::string output =
      output_of(dir, std::string("perl ") + quote(scorer("wa_eval_align.pl")) + " " + quote(gold) + " " + quote(dir.write("proposed.wa", proposal_text)));
  // |A| = 9, |S| = 7, |A ∩ S| = 4, |A ∩ P| = 7: AER = 1 - 11 / 16.
  CHECK(mpg::aer_of_counts(ours) == Approx(0.3125));
  CHECK(std::abs(script_aer(output) - mpg::aer_of_counts(ours)) <= 0.00005 + 1e-9);
  // An empty proposal against sure links: the script prints 0 (it tests only the proposal's size
  // before dividing), Och & Ney's formula gives 1 - 0 / |S| = 1, which we keep: the empty
  // proposal is the worst, not a perfect one. No result of ours has an empty corpus proposal.
  const std::string empty = output_of(dir, std::string("perl ") + quote(scorer("wa_eval_align.pl")) + " " + quote(gold) + " " +
                                               quote(dir.write("empty.wa", "")));
  CHECK(script_aer(empty) == 0.0);
  mpg::AerCounts nothing;
  for (const AlignedPair& pair : kAlignedPairs) nothing.add(mpg::aer_counts({}, gold_of(pair)));
  CHECK(mpg::aer_of_counts(nothing) == 1.0);
}
