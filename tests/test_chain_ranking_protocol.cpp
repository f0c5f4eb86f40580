// The authors' training protocols (lib/learn/protocol.hpp, issue 53) reach the linear-chain F1
// MPG and the DCG ranking MPG: training starts at theta = 0, runs the protocol's optimizer, and
// AdaDelta stops by the reference's test at the iterate an independent run of the recurrence
// (with the same objective as the oracle) reaches; the chain games follow the reference's stop rule.
#include <catch2/catch.hpp>

#include <cmath>
#include <deque>
#include <random>
#include <vector>

#include "lib/learn/protocol.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "lib/models/ranking_mpg.hpp"
#include "tests/ranking_queries.hpp"

using namespace mpg;

namespace {

std::vector<FeaturizedSentence> tiny_sentences(int count) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> label(0, 2), noise(0, 9);
  std::vector<FeaturizedSentence> sentences;
  for (int i = 0; i < count; ++i) {
    FeaturizedSentence s;
    for (int t = 0, T = 1 + i % 4; t < T; ++t) {
      const int y = label(rng);
      s.labels.push_back(y);
      s.features.push_back({static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(3 + noise(rng) % 3)});
    }
    sentences.push_back(s);
  }
  return sentences;
}

struct Replayed {
  Eigen::VectorXd theta;
  int passes = 0;
};

// Full-batch AdaDelta (batch = every instance, so each step is a pass) written out from the
// reference's description (shared/notes/mpg-java-reference.md §3.4), with `objective` as the oracle.
template <class Evaluate>
Replayed replay_adadelta(Evaluate evaluate, Eigen::Index dimension) {
  Replayed r;
  r.theta = Eigen::VectorXd::Zero(dimension);
  Eigen::ArrayXd eg = Eigen::ArrayXd::Zero(dimension), edx = Eigen::ArrayXd::Zero(dimension);
  std::deque<double> values;
  Eigen::VectorXd g(dimension);
  for (int pass = 1; pass <= 200; ++pass) {
    evaluate(r.theta, g);
    eg = 0.95 * eg + 0.05 * g.array().square();
    const Eigen::ArrayXd dx = (edx + 0.00247875217).sqrt() / (eg + 0.00247875217).sqrt() * g.array();
    r.theta -= dx.matrix();
    edx = 0.95 * edx + 0.05 * dx.square();
    Eigen::VectorXd unused(dimension);
    const double v = evaluate(r.theta, unused);
    values.push_back(v);
    if (values.size() > 10) values.pop_front();
    r.passes = pass;
    const double improvement = (values.front() - v) / std::min(10, pass);
    if (pass > 5 && std::abs(improvement / v) < 1e-4) break;
    const double step = dx.matrix().norm();
    if (step < 1e-6 * std::max(1.0, r.theta.lpNorm<1>()) && step < 1e-6 * std::max(1.0, r.theta.norm())) break;
  }
  return r;
}

}  // namespace

TEST_CASE("Linear-chain MPG under authors_adadelta: from theta = 0 to the reference's stop", "[chain_ranking_protocol]") {
  const auto sentences = tiny_sentences(6);
  const ChainLayout layout{6, 3};
  LinearChainMpgOptions options;
  options.target = 1;
  options.lambda = 0.5;
  options.protocol = TrainingProtocol::authors_adadelta;
  options.batch_size = 6;  // every sentence in one batch: each step is a pass
  options.initial_scale = 0.5;  // ignored: the authors' protocols start at 0
  const LinearChainMpgModel model = train_linear_chain_mpg(sentences, layout, options);
  const auto& optimizer = model.summary.optimizer;

  LinearChainMpgObjective objective(sentences, layout, options);  // the same games (authors' rule)
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  Eigen::VectorXd g0(zero.size());
  CHECK(optimizer.initial_value == objective.evaluate(zero, g0));  // the start is theta = 0
  const Replayed replayed = replay_adadelta(
      [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) { return objective.evaluate(x, g); }, zero.size());
  CHECK(optimizer.iterations == replayed.passes);
  CHECK(optimizer.converged() == (replayed.passes < 200));
  CHECK((model.theta - replayed.theta).norm() <= 1e-12 * std::max(1.0, replayed.theta.norm()));
  CHECK_THAT(optimizer.message, Catch::Matchers::Contains("mini-batch AdaDelta"));
  // The games start afresh at every evaluation (no warm start): the same gradient at theta = 0 again.
  Eigen::VectorXd g(zero.size());
  objective.evaluate(zero, g);
  CHECK((g - g0).norm() == 0.0);
  CHECK(g0.norm() > 0.0);
}

