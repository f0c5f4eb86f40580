// Double oracle (thesis Alg. 1): its value equals the LP value of the full 2^n x 2^n game, the
// reported gap brackets it, caps are reported as "not converged", and warm starts agree.
#include <catch2/catch.hpp>

#include <cmath>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

void check_against_full_game(const Game<BinaryAction>& game, std::size_t n) {
  const auto solution = solve_double_oracle(game);
  const auto& s = solution.summary;
  const double full_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
  CHECK(s.converged());
  CHECK(s.gap <= 1e-9);
  CHECK(s.value == Approx(full_value).margin(1e-9));
  // The best-response values bracket the game value.
  CHECK(s.adversary_response_value <= full_value + 1e-9);
  CHECK(s.predictor_response_value >= full_value - 1e-9);
  // The returned strategies really are equilibrium strategies of the full game.
  CHECK(brute_force_predictor_value(game, n, solution.adversary) ==
        Approx(full_value).margin(1e-9));
  CHECK(brute_force_adversary_value(game, n, solution.predictor) ==
        Approx(full_value).margin(1e-9));
  CHECK(s.predictor_support >= 1);
  CHECK(s.adversary_support >= 1);
  CHECK(s.predictor_support <= s.predictor_actions);
  CHECK(s.adversary_support <= s.adversary_actions);
}

}  // namespace

TEST_CASE("F1 double oracle equals the full-matrix LP for random potentials", "[double_oracle]") {
  std::mt19937 rng(2026);
  for (std::size_t n = 1; n <= 7; ++n) {
    for (int trial = 0; trial < 6; ++trial) {
      INFO("n = " << n << " trial " << trial);
      check_against_full_game(F1Game(random_potentials(n, rng)), n);
    }
  }
}

TEST_CASE("P@k double oracle equals the full-matrix LP in both adversary modes",
          "[double_oracle]") {
  std::mt19937 rng(99);
  for (auto restriction : {AdversaryRestriction::unrestricted, AdversaryRestriction::exactly_k}) {
    for (std::size_t n = 1; n <= 7; ++n) {
      for (int trial = 0; trial < 4; ++trial) {
        const std::size_t k = 1 + static_cast<std::size_t>(trial) % n;
        INFO(to_string(restriction) << " n = " << n << " k = " << k);
        check_against_full_game(PrecisionAtKGame(random_potentials(n, rng), k, restriction), n);
      }
    }
  }
}

TEST_CASE("F1 double oracle on n = 10 matches the 1024 x 1024 full game", "[double_oracle]") {
  std::mt19937 rng(10);
  check_against_full_game(F1Game(random_potentials(10, rng)), 10);
}

TEST_CASE("An iteration cap is reported as not converged with its gap", "[double_oracle]") {
  std::mt19937 rng(5);
  F1Game game(random_potentials(40, rng));
  DoubleOracleOptions options;
  options.max_iterations = 1;
  const auto capped = solve_double_oracle(game, options);
  CHECK(capped.summary.status == DoubleOracleStatus::iteration_limit);
  CHECK_FALSE(capped.summary.converged());
  CHECK(capped.summary.gap > options.tolerance);
  CHECK(capped.summary.iterations == 1);

  options.max_iterations = 0;
  options.max_actions = 3;
  const auto action_capped = solve_double_oracle(game, options);
  CHECK(action_capped.summary.status == DoubleOracleStatus::action_limit);
  CHECK(action_capped.summary.gap > options.tolerance);
}

TEST_CASE("The progress callback sees every iteration and the final gap", "[double_oracle]") {
  std::mt19937 rng(5);
  F1Game game(random_potentials(40, rng));
  DoubleOracleOptions options;
  std::vector<DoubleOracleSummary> seen;
  options.progress = [&seen](const DoubleOracleSummary& summary) { seen.push_back(summary); };
  const auto solution = solve_double_oracle(game, options);
  REQUIRE(solution.summary.converged());
  REQUIRE(seen.size() == static_cast<std::size_t>(solution.summary.iterations));
  for (std::size_t i = 0; i < seen.size(); ++i) {
    CHECK(seen[i].iterations == static_cast<int>(i) + 1);
    CHECK(seen[i].predictor_support >= 1);
    CHECK(seen[i].adversary_support >= 1);
    if (i > 0) CHECK(seen[i].seconds >= seen[i - 1].seconds);
  }
  CHECK(seen.back().gap == solution.summary.gap);
  CHECK(seen.front().gap > options.tolerance);
}

