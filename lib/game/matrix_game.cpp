// Matrix games by linear programming (thesis Eq. 2.47/2.48): the part shared by all backends.
//
// For A = S - 1 c^T the two players' LPs keep the offsets outside the constraint matrix:
//   row player (2.47):    max v        s.t. sum_i S(i,j) p_i - v >= c_j  (each column j),
//                                           sum_i p_i = 1,  p >= 0,  v free;
//   column player (2.48): min w - c.q  s.t. sum_j S(i,j) q_j - w <= 0    (each row i),
//                                           sum_j q_j = 1,  q >= 0,  w free,
// where w = max_i (S q)_i, so that w - c.q = max_i (A q)_i. The column player's LP is the dual
// of the row player's: q are the duals of the row LP's column constraints.
#include "lib/game/matrix_game.hpp"

#include <fmt/format.h>

#include <cmath>

#include "lib/base/error.hpp"
#include "lib/game/working_set_game.hpp"

namespace mpg {
namespace {

void check_finite(const Eigen::MatrixXd& values, const char* what) {
  for (Eigen::Index j = 0; j < values.cols(); ++j)
    for (Eigen::Index i = 0; i < values.rows(); ++i)
      if (!std::isfinite(values(i, j)))
        throw Error(fmt::format("{} has a non-finite entry {} at ({},{})", what, values(i, j), i, j));
}

// Rounds an LP solution back onto the probability simplex.
Eigen::VectorXd to_probabilities(const Eigen::VectorXd& weights, const char* player) {
  Eigen::VectorXd p = weights.cwiseMax(0.0);
  const double total = p.sum();
  if (!(total > 0.0))
    throw SolverError(fmt::format("LP solver: the {} player's strategy has no positive weight", player));
  return p / total;
}

}  // namespace

GrowingMatrixGame::GrowingMatrixGame(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets)
    : storage_(scores), offset_storage_(offsets), rows_(scores.rows()), columns_(scores.cols()) {
  if (scores.size() == 0)
    throw Error(fmt::format("payoff matrix is empty ({}x{})", scores.rows(), scores.cols()));
  if (offsets.size() != scores.cols())
    throw Error(fmt::format("{} column offsets for {} columns", offsets.size(), scores.cols()));
  check_finite(scores, "payoff matrix");
  check_finite(offsets, "column offset vector");
}

void GrowingMatrixGame::add_row(const Eigen::VectorXd& scores) {
  if (scores.size() != columns())
    throw Error(fmt::format("a new row needs {} scores, got {}", columns(), scores.size()));
  check_finite(scores, "new row");
  if (rows_ == storage_.rows()) storage_.conservativeResize(2 * rows_ + 1, Eigen::NoChange);
  storage_.row(rows_).head(columns_) = scores.transpose();
  ++rows_;
  lp_add_row(scores);
}

void GrowingMatrixGame::add_column(const Eigen::VectorXd& scores, double offset) {
  if (scores.size() != rows())
    throw Error(fmt::format("a new column needs {} scores, got {}", rows(), scores.size()));
  check_finite(scores, "new column");
  if (!std::isfinite(offset)) throw Error("a new column's offset is not finite");
  if (columns_ == storage_.cols()) {
    storage_.conservativeResize(Eigen::NoChange, 2 * columns_ + 1);
    offset_storage_.conservativeResize(2 * columns_ + 1);
  }
  storage_.col(columns_).head(rows_) = scores;
  offset_storage_[columns_] = offset;
  ++columns_;
  lp_add_column(scores, offset);
}

void GrowingMatrixGame::set_offsets(const Eigen::VectorXd& offsets) {
  if (offsets.size() != columns_)
    throw Error(fmt::format("{} column offsets for {} columns", offsets.size(), columns_));
  check_finite(offsets, "column offset vector");
  offset_storage_.head(columns_) = offsets;
  lp_set_offsets(offsets);
}

void GrowingMatrixGame::remove(const std::vector<Eigen::Index>& rows_to_remove,
                               const std::vector<Eigen::Index>& columns_to_remove) {
  auto keep = [](Eigen::Index size, const std::vector<Eigen::Index>& removed) {
    std::vector<Eigen::Index> kept;
    std::size_t r = 0;
    for (Eigen::Index i = 0; i < size; ++i) {
      if (r < removed.size() && removed[r] == i) {
        ++r;
      } else {
        kept.push_back(i);
      }
    }
    if (r != removed.size()) throw Error("indices to remove must be increasing and in range");
    return kept;
  };
  const auto kept_rows = keep(rows(), rows_to_remove);
  const auto kept_columns = keep(columns(), columns_to_remove);
  if (kept_rows.empty() || kept_columns.empty()) throw Error("cannot remove every row or column");
  lp_remove(rows_to_remove, columns_to_remove);
  const Eigen::MatrixXd kept_scores = storage_(kept_rows, kept_columns);
  const Eigen::VectorXd kept_offsets = offset_storage_(kept_columns);
  rows_ = kept_scores.rows();
  columns_ = kept_scores.cols();
  storage_.topLeftCorner(rows_, columns_) = kept_scores;
  offset_storage_.head(columns_) = kept_offsets;
}

MatrixGameSolution GrowingMatrixGame::solve() {
  auto [p, q] = lp_solve_strategies();
  MatrixGameSolution solution;
  solution.row_strategy = to_probabilities(p, "row");
  solution.column_strategy = to_probabilities(q, "column");
  // Values recomputed from the strategies: v = min_j (p^T A)_j, gap = max_i (A q)_i - v.
  const Eigen::RowVectorXd row_payoffs =
      solution.row_strategy.transpose() * scores() - offsets().transpose();
  const Eigen::VectorXd column_payoffs =
      (scores() * solution.column_strategy).array() - offsets().dot(solution.column_strategy);
  solution.value = row_payoffs.minCoeff();
  solution.duality_gap = column_payoffs.maxCoeff() - solution.value;
  return solution;
}

std::unique_ptr<LpBackend> make_lp_backend(const std::string& name) {
  if (name == "glpk") return make_working_set_backend(make_glpk_backend());
  if (name == "lp_solve") return make_working_set_backend(make_lp_solve_backend());
  throw Error("unknown LP backend '" + name + "' (expected glpk or lp_solve)");
}

const LpBackend& default_lp_backend() {
  static const std::unique_ptr<LpBackend> backend = make_lp_backend("glpk");
  return *backend;
}

MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff, const LpBackend& backend) {
  return backend.new_game(payoff, Eigen::VectorXd::Zero(payoff.cols()))->solve();
}

MatrixGameSolution solve_matrix_game(const Eigen::MatrixXd& payoff) {
  return solve_matrix_game(payoff, default_lp_backend());
}

}  // namespace mpg
