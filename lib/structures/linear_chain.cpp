// Linear-chain recursions (digest §1.3, standard log-space forms).
#include "lib/structures/linear_chain.hpp"

#include <cmath>
#include <limits>

#include "lib/base/error.hpp"

namespace mpg {

namespace {

double log_sum_exp(const Eigen::VectorXd& v) {
  const double top = v.maxCoeff();
  if (!std::isfinite(top)) return top;
  return top + std::log((v.array() - top).exp().sum());
}

// log alpha_t(c) = log sum over prefixes ending in c at t of exp(score): T x m.
Eigen::MatrixXd forward(const ChainScores& s) {
  const auto T = static_cast<Eigen::Index>(s.length());
  const int m = s.labels();
  Eigen::MatrixXd alpha(T, m);
  if (T == 0) return alpha;
  alpha.row(0) = s.transition.row(m) + s.unary.row(0);
  Eigen::VectorXd terms(m);
  for (Eigen::Index t = 1; t < T; ++t)
    for (int c = 0; c < m; ++c) {
      for (int a = 0; a < m; ++a) terms[a] = alpha(t - 1, a) + s.transition(a, c);
      alpha(t, c) = log_sum_exp(terms) + s.unary(t, c);
    }
  return alpha;
}

}  // namespace

double sequence_score(const ChainScores& s, const std::vector<int>& labels) {
  if (labels.size() != s.length()) throw Error("sequence_score: label sequence of the wrong length");
  double total = 0.0;
  int previous = s.labels();  // START
  for (std::size_t t = 0; t < labels.size(); ++t) {
    total += s.unary(static_cast<Eigen::Index>(t), labels[t]) + s.transition(previous, labels[t]);
    previous = labels[t];
  }
  return total;
}

double log_partition(const ChainScores& s) {
  if (s.length() == 0) return 0.0;
  const Eigen::MatrixXd alpha = forward(s);
  return log_sum_exp(alpha.row(alpha.rows() - 1).transpose());
}

ChainMarginals chain_marginals(const ChainScores& s) {
  const auto T = static_cast<Eigen::Index>(s.length());
  const int m = s.labels();
  ChainMarginals out;
  out.unary = Eigen::MatrixXd::Zero(T, m);
  out.transition = Eigen::MatrixXd::Zero(m + 1, m);
  if (T == 0) return out;
  const Eigen::MatrixXd alpha = forward(s);
  // log beta_t(a) = log sum over suffixes after t given y_t = a; beta_{T-1} = 0.
  Eigen::MatrixXd beta = Eigen::MatrixXd::Zero(T, m);
  Eigen::VectorXd terms(m);
  for (Eigen::Index t = T - 2; t >= 0; --t)
    for (int a = 0; a < m; ++a) {
      for (int c = 0; c < m; ++c) terms[c] = s.transition(a, c) + s.unary(t + 1, c) + beta(t + 1, c);
      beta(t, a) = log_sum_exp(terms);
    }
  out.log_z = log_sum_exp(alpha.row(T - 1).transpose());
  out.unary = (alpha + beta).array() - out.log_z;
  out.unary = out.unary.array().exp();
  // P(y_{t-1} = a, y_t = c) = exp(log alpha_{t-1}(a) + B(a,c) + U(t,c) + log beta_t(c) - log Z).
  for (int c = 0; c < m; ++c) out.transition(m, c) = out.unary(0, c);
  for (Eigen::Index t = 1; t < T; ++t)
    for (int a = 0; a < m; ++a)
      for (int c = 0; c < m; ++c)
        out.transition(a, c) +=
            std::exp(alpha(t - 1, a) + s.transition(a, c) + s.unary(t, c) + beta(t, c) - out.log_z);
  return out;
}

std::vector<int> viterbi(const ChainScores& s) {
  const auto T = static_cast<Eigen::Index>(s.length());
  const int m = s.labels();
  std::vector<int> labels(static_cast<std::size_t>(T));
  if (T == 0) return labels;
  Eigen::MatrixXd delta(T, m);
  Eigen::MatrixXi back(T, m);
  delta.row(0) = s.transition.row(m) + s.unary.row(0);
  for (Eigen::Index t = 1; t < T; ++t)
    for (int c = 0; c < m; ++c) {
      double best = -std::numeric_limits<double>::infinity();
      int arg = 0;
      for (int a = 0; a < m; ++a) {
        const double v = delta(t - 1, a) + s.transition(a, c);
        if (v > best) {
          best = v;
          arg = a;
        }
      }
      delta(t, c) = best + s.unary(t, c);
      back(t, c) = arg;
    }
  int c = 0;
  for (int k = 1; k < m; ++k)
    if (delta(T - 1, k) > delta(T - 1, c)) c = k;
  for (Eigen::Index t = T - 1; t >= 0; --t) {
    labels[static_cast<std::size_t>(t)] = c;
    if (t > 0) c = back(t, c);
  }
  return labels;
}

ChainScores chain_scores(const FeaturizedSentence& sentence, const Eigen::VectorXd& theta, const ChainLayout& layout) {
  const int m = layout.labels;
  ChainScores s;
  s.unary = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(sentence.size()), m);
  for (std::size_t t = 0; t < sentence.size(); ++t)
    for (std::uint32_t f : sentence.features[t])
      for (int c = 0; c < m; ++c)
        s.unary(static_cast<Eigen::Index>(t), c) += theta[static_cast<Eigen::Index>(layout.unary_index(f, c))];
  s.transition.resize(m + 1, m);
  for (int a = 0; a <= m; ++a)
    for (int c = 0; c < m; ++c)
      s.transition(a, c) = theta[static_cast<Eigen::Index>(layout.transition_index(a, c))];
  return s;
}

void add_feature_counts(const FeaturizedSentence& sentence, const std::vector<int>& labels, double weight,
                        const ChainLayout& layout, Eigen::VectorXd& counts) {
  int previous = layout.labels;  // START
  for (std::size_t t = 0; t < labels.size(); ++t) {
    for (std::uint32_t f : sentence.features[t])
      counts[static_cast<Eigen::Index>(layout.unary_index(f, labels[t]))] += weight;
    counts[static_cast<Eigen::Index>(layout.transition_index(previous, labels[t]))] += weight;
    previous = labels[t];
  }
}

}  // namespace mpg
