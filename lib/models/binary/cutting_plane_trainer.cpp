#include "lib/models/binary/cutting_plane_trainer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/base/run_limits.hpp"
#include "lib/game/restricted_game.hpp"
#include "lib/learn/cut_model.hpp"

namespace mpg {
std::string to_string(CuttingPlaneStatus status) {
  switch (status) {
    case CuttingPlaneStatus::converged: return "converged";
    case CuttingPlaneStatus::no_progress: return "not converged: no progress";
    case CuttingPlaneStatus::iteration_limit: return "not converged: iteration limit";
    case CuttingPlaneStatus::time_limit: return "not converged: time limit";
    case CuttingPlaneStatus::solve_limit: return "not converged: restricted-game solve limit";
    case CuttingPlaneStatus::lp_failure: return "not converged: LP solver failure";
  }
  return "unknown";
}

nlohmann::json certified_run_json(bool converged, const std::string& status, int iterations, double objective,
                                  double lower_bound, double gap) {
  return {{"converged", converged}, {"status", status},         {"iterations", iterations},
          {"objective", objective}, {"lower_bound", lower_bound}, {"gap", gap}};
}

nlohmann::json CuttingPlaneSummary::to_json() const {
  nlohmann::json out = certified_run_json(converged(), message, iterations, objective, lower_bound, gap);
  out.update({{"game_gap", game_gap},
              {"cuts", cuts},
              {"serious_steps", serious_steps},
              {"game_solves", game_iterations},
              {"predictor_actions", predictor_actions},
              {"adversary_actions", adversary_actions},
              {"seconds", seconds},
              {"lp_seconds", lp_seconds},
              {"best_response_seconds", best_response_seconds},
              {"master_seconds", master_seconds}});
  return out;
}

std::string CuttingPlaneSummary::report() const {
  return fmt::format(
      "{} after {} iterations: objective {:.10g} (certified gap {:.2e}), {} cuts, {} serious steps, {} "
      "restricted-game solves, restricted game {}x{}; {:.2f} s ({:.2f} s LP, {:.2f} s best responses, {:.2f} s master)",
      message, iterations, objective, gap, cuts, serious_steps, game_iterations, predictor_actions, adversary_actions,
      seconds, lp_seconds, best_response_seconds, master_seconds);
}

bool CertifiedRunStop::stops(int iteration, double gap, double seconds, long game_solves, CuttingPlaneStatus& status,
                             std::string& message) {
  if (gap <= caps_.tolerance) {
    status = CuttingPlaneStatus::converged;
    message = "converged";
    return true;
  }
  if (gap < best_gap_ * (1.0 - 1e-3)) {
    best_gap_ = gap;
    last_progress_ = iteration;
  }
  if (iteration - last_progress_ >= caps_.stall_iterations) {
    status = CuttingPlaneStatus::no_progress;
    message = "not converged: no progress in " + std::to_string(caps_.stall_iterations) +
              " iterations (game accuracy limits the cuts)";
    return true;
  }
  if (auto limit = limit_reached(iteration, caps_.max_iterations, seconds, caps_.max_seconds)) {
    status = *limit == RunLimit::iterations ? CuttingPlaneStatus::iteration_limit : CuttingPlaneStatus::time_limit;
    message = to_string(*limit);
    return true;
  }
  if (caps_.max_game_solves > 0 && game_solves >= caps_.max_game_solves) {
    status = CuttingPlaneStatus::solve_limit;
    message = "not converged: restricted-game solve limit (" + std::to_string(caps_.max_game_solves) + ")";
    return true;
  }
  return false;
}

BinaryModel train_binary_mpg_cutting_plane(const BinaryProblem& problem,
                                           const MetricSettings& settings,
                                           const CuttingPlaneOptions& options,
                                           CuttingPlaneSummary* summary_out) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto seconds_since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  const double lambda = options.lambda;
  require_certified_lambda("the cutting-plane trainer", lambda);
  const SparseRowMatrix& x = problem.features;
  const BinaryAction gold = positives_of(problem.labels);
  const Eigen::VectorXd gold_features = features_of(x, gold);

