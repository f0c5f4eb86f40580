// Google Benchmark cases of the SVMcompare and structured-AUC families (issue 31): one SVMcompare
// fit (libsvm, Gaussian kernel) and one rank2 fit (dual coordinate descent) on the l1 simulation
// with n pairs, rho = 1/2, at a mid-grid (C, sigma) = (1, 2^-1.9); the pairwise AUC hinge with its
// subgradient (O(n log n)) against the O(|pos||neg|) reference; the compact LP (6) with pairwise
// factors over all item pairs.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <random>

#include "baselines/svm_compare.hpp"
#include "baselines/svm_rank.hpp"
#include "lib/data/simulated_pairs.hpp"
#include "lib/models/structured_auc.hpp"

namespace {

mpg::PairData training_pairs(std::size_t n) {
  mpg::SimulatedPairsOptions options;
  options.norm = mpg::SquaredNorm::l1;
  const mpg::PairData pool = mpg::simulate_norm_pairs(options).pairs;
  return pool.subset(mpg::stratified_pair_sets(pool, n, 0.5, 1, 1)[0]);
}

void BM_SvmCompareGaussian(benchmark::State& state) {
  const mpg::PairData train = training_pairs(static_cast<std::size_t>(state.range(0)));
  mpg::SvmCompareOptions options;
  options.kernel = {mpg::KernelKind::gaussian, std::pow(2.0, -1.9)};
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_svm_compare(train, options));
}
BENCHMARK(BM_SvmCompareGaussian)->Arg(100)->Arg(400)->Arg(800)->Unit(benchmark::kMillisecond);

void BM_SvmRank2Gaussian(benchmark::State& state) {
  const mpg::PairData train = training_pairs(static_cast<std::size_t>(state.range(0)));
  mpg::SvmRankOptions options;
  options.variant = mpg::SvmRankVariant::rank2;
  options.kernel = {mpg::KernelKind::gaussian, std::pow(2.0, -1.9)};
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_svm_rank(train, options));
}
BENCHMARK(BM_SvmRank2Gaussian)->Arg(100)->Arg(400)->Arg(800)->Unit(benchmark::kMillisecond);

std::pair<Eigen::VectorXd, std::vector<int>> scored_items(int n) {
  std::mt19937_64 engine(3);
  std::normal_distribution<double> normal;
  Eigen::VectorXd a(n);
  std::vector<int> labels(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) labels[static_cast<std::size_t>(i)] = i % 4 == 0, a(i) = 0.01 * normal(engine) + 0.005 * (i % 4 == 0);
  return {a, labels};
}

// Test only (tests/bench_check.sh): MPG_BENCH_TEST_DELAY_MS = d makes BM_PairwiseAucHinge burn d
// extra milliseconds of CPU time per iteration (a busy loop, so that CPU-time figures see it too),
// the deliberate slowdown bench/check must flag. Unset (0) for every real measurement.
double test_delay_seconds() {
  static const double seconds = [] {
    const char* ms = std::getenv("MPG_BENCH_TEST_DELAY_MS");
    return ms != nullptr ? std::atof(ms) / 1e3 : 0.0;
  }();
  return seconds;
}

void burn_cpu(double seconds) {
  const std::clock_t end = std::clock() + static_cast<std::clock_t>(seconds * CLOCKS_PER_SEC);
  while (std::clock() < end) benchmark::ClobberMemory();
}

void BM_PairwiseAucHinge(benchmark::State& state) {
  const auto [a, labels] = scored_items(static_cast<int>(state.range(0)));
  Eigen::VectorXd gradient;
  const double delay = test_delay_seconds();
  for (auto _ : state) {
    benchmark::DoNotOptimize(mpg::pairwise_auc_hinge(a, labels, &gradient));
    if (delay > 0.0) burn_cpu(delay);
  }
}
BENCHMARK(BM_PairwiseAucHinge)->Arg(100)->Arg(1000)->Arg(10000);

void BM_PairwiseAucHingeReference(benchmark::State& state) {
  const auto [a, labels] = scored_items(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mpg::pairwise_auc_hinge_reference(a, labels));
}
BENCHMARK(BM_PairwiseAucHingeReference)->Arg(100)->Arg(1000);

void BM_RankingLpPairwise(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937_64 engine(5);
  std::normal_distribution<double> normal;
  mpg::RankingPotentials potentials;
  potentials.unary_off = Eigen::VectorXd::Zero(n);
  potentials.unary_on = Eigen::VectorXd(n);
  for (int i = 0; i < n; ++i) potentials.unary_on(i) = normal(engine);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      mpg::RankingFactor f;
      f.i = i, f.j = j;
      f.theta[3] = 0.3 * normal(engine);
      potentials.factors.push_back(f);
    }
  for (auto _ : state) benchmark::DoNotOptimize(mpg::solve_ranking_lp(potentials));
}
BENCHMARK(BM_RankingLpPairwise)->Arg(6)->Arg(14)->Unit(benchmark::kMillisecond);

}  // namespace
