// mpg train: learn theta of a binary MPG (F1 or P@k) from a LIBSVM file; writes a JSON model.
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "lib/binary_mpg.hpp"
#include "lib/io.hpp"

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
    std::string optimizer = "lbfgs";
    std::string start = "gold_direction";
    int max_iterations = 200;
    bool quiet = false;
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
  command->add_option("--optimizer", s->optimizer, "lbfgs or adadelta")
      ->capture_default_str()
      ->check(CLI::IsMember({"lbfgs", "adadelta"}));
  command->add_option("--start", s->start,
                      "Initial theta: gold_direction (unit step along Phi(x, y_gold)) or zero "
                      "(the reference code; its game at theta = 0 needs n+1 actions)")
      ->capture_default_str()
      ->check(CLI::IsMember({"gold_direction", "zero"}));
  command->add_option("--max-iterations", s->max_iterations, "Optimizer iteration cap")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_flag("--quiet", s->quiet, "No per-iteration progress on stderr");
  add_game_options(*command, s->game);

  return [s] {
    const BinaryProblem problem = load_binary_problem(s->train_path, s->positive_label);
    MetricSettings settings;
    settings.metric = parse_binary_metric(s->metric);
    settings.k_fraction = s->k_fraction;
    settings.restriction = parse_adversary_restriction(s->adversary);
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
    model.positive_label = s->positive_label;
    nlohmann::json out = model.to_json();
    out["training"] = {{"file", s->train_path},
                       {"examples", problem.labels.size()},
                       {"optimizer", s->optimizer},
                       {"start", s->start},
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
                       {"seconds", summary.optimizer.seconds}};
    write_file_atomically(s->model_path, out.dump(2) + "\n");
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
