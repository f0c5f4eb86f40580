// Copy of an Eigen vector as a std::vector<double>, the type the games and the JSON results take.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace mpg {

inline std::vector<double> to_std_vector(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace mpg
