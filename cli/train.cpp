// mpg train: learn theta of a binary MPG (F1 or P@k) from a LIBSVM file; writes a JSON model.
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "lib/models/binary_mpg.hpp"
#include "lib/base/io.hpp"
#include "lib/learn/cutting_plane_trainer.hpp"
#include "lib/learn/precision_at_k_trainer.hpp"

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
    std::string optimizer = "auto";
    std::string start = "gold_direction";
    int max_iterations = 200;
    bool max_iterations_given = false;
    double tolerance = 1e-6;
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
      ->check(CLI::IsMember({"f1", "precision_at_k"}));
  command->add_option("--lambda", s->lambda, "L2 weight: minimizes ... + lambda/2 ||theta||^2")
      ->required()
      ->check(CLI::NonNegativeNumber);
  command->add_option("--train", s->train_path, "Training file (LIBSVM format)")->required();
  command->add_option("--model", s->model_path, "Where to write the model (JSON)")->required();
  command->add_option("--positive", s->positive_label, "Label value of the positive class")
      ->capture_default_str();
  command->add_option("--k-fraction", s->k_fraction,
                      "precision@k: k = floor(fraction x positives of the file)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--adversary", s->adversary, "precision@k adversary: unrestricted or exactly_k")
      ->capture_default_str()
      ->check(CLI::IsMember({"unrestricted", "exactly_k"}));
  command->add_option("--optimizer", s->optimizer,
                      "cutting_plane (exact: stops when the objective is certified within "
                      "--objective-tolerance), dual (precision_at_k with the unrestricted adversary "
                      "only: ADMM on the closed-form objective, its multiplier a dual point, "
                      "same certificate), lbfgs or adadelta (one solved game per objective "
                      "evaluation); auto = dual where it applies, else cutting_plane")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cutting_plane", "dual", "lbfgs", "adadelta"}));
  command->add_option("--start", s->start,
                      "Initial theta: gold_direction (unit step along Phi(x, y_gold)) or zero "
                      "(the reference code; its game at theta = 0 needs n+1 actions)")
      ->capture_default_str()
      ->check(CLI::IsMember({"gold_direction", "zero"}));
  command
      ->add_option_function<int>(
          "--max-iterations",
          [s](int value) {
            s->max_iterations = value;
            s->max_iterations_given = true;
          },
          "Optimizer iteration cap (default 200 for lbfgs/adadelta, 100000 for cutting_plane, 1000000 for dual); a "
          "capped run is reported as not converged")
      ->check(CLI::PositiveNumber);
  command->add_option("--objective-tolerance", s->tolerance,
                      "cutting_plane and dual: stop when the objective is certified within this")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
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
    const BinaryProblem problem = load_binary_problem(s->train_path, s->positive_label);
    MetricSettings settings;
    settings.metric = parse_binary_metric(s->metric);
    settings.k_fraction = s->k_fraction;
    settings.restriction = parse_adversary_restriction(s->adversary);
    if (s->optimizer == "auto") s->optimizer = has_closed_form(settings) ? "dual" : "cutting_plane";
    // Writes the model with its training summary, to which the common fields are added.
    auto save = [&](BinaryModel model, nlohmann::json training) {
      model.positive_label = s->positive_label;
      training["file"] = s->train_path;
      training["examples"] = problem.labels.size();
      training["optimizer"] = s->optimizer;
      nlohmann::json out = model.to_json();
      out["training"] = std::move(training);
      write_file_atomically(s->model_path, out.dump(2) + "\n");
    };
    if (s->optimizer == "dual") {
      PrecisionAtKTrainOptions options;
      options.lambda = s->lambda;
      options.tolerance = s->tolerance;
      options.max_seconds = s->game.max_seconds;
      if (s->max_iterations_given) options.max_iterations = s->max_iterations;
      PrecisionAtKTrainSummary summary;
      BinaryModel model = train_precision_at_k_mpg(problem, settings, options, &summary);
      save(std::move(model),
           {{"converged", summary.converged}, {"stop_reason", summary.status},
            {"iterations", summary.iterations}, {"objective", summary.objective},
            {"lower_bound", summary.dual_value}, {"gap", summary.gap}, {"seconds", summary.seconds}});
      if (!s->quiet)
        fmt::print(stderr, "train: {} after {} iterations: objective {:.10g} (certified gap {:.2e}); {:.2f} s\n",
                   summary.status, summary.iterations, summary.objective, summary.gap, summary.seconds);
      return;
    }
    if (s->optimizer == "cutting_plane") {
      CuttingPlaneOptions options;
      options.lambda = s->lambda;
      options.tolerance = s->tolerance;
      options.max_seconds = s->game.max_seconds;
      options.extra_responses = s->game.extra_responses;
      if (smoothing->count() > 0) options.smoothing = s->game.smoothing;
      options.on_demand_accuracy = s->on_demand_accuracy;
      options.lp_backend = s->game.lp_backend;
      if (s->max_iterations_given) options.max_iterations = s->max_iterations;
      if (!s->quiet) {
        // A line every 20 iterations, and whenever 10 s passed without one: slow iterations
        // (hard games) show the restricted-game solves inside them.
        auto timer = std::make_shared<LineTimer>(10.0, 10.0);
        options.progress = [timer](int iteration, double upper, double lower, int rows, int columns) {
          if (iteration % 20 != 0 && !timer->due()) return;
          timer->printed();
          fmt::print(stderr, "  iteration {:5d}  objective {:.10g}  gap {:.3e}  actions {}/{}\n",
                     iteration, upper, upper - lower, rows, columns);
        };
        options.game_progress = [timer](int iteration, long solves, double gap, double target) {
          if (!timer->due()) return;
          timer->printed();
          fmt::print(stderr,
                     "  iteration {:5d}  restricted-game solve {}  game gap {:.3e} (solving to {:.1e})\n",
                     iteration, solves, gap, target);
        };
      }
      CuttingPlaneSummary summary;
      BinaryModel model = train_binary_mpg_cutting_plane(problem, settings, options, &summary);
      save(std::move(model),
                        {{"converged", summary.converged},
                         {"stop_reason", summary.status},
                         {"iterations", summary.iterations},
                         {"objective", summary.objective},
                         {"lower_bound", summary.lower_bound},
                         {"gap", summary.gap},
                         {"cuts", summary.cuts},
                         {"predictor_actions", summary.predictor_actions},
                         {"adversary_actions", summary.adversary_actions},
                         {"seconds", summary.seconds}});
      if (!s->quiet)
        fmt::print(stderr,
                   "train: {} after {} iterations: objective {:.10g} (certified gap {:.2e}), "
                   "{} cuts, {} serious steps, {} restricted-game solves, restricted game {}x{}; {:.2f} s ({:.2f} s LP, {:.2f} s best "
                   "responses, {:.2f} s master)\n",
                   summary.status, summary.iterations, summary.objective, summary.gap,
                   summary.cuts, summary.serious_steps, summary.game_iterations, summary.predictor_actions, summary.adversary_actions,
                   summary.seconds, summary.lp_seconds, summary.best_response_seconds,
                   summary.master_seconds);
      return;
    }
    TrainOptions options;
    options.lambda = s->lambda;
    options.game = s->game;
    options.optimizer.kind = parse_optimizer_kind(s->optimizer);
    options.optimizer.max_iterations = s->max_iterations;
    options.start = parse_train_start(s->start);
    if (!s->quiet) {
      fmt::print(stderr, "train: {} examples ({} positive), {} features + bias, metric {}\n",
                 problem.labels.size(), problem.positives(), problem.features.cols() - 1,
                 s->metric);
      options.optimizer.progress = [](int iteration, double value, double gradient_norm) {
        fmt::print(stderr, "  iteration {:4d}  objective {:.10g}  |gradient| {:.3e}\n", iteration,
                   value, gradient_norm);
      };
    }
    TrainSummary summary;
    BinaryModel model = train_binary_mpg(problem, settings, options, &summary);
    save(std::move(model),
                      {{"start", s->start},
                       {"converged", summary.optimizer.converged},
                       {"stop_reason", summary.optimizer.message},
                       {"iterations", summary.optimizer.iterations},
                       {"objective", summary.optimizer.final_value},
                       {"gradient_norm", summary.optimizer.gradient_norm},
                       {"games", summary.games},
                       {"game_iterations", summary.game_iterations},
                       {"game_seconds", summary.game_seconds},
                       {"unconverged_games", summary.unconverged_games},
                       {"max_gap", summary.max_gap},
                       {"seconds", summary.optimizer.seconds}});
    if (!s->quiet)
      fmt::print(stderr,
                 "train: {} after {} iterations ({}), objective {:.10g}, {} games "
                 "({} not converged, max gap {:.2e}; {} double-oracle iterations, {:.2f} s in "
                 "games), {:.2f} s\n",
                 summary.optimizer.converged ? "converged" : "stopped",
                 summary.optimizer.iterations, summary.optimizer.message,
                 summary.optimizer.final_value, summary.games, summary.unconverged_games,
                 summary.max_gap, summary.game_iterations, summary.game_seconds,
                 summary.optimizer.seconds);
  };
}

}  // namespace mpg::cli
