// `--game-solver` (older name `--solver`) of `mpg solve-game` and `mpg predict`. Kept out of commands.hpp, which every
// subcommand (and so every cached cell of `mpg run`) includes: the harness keys its cache on
// the sources a method's code reaches (lib/harness/runner.cpp, method_source_paths).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"

namespace mpg::cli {

// --game-solver (auto, double_oracle or marginals; generated from the binary MPG's parameter table) and the options of the solver over marginals
// (--algorithm, --window, --sizes-per-round, --drop-after, --mixed-rounds). `marginals` is for F1
// games, `auto` picks it for them; --tolerance and --max-seconds (add_game_options) apply to
// either solver: marginal_options() copies them.
struct SolverChoice {
  std::string solver = "auto";
  std::string algorithm = "auto";
  MarginalSolverOptions marginals;
  // Whether a game is solved over marginals; `auto` picks it where the game's metric has a solver
  // over marginals (has_marginal_solver: F1).
  // The solver over marginals needs 2 examples or more: `auto` leaves a 1-example game to the double
  // oracle, which solves it exactly, and an explicit `marginals` is refused (mpg::Error, the reason).
  bool over_marginals(bool metric_has_marginal_solver = true, std::size_t examples = 2) const;
  MarginalSolverOptions marginal_options(const DoubleOracleOptions& game) const;
};
void add_solver_choice(CLI::App& command, SolverChoice& choice);

}  // namespace mpg::cli
