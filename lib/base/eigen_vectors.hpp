// Copy of an Eigen vector or matrix (its coefficients in storage order, column-major) as a
// std::vector<double>, the type the games and the JSON results take.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace mpg {

// A template over plain objects, so that a MatrixXd (ranking's theta) is copied whole rather than
// converted to a VectorXd (which keeps only its first column in a release build).
template <typename Derived>
std::vector<double> to_std_vector(const Eigen::PlainObjectBase<Derived>& v) {
  return {v.data(), v.data() + v.size()};
}

}  // namespace mpg
