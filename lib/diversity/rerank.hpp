// Re-ranking baselines of the relevance-diversity experiments (Parambath thesis §3.4.2), greedy
// over a user's candidate items with an item-based relevance r(i) and the item similarity W:
//   MMR (Carbonell and Goldstein 1998):  i* = argmax  lambda r(i) - (1 - lambda) max_{j in S} W_ij
//                                         (max over the empty set = 0)
//   MSD (max-sum diversification, Borodin et al. 2012): the objective
//        lambda g(S) + (1 - lambda) sum_{i != j in S} dist(i, j),  dist = 1 - W,
//        greedy step i* = argmax lambda r(i) + (1 - lambda) sum_{j in S} (1 - W_ij).
//        The thesis prints "- (1 - lambda) sum (1 - W_ij)", which rewards similarity and
//        contradicts the objective it states; `printed_sign` reproduces the printed step.
// A smaller lambda weighs diversity more; lambda = 1 is MOD (sorting by r). Ties go to the
// smaller item id.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg::diversity {

// How r(i) is estimated from the profile {(kappa, v)} (thesis: "item-based collaborative
// filtering (Sarwar et al. 2001)"; the greedy steps it prints use the raw sum):
//   raw         r(i) = sum_kappa v W_{kappa i}
//   normalized  r(i) = sum_kappa v W_{kappa i} / sum_kappa |W_{kappa i}|   (Sarwar's weighted
//               average, a rating on the 1..5 scale; 0 when i has no similar profile item)
enum class RelevanceEstimate { raw, normalized };

// r(i) for every candidate: profile_items/profile_ratings are the user's (kappa, v);
// similarity is the items x items matrix W, symmetric (require_symmetric, lib/diversity/
// protocol.hpp): r sums whole columns W_{. kappa}, O(m items) per user and vectorized.
Eigen::VectorXd item_based_relevance(const std::vector<int>& profile_items, const std::vector<double>& profile_ratings,
                                     const std::vector<int>& candidates, const Eigen::MatrixXd& similarity,
                                     RelevanceEstimate estimate = RelevanceEstimate::raw);

struct RerankOptions {
  double lambda = 0.5;        // in [0, 1]
  std::size_t k = 10;         // list length (capped at the number of candidates)
  bool printed_sign = false;  // MSD only: use the thesis's printed "-" (see above)
};

// The greedy lists (candidates' ids in selection order). relevance[c] belongs to candidates[c].
std::vector<int> mmr_rerank(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                            const Eigen::MatrixXd& similarity, const RerankOptions& options);
std::vector<int> msd_rerank(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                            const Eigen::MatrixXd& similarity, const RerankOptions& options);

}  // namespace mpg::diversity