TEST_CASE("Linear-chain MPG under authors_lbfgs: from theta = 0, the games by the reference's rule",
          "[chain_ranking_protocol]") {
  const auto sentences = tiny_sentences(6);
  const ChainLayout layout{6, 3};
  LinearChainMpgOptions options;
  options.target = 1;
  options.lambda = 0.5;
  options.protocol = TrainingProtocol::authors_lbfgs;
  const LinearChainMpgModel model = train_linear_chain_mpg(sentences, layout, options);
  LinearChainMpgObjective objective(sentences, layout, options);
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
  Eigen::VectorXd g(zero.size());
  CHECK(model.summary.optimizer.initial_value == objective.evaluate(zero, g));
  CHECK_THAT(model.summary.optimizer.message, Catch::Matchers::Contains("L-BFGS"));
  CHECK(model.summary.optimizer.iterations <= 200);
  CHECK(model.summary.optimizer.final_value <= model.summary.optimizer.initial_value);

  const DoubleOracleOptions game = chain_game_options(options);
  CHECK(game.stop_rule == DoubleOracleOptions::StopRule::value_repeat);
  CHECK(game.value_precision == 1e-8);
  CHECK(game.tolerance == 1e-8);
  CHECK(game.max_actions == 300);
  CHECK(game.max_iterations == 0);
  LinearChainMpgOptions certified = options;
  certified.protocol = TrainingProtocol::certified;
  CHECK(chain_game_options(certified).stop_rule == DoubleOracleOptions::StopRule::certified);
  CHECK(chain_game_options(certified).tolerance == certified.game_tolerance);
  // A lambda path is the certified trainer's only.
  LinearChainMpgOptions path = options;
  path.optimizer = OptimizerKind::cutting_plane;
  CHECK_THROWS_WITH(LinearChainMpgPath(sentences, layout, path), Catch::Matchers::Contains("protocol certified"));
}

TEST_CASE("Ranking MPG under the authors' protocols: from theta = 0, the protocol's optimizer", "[chain_ranking_protocol]") {
  const auto queries = mpg::testing::synthetic_queries(5, 6, 21);
  RankingMpgOptions options;
  options.lambda = 0.1;
  options.protocol = TrainingProtocol::authors_adadelta;
  options.batch_size = 5;  // every query in one batch
  options.optimizer.kind = OptimizerKind::cutting_plane;  // replaced by the protocol's preset
  RankingMpgSummary summary;
  const RankingMpgModel model = train_ranking_mpg(queries, options, &summary);
  RankingMpgObjective objective(queries, options);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(objective.dimension());
  Eigen::VectorXd g(zero.size());
  CHECK(summary.optimizer.initial_value == objective.evaluate(zero, g));
  const Replayed replayed = replay_adadelta(
      [&](const Eigen::VectorXd& x, Eigen::VectorXd& gradient) { return objective.evaluate(x, gradient); }, zero.size());
  CHECK(summary.optimizer.iterations == replayed.passes);
  const Eigen::Map<const Eigen::VectorXd> theta(model.theta.data(), model.theta.size());
  CHECK((theta - replayed.theta).norm() <= 1e-12 * std::max(1.0, replayed.theta.norm()));
  CHECK_THAT(summary.optimizer.message, Catch::Matchers::Contains("mini-batch AdaDelta"));

  options.protocol = TrainingProtocol::authors_lbfgs;
  RankingMpgSummary lbfgs;
  train_ranking_mpg(queries, options, &lbfgs);
  CHECK(lbfgs.optimizer.initial_value == summary.optimizer.initial_value);
  CHECK_THAT(lbfgs.optimizer.message, Catch::Matchers::Contains("L-BFGS"));
  CHECK(lbfgs.optimizer.final_value <= lbfgs.optimizer.initial_value);
}
