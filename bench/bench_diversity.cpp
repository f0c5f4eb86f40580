// Google Benchmark cases for the relevance-diversity methods (Parambath thesis ch. 3) on
// MovieLens 100K, repetition 0 of the protocol (3 % of each user's ratings held out, cosine W of
// the training matrix): each case builds the lists of all 943 users once (Iterations(1)) and
// reports the per-user solve time (median, max) and the call's wall time with TBB's threads.
// Skipped when the data is not under $MPG_DATA_DIR (default ../shared/datasets).
//   BM_DiversitySplit/<als>        hold-out split + similarity (0: cosine, 1: weighted ALS)
//   BM_SdrAllUsers/<gamma%>/<lazy> SDR greedy, k = 50 (gamma% = 100 is MOD, 0 is gamma -> 0)
//   BM_SdrConvAllUsers/<k>         SDR conv (Frank-Wolfe, gamma = 0.5, relative gap 1e-4)
//   BM_RerankAllUsers/<msd>        MMR (0) or MSD (1), lambda = 0.5, k = 50
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <numeric>

#include "lib/data/movielens.hpp"
#include "lib/diversity/recommend.hpp"

namespace {

using namespace mpg::diversity;

struct MovieLens {
  std::vector<Rating> ratings;
  int users = 0, items = 0;
  DiversitySplit split;  // repetition 0, cosine
  std::vector<int> all_users;
};

// The data and split 0, loaded once; nullptr when the files are absent.
const MovieLens* movielens() {
  static const std::unique_ptr<MovieLens> data = []() -> std::unique_ptr<MovieLens> {
    const char* env = std::getenv("MPG_DATA_DIR");
    const std::string dir = (env != nullptr && *env != '\0' ? std::string(env) : std::string(MPG_SOURCE_DIR) + "/../shared/datasets") +
                            "/movielens100k/";
    if (!std::filesystem::exists(dir + "u.data.xz")) return nullptr;
    auto out = std::make_unique<MovieLens>();
    const mpg::MovieLensData raw = mpg::read_movielens({dir + "u.data.xz", dir + "u.item", dir + "u.genre", dir + "u.user"});
    out->ratings = to_ratings(raw);
    out->users = static_cast<int>(raw.users.size());
    out->items = static_cast<int>(raw.items.size());
    out->split = prepare_split(out->ratings, out->users, out->items, SplitOptions{});
    out->all_users.resize(static_cast<std::size_t>(out->users));
    std::iota(out->all_users.begin(), out->all_users.end(), 0);
    return out;
  }();
  return data.get();
}

void report(benchmark::State& state, const RecommendSummary& summary) {
  state.counters["users"] = summary.users;
  state.counters["median_user_ms"] = 1e3 * summary.median_user_seconds;
  state.counters["max_user_ms"] = 1e3 * summary.max_user_seconds;
  state.counters["wall_s"] = summary.seconds;
}

void BM_DiversitySplit(benchmark::State& state) {
  const MovieLens* data = movielens();
  if (data == nullptr) return state.SkipWithError("MovieLens 100K not found");
  SplitOptions options;
  options.similarity = state.range(0) == 1 ? SimilaritySource::als : SimilaritySource::cosine;
  for (auto _ : state) {
    const DiversitySplit split = prepare_split(data->ratings, data->users, data->items, options);
    state.counters["seconds"] = split.summary.seconds;
    if (options.similarity == SimilaritySource::als) {
      state.counters["als_sweeps"] = split.summary.als.iterations;
      state.counters["als_rmse"] = split.summary.als.rmse;
    }
  }
}

void BM_SdrAllUsers(benchmark::State& state) {
  const MovieLens* data = movielens();
  if (data == nullptr) return state.SkipWithError("MovieLens 100K not found");
  DiversityMethodOptions options;
  options.gamma = static_cast<double>(state.range(0)) / 100.0;
  options.lazy_greedy = state.range(1) == 1;
  for (auto _ : state) {
    const Recommendations lists = recommend(data->split, data->all_users, 50, options);
    report(state, lists.summary);
    state.counters["gains_per_user"] = static_cast<double>(lists.summary.gain_evaluations) / lists.summary.users;
  }
}

void BM_SdrConvAllUsers(benchmark::State& state) {
  const MovieLens* data = movielens();
  if (data == nullptr) return state.SkipWithError("MovieLens 100K not found");
  DiversityMethodOptions options;
  options.method = DiversityMethod::sdr_relaxed;
  options.gamma = 0.5;
  for (auto _ : state) {
    const Recommendations lists = recommend(data->split, data->all_users, static_cast<std::size_t>(state.range(0)), options);
    report(state, lists.summary);
    state.counters["not_converged"] = lists.summary.relaxations_not_converged;
    state.counters["max_fw_iterations"] = lists.summary.max_frank_wolfe_iterations;
  }
}

void BM_RerankAllUsers(benchmark::State& state) {
  const MovieLens* data = movielens();
  if (data == nullptr) return state.SkipWithError("MovieLens 100K not found");
  DiversityMethodOptions options;
  options.method = state.range(0) == 1 ? DiversityMethod::msd : DiversityMethod::mmr;
  options.lambda = 0.5;
  for (auto _ : state) report(state, recommend(data->split, data->all_users, 50, options).summary);
}

}  // namespace

BENCHMARK(BM_DiversitySplit)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SdrAllUsers)
    ->Args({100, 1})->Args({80, 1})->Args({50, 1})->Args({10, 1})->Args({0, 1})->Args({10, 0})
    ->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SdrConvAllUsers)->Arg(10)->Arg(20)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RerankAllUsers)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
