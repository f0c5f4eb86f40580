#include "lib/eval/ranking_measures.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <unordered_map>

#include "lib/base/error.hpp"

namespace mpg {

DcgDiscount parse_dcg_discount(const std::string& name) {
  if (name == "thesis") return DcgDiscount::thesis;
  if (name == "letor") return DcgDiscount::letor;
  throw Error("unknown DCG discount '" + name + "' (expected 'thesis' or 'letor')");
}

std::string to_string(DcgDiscount discount) { return discount == DcgDiscount::thesis ? "thesis" : "letor"; }

NdcgPastEnd parse_ndcg_past_end(const std::string& name) {
  if (name == "zero") return NdcgPastEnd::zero;
  if (name == "carry") return NdcgPastEnd::carry;
  throw Error("unknown NDCG past-the-end rule '" + name + "' (expected 'zero' or 'carry')");
}

std::string to_string(NdcgPastEnd past_end) { return past_end == NdcgPastEnd::zero ? "zero" : "carry"; }

double dcg_discount(DcgDiscount discount, std::size_t position) {
  const double r = static_cast<double>(position);
  if (discount == DcgDiscount::thesis) return 1.0 / std::log2(r + 1.0);
  return position <= 2 ? 1.0 : 1.0 / std::log2(r);
}

double dcg(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount, std::size_t k) {
  const std::size_t last = k == 0 ? order.size() : std::min(k, order.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < last; ++i)
    sum += relevance_gain(relevance[static_cast<std::size_t>(order[i])]) * dcg_discount(discount, i + 1);
  return sum;
}

Ranking ideal_ranking(const std::vector<int>& relevance) {
  Ranking order(relevance.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return relevance[static_cast<std::size_t>(a)] > relevance[static_cast<std::size_t>(b)];
  });
  return order;
}

Ranking ranking_by_scores(const Eigen::VectorXd& scores) {
  Ranking order(static_cast<std::size_t>(scores.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[a] > scores[b]; });
  return order;
}

std::vector<DocumentKey> document_keys(const Eigen::MatrixXd& features) {
  std::vector<DocumentKey> keys(static_cast<std::size_t>(features.rows()));
  for (Eigen::Index j = 0; j < features.rows(); ++j) {
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits, byte by byte
    for (Eigen::Index k = 0; k < features.cols(); ++k) {
      const double value = features(j, k) == 0.0 ? 0.0 : features(j, k);  // -0.0 as 0.0
      const auto bits = std::bit_cast<std::uint64_t>(value);
      for (int byte = 0; byte < 8; ++byte) {
        hash ^= (bits >> (8 * byte)) & 0xffu;
        hash *= 1099511628211ull;
      }
    }
    keys[static_cast<std::size_t>(j)] = hash;
  }
  return keys;
}

Ranking ranking_by_scores(const Eigen::VectorXd& scores, const std::vector<DocumentKey>& keys) {
  if (keys.size() != static_cast<std::size_t>(scores.size()))
    throw Error("ranking_by_scores: " + std::to_string(scores.size()) + " scores but " + std::to_string(keys.size()) +
                " document keys");
  Ranking order(static_cast<std::size_t>(scores.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (scores[a] != scores[b]) return scores[a] > scores[b];
    return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
  });
  return order;
}

