#include "lib/models/binary/marginal_trainer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/learn/cut_model.hpp"
#include "lib/metrics/f1_segment_solver.hpp"

namespace mpg {

namespace {

// The game by the double oracle over pure actions, capped at `iterations`: whether it certified
// `tolerance`, its adversary strategy's marginals E_Q[y_i] and its bounds [lower, upper] on the
// game value (the guarantee of its predictor strategy, the value its adversary strategy concedes).
struct PureSolution {
  bool certified = false;
  Eigen::VectorXd adversary_marginals;
  double lower = 0.0;
  double upper = 0.0;
  int iterations = 0;
  double seconds = 0.0;
};
PureSolution solve_by_pure_actions(const BinaryGame& game, double tolerance, int iterations) {
  DoubleOracleOptions options;
  options.tolerance = tolerance;
  options.max_iterations = iterations;
  const GameSolution<BinaryAction> solved = solve_double_oracle(game, options);
  return {solved.summary.converged(), binary_marginals(solved.adversary, game.size()),
          solved.summary.adversary_response_value, solved.summary.predictor_response_value, solved.summary.iterations,
          solved.summary.seconds};
}

}  // namespace

nlohmann::json MarginalTrainSummary::to_json() const {
  nlohmann::json out = certified_run_json(converged(), message, iterations, objective, lower_bound, gap);
  out.update({{"game_gap", game_gap},
              {"cuts", cuts},
              {"serious_steps", serious_steps},
              {"game_solves", game_rounds},
              {"games_by_pure_actions", pure_games},
              {"unconverged_games", unconverged_games},
              {"seconds", seconds},
              {"game_seconds", game_seconds},
              {"master_seconds", master_seconds}});
  return out;
}

std::string MarginalTrainSummary::report() const {
  return fmt::format(
      "{} after {} iterations: objective {:.10g} (certified gap {:.2e}), {} cuts, {} serious steps, {} games ({} by "
      "the double oracle over pure actions; {} restricted LP solves, {} not converged); {:.2f} s ({:.2f} s games, "
      "{:.2f} s master)",
      message, iterations, objective, gap, cuts, serious_steps, iterations, pure_games, game_rounds, unconverged_games,
      seconds, game_seconds, master_seconds);
}

BinaryModel train_binary_mpg_over_marginals(const BinaryProblem& problem, const MetricSettings& settings,
                                            const MarginalTrainOptions& options, MarginalTrainSummary* summary_out) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  const double lambda = options.lambda;
  require_certified_lambda("the trainer over marginals", lambda);
  if (!(options.tolerance > 0.0)) throw Error("the trainer over marginals needs a tolerance > 0");
  if (!has_marginal_solver(settings))
    throw Error("the trainer over marginals needs a metric whose game is solved over marginals (F1); got " +
                to_string(settings.metric));
  const SparseRowMatrix& x = problem.features;
  const Eigen::VectorXd gold_features = features_of(x, positives_of(problem.labels));

