// Measures of comparison functions (SVMcompare, Venuto, Hocking et al., seed 004). A pair
// (x, x', y) has y in {-1, 0, 1}: -1 when x is better, 0 for "no significant difference", 1 when
// x' is better (Eq. 1). A learned ranking function r gives the rank difference d = r(x') - r(x);
// the comparison function thresholds it: c_tau(x, x') = t_tau(d) (Eqs. 4-5).
#pragma once

#include <cstddef>
#include <vector>

#include "lib/data/pairs.hpp"  // threshold_comparison
#include "lib/data/simulated_pairs.hpp"

namespace mpg {

// Counts of Table 3 over pairs: a false positive predicts a difference (yhat != 0) where there is
// none (y = 0); a false negative predicts 0 for y != 0; an inversion predicts -y for y != 0.
// errors = false_positives + false_negatives + inversions, the zero-one loss of Eq. (2).
struct ComparisonErrors {
  std::size_t pairs = 0;
  std::size_t false_positives = 0;
  std::size_t false_negatives = 0;
  std::size_t inversions = 0;
  std::size_t errors() const { return false_positives + false_negatives + inversions; }
  double error_percent() const;  // 100 errors / pairs (0 for no pairs)
};

// Throws mpg::Error if the sizes differ or a label is outside {-1, 0, 1}.
ComparisonErrors comparison_errors(const std::vector<int>& predicted, const std::vector<int>& labels);

// Predictions t_tau(d_i) for every pair.
std::vector<int> threshold_comparisons(const std::vector<double>& differences, double tau);

// The ROC curve of the thresholds (§4, Table 3): for tau from +infinity down to 0, with
// yhat = t_tau(d), FPR = #{y = 0, yhat != 0} / #{y = 0} and TPR = #{y != 0, yhat = y} / #{y != 0}
// (an inversion is not a true positive). Pairs with tied |d| enter together (one point per
// distinct |d|), repeated points are merged, the curve starts at (0, 0) and ends at
// (1, TPR(0)): past the last threshold every equality pair counts as a false positive.
struct RocCurve {
  std::vector<double> false_positive_rate;
  std::vector<double> true_positive_rate;
  double auc = 0.0;  // trapezoidal area under the points, in [0, TPR(0)]
};
// Needs at least one pair with y = 0 and one with y != 0 (else FPR or TPR is undefined):
// throws mpg::Error otherwise, or for a label outside {-1, 0, 1} or a NaN difference.
RocCurve comparison_roc(const std::vector<double>& differences, const std::vector<int>& labels);

// Indices of the pairs by decreasing |d|; ties by the value of d, then by label: the ROC's order,
// which does not depend on the order of the pairs.
std::vector<std::size_t> by_decreasing_magnitude(const std::vector<double>& d, const std::vector<int>& y);

// AUC of the trivial model of Eq. (20), used for chess: predicting 0 everywhere gives (0, 0);
// predicting the more common non-zero label everywhere gives (1, p) with
// p = max(|I_1|, |I_-1|) / (|I_1| + |I_-1|), so the AUC is p / 2. Same preconditions as the ROC.
double trivial_comparison_auc(const std::vector<int>& labels);

// The threshold of Eq. (6) for the SVMrank baselines: tau >= 0 minimizing the zero-one loss of
// t_tau(d_i) against y_i over the given (training) pairs. The loss is a step function of tau
// whose steps sit at the distinct |d_i|, so every tau in the first best interval
// [|d|_(k), |d|_(k+1)) is optimal; we return its midpoint (|d|_(k) + 1 when it is the last),
// so the rule does not depend on a grid. `errors` receives the minimal number of errors.
double best_comparison_threshold(const std::vector<double>& differences, const std::vector<int>& labels,
                                 std::size_t* errors = nullptr);

// Zero-one error (%) of the true ranking function, t_1(r(x') - r(x)), on the given pairs: the
// "truth" line of Fig. 4 (not 0 because of the label noise).
double true_ranking_error_percent(SquaredNorm norm, const PairData& pairs);

}  // namespace mpg
