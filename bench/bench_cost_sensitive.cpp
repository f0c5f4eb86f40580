// Google Benchmark cases for the learners of Parambath's thesis ch. 2 (issue 26), on the real
// data of the shared folder ($MPG_DATA_DIR, else <source>/../shared/datasets; skipped if absent):
//   one training on the Adult training part (21,707 rows of adult.data, content split 1, the
//   constant feature 100) of the in-tree weighted SVM (cold, and the 13-value C path with warm
//   starts), LIBLINEAR -s 3 and -s 0; the 14 Yeast labels' C paths at t = 0.1; one RBF training on Yeast (1,000 rows, 14 labels' first,
//   gamma 2^-4) and the Gram matrix it reuses. bench/README.md has the figures and the grid costs.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "baselines/f_measure_reduction.hpp"
#include "baselines/kernel_svm.hpp"
#include "baselines/liblinear.hpp"
#include "baselines/weighted_svm.hpp"
#include "lib/data/adult.hpp"
#include "lib/data/content_split.hpp"
#include "lib/data/multilabel.hpp"

namespace {

std::string data_file(const std::string& name) {
  const char* dir = std::getenv("MPG_DATA_DIR");
  const std::string base = dir != nullptr && *dir != '\0' ? dir : std::string(MPG_SOURCE_DIR) + "/../shared/datasets";
  return base + "/" + name;
}

struct AdultPart {
  mpg::SparseRowMatrix features;
  std::vector<int> labels;
};

// The training part of split 1 (2/3 of adult.data), or nothing if the file is absent.
const AdultPart* adult_training_part() {
  static const AdultPart* part = [] {
    const std::string path = data_file("adult/adult.data.gz");
    if (!std::filesystem::exists(path)) return static_cast<AdultPart*>(nullptr);
    mpg::LibsvmReadOptions options;
    options.bias = 100.0;
    const mpg::LibsvmData data = mpg::read_adult(path, options);
    std::vector<int> labels;
    for (const double y : data.labels) labels.push_back(y > 0 ? 1 : 0);
    const mpg::ContentSplit split = mpg::content_split(mpg::content_keys(data.features, {labels}, 1), 1.0 / 3.0);
    return new AdultPart{mpg::select_rows(data.features, split.kept), mpg::select_entries(labels, split.kept)};
  }();
  return part;
}

void BM_WeightedSvmAdult(benchmark::State& state) {
  const AdultPart* adult = adult_training_part();
  if (adult == nullptr) return state.SkipWithError("adult.data.gz not found");
  mpg::WeightedSvmOptions options;
  options.C = std::ldexp(1.0, static_cast<int>(state.range(0)));
  options.positive_weight = mpg::fn_weight(static_cast<double>(state.range(1)) / 10.0);
  mpg::WeightedSvmSummary summary;
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_weighted_svm(adult->features, adult->labels, options, &summary));
  state.counters["converged"] = summary.converged;
  state.counters["passes"] = static_cast<double>(summary.passes);
  state.counters["rel_gap"] = summary.gap / summary.primal;
}

// The 13 C values of the thesis' grid at one cost, each warm-started from the previous C.
void BM_WeightedSvmAdultPath(benchmark::State& state) {
  const AdultPart* adult = adult_training_part();
  if (adult == nullptr) return state.SkipWithError("adult.data.gz not found");
  mpg::WeightedSvmOptions options;
  options.positive_weight = mpg::fn_weight(static_cast<double>(state.range(0)) / 10.0);
  long not_converged = 0;
  for (auto _ : state) {
    mpg::WeightedSvmModel previous;
    bool first = true;
    for (const double C : mpg::default_c_grid()) {
      options.C = C;
      mpg::WeightedSvmSummary summary;
      previous = mpg::train_weighted_svm(adult->features, adult->labels, options, &summary, first ? nullptr : &previous);
      not_converged += summary.converged ? 0 : 1;
      first = false;
    }
  }
  state.counters["not_converged"] = static_cast<double>(not_converged);
}

void BM_LiblinearAdult(benchmark::State& state) {
  const AdultPart* adult = adult_training_part();
  if (adult == nullptr) return state.SkipWithError("adult.data.gz not found");
  const mpg::LiblinearProblem problem(adult->features, adult->labels);
  mpg::LiblinearOptions options;
  options.solver = state.range(0) == 0 ? mpg::LiblinearSolver::logistic_regression : mpg::LiblinearSolver::hinge_svm_dual;
  options.C = std::ldexp(1.0, static_cast<int>(state.range(1)));
  mpg::LiblinearSummary summary;
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_liblinear(problem, options, &summary));
  state.counters["converged"] = summary.converged;
  state.counters["iterations"] = static_cast<double>(summary.iterations);
}

struct YeastPart {
  Eigen::MatrixXd points;
  std::vector<int> labels;  // label 0
};

