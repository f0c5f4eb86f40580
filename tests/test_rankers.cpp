// Learning-to-rank learners on synthetic queries whose relevance follows feature 0: the four
// baselines and MPG-DCG must recover the ordering; objectives are checked against finite
// differences (smooth ones) or the subgradient inequality (MPG's convex dual).
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <random>

#include "baselines/rankers.hpp"
#include "lib/base/error.hpp"
#include "lib/models/ranking_mpg.hpp"
#include "tests/ranking_queries.hpp"

using mpg::DcgDiscount;
using mpg::RankingQuery;
using Approx = Catch::Detail::Approx;

namespace {

template <class Score>
double mean_ndcg(const std::vector<RankingQuery>& queries, Score score) {
  mpg::RankingMetrics m;
  for (const auto& q : queries) m.add(mpg::evaluate_ranking(mpg::ranking_by_scores(score(q)), q.relevance, DcgDiscount::letor));
  m.finish();
  return m.mean_ndcg;
}

// Upper bound for comparison: the ideal ranking's Mean NDCG (1 for queries with a relevant
// document, 0 for the others).
double ideal_mean_ndcg(const std::vector<RankingQuery>& queries) {
  return mean_ndcg(queries, [](const RankingQuery& q) {
    Eigen::VectorXd s(static_cast<Eigen::Index>(q.relevance.size()));
    for (std::size_t j = 0; j < q.relevance.size(); ++j) s[static_cast<Eigen::Index>(j)] = q.relevance[j];
    return s;
  });
}

}  // namespace

TEST_CASE("RankSVM and ListNet recover the relevant feature", "[rankers]") {
  const auto train = mpg::testing::synthetic_queries(30, 8, 1);
  const auto test = mpg::testing::synthetic_queries(20, 8, 2);
  const double ideal = ideal_mean_ndcg(test);
  mpg::RankSvmOptions svm;
  svm.C = 1.0;
  const auto ranksvm = mpg::train_ranksvm(train, svm);
  CHECK(ranksvm.weights[0] > 10.0 * std::abs(ranksvm.weights[1]));
  CHECK(mean_ndcg(test, [&](const RankingQuery& q) { return ranksvm.scores(q.features); }) > ideal - 0.02);
  mpg::ListNetOptions listnet;
  listnet.lambda = 1e-4;
  const auto ln = mpg::train_listnet(train, listnet);
  CHECK(ln.weights[0] > 10.0 * std::abs(ln.weights[2]));
  CHECK(mean_ndcg(test, [&](const RankingQuery& q) { return ln.scores(q.features); }) > ideal - 0.02);
  CHECK_THROWS_AS(mpg::train_ranksvm(train, mpg::RankSvmOptions{0.0, {}}), mpg::Error);
  CHECK_THROWS_AS(mpg::train_listnet(mpg::testing::synthetic_queries(0, 3, 1), listnet), mpg::Error);
}

TEST_CASE("AdaRank (NDCG and MAP) and RankBoost choose feature 0 first", "[rankers]") {
  const auto train = mpg::testing::synthetic_queries(30, 8, 3);
  const auto test = mpg::testing::synthetic_queries(20, 8, 4);
  const double ideal = ideal_mean_ndcg(test);
  for (auto measure : {mpg::AdaRankMeasure::ndcg, mpg::AdaRankMeasure::map}) {
    mpg::AdaRankOptions options;
    options.measure = measure;
    options.rounds = 10;
    const auto model = mpg::train_adarank(train, options);
    REQUIRE(model.weights_after.size() == 10);
    CHECK(model.features[0] == 0);
    CHECK(model.alphas[0] > 0.0);
    for (std::size_t t = 1; t < model.features.size(); ++t) CHECK(model.features[t] != model.features[t - 1]);
    const Eigen::VectorXd w = model.weights_after.front();
    CHECK(mean_ndcg(test, [&](const RankingQuery& q) { return Eigen::VectorXd(q.features * w); }) > ideal - 0.02);
  }
  mpg::RankBoostOptions options;
  options.rounds = 40;
  const auto boost = mpg::train_rankboost(train, options);
  REQUIRE(!boost.rounds.empty());
  CHECK(boost.rounds[0].feature == 0);
  CHECK(boost.rounds[0].alpha > 0.0);
  CHECK(mean_ndcg(test, [&](const RankingQuery& q) { return boost.scores(q.features); }) > ideal - 0.05);
  // Scores of a prefix: one round gives alpha on documents above the threshold, 0 below.
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(2, 3);
  x(0, boost.rounds[0].feature) = boost.rounds[0].threshold + 1.0;
  x(1, boost.rounds[0].feature) = boost.rounds[0].threshold;
  const Eigen::VectorXd s = boost.scores(x, 1);
  CHECK(s[0] == Approx(boost.rounds[0].alpha));
  CHECK(s[1] == 0.0);
}

