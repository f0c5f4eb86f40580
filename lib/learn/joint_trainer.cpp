// F1-MPG training as one saddle-point LP (lib/learn/joint_trainer.hpp). The LP, maximized:
//   columns  theta_j in a trust region within |theta_j| <= sqrt(2/lambda) (|theta*| is: F(0) <= 0,
//            F >= -1), t_j >= lambda/2 theta_j^2 by tangent rows, z (the adversary's value),
//            r_0 (predictor's empty action), psi_i = x_i . theta (defined by a row, for examples
//            with adversary rows), and per predictor size k: r_k and p_ik for examples in F;
//            per adversary size l: sigma_l and mu_il for its rows;
//   objective  z + theta . Phi_gold - sum_j t_j;
//   rows  r_0 + sum_k r_k = 1;  sum_{i in F} p_ik = k r_k;  p_ik <= r_k;  z <= r_0 (empty y);
//         z <= l sigma_l - sum_i mu_il,  mu_il >= sigma_l - c_il,  mu >= 0, where
//         c_il = sum_k 2 p_ik / (k + l) - psi_i: by LP duality l sigma_l - sum_i mu_il is the
//         adversary's smallest sum of l costs c_il, over the examples with rows.
// The duals of the mu rows are the adversary's marginals q_il = P(y_i = 1, |y| = l), those of
// the z rows its size distribution. Missing predictor columns restrict the predictor (p_ik = 0)
// and missing adversary rows the adversary (q_il = 0); the bounds come from best responses over
// all examples and sizes, so they hold whatever is missing, and the missing entries the best
// responses take are added.
#include "lib/learn/joint_trainer.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/base/run_limits.hpp"

