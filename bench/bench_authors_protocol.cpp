// Google Benchmark case for the authors' AdaDelta protocol (lib/models/binary/authors_protocol.hpp):
// F1-MPG training on ../shared/bench/syn200 / syn500 / syn1000 at lambda = 1/8 from theta = 0, the
// reference's settings and game stop rule (bench/README.md, "The authors' protocol beside the
// reference"). Files from MPG_BENCH_DIR (default <source>/../shared/bench); a missing file skips.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "lib/models/binary/authors_protocol.hpp"

namespace {

void BM_AuthorsAdaDeltaTraining(benchmark::State& state) {
  const char* env = std::getenv("MPG_BENCH_DIR");
  const std::string dir = env && *env ? env : std::string(MPG_SOURCE_DIR) + "/../shared/bench";
  const std::string path = dir + "/syn" + std::to_string(state.range(0)) + ".train";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("missing " + path).c_str());
    return;
  }
  const mpg::BinaryProblem problem = mpg::load_binary_problem(path, 1.0);
  mpg::AuthorsTrainOptions options;
  options.protocol = mpg::TrainingProtocol::authors_adadelta;
  options.lambda = 0.125;
  mpg::TrainSummary summary;
  for (auto _ : state) benchmark::DoNotOptimize(mpg::train_binary_mpg_authors(problem, {}, options, &summary));
  state.counters["passes"] = summary.optimizer.iterations;
  state.counters["games"] = static_cast<double>(summary.games);
  state.counters["capped_games"] = static_cast<double>(summary.unconverged_games);
  state.counters["objective"] = summary.optimizer.final_value;
}

}  // namespace

BENCHMARK(BM_AuthorsAdaDeltaTraining)->Arg(200)->Arg(500)->Arg(1000)->ArgName("n")->Unit(benchmark::kSecond)->Iterations(1);
