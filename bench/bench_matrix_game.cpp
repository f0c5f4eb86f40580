// Google Benchmark case for the sub-game LP as the reference's double oracle grows it (the
// authors' protocols, thesis Algorithm 1 with the stop rule of lib/learn/protocol.hpp): a pool of
// 1,500 x 1,500 actions with scores in quarters (ties, as metric scores have) and offsets in
// [0, 0.3]; from one action each, the players alternately add their best response in the pool
// to the last LP's strategy, one solve after each, until the LP value repeats at 1e-8 or a player
// holds 300 actions. Arg: 0 = the plain GLPK backend, 1 = over working sets (the default,
// lib/game/working_set_game.hpp). Counters: LP solves, actions at the stop, the last value, and
// the supports of the last LP (here ~2/3 of the actions: the working set stands aside; Table
// XIII's Hansards games mix over far fewer, and there it halves the LP time).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

#include "lib/game/matrix_game.hpp"
#include "lib/game/working_set_game.hpp"

namespace {

struct Pool {
  Eigen::MatrixXd scores;
  Eigen::VectorXd offsets;
};

const Pool& pool() {
  static const Pool p = [] {
    std::mt19937_64 engine(2026);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Pool out;
    const Eigen::Index n = 1500;
    out.scores = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return std::floor(unit(engine) * 5.0) / 4.0; });
    out.offsets = Eigen::VectorXd::NullaryExpr(n, [&] { return 0.3 * unit(engine); });
    return out;
  }();
  return p;
}

void BM_GrowingGameReferenceRule(benchmark::State& state) {
  const Pool& p = pool();
  const auto backend = state.range(0) == 1 ? mpg::make_lp_backend("glpk") : mpg::make_glpk_backend();
  int solves = 0, actions = 0;
  double value = 0.0;
  for (auto _ : state) {
    std::vector<Eigen::Index> rows{0}, columns{0};
    auto game = backend->new_game(p.scores.topLeftCorner(1, 1), p.offsets.head(1));
    solves = 0;
    double previous = std::nan("");
    auto solve_repeats = [&] {
      const mpg::MatrixGameSolution s = game->solve();
      ++solves;
      const bool repeated = std::round(previous / 1e-8) == std::round(s.value / 1e-8);
      previous = value = s.value;
      return std::make_pair(s, repeated);
    };
    for (;;) {
      auto [s, repeated] = solve_repeats();
      if (repeated || rows.size() >= 300 || columns.size() >= 300) break;
      // The adversary's best response to p: argmin_j (p^T S)_j - c_j over the pool.
      Eigen::VectorXd against = p.scores(rows, Eigen::all).transpose() * s.row_strategy - p.offsets;
      Eigen::Index j = 0;
      against.minCoeff(&j);
      if (std::find(columns.begin(), columns.end(), j) == columns.end()) {
        game->add_column(p.scores(rows, j), p.offsets[j]);
        columns.push_back(j);
      }
      std::tie(s, repeated) = solve_repeats();
      if (repeated || columns.size() >= 300) break;
      // The predictor's best response to q: argmax_i (S q)_i over the pool.
      const Eigen::VectorXd gains = p.scores(Eigen::all, columns) * s.column_strategy;
      Eigen::Index i = 0;
      gains.maxCoeff(&i);
      if (std::find(rows.begin(), rows.end(), i) == rows.end()) {
        game->add_row(p.scores(i, columns).transpose());
        rows.push_back(i);
      }
    }
    actions = static_cast<int>(std::max(rows.size(), columns.size()));
    const auto last = game->solve();
    state.counters["support_p"] = double((last.row_strategy.array() > 0).count());
    state.counters["support_q"] = double((last.column_strategy.array() > 0).count());
  }
  state.counters["solves"] = solves;
  state.counters["actions"] = actions;
  state.counters["value"] = value;
}
BENCHMARK(BM_GrowingGameReferenceRule)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