namespace mpg {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
double kernel(long k, long l) { return 2.0 / static_cast<double>(k + l); }  // F1 = 2|y_hat . y| / (k + l)

// A player's strategy over the full game: size weights and marginals per size (input order).
struct SizeStrategy {
  double empty = 0.0;               // P(|y| = 0)
  std::vector<long> sizes;          // k >= 1
  std::vector<double> weight;       // P(|y| = k)
  std::vector<Eigen::VectorXd> marginal;  // P(y_i = 1, |y| = k)
};

// Makes each size's marginals exactly feasible (0 <= m_i <= weight, sum_i m_i = k weight) after
// the LP's rounding: clip, then spread the remaining difference over the entries with room.
void make_feasible(SizeStrategy& s) {
  double total = s.empty;
  for (double& w : s.weight) total += w = std::max(0.0, w);
  if (!(total > 0.0)) throw SolverError("the joint trainer's LP returned an empty strategy");
  s.empty /= total;
  for (std::size_t j = 0; j < s.sizes.size(); ++j) {
    const double w = s.weight[j] /= total;
    Eigen::VectorXd& m = s.marginal[j];
    m = (m / total).cwiseMax(0.0).cwiseMin(w);
    for (int pass = 0; pass < 3; ++pass) {
      const double missing = static_cast<double>(s.sizes[j]) * w - m.sum();
      if (std::fabs(missing) <= 1e-15 * std::max(1.0, static_cast<double>(s.sizes[j]))) break;
      const Eigen::VectorXd room = missing > 0.0 ? Eigen::VectorXd((w - m.array()).matrix()) : m;
      const double available = room.sum();
      if (!(available > 0.0)) break;
      m += std::min(1.0, std::fabs(missing) / available) * (missing > 0.0 ? 1.0 : -1.0) * room;
      m = m.cwiseMax(0.0).cwiseMin(w);
    }
  }
}

// cost[i] = sum_j kernel(sizes_j, size) marginal_j[i]: what example i adds to the expected F1 of
// an opposing action of size `size` that includes it.
void size_costs(const SizeStrategy& s, long size, Eigen::VectorXd& cost) {
  cost.setZero();
  for (std::size_t j = 0; j < s.sizes.size(); ++j) cost += kernel(s.sizes[j], size) * s.marginal[j];
}

// The l examples with the smallest costs, by (cost, index). Only which rows and columns enter the
// LP depends on the index of a tie, never a bound.
std::vector<long> cheapest(const Eigen::VectorXd& cost, long l) {
  std::vector<long> order(static_cast<std::size_t>(cost.size()));
  std::iota(order.begin(), order.end(), 0L);
  auto less = [&](long a, long b) { return cost[a] < cost[b] || (cost[a] == cost[b] && a < b); };
  std::nth_element(order.begin(), order.begin() + (l - 1), order.end(), less);
  order.resize(static_cast<std::size_t>(l));
  return order;
}

// The adversary's best value at every size l = 0..n against the predictor P and potentials psi:
// values[l] = min_{|y| = l} E_P[F1(Y_hat, y)] - psi(y) (values[0] = P(empty)).
std::vector<double> adversary_values(const SizeStrategy& predictor, const Eigen::VectorXd& psi) {
  const long n = psi.size();
  std::vector<double> values(static_cast<std::size_t>(n + 1));
  values[0] = predictor.empty;
  Eigen::VectorXd cost(n);
  std::vector<double> c(static_cast<std::size_t>(n));
  for (long l = 1; l <= n; ++l) {
    size_costs(predictor, l, cost);
    for (long i = 0; i < n; ++i) c[static_cast<std::size_t>(i)] = cost[i] - psi[i];
    std::nth_element(c.begin(), c.begin() + (l - 1), c.end());
    values[static_cast<std::size_t>(l)] = std::accumulate(c.begin(), c.begin() + l, 0.0);
  }
  return values;
}

// The predictor's best value at every size k = 0..n against the adversary Q:
// values[k] = max_{|y_hat| = k} E_Q[F1(y_hat, Y)] (values[0] = Q(empty)).
std::vector<double> predictor_values(const SizeStrategy& adversary) {
  const long n = adversary.marginal.empty() ? 0 : adversary.marginal.front().size();
  std::vector<double> values(static_cast<std::size_t>(n + 1), 0.0);
  values[0] = adversary.empty;
  Eigen::VectorXd gain(n);
  std::vector<double> g(static_cast<std::size_t>(n));
  for (long k = 1; k <= n; ++k) {
    size_costs(adversary, k, gain);
    for (long i = 0; i < n; ++i) g[static_cast<std::size_t>(i)] = -gain[i];
    std::nth_element(g.begin(), g.begin() + (k - 1), g.end());
    values[static_cast<std::size_t>(k)] = -std::accumulate(g.begin(), g.begin() + k, 0.0);
  }
  return values;
}

// The restricted saddle-point LP (header comment of this file), grown by the rounds.
class JointLp {
 public:
  JointLp(const SparseRowMatrix& x, const Eigen::VectorXd& gold_features, double lambda, double tangent_spacing)
      : x_(x), n_(x.rows()), d_(static_cast<int>(x.cols())), lambda_(lambda), spacing_(tangent_spacing),
        box_(std::sqrt(2.0 / lambda)), lp_(glp_create_prob(), glp_delete_prob),
        tangents_(static_cast<std::size_t>(d_)), slot_(static_cast<std::size_t>(n_), -1),
        psi_column_(static_cast<std::size_t>(n_), -1) {
    glp_prob* lp = lp_.get();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_cols(lp, 2 * d_ + 2);
    for (int j = 0; j < d_; ++j) {
      glp_set_col_bnds(lp, theta(j), GLP_DB, -box_, box_);
      glp_set_obj_coef(lp, theta(j), gold_features[j]);
      glp_set_col_bnds(lp, t(j), GLP_FR, 0.0, 0.0);
      glp_set_obj_coef(lp, t(j), -1.0);
      add_tangent(j, 0.0);
    }
    glp_set_col_bnds(lp, z(), GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp, z(), 1.0);
    glp_set_col_bnds(lp, r0(), GLP_DB, 0.0, 1.0);
    sum_row_ = add_row(GLP_FX, 1.0, {r0()}, {1.0});
    empty_row_ = add_row(GLP_UP, 0.0, {z(), r0()}, {1.0, -1.0});
    glp_init_smcp(&simplex_);
    simplex_.msg_lev = GLP_MSG_OFF;
    simplex_.meth = GLP_DUALP;
    // Tighter than GLPK's 1e-7: the bounds inherit the LP's feasibility errors, and tolerances
    // of 1e-7 stall certificates of 1e-7.
    simplex_.tol_bnd = 1e-9;
    simplex_.tol_dj = 1e-9;
  }

