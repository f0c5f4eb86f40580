#include "lib/eval/f_measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

void check_beta(double beta) {
  if (!(beta > 0.0) || !std::isfinite(beta)) {
    throw Error(fmt::format("F-measure: beta must be positive and finite, got {}", beta));
  }
}

// F_beta = numerator / denominator with numerator (1 + beta^2) TP and denominator
// (1 + beta^2) TP + beta^2 FN + FP; a zero denominator stands for `empty_value`.
struct FRatio {
  long double numerator = 0.0L;
  long double denominator = 0.0L;
};

FRatio f_ratio(const Confusion& c, double beta, double empty_value) {
  const long double b2 = static_cast<long double>(beta) * beta;
  FRatio r;
  r.numerator = (1.0L + b2) * static_cast<long double>(c.tp);
  r.denominator = r.numerator + b2 * static_cast<long double>(c.fn) + static_cast<long double>(c.fp);
  if (r.denominator == 0.0L) r = {static_cast<long double>(empty_value), 1.0L};
  return r;
}

// a > b, by cross-multiplication: exact for beta = 1 and counts below 2^31 (the products fit the
// 64-bit mantissa of long double), so equal F values of different counts compare as equal.
bool greater(const FRatio& a, const FRatio& b) {
  return a.numerator * b.denominator > b.numerator * a.denominator;
}

void check_labels(std::size_t n_scores, const std::vector<int>& labels) {
  if (labels.size() != n_scores) {
    throw Error(fmt::format("F-measure: {} labels for {} scores", labels.size(), n_scores));
  }
  for (const int y : labels) {
    if (y != 0 && y != 1) throw Error(fmt::format("F-measure: labels must be 0 or 1, got {}", y));
  }
}

void check_scores(const Eigen::VectorXd& scores) {
  for (Eigen::Index i = 0; i < scores.size(); ++i) {
    if (std::isnan(scores[i])) throw Error(fmt::format("F-measure: score {} is NaN", i));
  }
}

struct ScoredLabel {
  double score;
  int label;
};

ThresholdChoice sweep(std::vector<ScoredLabel> items, double beta, double empty_value) {
  check_beta(beta);
  // Decreasing score; the label order within equal scores is irrelevant (they form one group).
  std::sort(items.begin(), items.end(),
            [](const ScoredLabel& a, const ScoredLabel& b) { return a.score > b.score; });
  long positives = 0;
  for (const ScoredLabel& item : items) positives += item.label;
  const long n = static_cast<long>(items.size());

  ThresholdChoice best;
  best.counts = {0, 0, positives, n - positives};
  FRatio best_ratio = f_ratio(best.counts, beta, empty_value);
  best.candidates = 1;
  Confusion current = best.counts;
  std::size_t i = 0;
  while (i < items.size()) {
    const double score = items[i].score;
    for (; i < items.size() && items[i].score == score; ++i) {
      if (items[i].label == 1) {
        ++current.tp;
        --current.fn;
      } else {
        ++current.fp;
        --current.tn;
      }
    }
    ++best.candidates;
    const FRatio ratio = f_ratio(current, beta, empty_value);
    // Strictly better only: thresholds are visited from high to low, so ties keep the higher one.
    if (greater(ratio, best_ratio)) {
      best_ratio = ratio;
      best.threshold = score;
      best.counts = current;
    }
  }
  best.f = f_beta(best.counts, beta, empty_value);
  return best;
}

}  // namespace

Confusion& Confusion::operator+=(const Confusion& other) {
  tp += other.tp;
  fp += other.fp;
  fn += other.fn;
  tn += other.tn;
  return *this;
}

Confusion operator+(Confusion a, const Confusion& b) { return a += b; }

double f_beta(const Confusion& counts, double beta, double empty_value) {
  check_beta(beta);
  if (counts.tp < 0 || counts.fp < 0 || counts.fn < 0 || counts.tn < 0) {
    throw Error("F-measure: negative count");
  }
  const double b2 = beta * beta;
  const double numerator = (1.0 + b2) * static_cast<double>(counts.tp);
  const double denominator =
      numerator + b2 * static_cast<double>(counts.fn) + static_cast<double>(counts.fp);
  return denominator == 0.0 ? empty_value : numerator / denominator;
}

double f_beta_of_profile(double positive_rate, double fn, double fp, double beta) {
  check_beta(beta);
  const double b2 = beta * beta;
  const double denominator = (1.0 + b2) * positive_rate - fn + fp;
  if (!(denominator > 0.0)) {
    throw Error(fmt::format("F-measure: error profile (P {}, FN {}, FP {}) has no F (denominator {})",
                            positive_rate, fn, fp, denominator));
  }
  return (1.0 + b2) * (positive_rate - fn) / denominator;
}

std::pair<double, double> f_beta_cost_vector(double t, double beta) {
  check_beta(beta);
  return {1.0 + beta * beta - t, t};
}

double f_beta_level_offset(double t, double positive_rate, double beta) {
  check_beta(beta);
  return (1.0 + beta * beta) * positive_rate * (t - 1.0);
}

double cost_sensitive_bayes_threshold(double fn_cost, double fp_cost) {
  if (!(fn_cost >= 0.0) || !(fp_cost >= 0.0) || !(fn_cost + fp_cost > 0.0)) {
    throw Error(fmt::format("Bayes threshold: costs must be non-negative, not both 0 (FN {}, FP {})",
                            fn_cost, fp_cost));
  }
  return fp_cost / (fn_cost + fp_cost);
}

Confusion confusion_at(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                       double threshold, bool inclusive) {
  check_labels(static_cast<std::size_t>(scores.size()), labels);
  check_scores(scores);
  Confusion c;
  for (Eigen::Index i = 0; i < scores.size(); ++i) {
    const bool positive = inclusive ? scores[i] >= threshold : scores[i] > threshold;
    const bool actual = labels[static_cast<std::size_t>(i)] == 1;
    if (positive && actual) ++c.tp;
    if (positive && !actual) ++c.fp;
    if (!positive && actual) ++c.fn;
    if (!positive && !actual) ++c.tn;
  }
  return c;
}

ThresholdChoice best_threshold(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                               double beta, double empty_value) {
  return best_pooled_threshold({&scores}, {&labels}, beta, empty_value);
}

ThresholdChoice best_pooled_threshold(const std::vector<const Eigen::VectorXd*>& scores,
                                      const std::vector<const std::vector<int>*>& labels,
                                      double beta, double empty_value) {
  if (scores.size() != labels.size()) {
    throw Error(fmt::format("F-measure: {} score vectors for {} label vectors", scores.size(),
                            labels.size()));
  }
  std::vector<ScoredLabel> items;
  for (std::size_t k = 0; k < scores.size(); ++k) {
    check_labels(static_cast<std::size_t>(scores[k]->size()), *labels[k]);
    check_scores(*scores[k]);
    for (Eigen::Index i = 0; i < scores[k]->size(); ++i) {
      items.push_back({(*scores[k])[i], (*labels[k])[static_cast<std::size_t>(i)]});
    }
  }
  return sweep(std::move(items), beta, empty_value);
}

}  // namespace mpg
