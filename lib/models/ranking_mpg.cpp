#include "lib/models/ranking_mpg.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

Eigen::MatrixXd with_bias(const Eigen::MatrixXd& x) {
  Eigen::MatrixXd out(x.rows(), x.cols() + 1);
  out << x, Eigen::VectorXd::Ones(x.rows());
  return out;
}

Eigen::MatrixXd potentials_of(const Eigen::MatrixXd& augmented, const Eigen::MatrixXd& theta) {
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(augmented.rows(), theta.cols() + 1);
  psi.rightCols(theta.cols()) = augmented * theta;
  return psi;
}

}  // namespace

DcgGameSolver parse_dcg_game_solver(const std::string& name) {
  if (name == "greedy") return DcgGameSolver::greedy;
  if (name == "lp") return DcgGameSolver::lp;
  if (name == "double_oracle") return DcgGameSolver::double_oracle;
  throw Error("unknown DCG game solver '" + name + "' (expected 'greedy', 'lp' or 'double_oracle')");
}

QueryGameResult solve_query_game(const DcgGame& game, DcgGameSolver solver, const DoubleOracleOptions& options,
                                 const std::vector<std::vector<int>>& warm_predictor,
                                 const std::vector<std::vector<int>>& warm_adversary,
                                 MixedStrategy<std::vector<int>>* adversary, bool predictor_strategy) {
  QueryGameResult result;
  if (solver != DcgGameSolver::double_oracle) {
    DcgEquilibrium eq =
        solver == DcgGameSolver::lp ? solve_dcg_game(game) : solve_dcg_game_greedy(game, predictor_strategy);
    result.value = eq.value;
    result.adversary_marginals = std::move(eq.adversary_marginals);
    result.predictor = std::move(eq.predictor);
    result.gap = eq.gap;
    result.converged = eq.gap <= std::max(options.tolerance, 1e-6) * std::max(1.0, std::abs(eq.value));
    result.seconds = eq.seconds;
    return result;
  }
  const auto solution = solve_double_oracle(game, options, warm_predictor, warm_adversary);
  result.value = solution.summary.value;
  result.adversary_marginals = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(game.documents()), game.levels());
  for (std::size_t a = 0; a < solution.adversary.size(); ++a)
    for (std::size_t j = 0; j < game.documents(); ++j)
      result.adversary_marginals(static_cast<Eigen::Index>(j), solution.adversary.actions[a][j]) +=
          solution.adversary.probabilities[a];
  result.predictor = solution.predictor;
  std::swap(result.predictor.actions[0], result.predictor.actions[most_probable_index(solution.predictor)]);
  std::swap(result.predictor.probabilities[0], result.predictor.probabilities[most_probable_index(solution.predictor)]);
  result.gap = solution.summary.gap;
  result.converged = solution.summary.converged();
  result.seconds = solution.summary.seconds;
  result.iterations = solution.summary.iterations;
  if (adversary) *adversary = solution.adversary;
  return result;
}

Eigen::MatrixXd RankingMpgModel::potentials(const Eigen::MatrixXd& features) const {
  if (features.cols() + 1 != theta.rows())
    throw Error("ranking MPG model has " + std::to_string(theta.rows() - 1) + " features, the data " +
                std::to_string(features.cols()));
  return potentials_of(with_bias(features), theta);
}

RankingMpgObjective::RankingMpgObjective(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options)
    : queries_(queries), options_(options) {
  if (queries_.empty()) throw Error("ranking MPG: no training queries");
  if (options_.levels < 2) throw Error("ranking MPG: at least 2 relevance levels are needed");
  if (!(options_.lambda >= 0.0) || !std::isfinite(options_.lambda))
    throw Error("ranking MPG: lambda must be a finite number >= 0");
  features_ = queries_.front().features.cols();
  const long d1 = features_ + 1;
  gold_features_ = Eigen::VectorXd::Zero(dimension());
  for (const auto& q : queries_) {
    if (q.features.cols() != features_) throw Error("ranking MPG: queries differ in feature count");
    augmented_.push_back(with_bias(q.features));
    for (std::size_t j = 0; j < q.relevance.size(); ++j) {
      const int s = q.relevance[j];
      if (s < 0 || s >= options_.levels)
        throw Error("ranking MPG: relevance " + std::to_string(s) + " outside 0.." + std::to_string(options_.levels - 1));
      if (s > 0) gold_features_.segment((s - 1) * d1, d1) += augmented_.back().row(static_cast<Eigen::Index>(j)).transpose();
    }
  }
  gold_features_ /= static_cast<double>(queries_.size());
  warm_predictor_.resize(queries_.size());
  warm_adversary_.resize(queries_.size());
}

