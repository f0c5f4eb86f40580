// Actions of binary multivariate games: a labelling y in {0,1}^n of the n examples of one game
// (the whole data file), stored as the sorted indices of its ones so memory is O(|y|), not O(n).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lib/game/game.hpp"

namespace mpg {

using BinaryAction = std::vector<std::uint32_t>;  // sorted, distinct indices in [0, n)

// |a AND b| by a linear merge of the two sorted index lists.
std::size_t intersection_size(const BinaryAction& a, const BinaryAction& b);

// "0101..." (character i = label of example i) <-> index form.
std::string to_bitstring(const BinaryAction& action, std::size_t n);
BinaryAction from_bitstring(const std::string& bits);  // throws mpg::Error on a non-0/1 char

BinaryAction all_zeros();
BinaryAction all_ones(std::size_t n);
BinaryAction first_k(std::size_t k);
BinaryAction last_k(std::size_t n, std::size_t k);
BinaryAction positives_of(const std::vector<int>& labels);  // indices with label 1

// Marginals m_i = P(Y_i = 1) = sum_j q_j [i in y_j] of a mixed strategy over binary actions.
Eigen::VectorXd binary_marginals(const MixedStrategy<BinaryAction>& strategy, std::size_t n);

// A predictor strategy known through its marginals rather than as a mixture of actions (what the
// solver over marginals and a metric's exact equilibrium give), enough to predict and score.
struct MarginalStrategy {
  Eigen::VectorXd marginals;  // P(y_hat_i = 1) per example (input order)
  // The pure action with the largest probability a strategy with these marginals (and, for the
  // solver over marginals, its size distribution) can give it, and that probability.
  BinaryAction likeliest_action;  // example indices, ascending
  double likeliest_probability = 0.0;
  // E[score(Y_hat, labels)] under the strategy (labels 0/1 per example, input order).
  std::function<double(const std::vector<int>& labels)> expected_score;
};

// Distinct sizes |y| > 0 of a strategy's actions, increasing.
std::vector<std::size_t> distinct_sizes(const MixedStrategy<BinaryAction>& strategy);

// sum_{i in y} psi_i.
double sum_over(const BinaryAction& action, const std::vector<double>& psi);

// Partition of the n items by their membership pattern in the actions of a mixed strategy
// (items in exactly the same support actions share a group). Groups let size-dependent best
// responses work on G <= min(n, 2^|support|) groups instead of n items.
struct MembershipGroups {
  struct Term {
    double size;    // |y_j| of a support action containing the group
    double weight;  // summed probability of the support actions of that size containing it
  };
  std::vector<std::uint32_t> group_of_item;      // length n
  std::vector<std::vector<Term>> terms;          // per group: the actions containing it, by size
  std::vector<std::vector<std::uint32_t>> items; // per group: its items in increasing order
  double empty_action_probability = 0.0;         // P(Y = 0^n)

  std::size_t group_count() const { return terms.size(); }
};

MembershipGroups group_by_membership(const MixedStrategy<BinaryAction>& strategy, std::size_t n);

}  // namespace mpg
