// The parameters of the binary MPG (the `mpg` method of the binary family, and the options of
// `mpg train`, `mpg predict` and `mpg solve-game`), declared once: the spec validator, the spec
// reference, the cache keys and the command-line options (cli/parameter_options.hpp) all read
// this table, so a name, its choices, range, default and the message rejecting a bad value are
// the same in a spec and on the command line.
#pragma once

#include "lib/harness/parameters.hpp"

namespace mpg::harness {

const ParameterTable& binary_mpg_parameters();

}  // namespace mpg::harness