double RankingMpgObjective::evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
  const long d1 = features_ + 1;
  const int blocks = options_.levels - 1;
  const Eigen::Map<const Eigen::MatrixXd> weights(theta.data(), d1, blocks);
  const std::size_t Q = queries_.size();
  std::vector<double> values(Q);
  std::vector<Eigen::VectorXd> expected(Q);
  std::vector<QueryGameResult> summaries(Q);
  tbb::parallel_for(std::size_t{0}, Q, [&](std::size_t q) {
    const DcgGame game(potentials_of(augmented_[q], weights), options_.discount);
    MixedStrategy<std::vector<int>> adversary;
    QueryGameResult solution =
        solve_query_game(game, options_.solver, options_.game, warm_predictor_[q], warm_adversary_[q], &adversary,
                         /*predictor_strategy=*/false);
    if (options_.solver == DcgGameSolver::double_oracle) {
      warm_predictor_[q] = solution.predictor.actions;
      warm_adversary_[q] = adversary.actions;
    }
    values[q] = solution.value;
    // E_Q*[Phi_q(Y)]: block s sums phi(x_j) weighted by Q*(Y_j = s).
    const Eigen::MatrixXd block = augmented_[q].transpose() * solution.adversary_marginals.rightCols(blocks);  // d1 x blocks
    summaries[q] = std::move(solution);
    expected[q] = Eigen::Map<const Eigen::VectorXd>(block.data(), block.size());
  });
  gradient = -gold_features_;
  double value = -theta.dot(gold_features_);
  const double scale = 1.0 / static_cast<double>(Q);
  for (std::size_t q = 0; q < Q; ++q) {
    gradient += scale * expected[q];
    value -= scale * values[q];
    ++summary_.games;
    if (!summaries[q].converged) ++summary_.unconverged_games;
    summary_.max_gap = std::max(summary_.max_gap, summaries[q].gap);
    summary_.game_seconds += summaries[q].seconds;
  }
  gradient += options_.lambda * theta;
  return value + 0.5 * options_.lambda * theta.squaredNorm();
}

namespace {

// Stops the optimizer at the time cap: after the cap every evaluation returns the same value
// and a zero gradient, which ends liblbfgs' line search and AdaDelta's progress test.
class CappedObjective : public Objective {
 public:
  CappedObjective(RankingMpgObjective& inner, double max_seconds, bool stop_with_nan)
      : inner_(inner), max_seconds_(max_seconds), stop_with_nan_(stop_with_nan), start_(std::chrono::steady_clock::now()) {}
  double evaluate(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) override {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (max_seconds_ > 0.0 && elapsed >= max_seconds_ && have_last_) {
      capped_ = true;
      gradient = Eigen::VectorXd::Zero(theta.size());
      // A cutting-plane method would take (value, gradient) as a cut, which must stay a valid
      // lower bound: stop it with a non-finite value instead.
      if (stop_with_nan_) return std::numeric_limits<double>::quiet_NaN();
      return last_value_ + 1.0;  // never better than a point already seen: the best is returned
    }
    last_value_ = inner_.evaluate(theta, gradient);
    have_last_ = true;
    return last_value_;
  }
  bool capped() const { return capped_; }

 private:
  RankingMpgObjective& inner_;
  double max_seconds_;
  bool stop_with_nan_;
  std::chrono::steady_clock::time_point start_;
  double last_value_ = 0.0;
  bool have_last_ = false;
  bool capped_ = false;
};

}  // namespace

RankingMpgModel train_ranking_mpg(const std::vector<RankingQuery>& queries, const RankingMpgOptions& options,
                                  RankingMpgSummary* summary) {
  RankingMpgObjective objective(queries, options);
  OptimizerOptions optimizer_options = options.optimizer;
  const bool cutting_plane = optimizer_options.kind == OptimizerKind::cutting_plane;
  if (cutting_plane) optimizer_options.regularization = options.lambda;
  CappedObjective capped(objective, options.max_seconds, cutting_plane);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(objective.dimension());
  const OptimizerSummary optimizer = minimize(capped, theta, optimizer_options);
  RankingMpgModel model;
  model.levels = options.levels;
  model.discount = options.discount;
  model.theta = Eigen::Map<const Eigen::MatrixXd>(theta.data(), queries.front().features.cols() + 1, options.levels - 1);
  if (summary) {
    *summary = objective.summary();
    summary->optimizer = optimizer;
    summary->time_limit = capped.capped();
    if (capped.capped()) {
      summary->optimizer.converged = false;
      summary->optimizer.message = "time limit";
    }
  }
  return model;
}

RankingMpgPrediction predict_ranking_mpg(const RankingMpgModel& model, const Eigen::MatrixXd& features,
                                         DcgGameSolver solver, const DoubleOracleOptions& game_options) {
  const DcgGame game(model.potentials(features), model.discount);
  RankingMpgPrediction prediction;
  prediction.game = solve_query_game(game, solver, game_options);
  prediction.order = prediction.game.predictor.actions.front();
  const Eigen::MatrixXd& q = prediction.game.adversary_marginals;
  const Eigen::MatrixXd& psi = game.potentials();
  Eigen::VectorXd gain = Eigen::VectorXd::Zero(q.rows());
  for (int s = 1; s < q.cols(); ++s) gain += relevance_gain(s) * q.col(s);
  Ranking order(static_cast<std::size_t>(q.rows()));
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
  const Eigen::Index top = psi.cols() - 1;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (gain[a] != gain[b]) return gain[a] > gain[b];
    return psi(a, top) > psi(b, top);
  });
  prediction.expected_gain_order = std::move(order);
  return prediction;
}

}  // namespace mpg
