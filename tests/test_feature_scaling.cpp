// Feature scaling fitted on a training part (lib/data/feature_scaling): unit range and
// standardization on the fitted rows (implicit zeros counted), the same map applied to other rows,
// columns after the scaled ones untouched, constant columns to 0, bad input refused.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/data/feature_scaling.hpp"

using namespace mpg;
using RowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

namespace {

// Rows of (x1, x2, x3, constant 100); zeros are not stored.
RowMatrix rows_of(const std::vector<std::array<double, 3>>& x) {
  RowMatrix m(static_cast<long>(x.size()), 4);
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (long j = 0; j < 3; ++j)
      if (x[i][static_cast<std::size_t>(j)] != 0.0) m.insert(static_cast<long>(i), j) = x[i][static_cast<std::size_t>(j)];
    m.insert(static_cast<long>(i), 3) = 100.0;
  }
  m.makeCompressed();
  return m;
}

}  // namespace

TEST_CASE("feature scaling: unit range and standardization fitted on the training rows", "[feature_scaling]") {
  // Column 1: 2, 4, 0 (a stored-zero-free sparse column: the implicit 0 is the minimum); column 2
  // constant 5; column 3: -1, 1, 3.
  const RowMatrix train = rows_of({{2.0, 5.0, -1.0}, {4.0, 5.0, 1.0}, {0.0, 5.0, 3.0}});
  const RowMatrix test = rows_of({{6.0, 7.0, 0.0}});

  const FeatureScaler range = FeatureScaler::fit(train, 3, FeatureScaling::unit_range);
  const Eigen::MatrixXd a = Eigen::MatrixXd(range.apply(train));
  CHECK(a.col(0).minCoeff() == 0.0);
  CHECK(a.col(0).maxCoeff() == 1.0);
  CHECK(a(0, 0) == Approx(0.5));
  CHECK(a.col(1).isZero());  // constant on the fitted rows
  CHECK(a(0, 2) == 0.0);
  CHECK(a(2, 2) == 1.0);
  CHECK(a.col(3).isConstant(100.0));  // after the scaled columns: untouched
  const Eigen::MatrixXd b = Eigen::MatrixXd(range.apply(test));
  CHECK(b(0, 0) == Approx(1.5));  // the training part's map, outside [0, 1] on other rows
  CHECK(b(0, 1) == 0.0);
  CHECK(b(0, 2) == Approx(0.25));
  CHECK(b(0, 3) == 100.0);

  const FeatureScaler standard = FeatureScaler::fit(train, 3, FeatureScaling::standardize);
  const Eigen::MatrixXd z = Eigen::MatrixXd(standard.apply(train));
  for (long j : {0L, 2L}) {
    CHECK(z.col(j).mean() == Approx(0.0).margin(1e-12));
    CHECK(std::sqrt(z.col(j).squaredNorm() / 3.0) == Approx(1.0));
  }
  CHECK(z.col(1).isZero());
  CHECK(standard.shift[0] == Approx(2.0));
  CHECK(standard.factor[2] == Approx(1.0 / std::sqrt(8.0 / 3.0)));

  const FeatureScaler none = FeatureScaler::fit(train, 3, FeatureScaling::none);
  CHECK(Eigen::MatrixXd(none.apply(test)) == Eigen::MatrixXd(test));
}

TEST_CASE("feature scaling: names and bad input", "[feature_scaling]") {
  for (const auto s : {FeatureScaling::none, FeatureScaling::unit_range, FeatureScaling::standardize})
    CHECK(parse_feature_scaling(feature_scaling_name(s)) == s);
  CHECK_THROWS_AS(parse_feature_scaling("minmax"), Error);
  const RowMatrix train = rows_of({{1.0, 2.0, 3.0}});
  CHECK_THROWS_AS(FeatureScaler::fit(train, 5, FeatureScaling::unit_range), Error);
  const FeatureScaler s = FeatureScaler::fit(train, 4, FeatureScaling::unit_range);
  CHECK_THROWS_AS(s.apply(RowMatrix(1, 2)), Error);
}
