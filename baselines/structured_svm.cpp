#include "baselines/structured_svm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"
#include "baselines/simplex_qp_one_slack.hpp"

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

// Working-set QP (solved exactly by the active-set method): KKT tolerance relative to epsilon,
// and a cap on active-set iterations per solve.
constexpr double kQpTolerance = 1e-3;
constexpr int kQpIterations = 20000;

// SVM^perf measures the loss in percent: its slack weight is 100 C for Delta in [0, 1].
constexpr double kSlackWeightPerC = 100.0;

}  // namespace

StructuredSvmLoss parse_structured_svm_loss(const std::string& name) {
  if (name == "f1") return StructuredSvmLoss::f1;
  if (name == "precision_at_k") return StructuredSvmLoss::precision_at_k;
  throw Error("structured SVM: unknown loss '" + name + "' (expected f1 or precision_at_k)");
}

std::string to_string(StructuredSvmStatus status) {
  return status == StructuredSvmStatus::converged ? "converged" : "not converged: iteration limit";
}

nlohmann::json StructuredSvmSummary::to_json() const {
  return {{"converged", converged()}, {"status", message},           {"iterations", iterations},
          {"constraints", constraints}, {"objective", objective},    {"dual_objective", dual_objective},
          {"gap", objective - dual_objective}, {"slack", slack},     {"seconds", seconds}};
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
    for (std::size_t a = 0; a <= P; ++a)
      for (std::size_t b = 0; b <= N; ++b) consider(a, b, f1_loss(a, b, P));
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
                                        StructuredSvmSummary* summary) {
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

  // y_i in {-1, +1}: w . Psi(y) = signs . s with s = X w.
  Eigen::VectorXd signs(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) signs[static_cast<Eigen::Index>(i)] = labels[i] == 1 ? 1.0 : -1.0;

  // SVM^perf's scaling (header): Psi(ybar) = psi_scale sum_i ybar_i x_i, slack weight W = 100 C.
  const double psi_scale = 0.5 / static_cast<double>(n);
  const double W = kSlackWeightPerC * C;
  // Working set (baselines/simplex_qp_one_slack.hpp): cut c is w . g_c >= l_c - xi with
  // g_c = Psi(y) - Psi(ybar_c) and l_c = Delta(ybar_c, y).
  const Eigen::Index dim = features.cols();
  OneSlackWorkingSet working_set(dim, W);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(dim);
  double dual = 0.0;
  bool qp_converged = true;
  double qp_violation = 0.0;
  long qp_iterations = 0;

  StructuredSvmSummary result;
  for (;;) {
    const Eigen::VectorXd scores = psi_scale * (features * w);  // w . Psi(e_i) per example
    const LossAugmentedLabelling worst = most_violated_labelling(scores, labels, loss, options.k);
    // xi(w) = max(0, max_ybar Delta(ybar, y) - w . (Psi(y) - Psi(ybar))).
    const double slack = std::max(0.0, worst.value - signs.dot(scores));
    const double working_slack = working_set.slack(w);
    result.objective = 0.5 * w.squaredNorm() + W * slack;
    result.dual_objective = dual;
    result.slack = slack;
    // Stop when the duality gap certifies the objective within W epsilon of the optimum. When w
    // solves the working-set QP, this is Joachims 2005's test xi(w) <= working-set xi + epsilon.
    if (result.objective - dual <= W * options.epsilon) {
      result.status = StructuredSvmStatus::converged;
      break;
    }
    if (result.iterations >= options.max_iterations) break;
    ++result.iterations;
    // Add the most violated constraint unless it exceeds the working set's slack by at most
    // epsilon / 2; then only the QP needs more steps (the gap is then <= C (epsilon / 2 + QP
    // tolerance) once the QP has converged, so the loop always ends).
    if (slack > working_slack + 0.5 * options.epsilon) {
      // g = Psi(y) - Psi(ybar) = X^T (y - ybar) in {-1, +1} coordinates.
      Eigen::VectorXd coefficients(static_cast<Eigen::Index>(n));
      for (std::size_t i = 0; i < n; ++i)
        coefficients[static_cast<Eigen::Index>(i)] = 2.0 * (labels[i] - worst.labels[i]);
      working_set.add(psi_scale * (features.transpose() * coefficients), worst.loss);
    }
    // The QP's KKT violation is in units of xi (its gradient is w . g_c - l_c), so the restricted
    // duality gap is at most W times the tolerance.
    const SimplexQpSummary qp = working_set.solve(kQpTolerance * options.epsilon, kQpIterations);
    qp_violation = W * qp.violation;
    qp_converged = qp.converged;
    qp_iterations += qp.iterations;
    w = working_set.weights();
    dual = working_set.dual();
  }
  result.constraints = static_cast<int>(working_set.size());
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  result.message = fmt::format(
      "{} after {} iteration(s): objective {:.9g}, dual {:.9g}, slack {:.3g}, {} constraints, {} active-set QP "
      "iterations{}",
      result.converged() ? "converged" : "iteration cap reached, not converged", result.iterations,
      result.objective, result.dual_objective, result.slack, result.constraints, qp_iterations,
      result.converged() || qp_converged
          ? ""
          : fmt::format("; the last working-set QP stopped unsolved (KKT violation {:.3g})", qp_violation));
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
