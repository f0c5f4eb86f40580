// Internals of the joint trainer (lib/models/binary/joint_trainer.*) over the full F1 game:
// strategies as size weights and marginals, both players' exact best values at every size, and
// the choice of sizes that enter the restricted LP. Not a public API: the trainer's helpers,
// declared here so that tests can check them against brute force.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace mpg::joint_detail {

// F1 = 2 |y_hat . y| / (k + l): what a shared example is worth between sizes k and l.
double kernel(long k, long l);

// A player's strategy over the full game: size weights and marginals per size (input order).
struct SizeStrategy {
  double empty = 0.0;               // P(|y| = 0)
  std::vector<long> sizes;          // k >= 1
  std::vector<double> weight;       // P(|y| = k)
  std::vector<Eigen::VectorXd> marginal;  // P(y_i = 1, |y| = k)
};

// Makes each size's marginals exactly feasible (0 <= m_i <= weight, sum_i m_i = k weight) after
// the LP's rounding: clip, then spread the remaining difference over the entries with room.
void make_feasible(SizeStrategy& s);

// cost[i] = sum_j kernel(sizes_j, size) marginal_j[i]: what example i adds to the expected F1 of
// an opposing action of size `size` that includes it.
void size_costs(const SizeStrategy& s, long size, Eigen::VectorXd& cost);

// The l examples with the smallest costs, by (cost, index). Only which rows and columns enter the
// LP depends on the index of a tie, never a bound.
std::vector<long> cheapest(const Eigen::VectorXd& cost, long l);

// The adversary's best value at every size l = 0..n against the predictor P and potentials psi:
// values[l] = min_{|y| = l} E_P[F1(Y_hat, y)] - psi(y) (values[0] = P(empty)).
// With `exact_sizes` (the LP's sizes): exact at those sizes and at every size whose lower bound
// could reach the best of them and of values[0]; elsewhere a lower bound that lies strictly above
// that best (so the best size, and the sizes that beat the LP's best, are the exact ones).
std::vector<double> adversary_values(const SizeStrategy& predictor, const Eigen::VectorXd& psi,
                                     const std::vector<long>* exact_sizes = nullptr);

// The predictor's best value at every size k = 0..n against the adversary Q:
// values[k] = max_{|y_hat| = k} E_Q[F1(y_hat, Y)] (values[0] = Q(empty)); `exact_sizes` as above,
// with upper bounds strictly below the best of them elsewhere.
std::vector<double> predictor_values(const SizeStrategy& adversary, const std::vector<long>* exact_sizes = nullptr);

// Sizes outside the LP that cut off its solution ("positive reduced cost" in column-generation
// terms), besides the best size `best`: those whose value beats the best value over the sizes in
// the LP (`sign` -1: the adversary's values, lower is better; +1: the predictor's, higher is
// better; size 0, the empty action, is always in the LP), best first, at most `count`, each more
// than `separation` sizes from `best` and from those taken (neighbouring sizes have nearly the
// same best actions), separation = the candidates' span / (2 count). Ties: the smaller size.
std::vector<long> violating_sizes(const std::vector<double>& values, std::vector<long> in_lp, long best, int count,
                                  double sign);

}  // namespace mpg::joint_detail