  // Tangent of lambda/2 theta_j^2 at a: t_j >= lambda a theta_j - lambda/2 a^2 (skipped within
  // the spacing of an existing one: near-parallel rows make the basis ill-conditioned).
  void add_tangent(int j, double a) {
    a = std::clamp(a, -box_, box_);
    for (double b : tangents_[static_cast<std::size_t>(j)])
      if (std::fabs(a - b) <= spacing_) return;
    tangents_[static_cast<std::size_t>(j)].push_back(a);
    add_row(GLP_LO, -0.5 * lambda_ * a * a, {t(j), theta(j)}, {1.0, -lambda_ * a});
  }

  void set_trust_region(const Eigen::VectorXd& center, double radius) {
    for (int j = 0; j < d_; ++j)
      glp_set_col_bnds(lp_.get(), theta(j), GLP_DB, std::max(-box_, center[j] - radius),
                       std::min(box_, center[j] + radius));
  }

  bool has_predictor_size(long k) const {
    return std::any_of(predictor_.begin(), predictor_.end(), [&](const auto& s) { return s.k == k; });
  }
  bool has_adversary_size(long l) const {
    return std::any_of(adversary_.begin(), adversary_.end(), [&](const auto& s) { return s.l == l; });
  }
  long predictor_examples() const { return static_cast<long>(free_.size()); }

  // Predictor columns p_ik for example i, for every size in the LP.
  void add_predictor_example(long i) {
    if (slot_[static_cast<std::size_t>(i)] >= 0) return;
    slot_[static_cast<std::size_t>(i)] = static_cast<int>(free_.size());
    free_.push_back(i);
    for (auto& s : predictor_) add_predictor_column(s, i);
  }

  // A predictor size k (needs k examples with columns).
  void add_predictor_size(long k) {
    if (k < 1 || k > predictor_examples() || has_predictor_size(k)) return;
    glp_prob* lp = lp_.get();
    PredictorSize s{k, glp_add_cols(lp, 1), 0, {}};
    glp_set_col_bnds(lp, s.r, GLP_LO, 0.0, 0.0);
    append(sum_row_, s.r, 1.0);
    s.balance = add_row(GLP_FX, 0.0, {s.r}, {-static_cast<double>(k)});
    predictor_.push_back(std::move(s));
    for (long i : free_) add_predictor_column(predictor_.back(), i);
  }

  // An adversary size l with rows for the given examples.
  void add_adversary_size(long l, const std::vector<long>& examples) {
    if (l < 1 || has_adversary_size(l)) return;
    glp_prob* lp = lp_.get();
    AdversarySize s{l, glp_add_cols(lp, 1), 0, std::vector<int>(static_cast<std::size_t>(n_), -1)};
    glp_set_col_bnds(lp, s.sigma, GLP_FR, 0.0, 0.0);
    s.value_row = add_row(GLP_UP, 0.0, {z(), s.sigma}, {1.0, -static_cast<double>(l)});
    adversary_.push_back(std::move(s));
    for (long i : examples) add_adversary_row(adversary_.back(), i);
  }

  // Rows for the examples the adversary's best action at each of its sizes takes, given the
  // predictor's costs (cost_at(l)); returns how many were added.
  template <class CostAt>
  long add_missing_adversary_rows(CostAt cost_at) {
    long added = 0;
    for (auto& s : adversary_)
      for (long i : cheapest(cost_at(s.l), s.l)) added += add_adversary_row(s, i);
    return added;
  }

