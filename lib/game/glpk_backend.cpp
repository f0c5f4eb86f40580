// GLPK backend of the matrix-game LPs (see matrix_game.cpp for the formulation). One LP, the
// row player's (thesis Eq. 2.47), with
//   structural variables: 1 = v (free), 2.. = p_i;
//   constraints:          1 = sum_i p_i = 1,  2.. = sum_i S(i,j) p_i - v >= c_j, one per column.
// By LP duality the column player's strategy (Eq. 2.48) is q_j = -(dual of constraint j+1).
// A new row of the game is a new variable (nonbasic at 0: the old basis stays primal feasible),
// a new column a new constraint (its slack basic: the old basis stays dual feasible). So a solve
// after new rows only restarts the primal simplex from the previous optimal basis, any other the
// dual simplex (the reference's half-steps add one row or one column per solve: on the Hansards
// games of Table XIII the primal restart takes half the pivots of the dual one's phase 1).
#include "lib/game/glpk_backend.hpp"

#include <glpk.h>

#include <fmt/format.h>

#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"

namespace mpg {
namespace detail {
namespace {

glp_smcp game_lp_settings() {
  glp_smcp settings;
  glp_init_smcp(&settings);
  settings.msg_lev = GLP_MSG_OFF;
  settings.meth = GLP_DUALP;  // dual simplex, primal if it fails
  settings.presolve = GLP_OFF;
  // Feasibility tolerances well below the double oracle's gap tolerance (defaults: 1e-7).
  settings.tol_bnd = 1e-10;
  settings.tol_dj = 1e-10;
  return settings;
}

// At these tolerances GLPK's dual simplex with Harris' ratio test can cycle: a warm-started
// 24-constraint restricted F1 game (OPTDIGITS class 5, lambda = 2^-5) pivoted without end
// (tests/data/glpk_cycling_game_lp.txt). So each call is capped at 20 pivots per row and
// column (a solve normally takes ~1 per row), and a capped or failed warm start is retried
// from an advanced initial basis, then with the primal simplex.
int solve_game_lp(glp_prob* lp, glp_smcp settings) {
  settings.it_lim = 20 * (glp_get_num_rows(lp) + glp_get_num_cols(lp)) + 1000;
  int code = glp_simplex(lp, &settings);
  if (code == 0 && glp_get_status(lp) == GLP_OPT) return code;
  glp_adv_basis(lp, 0);
  code = glp_simplex(lp, &settings);
  if (code == 0 && glp_get_status(lp) == GLP_OPT) return code;
  glp_adv_basis(lp, 0);
  settings.meth = GLP_PRIMAL;
  return glp_simplex(lp, &settings);
}

}  // namespace

GameLpReport solve_game_lp_text(std::istream& text) {
  auto fail = [](const std::string& what) { throw Error("game LP text: " + what); };
  int rows = 0, columns = 0;
  if (!(text >> rows >> columns) || rows < 1 || columns < 1) fail("bad size line");
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
  glp_set_obj_dir(lp.get(), GLP_MAX);
  glp_add_rows(lp.get(), rows);
  glp_add_cols(lp.get(), columns);
  std::vector<int> row_status(rows + 1), column_status(columns + 1);
  for (int r = 1; r <= rows; ++r) {
    std::string tag;
    int type = 0, length = 0;
    double lower = 0.0, upper = 0.0;
    if (!(text >> tag >> type >> lower >> upper >> row_status[r] >> length) || tag != "row" ||
        length < 0 || length > columns)
      fail(fmt::format("bad row {}", r));
    std::vector<int> index(length + 1);
    std::vector<double> value(length + 1);
    for (int k = 1; k <= length; ++k)
      if (!(text >> index[k] >> value[k])) fail(fmt::format("bad entry {} of row {}", k, r));
    glp_set_row_bnds(lp.get(), r, type, lower, upper);
    glp_set_mat_row(lp.get(), r, length, index.data(), value.data());
  }
  for (int c = 1; c <= columns; ++c) {
    std::string tag;
    int type = 0;
    double lower = 0.0, upper = 0.0, objective = 0.0;
    if (!(text >> tag >> type >> lower >> upper >> objective >> column_status[c]) ||
        tag != "column")
      fail(fmt::format("bad column {}", c));
    glp_set_col_bnds(lp.get(), c, type, lower, upper);
    glp_set_obj_coef(lp.get(), c, objective);
  }
  for (int r = 1; r <= rows; ++r) glp_set_row_stat(lp.get(), r, row_status[r]);
  for (int c = 1; c <= columns; ++c) glp_set_col_stat(lp.get(), c, column_status[c]);
  GameLpReport report;
  const int code = solve_game_lp(lp.get(), game_lp_settings());
  report.optimal = code == 0 && glp_get_status(lp.get()) == GLP_OPT;
  report.objective = glp_get_obj_val(lp.get());
  report.pivots = glp_get_it_cnt(lp.get());
  return report;
}

}  // namespace detail

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
    parameters_ = detail::game_lp_settings();
  }
  ~GlpkGame() override { glp_delete_prob(lp_); }
  GlpkGame(const GlpkGame&) = delete;
  GlpkGame& operator=(const GlpkGame&) = delete;

 protected:
  void lp_add_row(const Eigen::VectorXd& row_scores) override { add_row_variable(row_scores); }
  void lp_add_column(const Eigen::VectorXd& column_scores, double offset) override {
    add_column_constraint(column_scores, offset);
    primal_feasible_ = false;
  }

  // Offsets are constraint bounds: the old basis stays dual feasible.
  void lp_set_offsets(const Eigen::VectorXd& offsets) override {
    primal_feasible_ = false;
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
    primal_feasible_ = false;
  }

  std::pair<Eigen::VectorXd, Eigen::VectorXd> lp_solve_strategies() override {
    auto strategies = solve_once();
    // A warm basis repaired after removals can end "optimal" with strategies that are not
    // distributions (all-zero duals); solve again from a fresh basis before giving up.
    if (!(strategies.first.sum() > 0.0) || !(strategies.second.sum() > 0.0)) {
      glp_adv_basis(lp_, 0);
      primal_feasible_ = false;
      strategies = solve_once();
    }
    return strategies;
  }

 private:
  std::pair<Eigen::VectorXd, Eigen::VectorXd> solve_once() {
    glp_smcp parameters = parameters_;
    if (primal_feasible_) parameters.meth = GLP_PRIMAL;
    const int code = detail::solve_game_lp(lp_, parameters);
    primal_feasible_ = code == 0 && glp_get_status(lp_) == GLP_OPT;
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
  // The basis left by the last solve is optimal and only variables were added since (new
  // nonbasic at 0): still primal feasible.
  bool primal_feasible_ = false;
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
