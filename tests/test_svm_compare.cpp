// SVMcompare (baselines/svm_compare) and its SVMrank baselines (baselines/svm_rank): the pair
// data set, sampling and standardizer (lib/data/pairs), the flip transform (8), the reduced kernel
// M^T K M, libsvm's dual (18) with the beta < 0 guard, antisymmetry of c, Lemma 3.1, the
// hard-margin LP (7) against the large-C QP, the rank / rank2 relations, and the simulated
// l_j^2 patterns (lib/data/simulated_pairs). Digest Part C, 004.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <random>
#include <set>

#include "baselines/svm_compare.hpp"
#include "baselines/svm_rank.hpp"
#include "lib/base/error.hpp"
#include "lib/data/simulated_pairs.hpp"
#include "lib/eval/comparison.hpp"

using Catch::Matchers::Contains;

namespace {

// Pairs of the l2 simulation with small offsets (many equality pairs).
mpg::PairData simulated(std::size_t n, std::uint64_t seed, double noise = 0.25,
                        mpg::SquaredNorm norm = mpg::SquaredNorm::l2) {
  mpg::SimulatedPairsOptions options;
  options.norm = norm;
  options.pairs = n;
  options.noise_sd = noise;
  options.seed = seed;
  return mpg::simulate_norm_pairs(options).pairs;
}

// Noise-free pairs of a linear r(x) = w . x with |w . (x' - x)| kept away from 1 by `gap`, so the
// data are separable in the sense of LP (7).
mpg::PairData linear_separable(std::size_t n, long p, std::uint64_t seed, double gap = 0.2) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  Eigen::VectorXd w(p);
  for (long j = 0; j < p; ++j) w(j) = 1.0 + 0.5 * static_cast<double>(j);
  mpg::PairData pairs;
  pairs.first.resize(static_cast<long>(n), p);
  pairs.second.resize(static_cast<long>(n), p);
  std::size_t made = 0;
  while (made < n) {
    Eigen::VectorXd x(p), d(p);
    for (long j = 0; j < p; ++j) x(j) = uniform(engine), d(j) = 0.6 * uniform(engine);
    const double delta = w.dot(d);
    if (std::abs(std::abs(delta) - 1.0) < gap) continue;
    pairs.first.row(static_cast<long>(made)) = x.transpose();
    pairs.second.row(static_cast<long>(made)) = (x + d).transpose();
    pairs.labels.push_back(mpg::threshold_comparison(delta, 1.0));
    ++made;
  }
  return pairs;
}

}  // namespace

TEST_CASE("flip transform (8): blocks, labels and difference vectors", "[svm_compare]") {
  // The authors' pairs2svmData example: Xi = (3, 0, 1), Xip = (0, -2, 0), y = (-1, 1, 0).
  mpg::PairData pairs;
  pairs.first = Eigen::MatrixXd(3, 1);
  pairs.second = Eigen::MatrixXd(3, 1);
  pairs.first << 3, 0, 1;
  pairs.second << 0, -2, 0;
  pairs.labels = {-1, 1, 0};
  const mpg::FlippedPairs f = mpg::flip_pairs(pairs);
  CHECK(f.labels == std::vector<int>{1, 1, -1, -1});
  CHECK(f.source == std::vector<std::size_t>{1, 0, 2, 2});
  CHECK(f.first.col(0).transpose() == Eigen::RowVector4d(0, 0, 1, 0));
  CHECK(f.second.col(0).transpose() == Eigen::RowVector4d(-2, 3, 0, 1));

  const mpg::PairData random = simulated(200, 5);
  const mpg::FlippedPairs g = mpg::flip_pairs(random);
  const std::size_t equal = random.count(0), unequal = random.size() - equal;
  REQUIRE(g.labels.size() == unequal + 2 * equal);
  CHECK(static_cast<std::size_t>(std::count(g.labels.begin(), g.labels.end(), 1)) == unequal);
  for (std::size_t r = 0; r < g.labels.size(); ++r) {
    const std::size_t i = g.source[r];
    const Eigen::RowVectorXd d = g.second.row(static_cast<long>(r)) - g.first.row(static_cast<long>(r));
    const Eigen::RowVectorXd original = random.second.row(static_cast<long>(i)) - random.first.row(static_cast<long>(i));
    if (random.labels[i] != 0) {
      CHECK(d == random.labels[i] * original);
    } else {
      CHECK((d == original || d == -original));
    }
  }
}

