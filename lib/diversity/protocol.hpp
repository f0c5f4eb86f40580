// The data side of the relevance-diversity experiments (Parambath thesis §3.4.2): rating
// tables, the random hold-out of 3 % of the ratings repeated with fixed seeds, relevance
// (rating >= 4), the cosine item similarity of the training matrix, and eclectic users.
//
// Users and items are 0-based dense indices here (MovieLens id - 1). Every function sorts what
// it returns, so no result depends on the order of the input ratings.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/data/movielens.hpp"

namespace mpg::diversity {

struct Rating {
  int user = 0;
  int item = 0;
  int value = 0;
};

// Ratings grouped by user: by_user[u] = (item, value) pairs sorted by item.
struct RatingTable {
  int users = 0;
  int items = 0;
  std::vector<std::vector<std::pair<int, int>>> by_user;

  RatingTable() = default;
  RatingTable(int user_count, int item_count, const std::vector<Rating>& ratings);
  std::size_t size() const;  // number of ratings
  std::vector<Rating> ratings() const;  // sorted by (user, item)
};

// The ratings of a MovieLens file as 0-based (user, item, value) triples.
std::vector<Rating> to_ratings(const MovieLensData& data);

// Item genre sets as bit masks over `genres` kept genres (bit g = the g-th kept genre). With
// drop_unknown, a genre named "unknown" (MovieLens 100K's 19th flag, absent from the 18 genres
// of MovieLens 1M) is removed and the bits above it shift down.
struct GenreSets {
  std::vector<std::string> names;
  std::vector<std::uint32_t> of_item;
};
GenreSets item_genres(const MovieLensData& data, bool drop_unknown = true);

// Hold-out of a fraction of the ratings as test set (thesis: 3 %, "following Cremonesi et al.
// 2010", five repetitions). By default round(fraction * N) ratings drawn uniformly among all N
// (the thesis text: "3 % of the original data goes into testing"); per_user: round(fraction * n_u)
// ratings of each user u, drawn uniformly among the user's ratings (issue 27's wording; every
// MovieLens 100K user has >= 20 ratings, so >= 1 test rating). The draw depends only on (seed,
// the sorted ratings).
struct HoldoutOptions {
  double test_fraction = 0.03;
  bool per_user = false;
  std::uint64_t seed = 1;
};
struct HoldoutSplit {
  std::vector<Rating> train;  // sorted by (user, item)
  std::vector<Rating> test;   // sorted by (user, item)
};
HoldoutSplit holdout_split(std::vector<Rating> ratings, const HoldoutOptions& options);

// The seed of repetition r (0-based) of a protocol whose base seed is `seed`.
inline std::uint64_t repetition_seed(std::uint64_t seed, int repetition) {
  return seed + static_cast<std::uint64_t>(repetition);
}

// Relevance: a rating >= threshold (thesis: 4 and 5 on the 1..5 scale).
constexpr int kRelevantRating = 4;

// Cosine similarity between the item columns of the user x item rating matrix (missing = 0,
// ratings not centred): W_ij = <r_i, r_j> / (|r_i| |r_j|), in [0, 1]; W_ii = 1 for an item with
// a rating; an item without ratings has a zero row and column. Symmetric, items x items.
Eigen::MatrixXd cosine_item_similarity(const RatingTable& table);

// Cosine similarity between item factor vectors (rows of item_factors, e.g. of weighted ALS):
// negative cosines are clipped to 0 (W must lie in [0, 1] for SDR); an item whose factor is 0
// has a zero row and column; W_ii = 1 otherwise. Symmetric (the upper triangle mirrored).
Eigen::MatrixXd latent_item_similarity(const Eigen::MatrixXd& item_factors);

// Throws mpg::Error naming `who` unless W is square and exactly symmetric, as both similarities
// above are: the methods read W(kappa, i) as column kappa (contiguous) instead of row kappa.
void require_symmetric(const Eigen::MatrixXd& similarity, const char* who);

// Eclectic users (thesis §3.4.2 "Effect on eclectic users"): at least min_relevant relevant
// ratings and a mean pairwise similarity W_ij (i != j) between their rated items below
// max_mean_similarity. The thesis's MovieLens 1M thresholds are 100 and 0.2 (209 of 6,040
// users, 3.46 %). Rescaled to MovieLens 100K: 64 = 100 x 106.0 / 165.6 (ratings per user in
// 100K and 1M), and 0.23 so that the eclectic share matches the thesis's (32 of 943 users,
// 3.39 %, on all 100K ratings; 100K's denser matrix gives larger cosines: with 0.2, 9 users).
// With over_relevant_only the mean runs over the relevant rated items instead of all rated items.
struct EclecticOptions {
  int min_relevant = 64;
  double max_mean_similarity = 0.23;
  bool over_relevant_only = false;
  int relevant_rating = kRelevantRating;
};
struct EclecticUser {
  int user = 0;
  int relevant = 0;
  double mean_similarity = 0.0;
};
// Every user with its count and mean similarity (users with fewer than two rated items have
// mean similarity 0), and the selection.
std::vector<EclecticUser> user_eclecticism(const RatingTable& table, const Eigen::MatrixXd& similarity,
                                           const EclecticOptions& options);
std::vector<int> eclectic_users(const RatingTable& table, const Eigen::MatrixXd& similarity,
                                const EclecticOptions& options);

}  // namespace mpg::diversity
