#include "lib/data/pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

int threshold_comparison(double difference, double tau) {
  if (difference < -tau) return -1;
  if (difference > tau) return 1;
  return 0;
}

std::size_t PairData::count(int label) const {
  return static_cast<std::size_t>(std::count(labels.begin(), labels.end(), label));
}

void PairData::validate(const std::string& what) const {
  const auto n = static_cast<long>(labels.size());
  if (first.rows() != n || second.rows() != n)
    throw Error(what + ": " + std::to_string(first.rows()) + " and " + std::to_string(second.rows()) +
                " rows for " + std::to_string(n) + " labels");
  if (first.cols() != second.cols())
    throw Error(what + ": x has " + std::to_string(first.cols()) + " features, x' has " +
                std::to_string(second.cols()));
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] < -1 || labels[i] > 1)
      throw Error(what + ": pair " + std::to_string(i) + " has label " + std::to_string(labels[i]) +
                  " (not in {-1, 0, 1})");
  if (!first.allFinite() || !second.allFinite()) throw Error(what + ": a feature is not finite");
}

PairData PairData::subset(const std::vector<std::size_t>& rows) const {
  PairData out;
  out.first.resize(static_cast<long>(rows.size()), first.cols());
  out.second.resize(static_cast<long>(rows.size()), second.cols());
  out.labels.reserve(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto i = static_cast<long>(rows[k]);
    out.first.row(static_cast<long>(k)) = first.row(i);
    out.second.row(static_cast<long>(k)) = second.row(i);
    out.labels.push_back(labels[rows[k]]);
  }
  return out;
}

PairData PairData::swapped() const {
  PairData out;
  out.first = second;
  out.second = first;
  out.labels.reserve(labels.size());
  for (int y : labels) out.labels.push_back(-y);
  return out;
}

PairData PairData::concatenate(const PairData& a, const PairData& b) {
  if (a.features() != b.features())
    throw Error("PairData::concatenate: " + std::to_string(a.features()) + " and " +
                std::to_string(b.features()) + " features");
  PairData out;
  out.first.resize(a.first.rows() + b.first.rows(), a.features());
  out.second.resize(out.first.rows(), a.features());
  out.first << a.first, b.first;
  out.second << a.second, b.second;
  out.labels = a.labels;
  out.labels.insert(out.labels.end(), b.labels.begin(), b.labels.end());
  return out;
}

double PairRandom::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double PairRandom::uniform(double low, double high) { return low + (high - low) * uniform(); }

std::uint64_t PairRandom::below(std::uint64_t bound) {
  if (bound <= 1) return 0;
  // Reject the top partial block of 2^64 so every residue is equally likely.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % bound);
  for (;;) {
    const std::uint64_t x = engine_();
    if (x < limit) return x % bound;
  }
}

double PairRandom::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box-Muller on (0, 1] x [0, 1).
  const double u = 1.0 - uniform(), v = uniform();
  const double radius = std::sqrt(-2.0 * std::log(u)), angle = 2.0 * M_PI * v;
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

std::vector<std::size_t> content_order(const PairData& pairs) {
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto less = [&pairs](std::size_t a, std::size_t b) {
    if (pairs.labels[a] != pairs.labels[b]) return pairs.labels[a] < pairs.labels[b];
    for (long j = 0; j < pairs.features(); ++j) {
      const auto ia = static_cast<long>(a), ib = static_cast<long>(b);
      if (pairs.first(ia, j) != pairs.first(ib, j)) return pairs.first(ia, j) < pairs.first(ib, j);
      if (pairs.second(ia, j) != pairs.second(ib, j)) return pairs.second(ia, j) < pairs.second(ib, j);
    }
    return false;
  };
  std::stable_sort(order.begin(), order.end(), less);
  return order;
}

