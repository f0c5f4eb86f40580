// Tests of the Friedman and Nemenyi tests (lib/stats/rank_tests). Reference values, none from
// this code:
//   * chi-square upper quantiles of the standard tables (e.g. chi2_{0.95}(3) = 7.814728) and an
//     independent Simpson integration of the chi-square density;
//   * the studentized range for k = 2 in closed form: Q = |Z1 - Z2| = sqrt(2) |N(0,1)|, so
//     P(Q > q) = erfc(q / 2);
//   * Demsar (2006) Table 5: q_alpha = (studentized range quantile) / sqrt(2) for k = 2..10 at
//     alpha = 0.05 and 0.10 (three decimals);
//   * the digest's §3.12 p-values (R's PMCMR, four decimals) for mean-rank differences
//     0.2..3.0 with k = 4, n = 5, and Table 3.17/3.18 of the thesis.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "lib/base/error.hpp"
#include "lib/stats/rank_tests.hpp"

using namespace mpg::stats;

namespace {

// P(chi2_df > x) by composite Simpson integration of the density over [x, x + 200].
double simpson_chi_square_survival(double x, int df) {
  const double half = 0.5 * df;
  const double log_norm = half * std::log(2.0) + std::lgamma(half);
  auto density = [&](double t) { return std::exp((half - 1.0) * std::log(t) - 0.5 * t - log_norm); };
  const int n = 200000;
  const double h = 200.0 / n;
  double sum = density(x) + density(x + 200.0);
  for (int i = 1; i < n; ++i) sum += density(x + i * h) * (i % 2 == 1 ? 4.0 : 2.0);
  return sum * h / 3.0;
}

// Values whose within-block ranks (1 = largest) are given: value = 10 - rank.
Eigen::MatrixXd from_ranks(const Eigen::MatrixXd& ranks) { return (10.0 - ranks.array()).matrix(); }

}  // namespace

TEST_CASE("Chi-square survival: table quantiles, the digest's values, Simpson integration", "[rank_tests]") {
  struct Quantile {
    int df;
    double x, p;
  };
  for (const Quantile& q : {Quantile{1, 3.841459, 0.05}, Quantile{2, 5.991465, 0.05}, Quantile{3, 7.814728, 0.05},
                            Quantile{4, 9.487729, 0.05}, Quantile{5, 11.070498, 0.05}, Quantile{10, 18.307038, 0.05},
                            Quantile{20, 31.410433, 0.05}, Quantile{1, 6.634897, 0.01}, Quantile{3, 11.344867, 0.01}}) {
    CAPTURE(q.df, q.x);
    CHECK(chi_square_survival(q.x, q.df) == Approx(q.p).margin(2e-8));
  }
  // The Friedman statistics behind thesis Table 3.17 (k = 4: 3 degrees of freedom).
  CHECK(chi_square_survival(15.0, 3) == Approx(0.0018166).margin(1e-7));
  CHECK(chi_square_survival(7.32, 3) == Approx(0.0624).margin(1e-4));
  CHECK(chi_square_survival(4.92, 3) == Approx(0.1777).margin(1e-4));
  CHECK(chi_square_survival(13.56, 3) == Approx(0.0036).margin(1e-4));
  CHECK(chi_square_survival(14.04, 3) == Approx(0.0029).margin(1e-4));
  for (const int df : {1, 2, 3, 4, 7, 12})
    for (const double x : {0.5, 2.0, 6.0, 15.0}) {
      CAPTURE(df, x);
      CHECK(chi_square_survival(x, df) == Approx(simpson_chi_square_survival(x, df)).margin(2e-7));
    }
  CHECK(chi_square_survival(0.0, 3) == 1.0);
  CHECK_THROWS_AS(chi_square_survival(1.0, 0), mpg::Error);
}

