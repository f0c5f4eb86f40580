#include "cli/solver_choice.hpp"

namespace mpg::cli {

void add_solver_choice(CLI::App& command, SolverChoice& choice) {
  command.add_option("--solver", choice.solver,
                     "F1 games: double_oracle, or marginals (the solver over marginals with an exact "
                     "certificate, bench/README \"A solver over marginals\"; set --tolerance, e.g. 1e-6)")
      ->capture_default_str()
      ->check(CLI::IsMember({"double_oracle", "marginals"}));
  command.add_option("--window", choice.marginals.window,
                     "--solver marginals: a new action size k starts with the psi-ranks [k - W, k + W) free")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command.add_option("--sizes-per-round", choice.marginals.sizes_per_round,
                     "--solver marginals: best-response sizes added per player and round")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command.add_option("--drop-after", choice.marginals.drop_after,
                     "--solver marginals: a size leaves the LP after this many rounds with zero weight")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command.add_option("--mixed-rounds", choice.marginals.mixed_rounds,
                     "--solver marginals: the bounds may mix each player's strategies of the last this many "
                     "rounds (0 = each round's own strategies only)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
}

MarginalSolverOptions SolverChoice::marginal_options(const DoubleOracleOptions& game) const {
  MarginalSolverOptions options = marginals;
  options.tolerance = game.tolerance;
  options.max_seconds = game.max_seconds;
  return options;
}

}  // namespace mpg::cli
