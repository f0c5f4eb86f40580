#include "baselines/rankers.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

long feature_count(const std::vector<RankingQuery>& queries) {
  if (queries.empty()) throw Error("ranker: no training queries");
  return queries.front().features.cols();
}

struct Pair {
  int better, worse;
};

std::vector<Pair> preference_pairs(const RankingQuery& q) {
  std::vector<Pair> pairs;
  const int n = static_cast<int>(q.relevance.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (q.relevance[static_cast<std::size_t>(i)] > q.relevance[static_cast<std::size_t>(j)]) pairs.push_back({i, j});
  return pairs;
}

class RankSvmObjective : public Objective {
 public:
  RankSvmObjective(const std::vector<RankingQuery>& queries, double C) : queries_(queries), C_(C) {
    for (const auto& q : queries_) pairs_.push_back(preference_pairs(q));
  }
  double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& gradient) override {
    double loss = 0.0;
    gradient = w;
    for (std::size_t q = 0; q < queries_.size(); ++q) {
      if (pairs_[q].empty()) continue;
      const Eigen::VectorXd s = queries_[q].features * w;
      Eigen::VectorXd coefficient = Eigen::VectorXd::Zero(s.size());
      for (const Pair& p : pairs_[q]) {
        const double slack = 1.0 - (s[p.better] - s[p.worse]);
        if (slack <= 0.0) continue;
        loss += slack * slack;
        coefficient[p.better] -= 2.0 * C_ * slack;
        coefficient[p.worse] += 2.0 * C_ * slack;
      }
      gradient += queries_[q].features.transpose() * coefficient;
    }
    return 0.5 * w.squaredNorm() + C_ * loss;
  }

 private:
  const std::vector<RankingQuery>& queries_;
  double C_;
  std::vector<std::vector<Pair>> pairs_;
};

Eigen::VectorXd softmax(const Eigen::VectorXd& v) {
  const Eigen::VectorXd e = (v.array() - v.maxCoeff()).exp();
  return e / e.sum();
}

class ListNetObjective : public Objective {
 public:
  ListNetObjective(const std::vector<RankingQuery>& queries, double lambda) : lambda_(lambda) {
    for (const auto& q : queries) {
      if (std::none_of(q.relevance.begin(), q.relevance.end(), [](int r) { return r > 0; })) continue;
      used_.push_back(&q);
      Eigen::VectorXd rel(static_cast<Eigen::Index>(q.relevance.size()));
      for (std::size_t j = 0; j < q.relevance.size(); ++j) rel[static_cast<Eigen::Index>(j)] = q.relevance[j];
      targets_.push_back(softmax(rel));
    }
    if (used_.empty()) throw Error("ListNet: no training query has a relevant document");
  }
  double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& gradient) override {
    double loss = 0.0;
    gradient = Eigen::VectorXd::Zero(w.size());
    for (std::size_t q = 0; q < used_.size(); ++q) {
      const Eigen::VectorXd s = used_[q]->features * w;
      const double top = s.maxCoeff();
      const double log_normalizer = top + std::log((s.array() - top).exp().sum());
      // -sum_j P_y(j) (s_j - log Z)
      loss += log_normalizer - targets_[q].dot(s);
      gradient += used_[q]->features.transpose() * (softmax(s) - targets_[q]);
    }
    const double scale = 1.0 / static_cast<double>(used_.size());
    gradient = scale * gradient + lambda_ * w;
    return scale * loss + 0.5 * lambda_ * w.squaredNorm();
  }

 private:
  double lambda_;
  std::vector<const RankingQuery*> used_;
  std::vector<Eigen::VectorXd> targets_;
};

// E(q, ranking by scores): ties by the documents' keys, identical documents averaged (the
// evaluation conventions of lib/eval/ranking_measures.hpp), so no round profits from file order.
double query_measure(const Eigen::VectorXd& scores, const RankingQuery& query, const std::vector<DocumentKey>& keys,
                     const AdaRankOptions& options) {
  // A training signal, not a score: NDCG@k of a query shorter than k is its NDCG@n (carried
  // forward), so every query's weight still responds to the ranking; with LETOR's 0 past the end
  // half of MQ2008's queries would have a constant NDCG@10 of 0.
  const QueryMetrics m = evaluate_ranking(ranking_by_scores(scores, keys), query.relevance, options.discount,
                                          options.ndcg_k, keys, NdcgPastEnd::carry);
  return options.measure == AdaRankMeasure::ndcg ? m.ndcg_at[options.ndcg_k - 1] : m.average_precision;
}

}  // namespace