  ProximalBundle bundle(gold_features, lambda);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(x.cols());
  Eigen::VectorXd best_theta = theta;
  SegmentWarmStart warm;
  MarginalTrainSummary summary;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.lower_bound = -std::numeric_limits<double>::infinity();
  CertifiedRunStop stop({options.tolerance, options.stall_iterations, options.max_iterations, options.max_seconds,
                         options.max_game_solves});
  for (;;) {
    ++summary.iterations;
    // The game at theta, to a gap small against the decrease the model predicted for this step.
    MarginalSolverOptions game_options = options.game;
    game_options.tolerance = std::max(0.1 * options.tolerance, 0.1 * bundle.predicted_decrease());
    if (options.max_seconds > 0.0) game_options.max_seconds = std::max(options.max_seconds - seconds_since(start), 1e-3);
    if (options.max_game_solves > 0)
      game_options.max_rounds = static_cast<int>(std::max(1L, options.max_game_solves - summary.game_rounds));
    const Eigen::VectorXd psi = x * theta;
    const auto game = make_binary_game(settings, to_std_vector(psi), problem.labels);
    // The warm start keeps the previous game's action sizes, not its segment boundaries: those are
    // ranks in the previous theta's order, and carried along the path they accumulate (on
    // syn1000 the LPs grew until one game took 25 s instead of 1 s).
    warm.cuts.clear();
    std::optional<MarginalSolution> solved;
    // The double oracle first, within what is left of max_game_solves; its strategy is kept when it
    // certified, or when it used up that cap (an uncertified adversary strategy still gives a valid cut).
    PureSolution pure;
    bool keep_pure = false;
    if (options.double_oracle_iterations > 0) {
      const long left = options.max_game_solves > 0 ? options.max_game_solves - summary.game_rounds : 0;
      const int cap = left > 0 ? static_cast<int>(std::min<long>(options.double_oracle_iterations, left))
                               : options.double_oracle_iterations;
      pure = solve_by_pure_actions(*game, game_options.tolerance, cap);
      summary.game_seconds += pure.seconds;
      summary.game_rounds += pure.iterations;
      keep_pure = pure.certified || (options.max_game_solves > 0 && summary.game_rounds >= options.max_game_solves);
    }
    if (keep_pure) {
      solved.emplace();
      solved->adversary_marginals = pure.adversary_marginals;
      solved->summary.status = pure.certified ? MarginalSolverStatus::converged : MarginalSolverStatus::round_limit;
      solved->summary.lower = pure.lower;
      solved->summary.upper = pure.upper;
      solved->summary.gap = pure.upper - pure.lower;
      ++summary.pure_games;
    }
    summary.last_game_by_pure_actions = keep_pure;
    if (!keep_pure) {
      solved = game->solve_over_marginals(game_options, options.warm_start ? &warm : nullptr);
    }
    if (!solved) throw Error("the trainer over marginals: the game has no solver over marginals");
    const MarginalSolution& solution = *solved;
    const MarginalSolverSummary& game_summary = solution.summary;
    summary.game_seconds += game_summary.seconds;
    summary.game_rounds += game_summary.rounds;
    if (!game_summary.converged()) ++summary.unconverged_games;
    if (solution.adversary_marginals.size() != x.rows() || !std::isfinite(game_summary.upper) ||
        !std::isfinite(game_summary.lower))
      throw Error("the trainer over marginals: the game's solver returned no adversary strategy with its bounds (" +
                  game_summary.report() + ")");
    // The cut phi(theta') >= theta' . E_Q[Phi] - c with c = upper + theta . E_Q[Phi]: valid for all
    // theta' because `upper` is the value Q concedes (header comment; thesis Eq. 3.9/3.10).
    const Eigen::VectorXd expected_features = x.transpose() * solution.adversary_marginals;  // E_Q[Phi]
    const double cut_offset = game_summary.upper + theta.dot(expected_features);
    // F(theta) <= this, because the predictor strategy guarantees `lower` <= v(theta).
    const double upper = 0.5 * lambda * theta.squaredNorm() - theta.dot(gold_features) - game_summary.lower;
    const double game_gap = game_summary.upper - game_summary.lower;
    if (upper < summary.objective) {
      summary.objective = upper;
      summary.game_gap = game_gap;
      best_theta = theta;
    }
    // The cut, the serious or null step, and the master: next theta and a lower bound on min F.
    const auto t = clock::now();
    theta = bundle.step(theta, expected_features, cut_offset, upper, game_gap, summary.lower_bound,
                        options.cut_idle_limit);
    summary.master_seconds += seconds_since(t);
    summary.serious_steps = bundle.serious_steps();
    summary.gap = summary.objective - summary.lower_bound;
    if (options.progress) options.progress(summary, game_summary);
    if (stop.stops(summary.iterations, summary.gap, seconds_since(start), summary.game_rounds, summary.status,
                   summary.message))
      break;
  }
  summary.cuts = bundle.cuts();
  summary.seconds = seconds_since(start);
  if (summary_out) *summary_out = summary;
  return BinaryModel::trained(settings, lambda, best_theta);
}

}  // namespace mpg
