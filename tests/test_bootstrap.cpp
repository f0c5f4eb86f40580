// Tests of the bootstrap intervals and the paired bootstrap (lib/stats/bootstrap). Expected values
// are worked by hand: the measures on explicit resample weights, the percentile interval of a
// two-unit sample (resampled means 0, ½, 1 with probabilities ¼, ½, ¼, so the 2.5 % and 97.5 %
// entries of 1,000 draws are 0 and 1), the normal approximation p ± 1.96 √(p(1−p)/N) of a
// Bernoulli mean, and planted differences for the paired test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "lib/stats/bootstrap.hpp"

using namespace mpg::stats;

TEST_CASE("Unit measures of weighted column sums, worked by hand", "[bootstrap]") {
  // F1 per example: (tp, fp, fn) rows of a TP, an FP, an FN and a TN example.
  const std::vector<std::vector<double>> f1_rows = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
  CHECK(measure_of(UnitMeasure::f1, f1_rows, {1, 1, 1, 1}) == Approx(2.0 / 4.0));
  CHECK(measure_of(UnitMeasure::f1, f1_rows, {3, 0, 1, 2}) == Approx(6.0 / 7.0));
  CHECK(measure_of(UnitMeasure::f1, f1_rows, {0, 0, 0, 4}) == 0.0);  // nothing to find: 0
  // Precision of (tp, predicted) rows.
  CHECK(measure_of(UnitMeasure::precision, {{1, 1}, {0, 1}, {0, 0}}, {2, 3, 9}) == Approx(2.0 / 5.0));
  // AER of (|A∩S|, |A∩P|, |A|, |S|) per sentence: 1 − (2 + 3 + 1 + 1) / (4 + 3 + 2 + 2) = 4/11.
  CHECK(measure_of(UnitMeasure::aer, {{2, 3, 4, 3}, {1, 1, 2, 2}}, {1, 1}) == Approx(4.0 / 11.0));
  // Mean over the units drawn (a unit drawn twice counts twice).
  CHECK(measure_of(UnitMeasure::mean, {{0.5}, {1.0}}, {2, 1}) == Approx(2.0 / 3.0));
  // Macro F1 of two one-vs-rest tasks side by side: task 1 F1 2·2/(4+1+1) = 2/3, task 2 F1 0.
  CHECK(measure_of(UnitMeasure::f1, {{2, 1, 1, 0, 1, 1}}, {1}, 2) == Approx((2.0 / 3.0) / 2));
}

TEST_CASE("Bootstrap interval: degenerate and two-unit samples, worked by hand", "[bootstrap]") {
  // Every unit the same: every resample scores the same.
  const UnitSample same{"example", UnitMeasure::f1, 1, {{1, 0, 0}, {0, 1, 0}}, {30, 10}};
  CHECK(same.score() == Approx(60.0 / 70.0));
  const UnitSample constant{"sentence", UnitMeasure::mean, 1, {{0.25}}, {50}};
  const Interval c = bootstrap_interval(constant);
  CHECK(c.low == 0.25);
  CHECK(c.high == 0.25);
  // Two units valued 0 and 1: resampled means 0, ½, 1 (P = ¼, ½, ¼); entries 25 and 974 of
  // 1,000 sorted draws are 0 and 1 unless fewer than 26 draws hit an end (P < 1e-60).
  const Interval two = bootstrap_interval(per_unit("query", UnitMeasure::mean, {{0.0}, {1.0}}));
  CHECK(two.low == 0.0);
  CHECK(two.high == 1.0);
}

TEST_CASE("Bootstrap interval of a Bernoulli mean matches the normal approximation", "[bootstrap]") {
  // N = 10,000 units, 3,000 of them 1: 0.3 ± 1.96 √(0.21 / 10,000) = 0.3 ± 0.00898.
  const UnitSample s{"example", UnitMeasure::mean, 1, {{1.0}, {0.0}}, {3000, 7000}};
  const Interval i = bootstrap_interval(s);
  CHECK(i.low == Approx(0.3 - 0.00898).margin(0.0015));
  CHECK(i.high == Approx(0.3 + 0.00898).margin(0.0015));
  CHECK(i.contains(0.3));
  // The same sample listed unit by unit, in any order, gives the same interval (canonical order).
  std::vector<std::vector<double>> rows;
  for (int u = 0; u < 10000; ++u) rows.push_back({u % 10 < 3 ? 1.0 : 0.0});
  std::mt19937 shuffle(1);
  std::shuffle(rows.begin(), rows.end(), shuffle);
  const Interval j = bootstrap_interval(per_unit("example", UnitMeasure::mean, rows));
  CHECK(j.low == i.low);
  CHECK(j.high == i.high);
  // Another seed gives another (close) interval: the seed is what fixes it.
  BootstrapOptions other;
  other.seed = 58;
  const Interval k = bootstrap_interval(s, other);
  CHECK(std::abs(k.low - i.low) < 0.003);
  CHECK((k.low != i.low || k.high != i.high));
}