  // Solves from the last basis; false if GLPK finds no optimum even from a fresh basis.
  bool solve() {
    glp_prob* lp = lp_.get();
    if (glp_simplex(lp, &simplex_) == 0 && glp_get_status(lp) == GLP_OPT) return true;
    glp_adv_basis(lp, 0);
    return glp_simplex(lp, &simplex_) == 0 && glp_get_status(lp) == GLP_OPT;
  }

  Eigen::VectorXd theta_value() const {
    Eigen::VectorXd out(d_);
    for (int j = 0; j < d_; ++j) out[j] = glp_get_col_prim(lp_.get(), theta(j));
    return out;
  }

  SizeStrategy predictor_strategy() const {
    SizeStrategy s;
    s.empty = glp_get_col_prim(lp_.get(), r0());
    for (const auto& size : predictor_) {
      s.sizes.push_back(size.k);
      s.weight.push_back(glp_get_col_prim(lp_.get(), size.r));
      Eigen::VectorXd m = Eigen::VectorXd::Zero(n_);
      for (std::size_t f = 0; f < free_.size(); ++f) m[free_[f]] = glp_get_col_prim(lp_.get(), size.p[f]);
      s.marginal.push_back(std::move(m));
    }
    make_feasible(s);
    return s;
  }

  SizeStrategy adversary_strategy() const {
    SizeStrategy s;
    s.empty = std::fabs(glp_get_row_dual(lp_.get(), empty_row_));
    for (const auto& size : adversary_) {
      s.sizes.push_back(size.l);
      s.weight.push_back(std::fabs(glp_get_row_dual(lp_.get(), size.value_row)));
      Eigen::VectorXd m = Eigen::VectorXd::Zero(n_);
      for (long i = 0; i < n_; ++i)
        if (size.row[static_cast<std::size_t>(i)] >= 0)
          m[i] = std::fabs(glp_get_row_dual(lp_.get(), size.row[static_cast<std::size_t>(i)]));
      s.marginal.push_back(std::move(m));
    }
    make_feasible(s);
    return s;
  }

  int predictor_sizes() const { return static_cast<int>(predictor_.size()); }
  int adversary_sizes() const { return static_cast<int>(adversary_.size()); }
  long adversary_rows() const { return adversary_rows_; }
  int rows() const { return glp_get_num_rows(lp_.get()); }

 private:
  struct PredictorSize {
    long k;
    int r, balance;
    std::vector<int> p;  // column per predictor example (slot order)
  };
  struct AdversarySize {
    long l;
    int sigma, value_row;
    std::vector<int> row;  // mu row per example, -1 = none; its mu column is the row's first entry
  };

  int theta(int j) const { return 1 + j; }
  int t(int j) const { return 1 + d_ + j; }
  int z() const { return 1 + 2 * d_; }
  int r0() const { return 2 + 2 * d_; }

  int add_row(int type, double bound, std::vector<int> columns, std::vector<double> values) {
    glp_prob* lp = lp_.get();
    const int row = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, row, type, bound, bound);
    columns.insert(columns.begin(), 0);
    values.insert(values.begin(), 0.0);
    glp_set_mat_row(lp, row, static_cast<int>(columns.size()) - 1, columns.data(), values.data());
    return row;
  }
  void append(int row, int column, double value) {
    glp_prob* lp = lp_.get();
    const int length = glp_get_mat_row(lp, row, nullptr, nullptr);
    std::vector<int> columns(static_cast<std::size_t>(length) + 2);
    std::vector<double> values(static_cast<std::size_t>(length) + 2);
    glp_get_mat_row(lp, row, columns.data(), values.data());
    columns[static_cast<std::size_t>(length) + 1] = column;
    values[static_cast<std::size_t>(length) + 1] = value;
    glp_set_mat_row(lp, row, length + 1, columns.data(), values.data());
  }