TEST_CASE("the reduced kernel M^T K M matches the four-term formula", "[svm_compare]") {
  const mpg::PairData pairs = simulated(40, 2);
  const mpg::FlippedPairs f = mpg::flip_pairs(pairs);
  mpg::Kernel gaussian{mpg::KernelKind::gaussian, 0.7};
  mpg::Kernel polynomial{mpg::KernelKind::polynomial, 1.0, 3, 0.5, 1.0};
  for (const mpg::Kernel& kernel : {gaussian, polynomial, mpg::Kernel{}}) {
    const Eigen::MatrixXd reduced = mpg::pair_kernel_matrix(kernel, f.first, f.second);
    const Eigen::MatrixXd kxx = kernel.matrix(f.first, f.first), kxy = kernel.matrix(f.first, f.second),
                          kyx = kernel.matrix(f.second, f.first), kyy = kernel.matrix(f.second, f.second);
    CHECK((reduced - (kyy - kyx - kxy + kxx)).cwiseAbs().maxCoeff() < 1e-10);
    CHECK((reduced - reduced.transpose()).cwiseAbs().maxCoeff() < 1e-12);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(reduced);
    CHECK(eigen.eigenvalues().minCoeff() > -1e-8 * std::max(1.0, eigen.eigenvalues().maxCoeff()));
  }
  const Eigen::MatrixXd d = f.second - f.first;
  CHECK((mpg::pair_kernel_matrix(mpg::Kernel{}, f.first, f.second) - d * d.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  // The two copies of an equality pair have opposite rows (linear kernel).
  const Eigen::MatrixXd linear = mpg::pair_kernel_matrix(mpg::Kernel{}, f.first, f.second);
  const long m = linear.rows(), equal = static_cast<long>(pairs.count(0));
  CHECK((linear.row(m - 2 * equal) + linear.row(m - equal)).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("standardizer: stacked rows get mean 0 and sd 1; constant columns are dropped", "[svm_compare]") {
  mpg::PairData pairs = simulated(50, 9);
  pairs.first.conservativeResize(Eigen::NoChange, 3);
  pairs.second.conservativeResize(Eigen::NoChange, 3);
  pairs.first.col(2).setConstant(4.0);
  pairs.second.col(2).setConstant(4.0);
  const mpg::PairStandardizer s = mpg::PairStandardizer::fit(pairs);
  CHECK(s.kept == std::vector<long>{0, 1});
  const mpg::PairData t = s.apply(pairs);
  Eigen::MatrixXd stacked(100, 2);
  stacked << t.first, t.second;
  for (long j = 0; j < 2; ++j) {
    CHECK(std::abs(stacked.col(j).mean()) < 1e-12);
    CHECK((stacked.col(j).array() - stacked.col(j).mean()).square().sum() / 99.0 == Approx(1.0));
  }
}

TEST_CASE("stratified sets: exact rho, disjoint, and independent of the pool's row order", "[svm_compare]") {
  const mpg::PairData pool = simulated(3000, 11);
  const auto sets = mpg::stratified_pair_sets(pool, 200, 0.3, 3, 42);
  std::set<std::size_t> seen;
  for (const auto& set : sets) {
    REQUIRE(set.size() == 200);
    std::size_t equal = 0;
    for (std::size_t i : set) equal += pool.labels[i] == 0, seen.insert(i);
    CHECK(equal == 60);
  }
  CHECK(seen.size() == 600);
  // Reverse the pool: the same seed selects the same pairs (by content).
  std::vector<std::size_t> reversed(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) reversed[i] = pool.size() - 1 - i;
  const mpg::PairData flipped_pool = pool.subset(reversed);
  const auto again = mpg::stratified_pair_sets(flipped_pool, 200, 0.3, 3, 42);
  for (std::size_t s = 0; s < 3; ++s) {
    std::vector<std::size_t> mapped;
    for (std::size_t i : again[s]) mapped.push_back(pool.size() - 1 - i);
    std::sort(mapped.begin(), mapped.end());
    CHECK(mapped == sets[s]);
  }
  CHECK_THROWS_WITH(mpg::stratified_pair_sets(pool, 2000, 0.5, 3, 1), Contains("the pool has"));
  CHECK_THROWS_WITH(mpg::stratified_pair_sets(pool, 20, 1.5, 3, 1), Contains("rho"));
}

TEST_CASE("simulated patterns: fixed seeds, truth error 0 without noise and > 0 with it", "[svm_compare]") {
  for (auto norm : {mpg::SquaredNorm::l1, mpg::SquaredNorm::l2, mpg::SquaredNorm::linf}) {
    const mpg::PairData a = simulated(500, 1, 0.25, norm), b = simulated(500, 1, 0.25, norm);
    CHECK(a.first == b.first);
    CHECK(a.labels == b.labels);
    CHECK(a.second.cwiseAbs().maxCoeff() <= 3.0);
    CHECK(mpg::true_ranking_error_percent(norm, simulated(500, 1, 0.0, norm)) == 0.0);
    CHECK(mpg::true_ranking_error_percent(norm, a) > 0.0);
    CHECK(a.count(0) > 50);
    CHECK(a.size() - a.count(0) > 50);
  }
  Eigen::Vector2d x(1.0, -2.0);
  CHECK(mpg::squared_norm_rank(mpg::SquaredNorm::l1, x) == 9.0);
  CHECK(mpg::squared_norm_rank(mpg::SquaredNorm::l2, x) == 5.0);
  CHECK(mpg::squared_norm_rank(mpg::SquaredNorm::linf, x) == 4.0);
}

TEST_CASE("SVMcompare: dual feasibility, zero duality gap, antisymmetric predictions", "[svm_compare]") {
  const mpg::PairData train = simulated(120, 21), test = simulated(200, 22);
  mpg::SvmCompareOptions options;
  options.C = 3.0;
  options.kernel = {mpg::KernelKind::gaussian, 0.5};
  options.tolerance = 1e-6;
  mpg::SvmCompareSummary summary;
  const mpg::ComparisonModel model = mpg::train_svm_compare(train, options, &summary);
  REQUIRE(summary.usable);
  CHECK(summary.beta < 0.0);
  CHECK(summary.flipped_pairs == train.size() + train.count(0));
  CHECK(summary.max_kkt_violation < 1e-6);
  CHECK(summary.converged);
  // 0 <= v <= C, sum v y~ = 0.
  const mpg::FlippedPairs f = mpg::flip_pairs(model.standardizer.apply(train));
  double balance = 0.0;
  for (std::size_t i = 0; i < summary.dual.size(); ++i) {
    CHECK(summary.dual[i] >= 0.0);
    CHECK(summary.dual[i] <= options.C * (1 + 1e-12));
    balance += summary.dual[i] * f.labels[i];
  }
  CHECK(std::abs(balance) < 1e-9);
  // Primal (15) at u = sum y~ v (Phi(x~') - Phi(x~)) and beta, against the dual (18).
  const Eigen::MatrixXd q = mpg::pair_kernel_matrix(options.kernel, f.first, f.second);
  Eigen::VectorXd yv(static_cast<long>(f.labels.size()));
  for (std::size_t i = 0; i < f.labels.size(); ++i) yv(static_cast<long>(i)) = f.labels[i] * summary.dual[i];
  const Eigen::VectorXd margin = q * yv;
  double primal = 0.5 * yv.dot(margin);
  for (std::size_t i = 0; i < f.labels.size(); ++i)
    primal += options.C * std::max(0.0, 1.0 - f.labels[i] * (summary.beta + margin(static_cast<long>(i))));
  CHECK(primal + summary.dual_objective >= -1e-9);
  CHECK(primal + summary.dual_objective < 1e-4 * std::max(1.0, primal));

  // c(x, x') = -c(x', x) and c(x, x) = 0 exactly.
  const std::vector<int> forward = model.predict(test), backward = model.predict(test.swapped());
  for (std::size_t i = 0; i < forward.size(); ++i) CHECK(forward[i] == -backward[i]);
  mpg::PairData same = test;
  same.second = same.first;
  for (int c : model.predict(same)) CHECK(c == 0);
  // The learned comparison beats the trivial all-zero prediction on this easy pattern.
  CHECK(mpg::comparison_errors(forward, test.labels).error_percent() < 30.0);
}

TEST_CASE("SVMcompare: pair swap gives the same ranking function", "[svm_compare]") {
  const mpg::PairData train = simulated(80, 31), test = simulated(50, 32);
  mpg::SvmCompareOptions options;
  options.kernel = {mpg::KernelKind::gaussian, 1.0};
  options.tolerance = 1e-9;
  mpg::SvmCompareSummary a, b;
  const auto m1 = mpg::train_svm_compare(train, options, &a);
  const auto m2 = mpg::train_svm_compare(train.swapped(), options, &b);
  CHECK(a.beta == Approx(b.beta).epsilon(1e-5));
  const Eigen::VectorXd r1 = m1.rank(test.first), r2 = m2.rank(test.first);
  CHECK((r1 - r2).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, r1.cwiseAbs().maxCoeff()));
}

TEST_CASE("SVMcompare: degenerate inputs and the beta < 0 guard", "[svm_compare]") {
  mpg::PairData pairs = simulated(60, 41);
  mpg::PairData no_equal = pairs.subset([&] {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (pairs.labels[i] != 0) rows.push_back(i);
    return rows;
  }());
  CHECK_THROWS_WITH(mpg::train_svm_compare(no_equal, {}), Contains("one class"));
  mpg::SvmCompareOptions bad;
  bad.C = -1;
  CHECK_THROWS_WITH(mpg::train_svm_compare(pairs, bad), Contains("C = "));
  // One equality pair among many inequality pairs and a tiny C: every v sits at its bound and
  // libsvm's bias follows the majority class, beta > 0; the model must refuse to rank.
  std::vector<std::size_t> rows;
  bool have_equal = false;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs.labels[i] == 0 && have_equal) continue;
    have_equal = have_equal || pairs.labels[i] == 0;
    rows.push_back(i);
  }
  const mpg::PairData lopsided = pairs.subset(rows);
  REQUIRE(lopsided.count(0) == 1);
  mpg::SvmCompareOptions tiny;
  tiny.C = 1e-6;
  tiny.kernel = {mpg::KernelKind::gaussian, 1.0};
  mpg::SvmCompareSummary summary;
  const auto model = mpg::train_svm_compare(lopsided, tiny, &summary);
  CHECK_FALSE(summary.usable);
  CHECK(summary.status == "nonnegative_bias");
  CHECK(summary.beta >= 0.0);
  CHECK_THROWS_WITH(model.rank(lopsided.first), Contains("beta >= 0"));
}

TEST_CASE("Lemma 3.1: the large-C QP gives a feasible point of LP (7)", "[svm_compare]") {
  for (long p : {2L, 3L}) {
    const mpg::PairData pairs = linear_separable(60, p, 7 + static_cast<std::uint64_t>(p));
    REQUIRE(pairs.count(0) > 0);
    mpg::SvmCompareOptions options;
    options.C = 1e7;
    options.standardize = false;
    options.tolerance = 1e-10;
    mpg::SvmCompareSummary summary;
    const mpg::ComparisonModel model = mpg::train_svm_compare(pairs, options, &summary);
    REQUIRE(summary.usable);
    CHECK(summary.beta <= -1.0 + 1e-6);
    const double mu = -1.0 / summary.beta;
    const Eigen::VectorXd w = model.linear_weights();  // = -u / beta
    CHECK(mu > 0.0);
    CHECK(mu <= 1.0 + 1e-9);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const double d = w.dot((pairs.second.row(static_cast<long>(i)) - pairs.first.row(static_cast<long>(i))).transpose());
      if (pairs.labels[i] == 0) {
        CHECK(mu <= 1.0 - std::abs(d) + 1e-6);
      } else {
        CHECK(mu <= -1.0 + pairs.labels[i] * d + 1e-6);
      }
    }
    const mpg::HardMarginLpResult lp = mpg::solve_hard_margin_comparison_lp(pairs);
    REQUIRE(lp.status == mpg::LpStatus::optimal);
    CHECK(mu <= lp.margin + 1e-6);
    CHECK(lp.margin <= 1.0 + 1e-12);
    CHECK(mpg::comparison_errors(model.predict(pairs), pairs.labels).errors() == 0);
  }
}

