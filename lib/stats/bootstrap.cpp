#include "lib/stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>

namespace mpg::stats {

std::string to_string(UnitMeasure measure) {
  switch (measure) {
    case UnitMeasure::mean: return "mean";
    case UnitMeasure::f1: return "f1";
    case UnitMeasure::precision: return "precision";
    case UnitMeasure::aer: return "aer";
  }
  return "?";
}

UnitMeasure parse_unit_measure(const std::string& name) {
  for (UnitMeasure m : {UnitMeasure::mean, UnitMeasure::f1, UnitMeasure::precision, UnitMeasure::aer})
    if (to_string(m) == name) return m;
  throw std::invalid_argument("unknown unit measure \"" + name + "\" (mean, f1, precision, aer)");
}

std::size_t row_width(UnitMeasure measure) {
  switch (measure) {
    case UnitMeasure::mean: return 1;
    case UnitMeasure::precision: return 2;
    case UnitMeasure::aer: return 4;
    case UnitMeasure::f1: return 3;
  }
  return 1;
}

namespace {

double ratio(double num, double den) { return den == 0 ? 0.0 : num / den; }
double f1_of(double tp, double fp, double fn) { return ratio(2 * tp, 2 * tp + fp + fn); }

// The canonical form of rows with counts: sorted, equal rows merged.
void canonicalize(std::vector<std::vector<double>>& rows, std::vector<long>& counts) {
  std::map<std::vector<double>, long> merged;
  for (std::size_t r = 0; r < rows.size(); ++r) merged[rows[r]] += counts[r];
  rows.clear();
  counts.clear();
  for (auto& [row, count] : merged) {
    rows.push_back(row);
    counts.push_back(count);
  }
}

// Draws `units` units of the rows (cumulative counts `cumulative`) into `weights`.
class Resampler {
 public:
  Resampler(const std::vector<long>& counts, std::uint64_t seed) : rng_(seed) {
    long total = 0;
    for (long c : counts) cumulative_.push_back(total += c);
    units_ = static_cast<std::uint64_t>(total);
    // Draws below limit_ map uniformly onto [0, units): reject the rest (no modulo bias).
    limit_ = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % units_;
  }
  void draw(std::vector<long>& weights) {
    std::fill(weights.begin(), weights.end(), 0L);
    for (std::uint64_t i = 0; i < units_; ++i) {
      std::uint64_t x;
      do x = rng_();
      while (x >= limit_);
      const long u = static_cast<long>(x % units_);
      const auto row = std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin();
      ++weights[static_cast<std::size_t>(row)];
    }
  }

 private:
  std::mt19937_64 rng_;  // its output sequence is fixed by the C++ standard
  std::vector<long> cumulative_;
  std::uint64_t units_ = 0, limit_ = 0;
};

Interval percentile_interval(std::vector<double> values, double level) {
  std::sort(values.begin(), values.end());
  const double b = static_cast<double>(values.size());
  const auto low = static_cast<std::size_t>(std::floor((1 - level) / 2 * b));
  const auto high = static_cast<std::size_t>(std::ceil((1 + level) / 2 * b)) - 1;
  return {values[std::min(low, values.size() - 1)], values[std::min(high, values.size() - 1)]};
}

void check_options(const BootstrapOptions& options) {
  if (options.resamples < 1) throw std::invalid_argument("bootstrap: resamples must be at least 1");
  if (!(options.level > 0 && options.level < 1)) throw std::invalid_argument("bootstrap: level must be in (0, 1)");
}

}  // namespace

namespace {

// The measure of one block's column sums over n units.
double block_measure(UnitMeasure measure, const double* sum, long n) {
  switch (measure) {
    case UnitMeasure::mean: return ratio(sum[0], static_cast<double>(n));
    case UnitMeasure::f1: return f1_of(sum[0], sum[1], sum[2]);
    case UnitMeasure::precision: return ratio(sum[0], sum[1]);
    case UnitMeasure::aer: return 1.0 - ratio(sum[0] + sum[1], sum[2] + sum[3]);
  }
  return 0;
}

}  // namespace

double measure_of(UnitMeasure measure, const std::vector<std::vector<double>>& rows, const std::vector<long>& weights,
                  int blocks) {
  const std::size_t width = row_width(measure) * static_cast<std::size_t>(blocks);
  std::vector<double> sum(width, 0.0);
  long n = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (weights[r] == 0) continue;
    n += weights[r];
    for (std::size_t j = 0; j < width; ++j) sum[j] += static_cast<double>(weights[r]) * rows[r][j];
  }
  double total = 0;
  for (int b = 0; b < blocks; ++b) total += block_measure(measure, sum.data() + row_width(measure) * b, n);
  return total / blocks;
}

long UnitSample::units() const {
  long n = 0;
  for (long c : counts) n += c;
  return n;
}

double UnitSample::score() const { return measure_of(measure, rows, counts, blocks); }

UnitSample UnitSample::canonical() const {
  UnitSample out = *this;
  canonicalize(out.rows, out.counts);
  return out;
}

void UnitSample::check() const {
  if (rows.empty()) throw std::invalid_argument("unit sample of " + unit + "s: no units");
  if (counts.size() != rows.size())
    throw std::invalid_argument("unit sample of " + unit + "s: " + std::to_string(rows.size()) + " rows but " +
                                std::to_string(counts.size()) + " counts");
  if (blocks < 1) throw std::invalid_argument("unit sample of " + unit + "s: blocks must be at least 1");
  const std::size_t width = rows.front().size();
  if (width != row_width(measure) * static_cast<std::size_t>(blocks))
    throw std::invalid_argument("unit sample of " + unit + "s: rows of " + std::to_string(width) + " numbers for measure " +
                                to_string(measure));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) throw std::invalid_argument("unit sample of " + unit + "s: rows of unequal width");
    if (counts[r] < 1) throw std::invalid_argument("unit sample of " + unit + "s: a count below 1");
    for (double x : rows[r])
      if (!std::isfinite(x)) throw std::invalid_argument("unit sample of " + unit + "s: a number that is not finite");
  }
}

