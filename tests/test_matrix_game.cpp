// Matrix games solved by LP (thesis Eq. 2.47/2.48): known values and equilibria, degenerate
// games, and random games checked against the minimax theorem.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lib/error.hpp"
#include "lib/matrix_game.hpp"

namespace {

constexpr double kExact = 1e-9;

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
  const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
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
  const Eigen::MatrixXd payoff = matrix({{0.2, -0.3, -0.3}, {-0.3, 0.2, -0.3}, {-0.3, -0.3, 0.2}});
  require_equilibrium(payoff, -2.0 / 15.0, uniform(3), uniform(3));
}

TEST_CASE("thesis Table II game: unique row strategy, non-unique column strategy", "[matrix_game]") {
  const Eigen::MatrixXd payoff = matrix({{0, 1, 1, 1}, {1, 0.5, 0.5, 0.5}});
  const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
  REQUIRE(solution.value == Approx(2.0 / 3.0).margin(kExact));
  require_close(solution.row_strategy, vector({1.0 / 3.0, 2.0 / 3.0}));
  require_in_simplex(solution.column_strategy);
  REQUIRE(best_response_payoff(payoff, solution.column_strategy) == Approx(2.0 / 3.0).margin(kExact));
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("thesis Table II game in F1-score form has value 1/3", "[matrix_game]") {
  const Eigen::MatrixXd payoff = matrix({{1, 0, 0, 0}, {0, 0.5, 0.5, 0.5}});
  const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
  REQUIRE(solution.value == Approx(1.0 / 3.0).margin(kExact));
  REQUIRE(best_response_payoff(payoff, solution.column_strategy) == Approx(1.0 / 3.0).margin(kExact));
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("textbook games with known unique equilibria", "[matrix_game]") {
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
  const Eigen::MatrixXd payoff = matrix({{1, 5}, {4, 4}, {6, 2}});
  const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
  REQUIRE(solution.value == Approx(4.0).margin(kExact));
  require_close(solution.row_strategy, vector({0, 1, 0}));
  require_in_simplex(solution.column_strategy);
  REQUIRE(solution.column_strategy(0) >= 0.25 - kExact);
  REQUIRE(solution.column_strategy(0) <= 0.5 + kExact);
  REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
}

TEST_CASE("degenerate games", "[matrix_game]") {
  SECTION("constant matrix: the value is the constant") {
    const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(Eigen::MatrixXd::Constant(3, 4, -2.5));
    REQUIRE(solution.value == Approx(-2.5).margin(kExact));
    require_in_simplex(solution.row_strategy);
    require_in_simplex(solution.column_strategy);
    REQUIRE(solution.duality_gap == Approx(0.0).margin(kExact));
  }
  SECTION("1x1") {
    const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(matrix({{7.25}}));
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
    const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
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
    const mpg::MatrixGameSolution base = mpg::solve_matrix_game(payoff);
    const mpg::MatrixGameSolution shifted = mpg::solve_matrix_game((payoff.array() + 1e6).matrix());
    REQUIRE(shifted.value - 1e6 == Approx(base.value).margin(1e-6));
    require_close(shifted.row_strategy, base.row_strategy);
    require_close(shifted.column_strategy, base.column_strategy);
  }
  SECTION("tiny entries keep the equilibrium") {
    const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(matrix({{-2e-6, 3e-6}, {3e-6, -4e-6}}));
    REQUIRE(solution.value == Approx(1e-6 / 12.0).margin(1e-15));
    require_close(solution.row_strategy, vector({7.0 / 12.0, 5.0 / 12.0}));
    require_close(solution.column_strategy, vector({7.0 / 12.0, 5.0 / 12.0}));
  }
}

TEST_CASE("random games satisfy the minimax theorem", "[matrix_game]") {
  std::mt19937 generator(20240607);
  std::uniform_int_distribution<int> size(1, 12);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::MatrixXd payoff(size(generator), size(generator));
    for (Eigen::Index i = 0; i < payoff.rows(); ++i) {
      for (Eigen::Index j = 0; j < payoff.cols(); ++j) payoff(i, j) = entry(generator);
    }
    INFO("trial " << trial << ", " << payoff.rows() << "x" << payoff.cols());
    const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff);
    require_in_simplex(solution.row_strategy);
    require_in_simplex(solution.column_strategy);
    REQUIRE(solution.duality_gap <= 1e-9);
    REQUIRE(solution.duality_gap >= -1e-9);
    const mpg::MatrixGameSolution transposed = mpg::solve_matrix_game(-payoff.transpose());
    REQUIRE(solution.value == Approx(-transposed.value).margin(1e-9));
  }
}

TEST_CASE("the lp_solve backend is named and usable directly", "[matrix_game]") {
  const std::unique_ptr<mpg::LpBackend> backend = mpg::make_lp_solve_backend();
  REQUIRE(backend->name() == "lp_solve");
  const mpg::MaximinResult result = backend->maximin(matrix({{-2, 3}, {3, -4}}));
  REQUIRE(result.value == Approx(1.0 / 12.0).margin(kExact));
  require_close(result.strategy, vector({7.0 / 12.0, 5.0 / 12.0}));
}

namespace {

// Forwards to lp_solve and records the matrices it is asked to solve.
class RecordingBackend : public mpg::LpBackend {
 public:
  std::string name() const override { return "recording"; }
  mpg::MaximinResult maximin(const Eigen::MatrixXd& payoff) const override {
    requests.push_back(payoff);
    return lp_solve->maximin(payoff);
  }
  mutable std::vector<Eigen::MatrixXd> requests;

 private:
  std::unique_ptr<mpg::LpBackend> lp_solve = mpg::make_lp_solve_backend();
};

}  // namespace

TEST_CASE("the column player's LP is the maximin LP of -A^T", "[matrix_game]") {
  const Eigen::MatrixXd payoff = matrix({{2, 3, 1, 5}, {4, 1, 6, 0}});
  const RecordingBackend backend;
  const mpg::MatrixGameSolution solution = mpg::solve_matrix_game(payoff, backend);
  REQUIRE(backend.requests.size() == 2);
  REQUIRE(backend.requests[0] == payoff);
  REQUIRE(backend.requests[1] == -payoff.transpose());
  REQUIRE(solution.value == Approx(17.0 / 7.0).margin(kExact));
}

TEST_CASE("invalid payoff matrices are rejected", "[matrix_game]") {
  SECTION("empty") {
    REQUIRE_THROWS_AS(mpg::solve_matrix_game(Eigen::MatrixXd(0, 0)), mpg::Error);
    REQUIRE_THROWS_AS(mpg::solve_matrix_game(Eigen::MatrixXd(2, 0)), mpg::Error);
  }
  SECTION("non-finite entry") {
    Eigen::MatrixXd payoff = Eigen::MatrixXd::Zero(3, 4);
    payoff(2, 3) = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_THROWS_WITH(mpg::solve_matrix_game(payoff), Catch::Contains("non-finite") && Catch::Contains("(2,3)"));
    payoff(2, 3) = std::numeric_limits<double>::infinity();
    REQUIRE_THROWS_AS(mpg::solve_matrix_game(payoff), mpg::Error);
  }
}
