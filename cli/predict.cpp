// mpg predict: play the test file's game with a learned model and score the decision (F1: the
// maximin action by default, or the predictor's most probable pure action) against the labels.
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/solver_choice.hpp"
#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/models/binary/authors_protocol.hpp"
#include "lib/models/binary/binary_mpg.hpp"

namespace mpg::cli {

Action add_predict(CLI::App& app) {
  struct Settings {
    std::string model_path;
    std::string test_path;
    std::string predictions_path;
    bool json = false;
    std::string decision = "maximin";
    DoubleOracleOptions game;
    SolverChoice choice;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "predict", "Solve the test file's game (one game over all its examples) and report the "
                 "metric of the decision (--decision) and of the equilibrium's most probable action");
  command->add_option("--model", s->model_path,
                      "Model written by `mpg train` (validated whole before use: every key, its type and range; " +
                          input_limits_help() + ")")
      ->required();
  command->add_option("--test", s->test_path,
                      "Test file (LIBSVM format; " + input_limits_help() +
                          "). It needs a positive example: without one F1 and precision@k score every prediction 0, "
                          "so such a file is refused (exit 1) rather than scored")
      ->required();
  command->add_option("--predictions", s->predictions_path,
                      "Also write one line per example: predicted label (0/1) and marginal "
                      "P(Y_hat_i = 1)");
  command->add_flag("--json", s->json,
                    "Print JSON: metric, score, n, predicted_positives, mixed_examples "
                    "(0 < P(Y_hat_i = 1) < 1), gap, ...");
  command->add_option("--decision", s->decision,
                      "F1: maximin (the pure action with the best guaranteed payoff, a function of the "
                      "potentials alone: no solver changes it) or likeliest (the papers' rule: the most "
                      "probable action of the predictor strategy the solver returns); authors: the authors' "
                      "protocols' game (the reference's stop rule: LP value repeated to 1e-8 or 300 actions per "
                      "player) and its likeliest action, the solver options not applying; docs/methods.md")
      ->capture_default_str()
      ->check(CLI::IsMember({"maximin", "likeliest", "authors"}));
  add_game_options(*command, s->game);
  add_game_progress(*command, s->game);
  add_solver_choice(*command, s->choice);

  return [s] {
    if (!s->predictions_path.empty()) {
      require_output_file(s->predictions_path, "--predictions");
      refuse_same_file(s->predictions_path, "--predictions", s->test_path, "--test");
      refuse_same_file(s->predictions_path, "--predictions", s->model_path, "--model");
    }
    const BinaryModel model = BinaryModel::read(s->model_path);
    const BinaryProblem problem =
        load_binary_problem(s->test_path, model.positive_label, model.feature_count, model.bias);
    if (problem.positives() == 0)
      throw InputError(s->test_path, fmt::format("no positive example (label {:g}, the model's positive_label) among its "
                                                 "{}: {} would score every prediction 0, so there is nothing to measure",
                                                 model.positive_label, problem.labels.size(),
                                                 to_string(model.settings.metric)));
    BinaryPredictOptions options;
    options.solver = parse_binary_game_solver(s->choice.solver);
    if (s->decision != "authors") options.decision = parse_decision_rule(s->decision);
    options.double_oracle = s->game;
    options.marginals = s->choice.marginal_options(s->game);
    const BinaryPrediction prediction = s->decision == "authors" ? predict_binary_mpg_authors(model, problem)
                                                                 : predict_binary_mpg(model, problem, options);
    const std::size_t n = problem.labels.size();
    if (!s->predictions_path.empty()) {
      std::vector<char> predicted(n, 0);
      for (auto i : prediction.action) predicted[i] = 1;
      std::string lines;
      for (std::size_t i = 0; i < n; ++i)
        lines += fmt::format("{} {:.10g}\n", int(predicted[i]),
                             prediction.marginals[static_cast<Eigen::Index>(i)]);
      write_file_atomically(s->predictions_path, lines);
    }
    const auto& game = prediction.game;
    // The band where the predictor mixes: examples neither always nor never predicted positive
    // (marginal within 1e-9 of neither 0 nor 1). Its width, not n, sets an F1 game's cost.
    std::size_t mixed = 0;
    for (double m : prediction.marginals) mixed += (m > 1e-9 && m < 1.0 - 1e-9) ? 1 : 0;
    nlohmann::ordered_json out = {{"metric", to_string(model.settings.metric)},
                          {"score", prediction.score},
                          {"n", n},
                          {"decision", to_string(prediction.decision)},
                          {"predicted_positives", prediction.action.size()},
                          {"likeliest_score", prediction.likeliest_score},
                          {"likeliest_positives", prediction.likeliest_action.size()},
                          {"mixed_examples", mixed},
                          {"gap", game.gap()},
                          {"solver", game.solver()},
                          {"converged", game.converged()},
                          {"iterations", game.iterations()},
                          {"probability", prediction.probability},
                          {"expected_score", prediction.expected_score},
                          {"seconds", game.seconds()}};
    if (prediction.k) out["k"] = prediction.k;
    if (prediction.decision == DecisionRule::maximin) out["guarantee"] = prediction.guarantee;
    if (s->json) {
      fmt::print("{}\n", out.dump(2));
      return;
    }
    fmt::print("metric               {}\n", to_string(model.settings.metric));
    if (prediction.k) fmt::print("k                    {}\n", prediction.k);
    fmt::print("decision             {}\nscore                {:.6f}\nexpected score       {:.6f}\n"
               "n                    {}\npredicted positives  {}\nmixed examples       {}\n",
               to_string(prediction.decision), prediction.score, prediction.expected_score, n,
               prediction.action.size(), mixed);
    if (prediction.decision == DecisionRule::maximin) fmt::print("guarantee            {:.6g}\n", prediction.guarantee);
    fmt::print("likeliest action     score {:.6f}, {} positives, probability {:.6f}\n", prediction.likeliest_score,
               prediction.likeliest_action.size(), prediction.probability);
    fmt::print("game                 {}\n", game.report());
  };
}

}  // namespace mpg::cli