LinearRanker train_ranksvm(const std::vector<RankingQuery>& queries, const RankSvmOptions& options) {
  if (!(options.C > 0.0)) throw Error("RankSVM: C must be > 0");
  RankSvmObjective objective(queries, options.C);
  LinearRanker model;
  model.weights = Eigen::VectorXd::Zero(feature_count(queries));
  minimize(objective, model.weights, options.optimizer);
  return model;
}

LinearRanker train_listnet(const std::vector<RankingQuery>& queries, const ListNetOptions& options) {
  if (!(options.lambda >= 0.0)) throw Error("ListNet: lambda must be >= 0");
  ListNetObjective objective(queries, options.lambda);
  LinearRanker model;
  model.weights = Eigen::VectorXd::Zero(feature_count(queries));
  minimize(objective, model.weights, options.optimizer);
  return model;
}

AdaRankModel train_adarank(const std::vector<RankingQuery>& queries, const AdaRankOptions& options) {
  const long d = feature_count(queries);
  if (options.ndcg_k < 1) throw Error("AdaRank: ndcg_k must be >= 1");
  std::vector<const RankingQuery*> used;
  for (const auto& q : queries)
    if (std::any_of(q.relevance.begin(), q.relevance.end(), [](int r) { return r > 0; })) used.push_back(&q);
  if (used.empty()) throw Error("AdaRank: no training query has a relevant document");
  const std::size_t Q = used.size();
  std::vector<std::vector<DocumentKey>> keys;
  for (const RankingQuery* q : used) keys.push_back(document_keys(q->features));
  // E(q, ranking by feature k), fixed over the rounds.
  Eigen::MatrixXd weak(static_cast<Eigen::Index>(Q), d);
  for (std::size_t q = 0; q < Q; ++q)
    for (long k = 0; k < d; ++k)
      weak(static_cast<Eigen::Index>(q), k) =
          query_measure(used[q]->features.col(k), *used[q], keys[q], options);
  Eigen::VectorXd distribution = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(Q), 1.0 / static_cast<double>(Q));
  AdaRankModel model;
  Eigen::VectorXd weights = Eigen::VectorXd::Zero(d);
  int previous = -1;
  for (int t = 0; t < options.rounds; ++t) {
    // Weak ranker with the largest weighted measure (not the previous round's feature).
    const Eigen::VectorXd weighted = weak.transpose() * distribution;
    int best = -1;
    for (long k = 0; k < d; ++k)
      if (k != previous && (best < 0 || weighted[k] > weighted[best])) best = static_cast<int>(k);
    const Eigen::VectorXd e = weak.col(best);
    const double up = distribution.dot((1.0 + e.array()).matrix());
    const double down = std::max(distribution.dot((1.0 - e.array()).matrix()), 1e-12);
    const double alpha = 0.5 * std::log(up / down);
    weights[best] += alpha;
    model.features.push_back(best);
    model.alphas.push_back(alpha);
    model.weights_after.push_back(weights);
    previous = best;
    // P_{t+1}(q) proportional to exp(-E(q, f_t)).
    for (std::size_t q = 0; q < Q; ++q)
      distribution[static_cast<Eigen::Index>(q)] =
          std::exp(-query_measure(used[q]->features * weights, *used[q], keys[q], options));
    distribution /= distribution.sum();
  }
  return model;
}

Eigen::VectorXd RankBoostModel::scores(const Eigen::MatrixXd& features, std::size_t used) const {
  const std::size_t last = used == 0 ? rounds.size() : std::min(used, rounds.size());
  Eigen::VectorXd s = Eigen::VectorXd::Zero(features.rows());
  for (std::size_t t = 0; t < last; ++t)
    for (Eigen::Index j = 0; j < features.rows(); ++j)
      if (features(j, rounds[t].feature) > rounds[t].threshold) s[j] += rounds[t].alpha;
  return s;
}

