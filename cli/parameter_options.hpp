// Command-line options generated from a parameter table (lib/harness/parameters.hpp): a
// parameter `max_game_solves` becomes --max-game-solves (and its aliases), with the table's help,
// default and check. A bad value is rejected with Parameter::problem's message, the one the spec
// validator gives for the same value in a spec.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "lib/harness/parameters.hpp"

namespace mpg::cli {

// `value` is set to the parameter's default (a parameter without one, e.g. a grid, is a required
// option taking one value of the grid's range).
CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, double& value);
CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, long& value);
CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, std::string& value);

}  // namespace mpg::cli
