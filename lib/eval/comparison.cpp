#include "lib/eval/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "lib/base/error.hpp"

namespace mpg {

namespace {

void check_label(int y, const char* what) {
  if (y < -1 || y > 1) throw Error(std::string(what) + ": label " + std::to_string(y) + " is not in {-1, 0, 1}");
}

void check_sizes(std::size_t a, std::size_t b, const char* what) {
  if (a != b)
    throw Error(std::string(what) + ": " + std::to_string(a) + " values for " + std::to_string(b) + " labels");
}

}  // namespace

std::vector<std::size_t> by_decreasing_magnitude(const std::vector<double>& d, const std::vector<int>& y) {
  std::vector<std::size_t> order(d.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double ma = std::abs(d[a]), mb = std::abs(d[b]);
    if (ma != mb) return ma > mb;
    if (d[a] != d[b]) return d[a] < d[b];
    return y[a] < y[b];
  });
  return order;
}

double ComparisonErrors::error_percent() const {
  return pairs == 0 ? 0.0 : 100.0 * static_cast<double>(errors()) / static_cast<double>(pairs);
}

ComparisonErrors comparison_errors(const std::vector<int>& predicted, const std::vector<int>& labels) {
  check_sizes(predicted.size(), labels.size(), "comparison_errors");
  ComparisonErrors counts;
  counts.pairs = labels.size();
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int y = labels[i], yhat = predicted[i];
    check_label(y, "comparison_errors");
    check_label(yhat, "comparison_errors (prediction)");
    if (yhat == y) continue;
    if (y == 0) {
      ++counts.false_positives;
    } else if (yhat == 0) {
      ++counts.false_negatives;
    } else {
      ++counts.inversions;
    }
  }
  return counts;
}

std::vector<int> threshold_comparisons(const std::vector<double>& differences, double tau) {
  std::vector<int> out(differences.size());
  for (std::size_t i = 0; i < differences.size(); ++i) out[i] = threshold_comparison(differences[i], tau);
  return out;
}

RocCurve comparison_roc(const std::vector<double>& differences, const std::vector<int>& labels) {
  check_sizes(differences.size(), labels.size(), "comparison_roc");
  std::size_t equal = 0, different = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    check_label(labels[i], "comparison_roc");
    if (std::isnan(differences[i])) throw Error("comparison_roc: rank difference " + std::to_string(i) + " is NaN");
    (labels[i] == 0 ? equal : different) += 1;
  }
  if (equal == 0 || different == 0)
    throw Error("comparison_roc: needs pairs with y = 0 and with y != 0 (got " + std::to_string(equal) +
                " and " + std::to_string(different) + ")");
  RocCurve roc;
  auto add_point = [&roc](double fpr, double tpr) {
    if (!roc.false_positive_rate.empty() && roc.false_positive_rate.back() == fpr &&
        roc.true_positive_rate.back() == tpr)
      return;
    roc.false_positive_rate.push_back(fpr);
    roc.true_positive_rate.push_back(tpr);
  };
  add_point(0.0, 0.0);
  const std::vector<std::size_t> order = by_decreasing_magnitude(differences, labels);
  std::size_t false_positives = 0, true_positives = 0;
  for (std::size_t start = 0; start < order.size();) {
    const double magnitude = std::abs(differences[order[start]]);
    if (magnitude == 0.0) break;  // t_tau(0) = 0 for every tau >= 0
    std::size_t end = start;
    // Lowering tau below |d| turns the whole group of tied |d| to yhat = sign(d).
    for (; end < order.size() && std::abs(differences[order[end]]) == magnitude; ++end) {
      const std::size_t i = order[end];
      const int yhat = differences[i] > 0 ? 1 : -1;
      if (labels[i] == 0) {
        ++false_positives;
      } else if (yhat == labels[i]) {
        ++true_positives;
      }
    }
    add_point(static_cast<double>(false_positives) / static_cast<double>(equal),
              static_cast<double>(true_positives) / static_cast<double>(different));
    start = end;
  }
  add_point(1.0, roc.true_positive_rate.back());
  for (std::size_t k = 1; k < roc.false_positive_rate.size(); ++k)
    roc.auc += (roc.false_positive_rate[k] - roc.false_positive_rate[k - 1]) *
               (roc.true_positive_rate[k] + roc.true_positive_rate[k - 1]) / 2.0;
  return roc;
}

double trivial_comparison_auc(const std::vector<int>& labels) {
  std::size_t equal = 0, ones = 0, minus_ones = 0;
  for (int y : labels) {
    check_label(y, "trivial_comparison_auc");
    (y == 0 ? equal : (y == 1 ? ones : minus_ones)) += 1;
  }
  if (equal == 0 || ones + minus_ones == 0)
    throw Error("trivial_comparison_auc: needs pairs with y = 0 and with y != 0");
  return static_cast<double>(std::max(ones, minus_ones)) / static_cast<double>(ones + minus_ones) / 2.0;
}

double best_comparison_threshold(const std::vector<double>& differences, const std::vector<int>& labels,
                                 std::size_t* errors) {
  check_sizes(differences.size(), labels.size(), "best_comparison_threshold");
  if (labels.empty()) throw Error("best_comparison_threshold: no pairs");
  for (int y : labels) check_label(y, "best_comparison_threshold");
  // Sweep tau upwards from 0: at tau = 0 a pair is predicted sign(d) (0 if d = 0); once tau
  // reaches |d_i| it is predicted 0.
  std::vector<std::size_t> order = by_decreasing_magnitude(differences, labels);
  std::reverse(order.begin(), order.end());
  std::size_t current = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int yhat = differences[i] > 0 ? 1 : (differences[i] < 0 ? -1 : 0);
    current += yhat != labels[i];
  }
  std::size_t best = current;
  double best_low = 0.0, best_high = order.empty() ? 1.0 : std::abs(differences[order.front()]);
  for (std::size_t start = 0; start < order.size();) {
    const double magnitude = std::abs(differences[order[start]]);
    std::size_t end = start;
    for (; end < order.size() && std::abs(differences[order[end]]) == magnitude; ++end) {
      const std::size_t i = order[end];
      const int before = differences[i] > 0 ? 1 : (differences[i] < 0 ? -1 : 0);
      current -= before != labels[i];
      current += labels[i] != 0;
    }
    const double next = end < order.size() ? std::abs(differences[order[end]]) : magnitude + 2.0;
    if (current < best) {
      best = current;
      best_low = magnitude;
      best_high = next;
    }
    start = end;
  }
  if (errors) *errors = best;
  // At tau = 0 the best interval is [0, smallest |d|) (or [0, ..) when all d are 0).
  if (best_low == 0.0 && best_high == 0.0) return 0.0;
  return (best_low + best_high) / 2.0;
}

double true_ranking_error_percent(SquaredNorm norm, const PairData& pairs) {
  pairs.validate("true_ranking_error_percent");
  std::vector<int> predicted(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto r = static_cast<long>(i);
    predicted[i] = threshold_comparison(squared_norm_rank(norm, pairs.second.row(r).transpose()) -
                                            squared_norm_rank(norm, pairs.first.row(r).transpose()),
                                        1.0);
  }
  return comparison_errors(predicted, pairs.labels).error_percent();
}

}  // namespace mpg
