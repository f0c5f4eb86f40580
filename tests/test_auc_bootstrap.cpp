// Bootstrap intervals of comparison measures (lib/stats/auc_bootstrap): the weighted AUC equals the
// ROC of lib/eval/comparison on the data and on duplicated data, the trivial AUC and the error on
// hand-worked cases, intervals independent of the order of the pairs, the median and mean over
// strata, and the paired comparison detecting a planted difference and not a null one.
#include <catch2/catch.hpp>

#include <random>

#include "lib/eval/comparison.hpp"
#include "lib/stats/auc_bootstrap.hpp"

using namespace mpg::stats;

namespace {

// n pairs: labels 0 / ±1 at random, d = signal * y + noise.
PairStratum random_stratum(std::size_t n, double signal, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> label(-1, 1);
  std::normal_distribution<double> noise(0.0, 1.0);
  PairStratum s;
  PairSeries a{PairMeasure::auc, {}}, b{PairMeasure::auc, {}};
  for (std::size_t i = 0; i < n; ++i) {
    const int y = label(rng);
    s.labels.push_back(y);
    a.values.push_back(signal * y + noise(rng));
    b.values.push_back(noise(rng));
  }
  s.series = {a, b};
  return s;
}

}  // namespace

TEST_CASE("Weighted comparison AUC: the ROC of Table 3, hand-worked cases", "[auc_bootstrap]") {
  // The authors' calc_AUC unit test (digest C.13): d = (0.1, 0.2, -0.3, 0.4), y = (1, 0, -1, 0) -> 0.25.
  const PairSeries d{PairMeasure::auc, {0.1, 0.2, -0.3, 0.4}};
  const std::vector<int> y = {1, 0, -1, 0};
  CHECK(pair_measure(d, y) == Approx(0.25));
  // Weights 2 everywhere change nothing; weights (1, 0, 1, 1) equal dropping the second pair.
  CHECK(pair_measure(d, y, {2, 2, 2, 2}) == Approx(0.25));
  const auto dropped = mpg::comparison_roc({0.1, -0.3, 0.4}, {1, -1, 0}).auc;
  CHECK(pair_measure(d, y, {1, 0, 1, 1}) == Approx(dropped));
  // Weight 3 on a pair equals the pair three times.
  const auto tripled = mpg::comparison_roc({0.1, 0.1, 0.1, 0.2, -0.3, 0.4}, {1, 1, 1, 0, -1, 0}).auc;
  CHECK(pair_measure(d, y, {3, 1, 1, 1}) == Approx(tripled));
  // Undefined without a y = 0 or a y != 0 pair.
  CHECK(std::isnan(pair_measure(d, y, {1, 0, 1, 0})));
  // Trivial AUC of (1, 0, -1, 0, 1, 1): p = 3 / 4, AUC 0.375 (digest C.13); error: 2 of 4 = 50 %.
  CHECK(pair_measure({PairMeasure::trivial_auc, {}}, {1, 0, -1, 0, 1, 1}) == Approx(0.375));
  CHECK(pair_measure({PairMeasure::error_percent, {1, 0, 0, 1}}, {0, 1, -1, 0}) == Approx(50.0));
  CHECK_THROWS_AS(pair_measure({PairMeasure::auc, {0.1}}, {1, 0}), std::invalid_argument);
  // Random data with ties: equal to comparison_roc.
  PairStratum s = random_stratum(300, 1.0, 3);
  for (double& v : s.series[0]->values) v = std::round(v * 4.0) / 4.0;  // many tied |d|
  CHECK(pair_measure(*s.series[0], s.labels) == Approx(mpg::comparison_roc(s.series[0]->values, s.labels).auc));
}

TEST_CASE("Pair bootstrap: fixed seed, order independent, median over strata", "[auc_bootstrap]") {
  const PairStratum s = random_stratum(200, 1.0, 5);
  const auto resamples = pair_resamples({s}, Aggregate::mean);
  REQUIRE(resamples.size() == 1000);
  const Interval i = pair_interval(resamples, 0);
  const double auc = pair_measure(*s.series[0], s.labels);
  CHECK(i.low < auc);
  CHECK(auc < i.high);
  CHECK(i.high - i.low < 0.2);
  // The same pairs in reverse order: the same interval, exactly.
  PairStratum reversed = s;
  std::reverse(reversed.labels.begin(), reversed.labels.end());
  for (auto& series : reversed.series) std::reverse(series->values.begin(), series->values.end());
  const Interval j = pair_interval(pair_resamples({reversed}, Aggregate::mean), 0);
  CHECK(j.low == i.low);
  CHECK(j.high == i.high);
  // Three strata: the aggregate is their median (or mean); a series absent in a stratum is left out.
  PairStratum t = random_stratum(150, 2.0, 6), u = random_stratum(100, 0.5, 7);
  u.series[1] = std::nullopt;
  const std::vector<PairStratum> strata = {s, t, u};
  const auto medians = aggregate_pairs(strata, Aggregate::median);
  std::vector<double> a = {pair_measure(*s.series[0], s.labels), pair_measure(*t.series[0], t.labels),
                           pair_measure(*u.series[0], u.labels)};
  std::sort(a.begin(), a.end());
  CHECK(medians[0] == Approx(a[1]));
  CHECK(medians[1] == Approx((pair_measure(*s.series[1], s.labels) + pair_measure(*t.series[1], t.labels)) / 2));
  const Interval m = pair_interval(pair_resamples(strata, Aggregate::median), 0);
  CHECK(m.low <= medians[0]);
  CHECK(medians[0] <= m.high);
  // A single pair can never give an AUC.
  CHECK_THROWS_AS(pair_resamples({PairStratum{{1}, {PairSeries{PairMeasure::auc, {0.5}}}}}, Aggregate::mean),
                  std::invalid_argument);
}

TEST_CASE("Paired pair bootstrap: a planted difference is significant, a null one is not", "[auc_bootstrap]") {
  PairStratum s = random_stratum(300, 1.0, 11);
  const auto planted = pair_resamples({s}, Aggregate::mean);
  const auto d = paired_pair_comparison({s}, Aggregate::mean, planted, 0, 1);
  CHECK(d.difference > 0.1);
  CHECK(d.significant());
  CHECK(d.p_value < 0.05);
  // Series 1 against itself: difference 0 on every draw.
  s.series[0] = s.series[1];
  const auto same = paired_pair_comparison({s}, Aggregate::mean, pair_resamples({s}, Aggregate::mean), 0, 1);
  CHECK(same.difference == 0.0);
  CHECK_FALSE(same.significant());
  CHECK(same.p_value == 1.0);
}
