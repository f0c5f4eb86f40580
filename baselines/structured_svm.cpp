#include "baselines/structured_svm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "lib/base/error.hpp"
#include "lib/learn/one_slack_cutting_plane.hpp"

namespace mpg {
namespace {

void check_labels(const std::vector<int>& labels, std::size_t rows) {
  if (labels.size() != rows) {
    throw Error(fmt::format("structured SVM: {} labels for {} feature rows", labels.size(), rows));
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) {
      throw Error(fmt::format("structured SVM: label {} of example {} is neither 0 nor 1",
                              labels[i], i));
    }
  }
}

void check_k(StructuredSvmLoss loss, std::size_t k, std::size_t n) {
  if (loss == StructuredSvmLoss::precision_at_k && (k < 1 || k > n)) {
    throw Error(fmt::format("structured SVM: precision@k needs 1 <= k <= n; got k = {} for n = {}",
                            k, n));
  }
}

// 1 - F1 of a prediction with a true and b false positives against P gold positives
// (F1 = 2a / (P + a + b), and 1 when P + a + b = 0, as f1_score).
double f1_loss(std::size_t a, std::size_t b, std::size_t positives) {
  const std::size_t total = positives + a + b;
  if (total == 0) return 0.0;
  return 1.0 - 2.0 * static_cast<double>(a) / static_cast<double>(total);
}

// Indices with the given label, by decreasing score (ties: smaller index first).
std::vector<std::size_t> ranked(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                                int label) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == label) out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [&scores](std::size_t a, std::size_t b) {
    return scores[static_cast<Eigen::Index>(a)] > scores[static_cast<Eigen::Index>(b)];
  });
  return out;
}

// prefix[j] = sum of the scores of the first j entries of `order`.
std::vector<double> prefix_sums(const Eigen::VectorXd& scores,
                                const std::vector<std::size_t>& order) {
  std::vector<double> prefix(order.size() + 1, 0.0);
  for (std::size_t j = 0; j < order.size(); ++j)
    prefix[j + 1] = prefix[j] + scores[static_cast<Eigen::Index>(order[j])];
  return prefix;
}

// SVM^perf measures the loss in percent: its slack weight is 100 C for Delta in [0, 1].
constexpr double kSlackWeightPerC = 100.0;

}  // namespace

StructuredSvmLoss parse_structured_svm_loss(const std::string& name) {
  if (name == "f1") return StructuredSvmLoss::f1;
  if (name == "precision_at_k") return StructuredSvmLoss::precision_at_k;
  throw Error("structured SVM: unknown loss '" + name + "' (expected f1 or precision_at_k)");
}

double structured_svm_loss(const std::vector<int>& predicted, const std::vector<int>& labels,
                           StructuredSvmLoss loss, std::size_t k) {
  check_labels(labels, predicted.size());
  check_labels(predicted, labels.size());
  std::size_t a = 0, b = 0, positives = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    positives += labels[i] == 1;
    a += predicted[i] == 1 && labels[i] == 1;
    b += predicted[i] == 1 && labels[i] == 0;
  }
  if (loss == StructuredSvmLoss::f1) return f1_loss(a, b, positives);
  check_k(loss, k, labels.size());
  if (a + b != k) {
    throw Error(fmt::format("structured SVM: a P@k labelling needs exactly k = {} positives; got {}",
                            k, a + b));
  }
  return 1.0 - static_cast<double>(a) / static_cast<double>(k);
}

LossAugmentedLabelling most_violated_labelling(const Eigen::VectorXd& scores,
                                               const std::vector<int>& labels,
                                               StructuredSvmLoss loss, std::size_t k) {
  const auto n = static_cast<std::size_t>(scores.size());
  check_labels(labels, n);
  check_k(loss, k, n);
  if (!scores.allFinite()) throw Error("structured SVM: non-finite scores");
  const std::vector<std::size_t> positives = ranked(scores, labels, 1);
  const std::vector<std::size_t> negatives = ranked(scores, labels, 0);
  const std::vector<double> top_positive = prefix_sums(scores, positives);
  const std::vector<double> top_negative = prefix_sums(scores, negatives);
  const std::size_t P = positives.size();
  const std::size_t N = negatives.size();
  // sum_i ybar_i s_i = 2 (sum of the scores marked positive) - sum_i s_i.
  const double total = top_positive[P] + top_negative[N];

  std::size_t best_a = 0, best_b = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  double best_loss = 0.0;
  const auto consider = [&](std::size_t a, std::size_t b, double delta) {
    const double value = delta + 2.0 * (top_positive[a] + top_negative[b]) - total;
    if (value > best_value) {
      best_value = value;
      best_loss = delta;
      best_a = a;
      best_b = b;
    }
  };
  if (loss == StructuredSvmLoss::f1) {
    // For a fixed a, the value is concave in b: the step b -> b + 1 adds
    // Delta(a, b + 1) - Delta(a, b) (= 2a / ((P + a + b)(P + a + b + 1)), or 1 from the empty
    // table when P = 0; decreasing in b) plus twice the (b + 1)-th highest negative score
    // (decreasing). The best b is therefore the first whose step is <= 0 (the smallest maximizer,
    // as a scan in increasing b keeping strict improvements), found by binary search: O(P log N)
    // per inference instead of the (P + 1)(N + 1) tables.
    const auto step = [&](std::size_t a, std::size_t b) {
      return f1_loss(a, b + 1, P) - f1_loss(a, b, P) +
             2.0 * scores[static_cast<Eigen::Index>(negatives[b])];
    };
    for (std::size_t a = 0; a <= P; ++a) {
      std::size_t low = 0, high = N;  // the first b in [low, high) with step <= 0, else N
      while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (step(a, middle) <= 0.0) {
          high = middle;
        } else {
          low = middle + 1;
        }
      }
      consider(a, low, f1_loss(a, low, P));
    }
  } else {
    // a + b = k with a <= P, b <= N.
    const std::size_t low = k > N ? k - N : 0;
    for (std::size_t a = low; a <= std::min(k, P); ++a)
      consider(a, k - a, 1.0 - static_cast<double>(a) / static_cast<double>(k));
  }

  LossAugmentedLabelling out;
  out.labels.assign(n, 0);
  for (std::size_t j = 0; j < best_a; ++j) out.labels[positives[j]] = 1;
  for (std::size_t j = 0; j < best_b; ++j) out.labels[negatives[j]] = 1;
  out.loss = best_loss;
  out.value = best_value;
  return out;
}

