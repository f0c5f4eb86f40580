// Ranking evaluation measures of LETOR: DCG, NDCG@k, P@k, Mean NDCG and MAP (thesis §4.1
// Eqs. 4.13-4.15). Measures only: the DCG game, which plays DCG against an adversary, is
// lib/metrics/dcg.hpp.
//
// A ranking is a permutation `order` of the n documents, order[i] = the document at position
// i + 1. Gains are 2^rel - 1. Two discounts (position r = 1, 2, ...):
//   thesis  (Eq. 4.13):  disc(r) = 1 / log2(r + 1)
//   letor   (DCG'', the LETOR 4.0 evaluation tool, used for Table XII):
//                        disc(1) = 1, disc(r) = 1 / log2(r) for r >= 2 (positions 1, 2 undiscounted)
//
// Evaluation conventions (LETOR's, pinned and tested in tests/test_ranking_measures.cpp), with one
// deliberate departure: LETOR's evaluation tool sorts by score and keeps file order among ties, so
// a method with tied scores profits from how the data file happens to be ordered (on OHSUMED the
// file order alone scores Mean NDCG 0.50, more than some methods). Here no ranking depends on
// file order (a result does not change when a query's rows are permuted):
//   - ties in a model's scores are broken by a content key of the document (document_keys: a hash
//     of its feature vector), never by position in the file;
//   - documents with identical feature vectors are indistinguishable to every method; a measure is
//     the expectation over the assignments of such a class's members to the positions the class
//     occupies (for DCG and P@k: each of those positions earns the class's mean gain / mean hit;
//     for AP the exact expectation, below). Without keys every document is its own class.
//   - NDCG@k = DCG@k / IDCG@k, IDCG from the relevance-sorted whole list; a query without a
//     relevant document has NDCG@k = 0 for every k (and AP = 0, P@k = 0);
//   - for k > n (past the end of the list) NDCG@k = 0 by default (NdcgPastEnd::zero), as LETOR's
//     Eval-Score-3.0.pl / 4.0.pl score it: they compute NDCG at positions 1..n only and average the
//     missing positions as 0. NdcgPastEnd::carry instead carries the list's last value forward
//     (NDCG@k = NDCG@n), a spec option no paper we reproduce states. P@k = (relevant in top
//     min(k, n)) / k (Eval-Score-4.0.pl; 3.0 averages P@k past the end as 0, moot on OHSUMED, whose
//     shortest query has 35 documents);
//   - Mean NDCG of a query = (1/n) sum_{k=1..n} NDCG@k (over the whole list length n);
//   - AP = (1/R) sum over relevant positions r of P@r, R = relevant documents of the query;
//     relevant means relevance > 0.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace mpg {

using Ranking = std::vector<int>;  // order[i] = document at position i + 1

enum class DcgDiscount { thesis, letor };
// NDCG@k for k beyond the query's n documents: 0 (LETOR's scripts) or NDCG@n carried forward.
enum class NdcgPastEnd { zero, carry };
NdcgPastEnd parse_ndcg_past_end(const std::string& name);  // "zero" | "carry"
std::string to_string(NdcgPastEnd past_end);
DcgDiscount parse_dcg_discount(const std::string& name);  // "thesis" | "letor"
std::string to_string(DcgDiscount discount);

// disc(position), position >= 1.
double dcg_discount(DcgDiscount discount, std::size_t position);
inline double relevance_gain(int relevance) { return std::ldexp(1.0, relevance) - 1.0; }

// DCG of the first min(k, n) positions (k = 0: all).
double dcg(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount, std::size_t k = 0);
// The ideal ranking: documents by relevance, descending (ties by document index; which of two
// equally relevant documents comes first changes no measure).
Ranking ideal_ranking(const std::vector<int>& relevance);
// Documents by score, descending; ties by document index. For values only (a best response's
// value does not depend on its ties); rankings that are evaluated use the keyed overload.
Ranking ranking_by_scores(const Eigen::VectorXd& scores);

// A content key per document (row of `features`): a 64-bit FNV-1a hash of its feature values
// (-0.0 read as 0.0). Equal rows have equal keys; the key, not the row's position, breaks ties.
using DocumentKey = std::uint64_t;
std::vector<DocumentKey> document_keys(const Eigen::MatrixXd& features);
// Documents by score, descending; ties by key ascending, then by index (only between documents
// with equal keys, i.e. identical feature vectors, whose order changes no measure below).
Ranking ranking_by_scores(const Eigen::VectorXd& scores, const std::vector<DocumentKey>& keys);

// Per-query metrics of a ranking under the conventions above.
struct QueryMetrics {
  std::vector<double> ndcg_at;       // NDCG@1..max_k
  std::vector<double> precision_at;  // P@1..max_k
  double mean_ndcg = 0.0;
  double average_precision = 0.0;
};
// `keys` (document_keys of the query, or empty): documents with equal keys form a class of
// indistinguishable documents, and every measure is its expectation over the assignments of each
// class's members to the positions the class occupies (see the conventions above).
QueryMetrics evaluate_ranking(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount,
                              std::size_t max_k = 10, const std::vector<DocumentKey>& keys = {},
                              NdcgPastEnd past_end = NdcgPastEnd::zero);

// Averages of QueryMetrics (over queries, or over folds).
struct RankingMetrics {
  std::vector<double> ndcg_at;
  std::vector<double> precision_at;
  double mean_ndcg = 0.0;
  double map = 0.0;
  int queries = 0;
  void add(const QueryMetrics& query);   // accumulate a query
  void finish();                         // divide the sums by `queries`
};

}  // namespace mpg