TEST_CASE("Warm-started double oracle reaches the same value", "[double_oracle]") {
  std::mt19937 rng(12);
  F1Game game(random_potentials(200, rng));
  const auto cold = solve_double_oracle(game);
  const auto warm =
      solve_double_oracle(game, {}, cold.predictor.actions, cold.adversary.actions);
  CHECK(cold.summary.converged());
  CHECK(warm.summary.converged());
  CHECK(warm.summary.value == Approx(cold.summary.value).margin(1e-9));
  CHECK(warm.summary.iterations <= cold.summary.iterations);
}

TEST_CASE("Pruning cannot make the double oracle cycle", "[double_oracle]") {
  // A P@12 game (n = 40, potentials from a training run) on which dropping idle actions after a
  // fixed 3 solves made the same actions leave and return for ever (gap 0.77 at 10,000
  // iterations). With the patience doubling on every return it converges.
  const std::vector<double> psi = {
      0.022976074740136, -0.051327488075755053, 0.013376341312299148, 0.050677311694173853,
      -0.027108164846119567, 0.011603422493841206, 0.024619362942110215, -0.019895937782868724,
      0.034961981022690013, -0.015726005856745572, 0.038692749780289512, 0.057663109427604928,
      0.035109873308584415, 0.028072450983254234, -0.044873723048679592, -0.05592037248741645,
      0.0027476013719818348, 0.034130484602293253, 0.060639047045298808, 0.02709317945555547,
      0.035967435615258211, -0.048792145705057945, -0.051770704270969199, 0.05379008757341186,
      0.062533453165564579, -0.032636042521228974, 0.074027545540456749, 0.029139775016223592,
      -0.059041588305073563, 0.042545509381088149, 0.041846266288201588, 0.0486429062995146,
      -0.041984649776879143, -0.035558403096941277, 0.030815683747944501, 0.0053097617576781039,
      -0.028007917422515967, 0.026241647375081938, -0.033471257781420002, -0.050712761633963897};
  PrecisionAtKGame game(psi, 12);
  DoubleOracleOptions options;
  options.max_iterations = 2000;
  const auto solution = solve_double_oracle(game, options);
  CHECK(solution.summary.converged());
  CHECK(solution.summary.gap <= 1e-9);
  options.prune_after = 0;
  const auto unpruned = solve_double_oracle(game, options);
  CHECK(solution.summary.value == Approx(unpruned.summary.value).margin(1e-9));
}

TEST_CASE("Smoothed adversary responses keep the value and save iterations", "[double_oracle]") {
  // Small potentials, the regime of F1 games at learned theta: the restricted strategies jump
  // between near-tied actions, and responses to the averaged predictor strategy settle them.
  std::mt19937 rng(2027);
  std::normal_distribution<double> normal(0.0, 0.02);
  std::vector<double> psi(400);
  for (auto& v : psi) v = normal(rng);
  F1Game game(psi);
  DoubleOracleOptions options;
  options.smoothing = 0.0;
  const auto plain = solve_double_oracle(game, options);
  options.smoothing = 0.9;
  const auto smoothed = solve_double_oracle(game, options);
  REQUIRE(plain.summary.converged());
  REQUIRE(smoothed.summary.converged());
  CHECK(smoothed.summary.gap <= 1e-9);
  CHECK(smoothed.summary.value == Approx(plain.summary.value).margin(1e-9));
  // The bracket of each run contains the other's value.
  CHECK(smoothed.summary.adversary_response_value <= plain.summary.value + 1e-9);
  CHECK(smoothed.summary.predictor_response_value >= plain.summary.value - 1e-9);
  INFO("iterations: plain " << plain.summary.iterations << ", smoothed "
                            << smoothed.summary.iterations);
  CHECK(smoothed.summary.iterations < plain.summary.iterations);
}

TEST_CASE("Smoothing keeps the double oracle exact on small games", "[double_oracle]") {
  std::mt19937 rng(31);
  DoubleOracleOptions options;
  options.smoothing = 0.9;
  for (std::size_t n = 2; n <= 7; ++n) {
    INFO("n = " << n);
    std::vector<double> psi = random_potentials(n, rng);
    for (auto& v : psi) v *= 0.05;  // small potentials: mixed equilibria
    F1Game game(psi);
    const auto solution = solve_double_oracle(game, options);
    const double full_value = solve_matrix_game(full_payoff_matrix(game, n)).value;
    CHECK(solution.summary.converged());
    CHECK(solution.summary.value == Approx(full_value).margin(1e-9));
  }
}