TEST_CASE("LP (7) and the large-C QP agree on separable data in one dimension", "[svm_compare]") {
  // Differences 0.5 and -0.5 (y = 0), 2 (y = 1), -2 (y = -1): LP optimum w = 0.8, mu = 0.6; the
  // QP gives u = 4/3, beta = -5/3, so -u/beta = 0.8 and -1/beta = 0.6.
  mpg::PairData pairs;
  pairs.first = Eigen::MatrixXd::Zero(4, 1);
  pairs.second = Eigen::MatrixXd(4, 1);
  pairs.second << 0.5, -0.5, 2.0, -2.0;
  pairs.labels = {0, 0, 1, -1};
  const mpg::HardMarginLpResult lp = mpg::solve_hard_margin_comparison_lp(pairs);
  REQUIRE(lp.status == mpg::LpStatus::optimal);
  CHECK(lp.margin == Approx(0.6).epsilon(1e-12));
  CHECK(lp.weights(0) == Approx(0.8).epsilon(1e-12));
  mpg::SvmCompareOptions options;
  options.C = 1e8;
  options.standardize = false;
  options.tolerance = 1e-12;
  mpg::SvmCompareSummary summary;
  const auto model = mpg::train_svm_compare(pairs, options, &summary);
  CHECK(summary.beta == Approx(-5.0 / 3.0).epsilon(1e-6));
  CHECK(model.linear_weights()(0) == Approx(0.8).epsilon(1e-6));
  // Random 1-D separable sets: QP and LP give the same w and mu.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const mpg::PairData random = linear_separable(40, 1, seed);
    if (random.count(0) == 0 || random.count(0) == random.size()) continue;
    const auto exact = mpg::solve_hard_margin_comparison_lp(random);
    REQUIRE(exact.status == mpg::LpStatus::optimal);
    mpg::SvmCompareSummary s;
    const auto qp = mpg::train_svm_compare(random, options, &s);
    CHECK(-1.0 / s.beta == Approx(exact.margin).epsilon(1e-5));
    CHECK(qp.linear_weights()(0) == Approx(exact.weights(0)).epsilon(1e-5));
  }
}

