// Learning-to-rank baselines of thesis Table XII, in-tree and linear as in the LETOR baseline
// runs. Each ranks a query's documents by a score f(x_j); ties are broken by the documents' content
// keys, never by file order (ranking_by_scores with document_keys, lib/eval/ranking_measures.hpp).
//   RankSVM    pairwise L2-loss (squared hinge) SVM on pairs of one query with different labels
//              (Herbrich et al. 2000; Joachims 2002); L-BFGS on the primal.
//   ListNet    top-1 cross-entropy between softmax(labels) and softmax(w . x) per query (Cao et
//              al. 2007), L2-regularized, L-BFGS.
//   AdaRank    boosting over single-feature weak rankers on a query-level measure E in [0, 1],
//              NDCG@10 or AP (Xu and Li 2007, Algorithm 1); the model is linear in the features.
//   RankBoost  boosting over threshold weak rankers h(x) = [x_k > t] on crucial pairs (Freund et
//              al. 2003, RankBoost.B with binary weak rankers and the r-based alpha).
// The boosters record every round, so the validation fold can choose the number of rounds.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <vector>

#include "lib/eval/ranking_measures.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/models/ranking_mpg.hpp"

namespace mpg {

struct LinearRanker {
  Eigen::VectorXd weights;  // d
  Eigen::VectorXd scores(const Eigen::MatrixXd& features) const { return features * weights; }
};

// ---- RankSVM -------------------------------------------------------------------------------
// min_w 1/2 ||w||^2 + C sum_{q, i > j in q} max(0, 1 - w . (x_i - x_j))^2, pairs with rel_i > rel_j.
struct RankSvmOptions {
  double C = 1.0;
  OptimizerOptions optimizer;
};
LinearRanker train_ranksvm(const std::vector<RankingQuery>& queries, const RankSvmOptions& options);

// ---- ListNet -------------------------------------------------------------------------------
// min_w (1/|Q|) sum_q -sum_j P_y(j) log P_w(j) + lambda/2 ||w||^2, P_y = softmax(rel),
// P_w = softmax(X_q w); queries without a relevant document are skipped (uniform target).
struct ListNetOptions {
  double lambda = 1e-3;
  OptimizerOptions optimizer;
};
LinearRanker train_listnet(const std::vector<RankingQuery>& queries, const ListNetOptions& options);

// ---- AdaRank -------------------------------------------------------------------------------
enum class AdaRankMeasure { ndcg, map };
struct AdaRankOptions {
  AdaRankMeasure measure = AdaRankMeasure::ndcg;
  std::size_t ndcg_k = 10;
  DcgDiscount discount = DcgDiscount::letor;
  int rounds = 200;
};
// weights_after[t] = the linear model after t + 1 rounds. Queries without a relevant document
// are skipped (E = 0 whatever the ranking).
struct AdaRankModel {
  std::vector<Eigen::VectorXd> weights_after;
  std::vector<int> features;  // feature chosen in each round
  std::vector<double> alphas;
};
AdaRankModel train_adarank(const std::vector<RankingQuery>& queries, const AdaRankOptions& options);

// ---- RankBoost -----------------------------------------------------------------------------
struct RankBoostOptions {
  int rounds = 200;
  int thresholds = 16;  // candidate thresholds per feature: quantiles of its training values
};
struct ThresholdRanker {
  int feature = 0;
  double threshold = 0.0;
  double alpha = 0.0;
};
struct RankBoostModel {
  std::vector<ThresholdRanker> rounds;
  // sum over the first `used` rounds (0 = all) of alpha [x_k > t].
  Eigen::VectorXd scores(const Eigen::MatrixXd& features, std::size_t used = 0) const;
};
RankBoostModel train_rankboost(const std::vector<RankingQuery>& queries, const RankBoostOptions& options);

// ---- Best single feature (a diagnostic) -----------------------------------------------------
// The ranker w = sign * e_k with the largest score(w) over every feature k and both signs (ties:
// the smaller k, then +1), e.g. a validation measure; LETOR's features are retrieval scores such
// as BM25, so this is the strongest ranker that learns nothing but a choice. Reports k and the sign.
LinearRanker best_single_feature(long features, const std::function<double(const LinearRanker&)>& score,
                                 int* feature = nullptr, double* sign = nullptr);

}  // namespace mpg
