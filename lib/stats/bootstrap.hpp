// Bootstrap intervals for measures built from per-unit statistics (issue 57).
//
// Every measure the tables report is a function of the units of its evaluated set: examples for
// F1 and P@k, sentences for entity F1, bracket F1 and AER, queries for NDCG, users for the
// diversity measures. Each unit contributes a row of additive statistics and the measure is a
// function of the rows' column sums S = Σ_u row_u:
//   mean       row (v)                         M = S_v / N                (N units)
//   f1         row (tp, fp, fn)                M = 2 S_tp / (2 S_tp + S_fp + S_fn)
//   precision  row (tp, predicted)             M = S_tp / S_predicted
//   aer        row (|A∩S|, |A∩P|, |A|, |S|)    M = 1 − (S_as + S_ap) / (S_a + S_s)   (Och & Ney)
// (a ratio with a zero denominator is 0). A macro average over B tasks on the same units (the
// one-vs-rest classes of OPTDIGITS) is B such blocks side by side in each row, M = the mean of
// the blocks' measures. A bootstrap resample draws N units uniformly with
// replacement; the 95 % interval is the percentile interval of B resamples: the sorted
// resampled values' entries ⌊0.025 B⌋ and ⌈0.975 B⌉ − 1 (0-based; 25 and 974 for B = 1,000).
// Rows are put in a canonical order (sorted, equal rows merged with their counts) before
// resampling, so an interval does not depend on the order of the units in a file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mpg::stats {

enum class UnitMeasure { mean, f1, precision, aer };
// "mean", "f1", "precision", "aer"; parse_unit_measure throws std::invalid_argument.
std::string to_string(UnitMeasure measure);
UnitMeasure parse_unit_measure(const std::string& name);
// The numbers a measure reads per unit and block.
std::size_t row_width(UnitMeasure measure);

// The units of one evaluated set: `rows[r]` is the statistics row shared by `counts[r]` units.
struct UnitSample {
  std::string unit;  // what a row is: "example", "sentence", "query", "user"
  UnitMeasure measure = UnitMeasure::mean;
  int blocks = 1;  // tasks macro-averaged: each row holds blocks × row_width(measure) numbers
  std::vector<std::vector<double>> rows;
  std::vector<long> counts;  // >= 1 each, one per row

  long units() const;
  // The measure on the sample itself.
  double score() const;
  // Sorts the rows and merges equal ones (adding their counts): the canonical form.
  UnitSample canonical() const;
  // Throws std::invalid_argument naming the problem (row widths, counts, empty sample).
  void check() const;
};

// One row per unit, count 1 each, in the order given.
UnitSample per_unit(std::string unit, UnitMeasure measure, std::vector<std::vector<double>> rows, int blocks = 1);

// The measure of the weighted column sums (weights[r] units drawn of rows[r]), averaged over blocks.
double measure_of(UnitMeasure measure, const std::vector<std::vector<double>>& rows, const std::vector<long>& weights,
                  int blocks = 1);

struct BootstrapOptions {
  int resamples = 1000;
  std::uint64_t seed = 57;  // fixed: the same interval on every run and thread count
  double level = 0.95;
};

struct Interval {
  double low = 0, high = 0;
  bool contains(double x) const { return low - 1e-12 <= x && x <= high + 1e-12; }
};

// The percentile bootstrap interval of the sample's measure.
Interval bootstrap_interval(const UnitSample& sample, const BootstrapOptions& options = {});

// Statistics that are not functions of column sums (a union of sets) or that average strata with
// their own units (the repetitions of a protocol, each with its own evaluated set): every resample
// redraws each stratum's units within it — stratum s holds units[s] units, listed in an order that
// does not depend on file order — and each statistic reads the draw counts weights[s][u]. All
// statistics see the same resamples (stratum s draws from seed + s); each one's interval is the one
// it would get alone. `centred[i]` shifts statistic i's interval by its value on the sample itself
// (every weight 1) minus the resamples' median: for a statistic that resampling biases, such as the
// size of a union over units (a resample holds only about 63 % of the distinct units), the interval
// keeps the resampling spread around the estimate instead of lying below it.
using ResampledStatistic = std::function<double(const std::vector<std::vector<long>>& weights)>;
std::vector<Interval> stratified_bootstrap_intervals(const std::vector<long>& units,
                                                     const std::vector<ResampledStatistic>& statistics,
                                                     const BootstrapOptions& options = {},
                                                     const std::vector<bool>& centred = {});

// A paired comparison of two measures on the same units: `a` and `b` list the same units in the
// same order, one row per unit (per_unit). Each resample draws units once and scores both.
struct PairedComparison {
  double difference = 0;  // score(a) − score(b)
  Interval interval;      // of the resampled differences
  double p_value = 1;     // two-sided: 2 min(P*(d ≤ 0), P*(d ≥ 0)), at most 1
  // The interval excludes 0 (significant at 1 − level).
  bool significant() const { return interval.low > 0 || interval.high < 0; }
};
PairedComparison paired_bootstrap(const UnitSample& a, const UnitSample& b, const BootstrapOptions& options = {});

// Mean and sample standard deviation (n − 1; 0 for fewer than two values).
struct MeanSd {
  double mean = 0, sd = 0;
  int n = 0;
};
MeanSd mean_sd(const std::vector<double>& values);

}  // namespace mpg::stats
