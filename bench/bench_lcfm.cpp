// Google Benchmark cases for the linear-chain F1 game (thesis Algorithms 3-4): the adversary's
// LCFM/MSUM best response and the predictor's GFM best response on one sentence of length T over
// m = 5 labels (O, PER, LOC, ORG, MISC), T in {15, 50, 125} (125 = the longest CoNLL-2003
// testb sentence of Table IX), against an opponent mixing over `support` random sequences;
// and a whole sentence game solved by the double oracle. Potentials are uniform in [-1, 1].
#include <benchmark/benchmark.h>

#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/linear_chain_f1.hpp"

namespace {

constexpr int kLabels = 5;

mpg::ChainScores random_potentials(std::size_t T, double scale) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-scale, scale);
  mpg::ChainScores s;
  s.unary.resize(static_cast<Eigen::Index>(T), kLabels);
  s.transition.resize(kLabels + 1, kLabels);
  for (Eigen::Index i = 0; i < s.unary.size(); ++i) s.unary.data()[i] = u(rng);
  for (Eigen::Index i = 0; i < s.transition.size(); ++i) s.transition.data()[i] = u(rng);
  return s;
}

mpg::MixedStrategy<mpg::LabelSequence> random_strategy(std::size_t T, int support) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> label(0, kLabels - 1);
  mpg::MixedStrategy<mpg::LabelSequence> s;
  for (int j = 0; j < support; ++j) {
    mpg::LabelSequence y(T);
    for (auto& c : y) c = label(rng);
    s.actions.push_back(y);
    s.probabilities.push_back(1.0 / support);
  }
  return s;
}

void BM_LcfmAdversaryBestResponse(benchmark::State& state) {
  const auto T = static_cast<std::size_t>(state.range(0));
  const mpg::LinearChainF1Game game(random_potentials(T, 1.0), 1);
  const auto predictor = random_strategy(T, static_cast<int>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(game.adversary_best_response(predictor));
}
BENCHMARK(BM_LcfmAdversaryBestResponse)
    ->Args({15, 5})->Args({50, 5})->Args({125, 1})->Args({125, 5})->Args({125, 20})
    ->Unit(benchmark::kMillisecond);

void BM_GfmPredictorBestResponse(benchmark::State& state) {
  const auto T = static_cast<std::size_t>(state.range(0));
  const mpg::LinearChainF1Game game(random_potentials(T, 1.0), 1);
  const auto adversary = random_strategy(T, static_cast<int>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(game.predictor_best_response(adversary));
}
BENCHMARK(BM_GfmPredictorBestResponse)->Args({15, 5})->Args({125, 5})->Args({125, 20})->Unit(benchmark::kMillisecond);

// A whole sentence game; scale 0.1 gives small potentials, where the players mix.
void BM_LinearChainGame(benchmark::State& state) {
  const auto T = static_cast<std::size_t>(state.range(0));
  const mpg::LinearChainF1Game game(random_potentials(T, static_cast<double>(state.range(1)) / 100.0), 1);
  mpg::DoubleOracleOptions options;
  options.tolerance = 1e-6;
  int iterations = 0;
  for (auto _ : state) {
    const auto solution = mpg::solve_double_oracle(game, options);
    iterations = solution.summary.iterations;
  }
  state.counters["do_iterations"] = iterations;
}
BENCHMARK(BM_LinearChainGame)->Args({15, 10})->Args({15, 100})->Args({125, 10})->Args({125, 100})
    ->Unit(benchmark::kMillisecond);

}  // namespace