TEST_CASE("Studentized range: closed form at k = 2, Demsar's Table 5, cdf + survival = 1", "[rank_tests]") {
  for (const double q : {0.1, 0.7, 1.5, 2.772, 4.0, 7.0}) {
    CAPTURE(q);
    CHECK(studentized_range_survival(q, 2) == Approx(std::erfc(q / 2.0)).margin(1e-12));
  }
  const double q05[] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
  const double q10[] = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920};
  for (int k = 2; k <= 10; ++k) {
    CAPTURE(k);
    // Three printed decimals of q_alpha move p by at most ~2e-4 here.
    CHECK(studentized_range_survival(q05[k - 2] * std::numbers::sqrt2, k) == Approx(0.05).margin(3e-4));
    CHECK(studentized_range_survival(q10[k - 2] * std::numbers::sqrt2, k) == Approx(0.10).margin(4e-4));
    for (const double q : {0.5, 2.0, 3.5, 5.0})
      CHECK(studentized_range_cdf(q, k) + studentized_range_survival(q, k) == Approx(1.0).margin(1e-12));
  }
  // Monotone in q.
  CHECK(studentized_range_survival(3.0, 4) > studentized_range_survival(3.1, 4));
  CHECK(studentized_range_survival(0.0, 4) == 1.0);
  CHECK_THROWS_AS(studentized_range_survival(1.0, 1), mpg::Error);
}

TEST_CASE("Nemenyi p-values reproduce the digest's table for k = 4, n = 5", "[rank_tests]") {
  const double expected[] = {0.9948, 0.9614, 0.8831, 0.7610, 0.6111, 0.4559, 0.3159, 0.2035,
                             0.1219, 0.0681, 0.0355, 0.0173, 0.0079, 0.0034, 0.0014};
  for (int i = 0; i < 15; ++i) {
    const double difference = 0.2 * (i + 1);
    CAPTURE(difference);
    const Eigen::MatrixXd p = nemenyi_p_values({1.0, 1.0 + difference, 2.0, 3.0}, 5);
    CHECK(p(0, 1) == Approx(expected[i]).margin(5e-5));
    CHECK(p(1, 0) == p(0, 1));
    CHECK(p(0, 0) == 1.0);
  }
  // Demsar's critical difference: CD = q_alpha sqrt(k (k + 1) / (6 n)), q_0.05(4) = 2.569.
  CHECK(nemenyi_critical_difference(4, 5, 0.05) == Approx(2.569 * std::sqrt(20.0 / 30.0)).margin(1e-3));
}

TEST_CASE("Friedman and Nemenyi reproduce thesis Tables 3.17 and 3.18 (DCG block)", "[rank_tests]") {
  // Columns MSD, MMR, MOD, SDR; on every split SDR is best, then MMR, MOD, MSD.
  Eigen::MatrixXd ranks(5, 4);
  for (int b = 0; b < 5; ++b) ranks.row(b) << 4, 2, 3, 1;
  const FriedmanResult f = friedman_test(from_ranks(ranks));
  CHECK(f.blocks == 5);
  CHECK(f.treatments == 4);
  CHECK(f.mean_ranks == std::vector<double>{4, 2, 3, 1});
  CHECK(f.statistic == Approx(15.0).margin(1e-12));
  CHECK(f.degrees_of_freedom == 3);
  CHECK(f.p_value == Approx(0.00182).margin(5e-6));
  const Eigen::MatrixXd p = nemenyi_p_values(f.mean_ranks, f.blocks);
  // Table 3.18 (DCG): MMR-MSD 0.068, MOD-MSD 0.611, MOD-MMR 0.611, SDR-MSD 0.001, SDR-MMR 0.611, SDR-MOD 0.068.
  CHECK(p(1, 0) == Approx(0.068).margin(5e-4));
  CHECK(p(2, 0) == Approx(0.611).margin(5e-4));
  CHECK(p(2, 1) == Approx(0.611).margin(5e-4));
  CHECK(p(3, 0) == Approx(0.0014).margin(5e-5));  // printed 0.001
  CHECK(p(3, 1) == Approx(0.611).margin(5e-4));
  CHECK(p(3, 2) == Approx(0.068).margin(5e-4));
  // Rank sums 7, 12, 13, 18 give chi2_F = 12/100 * 686 - 75 = 7.32: Table 3.17's 0.0624.
  Eigen::MatrixXd mixed(5, 4);
  mixed << 1, 2, 3, 4,  //
      1, 2, 3, 4,       //
      1, 3, 2, 4,       //
      2, 1, 4, 3,       //
      2, 4, 1, 3;
  const FriedmanResult g = friedman_test(from_ranks(mixed));
  CHECK(g.statistic == Approx(7.32).margin(1e-12));
  CHECK(g.p_value == Approx(0.0624).margin(5e-5));
  // Lower is better: the ranks reverse.
  FriedmanOptions lower;
  lower.higher_is_better = false;
  CHECK(friedman_test(from_ranks(ranks), lower).mean_ranks == std::vector<double>{1, 3, 2, 4});
}

