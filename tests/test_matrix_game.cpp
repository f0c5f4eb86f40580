// Matrix games solved by LP (thesis Eq. 2.47/2.48): known values and equilibria, degenerate
// games, and random games checked against the minimax theorem.
#include <catch2/catch.hpp>

#include <fstream>
#include <initializer_list>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/glpk_backend.hpp"
#include "lib/game/matrix_game.hpp"

namespace {

constexpr double kExact = 1e-9;

// Every case runs once per LP backend.
const mpg::LpBackend* current_backend = nullptr;
std::unique_ptr<mpg::LpBackend> backend_holder;

#define FOR_EACH_LP_BACKEND()                                                          \
  const std::string backend_name = GENERATE(as<std::string>{}, "glpk", "lp_solve");    \
  INFO("LP backend " << backend_name);                                                 \
  backend_holder = mpg::make_lp_backend(backend_name);                                 \
  current_backend = backend_holder.get()

mpg::MatrixGameSolution solve(const Eigen::MatrixXd& payoff) {
  return mpg::solve_matrix_game(payoff, *current_backend);
}

std::unique_ptr<mpg::GrowingMatrixGame> new_game(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets) {
  return current_backend->new_game(scores, offsets);
}

Eigen::MatrixXd matrix(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd result(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (double entry : row) result(i, j++) = entry;
    ++i;
  }
  return result;
}

Eigen::VectorXd vector(std::initializer_list<double> entries) {
  Eigen::VectorXd result(static_cast<Eigen::Index>(entries.size()));
  Eigen::Index i = 0;
  for (double entry : entries) result(i++) = entry;
  return result;
}

Eigen::VectorXd uniform(Eigen::Index size) {
  return Eigen::VectorXd::Constant(size, 1.0 / static_cast<double>(size));
}

void require_in_simplex(const Eigen::VectorXd& strategy) {
  REQUIRE(strategy.minCoeff() >= 0.0);
  REQUIRE(strategy.sum() == Approx(1.0).margin(1e-12));
}

void require_close(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected) {
  REQUIRE(actual.size() == expected.size());
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    INFO("component " << i);
    REQUIRE(actual(i) == Approx(expected(i)).margin(kExact));
  }
}

// Checks the value, both strategies and a zero duality gap.
void require_equilibrium(const Eigen::MatrixXd& payoff, double value, const Eigen::VectorXd& row_strategy,
                         const Eigen::VectorXd& column_strategy) {
  const mpg::MatrixGameSolution solution = solve(payoff);
  REQUIRE(solution.value == Approx(value).margin(kExact));
  require_in_simplex(solution.row_strategy);
  require_in_simplex(solution.column_strategy);
  require_close(solution.row_strategy, row_strategy);
  require_close(solution.column_strategy, column_strategy);
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

// max_i (A q)_i: the most the row player can win against q.
double best_response_payoff(const Eigen::MatrixXd& payoff, const Eigen::VectorXd& column_strategy) {
  return (payoff * column_strategy).maxCoeff();
}

}  // namespace

TEST_CASE("thesis Table I game has value -2/15 with uniform strategies", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  const Eigen::MatrixXd payoff = matrix({{0.2, -0.3, -0.3}, {-0.3, 0.2, -0.3}, {-0.3, -0.3, 0.2}});
  require_equilibrium(payoff, -2.0 / 15.0, uniform(3), uniform(3));
}

