// Options structs validate themselves (as Ceres' Solver::Options::IsValid): a struct with a
// regularization weight, tolerances or caps has `void validate() const`, which its trainer calls
// first and which throws mpg::Error "<what>: <field> must be <rule>, got <value>" (the wording of
// the parameter tables' messages, lib/harness/parameters.hpp). These are the rules.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "lib/base/error.hpp"

namespace mpg::option_checks {

// A finite number > 0 (lambda, tolerances).
inline void positive(const std::string& what, const char* field, double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw Error(fmt::format("{}: {} must be a finite number > 0, got {}", what, field, value));
}

// A finite number >= 0 (a cap where 0 = none, a weight that may vanish).
inline void non_negative(const std::string& what, const char* field, double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw Error(fmt::format("{}: {} must be a finite number >= 0, got {}", what, field, value));
}

// A whole number >= low (iteration caps: 0 = none, or at least 1).
inline void at_least(const std::string& what, const char* field, long value, long low) {
  if (value < low) throw Error(fmt::format("{}: {} must be >= {}, got {}", what, field, low, value));
}

}  // namespace mpg::option_checks
