#include "lib/eval/ranking_measures.hpp"

#include <algorithm>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

DcgDiscount parse_dcg_discount(const std::string& name) {
  if (name == "thesis") return DcgDiscount::thesis;
  if (name == "letor") return DcgDiscount::letor;
  throw Error("unknown DCG discount '" + name + "' (expected 'thesis' or 'letor')");
}

std::string to_string(DcgDiscount discount) { return discount == DcgDiscount::thesis ? "thesis" : "letor"; }

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

QueryMetrics evaluate_ranking(const Ranking& order, const std::vector<int>& relevance, DcgDiscount discount,
                              std::size_t max_k) {
  const std::size_t n = order.size();
  if (relevance.size() != n) throw Error("evaluate_ranking: ranking and relevance differ in length");
  QueryMetrics m;
  m.ndcg_at.assign(max_k, 0.0);
  m.precision_at.assign(max_k, 0.0);
  const Ranking ideal = ideal_ranking(relevance);
  const std::size_t positions = std::max(n, max_k);
  double running = 0.0, ideal_running = 0.0, ndcg_sum = 0.0, precision_sum = 0.0;
  int hits = 0;
  int relevant = 0;
  for (int r : relevance) relevant += r > 0;
  for (std::size_t i = 0; i < positions; ++i) {
    if (i < n) {
      const int rel = relevance[static_cast<std::size_t>(order[i])];
      running += relevance_gain(rel) * dcg_discount(discount, i + 1);
      ideal_running += relevance_gain(relevance[static_cast<std::size_t>(ideal[i])]) * dcg_discount(discount, i + 1);
      if (rel > 0) {
        ++hits;
        precision_sum += static_cast<double>(hits) / static_cast<double>(i + 1);
      }
    }
    const double ndcg = ideal_running > 0.0 ? running / ideal_running : 0.0;
    if (i < n) ndcg_sum += ndcg;
    if (i < max_k) {
      m.ndcg_at[i] = ndcg;
      m.precision_at[i] = static_cast<double>(hits) / static_cast<double>(i + 1);
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
