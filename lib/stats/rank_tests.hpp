// Rank-based comparison of several methods over several blocks (Demsar 2006): the Friedman test
// and the Nemenyi post-hoc test, as in Parambath thesis Tables 3.17-3.20 (blocks = the five
// random splits, treatments = the methods compared).
//
// Friedman: rank the k treatments within each of the n blocks (1 = best; tied values share the
// mean of their ranks), R_j = mean rank of treatment j,
//     chi2_F = 12 n / (k (k + 1)) * (sum_j R_j^2 - k (k + 1)^2 / 4),   p = P(chi2_{k-1} > chi2_F).
// Nemenyi: for treatments i, j
//     p_ij = P(Q_{k,inf} > |R_i - R_j| / sqrt(k (k + 1) / (12 n))),
// Q_{k,inf} the studentized range of k standard normals (as R's PMCMR, which reproduces the
// thesis's printed p-values: digest §3.12).
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg::stats {

// P(X > x) for X ~ chi-square with `df` >= 1 degrees of freedom (closed forms for integer df).
double chi_square_survival(double x, int df);

// P(Q <= q) for the studentized range of k >= 2 independent N(0, 1) variables (infinite
// degrees of freedom): k * integral phi(z) (Phi(z) - Phi(z - q))^(k-1) dz, by composite
// Gauss-Legendre quadrature (absolute error < 1e-12).
double studentized_range_cdf(double q, int k);
// P(Q > q), computed without the cancellation of 1 - cdf.
double studentized_range_survival(double q, int k);

// Ranks within each row of `values` (blocks x treatments): 1 = the largest value when
// higher_is_better (else the smallest); ties get their mean rank.
Eigen::MatrixXd ranks_within_blocks(const Eigen::MatrixXd& values, bool higher_is_better = true);

struct FriedmanOptions {
  bool higher_is_better = true;
  // Divide chi2_F by 1 - sum(t^3 - t) / (n (k^3 - k)) over tie groups (R's friedman.test);
  // off by default: the thesis's p-values are reproduced without it (digest §3.12).
  bool tie_correction = false;
};

struct FriedmanResult {
  int blocks = 0;                  // n
  int treatments = 0;              // k
  std::vector<double> mean_ranks;  // R_j
  double statistic = 0.0;          // chi2_F
  int degrees_of_freedom = 0;      // k - 1
  double p_value = 1.0;
};

// Throws mpg::Error on fewer than 2 treatments, no block, or a non-finite value.
FriedmanResult friedman_test(const Eigen::MatrixXd& values, const FriedmanOptions& options = {});

// The k x k matrix of Nemenyi p-values (1 on the diagonal) from the mean ranks over n blocks.
Eigen::MatrixXd nemenyi_p_values(const std::vector<double>& mean_ranks, int blocks);

// Demsar's critical difference CD = q_alpha sqrt(k (k + 1) / (6 n)), q_alpha the upper-alpha
// quantile of Q_{k,inf} / sqrt(2): two mean ranks differing by more than CD differ at level alpha.
double nemenyi_critical_difference(int treatments, int blocks, double alpha = 0.05);

// Kendall's tau-b between two paired samples (ties in either sample allowed):
//     tau_b = (n_c - n_d) / sqrt((n_0 - n_x) (n_0 - n_y)),  n_0 = n (n - 1) / 2,
// n_c / n_d the concordant / discordant pairs, n_x / n_y the pairs tied in x / in y. NaN when a
// sample is constant; throws mpg::Error on different lengths or fewer than 2 pairs.
double kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace mpg::stats
