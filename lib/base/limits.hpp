// Limits of the numbers the tool accepts, checked at the door with an error naming the value
// (issue 28); `mpg train --help`, `mpg solve-game --help` and README.md state them.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstddef>

#include "lib/base/error.hpp"

namespace mpg {

// The largest LIBSVM feature index. The learners keep dense weight vectors (and the cutting-plane
// trainer dense cuts) with one entry per column; `mpg train` gives them only the columns that hold
// a value when fewer than half do (compact_columns, issue 56), but predict's weights span the test
// file's largest index: 2^24 = 16,777,216 columns (128 MB per vector) cover every LIBSVM
// collection used with linear models (RCV1 47k, news20 1.36M, url 3.2M, webspam 16.6M) and turn a
// stray 900000000 into an error instead of an exhausted memory.
inline constexpr long kMaxFeatureIndex = 1L << 24;

// The largest |psi_i| a binary game accepts. The metrics' payoffs lie in [0, 1]; beside potentials
// beyond 1e9 they drown in the rounding of the potentials' sums (a double holds ~16 digits) and the
// LP solvers return strategies that are no equilibrium.
inline constexpr double kMaxPotential = 1e9;

// Throws mpg::Error naming psi_i (1-based) and its value unless it is finite and within kMaxPotential.
inline void require_potential_in_range(std::size_t i, double psi) {
  if (!std::isfinite(psi)) throw Error(fmt::format("potential psi_{} is not a finite number", i + 1));
  if (std::abs(psi) > kMaxPotential)
    throw Error(fmt::format("potential psi_{} = {:g} is beyond +-{:g}, where the game's payoffs (in [0, 1]) would "
                            "drown in rounding; scale the potentials down", i + 1, psi, kMaxPotential));
}

// The largest |value| of a feature in a data file: beyond it, potentials psi = theta . x exceed
// kMaxPotential for any weight that is not tiny. Scale such features.
inline constexpr double kMaxFeatureValue = 1e12;

}  // namespace mpg
