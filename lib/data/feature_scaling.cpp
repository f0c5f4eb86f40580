#include "lib/data/feature_scaling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lib/base/error.hpp"

namespace mpg {

using RowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

FeatureScaling parse_feature_scaling(const std::string& name) {
  if (name == "none") return FeatureScaling::none;
  if (name == "unit_range") return FeatureScaling::unit_range;
  if (name == "standardize") return FeatureScaling::standardize;
  throw Error(fmt::format("feature scaling: expected none, unit_range or standardize, got '{}'", name));
}

std::string feature_scaling_name(FeatureScaling scaling) {
  switch (scaling) {
    case FeatureScaling::none: return "none";
    case FeatureScaling::unit_range: return "unit_range";
    case FeatureScaling::standardize: return "standardize";
  }
  return "none";
}

FeatureScaler FeatureScaler::fit(const RowMatrix& fitted, long columns, FeatureScaling scaling) {
  if (columns < 0 || columns > fitted.cols())
    throw Error(fmt::format("feature scaling: {} columns to scale in a matrix of {}", columns, fitted.cols()));
  FeatureScaler s{Eigen::VectorXd::Zero(columns), Eigen::VectorXd::Ones(columns)};
  if (scaling == FeatureScaling::none) return s;
  const double n = static_cast<double>(fitted.rows());
  Eigen::VectorXd low = Eigen::VectorXd::Constant(columns, std::numeric_limits<double>::infinity());
  Eigen::VectorXd high = -low, sum = Eigen::VectorXd::Zero(columns), squares = Eigen::VectorXd::Zero(columns);
  std::vector<double> stored(static_cast<std::size_t>(columns), 0.0);
  for (long i = 0; i < fitted.rows(); ++i)
    for (RowMatrix::InnerIterator it(fitted, i); it; ++it) {
      if (it.col() >= columns) continue;
      low[it.col()] = std::min(low[it.col()], it.value());
      high[it.col()] = std::max(high[it.col()], it.value());
      sum[it.col()] += it.value();
      stored[static_cast<std::size_t>(it.col())] += 1.0;
    }
  for (long j = 0; j < columns; ++j) {
    const double zeros = n - stored[static_cast<std::size_t>(j)];  // implicit zeros of sparse rows
    if (zeros > 0.0) {
      low[j] = std::min(low[j], 0.0);
      high[j] = std::max(high[j], 0.0);
    }
    if (scaling == FeatureScaling::unit_range) {
      s.shift[j] = n > 0.0 ? low[j] : 0.0;
      s.factor[j] = high[j] > low[j] ? 1.0 / (high[j] - low[j]) : 0.0;
    } else {
      s.shift[j] = n > 0.0 ? sum[j] / n : 0.0;
    }
  }
  if (scaling == FeatureScaling::standardize) {  // second pass: squared deviations from the mean
    for (long i = 0; i < fitted.rows(); ++i)
      for (RowMatrix::InnerIterator it(fitted, i); it; ++it)
        if (it.col() < columns) squares[it.col()] += (it.value() - s.shift[it.col()]) * (it.value() - s.shift[it.col()]);
    for (long j = 0; j < columns; ++j) {
      squares[j] += (n - stored[static_cast<std::size_t>(j)]) * s.shift[j] * s.shift[j];
      const double sd = n > 0.0 ? std::sqrt(squares[j] / n) : 0.0;
      s.factor[j] = sd > 0.0 ? 1.0 / sd : 0.0;
    }
  }
  return s;
}

RowMatrix FeatureScaler::apply(const RowMatrix& m) const {
  const long columns = shift.size();
  if (m.cols() < columns)
    throw Error(fmt::format("feature scaling: a matrix of {} columns for a scaler of {}", m.cols(), columns));
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd row(columns);
  for (long i = 0; i < m.rows(); ++i) {
    row.setZero();
    for (RowMatrix::InnerIterator it(m, i); it; ++it) {
      if (it.col() < columns) row[it.col()] = it.value();
      else entries.emplace_back(i, it.col(), it.value());
    }
    for (long j = 0; j < columns; ++j) {
      const double v = (row[j] - shift[j]) * factor[j];
      if (v != 0.0) entries.emplace_back(i, j, v);
    }
  }
  RowMatrix scaled(m.rows(), m.cols());
  scaled.setFromTriplets(entries.begin(), entries.end());
  return scaled;
}

}  // namespace mpg