TEST_CASE("LP (7): infeasible when not separable, unbounded without equality pairs", "[svm_compare]") {
  mpg::PairData pairs;
  pairs.first = Eigen::MatrixXd::Zero(2, 1);
  pairs.second = Eigen::MatrixXd(2, 1);
  pairs.second << 1.0, 0.5;
  pairs.labels = {0, 1};  // |w| <= 1 - mu and w / 2 >= 1 + mu: no w with mu >= 0
  CHECK(mpg::solve_hard_margin_comparison_lp(pairs).status == mpg::LpStatus::infeasible);
  CHECK(mpg::solve_hard_margin_comparison_lp(pairs, false).status == mpg::LpStatus::optimal);
  CHECK(mpg::solve_hard_margin_comparison_lp(pairs, false).margin == Approx(-1.0 / 3.0));  // w = 4/3
  pairs.labels = {1, 1};
  CHECK(mpg::solve_hard_margin_comparison_lp(pairs).status == mpg::LpStatus::unbounded);
}

TEST_CASE("SVMrank baselines: equality pairs only move tau; rank2 without them is rank with 2C", "[svm_compare]") {
  const mpg::PairData pairs = simulated(150, 51);
  std::vector<std::size_t> unequal_rows;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (pairs.labels[i] != 0) unequal_rows.push_back(i);
  const mpg::PairData unequal = pairs.subset(unequal_rows);
  mpg::SvmRankOptions options;
  options.C = 0.5;
  options.standardize = false;
  options.kernel = {mpg::KernelKind::gaussian, 0.8};
  options.tolerance = 1e-9;
  mpg::SvmRankSummary all_summary, unequal_summary;
  const auto with_equal = mpg::train_svm_rank(pairs, options, &all_summary);
  const auto without = mpg::train_svm_rank(unequal, options, &unequal_summary);
  REQUIRE(all_summary.converged);
  CHECK(all_summary.ranking_pairs == unequal.size());
  const Eigen::VectorXd r1 = with_equal.rank(pairs.first), r2 = without.rank(pairs.first);
  CHECK((r1 - r2).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(with_equal.threshold > without.threshold);  // equality pairs call for a wider 0 band
  // rank2 on pairs without y = 0 is rank with cost 2C.
  options.variant = mpg::SvmRankVariant::rank2;
  const auto rank2 = mpg::train_svm_rank(unequal, options, &unequal_summary);
  options.variant = mpg::SvmRankVariant::rank;
  options.C = 1.0;
  const auto rank_2c = mpg::train_svm_rank(unequal, options);
  CHECK((rank2.rank(pairs.first) - rank_2c.rank(pairs.first)).cwiseAbs().maxCoeff() < 1e-12);
  // rank2 with equality pairs: the fitted tau is the training optimum, and c is antisymmetric.
  options.variant = mpg::SvmRankVariant::rank2;
  mpg::SvmRankSummary s;
  const auto model = mpg::train_svm_rank(pairs, options, &s);
  CHECK(s.ranking_pairs == pairs.size() + pairs.count(0));
  CHECK(mpg::comparison_errors(model.predict(pairs), pairs.labels).errors() == s.training_errors);
  const auto forward = model.predict(pairs), backward = model.predict(pairs.swapped());
  for (std::size_t i = 0; i < forward.size(); ++i) CHECK(forward[i] == -backward[i]);
  CHECK(s.max_violation <= 1e-9);
}

TEST_CASE("compare beats rank on the l1 pattern with half equality pairs", "[svm_compare]") {
  // A small version of Fig. 4 (n = 200, rho = 1/2, one fixed C and sigma): the claim's ordering.
  mpg::SimulatedPairsOptions pool_options;
  pool_options.norm = mpg::SquaredNorm::l1;
  pool_options.pairs = 4000;
  const mpg::PairData pool = mpg::simulate_norm_pairs(pool_options).pairs;
  const auto sets = mpg::stratified_pair_sets(pool, 200, 0.5, 2, 1);
  const mpg::PairData train = pool.subset(sets[0]), test = pool.subset(sets[1]);
  mpg::SvmCompareOptions compare;
  compare.C = 10.0;
  compare.kernel = {mpg::KernelKind::gaussian, 0.5};
  mpg::SvmRankOptions rank;
  rank.C = 10.0;
  rank.kernel = compare.kernel;
  const double compare_error = mpg::comparison_errors(mpg::train_svm_compare(train, compare).predict(test), test.labels).error_percent();
  const double rank_error = mpg::comparison_errors(mpg::train_svm_rank(train, rank).predict(test), test.labels).error_percent();
  CHECK(compare_error < rank_error);
}

TEST_CASE("a prepared problem gives the same fits as one-shot training over a C grid", "[svm_compare]") {
  const mpg::PairData train = simulated(90, 61), test = simulated(40, 62);
  const mpg::Kernel kernel{mpg::KernelKind::gaussian, 0.4};
  const mpg::SvmCompareProblem compare = mpg::prepare_svm_compare(train, kernel);
  const mpg::SvmRankProblem rank2 = mpg::prepare_svm_rank(train, mpg::SvmRankVariant::rank2, kernel);
  for (double C : {0.01, 1.0, 100.0}) {
    mpg::SvmCompareOptions co;
    co.C = C;
    co.kernel = kernel;
    mpg::SvmCompareSummary a, b;
    const auto one_shot = mpg::train_svm_compare(train, co, &a);
    const auto shared = mpg::train_svm_compare(compare, co, &b);
    CHECK(a.beta == b.beta);
    CHECK(a.usable == b.usable);
    if (a.usable) CHECK(one_shot.rank(test.first) == shared.rank(test.first));
    mpg::SvmRankOptions ro;
    ro.C = C;
    ro.kernel = kernel;
    ro.variant = mpg::SvmRankVariant::rank2;
    CHECK(mpg::train_svm_rank(train, ro).rank(test.first) == mpg::train_svm_rank(rank2, ro).rank(test.first));
  }
}
