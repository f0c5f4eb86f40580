// Google Benchmark cases for CFG parsing (thesis §4.2.6 / §5.5, Table XIV) on the NLTK Penn
// Treebank sample's sentences of <= 10 words (registry ptb_nltk_sample; skipped without it):
//   BM_CykCorpus/<grammar>   one Viterbi CYK per sentence over all 393 sentences, for the grammar of
//                            the MPG/SSVM features (h = 0 '@X', random rule weights) and the two
//                            PCFG stand-ins, all read off every tree of the training documents
//                            (PtbSplit::train_all_lengths); counters: per-sentence median and max
//                            of the thread's CPU time (microseconds; wall time is meaningless on
//                            the shared machine);
//   BM_CfgBestResponse       both best responses of Algorithm 6 on the longest training sentence
//                            against an opponent mixing over `support` parses;
//   BM_CfgGameCorpus         the double oracle on every test sentence's MPG_cfg game at random
//                            potentials of scale `scale`/100; counters: median / max CPU time and
//                            iterations per game, the largest equilibrium gap.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <random>

#include "baselines/pcfg.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/metrics/cfg_hamming.hpp"

namespace {

struct Corpus {
  std::vector<mpg::PtbTree> train, grammar, all, test;
  bool loaded = false;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    const auto& archive = mpg::harness::dataset_registry()["ptb_nltk_sample"]["variants"]["nltk"]["archive"];
    const std::string zip = mpg::harness::data_directory() + "/" + archive["file"].get<std::string>();
    if (!std::filesystem::exists(zip)) return out;
    const auto split = mpg::split_ptb_sample(mpg::read_ptb_archive(zip));
    for (const auto& s : split.train) out.train.push_back(s.tree);
    for (const auto& s : split.train_all_lengths) out.grammar.push_back(s.tree);
    for (const auto* part : {&split.testa, &split.testb})
      for (const auto& s : *part) out.test.push_back(s.tree);
    out.all = out.train;
    out.all.insert(out.all.end(), out.test.begin(), out.test.end());
    out.loaded = true;
    return out;
  }();
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// CPU time of the calling thread.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The grammar of the MPG / SSVM features: '@X' binarization of the training trees.
const mpg::Grammar& feature_grammar() {
  static const mpg::Grammar g = [] {
    std::vector<mpg::PtbTree> cnf;
    for (const auto& t : corpus().grammar) cnf.push_back(mpg::to_cnf(t));
    return mpg::Grammar::from_cnf_trees(cnf);
  }();
  return g;
}

// range(0): 0 = feature grammar with random weights, 1 = treebank PCFG, 2 = Markovized PCFG.
void BM_CykCorpus(benchmark::State& state) {
  if (!corpus().loaded) {
    state.SkipWithError("ptb_nltk_sample not found (set MPG_DATA_DIR)");
    return;
  }
  const int which = static_cast<int>(state.range(0));
  mpg::Pcfg pcfg;
  if (which == 0) {
    pcfg.grammar = feature_grammar();
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (std::size_t r = 0; r < pcfg.grammar.rule_count(); ++r) pcfg.log_probabilities.push_back(u(rng));
  } else {
    pcfg = mpg::train_pcfg(corpus().grammar, mpg::pcfg_preset(which == 1 ? "treebank" : "markovized"));
  }
  std::vector<std::vector<int>> sentences;
  for (const auto& t : corpus().all) sentences.push_back(pcfg.grammar.tag_ids(mpg::tags_of(t)));
  std::vector<double> times(sentences.size(), 1e300);
  std::size_t unparsed = 0;
  for (auto _ : state) {
    unparsed = 0;
    for (std::size_t i = 0; i < sentences.size(); ++i) {
      const double t = thread_seconds();
      const auto result = mpg::cyk_parse(pcfg.grammar, sentences[i], {pcfg.log_probabilities, {}});
      times[i] = std::min(times[i], thread_seconds() - t);  // best of the iterations
      unparsed += !result.found;
      benchmark::DoNotOptimize(result);
    }
  }
  state.counters["sentences"] = static_cast<double>(sentences.size());
  state.counters["median_us"] = 1e6 * median(times);
  state.counters["max_us"] = 1e6 * *std::max_element(times.begin(), times.end());
  state.counters["rules"] = static_cast<double>(pcfg.grammar.rule_count());
  state.counters["labels"] = static_cast<double>(pcfg.grammar.label_count());
  state.counters["no_parse"] = static_cast<double>(unparsed);
}
BENCHMARK(BM_CykCorpus)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// range(0) = support of the opponent's strategy.
void BM_CfgBestResponse(benchmark::State& state) {
  if (!corpus().loaded) {
    state.SkipWithError("ptb_nltk_sample not found (set MPG_DATA_DIR)");
    return;
  }
  const mpg::Grammar& g = feature_grammar();
  const auto longest = *std::max_element(corpus().train.begin(), corpus().train.end(), [](const auto& a, const auto& b) {
    return mpg::sentence_length(a) < mpg::sentence_length(b);
  });
  const std::vector<int> tags = g.tag_ids(mpg::tags_of(longest));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> theta(g.rule_count());
  for (double& v : theta) v = u(rng);
  const mpg::CfgHammingGame game(g, tags, theta);
  mpg::MixedStrategy<mpg::CnfParse> opponent;
  for (int j = 0; j < state.range(0); ++j) {
    std::vector<double> w(g.rule_count());
    for (double& v : w) v = u(rng);
    opponent.actions.push_back(mpg::cyk_parse(g, tags, {w, {}}).parse);
    opponent.probabilities.push_back(1.0 / static_cast<double>(state.range(0)));
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(game.adversary_best_response(opponent));
    benchmark::DoNotOptimize(game.predictor_best_response(opponent));
  }
  state.counters["n"] = static_cast<double>(tags.size());
}
BENCHMARK(BM_CfgBestResponse)->Arg(1)->Arg(5)->Arg(20)->Unit(benchmark::kMicrosecond);

// range(0) = 100 x the scale of the random potentials.
void BM_CfgGameCorpus(benchmark::State& state) {
  if (!corpus().loaded) {
    state.SkipWithError("ptb_nltk_sample not found (set MPG_DATA_DIR)");
    return;
  }
  const mpg::Grammar& g = feature_grammar();
  std::mt19937 rng(3);
  const double scale = static_cast<double>(state.range(0)) / 100.0;
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> theta(g.rule_count());
  for (double& v : theta) v = u(rng);
  std::vector<std::vector<int>> sentences;
  for (const auto& t : corpus().test) {
    auto tags = g.tag_ids(mpg::tags_of(t));
    if (mpg::cyk_parse(g, tags, {}).found) sentences.push_back(std::move(tags));
  }
  std::vector<double> times(sentences.size()), iterations(sentences.size());
  double worst_gap = 0.0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < sentences.size(); ++i) {
      const double t = thread_seconds();
      const mpg::CfgHammingGame game(g, sentences[i], theta);
      const auto solution = mpg::solve_double_oracle(game, {});
      times[i] = thread_seconds() - t;
      iterations[i] = solution.summary.iterations;
      worst_gap = std::max(worst_gap, solution.summary.gap);
    }
  }
  state.counters["games"] = static_cast<double>(sentences.size());
  state.counters["median_ms"] = 1e3 * median(times);
  state.counters["max_ms"] = 1e3 * *std::max_element(times.begin(), times.end());
  state.counters["median_iter"] = median(iterations);
  state.counters["max_iter"] = *std::max_element(iterations.begin(), iterations.end());
  state.counters["max_gap"] = worst_gap;
}
BENCHMARK(BM_CfgGameCorpus)->Arg(0)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
