// Finite two-player zero-sum matrix games solved by linear programming (thesis Eq. 2.47/2.48).
// Rows belong to the maximizing player (the predictor), columns to the minimizing player (the
// adversary). Payoffs have the form of MPG sub-games,
//     A(i, j) = S(i, j) - c_j,
// scores S (the metric, in [0, 1] for every metric here) minus a per-column offset c_j (the
// adversary's potential psi(y_check_j)). Keeping c out of the constraint matrix keeps the LPs
// well scaled however large the potentials grow.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

namespace mpg {

// Both players' equilibrium strategies and the game value.
struct MatrixGameSolution {
  double value = 0.0;               // min_j (p^T A)_j: what the row strategy guarantees
  Eigen::VectorXd row_strategy;     // predictor's mixed strategy over rows
  Eigen::VectorXd column_strategy;  // adversary's mixed strategy over columns
  double duality_gap = 0.0;         // max_i (A q)_i - min_j (p^T A)_j >= 0; ~0 at an exact equilibrium
};

// A game that grows by whole rows and columns, as in the double oracle. Both players' LPs are
// kept between solves, so each solve restarts the simplex from the previous optimal basis.
class GrowingMatrixGame {
 public:
  virtual ~GrowingMatrixGame() = default;

  // Adds a row: its scores S(new, j) against the existing columns.
  void add_row(const Eigen::VectorXd& scores);
  // Adds a column with offset c: its scores S(i, new) against the existing rows.
  void add_column(const Eigen::VectorXd& scores, double offset);
  // Replaces every column's offset c_j (the potentials move with theta; the scores do not).
  void set_offsets(const Eigen::VectorXd& offsets);
  // Removes rows and columns (indices into the current game, each list increasing).
  void remove(const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& columns);
  // Solves both LPs. Throws mpg::SolverError naming the LP status if either is not solved to
  // optimality (after one retry from a fresh basis).
  MatrixGameSolution solve();
  // The LP's optimal strategies as the backend returns them, before solve() rounds them onto the
  // simplex (for a backend over another one, working_set_game.hpp).
  std::pair<Eigen::VectorXd, Eigen::VectorXd> solve_weights() { return lp_solve_strategies(); }

  Eigen::Index rows() const { return rows_; }
  Eigen::Index columns() const { return columns_; }
  auto scores() const { return storage_.topLeftCorner(rows_, columns_); }
  auto offsets() const { return offset_storage_.head(columns_); }

 protected:
  GrowingMatrixGame(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets);
  virtual void lp_add_row(const Eigen::VectorXd& scores) = 0;
  virtual void lp_add_column(const Eigen::VectorXd& scores, double offset) = 0;
  virtual void lp_set_offsets(const Eigen::VectorXd& offsets) = 0;
  virtual void lp_remove(const std::vector<Eigen::Index>& rows,
                         const std::vector<Eigen::Index>& columns) = 0;
  // Unnormalized optimal strategies of the row and the column LP.
  virtual std::pair<Eigen::VectorXd, Eigen::VectorXd> lp_solve_strategies() = 0;

 private:
  // Scores and offsets live in the top-left corner of storage that grows by doubling, so adding
  // a row or column does not copy the whole matrix.
  Eigen::MatrixXd storage_;
  Eigen::VectorXd offset_storage_;
  Eigen::Index rows_ = 0;
  Eigen::Index columns_ = 0;
};

// An LP backend creates growing games; a backend implements the three lp_* hooks.
class LpBackend {
 public:
  virtual ~LpBackend() = default;
  virtual std::string name() const = 0;
  // Throws mpg::Error on an empty matrix, mismatched sizes or non-finite entries.
  virtual std::unique_ptr<GrowingMatrixGame> new_game(const Eigen::MatrixXd& scores,
                                                      const Eigen::VectorXd& offsets) const = 0;
};

// GLPK backend: the row player's LP only, the column player's strategy read from its duals;
// warm-started after every addition.
std::unique_ptr<LpBackend> make_glpk_backend();
// lp_solve 5.5 backend: one LP per player. Much slower on the dense, degenerate sub-games of
// large MPGs (bench/README.md), kept as the second backend and for cross-checks.
std::unique_ptr<LpBackend> make_lp_solve_backend();
// "glpk" or "lp_solve", each over working sets of actions (working_set_game.hpp: exact; games
// of at most 32 actions per player are solved as by the plain backend); throws mpg::Error
// otherwise.
std::unique_ptr<LpBackend> make_lp_backend(const std::string& name);
const LpBackend& default_lp_backend();  // make_lp_backend("glpk")

// Solves the game with payoff matrix A (offsets 0).
MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff, const LpBackend& backend);
MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff);  // lp_solve backend

}  // namespace mpg