std::vector<std::vector<std::size_t>> stratified_pair_sets(const PairData& pool, std::size_t pairs_per_set,
                                                           double equality_share, std::size_t sets,
                                                           std::uint64_t seed) {
  if (!(equality_share >= 0.0 && equality_share <= 1.0))
    throw Error("stratified_pair_sets: equality share rho = " + std::to_string(equality_share) +
                " is not in [0, 1]");
  const auto equal_per_set =
      static_cast<std::size_t>(std::llround(equality_share * static_cast<double>(pairs_per_set)));
  const std::size_t unequal_per_set = pairs_per_set - equal_per_set;
  std::vector<std::size_t> equal, unequal;
  for (std::size_t i : content_order(pool)) (pool.labels[i] == 0 ? equal : unequal).push_back(i);
  if (equal.size() < sets * equal_per_set || unequal.size() < sets * unequal_per_set)
    throw Error("stratified_pair_sets: " + std::to_string(sets) + " sets of " + std::to_string(pairs_per_set) +
                " pairs with rho = " + std::to_string(equality_share) + " need " +
                std::to_string(sets * equal_per_set) + " equality and " + std::to_string(sets * unequal_per_set) +
                " inequality pairs; the pool has " + std::to_string(equal.size()) + " and " +
                std::to_string(unequal.size()));
  PairRandom random(seed);
  random.shuffle(equal);
  random.shuffle(unequal);
  std::vector<std::vector<std::size_t>> out(sets);
  for (std::size_t s = 0; s < sets; ++s) {
    out[s].assign(equal.begin() + static_cast<long>(s * equal_per_set),
                  equal.begin() + static_cast<long>((s + 1) * equal_per_set));
    out[s].insert(out[s].end(), unequal.begin() + static_cast<long>(s * unequal_per_set),
                  unequal.begin() + static_cast<long>((s + 1) * unequal_per_set));
    std::sort(out[s].begin(), out[s].end());
  }
  return out;
}

PairStandardizer PairStandardizer::fit(const PairData& training) {
  training.validate("PairStandardizer::fit");
  const long n = training.first.rows() + training.second.rows();
  if (n < 2) throw Error("PairStandardizer::fit: needs at least one pair");
  PairStandardizer out;
  out.input_features_ = training.features();
  std::vector<double> means, scales;
  for (long j = 0; j < training.features(); ++j) {
    const double mean = (training.first.col(j).sum() + training.second.col(j).sum()) / static_cast<double>(n);
    const double squares = (training.first.col(j).array() - mean).square().sum() +
                           (training.second.col(j).array() - mean).square().sum();
    const double sd = std::sqrt(squares / static_cast<double>(n - 1));
    if (!(sd > 0.0)) continue;
    out.kept.push_back(j);
    means.push_back(mean);
    scales.push_back(sd);
  }
  out.mean = Eigen::Map<Eigen::VectorXd>(means.data(), static_cast<long>(means.size()));
  out.scale = Eigen::Map<Eigen::VectorXd>(scales.data(), static_cast<long>(scales.size()));
  return out;
}

PairStandardizer PairStandardizer::identity(long features) {
  PairStandardizer out;
  out.input_features_ = features;
  for (long j = 0; j < features; ++j) out.kept.push_back(j);
  out.mean = Eigen::VectorXd::Zero(features);
  out.scale = Eigen::VectorXd::Ones(features);
  return out;
}

Eigen::MatrixXd PairStandardizer::apply(const Eigen::MatrixXd& rows) const {
  if (rows.cols() != input_features_)
    throw Error("PairStandardizer: rows have " + std::to_string(rows.cols()) + " features, fit on " +
                std::to_string(input_features_));
  Eigen::MatrixXd out(rows.rows(), static_cast<long>(kept.size()));
  for (std::size_t k = 0; k < kept.size(); ++k) {
    const auto c = static_cast<long>(k);
    out.col(c) = (rows.col(kept[k]).array() - mean(c)) / scale(c);
  }
  return out;
}

PairData PairStandardizer::apply(const PairData& pairs) const {
  PairData out;
  out.first = apply(pairs.first);
  out.second = apply(pairs.second);
  out.labels = pairs.labels;
  return out;
}

}  // namespace mpg