StructuredSvmModel train_structured_svm(const SparseRowMatrix& features,
                                        const std::vector<int>& labels,
                                        const StructuredSvmOptions& options,
                                        StructuredSvmSummary* summary, OneSlackCuts* warm) {
  const auto start_time = std::chrono::steady_clock::now();
  const double C = options.C;
  if (!(C > 0.0) || !std::isfinite(C))
    throw Error(fmt::format("structured SVM needs a finite C > 0; got {:g}", C));
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon))
    throw Error(fmt::format("structured SVM needs a finite epsilon > 0; got {:g}", options.epsilon));
  if (options.max_iterations < 1) throw Error("structured SVM: max_iterations must be >= 1");
  const StructuredSvmLoss loss = parse_structured_svm_loss(options.loss);
  const auto n = static_cast<std::size_t>(features.rows());
  if (n == 0) throw Error("structured SVM: no examples");
  check_labels(labels, n);
  check_k(loss, options.k, n);
  const double* stored = features.valuePtr();
  if (!std::all_of(stored, stored + features.nonZeros(), [](double v) { return std::isfinite(v); }))
    throw Error("structured SVM: the features contain a non-finite value");

  // SVM^perf's scaling (header): Psi(ybar) = psi_scale sum_i ybar_i x_i, slack weight W = 100 C.
  const double psi_scale = 0.5 / static_cast<double>(n);
  OneSlackOptions one_slack;
  one_slack.slack_weight = kSlackWeightPerC * C;
  one_slack.epsilon = options.epsilon;
  one_slack.max_iterations = options.max_iterations;
  // The most violated constraint (loss-augmented inference over contingency tables):
  // g = Psi(y) - Psi(ybar) = psi_scale X^T (y - ybar) in {-1, +1} coordinates, l = Delta(ybar, y).
  auto oracle = [&](const Eigen::VectorXd& w) {
    const Eigen::VectorXd scores = psi_scale * (features * w);  // w . Psi(e_i) per example
    const LossAugmentedLabelling worst = most_violated_labelling(scores, labels, loss, options.k);
    Eigen::VectorXd coefficients(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
      coefficients[static_cast<Eigen::Index>(i)] = 2.0 * (labels[i] - worst.labels[i]);
    return OneSlackConstraint{psi_scale * (features.transpose() * coefficients), worst.loss};
  };
  StructuredSvmSummary result;
  Eigen::VectorXd w = train_one_slack(features.cols(), one_slack, oracle, &result, warm);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  result.message = fmt::format(
      "{} after {} iteration(s): objective {:.9g}, dual {:.9g}, slack {:.3g}, {} constraints, {} active-set QP "
      "iterations{}",
      result.converged() ? "converged" : "iteration cap reached, not converged", result.iterations,
      result.objective, result.dual_objective, result.slack, result.constraints, result.qp_iterations,
      result.converged() || result.qp_converged
          ? ""
          : fmt::format("; the last working-set QP stopped unsolved (KKT violation {:.3g})", result.qp_violation));
  if (summary) *summary = result;
  StructuredSvmModel model;
  model.weights = std::move(w);
  model.C = C;
  return model;
}

Eigen::VectorXd decision_values(const StructuredSvmModel& model, const SparseRowMatrix& features) {
  if (features.cols() != model.weights.size()) {
    throw Error(fmt::format("structured SVM: {} feature columns for a model of {} weights",
                            features.cols(), model.weights.size()));
  }
  return features * model.weights;
}

}  // namespace mpg
