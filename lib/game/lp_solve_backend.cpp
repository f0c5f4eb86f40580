// lp_solve 5.5 backend of the matrix-game LPs (see matrix_game.cpp for the formulation):
// one LP per player, each grown in place and re-solved from its previous basis.
#include <fmt/format.h>

#include <memory>
#include <variant>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/game/matrix_game.hpp"

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

// One player's LP: variable 1 is the free value variable, variables 2.. are the strategy;
// constraint 1 is sum(strategy) = 1, constraints 2.. are one per opponent action.
class PlayerLp {
 public:
  // sense: +1 for the row player (max v, constraints >=), -1 for the column player.
  explicit PlayerLp(int sense) : sense_(sense), lp_(make_lp(0, 1)) {
    if (lp_ == nullptr) throw SolverError("lp_solve: make_lp failed");
    set_verbose(lp_, CRITICAL);
    set_unbounded(lp_, 1);
    REAL one = 1.0;
    int value_column = 1;
    set_obj_fnex(lp_, 1, &one, &value_column);
    if (sense_ > 0) set_maxim(lp_); else set_minim(lp_);
    int column = 1;
    REAL zero = 0.0;
    if (!add_constraintex(lp_, 1, &zero, &column, EQ, 1.0))
      throw SolverError("lp_solve: adding the simplex constraint failed");
  }
  ~PlayerLp() { delete_lp(lp_); }
  PlayerLp(const PlayerLp&) = delete;
  PlayerLp& operator=(const PlayerLp&) = delete;

  // A strategy variable with objective coefficient `cost` and constraint coefficients `scores`
  // against the existing opponent actions.
  void add_strategy_variable(const Eigen::VectorXd& scores, double cost) {
    rownos_.clear();
    values_.clear();
    rownos_.push_back(0);
    values_.push_back(cost);
    rownos_.push_back(1);
    values_.push_back(1.0);
    for (Eigen::Index j = 0; j < scores.size(); ++j) {
      if (scores[j] != 0.0) {
        rownos_.push_back(static_cast<int>(j) + 2);
        values_.push_back(scores[j]);
      }
    }
    if (!add_columnex(lp_, static_cast<int>(rownos_.size()), values_.data(), rownos_.data()))
      throw SolverError("lp_solve: adding a strategy variable failed");
    ++strategy_size_;
  }

  // A constraint for a new opponent action: sum_k scores_k x_k - value (>= or <=) rhs.
  void add_opponent_constraint(const Eigen::VectorXd& scores, double rhs) {
    rownos_.clear();
    values_.clear();
    rownos_.push_back(1);
    values_.push_back(-1.0);
    for (Eigen::Index k = 0; k < scores.size(); ++k) {
      if (scores[k] != 0.0) {
        rownos_.push_back(static_cast<int>(k) + 2);
        values_.push_back(scores[k]);
      }
    }
    if (!add_constraintex(lp_, static_cast<int>(rownos_.size()), values_.data(), rownos_.data(),
                          sense_ > 0 ? GE : LE, rhs))
      throw SolverError("lp_solve: adding a constraint failed");
  }

  // Deletes strategy variables and opponent constraints (0-based, increasing).
  void remove(const std::vector<Eigen::Index>& strategy_indices,
              const std::vector<Eigen::Index>& opponent_indices) {
    for (auto k = strategy_indices.rbegin(); k != strategy_indices.rend(); ++k)
      if (!del_column(lp_, static_cast<int>(*k) + 2)) throw SolverError("lp_solve: del_column failed");
    for (auto k = opponent_indices.rbegin(); k != opponent_indices.rend(); ++k)
      if (!del_constraint(lp_, static_cast<int>(*k) + 2))
        throw SolverError("lp_solve: del_constraint failed");
    strategy_size_ -= static_cast<Eigen::Index>(strategy_indices.size());
  }

