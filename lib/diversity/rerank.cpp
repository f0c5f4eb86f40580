#include "lib/diversity/rerank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lib/base/error.hpp"

namespace mpg::diversity {
namespace {

void check_inputs(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                  const Eigen::MatrixXd& similarity, const RerankOptions& options, const char* method) {
  if (!(options.lambda >= 0.0 && options.lambda <= 1.0))
    throw Error(fmt::format("{}: lambda = {} is outside [0, 1]", method, options.lambda));
  if (relevance.size() != static_cast<Eigen::Index>(candidates.size()))
    throw Error(fmt::format("{}: {} relevance values for {} candidates", method, relevance.size(), candidates.size()));
  for (const int item : candidates)
    if (item < 0 || item >= similarity.rows() || similarity.rows() != similarity.cols())
      throw Error(fmt::format("{}: candidate {} outside the {} x {} similarity matrix", method, item,
                              similarity.rows(), similarity.cols()));
}

// Greedy selection of k candidates by score(c) = lambda r(c) + (1 - lambda) diversity[c], where
// diversity is updated by `update(diversity[c], W(candidate c, chosen item))` after each choice.
template <class Update>
std::vector<int> greedy_rerank(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                               const Eigen::MatrixXd& similarity, const RerankOptions& options, Update update) {
  const std::size_t p = candidates.size();
  const std::size_t k = std::min(options.k, p);
  std::vector<double> diversity(p, 0.0);
  std::vector<bool> chosen(p, false);
  std::vector<int> list;
  for (std::size_t step = 0; step < k; ++step) {
    std::size_t best = p;
    double best_score = 0.0;
    for (std::size_t c = 0; c < p; ++c) {
      if (chosen[c]) continue;
      const double score = options.lambda * relevance[static_cast<Eigen::Index>(c)] + (1.0 - options.lambda) * diversity[c];
      if (best == p || score > best_score || (score == best_score && candidates[c] < candidates[best]))
        best = c, best_score = score;
    }
    chosen[best] = true;
    const int item = candidates[best];
    list.push_back(item);
    for (std::size_t c = 0; c < p; ++c)
      if (!chosen[c]) diversity[c] = update(diversity[c], similarity(candidates[c], item));
  }
  return list;
}

}  // namespace

Eigen::VectorXd item_based_relevance(const std::vector<int>& profile_items, const std::vector<double>& profile_ratings,
                                     const std::vector<int>& candidates, const Eigen::MatrixXd& similarity,
                                     RelevanceEstimate estimate) {
  if (profile_items.size() != profile_ratings.size())
    throw Error(fmt::format("item-based relevance: {} profile items, {} ratings", profile_items.size(),
                            profile_ratings.size()));
  const Eigen::Index n = similarity.rows();
  for (const std::vector<int>* items : {&profile_items, &candidates})
    for (const int i : *items)
      if (i < 0 || i >= n || similarity.cols() != n)
        throw Error(fmt::format("item-based relevance: item {} outside the {} x {} similarity matrix", i, n, similarity.cols()));
  // W_{kappa i} = W(i, kappa): column kappa, accumulated in profile order for every item at once.
  Eigen::VectorXd weighted = Eigen::VectorXd::Zero(n), mass;
  if (estimate == RelevanceEstimate::normalized) mass = Eigen::VectorXd::Zero(n);
  for (std::size_t a = 0; a < profile_items.size(); ++a) {
    const auto column = similarity.col(profile_items[a]);
    weighted.noalias() += profile_ratings[a] * column;
    if (estimate == RelevanceEstimate::normalized) mass.array() += column.array().abs();
  }
  Eigen::VectorXd relevance(static_cast<Eigen::Index>(candidates.size()));
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const int i = candidates[c];
    relevance[static_cast<Eigen::Index>(c)] =
        estimate == RelevanceEstimate::raw ? weighted[i] : (mass[i] > 0.0 ? weighted[i] / mass[i] : 0.0);
  }
  return relevance;
}

std::vector<int> mmr_rerank(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                            const Eigen::MatrixXd& similarity, const RerankOptions& options) {
  check_inputs(relevance, candidates, similarity, options, "MMR");
  // diversity = -max_{j in S} W_ij (0 while S is empty).
  return greedy_rerank(relevance, candidates, similarity, options,
                       [](double diversity, double w) { return std::min(diversity, -w); });
}

std::vector<int> msd_rerank(const Eigen::VectorXd& relevance, const std::vector<int>& candidates,
                            const Eigen::MatrixXd& similarity, const RerankOptions& options) {
  check_inputs(relevance, candidates, similarity, options, "MSD");
  const double sign = options.printed_sign ? -1.0 : 1.0;
  return greedy_rerank(relevance, candidates, similarity, options,
                       [sign](double diversity, double w) { return diversity + sign * (1.0 - w); });
}

}  // namespace mpg::diversity
