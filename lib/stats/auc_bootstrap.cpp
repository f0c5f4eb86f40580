#include "lib/stats/auc_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "lib/eval/comparison.hpp"

namespace mpg::stats {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

long weight_of(const std::vector<long>& weights, std::size_t i) { return weights.empty() ? 1L : weights[i]; }

// The weighted comparison AUC (Table 3's ROC): lowering tau below a group of tied |d| turns the
// group to yhat = sign(d): FP += weights of its y = 0 pairs, TP += weights of its pairs with
// yhat = y; FPR = FP / W_0, TPR = TP / W_{!=0}; trapezoids from (0, 0), ending at (1, TPR(0)).
double weighted_auc(const std::vector<double>& d, const std::vector<int>& y, const std::vector<std::size_t>& order,
                    const std::vector<long>& weights) {
  double equal = 0, different = 0;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] == 0 ? equal : different) += static_cast<double>(weight_of(weights, i));
  if (equal == 0 || different == 0) return kNaN;
  double fp = 0, tp = 0, x = 0, h = 0, area = 0;
  for (std::size_t start = 0; start < order.size();) {
    const double magnitude = std::abs(d[order[start]]);
    if (magnitude == 0.0) break;  // t_tau(0) = 0 for every tau >= 0
    std::size_t end = start;
    for (; end < order.size() && std::abs(d[order[end]]) == magnitude; ++end) {
      const std::size_t i = order[end];
      const auto w = static_cast<double>(weight_of(weights, i));
      if (y[i] == 0)
        fp += w;
      else if ((d[i] > 0 ? 1 : -1) == y[i])
        tp += w;
    }
    const double nx = fp / equal, nh = tp / different;
    area += (nx - x) * (nh + h) / 2.0;
    x = nx;
    h = nh;
    start = end;
  }
  return area + (1.0 - x) * h;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double aggregate_of(const std::vector<double>& values, Aggregate aggregate) {
  std::vector<double> kept;
  for (double v : values)
    if (!std::isnan(v)) kept.push_back(v);
  if (kept.empty()) return kNaN;
  if (aggregate == Aggregate::median) return median_of(std::move(kept));
  return std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
}

void check_series(const PairSeries& s, std::size_t pairs) {
  if (s.measure != PairMeasure::trivial_auc && s.values.size() != pairs)
    throw std::invalid_argument("pair bootstrap: " + std::to_string(s.values.size()) + " values for " +
                                std::to_string(pairs) + " pairs");
}

// A stratum in canonical order with each AUC series' magnitude order.
struct Prepared {
  std::vector<int> labels;
  std::vector<std::optional<PairSeries>> series;
  std::vector<std::vector<std::size_t>> orders;  // per series (AUC only)
};

Prepared prepare(const PairStratum& stratum) {
  const std::size_t n = stratum.labels.size();
  if (n == 0) throw std::invalid_argument("pair bootstrap: a test set without pairs");
  for (const auto& s : stratum.series)
    if (s) check_series(*s, n);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (stratum.labels[a] != stratum.labels[b]) return stratum.labels[a] < stratum.labels[b];
    for (const auto& s : stratum.series)
      if (s && !s->values.empty() && s->values[a] != s->values[b]) return s->values[a] < s->values[b];
    return false;
  });
  Prepared p;
  for (std::size_t i : order) p.labels.push_back(stratum.labels[i]);
  for (const auto& s : stratum.series) {
    std::optional<PairSeries> sorted;
    std::vector<std::size_t> magnitude;
    if (s) {
      sorted = PairSeries{s->measure, {}};
      for (std::size_t i : order)
        if (!s->values.empty()) sorted->values.push_back(s->values[i]);
      if (s->measure == PairMeasure::auc) magnitude = mpg::by_decreasing_magnitude(sorted->values, p.labels);
    }
    p.series.push_back(std::move(sorted));
    p.orders.push_back(std::move(magnitude));
  }
  return p;
}

double measure_prepared(const Prepared& p, std::size_t s, const std::vector<long>& weights) {
  const PairSeries& series = *p.series[s];
  if (series.measure == PairMeasure::auc) return weighted_auc(series.values, p.labels, p.orders[s], weights);
  return pair_measure(series, p.labels, weights);
}

}  // namespace

double pair_measure(const PairSeries& series, const std::vector<int>& labels, const std::vector<long>& weights) {
  check_series(series, labels.size());
  if (!weights.empty() && weights.size() != labels.size())
    throw std::invalid_argument("pair bootstrap: weights of another size than the pairs");
  switch (series.measure) {
    case PairMeasure::auc:
      return weighted_auc(series.values, labels, mpg::by_decreasing_magnitude(series.values, labels), weights);
    case PairMeasure::trivial_auc: {
      // p / 2 with p = max(W_1, W_-1) / (W_1 + W_-1) (Eq. 20).
      double zero = 0, one = 0, minus_one = 0;
      for (std::size_t i = 0; i < labels.size(); ++i)
        (labels[i] == 0 ? zero : (labels[i] == 1 ? one : minus_one)) += static_cast<double>(weight_of(weights, i));
      if (zero == 0 || one + minus_one == 0) return kNaN;
      return std::max(one, minus_one) / (one + minus_one) / 2.0;
    }
    case PairMeasure::error_percent: {
      double errors = 0, total = 0;
      for (std::size_t i = 0; i < labels.size(); ++i) {
        const auto w = static_cast<double>(weight_of(weights, i));
        errors += w * series.values[i];
        total += w;
      }
      return total == 0 ? kNaN : 100.0 * errors / total;
    }
  }
  return kNaN;
}

