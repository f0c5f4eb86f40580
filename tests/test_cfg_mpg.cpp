// MPG_cfg learning (lib/models/cfg_mpg.hpp): the summed objective against the full matrix LP of
// every sentence game, its subgradient inequality, training on a tiny treebank (same bits on 1 and
// 2 threads), prediction with the flat fallback, and bad options.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <random>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/models/cfg_mpg.hpp"
#include "tests/cfg_trees.hpp"

namespace {

using mpg::CfgMpgOptions;
using mpg::ParseExample;

// The trees of small_treebank() with at most three leaves, as training examples.
std::vector<ParseExample> short_examples(const mpg::Grammar& g) {
  std::vector<ParseExample> out;
  for (const mpg::PtbTree& t : mpg::testing::small_treebank()) {
    const auto tags = mpg::cnf_tags(t);
    if (tags.size() <= 3) out.push_back({g.tag_ids(tags), mpg::encode_parse(g, t)});
  }
  return out;
}

// f(theta) = lambda/2 |theta|^2 - sum_i [theta . Phi(y_i) + v_i(theta)], v_i by the full LP.
double brute_force_objective(const mpg::Grammar& g, const std::vector<ParseExample>& examples,
                             const std::vector<double>& theta, double lambda) {
  double f = 0.0;
  for (double t : theta) f += 0.5 * lambda * t * t;
  for (const auto& e : examples) {
    const auto all = mpg::testing::all_parses(g, e.tags);
    const mpg::CfgHammingGame game(g, e.tags, theta);
    const auto size = static_cast<Eigen::Index>(all.size());
    Eigen::MatrixXd payoff(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j)
        payoff(i, j) = game.payoff(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    f -= mpg::rule_score(g, e.tags, e.gold, theta) + mpg::solve_matrix_game(payoff, mpg::default_lp_backend()).value;
  }
  return f;
}

}  // namespace

TEST_CASE("the MPG_cfg objective is the negated dual summed over sentence games", "[cfg_mpg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  const auto examples = short_examples(g);
  REQUIRE(examples.size() == 6);
  CfgMpgOptions options;
  options.lambda = 0.5;
  const mpg::ParseGames games(g, examples, options);
  mpg::SumOfGamesObjective<mpg::ParseGames> objective(games, options.lambda, mpg::InstanceWeighting::sum);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 3; ++trial) {
    const auto theta = mpg::testing::random_weights(g.rule_count(), rng, 0.7);
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(theta.data(), static_cast<Eigen::Index>(theta.size()));
    Eigen::VectorXd gradient;
    const double f = objective.evaluate(x, gradient);
    CHECK(f == Approx(brute_force_objective(g, examples, theta, options.lambda)).margin(1e-6));
    // A subgradient of a convex function: f(y) >= f(x) + g . (y - x) everywhere.
    for (int k = 0; k < 3; ++k) {
      const auto other = mpg::testing::random_weights(g.rule_count(), rng, 0.7);
      const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(other.data(), static_cast<Eigen::Index>(other.size()));
      CHECK(brute_force_objective(g, examples, other, options.lambda) >= f + gradient.dot(y - x) - 1e-6);
    }
  }
}

TEST_CASE("MPG_cfg trains to a certified objective, the same bits on 1 and 2 threads", "[cfg_mpg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  const auto examples = short_examples(g);
  CfgMpgOptions options;
  options.lambda = 0.1;
  options.max_iterations = 500;
  auto train = [&](int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    return mpg::train_cfg_mpg(g, examples, options);
  };
  const mpg::CfgMpgModel one = train(1), two = train(2);
  CHECK(one.summary.converged());
  CHECK(one.summary.optimizer.final_value - one.summary.optimizer.lower_bound <=
        1e-3 * std::max(1.0, std::abs(one.summary.optimizer.final_value)) + 1e-12);
  CHECK(one.summary.optimizer.final_value < one.summary.optimizer.initial_value);
  CHECK(one.summary.unconverged_games == 0);
  CHECK(one.theta == two.theta);
  CHECK(one.theta.size() == g.rule_count());
}

TEST_CASE("MPG_cfg prediction: the game's most probable parse, a flat tree when the grammar cannot parse", "[cfg_mpg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  CfgMpgOptions options;
  options.lambda = 0.1;
  const mpg::CfgMpgModel model = mpg::train_cfg_mpg(g, short_examples(g), options);
  mpg::DoubleOracleSummary game;
  const auto parsed = mpg::predict_cfg_mpg(g, model, {"t", "u", "t"}, {"a", "b", "c"}, "A", 1e-6, &game);
  CHECK_FALSE(parsed.fallback);
  CHECK(game.converged());
  CHECK(mpg::words_of(parsed.tree) == std::vector<std::string>{"a", "b", "c"});
  CHECK(mpg::tags_of(parsed.tree) == std::vector<std::string>{"t", "u", "t"});
  const auto flat = mpg::predict_cfg_mpg(g, model, {"t", "v"}, {"a", "b"}, "A");  // unknown tag v
  CHECK(flat.fallback);
  CHECK(mpg::to_bracketed(flat.tree) == "(A (t a) (v b))");
}

TEST_CASE("MPG_cfg rejects bad options and ungrammatical gold parses", "[cfg_mpg]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  auto examples = short_examples(g);
  CfgMpgOptions options;
  options.lambda = 0.0;
  CHECK_THROWS_WITH(mpg::train_cfg_mpg(g, examples, options), Catch::Matchers::Contains("lambda"));
  options.lambda = 1.0;
  CHECK_THROWS_WITH(mpg::train_cfg_mpg(g, {}, options), Catch::Matchers::Contains("no training sentences"));
  examples[2].gold[1] += 5;  // the root's span ends past the sentence
  CHECK_THROWS_WITH(mpg::train_cfg_mpg(g, examples, options), Catch::Matchers::Contains("training sentence 3"));
}