  // The optimal strategy (unnormalized), or the lp_solve status if the LP was not solved.
  std::variant<Eigen::VectorXd, int> solve_strategy() {
    const int status = ::solve(lp_);
    if (status != OPTIMAL && status != PRESOLVED) return status;
    variables_.resize(static_cast<std::size_t>(strategy_size_) + 1);
    if (!get_variables(lp_, variables_.data())) throw SolverError("lp_solve: get_variables failed");
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(variables_.data() + 1, strategy_size_));
  }

 private:
  int sense_;
  lprec* lp_;
  Eigen::Index strategy_size_ = 0;
  std::vector<int> rownos_;
  std::vector<REAL> values_;
  std::vector<REAL> variables_;
};

class LpSolveGame final : public GrowingMatrixGame {
 public:
  LpSolveGame(const Eigen::MatrixXd& scores, const Eigen::VectorXd& offsets)
      : GrowingMatrixGame(scores, offsets) {
    build();
  }

 protected:
  void lp_add_row(const Eigen::VectorXd& row_scores) override {
    row_lp_->add_strategy_variable(row_scores, 0.0);
    column_lp_->add_opponent_constraint(row_scores, 0.0);
  }
  void lp_add_column(const Eigen::VectorXd& column_scores, double offset) override {
    row_lp_->add_opponent_constraint(column_scores, offset);
    column_lp_->add_strategy_variable(column_scores, -offset);
  }
  void lp_set_offsets(const Eigen::VectorXd&) override { build(); }
  void lp_remove(const std::vector<Eigen::Index>& rows_to_remove,
                 const std::vector<Eigen::Index>& columns_to_remove) override {
    row_lp_->remove(rows_to_remove, columns_to_remove);
    column_lp_->remove(columns_to_remove, rows_to_remove);
  }
  std::pair<Eigen::VectorXd, Eigen::VectorXd> lp_solve_strategies() override {
    auto row = row_lp_->solve_strategy();
    auto column = column_lp_->solve_strategy();
    if (row.index() != 0 || column.index() != 0) {
      // lp_solve's warm start can fail numerically after many additions although the same LP
      // solves from scratch: rebuild both LPs once before giving up.
      build();
      row = row_lp_->solve_strategy();
      column = column_lp_->solve_strategy();
    }
    for (auto [result, player] : {std::pair{&row, "row"}, std::pair{&column, "column"}})
      if (const int* status = std::get_if<int>(result))
        throw SolverError(fmt::format("lp_solve: the {} player's LP ended {} (status {}) on a "
                                      "{}x{} game",
                                      player, lp_status_name(*status), *status, rows(), columns()));
    return {std::get<0>(std::move(row)), std::get<0>(std::move(column))};
  }

 private:
  // Poses both LPs for the current scores and offsets.
  void build() {
    row_lp_ = std::make_unique<PlayerLp>(+1);
    column_lp_ = std::make_unique<PlayerLp>(-1);
    for (Eigen::Index j = 0; j < columns(); ++j)
      row_lp_->add_opponent_constraint(Eigen::VectorXd(), offsets()[j]);
    for (Eigen::Index i = 0; i < rows(); ++i) {
      row_lp_->add_strategy_variable(scores().row(i).transpose(), 0.0);
      column_lp_->add_opponent_constraint(Eigen::VectorXd(), 0.0);
    }
    for (Eigen::Index j = 0; j < columns(); ++j)
      column_lp_->add_strategy_variable(scores().col(j), -offsets()[j]);
  }

  std::unique_ptr<PlayerLp> row_lp_;
  std::unique_ptr<PlayerLp> column_lp_;
};

class LpSolveBackend final : public LpBackend {
 public:
  std::string name() const override { return "lp_solve"; }
  std::unique_ptr<GrowingMatrixGame> new_game(const Eigen::MatrixXd& scores,
                                              const Eigen::VectorXd& offsets) const override {
    return std::make_unique<LpSolveGame>(scores, offsets);
  }
};

}  // namespace

std::unique_ptr<LpBackend> make_lp_solve_backend() { return std::make_unique<LpSolveBackend>(); }

}  // namespace mpg
