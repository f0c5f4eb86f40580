// GLPK backend of the matrix-game LPs (see matrix_game.cpp for the formulation). One LP, the
// row player's (thesis Eq. 2.47), with
//   structural variables: 1 = v (free), 2.. = p_i;
//   constraints:          1 = sum_i p_i = 1,  2.. = sum_i S(i,j) p_i - v >= c_j, one per column.
// By LP duality the column player's strategy (Eq. 2.48) is q_j = -(dual of constraint j+1).
// A new row of the game is a new variable (nonbasic at 0: the old basis stays primal feasible),
// a new column a new constraint (its slack basic: the old basis stays dual feasible), so the
// dual simplex restarts from the previous optimal basis.
#include <glpk.h>

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "lib/error.hpp"
#include "lib/matrix_game.hpp"

namespace mpg {
namespace {

std::string glpk_return_name(int code) {
  switch (code) {
    case 0: return "ok";
    case GLP_EBADB: return "invalid basis";
    case GLP_ESING: return "singular basis matrix";
    case GLP_ECOND: return "ill-conditioned basis matrix";
    case GLP_EBOUND: return "invalid bounds";
    case GLP_EFAIL: return "solver failure";
    case GLP_EOBJLL: return "objective lower limit reached";
    case GLP_EOBJUL: return "objective upper limit reached";
    case GLP_EITLIM: return "iteration limit";
    case GLP_ETMLIM: return "time limit";
    case GLP_ENOPFS: return "no primal feasible solution";
    case GLP_ENODFS: return "no dual feasible solution";
    default: return "error code " + std::to_string(code);
  }
}

std::string glpk_status_name(int status) {
  switch (status) {
    case GLP_OPT: return "optimal";
    case GLP_FEAS: return "feasible, not proven optimal";
    case GLP_INFEAS: return "infeasible";
    case GLP_NOFEAS: return "no feasible solution";
    case GLP_UNBND: return "unbounded";
    case GLP_UNDEF: return "undefined";
    default: return "status " + std::to_string(status);
  }
}

class GlpkGame final : public GrowingMatrixGame {
 public:
  GlpkGame(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets)
      : GrowingMatrixGame(scores, offsets), lp_(glp_create_prob()) {
    glp_term_out(GLP_OFF);  // glp_adv_basis reports to the terminal otherwise
    glp_set_obj_dir(lp_, GLP_MAX);
    glp_add_cols(lp_, 1);
    glp_set_col_bnds(lp_, 1, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp_, 1, 1.0);
    glp_add_rows(lp_, 1);
    glp_set_row_bnds(lp_, 1, GLP_FX, 1.0, 1.0);
    for (Eigen::Index j = 0; j < scores.cols(); ++j) add_column_constraint(Eigen::VectorXd(), offsets[j]);
    for (Eigen::Index i = 0; i < scores.rows(); ++i) add_row_variable(scores.row(i).transpose());
    glp_init_smcp(&parameters_);
    parameters_.msg_lev = GLP_MSG_OFF;
    parameters_.meth = GLP_DUALP;  // dual simplex, primal if it fails
    parameters_.presolve = GLP_OFF;
    // Feasibility tolerances well below the double oracle's gap tolerance (defaults: 1e-7).
    parameters_.tol_bnd = 1e-10;
    parameters_.tol_dj = 1e-10;
  }
  ~GlpkGame() override { glp_delete_prob(lp_); }
  GlpkGame(const GlpkGame&) = delete;
  GlpkGame& operator=(const GlpkGame&) = delete;

 protected:
  void lp_add_row(const Eigen::VectorXd& row_scores) override { add_row_variable(row_scores); }
  void lp_add_column(const Eigen::VectorXd& column_scores, double offset) override {
    add_column_constraint(column_scores, offset);
  }

  // Offsets are constraint bounds: the old basis stays dual feasible.
  void lp_set_offsets(const Eigen::VectorXd& offsets) override {
    for (Eigen::Index j = 0; j < offsets.size(); ++j)
      glp_set_row_bnds(lp_, static_cast<int>(j) + 2, GLP_LO, offsets[j], 0.0);
  }

  void lp_remove(const std::vector<Eigen::Index>& rows_to_remove,
                 const std::vector<Eigen::Index>& columns_to_remove) override {
    // Game row i is LP variable i + 2, game column j is LP constraint j + 2 (1-based arrays).
    std::vector<int> numbers(1, 0);
    for (auto i : rows_to_remove) numbers.push_back(static_cast<int>(i) + 2);
    if (numbers.size() > 1) glp_del_cols(lp_, static_cast<int>(numbers.size()) - 1, numbers.data());
    numbers.assign(1, 0);
    for (auto j : columns_to_remove) numbers.push_back(static_cast<int>(j) + 2);
    if (numbers.size() > 1) glp_del_rows(lp_, static_cast<int>(numbers.size()) - 1, numbers.data());
    repair_basis();
  }

