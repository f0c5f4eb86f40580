// solve_dcg_game: the compact LP of a DCG game (lib/metrics/dcg.hpp) with GLPK, and the
// Birkhoff decomposition of its doubly stochastic solution.
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>

#include "lib/base/error.hpp"
#include "lib/metrics/dcg.hpp"

namespace mpg {
namespace {

struct GlpDelete {
  void operator()(glp_prob* lp) const { glp_delete_prob(lp); }
};

// A perfect matching of rows to columns using only entries >= threshold (Kuhn's augmenting
// paths); match[row] = column, or empty if none exists.
std::vector<int> perfect_matching(const Eigen::MatrixXd& M, double threshold) {
  const int n = static_cast<int>(M.rows());
  std::vector<std::vector<int>> edges(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      if (M(r, c) >= threshold) edges[static_cast<std::size_t>(r)].push_back(c);
  std::vector<int> owner(static_cast<std::size_t>(n), -1);
  std::vector<char> visited;
  std::function<bool(int)> augment = [&](int r) {
    for (int c : edges[static_cast<std::size_t>(r)]) {
      if (visited[static_cast<std::size_t>(c)]) continue;
      visited[static_cast<std::size_t>(c)] = 1;
      if (owner[static_cast<std::size_t>(c)] < 0 || augment(owner[static_cast<std::size_t>(c)])) {
        owner[static_cast<std::size_t>(c)] = r;
        return true;
      }
    }
    return false;
  };
  for (int r = 0; r < n; ++r) {
    visited.assign(static_cast<std::size_t>(n), 0);
    if (!augment(r)) return {};
  }
  std::vector<int> match(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) match[static_cast<std::size_t>(owner[static_cast<std::size_t>(c)])] = c;
  return match;
}

// Birkhoff decomposition, greedy by bottleneck: each step the perfect matching on entries
// >= the largest feasible threshold (binary search over the distinct entries).
MixedStrategy<std::vector<int>> birkhoff(Eigen::MatrixXd M) {
  const int n = static_cast<int>(M.rows());
  MixedStrategy<std::vector<int>> strategy;
  double remaining = 1.0;
  for (int step = 0; step < n * n + 1 && remaining > 1e-9; ++step) {
    std::vector<double> values;
    for (Eigen::Index i = 0; i < M.size(); ++i)
      if (M.data()[i] > 1e-12) values.push_back(M.data()[i]);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.empty()) break;
    std::size_t low = 0, high = values.size();  // the answer index is in [low, high)
    std::vector<int> best = perfect_matching(M, values[0]);
    if (best.empty()) break;  // numerical residue that is not doubly stochastic
    while (high - low > 1) {
      const std::size_t mid = (low + high) / 2;
      std::vector<int> match = perfect_matching(M, values[mid]);
      if (match.empty()) {
        high = mid;
      } else {
        low = mid;
        best = std::move(match);
      }
    }
    double weight = 1.0;
    for (int r = 0; r < n; ++r) weight = std::min(weight, M(r, best[static_cast<std::size_t>(r)]));
    // best[j] = position of document j; the action lists documents by position.
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) order[static_cast<std::size_t>(best[static_cast<std::size_t>(j)])] = j;
    strategy.actions.push_back(std::move(order));
    strategy.probabilities.push_back(weight);
    for (int r = 0; r < n; ++r) M(r, best[static_cast<std::size_t>(r)]) -= weight;
    remaining -= weight;
  }
  double total = 0.0;
  for (double p : strategy.probabilities) total += p;
  for (double& p : strategy.probabilities) p /= total;
  // Most probable first (stable: earlier decomposition steps first among equals).
  return most_probable_first(strategy);
}

}  // namespace

