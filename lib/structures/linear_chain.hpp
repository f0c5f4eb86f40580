// First-order linear chains over m labels (thesis §2.3, Eqs. 2.7-2.14; digest §1.3): the
// per-position scores of a sequence, forward-backward in log space, Viterbi, and the feature
// layout shared by the CRF baseline and the linear-chain F1 game.
//
// A chain of length T has unary scores U(t, c) and transition scores B(a, c) for a previous
// label a in 0..m-1 or a = m (START, the fixed label before position 0):
//     score(y) = sum_t U(t, y_t) + B(y_{t-1}, y_t),      y_{-1} = START.
// Parameters theta (size F m + (m+1) m) hold one weight per (observation feature f, label c) at
// f m + c and one per (previous label a, label c) at F m + a m + c, so that
//     U(t, c) = sum_{f in x_t} theta[f m + c],   B(a, c) = theta[F m + a m + c].
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/data/conll.hpp"

namespace mpg {

struct ChainScores {
  Eigen::MatrixXd unary;       // T x m
  Eigen::MatrixXd transition;  // (m + 1) x m, last row = from START
  int labels() const { return static_cast<int>(unary.cols()); }
  std::size_t length() const { return static_cast<std::size_t>(unary.rows()); }
};

// score(y) of a label sequence (Eq. 2.7's exponent).
double sequence_score(const ChainScores& scores, const std::vector<int>& labels);

// log Z = log sum_y exp score(y) by the forward recursion in log space (Eq. 2.8).
double log_partition(const ChainScores& scores);

// Marginals from forward-backward (Eq. 2.13): P(y_t = c) and the expected transition counts
// sum_t P(y_{t-1} = a, y_t = c) (row m = from START).
struct ChainMarginals {
  double log_z = 0.0;
  Eigen::MatrixXd unary;       // T x m
  Eigen::MatrixXd transition;  // (m + 1) x m
};
ChainMarginals chain_marginals(const ChainScores& scores);

// argmax_y score(y) (Eq. 2.14); ties go to the smaller label.
std::vector<int> viterbi(const ChainScores& scores);

// Parameter layout (see the header comment).
struct ChainLayout {
  std::size_t features = 0;  // F observation features
  int labels = 0;            // m
  std::size_t size() const { return features * static_cast<std::size_t>(labels) + transition_offset_size(); }
  std::size_t unary_index(std::uint32_t feature, int label) const {
    return static_cast<std::size_t>(feature) * static_cast<std::size_t>(labels) + static_cast<std::size_t>(label);
  }
  std::size_t transition_index(int previous, int label) const {
    return features * static_cast<std::size_t>(labels) +
           static_cast<std::size_t>(previous) * static_cast<std::size_t>(labels) + static_cast<std::size_t>(label);
  }
  std::size_t transition_offset_size() const {
    return static_cast<std::size_t>(labels + 1) * static_cast<std::size_t>(labels);
  }
};

// U and B of a sentence under theta.
ChainScores chain_scores(const FeaturizedSentence& sentence, const Eigen::VectorXd& theta, const ChainLayout& layout);

// counts += weight * Phi(x, y): one count per (feature of x_t, y_t) and per (y_{t-1}, y_t).
void add_feature_counts(const FeaturizedSentence& sentence, const std::vector<int>& labels, double weight,
                        const ChainLayout& layout, Eigen::VectorXd& counts);

}  // namespace mpg