  std::pair<Eigen::VectorXd, Eigen::VectorXd> lp_solve_strategies() override {
    auto strategies = solve_once();
    // A warm basis repaired after removals can end "optimal" with strategies that are not
    // distributions (all-zero duals); solve again from a fresh basis before giving up.
    if (!(strategies.first.sum() > 0.0) || !(strategies.second.sum() > 0.0)) {
      glp_adv_basis(lp_, 0);
      strategies = solve_once();
    }
    return strategies;
  }

 private:
  std::pair<Eigen::VectorXd, Eigen::VectorXd> solve_once() {
    int code = glp_simplex(lp_, &parameters_);
    if (code != 0 || glp_get_status(lp_) != GLP_OPT) {
      // A warm start that went numerically wrong: restart from an advanced initial basis.
      glp_adv_basis(lp_, 0);
      code = glp_simplex(lp_, &parameters_);
    }
    if (code != 0 || glp_get_status(lp_) != GLP_OPT)
      throw SolverError(fmt::format("GLPK: the {}x{} game's LP ended with {} ({})", rows(),
                                    columns(), glpk_return_name(code),
                                    glpk_status_name(glp_get_status(lp_))));
    Eigen::VectorXd p(rows());
    for (Eigen::Index i = 0; i < rows(); ++i) p[i] = glp_get_col_prim(lp_, static_cast<int>(i) + 2);
    Eigen::VectorXd q(columns());
    for (Eigen::Index j = 0; j < columns(); ++j)
      q[j] = -glp_get_row_dual(lp_, static_cast<int>(j) + 2);
    return {std::move(p), std::move(q)};
  }

  // Deleting basic variables or constraints with non-basic slacks leaves too few or too many
  // basic variables. Restore the count while keeping the rest of the warm basis: make slacks of
  // the remaining constraints basic, or make zero-valued strategy variables non-basic. If the
  // result is singular, the solve falls back to a fresh basis.
  void repair_basis() {
    int excess = count_basic() - glp_get_num_rows(lp_);
    for (int i = 1; i <= glp_get_num_rows(lp_) && excess < 0; ++i) {
      if (glp_get_row_stat(lp_, i) != GLP_BS) {
        glp_set_row_stat(lp_, i, GLP_BS);
        ++excess;
      }
    }
    for (int j = glp_get_num_cols(lp_); j >= 2 && excess > 0; --j) {
      if (glp_get_col_stat(lp_, j) == GLP_BS && glp_get_col_prim(lp_, j) == 0.0) {
        glp_set_col_stat(lp_, j, GLP_NL);
        --excess;
      }
    }
    if (excess != 0) glp_adv_basis(lp_, 0);
  }

  int count_basic() const {
    int basic = 0;
    for (int i = 1; i <= glp_get_num_rows(lp_); ++i) basic += glp_get_row_stat(lp_, i) == GLP_BS;
    for (int j = 1; j <= glp_get_num_cols(lp_); ++j) basic += glp_get_col_stat(lp_, j) == GLP_BS;
    return basic;
  }

  // p_new >= 0 with coefficient 1 in the simplex constraint and S(new, j) in constraint j + 2.
  void add_row_variable(const Eigen::VectorXd& row_scores) {
    const int column = glp_add_cols(lp_, 1);
    glp_set_col_bnds(lp_, column, GLP_LO, 0.0, 0.0);
    indices_.assign(1, 0);  // GLPK arrays are 1-based
    values_.assign(1, 0.0);
    indices_.push_back(1);
    values_.push_back(1.0);
    for (Eigen::Index j = 0; j < row_scores.size(); ++j) {
      if (row_scores[j] != 0.0) {
        indices_.push_back(static_cast<int>(j) + 2);
        values_.push_back(row_scores[j]);
      }
    }
    glp_set_mat_col(lp_, column, static_cast<int>(indices_.size()) - 1, indices_.data(), values_.data());
  }

  // sum_i S(i, new) p_i - v >= offset.
  void add_column_constraint(const Eigen::VectorXd& column_scores, double offset) {
    const int row = glp_add_rows(lp_, 1);
    glp_set_row_bnds(lp_, row, GLP_LO, offset, 0.0);
    indices_.assign(1, 0);
    values_.assign(1, 0.0);
    indices_.push_back(1);
    values_.push_back(-1.0);
    for (Eigen::Index i = 0; i < column_scores.size(); ++i) {
      if (column_scores[i] != 0.0) {
        indices_.push_back(static_cast<int>(i) + 2);
        values_.push_back(column_scores[i]);
      }
    }
    glp_set_mat_row(lp_, row, static_cast<int>(indices_.size()) - 1, indices_.data(), values_.data());
  }

  glp_prob* lp_;
  glp_smcp parameters_;
  std::vector<int> indices_;
  std::vector<double> values_;
};

class GlpkBackend final : public LpBackend {
 public:
  std::string name() const override { return "glpk"; }
  std::unique_ptr<GrowingMatrixGame> new_game(const Eigen::MatrixXd& scores,
                                              const Eigen::VectorXd& offsets) const override {
    return std::make_unique<GlpkGame>(scores, offsets);
  }
};

}  // namespace

std::unique_ptr<LpBackend> make_glpk_backend() { return std::make_unique<GlpkBackend>(); }

}  // namespace mpg
