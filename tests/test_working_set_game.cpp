// Matrix games over working sets of actions (lib/game/working_set_game.*): after every solve of a
// growing game the value is the plain backend's on the whole game and the strategies are an
// equilibrium of the whole game, with actions retired and re-activated along the way; small games
// are solved exactly as by the plain backend.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "lib/game/matrix_game.hpp"
#include "lib/game/working_set_game.hpp"

using namespace mpg;

namespace {

// The game's payoff recomputed from the strategies: min_j (p^T A)_j and max_i (A q)_i.
std::pair<double, double> guarantees(const Eigen::MatrixXd& S, const Eigen::VectorXd& c, const MatrixGameSolution& s) {
  const Eigen::RowVectorXd row = s.row_strategy.transpose() * S - c.transpose();
  const Eigen::VectorXd column = (S * s.column_strategy).array() - c.dot(s.column_strategy);
  return {row.minCoeff(), column.maxCoeff()};
}

}  // namespace

TEST_CASE("Working set: a growing game keeps the whole game's value and an equilibrium of it", "[working_set_game]") {
  const auto glpk = make_glpk_backend();
  WorkingSetOptions options;
  options.min_active = 4;  // small, so that actions leave and return many times
  options.idle_solves = 1;
  options.max_activated = 2;
  options.support_multiple = 0;
  const auto working = make_working_set_backend(make_glpk_backend(), options);
  for (const unsigned seed : {1u, 2u, 3u}) {
    std::mt19937_64 engine(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // Scores in {0, 1/4, ..., 1} (ties and degenerate LPs, as metric scores are) and offsets.
    const int size = 60;
    Eigen::MatrixXd S(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j) S(i, j) = std::floor(unit(engine) * 5.0) / 4.0;
    Eigen::VectorXd c(size);
    for (Eigen::Index j = 0; j < size; ++j) c[j] = 0.5 * unit(engine);
    auto plain = glpk->new_game(S.topLeftCorner(1, 1), c.head(1));
    auto game = working->new_game(S.topLeftCorner(1, 1), c.head(1));
    Eigen::Index rows = 1, columns = 1;
    for (int step = 0; step < 2 * (size - 1); ++step) {
      if (step % 2 == 0 && rows < size) {
        plain->add_row(S.row(rows).head(columns).transpose());
        game->add_row(S.row(rows).head(columns).transpose());
        ++rows;
      } else if (columns < size) {
        plain->add_column(S.col(columns).head(rows), c[columns]);
        game->add_column(S.col(columns).head(rows), c[columns]);
        ++columns;
      }
      if (step == 60) {  // potentials move (the cutting-plane trainer's next theta)
        c.head(columns) *= 1.5;
        plain->set_offsets(c.head(columns));
        game->set_offsets(c.head(columns));
      }
      const MatrixGameSolution expected = plain->solve();
      const MatrixGameSolution found = game->solve();
      INFO("seed " << seed << ", step " << step << ", " << rows << " x " << columns);
      const auto [lower, upper] = guarantees(S.topLeftCorner(rows, columns), c.head(columns), found);
      CHECK(found.value == Approx(expected.value).margin(1e-8));
      CHECK(upper - lower <= 1e-8);
      CHECK(lower == Approx(expected.value).margin(1e-8));
    }
    CHECK(rows == size);
    CHECK(columns == size);
  }
}

TEST_CASE("Working set: removing actions, including every active one of a player", "[working_set_game]") {
  WorkingSetOptions options;
  options.min_active = 2;
  options.idle_solves = 1;
  options.support_multiple = 0;
  const auto working = make_working_set_backend(make_glpk_backend(), options);
  const auto glpk = make_glpk_backend();
  std::mt19937_64 engine(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Eigen::MatrixXd S = Eigen::MatrixXd::NullaryExpr(12, 12, [&] { return unit(engine); });
  const Eigen::VectorXd c = Eigen::VectorXd::Zero(12);
  auto game = working->new_game(S, c);
  for (int k = 0; k < 3; ++k) game->solve();  // idle actions leave the LP
  // Remove the rows of the current support: the LP must take inactive rows back in.
  const MatrixGameSolution before = game->solve();
  std::vector<Eigen::Index> support;
  for (Eigen::Index i = 0; i < before.row_strategy.size(); ++i)
    if (before.row_strategy[i] > 0.0) support.push_back(i);
  REQUIRE(static_cast<Eigen::Index>(support.size()) < S.rows());
  game->remove(support, {});
  std::vector<Eigen::Index> kept;
  for (Eigen::Index i = 0; i < S.rows(); ++i)
    if (std::find(support.begin(), support.end(), i) == support.end()) kept.push_back(i);
  const Eigen::MatrixXd rest = S(kept, Eigen::all);
  const double expected = glpk->new_game(rest, c)->solve().value;
  const MatrixGameSolution after = game->solve();
  CHECK(after.value == Approx(expected).margin(1e-9));
  const auto [lower, upper] = guarantees(rest, c, after);
  CHECK(upper - lower <= 1e-9);
}

TEST_CASE("Working set: games within min_active are solved exactly as by the plain backend", "[working_set_game]") {
  const auto glpk = make_glpk_backend();
  const auto working = make_working_set_backend(make_glpk_backend());  // min_active 32
  std::mt19937_64 engine(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Eigen::MatrixXd S = Eigen::MatrixXd::NullaryExpr(30, 30, [&] { return std::floor(unit(engine) * 3.0) / 2.0; });
  const Eigen::VectorXd c = Eigen::VectorXd::NullaryExpr(30, [&] { return unit(engine); });
  auto plain = glpk->new_game(S.topLeftCorner(2, 2), c.head(2));
  auto game = working->new_game(S.topLeftCorner(2, 2), c.head(2));
  for (Eigen::Index k = 2; k < 30; ++k) {
    plain->add_row(S.row(k).head(k).transpose());
    game->add_row(S.row(k).head(k).transpose());
    plain->add_column(S.col(k).head(k + 1), c[k]);
    game->add_column(S.col(k).head(k + 1), c[k]);
    const MatrixGameSolution a = plain->solve(), b = game->solve();
    REQUIRE(a.value == b.value);
    REQUIRE((a.row_strategy.array() == b.row_strategy.array()).all());
    REQUIRE((a.column_strategy.array() == b.column_strategy.array()).all());
  }
}
