// The compact LP relaxation (6) of the AUC supplement and the unimodularity check of (7).
#include <glpk.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <memory>

#include "lib/base/error.hpp"
#include "lib/models/structured_auc.hpp"

namespace mpg {

double ranking_score(const RankingPotentials& potentials, const NestedRanking& z) {
  if (const std::string violation = nested_ranking_violation(z); !violation.empty())
    throw Error("ranking_score: invalid nested ranking: " + violation);
  const int n = potentials.items();
  if (z.rows() != n || potentials.unary_off.size() != n)
    throw Error("ranking_score: potentials for " + std::to_string(n) + " items, ranking of " + std::to_string(z.rows()));
  double score = 0.0;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) score += z(k, i) ? potentials.unary_on(i) : potentials.unary_off(i);
    for (const RankingFactor& f : potentials.factors) score += f.theta[2 * z(k, f.i) + z(k, f.j)];
  }
  return score;
}

RankingLpResult solve_ranking_lp(const RankingPotentials& potentials) {
  const auto start = std::chrono::steady_clock::now();
  const int n = potentials.items();
  if (n < 1 || potentials.unary_off.size() != n) throw Error("solve_ranking_lp: needs unary potentials for n >= 1 items");
  for (const RankingFactor& f : potentials.factors)
    if (f.i < 0 || f.j < 0 || f.i >= n || f.j >= n || f.i == f.j)
      throw Error("solve_ranking_lp: factor (" + std::to_string(f.i) + ", " + std::to_string(f.j) + ") is not a pair of items");
  const int factors = static_cast<int>(potentials.factors.size());
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
  glp_set_obj_dir(lp.get(), GLP_MAX);
  // Columns: mu(k, i) = mu_ki(1) at 1 + k n + i, then tau(k, f) = mu_kf(1, 1) at 1 + n^2 + k F + f.
  auto mu = [n](int k, int i) { return 1 + k * n + i; };
  auto tau = [n, factors](int k, int f) { return 1 + n * n + k * factors + f; };
  glp_add_cols(lp.get(), n * n + n * factors);
  // theta_i(z) = theta_i(0) + z (theta_i(1) - theta_i(0)); theta_f over (mu_i, mu_j, tau) with
  // mu_f(1,0) = mu_i - tau, mu_f(0,1) = mu_j - tau, mu_f(0,0) = 1 - mu_i - mu_j + tau.
  double constant = 0.0;
  std::vector<double> unary(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    constant += n * potentials.unary_off(i);
    unary[static_cast<std::size_t>(i)] = potentials.unary_on(i) - potentials.unary_off(i);
  }
  for (const RankingFactor& f : potentials.factors) {
    constant += n * f.theta[0];
    unary[static_cast<std::size_t>(f.i)] += f.theta[2] - f.theta[0];
    unary[static_cast<std::size_t>(f.j)] += f.theta[1] - f.theta[0];
  }
  glp_set_obj_coef(lp.get(), 0, constant);
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      glp_set_col_bnds(lp.get(), mu(k, i), GLP_DB, 0.0, 1.0);
      glp_set_obj_coef(lp.get(), mu(k, i), unary[static_cast<std::size_t>(i)]);
    }
    for (int f = 0; f < factors; ++f) {
      const double* t = potentials.factors[static_cast<std::size_t>(f)].theta;
      glp_set_col_bnds(lp.get(), tau(k, f), GLP_DB, 0.0, 1.0);
      glp_set_obj_coef(lp.get(), tau(k, f), t[3] - t[2] - t[1] + t[0]);
    }
  }
  // GLPK's 1-based row buffers: a row has up to max(n, 3) entries.
  std::vector<int> index(static_cast<std::size_t>(std::max(n, 3)) + 1);
  std::vector<double> value(index.size());
  auto add_row = [&](int length, int type, double low, double high) {
    const int row = glp_add_rows(lp.get(), 1);
    glp_set_mat_row(lp.get(), row, length, index.data(), value.data());
    glp_set_row_bnds(lp.get(), row, type, low, high);
  };
  for (int k = 0; k < n; ++k) {  // sum_i mu_ki(1) = k (levels 1-based)
    for (int i = 0; i < n; ++i) index[static_cast<std::size_t>(i) + 1] = mu(k, i), value[static_cast<std::size_t>(i) + 1] = 1.0;
    add_row(n, GLP_FX, k + 1.0, k + 1.0);
  }
  for (int k = 0; k + 1 < n; ++k)  // mu_{k+1,i}(1) - mu_ki(1) >= 0
    for (int i = 0; i < n; ++i) {
      index[1] = mu(k + 1, i), value[1] = 1.0, index[2] = mu(k, i), value[2] = -1.0;
      add_row(2, GLP_LO, 0.0, 0.0);
    }
  for (int k = 0; k < n; ++k)  // local polytope of each factor
    for (int f = 0; f < factors; ++f) {
      const RankingFactor& factor = potentials.factors[static_cast<std::size_t>(f)];
      index[1] = tau(k, f), value[1] = 1.0, index[2] = mu(k, factor.i), value[2] = -1.0;
      add_row(2, GLP_UP, 0.0, 0.0);
      index[2] = mu(k, factor.j);
      add_row(2, GLP_UP, 0.0, 0.0);
      index[2] = mu(k, factor.i), index[3] = mu(k, factor.j), value[3] = -1.0;
      add_row(3, GLP_LO, -1.0, 0.0);
    }
  glp_smcp control;
  glp_init_smcp(&control);
  control.msg_lev = GLP_MSG_OFF;
  const int code = glp_simplex(lp.get(), &control);
  if (code != 0 || glp_get_status(lp.get()) != GLP_OPT)
    throw SolverError("solve_ranking_lp: GLPK did not find an optimum (code " + std::to_string(code) + ", status " +
                      std::to_string(glp_get_status(lp.get())) + ")");
  RankingLpResult result;
  result.value = glp_get_obj_val(lp.get());
  result.rows = glp_get_num_rows(lp.get());
  result.columns = glp_get_num_cols(lp.get());
  result.marginals.resize(n, n);
  result.integral = true;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      const double m = glp_get_col_prim(lp.get(), mu(k, i));
      result.marginals(k, i) = m;
      if (std::min(std::abs(m), std::abs(1.0 - m)) > 1e-9) result.integral = false;
    }
  if (result.integral) {
    NestedRanking z = (result.marginals.array() > 0.5).cast<int>().matrix();
    if (nested_ranking_violation(z).empty()) {
      result.order = order_from_nested(z);
    } else {
      result.integral = false;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Eigen::MatrixXi nested_constraint_matrix(int n) {
  if (n < 1) throw Error("nested_constraint_matrix: n must be >= 1");
  Eigen::MatrixXi a = Eigen::MatrixXi::Zero(2 * n + n * (n - 1), n * n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      a(k, i * n + k) = 1;
      a(n + k, i * n + k) = -1;
    }
    for (int k = 0; k + 1 < n; ++k) {
      a(2 * n + i * (n - 1) + k, i * n + k) = 1;
      a(2 * n + i * (n - 1) + k, i * n + k + 1) = -1;
    }
  }
  return a;
}

namespace {

// Exact determinant of a small integer matrix by fraction-free (Bareiss) elimination.
long long integer_determinant(Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic> m) {
  const long n = m.rows();
  long long sign = 1, previous = 1;
  for (long k = 0; k < n; ++k) {
    if (m(k, k) == 0) {
      long swap = k + 1;
      while (swap < n && m(swap, k) == 0) ++swap;
      if (swap == n) return 0;
      m.row(k).swap(m.row(swap));
      sign = -sign;
    }
    for (long i = k + 1; i < n; ++i)
      for (long j = k + 1; j < n; ++j) m(i, j) = (m(i, j) * m(k, k) - m(i, k) * m(k, j)) / previous;
    previous = m(k, k);
  }
  return sign * m(n - 1, n - 1);
}

}  // namespace

bool is_totally_unimodular(const Eigen::MatrixXi& a) {
  const long rows = a.rows(), cols = a.cols();
  if (rows > 24 || cols > 24) throw Error("is_totally_unimodular: brute force is for matrices up to 24 x 24");
  for (std::uint32_t row_mask = 1; row_mask < (1u << rows); ++row_mask) {
    const int size = std::popcount(row_mask);
    if (size > cols) continue;
    for (std::uint32_t col_mask = 1; col_mask < (1u << cols); ++col_mask) {
      if (std::popcount(col_mask) != size) continue;
      Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic> sub(size, size);
      int r = 0;
      for (long i = 0; i < rows; ++i) {
        if (!(row_mask >> i & 1u)) continue;
        int c = 0;
        for (long j = 0; j < cols; ++j)
          if (col_mask >> j & 1u) sub(r, c++) = a(i, j);
        ++r;
      }
      const long long det = integer_determinant(sub);
      if (det < -1 || det > 1) return false;
    }
  }
  return true;
}

}  // namespace mpg
