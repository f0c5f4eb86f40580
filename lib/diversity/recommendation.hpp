// Relevance and diversity measures of top-k recommendation lists (Parambath thesis §3.4.2,
// "Performance metrics"; conventions the thesis leaves open are the digest's §3.7 defaults):
//   Genre Coverage     (1/|U|) sum_u |G(S_u) & G(R_u+)| / |G(R_u+)|, G = union of genres,
//                      R_u+ = the user's relevant rated (training) items; users with no genre
//                      in G(R_u+) are left out of the mean (counted in the scores)
//   Intra-List Dist.   (1/|U|) sum_u 1/(k(k-1)) sum_{i != j in S_u} |genres(i) xor genres(j)| / G
//                      (Hamming distance of genre vectors per genre: the thesis's magnitudes
//                      ~0.20 on MovieLens fit a division by the G = 18 genres)
//   Catalog Coverage   |union_u S_u+| / |X|, S_u+ = S_u & T_u, T_u = relevant test items
//   Stratified Recall  sum_u sum_{i in S_u+} (1/N_i+)^beta / sum_u sum_{i in T_u} (1/N_i+)^beta,
//                      N_i+ = relevant test ratings of item i (Steck 2011), beta = 0.5
//   DCG                (1/|U|) sum_u sum_{r=1..k} gain(item at rank r) / log2(r + 1), gain 1 for
//                      an item of T_u (binary, default) or 2^rating - 1 (graded)
//   Precision@k        (1/|U|) sum_u |S_u & T_u| / k
// Lists are truncated to their first k items; a shorter list is scored as it is (P@k still
// divides by k). Values are fractions; the thesis prints them x 100.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lib/diversity/protocol.hpp"

namespace mpg::diversity {

// What the lists are scored against, indexed by user and item (0-based).
struct RecommendationTruth {
  int genre_count = 0;                                        // G
  std::vector<std::uint32_t> item_genres;                     // genre bit mask of each item
  std::size_t catalog_size = 0;                               // |X|
  std::vector<std::vector<int>> liked_train;                  // R_u+, sorted
  std::vector<std::vector<std::pair<int, int>>> relevant_test;  // T_u as (item, rating), sorted by item
  std::vector<int> relevant_test_count;                       // N_i+ per item
};

// Builds the truth from the training and test ratings of `users` x `items`; relevant = rating
// >= relevant_rating.
RecommendationTruth make_recommendation_truth(int users, int items, const std::vector<Rating>& train,
                                              const std::vector<Rating>& test,
                                              std::vector<std::uint32_t> item_genres, int genre_count,
                                              std::size_t catalog_size, int relevant_rating = kRelevantRating);

enum class DcgGain { binary, graded };

struct RecommendationMetricOptions {
  double beta = 0.5;                  // popularity-stratified recall exponent
  DcgGain dcg_gain = DcgGain::binary;
  bool ild_per_genre = true;          // divide the Hamming distance by G
};

struct RecommendationScores {
  double genre_coverage = 0.0;
  double intra_list_distance = 0.0;
  double catalog_coverage = 0.0;
  double stratified_recall = 0.0;
  double dcg = 0.0;
  double precision = 0.0;
  int users = 0;                    // |U|
  int users_without_genres = 0;     // left out of Genre Coverage (empty G(R_u+))
};

// One user's pieces of the measures above (list truncated to k): the tables' bootstrap units.
struct UserScores {
  std::optional<double> genre_coverage;  // none: G(R_u+) is empty
  double intra_list_distance = 0.0, dcg = 0.0, precision = 0.0;
  double recall_hit = 0.0, recall_all = 0.0;  // the user's terms of Stratified Recall's two sums
  std::vector<int> hits;                      // S_u+ (sorted): Catalog Coverage's union
};

// Scores lists[a] as the list of users[a], each truncated to k.
std::vector<UserScores> score_users(const std::vector<int>& users, const std::vector<std::vector<int>>& lists,
                                    const RecommendationTruth& truth, std::size_t k,
                                    const RecommendationMetricOptions& options = {});
// The measures of a set of users' pieces: means over users (Genre Coverage over users with
// genres), Stratified Recall as the ratio of the summed terms, Catalog Coverage from the union.
RecommendationScores aggregate_scores(const std::vector<UserScores>& users, std::size_t catalog_size);

// score_recommendations = aggregate_scores(score_users(...)).
RecommendationScores score_recommendations(const std::vector<int>& users, const std::vector<std::vector<int>>& lists,
                                           const RecommendationTruth& truth, std::size_t k,
                                           const RecommendationMetricOptions& options = {});

// Per-user pieces (lists already truncated).
// |G(list) & G(liked)| / |G(liked)|; nullopt when the liked items have no genre.
std::optional<double> genre_coverage(const std::vector<int>& list, const std::vector<int>& liked,
                                     const std::vector<std::uint32_t>& item_genres);
// Mean Hamming distance of the genre masks over ordered pairs of distinct positions (0 for
// lists shorter than 2), not divided by G.
double intra_list_distance(const std::vector<int>& list, const std::vector<std::uint32_t>& item_genres);
// sum_r gain_r / log2(r + 1) against the user's relevant test items (item, rating).
double list_dcg(const std::vector<int>& list, const std::vector<std::pair<int, int>>& relevant_test, DcgGain gain);

}  // namespace mpg::diversity
