// mpg solve-game: one game with given potentials psi_1..psi_n.
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/solver_choice.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/limits.hpp"
#include "lib/metrics/binary_metric.hpp"

namespace mpg::cli {
namespace {

// `mpg solve-game --solver marginals` for a metric with a solver over marginals (F1): the value's
// bounds, the gap, each round's gap, the decision (the maximin action where the metric has one,
// F1: lib/metrics/f1_decision.hpp, else the likeliest action) and the likeliest action of the
// predictor strategy that guarantees the lower bound.
void solve_over_marginals(const MetricSettings& settings, const BinaryGame& game, MarginalSolverOptions options,
                          bool json) {
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  options.progress = [&rounds, print = options.progress](const MarginalSolverSummary& summary) {
    rounds.push_back({{"round", summary.rounds}, {"seconds", summary.seconds}, {"gap", summary.gap},
                      {"lower", summary.lower}, {"upper", summary.upper}, {"lp_rows", summary.lp_rows},
                      {"pricing_passes", summary.pricing_passes},
                      {"sizes_in_use", {summary.predictor_sizes, summary.adversary_sizes}},
                      {"region", {summary.region_first, summary.region_end}},
                      {"mixed_strategies", summary.mixed_strategies}, {"segments", summary.segments},
                      {"algorithm", to_string(summary.algorithm)}});
    if (print) print(summary);
  };
  const std::optional<MarginalSolution> solved = game.solve_over_marginals(options);
  if (!solved) throw Error("--solver marginals: metric " + to_string(settings.metric) + " has no solver over marginals");
  const MarginalSolution& solution = *solved;
  const auto& summary = solution.summary;
  const std::size_t n = game.size();
  auto shown = [n](const BinaryAction& action) {
    return n <= 64 ? to_bitstring(action, n) : fmt::format("{} ones", action.size());
  };
  const std::string likeliest = shown(solution.likeliest_action);
  const std::optional<MaximinDecision> maximin = maximin_decision(settings, game.potentials());
  const std::string title = binary_metric_plugin(settings.metric).title;
  if (json) {
    nlohmann::ordered_json out = {{"metric", title},
                                  {"solver", "marginals"},
                                  {"algorithm", to_string(summary.algorithm)},
                                  {"n", n},
                                  {"lower", summary.lower},
                                  {"upper", summary.upper},
                                  {"gap", summary.gap},
                                  {"rounds", summary.rounds},
                                  {"converged", summary.converged()},
                                  {"status", to_string(summary.status)},
                                  {"seconds", summary.seconds},
                                  {"lp_seconds", summary.lp_seconds},
                                  {"decision", maximin ? shown(maximin->action) : likeliest},
                                  {"decision_guarantee", maximin ? nlohmann::ordered_json(maximin->guarantee)
                                                                 : nlohmann::ordered_json(nullptr)},
                                  {"likeliest_action", likeliest},
                                  {"likeliest_probability", solution.likeliest_probability},
                                  {"history", rounds}};
    fmt::print("{}\n", out.dump(2));
    return;
  }
  const std::string decision =
      maximin ? fmt::format("{} (maximin: guarantees {:.12g})", shown(maximin->action), maximin->guarantee)
              : likeliest + " (the likeliest action)";
  fmt::print("metric      {} (solver over marginals)\nn           {}\nvalue in    [{:.12g}, {:.12g}]\ngap         {:.3g}\n"
             "rounds      {}\nstatus      {}\ntime        {:.3f} s ({:.3f} s in the restricted games)\n"
             "decision    {}\nlikeliest   {} (probability up to {:.6f})\n",
             title, n, summary.lower, summary.upper, summary.gap, summary.rounds, to_string(summary.status), summary.seconds,
             summary.lp_seconds, decision, likeliest, solution.likeliest_probability);
}

}  // namespace

Action add_solve_game(CLI::App& app) {
  struct Settings {
    std::string metric = "f1";
    std::string potentials;
    std::string potentials_file;
    long k = 0;
    bool k_given = false;
    std::string adversary = "unrestricted";
    bool json = false;
    DoubleOracleOptions game;
    SolverChoice choice;
  };
  auto s = std::make_shared<Settings>();
  auto* command = app.add_subcommand(
      "solve-game",
      "Solve one game by double oracle for given potentials psi_i = theta . x_i; prints the "
      "value, the equilibrium gap, the iterations and both players' supports");
  command->add_option("--metric", s->metric, "f1 or precision_at_k")
      ->capture_default_str()
      ->check(CLI::IsMember(binary_metric_names()));
  auto* inline_potentials = command->add_option(
      "--potentials", s->potentials,
      "Comma-separated psi_1,...,psi_n, each |psi_i| <= 1e9 (use --potentials=-0.2,... for a leading minus)");
  auto* file_potentials = command->add_option(
      "--potentials-file", s->potentials_file,
      "File with psi_1,...,psi_n separated by commas or white space (for large n)");
  inline_potentials->excludes(file_potentials);
  file_potentials->excludes(inline_potentials);
  command
      ->add_option_function<long>(
          "--k",
          [s](long k) {
            s->k = k;
            s->k_given = true;
          },
          "k of precision@k (1 <= k <= n); an error with another metric")
      ->type_name("INT");
  command->add_option("--adversary", s->adversary,
                      "precision@k adversary: unrestricted (thesis, reference code) or "
                      "exactly_k (NIPS experiments)")
      ->capture_default_str()
      ->check(CLI::IsMember({"unrestricted", "exactly_k"}));
  command->add_flag("--json", s->json, "Print JSON: value, its bounds lower and upper, gap, iterations, predictor, adversary");
  add_game_options(*command, s->game);
  add_game_progress(*command, s->game);
  add_solver_choice(*command, s->choice);

  return [s] {
    if (s->potentials.empty() && s->potentials_file.empty())
      throw Error("give the potentials with --potentials or --potentials-file");
    std::vector<double> psi;
    if (!s->potentials_file.empty()) {
      psi = read_number_file(s->potentials_file);
    } else {
      psi = parse_number_list(s->potentials, "--potentials");
    }
    const std::size_t n = psi.size();
    // Validated before any work, each message naming the value.
    for (std::size_t i = 0; i < n; ++i) require_potential_in_range(i, psi[i]);
    MetricSettings settings;
    settings.metric = parse_binary_metric(s->metric);
    const BinaryMetricPlugin& metric = binary_metric_plugin(settings.metric);
    if (metric.has_k) {
      if (!s->k_given) throw Error("--metric " + s->metric + " needs --k (1 <= k <= n)");
      if (s->k < 1 || static_cast<std::size_t>(s->k) > n)
        throw Error(fmt::format("--k must lie in 1..n = 1..{} for these {} potentials, got {}", n, n, s->k));
      settings.k = static_cast<std::size_t>(s->k);
      settings.restriction = parse_adversary_restriction(s->adversary);
    } else if (s->k_given) {
      throw Error("--k is a parameter of --metric precision_at_k; " + s->metric + " has none");
    }
    const bool over_marginals = s->choice.over_marginals(metric.marginal_solver, n);
    if (over_marginals && !metric.marginal_solver)
      throw Error("--solver marginals solves F1 games only (--metric f1); " + s->metric + " has no solver over marginals");
    // All the metric's parameters are given (--k), so no labels are needed: n unlabelled examples.
    const std::unique_ptr<BinaryGame> game = make_binary_game(settings, std::move(psi), std::vector<int>(n, 0));
    if (over_marginals) {
      solve_over_marginals(settings, *game, s->choice.marginal_options(s->game), s->json);
      return;
    }
    const auto solution = solve_double_oracle(*game, s->game);
    const auto& summary = solution.summary;
    auto strategy_json = [n](const MixedStrategy<BinaryAction>& strategy) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (std::size_t j = 0; j < strategy.size(); ++j)
        list.push_back({{"action", to_bitstring(strategy.actions[j], n)},
                        {"prob", strategy.probabilities[j]}});
      return list;
    };
    if (s->json) {
      nlohmann::ordered_json out = {{"metric", game->metric_name()},
                            {"n", n},
                            {"value", summary.value},
                            {"lower", summary.adversary_response_value},
                            {"upper", summary.predictor_response_value},
                            {"gap", summary.gap},
                            {"iterations", summary.iterations},
                            {"converged", summary.converged()},
                            {"status", to_string(summary.status)},
                            {"seconds", summary.seconds},
                            {"lp_seconds", summary.lp_seconds},
                            {"best_response_seconds", summary.best_response_seconds},
                            {"generated_actions", {summary.predictor_actions, summary.adversary_actions}},
                            {"pruned_actions", summary.pruned_actions},
                            {"predictor", strategy_json(solution.predictor)},
                            {"adversary", strategy_json(solution.adversary)}};
      fmt::print("{}\n", out.dump(2));
      return;
    }
    fmt::print("metric      {}\nn           {}\nvalue       {:.12g}\ngap         {:.3g}\n"
               "iterations  {}\nstatus      {}\n"
               "time        {:.3f} s ({:.3f} s LP, {:.3f} s best responses)\n"
               "generated   {} predictor + {} adversary actions ({} pruned)\n",
               game->metric_name(), n, summary.value, summary.gap, summary.iterations,
               to_string(summary.status), summary.seconds, summary.lp_seconds,
               summary.best_response_seconds, summary.predictor_actions, summary.adversary_actions,
               summary.pruned_actions);
    auto print_strategy = [n](const char* who, const MixedStrategy<BinaryAction>& strategy) {
      fmt::print("{} support ({} actions):\n", who, strategy.size());
      for (std::size_t j = 0; j < strategy.size(); ++j)
        fmt::print("  {}  {:.10f}\n", n <= 64 ? to_bitstring(strategy.actions[j], n)
                                              : fmt::format("{} ones", strategy.actions[j].size()),
                   strategy.probabilities[j]);
    };
    print_strategy("predictor", solution.predictor);
    print_strategy("adversary", solution.adversary);
  };
}

}  // namespace mpg::cli
