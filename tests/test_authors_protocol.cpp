// The authors' training protocols of the binary MPG (lib/models/binary/authors_protocol.hpp,
// lib/learn/protocol.hpp): the theta = 0 game's cost and value, both optimizers' stop tests on
// objectives worked by hand, the reference's game stop rule against a brute-force replay of it,
// the likeliest-action decision with ties, and bad protocol names in a spec and on the command line.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/double_oracle.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/learn/optimizer.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/models/binary/authors_protocol.hpp"
#include "tests/brute_force.hpp"
#include "tests/problems.hpp"
#include "tests/run_mpg.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg;
using namespace mpg::testing;
using Catch::Matchers::Contains;

namespace {

// f(x) = offset + slope * sum(x): a constant gradient.
struct Linear : Objective {
  double offset, slope;
  Linear(double o, double s) : offset(o), slope(s) {}
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& g) override {
    g = Eigen::VectorXd::Constant(x.size(), slope);
    return offset + slope * x.sum();
  }
};

// f(x) = (x - 3)^2 / 2 in one dimension.
struct Parabola : Objective {
  double evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& g) override {
    g = Eigen::VectorXd::Constant(1, x[0] - 3.0);
    return 0.5 * (x[0] - 3.0) * (x[0] - 3.0);
  }
};

}  // namespace

TEST_CASE("authors' protocol: the theta = 0 game at n = 5,000 is exact and fast", "[authors_protocol]") {
  // psi = 0: the F1 game's value, checked first against the full 2^n x 2^n game for small n.
  for (std::size_t n = 2; n <= 4; ++n) {
    F1Game game(std::vector<double>(n, 0.0));
    const double brute = solve_matrix_game(full_payoff_matrix(game, n)).value;
    const AuthorsGame played = solve_authors_game(game, AuthorsGameRule{});
    INFO("n = " << n);
    CHECK(played.value == Approx(brute).margin(1e-9));
    CHECK(played.value == Approx(2.0 / (static_cast<double>(n) + 3.0)).margin(1e-9));  // the singletons' mix (binary_mpg.hpp)
  }
  // n = 5,000: one evaluation of the AdaDelta objective at its start theta = 0.
  std::mt19937 rng(7);
  BinaryProblem problem = random_problem(5000, 3, rng);
  AuthorsBinaryObjective objective(problem, f1_settings(), 0.125, AuthorsGameRule{});
  Eigen::VectorXd gradient(problem.features.cols());
  const auto start = std::chrono::steady_clock::now();
  const double value = objective.evaluate(Eigen::VectorXd::Zero(problem.features.cols()), gradient);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 1.0);
  // f(0) = -v(0) = -2 / (n + 3).
  CHECK(value == Approx(-2.0 / 5003.0).margin(1e-9));
  CHECK(objective.statistics().unconverged_games == 0);
  CHECK(objective.statistics().max_gap <= 1e-9);
}

