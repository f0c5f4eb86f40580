// Google Benchmark cases for the DCG game of one query (thesis §4.2.4) with n documents and
// 3 relevance levels: both best responses, the greedy solver the learner uses, the compact LP, and the
// generic double oracle on small queries. Potentials psi_j(s) = scale * s * (w . x_j + noise)
// imitate a learned model. The second argument picks the kind: 0 -> negative offsets (the
// adversary mostly plays 0: pure equilibria), 1 -> potentials near gain x discount of the top
// positions (mixed equilibria as in trained MQ2008 games, where double oracle needs many
// iterations).
#include <benchmark/benchmark.h>

#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/dcg.hpp"

namespace {

// scale > 0: psi_j(s) = scale * (offset + slope * quality + noise); scale = 0: the mixed kind.
mpg::DcgGame synthetic_game(int n, double scale = 1.0) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(n, 3);
  for (int j = 0; j < n; ++j) {
    const double quality = normal(rng);
    if (scale > 0.0) {
      psi(j, 1) = scale * (0.5 * quality - 0.5 + 0.1 * normal(rng));
      psi(j, 2) = scale * (1.0 * quality - 1.5 + 0.1 * normal(rng));
    } else {  // potentials near gain x discount of the top positions: mixed equilibria
      psi(j, 1) = 0.6 + 0.3 * quality;
      psi(j, 2) = 1.8 + 0.9 * quality;
    }
  }
  return mpg::DcgGame(psi, mpg::DcgDiscount::letor);
}

void BM_DcgPredictorBestResponse(benchmark::State& state) {
  const auto game = synthetic_game(static_cast<int>(state.range(0)));
  const auto eq = mpg::solve_dcg_game(game);
  // A product adversary strategy with the equilibrium marginals' most likely level per document.
  mpg::MixedStrategy<std::vector<int>> adversary;
  adversary.actions.push_back(game.adversary_best_response(eq.predictor).action);
  adversary.probabilities.push_back(1.0);
  for (auto _ : state) benchmark::DoNotOptimize(game.predictor_best_response(adversary));
}

void BM_DcgAdversaryBestResponse(benchmark::State& state) {
  const auto game = synthetic_game(static_cast<int>(state.range(0)));
  const auto eq = mpg::solve_dcg_game(game);
  for (auto _ : state) benchmark::DoNotOptimize(game.adversary_best_response(eq.predictor));
  state.counters["support"] = static_cast<double>(eq.predictor.size());
}

void BM_DcgGameLp(benchmark::State& state) {
  const auto game = synthetic_game(static_cast<int>(state.range(0)), state.range(1) == 0 ? 1.0 : 0.0);
  std::size_t support = 0;
  for (auto _ : state) {
    const auto eq = mpg::solve_dcg_game(game);
    support = eq.predictor.size();
    benchmark::DoNotOptimize(eq.value);
  }
  state.counters["support"] = static_cast<double>(support);
}

// The polymatroid greedy (lib/metrics/dcg_greedy.cpp); range(2) = 1 adds the predictor's
// permutation mixture (prediction), 0 is what learning computes (value and marginals).
void BM_DcgGameGreedy(benchmark::State& state) {
  const auto game = synthetic_game(static_cast<int>(state.range(0)), state.range(1) == 0 ? 1.0 : 0.0);
  std::size_t support = 0;
  double gap = 0.0;
  for (auto _ : state) {
    const auto eq = mpg::solve_dcg_game_greedy(game, state.range(2) == 1);
    support = eq.predictor.size();
    gap = eq.gap;
    benchmark::DoNotOptimize(eq.value);
  }
  state.counters["support"] = static_cast<double>(support);
  state.counters["gap"] = gap;
}

void BM_DcgGameDoubleOracle(benchmark::State& state) {
  const auto game = synthetic_game(static_cast<int>(state.range(0)), state.range(1) == 0 ? 1.0 : 0.0);
  int iterations = 0;
  for (auto _ : state) {
    const auto solution = mpg::solve_double_oracle(game);
    iterations = solution.summary.iterations;
    benchmark::DoNotOptimize(solution.summary.value);
  }
  state.counters["iterations"] = iterations;
}

}  // namespace

BENCHMARK(BM_DcgPredictorBestResponse)->Arg(20)->Arg(120)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DcgAdversaryBestResponse)->Arg(20)->Arg(120)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DcgGameLp)->ArgsProduct({{10, 20, 40, 120}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DcgGameGreedy)->ArgsProduct({{10, 20, 40, 120, 300}, {0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DcgGameDoubleOracle)->ArgsProduct({{10, 20, 40}, {0, 1}})->Unit(benchmark::kMillisecond);