TEST_CASE("MPG-DCG objective: subgradient inequality and potentials layout", "[rankers]") {
  const auto train = mpg::testing::synthetic_queries(6, 5, 5);
  mpg::RankingMpgOptions options;
  options.lambda = 0.1;
  mpg::RankingMpgObjective objective(train, options);
  REQUIRE(objective.dimension() == 4 * 2);
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd theta(objective.dimension());
    for (auto& v : theta) v = normal(rng);
    Eigen::VectorXd g(theta.size());
    const double f = objective.evaluate(theta, g);
    for (int direction = 0; direction < 5; ++direction) {
      Eigen::VectorXd step(theta.size());
      for (auto& v : step) v = 0.3 * normal(rng);
      Eigen::VectorXd unused(theta.size());
      // f convex and g a subgradient: f(theta + step) >= f(theta) + g . step.
      CHECK(objective.evaluate(theta + step, unused) >= f + g.dot(step) - 1e-6);
    }
  }
  mpg::RankingMpgModel model;
  model.theta = Eigen::MatrixXd::Zero(4, 2);
  model.theta(0, 0) = 1.0;  // level 1 weight on feature 0
  model.theta(3, 1) = 2.0;  // level 2 bias
  Eigen::MatrixXd x(1, 3);
  x << 0.5, 0.0, 0.0;
  const Eigen::MatrixXd psi = model.potentials(x);
  CHECK(psi(0, 0) == 0.0);
  CHECK(psi(0, 1) == 0.5);
  CHECK(psi(0, 2) == 2.0);
  CHECK_THROWS_AS(model.potentials(Eigen::MatrixXd::Zero(1, 2)), mpg::Error);
}

TEST_CASE("MPG-DCG learns to rank by feature 0, identically on 1 and 2 threads", "[rankers]") {
  const auto train = mpg::testing::synthetic_queries(24, 6, 6);
  const auto test = mpg::testing::synthetic_queries(20, 6, 7);
  mpg::RankingMpgOptions options;
  options.lambda = 0.01;
  options.optimizer.max_iterations = 60;
  mpg::RankingMpgModel one, two;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one = mpg::train_ranking_mpg(train, options);
  }
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    mpg::RankingMpgSummary summary;
    two = mpg::train_ranking_mpg(train, options, &summary);
    CHECK(summary.games > 0);
    CHECK(summary.unconverged_games == 0);
  }
  CHECK(one.theta == two.theta);
  CHECK(two.theta(0, 1) > two.theta(0, 0));  // level 2 leans on feature 0 more than level 1
  // The games' equilibria are often not unique (ties in the potentials, equal discounts of
  // positions 1 and 2); the decision rule (dcg_decision) fixes one of them, whose most probable
  // permutation is a coarser summary than the expected-gain rule, hence the looser bound.
  mpg::RankingMetrics m, by_gain;
  for (const auto& q : test) {
    const auto p = mpg::predict_ranking_mpg(two, q.features);
    CHECK(p.game.converged);
    m.add(mpg::evaluate_ranking(p.order, q.relevance, DcgDiscount::letor));
    by_gain.add(mpg::evaluate_ranking(p.expected_gain_order, q.relevance, DcgDiscount::letor));
  }
  m.finish();
  by_gain.finish();
  const double ideal = ideal_mean_ndcg(test);
  CHECK(m.mean_ndcg > ideal - 0.07);
  CHECK(by_gain.mean_ndcg > ideal - 0.05);
  // A constant scorer (file order) is far worse.
  CHECK(mean_ndcg(test, [](const RankingQuery& q) { return Eigen::VectorXd(Eigen::VectorXd::Zero(q.features.rows())); }) <
        ideal - 0.15);
  // The double-oracle solver gives the same objective (both solve the games exactly).
  options.optimizer.max_iterations = 0;
  mpg::RankingMpgObjective lp_objective(train, options);
  options.solver = mpg::DcgGameSolver::double_oracle;
  mpg::RankingMpgObjective do_objective(train, options);
  Eigen::VectorXd theta = Eigen::Map<const Eigen::VectorXd>(two.theta.data(), two.theta.size());
  Eigen::VectorXd g1(theta.size()), g2(theta.size());
  CHECK(lp_objective.evaluate(theta, g1) == Approx(do_objective.evaluate(theta, g2)).margin(1e-6));
}
