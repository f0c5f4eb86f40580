// Measures of comparison functions (lib/eval/comparison): the threshold function, the
// FP / FN / inversion counts of Table 3, the ROC curve and AUC with tied |d| grouped, the trivial
// AUC of Eq. (20) and the threshold search of Eq. (6), on hand-computed cases (digest Part C, 004).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "lib/base/error.hpp"
#include "lib/eval/comparison.hpp"

using Catch::Matchers::Contains;

TEST_CASE("t_tau is odd and zero on [-tau, tau]", "[comparison]") {
  CHECK(mpg::threshold_comparison(1.0, 1.0) == 0);
  CHECK(mpg::threshold_comparison(-1.0, 1.0) == 0);
  CHECK(mpg::threshold_comparison(1.0 + 1e-12, 1.0) == 1);
  CHECK(mpg::threshold_comparison(-1.0 - 1e-12, 1.0) == -1);
  CHECK(mpg::threshold_comparison(0.0, 0.0) == 0);
  for (double d : {-3.5, -1.0, -0.2, 0.0, 0.7, 2.0})
    CHECK(mpg::threshold_comparison(-d, 0.5) == -mpg::threshold_comparison(d, 0.5));
}

TEST_CASE("comparison errors count FP, FN and inversions over all nine (y, yhat)", "[comparison]") {
  std::vector<int> labels, predicted;
  for (int y : {-1, 0, 1})
    for (int yhat : {-1, 0, 1}) labels.push_back(y), predicted.push_back(yhat);
  const mpg::ComparisonErrors e = mpg::comparison_errors(predicted, labels);
  CHECK(e.errors() == 6);
  CHECK(e.false_positives == 2);
  CHECK(e.false_negatives == 2);
  CHECK(e.inversions == 2);
  CHECK(e.error_percent() == Approx(600.0 / 9.0));
  CHECK_THROWS_WITH(mpg::comparison_errors({0, 2}, {0, 1}), Contains("not in {-1, 0, 1}"));
  CHECK_THROWS_WITH(mpg::comparison_errors({0}, {0, 1}), Contains("1 values for 2 labels"));
}

TEST_CASE("ROC curve and AUC match the authors' unit cases", "[comparison]") {
  // d = (0.1, 0.2, -0.3, 0.4), y = (1, 0, -1, 0): points (0,0) (.5,0) (.5,.5) (1,.5) (1,1), AUC .25.
  const mpg::RocCurve roc = mpg::comparison_roc({0.1, 0.2, -0.3, 0.4}, {1, 0, -1, 0});
  CHECK(roc.auc == Approx(0.25));
  CHECK(roc.false_positive_rate == std::vector<double>{0, 0.5, 0.5, 1, 1});
  CHECK(roc.true_positive_rate == std::vector<double>{0, 0, 0.5, 0.5, 1});
  CHECK(mpg::comparison_roc({0.0, 1.0}, {0, 1}).auc == Approx(1.0));
  // Tied |d| enter together: (2, 2, -2) with y (1, 1, 0) gives FPR (0, 1), TPR (0, 1).
  const mpg::RocCurve tied = mpg::comparison_roc({2, 2, -2}, {1, 1, 0});
  CHECK(tied.false_positive_rate == std::vector<double>{0, 1});
  CHECK(tied.true_positive_rate == std::vector<double>{0, 1});
  CHECK(tied.auc == Approx(0.5));
  // An inversion is not a true positive: (3, -2.5, 2) with y (1, 1, 0).
  const mpg::RocCurve inverted = mpg::comparison_roc({3, -2.5, 2}, {1, 1, 0});
  CHECK(inverted.false_positive_rate == std::vector<double>{0, 0, 1});
  CHECK(inverted.true_positive_rate == std::vector<double>{0, 0.5, 0.5});
  CHECK(inverted.auc == Approx(0.5));
  CHECK_THROWS_WITH(mpg::comparison_roc({1, 2}, {1, -1}), Contains("needs pairs with y = 0"));
}

TEST_CASE("AUC is invariant to the order of the pairs and bounded by TPR(0)", "[comparison]") {
  std::mt19937 engine(7);
  std::normal_distribution<double> normal;
  std::vector<double> d;
  std::vector<int> y;
  for (int i = 0; i < 60; ++i) {
    y.push_back(i % 3 - 1);
    d.push_back(std::round(4.0 * (normal(engine) + y.back())) / 4.0);  // many ties
  }
  const mpg::RocCurve roc = mpg::comparison_roc(d, y);
  std::vector<std::size_t> order(d.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
  std::shuffle(order.begin(), order.end(), engine);
  std::vector<double> d2;
  std::vector<int> y2;
  for (std::size_t i : order) d2.push_back(d[i]), y2.push_back(y[i]);
  CHECK(mpg::comparison_roc(d2, y2).auc == roc.auc);
  CHECK(roc.auc >= 0.0);
  CHECK(roc.auc <= roc.true_positive_rate.back() + 1e-15);
  // Perfect: every inequality pair correct and farther out than every equality pair.
  CHECK(mpg::comparison_roc({5, -6, 0.5, -0.4}, {1, -1, 0, 0}).auc == 1.0);
}

TEST_CASE("trivial AUC is p / 2 (Eq. 20)", "[comparison]") {
  CHECK(mpg::trivial_comparison_auc({1, 0, -1, 0, 1, 1}) == Approx(0.375));
  CHECK(mpg::trivial_comparison_auc({-1, 0, -1, 1}) == Approx(1.0 / 3.0));
  CHECK_THROWS(mpg::trivial_comparison_auc({1, 1}));
}

TEST_CASE("the threshold of Eq. (6) minimizes the training zero-one loss", "[comparison]") {
  // |d| = 0.5 (y 0), 1 (y 0), 2 (y 1), 3 (y -1): best tau in [1, 2), midpoint 1.5, no error.
  std::size_t errors = 99;
  CHECK(mpg::best_comparison_threshold({0.5, -1.0, 2.0, -3.0}, {0, 0, 1, -1}, &errors) == 1.5);
  CHECK(errors == 0);
  // All equality pairs: everything to 0, tau above the largest |d|.
  CHECK(mpg::best_comparison_threshold({0.5, -2.0}, {0, 0}, &errors) == 3.0);
  CHECK(errors == 0);
  // No equality pairs: tau = 0 interval [0, 0.25), midpoint 0.125; one inversion stays.
  CHECK(mpg::best_comparison_threshold({0.25, 0.5}, {1, -1}, &errors) == 0.125);
  CHECK(errors == 1);
  // Against brute force over a fine grid of tau on random data.
  std::mt19937 engine(3);
  std::uniform_real_distribution<double> uniform(-2, 2);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> d;
    std::vector<int> y;
    for (int i = 0; i < 25; ++i) {
      d.push_back(std::round(uniform(engine) * 8) / 8);
      y.push_back(static_cast<int>(engine() % 3) - 1);
    }
    std::size_t best = 0;
    const double tau = mpg::best_comparison_threshold(d, y, &best);
    CHECK(mpg::comparison_errors(mpg::threshold_comparisons(d, tau), y).errors() == best);
    for (double t = 0.0; t < 3.0; t += 1.0 / 64)
      CHECK(mpg::comparison_errors(mpg::threshold_comparisons(d, t), y).errors() >= best);
  }
}
