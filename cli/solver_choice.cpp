#include "cli/solver_choice.hpp"

#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/parameter_options.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/families/binary_mpg_parameters.hpp"

namespace mpg::cli {

void add_solver_choice(CLI::App& command, SolverChoice& choice) {
  // --game-solver (older name --solver): the binary MPG's game_solver, as in a spec.
  add_parameter(command, harness::binary_mpg_parameters().at("game_solver"), choice.solver);
  command.add_option("--algorithm", choice.algorithm,
                     "solver over marginals: segments (marginals affine in psi on segments of examples: theta = 0, "
                     "tied or small potentials), windows (one variable per example in a window of ranks: learned "
                     "theta), or auto (segments for --segment-rounds rounds, on while their gap falls if more than 800 "
                     "examples mix, then windows)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "segments", "windows"}));
  command.add_option("--segment-rounds", choice.marginals.segment_rounds,
                     "--algorithm auto: rounds of the solver by segments before the windows (more while their gap "
                     "falls by 10 % in 10 rounds, if the predictor mixes on more than 800 examples)")
      ->capture_default_str()
      ->check(at_least(0));
  command.add_option("--window", choice.marginals.window,
                     "--solver marginals: a new action size k starts with the psi-ranks [k - W, k + W) free")
      ->capture_default_str()
      ->check(greater_than(0));
  command.add_option("--sizes-per-round", choice.marginals.sizes_per_round,
                     "--solver marginals: best-response sizes added per player and round")
      ->capture_default_str()
      ->check(greater_than(0));
  command.add_option("--drop-after", choice.marginals.drop_after,
                     "--solver marginals: a size leaves the LP after this many rounds with zero weight")
      ->capture_default_str()
      ->check(greater_than(0));
  command.add_option("--mixed-rounds", choice.marginals.mixed_rounds,
                     "--solver marginals: the bounds may mix each player's strategies of the last this many "
                     "rounds (0 = each round's own strategies only)")
      ->capture_default_str()
      ->check(at_least(0));
}

bool SolverChoice::over_marginals(bool metric_has_marginal_solver, std::size_t examples) const {
  if (solver == "marginals" && examples < 2)
    throw Error(fmt::format("--solver marginals needs a game of at least 2 examples, this one has {} (--solver "
                            "double_oracle, the default for it, solves it exactly)", examples));
  return examples >= 2 && (solver == "marginals" || (solver == "auto" && metric_has_marginal_solver));
}

MarginalSolverOptions SolverChoice::marginal_options(const DoubleOracleOptions& game) const {
  MarginalSolverOptions options = marginals;
  options.algorithm = parse_marginal_algorithm(algorithm);
  options.tolerance = game.tolerance;
  options.max_seconds = game.max_seconds;
  // Progress lines as the double oracle's (add_game_progress; off with --quiet): a round's end after
  // the first 2 s, then one every 5 s.
  if (game.progress) {
    auto timer = std::make_shared<LineTimer>(2.0, 5.0);
    options.progress = [timer](const MarginalSolverSummary& summary) {
      if (!timer->due()) return;
      timer->printed();
      fmt::print(stderr, "  game: round {:4d}  gap {:.3e}  sizes in use {}/{}  LP rows {}  {:.0f} s\n", summary.rounds,
                 summary.gap, summary.predictor_sizes, summary.adversary_sizes, summary.lp_rows, summary.seconds);
    };
  }
  return options;
}

}  // namespace mpg::cli