  // psi_i as a column defined by psi_i - x_i . theta = 0.
  int psi(long i) {
    int& column = psi_column_[static_cast<std::size_t>(i)];
    if (column >= 0) return column;
    column = glp_add_cols(lp_.get(), 1);
    glp_set_col_bnds(lp_.get(), column, GLP_FR, 0.0, 0.0);
    std::vector<int> columns{column};
    std::vector<double> values{1.0};
    for (SparseRowMatrix::InnerIterator it(x_, i); it; ++it) {
      columns.push_back(theta(static_cast<int>(it.col())));
      values.push_back(-it.value());
    }
    add_row(GLP_FX, 0.0, std::move(columns), std::move(values));
    return column;
  }

  void add_predictor_column(PredictorSize& s, long i) {
    glp_prob* lp = lp_.get();
    const int column = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, column, GLP_LO, 0.0, 0.0);
    s.p.push_back(column);
    std::vector<int> rows{0};
    std::vector<double> values{0.0};
    for (const auto& a : adversary_)
      if (a.row[static_cast<std::size_t>(i)] >= 0) {
        rows.push_back(a.row[static_cast<std::size_t>(i)]);
        values.push_back(kernel(s.k, a.l));
      }
    glp_set_mat_col(lp, column, static_cast<int>(rows.size()) - 1, rows.data(), values.data());
    add_row(GLP_UP, 0.0, {column, s.r}, {1.0, -1.0});  // p_ik <= r_k
    append(s.balance, column, 1.0);
  }

  // mu_il - sigma_l + sum_k kernel(k, l) p_ik - psi_i >= 0, and mu_il in the size's value row.
  bool add_adversary_row(AdversarySize& s, long i) {
    if (s.row[static_cast<std::size_t>(i)] >= 0) return false;
    glp_prob* lp = lp_.get();
    const int psi_i = psi(i);
    const int mu = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, mu, GLP_LO, 0.0, 0.0);
    append(s.value_row, mu, 1.0);
    std::vector<int> columns{mu, s.sigma, psi_i};
    std::vector<double> values{1.0, -1.0, -1.0};
    const int slot = slot_[static_cast<std::size_t>(i)];
    if (slot >= 0)
      for (const auto& p : predictor_) {
        columns.push_back(p.p[static_cast<std::size_t>(slot)]);
        values.push_back(kernel(p.k, s.l));
      }
    s.row[static_cast<std::size_t>(i)] = add_row(GLP_LO, 0.0, std::move(columns), std::move(values));
    ++adversary_rows_;
    return true;
  }

  const SparseRowMatrix& x_;
  long n_;
  int d_;
  double lambda_, spacing_, box_;
  std::unique_ptr<glp_prob, decltype(&glp_delete_prob)> lp_;
  glp_smcp simplex_;
  std::vector<std::vector<double>> tangents_;
  std::vector<int> slot_;        // example -> its predictor slot, -1 = none
  std::vector<long> free_;       // examples with predictor columns, by slot
  std::vector<int> psi_column_;  // example -> psi column, -1 = none
  std::vector<PredictorSize> predictor_;
  std::vector<AdversarySize> adversary_;
  int sum_row_ = 0, empty_row_ = 0;
  long adversary_rows_ = 0;
};

}  // namespace

nlohmann::json JointTrainSummary::to_json() const {
  nlohmann::json out = certified_run_json(converged(), message, iterations, objective, lower_bound, gap);
  out.update({{"predictor_sizes", predictor_sizes},
              {"adversary_sizes", adversary_sizes},
              {"predictor_examples", predictor_examples},
              {"adversary_rows", adversary_rows},
              {"lp_rows", lp_rows},
              {"seconds", seconds},
              {"lp_seconds", lp_seconds},
              {"response_seconds", response_seconds}});
  return out;
}

std::string JointTrainSummary::report() const {
  return fmt::format(
      "{} after {} rounds: objective {:.10g} (certified gap {:.2e}), {} + {} sizes, {} predictor examples, {} "
      "adversary rows, {} LP rows; {:.2f} s ({:.2f} s LP, {:.2f} s best responses)",
      message, iterations, objective, gap, predictor_sizes, adversary_sizes, predictor_examples, adversary_rows,
      lp_rows, seconds, lp_seconds, response_seconds);
}

