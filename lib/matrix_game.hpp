// Finite two-player zero-sum matrix games solved by linear programming (thesis Eq. 2.47/2.48).
// Rows belong to the maximizing player (the predictor), columns to the minimizing player (the
// adversary); entry A(i,j) is the row player's payoff.
#pragma once

#include <Eigen/Dense>
#include <memory>
#include <string>

namespace mpg {

// The row player's maximin mixed strategy: max_{p in simplex} min_j (p^T A)_j.
struct MaximinResult {
  double value = 0.0;
  Eigen::VectorXd strategy;  // length = rows, non-negative, sums to 1
};

// An LP backend computes the row player's maximin strategy. Implementations throw
// mpg::SolverError (naming the LP status) when the LP is not solved to optimality.
class LpBackend {
 public:
  virtual ~LpBackend() = default;
  virtual std::string name() const = 0;
  virtual MaximinResult maximin(const Eigen::MatrixXd& payoff) const = 0;
};

// lp_solve 5.5 backend.
std::unique_ptr<LpBackend> make_lp_solve_backend();

// Both players' equilibrium strategies and the game value.
struct MatrixGameSolution {
  double value = 0.0;               // row player's maximin value (= column player's minimax value)
  Eigen::VectorXd row_strategy;     // predictor's mixed strategy over rows
  Eigen::VectorXd column_strategy;  // adversary's mixed strategy over columns
  double duality_gap = 0.0;         // max_i (A q)_i - min_j (p^T A)_j >= 0; ~0 at an exact equilibrium
};

// Solves the game: the row player's LP on A and the column player's LP on -A^T.
// Throws mpg::Error on an empty matrix or non-finite entries.
MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff, const LpBackend& backend);
MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff);  // lp_solve backend

}  // namespace mpg
