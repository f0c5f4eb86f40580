// lib/base/eigen_vectors.hpp: copies of Eigen objects as std::vector<double>.
#include <catch2/catch.hpp>

#include "lib/base/eigen_vectors.hpp"

using mpg::to_std_vector;

TEST_CASE("A vector is copied coefficient by coefficient", "[eigen_vectors]") {
  Eigen::VectorXd v(3);
  v << 1.5, -2.0, 0.25;
  CHECK(to_std_vector(v) == std::vector<double>{1.5, -2.0, 0.25});
  CHECK(to_std_vector(Eigen::VectorXd()).empty());
}

// Ranking's theta is a (d + 1) x (L - 1) matrix: a conversion to VectorXd kept its first column
// only and moved every MPG number of Table XII.
TEST_CASE("A matrix is copied whole, in column-major order", "[eigen_vectors]") {
  Eigen::MatrixXd m(2, 3);
  m << 1, 2, 3,
       4, 5, 6;
  CHECK(to_std_vector(m) == std::vector<double>{1, 4, 2, 5, 3, 6});
}
