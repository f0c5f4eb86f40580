// Matrix games by linear programming (thesis Eq. 2.47/2.48) with an lp_solve 5.5 backend.
#include "lib/matrix_game.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "lib/error.hpp"

// lp_solve's C header defines generic macros (TRUE, FALSE, my_if, ...); include it last.
#include <lp_lib.h>

namespace mpg {
namespace {

std::string lp_status_name(int status) {
  switch (status) {
    case NOMEMORY: return "NOMEMORY";
    case NOTRUN: return "NOTRUN";
    case OPTIMAL: return "OPTIMAL";
    case SUBOPTIMAL: return "SUBOPTIMAL";
    case INFEASIBLE: return "INFEASIBLE";
    case UNBOUNDED: return "UNBOUNDED";
    case DEGENERATE: return "DEGENERATE";
    case NUMFAILURE: return "NUMFAILURE";
    case USERABORT: return "USERABORT";
    case TIMEOUT: return "TIMEOUT";
    case PRESOLVED: return "PRESOLVED";
    case ACCURACYERROR: return "ACCURACYERROR";
    default: return "UNKNOWN";
  }
}

// Owns an lprec so that delete_lp runs on every exit path.
class LpHandle {
 public:
  LpHandle(int rows, int columns) : lp_(make_lp(rows, columns)) {
    if (lp_ == nullptr) throw SolverError("lp_solve: make_lp failed");
  }
  ~LpHandle() { delete_lp(lp_); }
  LpHandle(const LpHandle&) = delete;
  LpHandle& operator=(const LpHandle&) = delete;
  lprec* get() const { return lp_; }

 private:
  lprec* lp_;
};

// min_j (p^T A)_j: the row player's guaranteed payoff when playing p.
double guaranteed_row_payoff(const Eigen::MatrixXd& payoff, const Eigen::VectorXd& row_strategy) {
  return (row_strategy.transpose() * payoff).minCoeff();
}

// Rejects matrices no LP can be posed on: empty, non-finite, or too wide a range to rescale.
void validate_payoff(const Eigen::MatrixXd& payoff) {
  if (payoff.size() == 0) {
    throw Error(fmt::format("payoff matrix is empty ({}x{})", payoff.rows(), payoff.cols()));
  }
  for (Eigen::Index j = 0; j < payoff.cols(); ++j) {
    for (Eigen::Index i = 0; i < payoff.rows(); ++i) {
      if (!std::isfinite(payoff(i, j))) {
        throw Error(fmt::format("payoff matrix has a non-finite entry {} at ({},{})", payoff(i, j), i, j));
      }
    }
  }
  if (!std::isfinite(payoff.maxCoeff() - payoff.minCoeff())) {
    throw Error("payoff matrix entries span more than the double range");
  }
}

class LpSolveBackend final : public LpBackend {
 public:
  std::string name() const override { return "lp_solve"; }

  // Eq. 2.47: max v s.t. sum_i p_i A(i,j) >= v for all j, sum_i p_i = 1, p >= 0.
  // The LP is posed on B = (A - min A) / (max A - min A), whose entries lie in [0, 1]: it has the
  // same optimal strategies, and its value lies in [0, 1], so v keeps lp_solve's default bound
  // v >= 0 and the LP is well scaled whatever the magnitude or offset of A.
  MaximinResult maximin(const Eigen::MatrixXd& payoff) const override {
    validate_payoff(payoff);
    const int rows = static_cast<int>(payoff.rows());
    const int columns = static_cast<int>(payoff.cols());
    const double lowest = payoff.minCoeff();
    const double range = payoff.maxCoeff() - lowest;
    const Eigen::MatrixXd scaled = (payoff.array() - lowest) / (range > 0.0 ? range : 1.0);

    // LP columns 1..rows are p, column rows + 1 is v (lp_solve indexes from 1).
    const int value_column = rows + 1;
    LpHandle handle(0, value_column);
    lprec* lp = handle.get();
    set_verbose(lp, CRITICAL);
    // Tighter than the defaults (1e-12, 1e-10, 1e-9): B is scaled to [0, 1], so these are relative.

    std::vector<int> indices;
    std::vector<REAL> coefficients;
    auto add_row = [&](int type, double rhs, const char* what) {
      if (!add_constraintex(lp, static_cast<int>(indices.size()), coefficients.data(), indices.data(), type, rhs)) {
        throw SolverError(fmt::format("lp_solve: adding the {} failed", what));
      }
    };

    indices = {value_column};
    coefficients = {1.0};
    if (!set_obj_fnex(lp, 1, coefficients.data(), indices.data())) {
      throw SolverError("lp_solve: setting the objective failed");
    }
    set_maxim(lp);

    set_add_rowmode(lp, TRUE);
    for (int j = 0; j < columns; ++j) {  // sum_i B(i,j) p_i - v >= 0
      indices.clear();
      coefficients.clear();
      for (int i = 0; i < rows; ++i) {
        if (scaled(i, j) != 0.0) {
          indices.push_back(i + 1);
          coefficients.push_back(scaled(i, j));
        }
      }
      indices.push_back(value_column);
      coefficients.push_back(-1.0);
      add_row(GE, 0.0, "payoff constraint");
    }
    indices.clear();
    coefficients.clear();
    for (int i = 0; i < rows; ++i) {  // sum_i p_i = 1
      indices.push_back(i + 1);
      coefficients.push_back(1.0);
    }
    add_row(EQ, 1.0, "simplex constraint");
    set_add_rowmode(lp, FALSE);

    const int status = solve(lp);
    if (status != OPTIMAL && status != PRESOLVED) {
      throw SolverError(fmt::format("lp_solve: {} (status {})", lp_status_name(status), status));
    }
    std::vector<REAL> variables(static_cast<std::size_t>(value_column));
    if (!get_variables(lp, variables.data())) throw SolverError("lp_solve: get_variables failed");

    // Round the simplex solution back onto the probability simplex.
    MaximinResult result;
    result.strategy = Eigen::Map<const Eigen::VectorXd>(variables.data(), rows).cwiseMax(0.0);
    const double total = result.strategy.sum();
    if (!(total > 0.0)) throw SolverError("lp_solve: returned a strategy with no positive weight");
    result.strategy /= total;
    result.value = guaranteed_row_payoff(payoff, result.strategy);
    return result;
  }
};

}  // namespace

std::unique_ptr<LpBackend> make_lp_solve_backend() { return std::make_unique<LpSolveBackend>(); }

// Eq. 2.47 gives the row player's p; Eq. 2.48, the column player's min_q max_i (A q)_i, is the
// maximin problem of the game -A^T.
MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff, const LpBackend& backend) {
  validate_payoff(payoff);
  const MaximinResult row = backend.maximin(payoff);
  const MaximinResult column = backend.maximin(-payoff.transpose());

  MatrixGameSolution solution;
  solution.value = row.value;
  solution.row_strategy = row.strategy;
  solution.column_strategy = column.strategy;
  solution.duality_gap = (payoff * column.strategy).maxCoeff() - row.value;
  return solution;
}

MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff) {
  static const std::unique_ptr<LpBackend> backend = make_lp_solve_backend();
  return solve_matrix_game(payoff, *backend);
}

}  // namespace mpg