UnitSample per_unit(std::string unit, UnitMeasure measure, std::vector<std::vector<double>> rows, int blocks) {
  UnitSample sample{std::move(unit), measure, blocks, std::move(rows), {}};
  sample.counts.assign(sample.rows.size(), 1L);
  return sample;
}

Interval bootstrap_interval(const UnitSample& sample, const BootstrapOptions& options) {
  sample.check();
  check_options(options);
  const UnitSample s = sample.canonical();
  Resampler resampler(s.counts, options.seed);
  std::vector<long> weights(s.rows.size());
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(options.resamples));
  for (int b = 0; b < options.resamples; ++b) {
    resampler.draw(weights);
    values.push_back(measure_of(s.measure, s.rows, weights, s.blocks));
  }
  return percentile_interval(std::move(values), options.level);
}

std::vector<Interval> stratified_bootstrap_intervals(const std::vector<long>& units,
                                                     const std::vector<ResampledStatistic>& statistics,
                                                     const BootstrapOptions& options, const std::vector<bool>& centred) {
  check_options(options);
  if (units.empty()) throw std::invalid_argument("stratified bootstrap: no strata");
  if (!centred.empty() && centred.size() != statistics.size())
    throw std::invalid_argument("stratified bootstrap: one centred flag per statistic");
  std::vector<Resampler> resamplers;
  std::vector<std::vector<long>> weights;
  for (std::size_t s = 0; s < units.size(); ++s) {
    if (units[s] < 1) throw std::invalid_argument("stratified bootstrap: a stratum without units");
    resamplers.emplace_back(std::vector<long>(static_cast<std::size_t>(units[s]), 1L), options.seed + s);
    weights.emplace_back(static_cast<std::size_t>(units[s]), 0L);
  }
  std::vector<std::vector<double>> values(statistics.size());
  for (auto& v : values) v.reserve(static_cast<std::size_t>(options.resamples));
  for (int b = 0; b < options.resamples; ++b) {
    for (std::size_t s = 0; s < units.size(); ++s) resamplers[s].draw(weights[s]);
    for (std::size_t i = 0; i < statistics.size(); ++i) values[i].push_back(statistics[i](weights));
  }
  std::vector<Interval> out;
  std::vector<std::vector<long>> ones;
  for (long n : units) ones.emplace_back(static_cast<std::size_t>(n), 1L);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (centred.empty() || !centred[i]) {
      out.push_back(percentile_interval(std::move(values[i]), options.level));
      continue;
    }
    std::vector<double>& v = values[i];
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    const double shift = statistics[i](ones) - v[v.size() / 2];
    const Interval raw = percentile_interval(std::move(v), options.level);
    out.push_back({raw.low + shift, raw.high + shift});
  }
  return out;
}

PairedComparison paired_bootstrap(const UnitSample& a, const UnitSample& b, const BootstrapOptions& options) {
  a.check();
  b.check();
  check_options(options);
  if (a.rows.size() != b.rows.size() || a.counts != b.counts || a.unit != b.unit || a.blocks != b.blocks)
    throw std::invalid_argument("paired bootstrap: the two samples are not the same " + a.unit + "s");
  // One joint row per unit (a's statistics, then b's), in canonical order.
  const std::size_t wa = a.rows.front().size();
  std::vector<std::vector<double>> joint(a.rows.size());
  for (std::size_t r = 0; r < joint.size(); ++r) {
    joint[r] = a.rows[r];
    joint[r].insert(joint[r].end(), b.rows[r].begin(), b.rows[r].end());
  }
  std::vector<long> counts = a.counts;
  canonicalize(joint, counts);
  std::vector<std::vector<double>> rows_a(joint.size()), rows_b(joint.size());
  for (std::size_t r = 0; r < joint.size(); ++r) {
    rows_a[r].assign(joint[r].begin(), joint[r].begin() + static_cast<long>(wa));
    rows_b[r].assign(joint[r].begin() + static_cast<long>(wa), joint[r].end());
  }
  PairedComparison out;
  out.difference = measure_of(a.measure, rows_a, counts, a.blocks) - measure_of(b.measure, rows_b, counts, b.blocks);
  Resampler resampler(counts, options.seed);
  std::vector<long> weights(joint.size());
  std::vector<double> differences;
  int at_most_zero = 0, at_least_zero = 0;
  for (int i = 0; i < options.resamples; ++i) {
    resampler.draw(weights);
    const double d = measure_of(a.measure, rows_a, weights, a.blocks) - measure_of(b.measure, rows_b, weights, b.blocks);
    at_most_zero += d <= 0;
    at_least_zero += d >= 0;
    differences.push_back(d);
  }
  out.interval = percentile_interval(std::move(differences), options.level);
  out.p_value = std::min(1.0, 2.0 * std::min(at_most_zero, at_least_zero) / options.resamples);
  return out;
}

MeanSd mean_sd(const std::vector<double>& values) {
  MeanSd out;
  out.n = static_cast<int>(values.size());
  if (values.empty()) return out;
  for (double v : values) out.mean += v;
  out.mean /= out.n;
  if (out.n < 2) return out;
  double ss = 0;
  for (double v : values) ss += (v - out.mean) * (v - out.mean);
  out.sd = std::sqrt(ss / (out.n - 1));
  return out;
}

}  // namespace mpg::stats