  // Restricted game: the metric's seed actions and the gold labelling (when legal); each column
  // carries its Phi(x, column), for the offsets theta . Phi and for E_Q[Phi].
  const auto scorer = make_binary_game(settings, std::vector<double>(problem.labels.size(), 0.0),
                                       problem.labels);
  std::vector<BinaryAction> seed_rows;
  std::vector<BinaryAction> seed_columns;
  auto add_unique = [](std::vector<BinaryAction>& actions, const BinaryAction& action) {
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) actions.push_back(action);
  };
  for (const auto& a : scorer->initial_predictor_actions()) add_unique(seed_rows, a);
  if (scorer->is_legal_predictor_action(gold)) add_unique(seed_rows, gold);
  for (const auto& a : scorer->initial_adversary_actions()) add_unique(seed_columns, a);
  if (scorer->is_legal_adversary_action(gold)) add_unique(seed_columns, gold);
  std::vector<Eigen::VectorXd> seed_features;
  for (const auto& a : seed_columns) seed_features.push_back(features_of(x, a));
  const Eigen::VectorXd zero_offsets = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(seed_columns.size()));
  // Pruning as in the double oracle: the restricted game stays near the support size.
  RestrictedGame<BinaryAction, Eigen::VectorXd> restricted(
      *scorer, std::move(seed_rows), std::move(seed_columns), zero_offsets,
      {options.prune_after, options.extra_responses, options.smoothing, options.lp_backend}, std::move(seed_features));

  // The cuts and the proximal bundle stabilization around a center (lib/learn/cut_model.hpp).
  ProximalBundle bundle(gold_features, lambda);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(x.cols());
  Eigen::VectorXd best_theta = theta;
  CuttingPlaneSummary summary;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.lower_bound = -std::numeric_limits<double>::infinity();
  const double threshold = 1e-12;
  CertifiedRunStop stop({options.tolerance, options.stall_iterations, options.max_iterations, options.max_seconds,
                         options.max_game_solves});
  for (;;) {
    ++summary.iterations;
    // 1.-2. The game at theta by double oracle over the restricted game, to an equilibrium gap
    // small against the decrease the model predicted for this step (inexact oracle; every cut
    // and bound stays valid, only their tightness depends on the gap).
    const double game_tolerance = std::max(0.1 * options.tolerance, 0.1 * bundle.predicted_decrease());
    const Eigen::VectorXd psi = x * theta;
    const auto game = make_binary_game(settings, to_std_vector(psi), problem.labels);
    const auto& column_features = restricted.column_data();
    Eigen::VectorXd offsets(static_cast<Eigen::Index>(column_features.size()));
    for (std::size_t j = 0; j < column_features.size(); ++j)
      offsets[static_cast<Eigen::Index>(j)] = theta.dot(column_features[j]);
    restricted.set_offsets(offsets);
    double upper = 0.0;
    double game_gap = 0.0;
    Eigen::VectorXd expected_features;  // E_Q[Phi]
    double cut_offset = 0.0;
    restricted.new_game();
    if (const auto exact = game->exact_equilibrium(options.tolerance)) {
      // The metric's exact equilibrium (e.g. P@k's closed form): one solve, no restricted game.
      ++summary.game_iterations;
      const auto& q = exact->adversary;
      expected_features = q.probabilities[0] * features_of(x, q.actions[0]);
      for (std::size_t j = 1; j < q.size(); ++j) expected_features += q.probabilities[j] * features_of(x, q.actions[j]);
      cut_offset = exact->summary.predictor_response_value + theta.dot(expected_features);
      upper = 0.5 * lambda * theta.squaredNorm() - theta.dot(gold_features) - exact->summary.adversary_response_value;
      game_gap = exact->summary.gap;
      if (upper < summary.objective) {
        summary.objective = upper;
        summary.game_gap = game_gap;
        best_theta = theta;
      }
    } else {
      // A new column's offset theta . Phi and its Phi.
      auto column_of = [&](const BinaryAction& action) {
        Eigen::VectorXd phi = features_of(x, action);
        const double offset = theta.dot(phi);
        return std::pair{offset, std::move(phi)};
      };
      for (;;) {
        ++summary.game_iterations;
        const MatrixGameSolution& equilibrium = restricted.solve();
        expected_features = Eigen::VectorXd::Zero(x.cols());
        for (std::size_t j = 0; j < column_features.size(); ++j)
          expected_features += equilibrium.column_strategy[static_cast<Eigen::Index>(j)] * column_features[j];
        Responses<BinaryAction> responses = restricted.respond(*game);
        const double predictor_value = responses.predictor.front().value;  // includes -theta . E_Q[Phi]
        const double adversary_value = responses.adversary.front().value;  // includes -psi(y)
        upper = 0.5 * lambda * theta.squaredNorm() - theta.dot(gold_features) - adversary_value;
        game_gap = predictor_value - adversary_value;
        // The cut phi(theta') >= theta' . E_Q[Phi] - max_y_hat E_Q[score], valid for all theta'.
        cut_offset = predictor_value + theta.dot(expected_features);
        if (upper < summary.objective) {
          summary.objective = upper;
          summary.game_gap = game_gap;
          best_theta = theta;
        }
        bool added = false;
        // With on_demand_accuracy (de Oliveira & Sagastizabal 2014) the game at theta is also
        // accurate enough once the bracket [upper - game_gap, upper] of F(theta) excludes the
        // serious-step target: the step's outcome is then decided, a serious step (upper below
        // the target) or a null step whose cut lifts the model at theta above the target.
        const double target = bundle.serious_target();
        const bool decided = std::isfinite(target) && (upper <= target || upper - game_gap >= target);
        const bool finished = game_gap <= game_tolerance || (options.on_demand_accuracy && decided);
        if (options.game_progress)
          options.game_progress(summary.iterations, summary.game_iterations, game_gap, game_tolerance);
        if (!finished) {
          // Actions idle for a while leave the restricted game (it only caches actions: every cut
          // and bound is computed from best responses over all actions); profitable responses join.
          restricted.prune();
          added = restricted.add_rows(responses.predictor, equilibrium.value + threshold) > 0;
          added = restricted.add_columns(responses.adversary, equilibrium.value - threshold, 0, column_of) > 0 || added;
        }
        if (finished || !added) break;
        if (options.max_seconds > 0.0 && seconds_since(start) >= options.max_seconds) break;
        if (options.max_game_solves > 0 && summary.game_iterations >= options.max_game_solves) break;
      }
    }
    // 3. The cut at theta, the serious or null step, and the master: next theta and a lower bound.
    auto t = clock::now();
    theta = bundle.step(theta, expected_features, cut_offset, upper, game_gap, summary.lower_bound,
                        options.cut_idle_limit);
    summary.master_seconds += seconds_since(t);
    summary.serious_steps = bundle.serious_steps();
    summary.gap = summary.objective - summary.lower_bound;
    if (options.progress)
      options.progress(summary.iterations, summary.objective, summary.lower_bound,
                       static_cast<int>(restricted.rows().size()), static_cast<int>(restricted.columns().size()));
    if (stop.stops(summary.iterations, summary.gap, seconds_since(start), summary.game_iterations, summary.status,
                   summary.message))
      break;
  }
  summary.cuts = bundle.cuts();
  summary.predictor_actions = static_cast<int>(restricted.rows().size());
  summary.adversary_actions = static_cast<int>(restricted.columns().size());
  summary.lp_seconds = restricted.lp_seconds();
  summary.best_response_seconds = restricted.best_response_seconds();
  summary.seconds = seconds_since(start);
  if (summary_out) *summary_out = summary;

  return BinaryModel::trained(settings, lambda, best_theta);
}

}  // namespace mpg
