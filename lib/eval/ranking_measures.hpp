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
// Evaluation conventions (LETOR's, pinned and tested in tests/test_ranking_measures.cpp):
//   - ties in the model's scores are broken by file order (stable sort, earlier document first);
//   - NDCG@k = DCG@k / IDCG@k, IDCG from the relevance-sorted whole list; a query without a
//     relevant document has NDCG@k = 0 for every k (and AP = 0, P@k = 0);
//   - for k > n the list ends: DCG@k = DCG@n, so NDCG@k = NDCG@n; P@k = (relevant in top
//     min(k, n)) / k;
//   - Mean NDCG of a query = (1/n) sum_{k=1..n} NDCG@k (over the whole list length n);
//   - AP = (1/R) sum over relevant positions r of P@r, R = relevant documents of the query;
//     relevant means relevance > 0.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

namespace mpg {

using Ranking = std::vector<int>;  // order[i] = document at position i + 1

enum class DcgDiscount { thesis, letor };
DcgDiscount parse_dcg_discount(const std::string& name);  // "thesis" | "letor"
std::string to_string(DcgDiscount discount);

// disc(position), position >= 1.
double dcg_discount(DcgDiscount discount, std::size_t position);
inline double relevance_gain(int relevance) { return std::ldexp(1.0, relevance) - 1.0; }

// DCG of the first min(k, n) positions (k = 0: all).
double dcg(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount, std::size_t k = 0);
// The ideal ranking: documents by relevance, descending (ties by document index).
Ranking ideal_ranking(const std::vector<int>& relevance);
// Documents by score, descending; ties by document index (file order).
Ranking ranking_by_scores(const Eigen::VectorXd& scores);

// Per-query metrics of a ranking under the conventions above.
struct QueryMetrics {
  std::vector<double> ndcg_at;       // NDCG@1..max_k
  std::vector<double> precision_at;  // P@1..max_k
  double mean_ndcg = 0.0;
  double average_precision = 0.0;
};
QueryMetrics evaluate_ranking(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount,
                              std::size_t max_k = 10);

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