TEST_CASE("authors' AdaDelta: the reference's stop tests on objectives worked by hand", "[authors_protocol]") {
  OptimizerOptions options = authors_optimizer_options(TrainingProtocol::authors_adadelta);
  // f = 1e6 + x: constant gradient 1. Step 1: E[g^2] = 0.05, step = sqrt(eps)/sqrt(0.05 + eps)
  // = 0.0497871 / 0.2290825 = 0.2173326, then the steps grow as E[dx^2] does. The value moves by
  // < 1 per step against |f| ~ 1e6, so the value test stops at the first step it may run: the
  // reference records only the values after steps and runs the test from 6 values on, so 6 steps
  // (our own record counts the start's value too, so 5). The steps (> 0.2) never meet the step test.
  Linear shifted(1e6, 1.0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(1);
  OptimizerSummary summary = minimize(shifted, x, options);
  CHECK(summary.iterations == 6);
  CHECK_THAT(summary.message, Contains("average relative change"));
  // The last iterate, replayed from the update rule.
  double msg = 0.0, msx = 0.0, replay = 0.0, first = 0.0;
  for (int t = 0; t < 6; ++t) {
    msg = 0.95 * msg + 0.05;
    const double step = std::sqrt(msx + options.adadelta_epsilon) / std::sqrt(msg + options.adadelta_epsilon);
    if (t == 0) first = step;
    replay -= step;
    msx = 0.95 * msx + 0.05 * step * step;
  }
  CHECK(first == Approx(0.2173326).epsilon(1e-6));
  CHECK(x[0] == Approx(replay).epsilon(1e-12));
  CHECK(summary.final_value == Approx(1e6 + replay).epsilon(1e-15));
  OptimizerOptions ours = options;
  ours.adadelta_reference_tests = false;
  x.setZero();
  CHECK(minimize(shifted, x, ours).iterations == 5);

  // f = 1e-9 x: the first step is 1e-9 sqrt(eps) / sqrt(0.05e-18 + eps) = 1e-9 (to 1e-16) < 1e-6
  // max(1, |x|): the step test stops after one step, before the value test may run.
  Linear flat(0.0, 1e-9);
  x.setZero();
  summary = minimize(flat, x, options);
  CHECK(summary.iterations == 1);
  CHECK_THAT(summary.message, Contains("step norm"));
  CHECK(x[0] == Approx(-1e-9).epsilon(1e-6));
}

TEST_CASE("authors' L-BFGS: gradient test and evaluation cap on a parabola worked by hand", "[authors_protocol]") {
  // f = (x - 3)^2 / 2 from 0: g = -3, d = 3, first trial step 1 / |d| gives x = 1 (f = 2, g = -2),
  // which meets the strong Wolfe conditions (2 <= 4.5 - 1e-4 * 9 / 3; |-2 * 3| <= 0.9 * 9). Then
  // s = 1, y = 1, H = s.y / y.y = 1, d = 2, unit step: x = 3, g = 0, the gradient test holds.
  OptimizerOptions options = authors_optimizer_options(TrainingProtocol::authors_lbfgs);
  Parabola parabola;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(1);
  OptimizerSummary summary = minimize(parabola, x, options);
  CHECK(summary.converged());
  CHECK(summary.iterations == 2);
  CHECK(summary.evaluations == 3);  // 0, 1, 3
  CHECK(x[0] == Approx(3.0).epsilon(1e-12));
  // At most 2 evaluations: x = 3 is never evaluated; the best point seen, x = 1, is returned.
  options.max_evaluations = 2;
  x.setZero();
  summary = minimize(parabola, x, options);
  CHECK(summary.status == OptimizerStatus::iteration_limit);
  CHECK_THAT(summary.message, Contains("evaluation limit (2)"));
  CHECK(summary.evaluations == 2);
  CHECK(x[0] == Approx(1.0).epsilon(1e-12));
}

namespace {

// The reference's loop (§2.3) replayed on the full payoff matrix of a small game: index sets of
// rows and columns, each LP solved from scratch over them, best responses by enumeration.
struct Replay {
  DoubleOracleStatus status = DoubleOracleStatus::converged;
  int iterations = 0;
  std::size_t rows = 0, columns = 0;
  double value = 0.0;
};

Replay replay_reference(const Game<BinaryAction>& game, std::size_t n, int cap) {
  const std::vector<BinaryAction> all = all_binary_actions(n);
  const Eigen::MatrixXd full = full_payoff_matrix(game, n);
  auto index_of = [&](const BinaryAction& a) { return static_cast<std::size_t>(std::find(all.begin(), all.end(), a) - all.begin()); };
  std::vector<std::size_t> rows, columns;
  for (const auto& a : game.initial_predictor_actions()) rows.push_back(index_of(a));
  for (const auto& a : game.initial_adversary_actions()) columns.push_back(index_of(a));
  auto same = [](double a, double b) { return std::round(a / 1e-8) == std::round(b / 1e-8); };
  Replay out;
  double previous = std::nan("");
  MatrixGameSolution lp;
  auto solve = [&] {
    Eigen::MatrixXd sub(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (std::size_t c = 0; c < columns.size(); ++c) sub(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = full(static_cast<Eigen::Index>(rows[r]), static_cast<Eigen::Index>(columns[c]));
    lp = solve_matrix_game(sub, default_lp_backend());
    out.value = lp.value;
    const bool repeated = !std::isnan(previous) && same(previous, lp.value);
    previous = lp.value;
    return repeated;
  };
  for (;;) {
    ++out.iterations;
    if (solve()) { out.status = DoubleOracleStatus::value_repeated; break; }
    if (static_cast<int>(rows.size()) >= cap) { out.status = DoubleOracleStatus::action_limit; break; }
    // Adversary: the column of the full matrix with the lowest E_P payoff.
    std::size_t best_column = 0;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < all.size(); ++c) {
      double v = 0.0;
      for (std::size_t r = 0; r < rows.size(); ++r) v += lp.row_strategy[static_cast<Eigen::Index>(r)] * full(rows[r], c);
      if (v < best) { best = v; best_column = c; }
    }
    const bool add_column = !same(out.value, best) && std::find(columns.begin(), columns.end(), best_column) == columns.end();
    if (add_column) columns.push_back(best_column);
    if (solve()) { out.status = DoubleOracleStatus::value_repeated; break; }
    if (static_cast<int>(columns.size()) >= cap) { out.status = DoubleOracleStatus::action_limit; break; }
    std::size_t best_row = 0;
    best = -std::numeric_limits<double>::infinity();
    for (std::size_t r = 0; r < all.size(); ++r) {
      double v = 0.0;
      for (std::size_t c = 0; c < columns.size(); ++c) v += lp.column_strategy[static_cast<Eigen::Index>(c)] * full(r, columns[c]);
      if (v > best) { best = v; best_row = r; }
    }
    const bool add_row = !same(out.value, best) && std::find(rows.begin(), rows.end(), best_row) == rows.end();
    if (add_row) rows.push_back(best_row);
    if (!add_column && !add_row) { out.status = DoubleOracleStatus::stalled; break; }
  }
  out.rows = rows.size();
  out.columns = columns.size();
  return out;
}

}  // namespace

TEST_CASE("The reference's game stop rule against a brute-force replay", "[authors_protocol]") {
  std::mt19937 rng(2017);
  std::uniform_real_distribution<double> uniform(-0.4, 0.4);
  const std::size_t n = 4;
  int capped = 0, repeated = 0;
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<double> psi(n);
    for (double& p : psi) p = uniform(rng);
    F1Game game(psi);
    for (int cap : {3, 4, 300}) {
      INFO("trial " << trial << ", cap " << cap);
      DoubleOracleOptions options;
      options.stop_rule = DoubleOracleOptions::StopRule::value_repeat;
      options.max_actions = cap;
      options.tolerance = 1e-7;
      const auto solution = solve_double_oracle(game, options);
      const Replay replay = replay_reference(game, n, cap);
      CHECK(solution.summary.iterations == replay.iterations);
      CHECK(static_cast<std::size_t>(solution.summary.predictor_actions) == replay.rows);
      CHECK(static_cast<std::size_t>(solution.summary.adversary_actions) == replay.columns);
      CHECK(solution.summary.value == Approx(replay.value).margin(1e-9));
      // The reported gap is that of the returned strategies, by enumeration of all 2^n actions.
      const auto all = all_binary_actions(n);
      double upper = -1e9, lower = 1e9;
      for (const auto& a : all) {
        upper = std::max(upper, predictor_value_of(game, a, solution.adversary));
        lower = std::min(lower, adversary_value_of(game, a, solution.predictor));
      }
      CHECK(solution.summary.gap == Approx(upper - lower).margin(1e-9));
      // The status: certified when that gap is within the tolerance, else the replay's reason.
      if (upper - lower <= 1e-7)
        CHECK(solution.summary.status == DoubleOracleStatus::converged);
      else
        CHECK(solution.summary.status == replay.status);
      capped += replay.status == DoubleOracleStatus::action_limit;
      repeated += replay.status == DoubleOracleStatus::value_repeated;
    }
  }
  // Both stops occur among these games.
  CHECK(capped > 0);
  CHECK(repeated > 0);
}

TEST_CASE("The likeliest action, ties broken on the game, not on the order", "[authors_protocol]") {
  // Dyadic potentials: their sums are exact.
  const std::vector<double> psi = {0.25, 0.25, 0.5, 0.375, 0.375, 0.625, 0.125};
  auto pick = [&](MixedStrategy<BinaryAction> s) {
    const BinaryAction first = s.actions[likeliest_action(s, psi)];
    std::reverse(s.actions.begin(), s.actions.end());
    std::reverse(s.probabilities.begin(), s.probabilities.end());
    CHECK(s.actions[likeliest_action(s, psi)] == first);  // the support's order does not matter
    return first;
  };
  // A clear winner.
  CHECK(pick({{{0}, {2}, {3}}, {0.2, 0.5, 0.3}}) == BinaryAction{2});
  // Equal once rounded to 1e-8 (0.4 + 4e-9 and 0.4): the larger potential sum, {3, 4} (0.75) over {2} (0.5).
  CHECK(pick({{{2}, {3, 4}, {0}}, {0.4 + 4e-9, 0.4, 0.2 - 4e-9}}) == BinaryAction{3, 4});
  // Equal probability and sum (0.5): the smaller action, {2} over {0, 1}.
  CHECK(pick({{{0, 1}, {2}}, {0.5, 0.5}}) == BinaryAction{2});
  // Equal probability, sum (0.75) and size: the larger sorted potentials, (0.625, 0.125) for
  // {5, 6} over (0.5, 0.25) for {0, 2}.
  CHECK(pick({{{0, 2}, {5, 6}}, {0.5, 0.5}}) == BinaryAction{5, 6});
  // Equal potentials example for example, (0.5, 0.25) for both: the smaller index set.
  CHECK(pick({{{1, 2}, {0, 2}}, {0.5, 0.5}}) == BinaryAction{0, 2});
  CHECK_THROWS_AS(likeliest_action(MixedStrategy<BinaryAction>{}, psi), Error);
}

TEST_CASE("A bad protocol: the same message from a spec and from mpg train", "[authors_protocol]") {
  TempDir dir;
  const std::string spec = std::string(MPG_SOURCE_DIR) + "/experiments/table8_f1.json";
  const std::string data = dir.file("train.svm");
  {
    std::ofstream out(data);
    out << "1 1:0.5\n-1 1:-0.5\n";
  }
  const std::string model = dir.file("model.json");
  auto cli_error = [&](const std::string& options) {
    const auto r = run_mpg(dir, "train --lambda 0.5 --train " + quote(data) + " --model " + quote(model) + " " + options);
    CHECK(r.exit_code != 0);
    CHECK(!std::filesystem::exists(model));
    return r.err;
  };
  // An unknown name: the parameter's message, naming the allowed values.
  const std::string unknown =
      "expected one of certified, authors_lbfgs, authors_adadelta, got \"adadelta_java\"";
  CHECK_THROWS_WITH(harness::load_spec(spec, false, {"methods.MPG.protocol=\"adadelta_java\""}),
                    Contains("methods.MPG.protocol: ") && Contains(unknown));
  CHECK_THAT(cli_error("--protocol adadelta_java"), Contains(unknown));
  // A protocol with another trainer.
  const std::string conflict =
      "trainer: protocol authors_adadelta runs its own optimizer (trainer authors_adadelta); trainer must be auto, got "
      "cutting_plane";
  // (table8's MPG names trainer joint, checked first where ADULT's settings merge into it.)
  CHECK_THROWS_WITH(harness::load_spec(spec, false, {"methods.MPG.protocol=\"authors_adadelta\""}),
                    Contains("MPG: trainer: protocol authors_adadelta runs its own optimizer") && Contains("got joint"));
  const std::string spec11 = std::string(MPG_SOURCE_DIR) + "/experiments/table11_precision_at_k.json";
  CHECK_NOTHROW(harness::load_spec(spec11, false, {"methods.MPG.protocol=\"authors_adadelta\""}));
  CHECK_THROWS_WITH(harness::load_spec(spec11, true,
                                       {"methods.MPG.protocol=\"authors_adadelta\"", "methods.MPG.trainer=\"cutting_plane\""}),
                    Contains("methods.MPG: " + conflict));
  CHECK_THAT(cli_error("--protocol authors_adadelta --trainer cutting_plane"), Contains(conflict));
  // A kind that runs no protocol.
  CHECK_THROWS_WITH(harness::load_spec(spec, false, {"methods.LR.protocol=\"authors_lbfgs\""}),
                    Contains("methods.LR.protocol: method kind 'logistic_regression' runs no training protocol "
                             "(protocol certified, authors_lbfgs, authors_adadelta is a parameter of kind mpg)"));
  // The names are the protocol's, in the trainer's choices too.
  CHECK(parse_training_protocol("authors_lbfgs", "x") == TrainingProtocol::authors_lbfgs);
  CHECK_THROWS_WITH(parse_training_protocol("lbfgs", "methods.MPG"), Contains("methods.MPG: "));
}