TEST_CASE("Friedman with ties: mid-ranks, and R's tie correction on request", "[rank_tests]") {
  Eigen::MatrixXd values(2, 3);
  values << 3, 3, 1,  //
      2, 5, 5;
  const Eigen::MatrixXd ranks = ranks_within_blocks(values);
  Eigen::MatrixXd expected(2, 3);
  expected << 1.5, 1.5, 3,  //
      3, 1.5, 1.5;
  CHECK(ranks == expected);
  // Rank sums 4.5, 3, 4.5: chi2 = 12 * 1.5 / (n k (k + 1) = 24) = 0.75; with the correction
  // the denominator is 24 - (6 + 6) / (k - 1) = 18, chi2 = 1 (R's friedman.test).
  const FriedmanResult plain = friedman_test(values);
  CHECK(plain.mean_ranks == std::vector<double>{2.25, 1.5, 2.25});
  CHECK(plain.statistic == Approx(0.75).margin(1e-12));
  CHECK(plain.p_value == Approx(std::exp(-0.375)).margin(1e-12));
  FriedmanOptions corrected;
  corrected.tie_correction = true;
  CHECK(friedman_test(values, corrected).statistic == Approx(1.0).margin(1e-12));
  CHECK_THROWS_AS(friedman_test(Eigen::MatrixXd(3, 1)), mpg::Error);
  CHECK_THROWS_AS(friedman_test(Eigen::MatrixXd(0, 3)), mpg::Error);
  Eigen::MatrixXd bad = values;
  bad(0, 0) = std::nan("");
  CHECK_THROWS_AS(friedman_test(bad), mpg::Error);
}

TEST_CASE("Kendall's tau-b by hand, with ties (scipy.stats.kendalltau gives the same)", "[rank_tests]") {
  // One discordant pair of six: (5 - 1) / 6.
  CHECK(kendall_tau_b({1, 2, 3, 4}, {1, 3, 2, 4}) == Approx(4.0 / 6.0).epsilon(1e-15));
  // Four concordant pairs, one tied in x, one tied in y: 4 / sqrt(5 * 5) = 0.8.
  CHECK(kendall_tau_b({1, 2, 2, 3}, {1, 2, 3, 3}) == Approx(0.8).epsilon(1e-15));
  CHECK(kendall_tau_b({3, 2, 1}, {1, 2, 3}) == -1.0);
  // Invariant to a monotone transformation and to the order of the pairs.
  CHECK(kendall_tau_b({0.1, 5, 2, 7, 3}, {1, 9, 4, 2, 8}) == kendall_tau_b({2, 3, 7, 0.1, 5}, {4, 8, 2, 1, 9}));
  CHECK(std::isnan(kendall_tau_b({1, 1, 1}, {1, 2, 3})));
  CHECK_THROWS_AS(kendall_tau_b({1, 2}, {1, 2, 3}), mpg::Error);
  CHECK_THROWS_AS(kendall_tau_b({1}, {1}), mpg::Error);
}