QueryMetrics evaluate_ranking(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount,
                              std::size_t max_k, const std::vector<DocumentKey>& keys, NdcgPastEnd past_end) {
  const std::size_t n = order.size();
  if (relevance.size() != n) throw Error("evaluate_ranking: ranking and relevance differ in length");
  if (!keys.empty() && keys.size() != n) throw Error("evaluate_ranking: ranking and document keys differ in length");
  // Classes of indistinguishable documents (equal keys): per document its class, and per class
  // the mean gain, the hit probability p_c = (relevant members) / m and the probability that two
  // given positions of the class both hold relevant members, k (k - 1) / (m (m - 1)).
  std::vector<std::size_t> class_of(n);
  std::vector<double> class_gain, class_hit, class_pair;
  {
    std::vector<double> members, relevant_members;
    std::unordered_map<DocumentKey, std::size_t> index;
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t c = class_gain.size();
      if (!keys.empty()) c = index.try_emplace(keys[j], class_gain.size()).first->second;
      if (c == class_gain.size()) {
        class_gain.push_back(0.0);
        members.push_back(0.0);
        relevant_members.push_back(0.0);
      }
      class_of[j] = c;
      class_gain[c] += relevance_gain(relevance[j]);
      members[c] += 1.0;
      relevant_members[c] += relevance[j] > 0 ? 1.0 : 0.0;
    }
    for (std::size_t c = 0; c < class_gain.size(); ++c) {
      class_gain[c] /= members[c];
      class_hit.push_back(relevant_members[c] / members[c]);
      class_pair.push_back(members[c] > 1.0 ? relevant_members[c] * (relevant_members[c] - 1.0) /
                                                  (members[c] * (members[c] - 1.0))
                                            : 0.0);
    }
  }
  QueryMetrics m;
  m.ndcg_at.assign(max_k, 0.0);
  m.precision_at.assign(max_k, 0.0);
  const Ranking ideal = ideal_ranking(relevance);
  const std::size_t positions = std::max(n, max_k);
  double running = 0.0, ideal_running = 0.0, ndcg_sum = 0.0, precision_sum = 0.0, hits = 0.0;
  // AP's expectation: E[rel_r hits(r)] = p_r + p_r (hits before r outside r's class) +
  // pair_c (positions of r's class before r), hits counted in expectation.
  std::vector<double> class_hits_before(class_gain.size(), 0.0), class_positions_before(class_gain.size(), 0.0);
  int relevant = 0;
  for (int r : relevance) relevant += r > 0;
  for (std::size_t i = 0; i < positions; ++i) {
    if (i < n) {
      const std::size_t c = class_of[static_cast<std::size_t>(order[i])];
      const double p = class_hit[c];
      running += class_gain[c] * dcg_discount(discount, i + 1);
      ideal_running += relevance_gain(relevance[static_cast<std::size_t>(ideal[i])]) * dcg_discount(discount, i + 1);
      precision_sum += (p * (1.0 + hits - class_hits_before[c]) + class_pair[c] * class_positions_before[c]) /
                       static_cast<double>(i + 1);
      hits += p;
      class_hits_before[c] += p;
      class_positions_before[c] += 1.0;
    }
    // Past the end (i >= n) LETOR's scripts leave NDCG undefined and average it as 0.
    const bool defined = i < n || past_end == NdcgPastEnd::carry;
    const double ndcg = defined && ideal_running > 0.0 ? running / ideal_running : 0.0;
    if (i < n) ndcg_sum += ndcg;
    if (i < max_k) {
      m.ndcg_at[i] = ndcg;
      m.precision_at[i] = hits / static_cast<double>(i + 1);
    }
  }
  m.mean_ndcg = n > 0 ? ndcg_sum / static_cast<double>(n) : 0.0;
  m.average_precision = relevant > 0 ? precision_sum / relevant : 0.0;
  return m;
}

void RankingMetrics::add(const QueryMetrics& query) {
  if (ndcg_at.empty()) {
    ndcg_at.assign(query.ndcg_at.size(), 0.0);
    precision_at.assign(query.precision_at.size(), 0.0);
  }
  for (std::size_t k = 0; k < ndcg_at.size(); ++k) {
    ndcg_at[k] += query.ndcg_at[k];
    precision_at[k] += query.precision_at[k];
  }
  mean_ndcg += query.mean_ndcg;
  map += query.average_precision;
  ++queries;
}

void RankingMetrics::finish() {
  if (queries == 0) return;
  const double q = queries;
  for (auto& v : ndcg_at) v /= q;
  for (auto& v : precision_at) v /= q;
  mean_ndcg /= q;
  map /= q;
}

}  // namespace mpg
