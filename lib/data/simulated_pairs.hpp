// The simulated comparison data of SVMcompare §4.1 (seed 004): p = 2, latent ranking function
// r(x) = ||x||_j^2 for j in {1, 2, infinity}, labels y = t_1(r(x') - r(x) + eps), eps ~ N(0, sd).
// The paper states x, x' in [-3, 3]^2 and sd = 1/4 but not how x' is drawn; the defaults follow the
// authors' code [C]: x ~ U(-2, 2)^2 and x' = x + delta with delta uniform on a box per norm
// (l1: [-1/2, 1/2]^2, l2: [-1, 1/2]^2, linf: [-1, 1]^2), which keeps x' in [-3, 3]^2.
// A pool is drawn once per (norm, seed); train / validation / test sets with a given rho are then
// sampled from it by stratified_pair_sets.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "lib/data/pairs.hpp"

namespace mpg {

enum class SquaredNorm { l1, l2, linf };
// "l1" / "l2" / "linf"; throws mpg::Error otherwise.
SquaredNorm parse_squared_norm(const std::string& name);
std::string to_string(SquaredNorm norm);

// r(x) = ||x||_j^2.
double squared_norm_rank(SquaredNorm norm, const Eigen::Ref<const Eigen::VectorXd>& x);

struct SimulatedPairsOptions {
  SquaredNorm norm = SquaredNorm::l2;
  std::size_t pairs = 20000;  // pool size (the authors' code: 2,000-20,000)
  double noise_sd = 0.25;     // sd of eps (§4.1)
  double x_low = -2.0, x_high = 2.0;  // x ~ U(x_low, x_high)^2
  // delta ~ U(offset_low, offset_high)^2; NaN = the per-norm default above.
  double offset_low = std::numeric_limits<double>::quiet_NaN();
  double offset_high = std::numeric_limits<double>::quiet_NaN();
  std::uint64_t seed = 1;
};

struct SimulatedPairs {
  PairData pairs;
  std::vector<double> true_differences;  // r(x'_i) - r(x_i) without noise
};

// Deterministic for a given options struct (PairRandom). Throws mpg::Error for an empty pool,
// a negative noise sd or an empty box.
SimulatedPairs simulate_norm_pairs(const SimulatedPairsOptions& options);

}  // namespace mpg
