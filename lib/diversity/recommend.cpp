#include "lib/diversity/recommend.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>

#include "lib/base/error.hpp"

namespace mpg::diversity {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// CPU time of the calling thread (a per-user figure that other processes' load does not inflate).
double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// A user's profile (items and ratings) and candidates (unrated items, increasing id).
struct UserView {
  std::vector<int> profile_items;
  std::vector<double> profile_ratings;
  std::vector<int> candidates;
};

UserView user_view(const RatingTable& train, int user, bool relevant_only) {
  UserView view;
  const auto& rated = train.by_user[static_cast<std::size_t>(user)];
  std::size_t next = 0;
  for (int item = 0; item < train.items; ++item) {
    if (next < rated.size() && rated[next].first == item) {
      if (!relevant_only || rated[next].second >= kRelevantRating) {
        view.profile_items.push_back(item);
        view.profile_ratings.push_back(rated[next].second);
      }
      ++next;
    } else {
      view.candidates.push_back(item);
    }
  }
  return view;
}

}  // namespace

DiversityMethod parse_diversity_method(const std::string& name) {
  if (name == "sdr") return DiversityMethod::sdr;
  if (name == "sdr_conv") return DiversityMethod::sdr_relaxed;
  if (name == "mmr") return DiversityMethod::mmr;
  if (name == "msd") return DiversityMethod::msd;
  throw Error(fmt::format("unknown diversity method '{}' (expected sdr, sdr_conv, mmr or msd)", name));
}

std::string to_string(DiversityMethod method) {
  switch (method) {
    case DiversityMethod::sdr: return "sdr";
    case DiversityMethod::sdr_relaxed: return "sdr_conv";
    case DiversityMethod::mmr: return "mmr";
    case DiversityMethod::msd: return "msd";
  }
  return "?";
}

DiversitySplit prepare_split(const std::vector<Rating>& ratings, int users, int items, const SplitOptions& options) {
  const auto start = Clock::now();
  HoldoutSplit held = holdout_split(ratings, options.holdout);
  DiversitySplit split;
  split.train = RatingTable(users, items, held.train);
  split.test = std::move(held.test);
  if (options.similarity == SimilaritySource::cosine) {
    split.similarity = cosine_item_similarity(split.train);
  } else {
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(held.train.size());
    for (const Rating& r : held.train) entries.emplace_back(r.user, r.item, r.value);
    WeightedAlsResult als = train_weighted_als(users, items, entries, options.als);
    split.similarity = latent_item_similarity(als.model.item_factors);
    split.summary.als = std::move(als.summary);
  }
  split.summary.train_ratings = held.train.size();
  split.summary.test_ratings = split.test.size();
  split.summary.seconds = seconds_since(start);
  return split;
}

Recommendations recommend(const DiversitySplit& split, const std::vector<int>& users, std::size_t k,
                          const DiversityMethodOptions& options) {
  const auto start = Clock::now();
  if (k == 0) throw Error("recommend: k must be >= 1");
  for (const int u : users)
    if (u < 0 || u >= split.train.users) throw Error(fmt::format("recommend: user {} outside 0..{}", u, split.train.users - 1));
  const bool coverage_method = options.method == DiversityMethod::sdr || options.method == DiversityMethod::sdr_relaxed;
  if (coverage_method && !(options.gamma >= 0.0 && options.gamma <= 1.0))
    throw Error(fmt::format("recommend: gamma = {} is outside [0, 1]", options.gamma));
  if (options.method == DiversityMethod::sdr_relaxed && options.gamma == 0.0)
    throw Error("recommend: SDR conv needs gamma in (0, 1]");
  if (!coverage_method && !(options.lambda >= 0.0 && options.lambda <= 1.0))
    throw Error(fmt::format("recommend: lambda = {} is outside [0, 1]", options.lambda));

  // f^{-1}(W) and f(f^{-1}(W)) for all item pairs, once per call: the greedy reads each user's
  // problem in place, SDR conv copies its block of the cover.
  CoverageMatrices matrices;
  if (coverage_method)
    matrices = make_coverage_matrices(split.similarity, options.gamma, options.method == DiversityMethod::sdr);
  else require_symmetric(split.similarity, "recommend");

  Recommendations out;
  out.users = users;
  out.lists.resize(users.size());
  std::vector<double> user_seconds(users.size(), 0.0);
  std::vector<std::size_t> evaluations(users.size(), 0);
  std::vector<FrankWolfeSummary> relaxations(users.size());
  tbb::parallel_for(std::size_t{0}, users.size(), [&](std::size_t a) {
    const double user_start = thread_cpu_seconds();
    const UserView view = user_view(split.train, users[a], options.profile_relevant_only);
    switch (options.method) {
      case DiversityMethod::sdr:
      case DiversityMethod::sdr_relaxed: {
        const Eigen::VectorXd utility = Eigen::Map<const Eigen::VectorXd>(
            view.profile_ratings.data(), static_cast<Eigen::Index>(view.profile_ratings.size()));
        if (options.method == DiversityMethod::sdr) {
          GreedyOptions greedy;
          greedy.k = k;
          greedy.lazy = options.lazy_greedy;
          GreedyResult result = sdr_greedy(matrices, view.profile_items, utility, view.candidates, greedy);
          evaluations[a] = result.summary.gain_evaluations;
          out.lists[a] = std::move(result.items);
        } else {
          CoverageProblem problem;
          problem.gamma = options.gamma;
          problem.cover = gather_symmetric_block(matrices.cover, view.profile_items, view.candidates);
          problem.utility = utility;
          problem.candidates = view.candidates;
          FrankWolfeOptions fw;
          fw.k = k;
          fw.tolerance = options.relaxation_tolerance;
          fw.max_iterations = options.relaxation_max_iterations;
          RelaxationResult result = sdr_relaxed(problem, fw);
          relaxations[a] = result.summary;
          out.lists[a] = std::move(result.items);
        }
        break;
      }
      case DiversityMethod::mmr:
      case DiversityMethod::msd: {
        const Eigen::VectorXd relevance = item_based_relevance(view.profile_items, view.profile_ratings, view.candidates,
                                                               split.similarity, options.relevance);
        RerankOptions rerank;
        rerank.lambda = options.lambda;
        rerank.k = k;
        rerank.printed_sign = options.msd_printed_sign;
        out.lists[a] = options.method == DiversityMethod::mmr ? mmr_rerank(relevance, view.candidates, split.similarity, rerank)
                                                              : msd_rerank(relevance, view.candidates, split.similarity, rerank);
        break;
      }
    }
    user_seconds[a] = thread_cpu_seconds() - user_start;
  });

  RecommendSummary& summary = out.summary;
  summary.users = static_cast<int>(users.size());
  for (std::size_t a = 0; a < users.size(); ++a) {
    summary.gain_evaluations += evaluations[a];
    const FrankWolfeSummary& fw = relaxations[a];
    if (options.method == DiversityMethod::sdr_relaxed) {
      summary.relaxations_not_converged += !fw.converged;
      summary.max_relative_gap = std::max(summary.max_relative_gap, fw.gap / std::max(1.0, fw.objective));
      summary.max_frank_wolfe_iterations = std::max(summary.max_frank_wolfe_iterations, fw.iterations);
    }
  }
  if (!user_seconds.empty()) {
    std::vector<double> sorted = user_seconds;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    summary.median_user_seconds = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    summary.max_user_seconds = sorted.back();
  }
  summary.seconds = seconds_since(start);
  return out;
}

}  // namespace mpg::diversity
