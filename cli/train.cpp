// mpg train: learn theta of a binary MPG (F1 or P@k) from a LIBSVM file; writes a JSON model.
#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>

#include "cli/commands.hpp"
#include "cli/parameter_options.hpp"
#include "lib/harness/families/binary_mpg_parameters.hpp"
#include "lib/base/io.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"

namespace mpg::cli {

Action add_train(CLI::App& app) {
  struct Settings {
    std::string metric = "f1";
    double lambda = 0.0;
    std::string train_path;
    std::string model_path;
    double positive_label = 1.0;
    double k_fraction = 0.5;
    std::string adversary = "unrestricted";
    std::string trainer;
    std::string protocol;
    std::string start = "gold_direction";
    double start_potential = 0.0;
    int sizes_per_round = JointTrainOptions{}.sizes_per_round;
    int tail_sizes_per_round = JointTrainOptions{}.tail_sizes_per_round;
    double tail_gap = JointTrainOptions{}.tail_gap;
    int fix_margin = JointTrainOptions{}.fix_margin;
    bool long_step = JointTrainOptions{}.long_step;
    bool all_best_values = !JointTrainOptions{}.lazy_best_values;
    int max_iterations = 200;
    bool max_iterations_given = false;
    double tolerance = 0.0;
    long max_game_solves = 0;
    bool quiet = false;
    bool on_demand_accuracy = false;
    DoubleOracleOptions game;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "train", "Learn the Lagrange multipliers theta of a binary MPG: the whole training file is "
               "one game (thesis Eq. 3.9/3.10); writes a JSON model");
  command->add_option("--metric", s->metric, "f1 or precision_at_k")
      ->capture_default_str()
      ->check(CLI::IsMember(binary_metric_names()));
  // The binary MPG's parameters, declared once with the spec's `mpg` method (same names, choices,
  // ranges, defaults and messages).
  const harness::ParameterTable& parameters = harness::binary_mpg_parameters();
  add_parameter(*command, parameters.at("lambda"), s->lambda);
  command->add_option("--train", s->train_path,
                      "Training file (LIBSVM format; feature indices up to 2^24 = 16777216, |values| up to 1e12; " +
                          input_limits_help() + "; both classes must occur). Memory follows the non-zeros, not the "
                          "largest index: where fewer than half of the columns hold a value, the trainers see only those "
                          "and the model lists them (theta_columns)")
      ->required();
  command->add_option("--model", s->model_path, "Where to write the model (JSON; its directory must exist)")->required();
  command->add_option("--positive", s->positive_label, "Label value of the positive class")
      ->capture_default_str();
  command->add_option("--k-fraction", s->k_fraction,
                      "precision@k: k = floor(fraction x positives of the file)")
      ->capture_default_str()
      ->check(between(0.0, 1.0));
  command->add_option("--adversary", s->adversary, "precision@k adversary: unrestricted or exactly_k")
      ->capture_default_str()
      ->check(CLI::IsMember({"unrestricted", "exactly_k"}));
  add_parameter(*command, parameters.at("trainer"), s->trainer)
      ->description(parameters.at("trainer").help + "; --optimizer is its older name");
  add_parameter(*command, parameters.at("protocol"), s->protocol)
      ->description(parameters.at("protocol").help +
                    " (the same as --optimizer authors_lbfgs / authors_adadelta; --start does not apply)");
  command->add_option("--start", s->start,
                      "Initial theta (lbfgs, adadelta; joint: the center of its first trust region): "
                      "gold_direction (unit step along Phi(x, y_gold)) or zero "
                      "(the reference code; its game at theta = 0 needs n+1 actions)")
      ->capture_default_str()
      ->check(CLI::IsMember({"gold_direction", "zero"}));
  command->add_option("--sizes-per-round", s->sizes_per_round,
                      "joint: sizes added per player per round, the best one and the next best that cut off the "
                      "LP's solution, spread apart")
      ->check(between(1, 1000000));
  command->add_option("--tail-sizes-per-round", s->tail_sizes_per_round,
                      "joint: sizes per player per round once the certified gap is <= --tail-gap x the tolerance "
                      "(0 = no switch)")
      ->capture_default_str()
      ->check(between(0, 1000000));
  command->add_option("--tail-gap", s->tail_gap, "joint: the gap, in tolerances, where the tail begins")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e300));
  command->add_option("--fix-margin", s->fix_margin,
                      "joint: pairs ranked this far inside a size's best action (outside) are fixed in (out) of "
                      "the LP; 0 = exactly the best action's (smaller LPs); -1 = never fix")
      ->capture_default_str()
      ->check(between(-1, 1000000));
  command->add_flag("--long-step", s->long_step, "joint: GLPK's long-step (bound flipping) ratio test");
  command->add_flag("--all-best-values", s->all_best_values,
                    "joint: evaluate both players' best values at every size each round, not only where a bound per "
                    "block of 64 sizes could reach the best of the LP's sizes (the same theta; for timing)");
  command->add_option("--start-potential", s->start_potential,
                      "joint with --start gold_direction: 0 = the step along Phi_gold that minimizes the objective's "
                      "bound when the predictor plays the gold labels; > 0 = the step that makes the largest |x_i . theta| "
                      "this; < 0 = the unit vector")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {  // not a number at all: CLI11's conversion reports it
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            const bool parsed = end != text.c_str() && *end == '\0';
            return !parsed || std::isfinite(value) ? std::string() : "must be a finite number, got " + text;
          },
          "FINITE"));
  command
      ->add_option_function<int>(
          "--max-iterations",
          [s](int value) {
            s->max_iterations = value;
            s->max_iterations_given = true;
          },
          "Optimizer iteration cap (default 200 for lbfgs/adadelta, 100000 for marginals and cutting_plane, 2000 rounds "
          "for joint, 1000000 for dual); a capped run is reported as not converged")
      ->check(greater_than(0));
  add_parameter(*command, parameters.at("objective_tolerance"), s->tolerance)
      ->description(parameters.at("objective_tolerance").help + " (marginals, joint, cutting_plane and dual)");
  add_parameter(*command, parameters.at("max_game_solves"), s->max_game_solves);
  command->add_flag("--on-demand-accuracy", s->on_demand_accuracy,
                    "cutting_plane: stop each game once its bracket on the objective decides the "
                    "bundle step (faster where games are hard, e.g. syn1000; slower on OPTDIGITS)");
  command->add_flag("--quiet", s->quiet,
                    "No progress lines on stderr (one every 20 iterations, and one whenever 10 s "
                    "pass without)");
  add_game_options(*command, s->game);
  // The trainer re-solves its games at every theta only as accurately as the bundle step needs;
  // there smoothing did not pay (bench/README.md), so it stays off unless asked for.
  CLI::Option* smoothing = command->get_option("--smoothing");
  smoothing->description(smoothing->get_description() + "; cutting_plane: off unless given");

  return [s, smoothing] {
    // An authors' protocol with another trainer is refused before any work (the spec's message).
    const BinaryTrainer chosen = trainer_for_protocol(parse_training_protocol(s->protocol, "protocol"),
                                                      parse_binary_trainer(s->trainer), "trainer");
    require_output_file(s->model_path, "--model");
    refuse_same_file(s->model_path, "--model", s->train_path, "--train");
    const BinaryProblem loaded = load_binary_problem(s->train_path, s->positive_label);
    loaded.require_both_classes(s->positive_label);
    // Where fewer than half of the columns hold a value (a stray large index), the trainers see only
    // those: their memory then follows the non-zeros, not the largest index. Otherwise the columns
    // stay as they are (the same arithmetic, and a dense model file, as before issue 56).
    const long feature_columns = static_cast<long>(loaded.features.cols()) - 1;
    std::optional<CompactProblem> compact;
    if (feature_columns > 0) {
      compact = compact_columns(loaded);
      if (2 * static_cast<long>(compact->columns.size()) >= feature_columns) compact.reset();
    }
    const BinaryProblem& problem = compact ? compact->problem : loaded;
    MetricSettings settings;
    settings.metric = parse_binary_metric(s->metric);
    settings.k_fraction = s->k_fraction;
    settings.restriction = parse_adversary_restriction(s->adversary);
    BinaryTrainingOptions options;
    options.trainer = resolve_trainer(chosen, settings);
    options.lambda = s->lambda;
    options.tolerance = s->tolerance;
    options.max_seconds = s->game.max_seconds;
    options.max_game_solves = s->max_game_solves;
    if (s->max_iterations_given) options.max_iterations = s->max_iterations;
    // cutting_plane
    options.cutting_plane.extra_responses = s->game.extra_responses;
    if (smoothing->count() > 0) options.cutting_plane.smoothing = s->game.smoothing;
    options.cutting_plane.on_demand_accuracy = s->on_demand_accuracy;
    options.cutting_plane.lp_backend = s->game.lp_backend;
    // lbfgs, adadelta: every objective evaluation solves the game by double oracle
    options.gradient.game = s->game;
    options.gradient.optimizer.max_iterations = s->max_iterations;
    options.gradient.start = parse_train_start(s->start);
    options.joint.start = options.gradient.start;
    options.joint.start_potential = s->start_potential;
    options.joint.sizes_per_round = s->sizes_per_round;
    options.joint.tail_sizes_per_round = s->tail_sizes_per_round;
    options.joint.tail_gap = s->tail_gap;
    options.joint.fix_margin = s->fix_margin;
    options.joint.long_step = s->long_step;
    options.joint.lazy_best_values = !s->all_best_values;
    const bool gradient_method = options.trainer == BinaryTrainer::lbfgs || options.trainer == BinaryTrainer::adadelta ||
                                 is_authors_trainer(options.trainer);
    if (!s->quiet) {
      // A line every 20 iterations, and whenever 10 s passed without one: slow iterations
      // (hard games) show the restricted-game solves inside them.
      auto timer = std::make_shared<LineTimer>(10.0, 10.0);
      options.cutting_plane.progress = [timer](int iteration, double upper, double lower, int rows, int columns) {
        if (iteration % 20 != 0 && !timer->due()) return;
        timer->printed();
        fmt::print(stderr, "  iteration {:5d}  objective {:.10g}  gap {:.3e}  actions {}/{}\n",
                   iteration, upper, upper - lower, rows, columns);
      };
      options.marginals.progress = [timer](const MarginalTrainSummary& training, const MarginalSolverSummary& game) {
        if (training.iterations % 20 != 0 && !timer->due()) return;
        timer->printed();
        const std::string played =
            training.last_game_by_pure_actions
                ? fmt::format("double oracle over pure actions, gap {:.2e}", game.gap)
                : game.report();
        fmt::print(stderr, "  iteration {:5d}  objective {:.10g}  gap {:.3e}  game: {}\n", training.iterations,
                   training.objective, training.gap, played);
      };
      options.joint.progress = [timer](const JointTrainSummary& training) {
        if (training.iterations % 20 != 0 && !timer->due()) return;
        timer->printed();
        fmt::print(stderr, "  round {:5d}  objective {:.10g}  gap {:.3e}  sizes {}/{}  LP rows {}  ({:.1f} s LP)\n",
                   training.iterations, training.objective, training.gap, training.predictor_sizes,
                   training.adversary_sizes, training.lp_rows, training.lp_seconds);
      };
      options.cutting_plane.game_progress = [timer](int iteration, long solves, double gap, double target) {
        if (!timer->due()) return;
        timer->printed();
        fmt::print(stderr,
                   "  iteration {:5d}  restricted-game solve {}  game gap {:.3e} (solving to {:.1e})\n",
                   iteration, solves, gap, target);
      };
      options.gradient.optimizer.progress = [](int iteration, double value, double gradient_norm) {
        fmt::print(stderr, "  iteration {:4d}  objective {:.10g}  |gradient| {:.3e}\n", iteration,
                   value, gradient_norm);
      };
      if (gradient_method)
        fmt::print(stderr, "train: {} examples ({} positive), {} features + bias, metric {}\n",
                   problem.labels.size(), problem.positives(), feature_columns, s->metric);
    }
    BinaryTrainingSummary summary;
    BinaryModel model;
    try {
      model = train_binary_mpg_model(problem, settings, options, &summary);
    } catch (const std::bad_alloc&) {
      throw Error(fmt::format("out of memory while training on {} ({} examples, {} feature columns with a value)",
                              s->train_path, problem.labels.size(), problem.features.cols() - 1));
    }
    if (compact) {
      model.columns = compact->columns;
      model.feature_count = feature_columns;
    }
    // The model with its training summary and the common fields.
    model.positive_label = s->positive_label;
    nlohmann::json training = summary.to_json();
    if (is_authors_trainer(options.trainer))
      training["start"] = "zero";
    else if (gradient_method || options.trainer == BinaryTrainer::joint)
      training["start"] = s->start;
    if (options.trainer == BinaryTrainer::joint) training["start_potential"] = s->start_potential;
    training["file"] = s->train_path;
    training["examples"] = problem.labels.size();
    training["optimizer"] = to_string(options.trainer);
    nlohmann::json out = model.to_json();
    out["training"] = std::move(training);
    write_file_atomically(s->model_path, out.dump(2) + "\n");
    if (!s->quiet) fmt::print(stderr, "train: {}\n", summary.report());
  };
}

}  // namespace mpg::cli