TEST_CASE("thesis Table II game: unique row strategy, non-unique column strategy", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  const Eigen::MatrixXd payoff = matrix({{0, 1, 1, 1}, {1, 0.5, 0.5, 0.5}});
  const mpg::MatrixGameSolution solution = solve(payoff);
  REQUIRE(solution.value == Approx(2.0 / 3.0).margin(kExact));
  require_close(solution.row_strategy, vector({1.0 / 3.0, 2.0 / 3.0}));
  require_in_simplex(solution.column_strategy);
  REQUIRE(best_response_payoff(payoff, solution.column_strategy) == Approx(2.0 / 3.0).margin(kExact));
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("thesis Table II game in F1-score form has value 1/3", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  const Eigen::MatrixXd payoff = matrix({{1, 0, 0, 0}, {0, 0.5, 0.5, 0.5}});
  const mpg::MatrixGameSolution solution = solve(payoff);
  REQUIRE(solution.value == Approx(1.0 / 3.0).margin(kExact));
  REQUIRE(best_response_payoff(payoff, solution.column_strategy) == Approx(1.0 / 3.0).margin(kExact));
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("textbook games with known unique equilibria", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  SECTION("3x3 with a dominated middle row") {
    require_equilibrium(matrix({{0, 4, 6}, {5, 7, 4}, {9, 6, 3}}), 4.5, vector({0.5, 0, 0.5}),
                        vector({0.25, 0, 0.75}));
  }
  SECTION("2x2 fully mixed") {
    require_equilibrium(matrix({{-2, 3}, {3, -4}}), 1.0 / 12.0, vector({7.0 / 12.0, 5.0 / 12.0}),
                        vector({7.0 / 12.0, 5.0 / 12.0}));
  }
  SECTION("3x3 with a saddle point") {
    require_equilibrium(matrix({{4, 1, -3}, {3, 2, 5}, {0, 1, 6}}), 2.0, vector({0, 1, 0}), vector({0, 1, 0}));
  }
  SECTION("3x3 with two-strategy supports") {
    require_equilibrium(matrix({{2, -1, 6}, {0, 1, -1}, {-2, 2, 1}}), 0.5, vector({0.25, 0.75, 0}),
                        vector({0.5, 0.5, 0}));
  }
  SECTION("2x4") {
    require_equilibrium(matrix({{2, 3, 1, 5}, {4, 1, 6, 0}}), 17.0 / 7.0, vector({5.0 / 7.0, 2.0 / 7.0}),
                        vector({0, 5.0 / 7.0, 2.0 / 7.0, 0}));
  }
  SECTION("5x5 with uniform equilibrium") {
    const Eigen::MatrixXd payoff = matrix(
        {{1, 2, 3, 3, 6}, {2, 6, 1, 3, 3}, {3, 1, 3, 6, 2}, {3, 3, 6, 2, 1}, {6, 3, 2, 1, 3}});
    require_equilibrium(payoff, 3.0, uniform(5), uniform(5));
  }
  SECTION("4x4 upper triangular") {
    require_equilibrium(matrix({{1, -2, 3, -4}, {0, 1, -2, 3}, {0, 0, 1, -2}, {0, 0, 0, 1}}), 1.0 / 12.0,
                        vector({1.0 / 12.0, 0.25, 1.0 / 3.0, 1.0 / 3.0}),
                        vector({1.0 / 3.0, 1.0 / 3.0, 0.25, 1.0 / 12.0}));
  }
  SECTION("3x3 symmetric with value 0") {
    require_equilibrium(matrix({{0, 1, -2}, {1, -2, 3}, {-2, 3, -4}}), 0.0, vector({0.25, 0.5, 0.25}),
                        vector({0.25, 0.5, 0.25}));
  }
  SECTION("3x3 symmetric with value 1") {
    require_equilibrium(matrix({{1, 2, -1}, {2, -1, 4}, {-1, 4, -3}}), 1.0, vector({0.25, 0.5, 0.25}),
                        vector({0.25, 0.5, 0.25}));
  }
  SECTION("diagonal game diag(1,2,3,4)") {
    const Eigen::VectorXd equalizer = vector({0.48, 0.24, 0.16, 0.12});
    require_equilibrium(vector({1, 2, 3, 4}).asDiagonal(), 0.48, equalizer, equalizer);
  }
}

TEST_CASE("game with a saddle row and an interval of optimal column strategies", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  const Eigen::MatrixXd payoff = matrix({{1, 5}, {4, 4}, {6, 2}});
  const mpg::MatrixGameSolution solution = solve(payoff);
  REQUIRE(solution.value == Approx(4.0).margin(kExact));
  require_close(solution.row_strategy, vector({0, 1, 0}));
  require_in_simplex(solution.column_strategy);
  REQUIRE(solution.column_strategy(0) >= 0.25 - kExact);
  REQUIRE(solution.column_strategy(0) <= 0.5 + kExact);
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("degenerate games", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  SECTION("constant matrix: the value is the constant") {
    const mpg::MatrixGameSolution solution = solve(Eigen::MatrixXd::Constant(3, 4, -2.5));
    REQUIRE(solution.value == Approx(-2.5).margin(kExact));
    require_in_simplex(solution.row_strategy);
    require_in_simplex(solution.column_strategy);
    REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
  }
  SECTION("1x1") {
    const mpg::MatrixGameSolution solution = solve(matrix({{7.25}}));
    REQUIRE(solution.value == Approx(7.25).margin(kExact));
    require_close(solution.row_strategy, vector({1}));
    require_close(solution.column_strategy, vector({1}));
  }
  SECTION("single row: the value is the row minimum") {
    require_equilibrium(matrix({{3, -1, 2, 5}}), -1.0, vector({1}), vector({0, 1, 0, 0}));
  }
  SECTION("single column: the value is the column maximum") {
    require_equilibrium(matrix({{3}, {-1}, {8}, {5}}), 8.0, vector({0, 0, 1, 0}), vector({1}));
  }
  SECTION("duplicated rows and columns keep the value") {
    const Eigen::MatrixXd payoff = matrix({{-2, -2, 3}, {-2, -2, 3}, {3, 3, -4}});
    const mpg::MatrixGameSolution solution = solve(payoff);
    REQUIRE(solution.value == Approx(1.0 / 12.0).margin(kExact));
    REQUIRE(solution.row_strategy(0) + solution.row_strategy(1) == Approx(7.0 / 12.0).margin(kExact));
    REQUIRE(solution.column_strategy(0) + solution.column_strategy(1) == Approx(7.0 / 12.0).margin(kExact));
    REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
  }
  SECTION("all-negative matrix") {
    require_equilibrium(matrix({{-2, -7}, {-7, -2}}), -4.5, vector({0.5, 0.5}), vector({0.5, 0.5}));
  }
  SECTION("huge offset shifts the value by exactly the offset") {
    const Eigen::MatrixXd payoff = matrix({{0, 4, 6}, {5, 7, 4}, {9, 6, 3}});
    const mpg::MatrixGameSolution base = solve(payoff);
    const mpg::MatrixGameSolution shifted = solve((payoff.array() + 1e6).matrix());
    REQUIRE(shifted.value - 1e6 == Approx(base.value).margin(1e-6));
    require_close(shifted.row_strategy, base.row_strategy);
    require_close(shifted.column_strategy, base.column_strategy);
  }
  SECTION("tiny entries keep the equilibrium") {
    const mpg::MatrixGameSolution solution = solve(matrix({{-2e-6, 3e-6}, {3e-6, -4e-6}}));
    REQUIRE(solution.value == Approx(1e-6 / 12.0).margin(1e-15));
    require_close(solution.row_strategy, vector({7.0 / 12.0, 5.0 / 12.0}));
    require_close(solution.column_strategy, vector({7.0 / 12.0, 5.0 / 12.0}));
  }
}

TEST_CASE("random games satisfy the minimax theorem", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  std::mt19937 generator(20240607);
  std::uniform_int_distribution<int> size(1, 12);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::MatrixXd payoff(size(generator), size(generator));
    for (Eigen::Index i = 0; i < payoff.rows(); ++i) {
      for (Eigen::Index j = 0; j < payoff.cols(); ++j) payoff(i, j) = entry(generator);
    }
    INFO("trial " << trial << ", " << payoff.rows() << "x" << payoff.cols());
    const mpg::MatrixGameSolution solution = solve(payoff);
    require_in_simplex(solution.row_strategy);
    require_in_simplex(solution.column_strategy);
    REQUIRE(solution.duality_gap <= 1e-9);
    REQUIRE(solution.duality_gap >= -1e-9);
    const mpg::MatrixGameSolution transposed = solve(-payoff.transpose());
    REQUIRE(solution.value == Approx(-transposed.value).margin(1e-9));
  }
}

TEST_CASE("LP backends are found by name; GLPK is the default", "[matrix_game]") {
  REQUIRE(mpg::make_lp_backend("lp_solve")->name() == "lp_solve");
  REQUIRE(mpg::make_lp_backend("glpk")->name() == "glpk");
  REQUIRE(mpg::default_lp_backend().name() == "glpk");
  REQUIRE_THROWS_AS(mpg::make_lp_backend("cplex"), mpg::Error);
}

TEST_CASE("column offsets equal the explicit payoff S - 1 c^T", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  // Large offsets, as the potentials of a big game, next to scores in [0, 1].
  std::mt19937 generator(77);
  std::uniform_real_distribution<double> score(0.0, 1.0);
  std::uniform_real_distribution<double> offset(-300.0, 300.0);
  for (int trial = 0; trial < 50; ++trial) {
    Eigen::MatrixXd scores(1 + trial % 9, 1 + (trial * 7) % 11);
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
      for (Eigen::Index j = 0; j < scores.cols(); ++j) scores(i, j) = score(generator);
    Eigen::VectorXd offsets(scores.cols());
    for (Eigen::Index j = 0; j < offsets.size(); ++j) offsets(j) = trial % 2 ? offset(generator) : 0.01 * offset(generator);
    INFO("trial " << trial);
    const mpg::MatrixGameSolution with_offsets = new_game(scores, offsets)->solve();
    const Eigen::MatrixXd payoff = scores.rowwise() - offsets.transpose();
    const mpg::MatrixGameSolution explicit_matrix = solve(payoff);
    REQUIRE(with_offsets.value == Approx(explicit_matrix.value).margin(1e-9));
    REQUIRE(with_offsets.duality_gap <= 1e-9);
    require_in_simplex(with_offsets.row_strategy);
    require_in_simplex(with_offsets.column_strategy);
  }
}

TEST_CASE("a game grown row by row and column by column equals the game solved at once", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  std::mt19937 generator(4242);
  std::uniform_real_distribution<double> entry(0.0, 1.0);
  std::uniform_real_distribution<double> offset(-2.0, 2.0);
  const Eigen::Index rows = 14;
  const Eigen::Index columns = 17;
  Eigen::MatrixXd scores(rows, columns);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < columns; ++j) scores(i, j) = entry(generator);
  Eigen::VectorXd offsets(columns);
  for (Eigen::Index j = 0; j < columns; ++j) offsets(j) = offset(generator);

  auto game = new_game(scores.topLeftCorner(1, 1), offsets.head(1));
  Eigen::Index r = 1;
  Eigen::Index c = 1;
  while (r < rows || c < columns) {
    // Solve between growth steps, as the double oracle does, so the next solve is warm-started.
    const mpg::MatrixGameSolution partial = game->solve();
    const Eigen::MatrixXd partial_payoff = scores.topLeftCorner(r, c).rowwise() - offsets.head(c).transpose();
    REQUIRE(partial.value == Approx(solve(partial_payoff).value).margin(1e-9));
    if (r < rows) {
      game->add_row(scores.row(r).head(c).transpose());
      ++r;
    }
    if (c < columns) {
      game->add_column(scores.col(c).head(r), offsets(c));
      ++c;
    }
  }
  const mpg::MatrixGameSolution grown = game->solve();
  const mpg::MatrixGameSolution at_once = new_game(scores, offsets)->solve();
  REQUIRE(grown.value == Approx(at_once.value).margin(1e-9));
  REQUIRE(grown.duality_gap <= 1e-9);
  REQUIRE(game->rows() == rows);
  REQUIRE(game->columns() == columns);
}

TEST_CASE("new offsets on a solved game equal a fresh game with those offsets", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  std::mt19937 generator(515);
  std::uniform_real_distribution<double> entry(0.0, 1.0);
  std::uniform_real_distribution<double> offset(-1.0, 1.0);
  Eigen::MatrixXd scores(9, 12);
  for (Eigen::Index i = 0; i < scores.size(); ++i) scores.data()[i] = entry(generator);
  Eigen::VectorXd offsets(12);
  for (Eigen::Index j = 0; j < offsets.size(); ++j) offsets(j) = offset(generator);
  auto game = new_game(scores, offsets);
  for (int trial = 0; trial < 20; ++trial) {
    game->solve();  // the next solve starts from this basis
    for (Eigen::Index j = 0; j < offsets.size(); ++j) offsets(j) = (trial % 3 + 1) * offset(generator);
    game->set_offsets(offsets);
    const mpg::MatrixGameSolution moved = game->solve();
    const mpg::MatrixGameSolution fresh = new_game(scores, offsets)->solve();
    INFO("trial " << trial);
    REQUIRE(moved.value == Approx(fresh.value).margin(1e-9));
    REQUIRE(moved.duality_gap <= 1e-9);
    REQUIRE(game->offsets() == offsets);
  }
  REQUIRE_THROWS_AS(game->set_offsets(Eigen::VectorXd::Zero(3)), mpg::Error);
}

TEST_CASE("growing a game checks the sizes of new rows and columns", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  auto game = new_game(Eigen::MatrixXd::Ones(2, 3), Eigen::VectorXd::Zero(3));
  REQUIRE_THROWS_AS(game->add_row(Eigen::VectorXd::Ones(2)), mpg::Error);
  REQUIRE_THROWS_AS(game->add_column(Eigen::VectorXd::Ones(3), 0.0), mpg::Error);
  REQUIRE_THROWS_AS(game->add_column(Eigen::VectorXd::Ones(2), std::numeric_limits<double>::quiet_NaN()), mpg::Error);
  REQUIRE_THROWS_AS(new_game(Eigen::MatrixXd::Ones(2, 3), Eigen::VectorXd::Zero(2)), mpg::Error);
}

TEST_CASE("invalid payoff matrices are rejected", "[matrix_game]") {
  FOR_EACH_LP_BACKEND();
  SECTION("empty") {
    REQUIRE_THROWS_AS(solve(Eigen::MatrixXd(0, 0)), mpg::Error);
    REQUIRE_THROWS_AS(solve(Eigen::MatrixXd(2, 0)), mpg::Error);
  }
  SECTION("non-finite entry") {
    Eigen::MatrixXd payoff = Eigen::MatrixXd::Zero(3, 4);
    payoff(2, 3) = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_THROWS_WITH(solve(payoff), Catch::Contains("non-finite") && Catch::Contains("(2,3)"));
    payoff(2, 3) = std::numeric_limits<double>::infinity();
    REQUIRE_THROWS_AS(solve(payoff), mpg::Error);
  }
}

TEST_CASE("GLPK: a warm-started game LP on which the dual simplex cycles is still solved",
          "[matrix_game]") {
  // A restricted F1 game of the cutting-plane trainer (OPTDIGITS class 5 vs rest, lambda = 2^-5,
  // Table VIII grid) with the warm basis it was handed: GLPK's dual simplex pivoted on it without
  // end (100,000 pivots when capped), which hung a full Table VIII run. From a fresh advanced
  // basis it takes 60 pivots; the primal simplex 7.
  std::ifstream text(std::string(MPG_SOURCE_DIR) + "/tests/data/glpk_cycling_game_lp.txt");
  REQUIRE(text);
  const mpg::detail::GameLpReport report = mpg::detail::solve_game_lp_text(text);
  CHECK(report.optimal);
  CHECK(report.objective == Approx(-1.3380725972132).margin(1e-11));
  CHECK(report.pivots < 5000);
}