DcgEquilibrium solve_dcg_game(const DcgGame& game) {
  const auto start = std::chrono::steady_clock::now();
  const int n = static_cast<int>(game.documents());
  const int L = game.levels();
  const Eigen::MatrixXd& psi = game.potentials();
  const std::vector<double>& disc = game.discounts();
  const std::unique_ptr<glp_prob, GlpDelete> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MAX);
  // Columns: M(j, r) at 1 + j n + r, then t_j at 1 + n^2 + j.
  const int m_columns = n * n;
  glp_add_cols(lp.get(), m_columns + n);
  for (int c = 1; c <= m_columns; ++c) glp_set_col_bnds(lp.get(), c, GLP_LO, 0.0, 0.0);
  for (int j = 0; j < n; ++j) {
    glp_set_col_bnds(lp.get(), m_columns + 1 + j, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp.get(), m_columns + 1 + j, 1.0);
  }
  // Rows: (j, s) epigraph rows t_j - (2^s - 1) sum_r disc_r M(j, r) <= -psi_j(s); then row
  // sums and column sums of M equal to 1.
  glp_add_rows(lp.get(), n * L + 2 * n);
  std::vector<int> index(static_cast<std::size_t>(n) + 2);
  std::vector<double> value(static_cast<std::size_t>(n) + 2);
  for (int j = 0; j < n; ++j)
    for (int s = 0; s < L; ++s) {
      const int row = 1 + j * L + s;
      glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, -psi(j, s));
      int k = 0;
      index[static_cast<std::size_t>(++k)] = m_columns + 1 + j;
      value[static_cast<std::size_t>(k)] = 1.0;
      const double gain = relevance_gain(s);
      if (gain != 0.0)
        for (int r = 0; r < n; ++r) {
          index[static_cast<std::size_t>(++k)] = 1 + j * n + r;
          value[static_cast<std::size_t>(k)] = -gain * disc[static_cast<std::size_t>(r)];
        }
      glp_set_mat_row(lp.get(), row, k, index.data(), value.data());
    }
  for (int a = 0; a < n; ++a) {
    const int sum_row = 1 + n * L + a;      // sum_r M(a, r) = 1
    const int position_row = sum_row + n;   // sum_j M(j, a) = 1
    glp_set_row_bnds(lp.get(), sum_row, GLP_FX, 1.0, 1.0);
    glp_set_row_bnds(lp.get(), position_row, GLP_FX, 1.0, 1.0);
    for (int b = 0; b < n; ++b) {
      index[static_cast<std::size_t>(b + 1)] = 1 + a * n + b;
      value[static_cast<std::size_t>(b + 1)] = 1.0;
    }
    glp_set_mat_row(lp.get(), sum_row, n, index.data(), value.data());
    for (int b = 0; b < n; ++b) index[static_cast<std::size_t>(b + 1)] = 1 + b * n + a;
    glp_set_mat_row(lp.get(), position_row, n, index.data(), value.data());
  }
  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  const int code = glp_simplex(lp.get(), &parameters);
  if (code != 0 || glp_get_status(lp.get()) != GLP_OPT)
    throw SolverError("DCG game LP: GLPK did not find an optimum (code " + std::to_string(code) + ", status " +
                      std::to_string(glp_get_status(lp.get())) + ")");
  DcgEquilibrium eq;
  eq.value = glp_get_obj_val(lp.get());
  Eigen::MatrixXd M(n, n);
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < n; ++r) M(j, r) = std::max(0.0, glp_get_col_prim(lp.get(), 1 + j * n + r));
  eq.adversary_marginals.resize(n, L);
  for (int j = 0; j < n; ++j) {
    double total = 0.0;
    for (int s = 0; s < L; ++s) {
      eq.adversary_marginals(j, s) = std::abs(glp_get_row_dual(lp.get(), 1 + j * L + s));
      total += eq.adversary_marginals(j, s);
    }
    if (total > 0.0) eq.adversary_marginals.row(j) /= total;
  }
  eq.predictor = birkhoff(M);
  eq.gap = game.predictor_value_against_marginals(eq.adversary_marginals) - game.adversary_best_response(eq.predictor).value;
  eq.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return eq;
}

}  // namespace mpg
