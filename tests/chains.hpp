// Small linear chains shared by the CRF and linear-chain F1 tests: every label sequence of a
// short chain (the brute-force oracle) and random chain scores.
#pragma once

#include <random>
#include <vector>

#include "lib/structures/linear_chain.hpp"

namespace mpg::testing {

// Every sequence of length T over m labels, in lexicographic order (last position slowest).
inline std::vector<std::vector<int>> all_sequences(int m, std::size_t T) {
  std::vector<std::vector<int>> out;
  std::vector<int> y(T, 0);
  for (;;) {
    out.push_back(y);
    std::size_t t = 0;
    while (t < T && ++y[t] == m) y[t++] = 0;
    if (t == T) break;
  }
  return out;
}

// Unary (T x m) and transition ((m + 1) x m, START first) scores uniform in [-amplitude, amplitude].
inline ChainScores random_chain(int m, std::size_t T, double amplitude, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  ChainScores s;
  s.unary.resize(static_cast<Eigen::Index>(T), m);
  s.transition.resize(m + 1, m);
  for (Eigen::Index i = 0; i < s.unary.size(); ++i) s.unary.data()[i] = u(rng);
  for (Eigen::Index i = 0; i < s.transition.size(); ++i) s.transition.data()[i] = u(rng);
  return s;
}

}  // namespace mpg::testing