TEST_CASE("A capped run returns the strategies whose guarantees it reports", "[double_oracle]") {
  // The returned P and Q are the best-guaranteeing strategies seen (possibly an average of
  // restricted strategies); brute force over all 2^n actions confirms both reported bounds.
  // The runs with larger caps follow the same path further, so their gap cannot be larger.
  std::mt19937 rng(77);
  std::vector<double> psi = random_potentials(10, rng);
  for (auto& v : psi) v *= 0.05;
  const F1Game game(psi);
  for (double smoothing : {0.0, 0.9}) {
    double previous_gap = std::numeric_limits<double>::infinity();
    for (int cap : {2, 4, 8, 16}) {
      INFO("smoothing " << smoothing << ", cap " << cap);
      DoubleOracleOptions options;
      options.smoothing = smoothing;
      options.max_iterations = cap;
      const auto solution = solve_double_oracle(game, options);
      const auto& s = solution.summary;
      CHECK(brute_force_adversary_value(game, 10, solution.predictor) ==
            Approx(s.adversary_response_value).margin(1e-12));
      CHECK(brute_force_predictor_value(game, 10, solution.adversary) ==
            Approx(s.predictor_response_value).margin(1e-12));
      CHECK(s.gap == Approx(s.predictor_response_value - s.adversary_response_value).margin(1e-15));
      CHECK(s.gap >= -1e-12);
      CHECK(s.gap <= previous_gap);
      previous_gap = s.gap;
    }
  }
}

namespace {

// A 1 x 1 game (payoff 0.5) whose predictor oracle under-reports its best response's value by 1:
// the bounds cross (gap -1), which exact arithmetic never gives, as rounding swamping huge payoffs does.
using One = std::vector<int>;  // the single action {0} of each player
class CrossedBoundsGame : public Game<One> {
 public:
  std::string metric_name() const override { return "crossed"; }
  double score(const One&, const One&) const override { return 0.5; }
  double potential(const One&) const override { return 0.0; }
  std::vector<One> initial_predictor_actions() const override { return {{0}}; }
  std::vector<One> initial_adversary_actions() const override { return {{0}}; }
  bool is_legal_predictor_action(const One& a) const override { return a == One{0}; }
  bool is_legal_adversary_action(const One& a) const override { return a == One{0}; }
  BestResponse<One> predictor_best_response(const MixedStrategy<One>&) const override { return {{0}, -0.5}; }
  BestResponse<One> adversary_best_response(const MixedStrategy<One>&) const override { return {{0}, 0.5}; }
};

}  // namespace

TEST_CASE("Double oracle: a negative gap beyond the tolerance is a failure, never convergence", "[double_oracle]") {
  const CrossedBoundsGame game;
  const auto solution = solve_double_oracle(game, DoubleOracleOptions{});
  CHECK(solution.summary.gap == Approx(-1.0));
  CHECK(solution.summary.status == DoubleOracleStatus::inconsistent);
  CHECK_FALSE(solution.summary.converged());
  CHECK_THAT(solution.summary.report(), Catch::Contains("failed: negative gap"));
}

TEST_CASE("The reference's stop rule: the double oracle stops when the sub-game value repeats", "[double_oracle]") {
  // StopRule::value_repeat is the one implementation of the reference's rule for every MPG
  // (lib/learn/protocol.hpp, authors_game_options); hand-worked games: test_alignment_cfg_protocol.
  std::mt19937 rng(53);
  int repeated = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // Random potentials, and equal ones (the degenerate games at theta = 0, where values plateau).
    const std::size_t n = 3 + static_cast<std::size_t>(trial) % 6;
    const F1Game game(trial % 2 == 0 ? random_potentials(n, rng) : std::vector<double>(n, 0.0));
    DoubleOracleOptions options;
    options.stop_rule = DoubleOracleOptions::StopRule::value_repeat;
    options.tolerance = 1e-8;
    const auto s = solve_double_oracle(game, options).summary;
    INFO("trial " << trial << ": " << s.report());
    CHECK((s.status == DoubleOracleStatus::converged || s.status == DoubleOracleStatus::value_repeated));
    CHECK(s.gap >= -1e-9);  // measured at the stop: both best responses bound the game value
    CHECK(s.converged() == (s.gap <= 1e-8));
    if (s.status == DoubleOracleStatus::value_repeated) ++repeated;
  }
  CHECK(repeated > 0);  // the rule does stop some of these games before their gap closes

  // A precision of 1000: every F1 game value rounds to 0, so the second LP of the first
  // iteration repeats the first's value and every game stops there.
  for (int trial = 0; trial < 10; ++trial) {
    const F1Game game(random_potentials(5, rng));
    DoubleOracleOptions coarse;
    coarse.stop_rule = DoubleOracleOptions::StopRule::value_repeat;
    coarse.value_precision = 1000.0;
    const auto s = solve_double_oracle(game, coarse).summary;
    CHECK(s.iterations == 1);
    CHECK((s.status == DoubleOracleStatus::value_repeated || s.status == DoubleOracleStatus::converged));
  }
  CHECK(to_string(DoubleOracleStatus::value_repeated).find("value repeated") != std::string::npos);
}