TEST_CASE("Paired bootstrap detects a planted difference and not a null one", "[bootstrap]") {
  // 400 sentences with per-sentence entity counts; b loses one true positive in every 4th
  // sentence (a real difference); c swaps a's counts between pairs of sentences drawn from the same
  // distribution (a null difference of the same size as the noise).
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> count(0, 5);
  std::vector<std::vector<double>> a, b, c;
  for (int u = 0; u < 400; ++u) {
    const double tp = count(rng), fp = count(rng) / 2, fn = count(rng) / 2;
    a.push_back({tp, fp, fn});
    b.push_back(u % 4 == 0 && tp > 0 ? std::vector<double>{tp - 1, fp, fn + 1} : std::vector<double>{tp, fp, fn});
  }
  c = a;
  for (int u = 0; u + 1 < 400; u += 2) std::swap(c[static_cast<std::size_t>(u)], c[static_cast<std::size_t>(u) + 1]);
  const auto sa = per_unit("sentence", UnitMeasure::f1, a);
  const PairedComparison planted = paired_bootstrap(sa, per_unit("sentence", UnitMeasure::f1, b));
  CHECK(planted.difference > 0);
  CHECK(planted.significant());
  CHECK(planted.p_value < 0.05);
  // c holds a's units paired with other units: the unpaired difference of two equal totals is 0.
  const PairedComparison null = paired_bootstrap(sa, per_unit("sentence", UnitMeasure::f1, c));
  CHECK(null.difference == Approx(0.0).margin(1e-12));
  CHECK_FALSE(null.significant());
  CHECK(null.p_value > 0.5);
  // A sample is not paired with one of other units.
  CHECK_THROWS_AS(paired_bootstrap(sa, per_unit("sentence", UnitMeasure::f1, {{1, 0, 0}})), std::invalid_argument);
}

TEST_CASE("Unit samples: bad shapes are refused, mean and sd", "[bootstrap]") {
  CHECK_THROWS_AS(bootstrap_interval(UnitSample{"example", UnitMeasure::f1, 1, {{1, 0}}, {1}}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_interval(UnitSample{"example", UnitMeasure::f1, 2, {{1, 0, 0}}, {1}}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_interval(UnitSample{"example", UnitMeasure::f1, 1, {}, {}}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_interval(UnitSample{"example", UnitMeasure::mean, 1, {{1}}, {0}}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_interval(UnitSample{"example", UnitMeasure::mean, 1, {{NAN}}, {1}}), std::invalid_argument);
  CHECK_THROWS_AS(parse_unit_measure("median"), std::invalid_argument);
  CHECK(parse_unit_measure("aer") == UnitMeasure::aer);
  const MeanSd m = mean_sd({1, 2, 3, 4});
  CHECK(m.mean == 2.5);
  CHECK(m.sd == Approx(std::sqrt(5.0 / 3.0)));
  CHECK(mean_sd({7}).sd == 0.0);
}

TEST_CASE("Stratified bootstrap: one stratum is the plain bootstrap, strata are redrawn within themselves",
          "[bootstrap]") {
  // One stratum of distinct sorted rows: the same draws (seed 57) as the plain bootstrap of those rows.
  const std::vector<std::vector<double>> rows = {{0.0}, {0.25}, {0.5}, {1.0}, {2.0}};
  const auto mean = [&](const std::vector<std::vector<long>>& w) { return measure_of(UnitMeasure::mean, rows, w[0]); };
  const Interval plain = bootstrap_interval(per_unit("user", UnitMeasure::mean, rows));
  const std::vector<Interval> one = stratified_bootstrap_intervals({5}, {mean});
  CHECK(one.at(0).low == plain.low);
  CHECK(one.at(0).high == plain.high);
  // Two strata, the statistic the mean of their means. Stratum 0 holds one unit (always drawn),
  // stratum 1 two units 0 and 1 (resampled means 0, ½, 1 with probabilities ¼, ½, ¼): the average
  // is (3 + m)/2 ∈ {1.5, 1.75, 2}, and the 2.5 % and 97.5 % entries of 1,000 draws are 1.5 and 2.
  const auto two = [](const std::vector<std::vector<long>>& w) {
    return (3.0 + static_cast<double>(w[1][1]) / 2.0) / 2.0;  // unit 0 of stratum 1 adds 0
  };
  // A second statistic on the same draws: stratum 0's draw count never moves.
  const auto count0 = [](const std::vector<std::vector<long>>& w) { return static_cast<double>(w[0][0]); };
  const std::vector<Interval> both = stratified_bootstrap_intervals({1, 2}, {two, count0});
  CHECK(both.at(0).low == 1.5);
  CHECK(both.at(0).high == 2.0);
  CHECK(both.at(1).low == 1.0);
  CHECK(both.at(1).high == 1.0);
  // Each statistic's interval is the one it gets alone.
  CHECK(stratified_bootstrap_intervals({1, 2}, {two}).at(0).low == both.at(0).low);
  CHECK_THROWS_AS(stratified_bootstrap_intervals({}, {two}), std::invalid_argument);
  CHECK_THROWS_AS(stratified_bootstrap_intervals({3, 0}, {two}), std::invalid_argument);
}

TEST_CASE("Stratified bootstrap: a union's interval is centred on its value when asked", "[bootstrap]") {
  // Four units each covering its own item: the union's share of 4 items is 1 on the sample, and a
  // resample of 4 draws covers 1, 2, 3 or 4 distinct items (chances 4/256, 84/256, 144/256,
  // 24/256), so the plain percentile interval is [2/4, 1] with median 3/4, at or below the value;
  // centred, it moves up by 1 − 3/4.
  const auto union_share = [](const std::vector<std::vector<long>>& w) {
    double covered = 0;
    for (long x : w[0]) covered += x > 0 ? 1 : 0;
    return covered / 4.0;
  };
  const Interval plain = stratified_bootstrap_intervals({4}, {union_share}).at(0);
  CHECK(plain.low == 0.5);
  CHECK(plain.high == 1.0);
  const Interval centred = stratified_bootstrap_intervals({4}, {union_share}, {}, {true}).at(0);
  CHECK(centred.low == 0.75);
  CHECK(centred.high == 1.25);
  CHECK_THROWS_AS(stratified_bootstrap_intervals({4}, {union_share}, {}, {true, false}), std::invalid_argument);
}