std::vector<double> aggregate_pairs(const std::vector<PairStratum>& strata, Aggregate aggregate) {
  const std::size_t count = strata.empty() ? 0 : strata.front().series.size();
  std::vector<double> out;
  for (std::size_t s = 0; s < count; ++s) {
    std::vector<double> values;
    for (const auto& stratum : strata)
      if (s < stratum.series.size() && stratum.series[s]) values.push_back(pair_measure(*stratum.series[s], stratum.labels));
    out.push_back(aggregate_of(values, aggregate));
  }
  return out;
}

std::vector<std::vector<double>> pair_resamples(const std::vector<PairStratum>& strata, Aggregate aggregate,
                                                const BootstrapOptions& options) {
  if (options.resamples < 1) throw std::invalid_argument("bootstrap: resamples must be at least 1");
  const std::size_t count = strata.empty() ? 0 : strata.front().series.size();
  std::vector<Prepared> prepared;
  for (const auto& stratum : strata) {
    if (stratum.series.size() != count) throw std::invalid_argument("pair bootstrap: strata with different series");
    prepared.push_back(prepare(stratum));
  }
  std::mt19937_64 rng(options.seed);  // its output sequence is fixed by the C++ standard
  std::vector<std::vector<double>> out(static_cast<std::size_t>(options.resamples), std::vector<double>(count));
  std::vector<std::vector<double>> per_stratum(count, std::vector<double>(strata.size(), kNaN));
  std::vector<long> weights;
  for (auto& row : out) {
    for (std::size_t t = 0; t < prepared.size(); ++t) {
      const Prepared& p = prepared[t];
      const auto n = static_cast<std::uint64_t>(p.labels.size());
      // Draws below `limit` map uniformly onto [0, n): the rest are rejected (no modulo bias).
      const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
      bool defined = false;
      for (int attempt = 0; attempt < 1000 && !defined; ++attempt) {
        weights.assign(p.labels.size(), 0L);
        for (std::uint64_t i = 0; i < n; ++i) {
          std::uint64_t x;
          do x = rng();
          while (x >= limit);
          ++weights[static_cast<std::size_t>(x % n)];
        }
        defined = true;
        for (std::size_t s = 0; s < count; ++s) {
          per_stratum[s][t] = p.series[s] ? measure_prepared(p, s, weights) : kNaN;
          if (p.series[s] && std::isnan(per_stratum[s][t])) defined = false;
        }
      }
      if (!defined)
        throw std::invalid_argument("pair bootstrap: a test set of " + std::to_string(n) +
                                    " pairs whose measure stays undefined on 1,000 draws");
    }
    for (std::size_t s = 0; s < count; ++s) row[s] = aggregate_of(per_stratum[s], aggregate);
  }
  return out;
}

namespace {

Interval percentile(std::vector<double> values, double level) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
  if (values.empty()) return {kNaN, kNaN};
  std::sort(values.begin(), values.end());
  const double b = static_cast<double>(values.size());
  const auto low = static_cast<std::size_t>(std::floor((1 - level) / 2 * b));
  const auto high = static_cast<std::size_t>(std::ceil((1 + level) / 2 * b)) - 1;
  return {values[std::min(low, values.size() - 1)], values[std::min(high, values.size() - 1)]};
}

}  // namespace

Interval pair_interval(const std::vector<std::vector<double>>& resamples, std::size_t series, double level) {
  std::vector<double> values;
  for (const auto& row : resamples) values.push_back(row.at(series));
  return percentile(std::move(values), level);
}

PairedComparison paired_pair_comparison(const std::vector<PairStratum>& strata, Aggregate aggregate,
                                        const std::vector<std::vector<double>>& resamples, std::size_t a, std::size_t b,
                                        double level) {
  const std::vector<double> point = aggregate_pairs(strata, aggregate);
  PairedComparison out;
  out.difference = point.at(a) - point.at(b);
  std::vector<double> differences;
  int at_most_zero = 0, at_least_zero = 0;
  for (const auto& row : resamples) {
    const double d = row.at(a) - row.at(b);
    if (std::isnan(d)) continue;
    at_most_zero += d <= 0;
    at_least_zero += d >= 0;
    differences.push_back(d);
  }
  const auto n = static_cast<double>(differences.size());
  out.interval = percentile(std::move(differences), level);
  out.p_value = n == 0 ? 1.0 : std::min(1.0, 2.0 * std::min(at_most_zero, at_least_zero) / n);
  return out;
}

}  // namespace mpg::stats