BinaryModel train_f1_mpg_joint(const BinaryProblem& problem, const MetricSettings& settings,
                               const JointTrainOptions& options, JointTrainSummary* summary_out) {
  const auto start = Clock::now();
  const double lambda = options.lambda;
  if (!(lambda > 0.0) || !std::isfinite(lambda))
    throw Error("the joint trainer needs lambda > 0 (got " + std::to_string(lambda) +
                "); use --optimizer lbfgs for lambda = 0");
  if (!(options.tolerance > 0.0)) throw Error("the joint trainer needs a tolerance > 0");
  if (settings.metric != BinaryMetric::f1)
    throw Error("the joint trainer trains the MPG of F1 only; got " + to_string(settings.metric));
  const SparseRowMatrix& x = problem.features;
  const long n = x.rows();
  const BinaryAction gold = positives_of(problem.labels);
  const Eigen::VectorXd gold_features = features_of(x, gold);
  const long positives = static_cast<long>(gold.size());

  // Tangent spacing h: the tangent model of lambda/2 theta_j^2 is then within lambda h^2 / 8 per
  // coordinate, d lambda h^2 / 8 = 0.1 tolerance in all.
  const double spacing = std::sqrt(0.8 * options.tolerance / (static_cast<double>(x.cols()) * lambda));
  JointLp lp(x, gold_features, lambda, spacing);
  double radius = options.trust_region;
  if (!(radius > 0.0)) {
    double widest = 0.0;
    for (long i = 0; i < n; ++i) widest = std::max(widest, x.row(i).cwiseAbs().sum());
    radius = 0.1 / std::max(widest, 1e-12);
  }
  Eigen::VectorXd best_theta = Eigen::VectorXd::Zero(x.cols());
  Eigen::VectorXd center = best_theta;  // of the trust region of the LP being solved
  lp.set_trust_region(center, radius);
  // Start: predictor columns for the gold examples and, up to initial_free_factor times as many,
  // the examples most like them (largest x_i . Phi_gold); both players at the gold count, the
  // adversary with rows on every example.
  for (auto i : gold) lp.add_predictor_example(static_cast<long>(i));
  {
    const Eigen::VectorXd likeness = x * gold_features;
    const long extra = std::min(n, static_cast<long>(options.initial_free_factor * static_cast<double>(positives)));
    if (extra > 0)
      for (long i : cheapest(-likeness, extra))
        if (lp.predictor_examples() < extra) lp.add_predictor_example(i);
  }
  lp.add_predictor_size(positives);
  {
    std::vector<long> everyone(static_cast<std::size_t>(n));
    std::iota(everyone.begin(), everyone.end(), 0L);
    lp.add_adversary_size(positives, everyone);
  }

  JointTrainSummary summary;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.lower_bound = -std::numeric_limits<double>::infinity();
  double best_gap = std::numeric_limits<double>::infinity();
  int last_progress = 0;
  for (;;) {
    ++summary.iterations;
    const auto lp_start = Clock::now();
    if (!lp.solve()) throw SolverError("the joint trainer's LP has no optimum (GLPK) in round " +
                                       std::to_string(summary.iterations));
    summary.lp_seconds += seconds_since(lp_start);
    const auto response_start = Clock::now();
    const Eigen::VectorXd theta = lp.theta_value();
    const Eigen::VectorXd psi = x * theta;
    const SizeStrategy predictor = lp.predictor_strategy();
    const SizeStrategy adversary = lp.adversary_strategy();
    // Lower bound on J* at (P, theta): F(theta) <= -it.
    const std::vector<double> adversary_by_size = adversary_values(predictor, psi);
    const long best_l = std::min_element(adversary_by_size.begin(), adversary_by_size.end()) - adversary_by_size.begin();
    const double guaranteed = adversary_by_size[static_cast<std::size_t>(best_l)] + theta.dot(gold_features) -
                              0.5 * lambda * theta.squaredNorm();
    if (-guaranteed < summary.objective) {
      summary.objective = -guaranteed;
      best_theta = theta;
    }
    // Upper bound on J* from Q: min F >= -it.
    Eigen::VectorXd q = Eigen::VectorXd::Zero(n);
    for (const auto& m : adversary.marginal) q += m;
    const Eigen::VectorXd moment_gap = x.transpose() * q - gold_features;  // E_Q[Phi] - Phi_gold
    const std::vector<double> predictor_by_size = predictor_values(adversary);
    const long best_k = std::max_element(predictor_by_size.begin(), predictor_by_size.end()) - predictor_by_size.begin();
    const double conceded = predictor_by_size[static_cast<std::size_t>(best_k)] + moment_gap.squaredNorm() / (2.0 * lambda);
    summary.lower_bound = std::max(summary.lower_bound, -conceded);
    summary.gap = summary.objective - summary.lower_bound;

    // Grow the LP: the adversary's best size with rows for its cheapest examples, the rows its
    // sizes' best actions take, the predictor's best size with columns for the examples its best
    // action takes, and tangents at theta and at the theta that best answers Q.
    auto cost_at = [&](long l) {
      Eigen::VectorXd cost(n);
      size_costs(predictor, l, cost);
      return Eigen::VectorXd(cost - psi);
    };
    if (best_l > 0 && !lp.has_adversary_size(best_l))
      lp.add_adversary_size(best_l, cheapest(cost_at(best_l), std::min(n, best_l + options.row_margin)));
    lp.add_missing_adversary_rows(cost_at);
    if (best_k > 0) {
      Eigen::VectorXd gain(n);
      size_costs(adversary, best_k, gain);
      for (long i : cheapest(-gain, best_k)) lp.add_predictor_example(i);
      lp.add_predictor_size(best_k);
    }
    const Eigen::VectorXd answer = -moment_gap / lambda;
    for (int j = 0; j < static_cast<int>(x.cols()); ++j) {
      lp.add_tangent(j, theta[j]);
      lp.add_tangent(j, answer[j]);
    }
    // While the region binds, its multipliers stand between Q's moments and Phi_gold (the bound
    // from Q is loose): it doubles each time theta reaches it, and moves to the best theta.
    if ((theta - center).cwiseAbs().maxCoeff() >= (1.0 - 1e-9) * radius) radius *= 2.0;
    center = best_theta;
    lp.set_trust_region(center, radius);
    summary.response_seconds += seconds_since(response_start);

    summary.predictor_sizes = lp.predictor_sizes();
    summary.adversary_sizes = lp.adversary_sizes();
    summary.predictor_examples = static_cast<int>(lp.predictor_examples());
    summary.adversary_rows = lp.adversary_rows();
    summary.lp_rows = lp.rows();
    summary.seconds = seconds_since(start);
    if (options.progress) options.progress(summary);
    if (summary.gap <= options.tolerance) {
      summary.status = CuttingPlaneStatus::converged;
      summary.message = "converged";
      break;
    }
    if (summary.gap < best_gap * (1.0 - 1e-3)) {
      best_gap = summary.gap;
      last_progress = summary.iterations;
    }
    if (summary.iterations - last_progress >= options.stall_iterations) {
      summary.status = CuttingPlaneStatus::no_progress;
      summary.message = "not converged: no progress in " + std::to_string(options.stall_iterations) + " rounds";
      break;
    }
    if (auto limit = limit_reached(summary.iterations, options.max_iterations, summary.seconds, options.max_seconds)) {
      summary.status = *limit == RunLimit::iterations ? CuttingPlaneStatus::iteration_limit : CuttingPlaneStatus::time_limit;
      summary.message = to_string(*limit);
      break;
    }
  }
  summary.seconds = seconds_since(start);
  if (summary_out) *summary_out = summary;
  return BinaryModel::trained(settings, lambda, best_theta);
}

}  // namespace mpg
