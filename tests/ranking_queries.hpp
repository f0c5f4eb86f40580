// Synthetic learning-to-rank queries shared by the ranker tests (tests/test_rankers.cpp,
// tests/test_ranking_ties.cpp).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "lib/models/ranking_mpg.hpp"

namespace mpg::testing {

// Feature 0 = latent relevance + small noise, features 1 and 2 noise; relevance 0..2 by
// thresholds on the latent score. Some queries have no relevant document.
inline std::vector<mpg::RankingQuery> synthetic_queries(int count, int documents, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<mpg::RankingQuery> queries;
  for (int q = 0; q < count; ++q) {
    mpg::RankingQuery query;
    query.features.resize(documents, 3);
    for (int j = 0; j < documents; ++j) {
      const double latent = q % 5 == 4 ? 0.2 * u(rng) : u(rng);
      query.relevance.push_back(latent > 0.8 ? 2 : latent > 0.5 ? 1 : 0);
      query.features(j, 0) = latent + 0.02 * u(rng);
      query.features(j, 1) = u(rng);
      query.features(j, 2) = u(rng);
    }
    queries.push_back(std::move(query));
  }
  return queries;
}

}  // namespace mpg::testing
