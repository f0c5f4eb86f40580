// Per-column feature scaling fitted on one matrix (a training part) and applied to others (its
// validation and test parts): x_ij -> (x_ij - shift_j) * factor_j for the first `columns` columns,
// the columns after them (e.g. a constant feature appended last) left as they are.
//   unit_range   shift_j = min_j, factor_j = 1 / (max_j - min_j): the fitted rows in [0, 1];
//   standardize  shift_j = mean_j, factor_j = 1 / sd_j (population sd): mean 0, sd 1;
// over the fitted rows, implicit zeros of sparse rows counted as values. A column constant on the
// fitted rows gets factor 0 (it becomes 0 everywhere). Shifts other than 0 fill sparse rows.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <string>

namespace mpg {

enum class FeatureScaling { none, unit_range, standardize };
// "none" / "unit_range" / "standardize"; throws mpg::Error otherwise.
FeatureScaling parse_feature_scaling(const std::string& name);
std::string feature_scaling_name(FeatureScaling scaling);

struct FeatureScaler {
  Eigen::VectorXd shift, factor;  // one per scaled column

  // Fits on the rows of `fitted`, scaling its first `columns` columns (0 <= columns <= cols();
  // throws mpg::Error otherwise). FeatureScaling::none gives the identity.
  static FeatureScaler fit(const Eigen::SparseMatrix<double, Eigen::RowMajor>& fitted, long columns,
                           FeatureScaling scaling);
  // The scaled copy of `m` (its column count must be at least the scaled columns').
  Eigen::SparseMatrix<double, Eigen::RowMajor> apply(const Eigen::SparseMatrix<double, Eigen::RowMajor>& m) const;
};

}  // namespace mpg
