// Small binary problems and metric settings shared by the learner tests.
#pragma once

#include <Eigen/SparseCore>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lib/models/binary/binary_mpg.hpp"

namespace mpg::testing {

// A problem from dense rows (d features each); the bias column (value 1) is appended last.
inline BinaryProblem make_problem(const std::vector<std::vector<double>>& rows,
                           const std::vector<int>& labels) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  const auto d = static_cast<Eigen::Index>(rows.front().size());
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) {
      const double value = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      if (value != 0.0) entries.emplace_back(i, j, value);
    }
    entries.emplace_back(i, d, 1.0);
  }
  BinaryProblem problem;
  problem.path = "<memory>";
  problem.features.resize(n, d + 1);
  problem.features.setFromTriplets(entries.begin(), entries.end());
  problem.labels = labels;
  return problem;
}

// n examples with d standard-normal features and a random number of positives in [2, n - 1].
inline BinaryProblem random_problem(std::size_t n, std::size_t d, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> rows(n, std::vector<double>(d));
  for (auto& row : rows)
    for (auto& value : row) value = normal(rng);
  std::uniform_int_distribution<std::size_t> count(2, n - 1);
  std::vector<int> labels(n, 0);
  std::fill_n(labels.begin(), count(rng), 1);
  std::shuffle(labels.begin(), labels.end(), rng);
  return make_problem(rows, labels);
}

inline MetricSettings f1_settings() { return MetricSettings{}; }

inline MetricSettings precision_settings(AdversaryRestriction restriction) {
  MetricSettings settings;
  settings.metric = BinaryMetric::precision_at_k;
  settings.k_fraction = 0.5;
  settings.restriction = restriction;
  return settings;
}

inline std::string describe(const MetricSettings& settings) {
  if (settings.metric == BinaryMetric::f1) return "f1";
  return "precision_at_k/" + to_string(settings.restriction);
}

// The three game flavours the learner supports.
inline std::vector<MetricSettings> all_settings() {
  return {f1_settings(), precision_settings(AdversaryRestriction::unrestricted),
          precision_settings(AdversaryRestriction::exactly_k)};
}

inline double value_at(BinaryMpgObjective& objective, const Eigen::VectorXd& theta) {
  Eigen::VectorXd gradient(theta.size());
  return objective.evaluate(theta, gradient);
}

}  // namespace mpg::testing