const YeastPart* yeast_training_part() {
  static const YeastPart* part = [] {
    const std::string path = data_file("multilabel_mulan/yeast-train.data.csv.gz");
    if (!std::filesystem::exists(path)) return static_cast<YeastPart*>(nullptr);
    mpg::MultilabelReadOptions options;
    options.labels = 14;
    const mpg::MultilabelData data = mpg::read_multilabel_csv(path, options);
    const mpg::ContentSplit split = mpg::content_split(mpg::content_keys(data.features, data.labels, 1), 1.0 / 3.0);
    return new YeastPart{Eigen::MatrixXd(mpg::select_rows(data.features, split.kept)),
                         mpg::select_entries(data.labels[0], split.kept)};
  }();
  return part;
}

// Yeast split 1's training part with the constant feature 100 and all 14 labels (linear SVM).
struct YeastLinear {
  mpg::SparseRowMatrix features;
  std::vector<std::vector<int>> labels;
};

const YeastLinear* yeast_linear_part() {
  static const YeastLinear* part = [] {
    const std::string path = data_file("multilabel_mulan/yeast-train.data.csv.gz");
    if (!std::filesystem::exists(path)) return static_cast<YeastLinear*>(nullptr);
    mpg::MultilabelReadOptions options;
    options.labels = 14;
    options.bias = 100.0;
    const mpg::MultilabelData data = mpg::read_multilabel_csv(path, options);
    const mpg::ContentSplit split = mpg::content_split(mpg::content_keys(data.features, data.labels, 1), 1.0 / 3.0);
    auto* out = new YeastLinear{mpg::select_rows(data.features, split.kept), {}};
    for (const auto& column : data.labels) out->labels.push_back(mpg::select_entries(column, split.kept));
    return out;
  }();
  return part;
}

// Every Yeast label's 13-C warm-started path at t = 0.1 (FN weight 19), where dual coordinate
// descent hit its pass cap on the frequent labels; arg: 0 dual_cd, 1 primal_newton.
void BM_WeightedSvmYeastPath(benchmark::State& state) {
  const YeastLinear* yeast = yeast_linear_part();
  if (yeast == nullptr) return state.SkipWithError("yeast-train.data.csv.gz not found");
  mpg::WeightedSvmOptions options;
  options.positive_weight = mpg::fn_weight(0.1);
  options.solver = state.range(0) == 0 ? mpg::WeightedSvmSolver::dual_cd : mpg::WeightedSvmSolver::primal_newton;
  long not_converged = 0;
  for (auto _ : state) {
    for (const auto& labels : yeast->labels) {
      mpg::WeightedSvmModel previous;
      bool first = true;
      for (const double C : mpg::default_c_grid()) {
        options.C = C;
        mpg::WeightedSvmSummary summary;
        previous = mpg::train_weighted_svm(yeast->features, labels, options, &summary, first ? nullptr : &previous);
        not_converged += summary.converged ? 0 : 1;
        first = false;
      }
    }
  }
  state.counters["not_converged"] = static_cast<double>(not_converged);
}

void BM_RbfGramYeast(benchmark::State& state) {
  const YeastPart* yeast = yeast_training_part();
  if (yeast == nullptr) return state.SkipWithError("yeast-train.data.csv.gz not found");
  for (auto _ : state) benchmark::DoNotOptimize(mpg::RbfGram(yeast->points, 0.0625));
}

void BM_KernelSvmYeast(benchmark::State& state) {
  const YeastPart* yeast = yeast_training_part();
  if (yeast == nullptr) return state.SkipWithError("yeast-train.data.csv.gz not found");
  const mpg::RbfGram gram(yeast->points, 0.0625);
  mpg::KernelSvmOptions options;
  options.C = std::ldexp(1.0, static_cast<int>(state.range(0)));
  options.positive_weight = mpg::fn_weight(static_cast<double>(state.range(1)) / 10.0);
  mpg::KernelSvmSummary summary;
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_kernel_svm(gram, yeast->labels, options, &summary));
  state.counters["converged"] = summary.converged;
  state.counters["updates"] = static_cast<double>(summary.iterations);
}

}  // namespace

// Args: log2 C, 10 t (FN weight (2 - t) / t).
BENCHMARK(BM_WeightedSvmAdult)->Args({0, 10})->Args({6, 1})->ArgNames({"log2C", "10t"})
    ->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_WeightedSvmAdultPath)->Arg(10)->Arg(1)->ArgName("10t")->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_WeightedSvmYeastPath)->Arg(1)->ArgName("primal")->Unit(benchmark::kMillisecond)->Iterations(1);
// Args: solver (0: -s 0, 1: -s 3), log2 C.
BENCHMARK(BM_LiblinearAdult)->Args({0, 0})->Args({1, 0})->ArgNames({"s3", "log2C"})
    ->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_RbfGramYeast)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_KernelSvmYeast)->Args({0, 10})->Args({6, 1})->ArgNames({"log2C", "10t"})
    ->Unit(benchmark::kMillisecond)->Iterations(1);
