// Subcommands of the `mpg` tool. Each registers its options on the app and returns the action
// to run when it was chosen; actions throw mpg::Error on bad input (main prints it, exits 1).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "lib/double_oracle.hpp"

namespace mpg::cli {

using Action = std::function<void()>;

Action add_solve_game(CLI::App& app);
Action add_train(CLI::App& app);
Action add_predict(CLI::App& app);
Action add_run(CLI::App& app);

// Parses "v1,v2,..." into finite doubles; throws mpg::Error naming the bad entry.
std::vector<double> parse_number_list(const std::string& text, const std::string& what);

// Registers --tolerance, --max-iterations, --max-actions for the double oracle.
void add_game_options(CLI::App& command, DoubleOracleOptions& options);

}  // namespace mpg::cli