RankBoostModel train_rankboost(const std::vector<RankingQuery>& queries, const RankBoostOptions& options) {
  const long d = feature_count(queries);
  if (options.thresholds < 1) throw Error("RankBoost: thresholds must be >= 1");
  // All training documents in one matrix; pairs as global row indices.
  std::vector<Pair> pairs;
  long rows = 0;
  for (const auto& q : queries) rows += q.features.rows();
  Eigen::MatrixXd x(rows, d);
  long offset = 0;
  for (const auto& q : queries) {
    x.middleRows(offset, q.features.rows()) = q.features;
    for (const Pair& p : preference_pairs(q))
      pairs.push_back({static_cast<int>(offset + p.better), static_cast<int>(offset + p.worse)});
    offset += q.features.rows();
  }
  if (pairs.empty()) throw Error("RankBoost: no pair of documents with different relevance");
  // Per feature: documents by value, descending, and the candidate thresholds (quantiles of
  // the distinct values; h = [x > t] so the smallest value is never a useful threshold).
  std::vector<std::vector<int>> order(static_cast<std::size_t>(d));
  std::vector<std::vector<double>> candidates(static_cast<std::size_t>(d));
  for (long k = 0; k < d; ++k) {
    auto& o = order[static_cast<std::size_t>(k)];
    o.resize(static_cast<std::size_t>(rows));
    std::iota(o.begin(), o.end(), 0);
    std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return x(a, k) > x(b, k); });
    std::vector<double> distinct;
    for (int i : o)
      if (distinct.empty() || x(i, k) != distinct.back()) distinct.push_back(x(i, k));
    // distinct is descending; thresholds strictly below the largest value.
    const std::size_t m = distinct.size();
    if (m < 2) continue;
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(options.thresholds), m - 1);
    for (std::size_t c = 1; c <= count; ++c) {
      const std::size_t index = std::min(m - 1, (c * (m - 1) + count - 1) / count);
      const double t = distinct[index];
      if (candidates[static_cast<std::size_t>(k)].empty() || t < candidates[static_cast<std::size_t>(k)].back())
        candidates[static_cast<std::size_t>(k)].push_back(t);
    }
  }
  std::vector<double> D(pairs.size(), 1.0 / static_cast<double>(pairs.size()));
  RankBoostModel model;
  Eigen::VectorXd pi(rows);
  for (int t = 0; t < options.rounds; ++t) {
    pi.setZero();
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      pi[pairs[p].better] += D[p];
      pi[pairs[p].worse] -= D[p];
    }
    // r(k, t) = sum_{x_ik > t} pi_i, by a running sum down each feature's order.
    ThresholdRanker best;
    double best_r = 0.0;
    bool found = false;
    for (long k = 0; k < d; ++k) {
      const auto& o = order[static_cast<std::size_t>(k)];
      const auto& cand = candidates[static_cast<std::size_t>(k)];
      double running = 0.0;
      std::size_t i = 0;
      for (double threshold : cand) {  // descending thresholds
        while (i < o.size() && x(o[i], k) > threshold) running += pi[o[i++]];
        if (!found || std::abs(running) > std::abs(best_r)) {
          found = true;
          best_r = running;
          best.feature = static_cast<int>(k);
          best.threshold = threshold;
        }
      }
    }
    if (!found || std::abs(best_r) < 1e-12) break;  // no weak ranker separates any pair
    const double r = std::clamp(best_r, -1.0 + 1e-10, 1.0 - 1e-10);
    best.alpha = 0.5 * std::log((1.0 + r) / (1.0 - r));
    model.rounds.push_back(best);
    double total = 0.0;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const double h_better = x(pairs[p].better, best.feature) > best.threshold ? 1.0 : 0.0;
      const double h_worse = x(pairs[p].worse, best.feature) > best.threshold ? 1.0 : 0.0;
      D[p] *= std::exp(best.alpha * (h_worse - h_better));
      total += D[p];
    }
    for (double& v : D) v /= total;
  }
  return model;
}

LinearRanker best_single_feature(long features, const std::function<double(const LinearRanker&)>& score, int* feature,
                                 double* sign) {
  if (features < 1) throw Error("best single feature: no features");
  LinearRanker best, candidate;
  double best_score = -INFINITY;
  for (long k = 0; k < features; ++k)
    for (const double direction : {1.0, -1.0}) {
      candidate.weights = Eigen::VectorXd::Zero(features);
      candidate.weights[k] = direction;
      const double value = score(candidate);
      if (value > best_score) {
        best_score = value;
        best = candidate;
        if (feature) *feature = static_cast<int>(k);
        if (sign) *sign = direction;
      }
    }
  return best;
}

}  // namespace mpg
