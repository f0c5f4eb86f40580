// The per-cell entry points of the relevance-diversity experiments (Parambath thesis §3.4.2):
// prepare one repetition (hold-out split, similarity W), then produce every requested user's
// top-k list with one method. The profile P of a user is its training ratings (item, rating);
// the candidates are the items it has not rated in training, in increasing id (the thesis: "the
// unrated movies in the training set are used as S").
//
// Greedy methods (SDR, MOD, MMR, MSD) are prefix-consistent: the list for k is the first k items
// of the list for any larger k, so one call at the largest k serves every k. SDR conv is not:
// call it once per k.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "lib/diversity/protocol.hpp"
#include "lib/diversity/rerank.hpp"
#include "lib/diversity/sdr.hpp"
#include "lib/diversity/weighted_als.hpp"

namespace mpg::diversity {

enum class SimilaritySource {
  cosine,  // cosine of the training rating columns (the main tables)
  als,     // cosine of weighted-ALS item factors, negatives clipped to 0 (Tables 3.21-3.24)
};

struct SplitOptions {
  HoldoutOptions holdout;
  SimilaritySource similarity = SimilaritySource::cosine;
  WeightedAlsOptions als;  // used with SimilaritySource::als
};

struct SplitSummary {
  std::size_t train_ratings = 0;
  std::size_t test_ratings = 0;
  double seconds = 0.0;      // split + similarity
  WeightedAlsSummary als;    // filled with SimilaritySource::als
};

// One repetition's data, shared by every method and user of a cell.
struct DiversitySplit {
  RatingTable train;
  std::vector<Rating> test;       // sorted by (user, item)
  Eigen::MatrixXd similarity;     // W, items x items, entries in [0, 1]
  SplitSummary summary;
};

DiversitySplit prepare_split(const std::vector<Rating>& ratings, int users, int items, const SplitOptions& options);

enum class DiversityMethod {
  sdr,          // greedy SDR (Algorithm 5/6); gamma = 1 is MOD, gamma = 0 the limit gamma -> 0
  sdr_relaxed,  // "SDR conv": top-k of the Frank-Wolfe solution of the convex relaxation
  mmr,
  msd,
};

// Parses "sdr" | "sdr_conv" | "mmr" | "msd" (throws mpg::Error otherwise); to_string inverts it.
DiversityMethod parse_diversity_method(const std::string& name);
std::string to_string(DiversityMethod method);

// Every option of a method, with its default, in one place.
struct DiversityMethodOptions {
  DiversityMethod method = DiversityMethod::sdr;
  double gamma = 0.1;                        // SDR saturation exponent in [0, 1] (thesis: 0.8, 0.5, 0.1, -> 0; MOD = 1)
  double lambda = 0.5;                       // MMR / MSD trade-off in [0, 1] (thesis: 0.1, 0.5, 0.8)
  bool msd_printed_sign = false;             // MSD: the thesis's printed "-" instead of the objective's "+"
  RelevanceEstimate relevance = RelevanceEstimate::raw;  // MMR / MSD relevance r(i)
  bool lazy_greedy = true;                   // SDR: Minoux's lazy greedy (same lists, fewer gains)
  double relaxation_tolerance = 1e-6;        // SDR conv: relative duality gap
  int relaxation_max_iterations = 5000;      // SDR conv: cap on Frank-Wolfe steps
  bool profile_relevant_only = false;        // profile = all training ratings (thesis) or ratings >= 4
};

struct RecommendSummary {
  int users = 0;
  double seconds = 0.0;               // wall time of the call
  double median_user_seconds = 0.0;   // per-user solve time, CPU seconds of its thread (building the
  double max_user_seconds = 0.0;      // user's problem included; not inflated by other load)
  std::size_t gain_evaluations = 0;   // SDR greedy: marginal gains computed, all users
  int relaxations_not_converged = 0;  // SDR conv: users whose gap stayed above the tolerance
  double max_relative_gap = 0.0;      // SDR conv: max over users of gap / max(1, F)
  int max_frank_wolfe_iterations = 0; // SDR conv
};

struct Recommendations {
  std::vector<int> users;               // as requested
  std::vector<std::vector<int>> lists;  // lists[a] = top-k items of users[a], best first
  RecommendSummary summary;
};

// Users are scored in parallel (TBB); the lists do not depend on the thread count.
Recommendations recommend(const DiversitySplit& split, const std::vector<int>& users, std::size_t k,
                          const DiversityMethodOptions& options);

}  // namespace mpg::diversity
