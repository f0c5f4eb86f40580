// Google Benchmark case for the SSVM baseline (baselines/structured_svm.*): a whole training
// on an OPTDIGITS-sized synthetic file (n = 2,549, 64 integer features in 0..16 plus the bias,
// the top 10% of a noisy linear score positive, F1 loss) for C = 1 and C = 64. bench/README.md
// has the figures on the real OPTDIGITS and ADULT cells.
#include <benchmark/benchmark.h>

#include <random>

#include "baselines/structured_svm.hpp"

namespace {

void BM_SsvmTrainF1(benchmark::State& state) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> pixel(0, 16);
  std::normal_distribution<double> normal(0.0, 1.0);
  const Eigen::Index n = 2549, d = 64;
  Eigen::VectorXd direction(d);
  for (auto& v : direction) v = normal(rng);
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<double> score(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    double s = 0.0;
    for (Eigen::Index j = 0; j < d; ++j) {
      const int value = pixel(rng);
      if (value != 0) entries.emplace_back(i, j, value);
      s += direction[j] * value;
    }
    entries.emplace_back(i, d, 1.0);
    score[static_cast<std::size_t>(i)] = s + 20.0 * normal(rng);
  }
  mpg::SparseRowMatrix features(n, d + 1);
  features.setFromTriplets(entries.begin(), entries.end());
  std::vector<double> sorted = score;
  std::nth_element(sorted.begin(), sorted.begin() + n / 10, sorted.end(), std::greater<>());
  std::vector<int> labels(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = score[i] >= sorted[static_cast<std::size_t>(n / 10)];

  mpg::StructuredSvmOptions options;
  options.C = static_cast<double>(state.range(0));
  mpg::StructuredSvmSummary summary;
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_structured_svm(features, labels, options, &summary));
  state.counters["converged"] = summary.converged();
  state.counters["iterations"] = summary.iterations;
  state.counters["gap"] = summary.objective - summary.dual_objective;
}

}  // namespace

BENCHMARK(BM_SsvmTrainF1)->Arg(1)->Arg(64)->ArgName("C")->Unit(benchmark::kMillisecond)->Iterations(1);
