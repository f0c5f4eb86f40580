// The binary MPG's parameter table (lib/harness/families/binary_mpg_parameters.hpp). Defaults are read from
// the library's option structs, so a default is stated once, there.
#include "lib/harness/families/binary_mpg_parameters.hpp"

#include "lib/game/double_oracle.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/metrics/f1_marginal_solver.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"

namespace mpg::harness {

const ParameterTable& binary_mpg_parameters() {
  static const ParameterTable table = [] {
    const BinaryTrainingOptions training;
    const DoubleOracleOptions game;
    const MarginalSolverOptions marginals;
    Parameter trainer = choice_parameter(
        "trainer", "auto",
        {"auto", "marginals", "joint", "cutting_plane", "dual", "lbfgs", "adadelta", "authors_lbfgs", "authors_adadelta"},
        "auto: P@k by its dual trainer, F1 by cutting planes with the double oracle folded in "
        "(cutting_plane); marginals (F1 only): the proximal bundle over games solved over "
        "marginals, same certificate, not yet faster; joint (F1 only): one saddle-point LP "
        "over both players' marginals and theta, same certificate (docs/methods.md); dual (P@k with the "
        "unrestricted adversary only): ADMM on the closed-form objective, same certificate; lbfgs or adadelta: "
        "one solved game per objective evaluation, uncertified; authors_lbfgs, authors_adadelta: the authors' "
        "protocols (the parameter protocol)");
    trainer.aliases = {"optimizer"};
    Parameter protocol = choice_parameter(
        "protocol", "certified", training_protocol_names(),
        "certified: the trainer's certified optimum, prediction as game_solver says; authors_lbfgs / "
        "authors_adadelta: the reference code's protocol (lib/models/binary/authors_protocol.hpp): from theta = 0, "
        "L-BFGS (5 corrections, gradient tolerance 1e-6, at most 200 evaluations) or AdaDelta (rho 0.95, "
        "epsilon e^-6, 200 passes, the reference's two stop tests), every game stopped as the reference stops it "
        "(its LP value repeats to 1e-8, or 300 actions per player), prediction by the likeliest action of the "
        "final predictor strategy; trainer must then be auto and game_solver, game_tolerance and the game caps "
        "do not apply");
    Parameter game_solver = choice_parameter(
        "game_solver", "auto", {"auto", "double_oracle", "marginals"},
        "solver of the validation and test games: auto (F1 over marginals, P@k in closed "
        "form), the double oracle, or (F1 only) the solver over marginals "
        "(lib/metrics/f1_segment_solver.hpp); F1 is scored by the maximin action (lib/metrics/f1_decision.hpp), "
        "which no solver changes, P@k by the top k");
    game_solver.aliases = {"solver"};
    return ParameterTable({
        grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ in λ/2‖θ‖² (one cell per value)"),
        number_parameter("objective_tolerance", training.tolerance, 0.0, 1.0,
                         "stop training when the objective is certified within this (upper − lower bound)", true),
        number_parameter("max_seconds", training.max_seconds, 0.0, 1e9,
                         "wall-clock cap of a training (0 = none); a capped training is reported, and its result "
                         "depends on the machine's speed and load"),
        integer_parameter("max_game_solves", training.max_game_solves, 0, 1000000000,
                          "cap on the restricted-game LP solves of a training over games (trainer marginals: "
                          "rounds over marginals; cutting_plane: double-oracle solves) (0 = none): a "
                          "deterministic cap, reported as not converged"),
        trainer,
        protocol,
        game_solver,
        number_parameter("game_tolerance", game.tolerance, 0.0, 1.0,
                         "a validation or test game stops at this equilibrium gap", true),
        flag_parameter("solve_validation_game", true,
                       "F1: also solve each validation game (its gap is reported); false: score the validation "
                       "part by the maximin action alone, which needs no game (the selection is the same)"),
        integer_parameter("max_game_iterations", game.max_iterations, 0, 1000000000,
                          "double-oracle iterations per validation or test game (0 = no cap; a capped game is "
                          "reported)"),
        integer_parameter("max_game_rounds", marginals.max_rounds, 0, 1000000000,
                          "rounds per validation or test game of the solver over marginals (0 = no cap)"),
        number_parameter("max_game_seconds", game.max_seconds, 0.0, 1e9,
                         "wall-clock cap per validation or test game (0 = none)"),
    });
  }();
  return table;
}

}  // namespace mpg::harness
