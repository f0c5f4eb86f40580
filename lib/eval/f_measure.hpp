// F-measures of decisions and the threshold search of Parambath's thesis, chapter 2
// ("F-measures by cost-sensitive classification"; Parambath, Usunier & Grandvalet, NIPS 2014).
//   F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)
// As a function of the error profile r = (FN, FP) and the positive rate P (all as rates or all as
// counts) it is linear-fractional (thesis §2.3.2):
//   F_beta(r) = (1 + beta^2)(P - FN) / ((1 + beta^2) P - FN + FP),
// and pseudo-linear: F_beta(r) >= t  <=>  <a(t), r> + b(t) <= 0 with the cost vector
//   a(t) = (1 + beta^2 - t, t)   (FN cost, FP cost)   and   b(t) = (1 + beta^2) P (t - 1)
// (Prop. 6). Micro-F of a multilabel problem is the F of the pooled (example, label) problem;
// macro-F is the mean of the per-label F.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace mpg {

// Decision counts of a binary classifier (or of a pooled multilabel one).
struct Confusion {
  long tp = 0;
  long fp = 0;
  long fn = 0;
  long tn = 0;

  long positives() const { return tp + fn; }
  long predicted_positives() const { return tp + fp; }
  long total() const { return tp + fp + fn + tn; }
  Confusion& operator+=(const Confusion& other);
  friend bool operator==(const Confusion&, const Confusion&) = default;
};
Confusion operator+(Confusion a, const Confusion& b);

// F_beta of the counts. When tp = fp = fn = 0 (no positive example and none predicted) F is
// `empty_value`: 1 by default, the convention of lib/metrics/f1.hpp (nothing to find, nothing
// wrongly found). Throws mpg::Error for beta <= 0 or negative counts.
double f_beta(const Confusion& counts, double beta = 1.0, double empty_value = 1.0);

// F_beta from the error profile (thesis §2.3.2): P the positive rate (or count), fn and fp the
// false-negative and false-positive rates (or counts), with 0 <= fn <= P. Equals f_beta of the
// counts TP = P - fn. Throws mpg::Error when the denominator is not positive.
double f_beta_of_profile(double positive_rate, double fn, double fp, double beta = 1.0);

// The cost vector a(t) = (1 + beta^2 - t, t) = (FN cost, FP cost) of Prop. 6 and the offset
// b(t) = (1 + beta^2) P (t - 1): F_beta(r) >= t iff a(t).r + b(t) <= 0.
std::pair<double, double> f_beta_cost_vector(double t, double beta = 1.0);
double f_beta_level_offset(double t, double positive_rate, double beta = 1.0);

// The Bayes rule of the cost-sensitive problem with costs (c_fn, c_fp) predicts positive iff
// P(y = 1 | x) >= c_fp / (c_fn + c_fp). For a(F*) and beta = 1 this is F*/2 (Corollary 7).
double cost_sensitive_bayes_threshold(double fn_cost, double fp_cost);

// Counts of the rule "positive iff score > threshold" (strict, as LIBLINEAR's "dec > 0": the
// default rule of the unthresholded variants uses threshold 0) or, with `inclusive`, "positive iff
// score >= threshold" (the rule of a threshold chosen among validation scores).
// labels are 0/1 with the size of scores; throws mpg::Error otherwise or on NaN scores.
Confusion confusion_at(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                       double threshold, bool inclusive);

struct ThresholdChoice {
  // Predict positive iff score >= threshold. +infinity means "predict no example positive".
  double threshold = std::numeric_limits<double>::infinity();
  double f = 0.0;        // F_beta of the counts below
  Confusion counts;      // on the scored examples at this threshold
  long candidates = 0;   // distinct thresholds compared (distinct scores, plus "none")
};

// The best threshold among the scores themselves (thesis §2.5: "the threshold is chosen among all
// the scores of the validation examples"), plus +infinity (predict none): maximizes F_beta of
// "positive iff score >= threshold". Equal scores are one candidate, so the answer does not depend
// on the order of the examples. Ties in F are broken towards the HIGHER threshold (fewer
// predicted positives). O(n log n). Throws mpg::Error on size mismatch, labels other than 0/1,
// or NaN scores.
ThresholdChoice best_threshold(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                               double beta = 1.0, double empty_value = 1.0);

// The same search over several score vectors sharing one threshold (micro-F: one global
// threshold over the pooled (example, label) scores; thesis Alg. 3-4, Koyejo et al. 2015).
ThresholdChoice best_pooled_threshold(const std::vector<const Eigen::VectorXd*>& scores,
                                      const std::vector<const std::vector<int>*>& labels,
                                      double beta = 1.0, double empty_value = 1.0);

}  // namespace mpg
