// Bootstrap intervals for the measures of comparison test sets (SVMcompare, seed 004; issue 57):
// the ROC AUC of Table 3 (lib/eval/comparison.hpp), which is not a sum of per-pair rows, the
// trivial model's AUC p / 2 (Eq. 20) and the zero-one error (%), a mean over pairs.
//
// A figure's number is often an aggregate over several test sets: the median over years (chess,
// Fig. 6) or the mean over seeds (Figs. 4-5). Each test set is a stratum; one resample draws, in
// every stratum, as many pairs as it holds, uniformly with replacement, recomputes each stratum's
// measure from the drawn pairs (a tied |d| group enters the ROC together, weighted by how often
// its pairs were drawn) and aggregates the strata as the figure does. The interval is thus the
// test-set noise of the aggregate (not the variation between years or training draws). A stratum
// draw on which a measure is undefined (an AUC without a y = 0 or a y != 0 pair) is drawn again.
// Several series (methods) on the same pairs share every draw, which is what a paired comparison
// needs. Within a stratum the pairs are put in a canonical order (sorted by label, then by the
// series' values) before drawing, so a permuted test file gives the same interval. Percentile
// interval, resamples, seed and level as lib/stats/bootstrap.hpp (1,000, seed 57, 95 %).
#pragma once

#include <optional>
#include <vector>

#include "lib/stats/bootstrap.hpp"

namespace mpg::stats {

enum class PairMeasure {
  auc,            // values: rank differences d = r(x') - r(x)
  trivial_auc,    // values: none (the labels alone)
  error_percent,  // values: 1 for a wrongly compared pair, 0 for a right one
};

struct PairSeries {
  PairMeasure measure = PairMeasure::auc;
  std::vector<double> values;  // one per pair of the stratum (empty for trivial_auc)
};

// One test set: its pairs' labels and, per series, the series' values (nullopt where the series has
// no number on this set, e.g. a year without a usable model).
struct PairStratum {
  std::vector<int> labels;
  std::vector<std::optional<PairSeries>> series;
};

enum class Aggregate { mean, median };

// The measure on the pairs with weights w (w_i = how often pair i is drawn; empty: all 1). NaN
// where it is undefined. Throws std::invalid_argument on sizes that do not match.
double pair_measure(const PairSeries& series, const std::vector<int>& labels, const std::vector<long>& weights = {});

// The aggregate of each series over the strata where it has a value, on the data themselves
// (NaN for a series without any).
std::vector<double> aggregate_pairs(const std::vector<PairStratum>& strata, Aggregate aggregate);

// resamples[b][s]: series s's aggregate on resample b. Throws std::invalid_argument for strata of
// different series counts, a stratum without pairs, or a stratum whose measures stay undefined
// after 1,000 redraws (e.g. a single pair).
std::vector<std::vector<double>> pair_resamples(const std::vector<PairStratum>& strata, Aggregate aggregate,
                                                const BootstrapOptions& options = {});

// The percentile interval of series s (resampled values that are NaN are left out).
Interval pair_interval(const std::vector<std::vector<double>>& resamples, std::size_t series, double level = 0.95);

// Series a minus series b on the same draws: the difference of the aggregates, its percentile
// interval and two-sided p-value (as paired_bootstrap).
PairedComparison paired_pair_comparison(const std::vector<PairStratum>& strata, Aggregate aggregate,
                                        const std::vector<std::vector<double>>& resamples, std::size_t a, std::size_t b,
                                        double level = 0.95);

}  // namespace mpg::stats
