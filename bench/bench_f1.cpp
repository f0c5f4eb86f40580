// Google Benchmark cases for the F1 game: both best responses and a whole game on one file of
// n examples, n in {10^3, 10^4, 3 * 10^4}. Data follow ../shared/bench/gen.py (10 N(0,1)
// features, ~25% positives); potentials psi_i = c (w . x_i - b) for two scales:
//   c = 1     large potentials: the equilibrium is a pure pair (what test games mostly are);
//   c = 0.02  the scale learned on syn1000/syn200 (|theta| ~ 0.02), where the equilibrium
//             mixes over tens of actions.
#include <benchmark/benchmark.h>

#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/f1.hpp"

namespace {

std::vector<double> synthetic_potentials(std::size_t n, double scale) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int d = 10;
  std::vector<double> w(d);
  for (auto& v : w) v = normal(rng);
  std::vector<double> psi(n);
  for (auto& p : psi) {
    double s = 0.0;
    for (int j = 0; j < d; ++j) s += w[static_cast<std::size_t>(j)] * normal(rng);
    p = scale * (s - 0.67);
  }
  return psi;
}

double scale_of(const benchmark::State& state) { return state.range(1) == 0 ? 1.0 : 0.02; }

// The equilibrium strategies of the game, as realistic opponents for the best responses.
mpg::GameSolution<mpg::BinaryAction> equilibrium(const mpg::F1Game& game) {
  return mpg::solve_double_oracle(game);
}

void BM_F1PredictorBestResponse(benchmark::State& state) {
  const mpg::F1Game game(synthetic_potentials(static_cast<std::size_t>(state.range(0)), scale_of(state)));
  const auto solution = equilibrium(game);
  for (auto _ : state) benchmark::DoNotOptimize(game.predictor_best_response(solution.adversary));
  state.counters["support"] = static_cast<double>(solution.adversary.size());
}

void BM_F1AdversaryBestResponse(benchmark::State& state) {
  const mpg::F1Game game(synthetic_potentials(static_cast<std::size_t>(state.range(0)), scale_of(state)));
  const auto solution = equilibrium(game);
  for (auto _ : state) benchmark::DoNotOptimize(game.adversary_best_response(solution.predictor));
  state.counters["support"] = static_cast<double>(solution.predictor.size());
}

void BM_F1Game(benchmark::State& state) {
  const mpg::F1Game game(synthetic_potentials(static_cast<std::size_t>(state.range(0)), scale_of(state)));
  mpg::DoubleOracleSummary summary;
  for (auto _ : state) summary = mpg::solve_double_oracle(game).summary;
  state.counters["iterations"] = summary.iterations;
  state.counters["gap"] = summary.gap;
  state.counters["converged"] = summary.converged();
  state.counters["support"] = summary.predictor_support + summary.adversary_support;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (long scale : {0, 1})
    for (long n : {1000, 10000, 30000}) b->Args({n, scale});
  b->ArgNames({"n", "hard"})->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_F1PredictorBestResponse)->Apply(sizes);
BENCHMARK(BM_F1AdversaryBestResponse)->Apply(sizes);
BENCHMARK(BM_F1Game)->Apply(sizes)->Iterations(1);

BENCHMARK_MAIN();
