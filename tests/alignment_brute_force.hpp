// Brute-force oracles for the word-alignment games: every action of a small sentence pair and
// exact best-response values by enumeration (random strategies and expected payoffs of pure
// actions: tests/brute_force.hpp).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "lib/game/alignment_action.hpp"
#include "lib/game/game.hpp"
#include "tests/brute_force.hpp"

namespace mpg::testing {

// All 2^n untagged subsets of n positions: the binary actions as link codes.
inline std::vector<AlignmentAction> all_link_sets(std::size_t n) {
  std::vector<AlignmentAction> all;
  for (BinaryAction a : all_binary_actions(n)) {
    for (std::uint32_t& i : a) i = link_code(i);
    all.push_back(std::move(a));
  }
  return all;
}

// All 3^n taggings of n positions with N, S or R.
inline std::vector<AlignmentAction> all_taggings(std::size_t n) {
  std::vector<AlignmentAction> all;
  std::size_t count = 1;
  for (std::size_t i = 0; i < n; ++i) count *= 3;
  for (std::size_t index = 0; index < count; ++index) {
    AlignmentAction a;
    std::size_t rest = index;
    for (std::uint32_t i = 0; i < n; ++i, rest /= 3) {
      if (rest % 3 == 1) a.push_back(link_code(i));
      if (rest % 3 == 2) a.push_back(link_code(i, true));
    }
    all.push_back(a);
  }
  return all;
}

// All matchings (vertex-disjoint link sets) of an rows x columns grid, as position codes.
inline std::vector<AlignmentAction> all_matchings(std::size_t rows, std::size_t columns) {
  std::vector<AlignmentAction> all;
  AlignmentAction current;
  std::vector<char> used(columns, 0);
  std::function<void(std::size_t)> extend = [&](std::size_t row) {
    if (row == rows) {
      AlignmentAction sorted = current;
      std::sort(sorted.begin(), sorted.end());
      all.push_back(sorted);
      return;
    }
    extend(row + 1);  // row unmatched
    for (std::size_t c = 0; c < columns; ++c) {
      if (used[c]) continue;
      used[c] = 1;
      current.push_back(link_code(static_cast<std::uint32_t>(row * columns + c)));
      extend(row + 1);
      current.pop_back();
      used[c] = 0;
    }
  };
  extend(0);
  return all;
}

inline std::vector<double> uniform_values(std::size_t n, double low, double high, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(low, high);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

// max over `rows` of E_Q[C'(row, Y)], min over `columns` of E_P[C'(Y_hat, column)].
inline double best_row_value(const Game<AlignmentAction>& game, const std::vector<AlignmentAction>& rows,
                             const MixedStrategy<AlignmentAction>& adversary) {
  double best = -1e300;
  for (const auto& row : rows) best = std::max(best, predictor_value_of(game, row, adversary));
  return best;
}

inline double best_column_value(const Game<AlignmentAction>& game, const std::vector<AlignmentAction>& columns,
                                const MixedStrategy<AlignmentAction>& predictor) {
  double best = 1e300;
  for (const auto& column : columns) best = std::min(best, adversary_value_of(game, column, predictor));
  return best;
}

inline Eigen::MatrixXd payoff_matrix(const Game<AlignmentAction>& game, const std::vector<AlignmentAction>& rows,
                                     const std::vector<AlignmentAction>& columns) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < columns.size(); ++c)
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = game.payoff(rows[r], columns[c]);
  return m;
}

}  // namespace mpg::testing
