// F1-MPG training as one saddle-point LP (lib/models/binary/joint_trainer.hpp). The LP, maximized:
//   columns  theta_j in a trust region within |theta_j| <= sqrt(2/lambda) (|theta*| is: F(0) <= 0,
//            F >= -1), t_j >= lambda/2 theta_j^2 by tangent rows, z (the adversary's value),
//            r_0 (predictor's empty action), and per predictor size k: r_k and p_ik for examples in F;
//            per adversary size l: sigma_l and mu_il for its rows;
//   objective  z + theta . Phi_gold - sum_j t_j;
//   rows  r_0 + sum_k r_k = 1;  sum_{i in F} p_ik = k r_k;  p_ik <= r_k;  z <= r_0 (empty y);
//         z <= l sigma_l - sum_i mu_il,  mu_il >= sigma_l - c_il,  mu >= 0, where
//         c_il = sum_k 2 p_ik / (k + l) - x_i . theta (psi_i written out on the theta columns; a
//         column and a defining row per psi_i were 40 % of syn500's rows): by LP duality
//         l sigma_l - sum_i mu_il is the
//         adversary's smallest sum of l costs c_il, over the examples with rows.
// The duals of the mu rows are the adversary's marginals q_il = P(y_i = 1, |y| = l), those of
// the z rows its size distribution. Missing predictor columns restrict the predictor (p_ik = 0)
// and missing adversary rows the adversary (q_il = 0); the bounds come from best responses over
// all examples and sizes, so they hold whatever is missing, and the missing entries the best
// responses take are added.
#include "lib/models/binary/joint_trainer.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/base/run_limits.hpp"
#include "lib/game/glpk_basis.hpp"
#include "lib/models/binary/joint_strategy.hpp"

namespace mpg {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
// GLPK's tm_lim (milliseconds, at least 1) for `seconds` left; INT_MAX (none) when seconds <= 0.
int glpk_time_limit(double seconds) {
  return seconds > 0.0 ? static_cast<int>(std::clamp(1000.0 * seconds, 1.0, 2e9)) : INT_MAX;
}

using namespace joint_detail;  // strategies and best values over the full game (joint_strategy.hpp)

// The start along the gold direction d (unit vector along Phi_gold): theta = alpha d with alpha
// minimizing the objective's bound when the predictor plays the gold labelling G (|G| = m),
//   U(alpha) = lambda/2 alpha^2 - alpha d . Phi_gold + max_y [alpha d . Phi(y) - F1(G, y)],
// convex in alpha (a maximum of affine functions plus a quadratic), so a golden-section search on
// [0, sqrt(2/lambda)] (|theta*| is within it) finds it. The adversary's y takes the j examples of G
// and the o others with the largest u_i = x_i . d: F1 = 2j / (m + j + o), O(m (n - m)) per alpha.
double gold_direction_scale(const Eigen::VectorXd& u, const std::vector<char>& is_gold, double lambda,
                            double gold_dot) {
  std::vector<double> in, out;
  for (long i = 0; i < u.size(); ++i) (is_gold[static_cast<std::size_t>(i)] ? in : out).push_back(u[i]);
  std::sort(in.begin(), in.end(), std::greater<>());
  std::sort(out.begin(), out.end(), std::greater<>());
  const double m = static_cast<double>(in.size());
  auto bound = [&](double alpha) {
    double worst = 0.0;  // y empty: F1(G, empty) = 0 for m > 0
    double in_sum = 0.0;
    for (std::size_t j = 0; j <= in.size(); ++j) {
      if (j > 0) in_sum += in[j - 1];
      double out_sum = 0.0;
      for (std::size_t o = 0; o <= out.size(); ++o) {
        if (o > 0) out_sum += out[o - 1];
        if (j + o == 0) continue;
        const double jd = static_cast<double>(j);
        worst = std::max(worst, alpha * (in_sum + out_sum) - 2.0 * jd / (m + jd + static_cast<double>(o)));
      }
    }
    return 0.5 * lambda * alpha * alpha - alpha * gold_dot + worst;
  };
  double lo = 0.0, hi = std::sqrt(2.0 / lambda);
  const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
  double fa = bound(a), fb = bound(b);
  for (int it = 0; it < 60 && hi - lo > 1e-9 * (1.0 + hi); ++it) {
    if (fa <= fb) {  // the minimum is in [lo, b]
      hi = b;
      b = a;
      fb = fa;
      a = hi - ratio * (hi - lo);
      fa = bound(a);
    } else {  // in [a, hi]
      lo = a;
      a = b;
      fa = fb;
      b = lo + ratio * (hi - lo);
      fb = bound(b);
    }
  }
  return 0.5 * (lo + hi);
}

// The restricted saddle-point LP (header comment of this file), grown and shrunk by the rounds.
// What is in it is kept as sets (predictor examples and sizes, each size's substituted examples;
// adversary sizes, each with its rows and its examples fixed in); the coefficients of the rows
// that depend on the sets are rebuilt from them before every solve, so a change of the sets only
// adds or deletes rows and columns.
class JointLp {
 public:
  JointLp(const SparseRowMatrix& x, const Eigen::VectorXd& gold_features, double lambda, double tangent_spacing)
      : x_(x), n_(x.rows()), d_(static_cast<int>(x.cols())), lambda_(lambda), spacing_(tangent_spacing),
        box_(std::sqrt(2.0 / lambda)), lp_(glp_create_prob(), glp_delete_prob),
        tangents_(static_cast<std::size_t>(d_)), slot_(static_cast<std::size_t>(n_), -1) {
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
  // GLPK's long-step (bound flipping) ratio test instead of Harris'.
  void set_long_step(bool on) { simplex_.r_test = on ? GLP_RT_FLIP : GLP_RT_HAR; }

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
  // The sizes in the LP, in the order of the strategies' sizes.
  std::vector<long> predictor_size_list() const {
    std::vector<long> out;
    for (const auto& s : predictor_) out.push_back(s.k);
    return out;
  }
  std::vector<long> adversary_size_list() const {
    std::vector<long> out;
    for (const auto& s : adversary_) out.push_back(s.l);
    return out;
  }

  // Example i joins the predictor's examples: a column p_ik for every size in the LP, or (sparse)
  // none yet (p_ik = 0, as before it joined): update_predictor gives it columns at the sizes whose
  // best actions take it.
  void add_predictor_example(long i, bool sparse = false) {
    if (slot_[static_cast<std::size_t>(i)] >= 0) return;
    slot_[static_cast<std::size_t>(i)] = static_cast<int>(free_.size());
    free_.push_back(i);
    for (auto& s : predictor_) {
      s.p.push_back(-1);
      s.cap.push_back(-1);
      s.state.push_back(sparse ? kOut : kColumn);
      s.streak.push_back(0);
      if (!sparse) add_predictor_column(s, free_.size() - 1);
    }
  }

  // A predictor size k (needs k examples with columns): columns for every predictor example, or,
  // given `near` (the examples ranked below k + margin by the gains at k), columns for those, with
  // `surely` among them (ranked below k - margin) substituted by r_k and the rest at p_ik = 0.
  // Fixing at creation keeps a new size's columns to its band (thousands fewer per size); like the
  // fixings of update_predictor it only restricts the LP, and the size's best responses release it.
  void add_predictor_size(long k, const std::vector<long>* surely = nullptr, const std::vector<long>* near = nullptr) {
    if (k < 1 || k > predictor_examples() || has_predictor_size(k)) return;
    glp_prob* lp = lp_.get();
    PredictorSize s;
    s.k = k;
    s.r = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, s.r, GLP_LO, 0.0, 0.0);
    append(sum_row_, s.r, 1.0);
    s.balance = add_row(GLP_FX, 0.0, {s.r}, {-static_cast<double>(k)});
    s.p.assign(free_.size(), -1);
    s.cap.assign(free_.size(), -1);
    s.state.assign(free_.size(), near ? kOut : kColumn);
    s.streak.assign(free_.size(), 0);
    if (near) {
      for (long i : *near)
        if (slot_[static_cast<std::size_t>(i)] >= 0) s.state[static_cast<std::size_t>(slot_[static_cast<std::size_t>(i)])] = kColumn;
      if (surely)
        for (long i : *surely) {
          const int f = slot_[static_cast<std::size_t>(i)];
          if (f < 0 || s.state[static_cast<std::size_t>(f)] != kColumn) continue;
          s.state[static_cast<std::size_t>(f)] = kAtR;
          ++s.fixed_count;
        }
    }
    predictor_.push_back(std::move(s));
    for (std::size_t f = 0; f < free_.size(); ++f)
      if (predictor_.back().state[f] == kColumn) add_predictor_column(predictor_.back(), f);
  }

  // An adversary size l: the examples `surely` (at most l) fixed in its actions, rows for `rows`.
  void add_adversary_size(long l, const std::vector<long>& surely, const std::vector<long>& rows) {
    if (l < 1 || has_adversary_size(l)) return;
    glp_prob* lp = lp_.get();
    AdversarySize s;
    s.l = l;
    s.sigma = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, s.sigma, GLP_FR, 0.0, 0.0);
    s.value_row = add_row(GLP_UP, 0.0, {z()}, {1.0});  // completed by rebuild_rows
    s.row.assign(static_cast<std::size_t>(n_), -1);
    s.mu.assign(static_cast<std::size_t>(n_), -1);
    s.in.assign(static_cast<std::size_t>(n_), 0);
    s.streak.assign(static_cast<std::size_t>(n_), 0);
    adversary_.push_back(std::move(s));
    AdversarySize& a = adversary_.back();
    for (long i : surely) fix_in(a, i);
    for (long i : rows)
      if (!a.in[static_cast<std::size_t>(i)]) add_adversary_row(a, i);
  }

  // Adversary size number `index` against the current costs, with its last solution `last` (if
  // solved): examples ranked below l - margin (`surely`) that it plays at q_il = pi_l are fixed in
  // (one aggregate in the value row), rows ranked from l + margin on (not in `near`) that it does
  // not play go; fixed examples the best action `top` no longer takes, and the rest of `top`, get
  // rows.
  void update_adversary(std::size_t index, const std::vector<long>& top, const std::vector<long>& surely,
                        const std::vector<long>& near, const SizeStrategy& last) {
    AdversarySize& a = adversary_[index];
    if (index < last.sizes.size()) {
      const Eigen::VectorXd& q = last.marginal[index];
      const std::vector<char> is_surely = indicator(surely), is_near = indicator(near);
      for (long i = 0; i < n_; ++i) {
        const std::size_t u = static_cast<std::size_t>(i);
        const bool in = a.row[u] >= 0 && is_surely[u] && q[i] >= last.weight[index] - kAtBound;
        const bool out = a.row[u] >= 0 && !is_near[u] && q[i] <= kAtBound;
        if (!count_streak(a.streak[u], in, out)) continue;
        if (in && eliminable(a.mu[u], a.row[u])) fix_in(a, i);
        if (out && removable(a.mu[u], a.row[u])) {
          dead_rows_.push_back(a.row[u]);
          dead_columns_.push_back(a.mu[u]);
          a.row[u] = a.mu[u] = -1;
        }
      }
    }
    const std::vector<char> in_top = indicator(top);
    for (long i = 0; i < n_; ++i)
      if (a.in[static_cast<std::size_t>(i)] && !in_top[static_cast<std::size_t>(i)]) {
        a.in[static_cast<std::size_t>(i)] = 0;
        --a.in_count;
        ++unfixed_;
        add_adversary_row(a, i);
        restore_elimination(a.mu[static_cast<std::size_t>(i)], a.row[static_cast<std::size_t>(i)], GLP_NL);
      }
    for (long i : top)
      if (!a.in[static_cast<std::size_t>(i)]) add_adversary_row(a, i);
  }

  // Predictor size number `index` against the current gains, with its last solution `last` (if
  // solved): examples ranked below k - margin (`surely`) at p_ik = r_k are substituted by r_k,
  // columns ranked from k + margin on (not in `near`) at p_ik = 0 go; substituted or removed
  // examples its best action `top` takes (substituted: no longer takes) get their columns back.
  void update_predictor(std::size_t index, const std::vector<long>& top, const std::vector<long>& surely,
                        const std::vector<long>& near, const SizeStrategy& last) {
    PredictorSize& s = predictor_[index];
    auto remove_column = [&](std::size_t f, char state) {
      s.state[f] = state;
      dead_columns_.push_back(s.p[f]);
      dead_rows_.push_back(s.cap[f]);
      s.p[f] = s.cap[f] = -1;
    };
    if (index < last.sizes.size()) {
      const Eigen::VectorXd& p = last.marginal[index];
      const std::vector<char> is_surely = indicator(surely), is_near = indicator(near);
      for (std::size_t f = 0; f < free_.size(); ++f) {
        const long i = free_[f];
        const std::size_t u = static_cast<std::size_t>(i);
        const bool in = s.state[f] == kColumn && is_surely[u] && p[i] >= last.weight[index] - kAtBound;
        const bool out = s.state[f] == kColumn && !is_near[u] && p[i] <= kAtBound;
        if (!count_streak(s.streak[f], in, out)) continue;
        if (in && eliminable(s.p[f], s.cap[f])) {
          remove_column(f, kAtR);
          ++s.fixed_count;
        } else if (out && removable(s.p[f], s.cap[f])) {
          remove_column(f, kOut);
        }
      }
    }
    const std::vector<char> in_top = indicator(top);
    for (std::size_t f = 0; f < free_.size(); ++f) {
      const bool taken = in_top[static_cast<std::size_t>(free_[f])];
      if ((s.state[f] == kAtR && !taken) || (s.state[f] == kOut && taken)) {
        const bool was_at_r = s.state[f] == kAtR;
        s.state[f] = kColumn;
        add_predictor_column(s, f);
        if (was_at_r) {
          --s.fixed_count;
          ++unfixed_;
          restore_elimination(s.p[f], s.cap[f], GLP_NU);
        }
      }
    }
  }

  // Counts, after a solve, how long each size has had weight 0, and removes the sizes idle for
  // `rounds` solves (0 = never) with their rows and columns, each size at most once.
  // The players' best sizes over the full game (keep_k, keep_l) stay.
  void drop_idle_sizes(const SizeStrategy& predictor, const SizeStrategy& adversary, int rounds, long keep_k,
                       long keep_l) {
    for (std::size_t j = 0; j < predictor.sizes.size(); ++j)
      predictor_[j].idle = predictor.weight[j] > kZeroWeight || predictor_[j].k == keep_k ? 0 : predictor_[j].idle + 1;
    for (std::size_t j = 0; j < adversary.sizes.size(); ++j)
      adversary_[j].idle = adversary.weight[j] > kZeroWeight || adversary_[j].l == keep_l ? 0 : adversary_[j].idle + 1;
    if (rounds <= 0) return;
    auto kill = [&](int index, std::vector<int>& list) {
      if (index >= 0) list.push_back(index);
    };
    // A size leaves at most once (a size that came back is kept: no cycles of drops), and only
    // when removing its rows and columns leaves a basis of the rest (block_leaves_basis); else it
    // waits for a later round.
    for (auto& s : predictor_)
      if (s.idle >= rounds && !block_leaves_basis(with(s.r, s.p), with(s.balance, s.cap))) s.idle = rounds - 1;
      else if (s.idle >= rounds && !dropped_k_.insert(s.k).second) s.idle = 0;
    for (auto& s : adversary_)
      if (s.idle >= rounds && !block_leaves_basis(with(s.sigma, s.mu), with(s.value_row, s.row))) s.idle = rounds - 1;
      else if (s.idle >= rounds && !dropped_l_.insert(s.l).second) s.idle = 0;
    for (const auto& s : predictor_)
      if (s.idle >= rounds) {
        kill(s.r, dead_columns_);
        kill(s.balance, dead_rows_);
        for (int c : s.p) kill(c, dead_columns_);
        for (int r : s.cap) kill(r, dead_rows_);
        ++dropped_;
      }
    for (const auto& s : adversary_)
      if (s.idle >= rounds) {
        kill(s.sigma, dead_columns_);
        kill(s.value_row, dead_rows_);
        for (int c : s.mu) kill(c, dead_columns_);
        for (int r : s.row) kill(r, dead_rows_);
        ++dropped_;
      }
    predictor_.erase(std::remove_if(predictor_.begin(), predictor_.end(), [&](const auto& s) { return s.idle >= rounds; }),
                     predictor_.end());
    adversary_.erase(std::remove_if(adversary_.begin(), adversary_.end(), [&](const auto& s) { return s.idle >= rounds; }),
                     adversary_.end());
  }

  void set_fix_after(int rounds) { fix_after_ = std::max(1, rounds); }

  enum class Solve { optimal, time_limit, failed };
  // Deletes the rows and columns the sets no longer need, rebuilds the set-dependent rows and
  // solves from the last basis (from a fresh basis if that fails), within `seconds` if > 0.
  Solve solve(double seconds) {
    delete_dead();
    rebuild_rows();
    glp_prob* lp = lp_.get();
    const auto started = Clock::now();
    // An iteration cap per attempt: GLPK's simplex can stall on these degenerate LPs (an OPTDIGITS
    // LP of 4,400 rows ran for minutes where its neighbours took 2 s); a capped or failed attempt
    // is retried from GLPK's advanced basis, then as a scaled copy (solve_rescaled), then as a
    // presolved copy (solve_presolved), then by the primal simplex from the standard basis.
    simplex_.it_lim = pivot_limit_ > 0 ? pivot_limit_ : 2 * (glp_get_num_rows(lp) + glp_get_num_cols(lp)) + 5000;
    auto attempt = [&](int method) {
      simplex_.tm_lim = glpk_time_limit(seconds > 0.0 ? std::max(seconds - seconds_since(started), 1e-3) : 0.0);
      simplex_.meth = method;
      const int before = glp_get_it_cnt(lp);
      const int code = glp_simplex(lp, &simplex_);
      pivots_ += glp_get_it_cnt(lp) - before;
      if (code == 0 && glp_get_status(lp) == GLP_OPT) return Solve::optimal;
      return code == GLP_ETMLIM ? Solve::time_limit : Solve::failed;
    };
    Solve result = attempt(GLP_DUALP);
    if (result != Solve::failed) return result;
    glp_term_out(GLP_OFF);  // glp_adv_basis reports on the terminal
    glp_adv_basis(lp, 0);
    glp_term_out(GLP_ON);
    result = attempt(GLP_DUALP);
    if (result != Solve::failed) return result;
    result = solve_rescaled(seconds > 0.0 ? std::max(seconds - seconds_since(started), 1e-3) : 0.0);
    if (result != Solve::failed) return result;
    result = solve_presolved(seconds > 0.0 ? std::max(seconds - seconds_since(started), 1e-3) : 0.0);
    if (result != Solve::failed) return result;
    lp = lp_.get();
    glp_std_basis(lp);
    simplex_.it_lim = INT_MAX;
    return attempt(GLP_PRIMAL);
  }

  using Problem = std::unique_ptr<glp_prob, decltype(&glp_delete_prob)>;
  Problem copy_of_lp() const {
    Problem copy(glp_create_prob(), glp_delete_prob);
    glp_copy_prob(copy.get(), lp_.get(), GLP_ON);
    return copy;
  }
  // Solves a rescue copy with `parameters`; when it is optimal it replaces the LP (same row and
  // column numbers) and counts as rescued.
  Solve adopt_if_solved(Problem copy, const glp_smcp& parameters) {
    const int code = glp_simplex(copy.get(), &parameters);
    pivots_ += glp_get_it_cnt(copy.get());
    if (code == GLP_ETMLIM) return Solve::time_limit;
    if (code != 0 || glp_get_status(copy.get()) != GLP_OPT) return Solve::failed;
    lp_ = std::move(copy);
    ++rescued_;
    return Solve::optimal;
  }
  // The rescue when the strict simplex fails (numerical trouble at small lambda, where the
  // adversary's moments must match Phi_gold to within lambda |theta*|): a copy of the LP, scaled
  // by GLPK, solved from its advanced basis at GLPK's default tolerances (1e-7). Any solution
  // serves: the bounds come from best responses to the strategies it gives, whatever its accuracy;
  // later rounds are strict again.
  Solve solve_rescaled(double seconds) {
    Problem copy = copy_of_lp();
    glp_term_out(GLP_OFF);
    glp_scale_prob(copy.get(), GLP_SF_AUTO);
    glp_adv_basis(copy.get(), 0);
    glp_term_out(GLP_ON);
    glp_smcp relaxed = simplex_;
    relaxed.tol_bnd = 1e-7;
    relaxed.tol_dj = 1e-7;
    relaxed.meth = GLP_DUALP;
    // A far larger cap than the strict attempts': an OPTDIGITS LP of 3,036 rows (class 0, lambda =
    // 1/2, round 4) took 282,202 dual iterations here, then the training certified.
    relaxed.it_lim = 100 * (glp_get_num_rows(copy.get()) + glp_get_num_cols(copy.get())) + 100000;
    relaxed.tm_lim = glpk_time_limit(seconds);
    return adopt_if_solved(std::move(copy), relaxed);
  }
  // The next rescue: a copy solved through GLPK's LP presolver, which builds the basis anew (the
  // scaled copy of OPTDIGITS class 7, lambda = 1/4, round 4 was declared infeasible, which this LP
  // never is: z has no lower bound; presolved: optimal in 1.2 s, and the training certified).
  Solve solve_presolved(double seconds) {
    glp_smcp presolved;
    glp_init_smcp(&presolved);
    presolved.msg_lev = simplex_.msg_lev;
    presolved.presolve = GLP_ON;
    presolved.meth = GLP_DUALP;
    presolved.tm_lim = glpk_time_limit(seconds);
    return adopt_if_solved(copy_of_lp(), presolved);
  }
  long rescued() const { return rescued_; }
  long pivots() const { return pivots_; }
  void set_pivot_limit(int limit) { pivot_limit_ = limit; }

  Eigen::VectorXd theta_value() const {
    Eigen::VectorXd out(d_);
    for (int j = 0; j < d_; ++j) out[j] = glp_get_col_prim(lp_.get(), theta(j));
    return out;
  }

  // Over all examples: substituted p_ik = r_k, no column p_ik = 0.
  SizeStrategy predictor_strategy() const {
    SizeStrategy s;
    s.empty = glp_get_col_prim(lp_.get(), r0());
    for (const auto& size : predictor_) {
      s.sizes.push_back(size.k);
      const double r = glp_get_col_prim(lp_.get(), size.r);
      s.weight.push_back(r);
      Eigen::VectorXd m = Eigen::VectorXd::Zero(n_);
      for (std::size_t f = 0; f < free_.size(); ++f)
        m[free_[f]] = size.state[f] == kAtR ? r : size.state[f] == kOut ? 0.0 : glp_get_col_prim(lp_.get(), size.p[f]);
      s.marginal.push_back(std::move(m));
    }
    make_feasible(s);
    return s;
  }

  // Over all examples: fixed in q_il = pi_l (the value row's dual), no row q_il = 0.
  SizeStrategy adversary_strategy() const {
    SizeStrategy s;
    s.empty = std::fabs(glp_get_row_dual(lp_.get(), empty_row_));
    for (const auto& size : adversary_) {
      s.sizes.push_back(size.l);
      const double weight = std::fabs(glp_get_row_dual(lp_.get(), size.value_row));
      s.weight.push_back(weight);
      Eigen::VectorXd m = Eigen::VectorXd::Zero(n_);
      for (long i = 0; i < n_; ++i) {
        const std::size_t u = static_cast<std::size_t>(i);
        if (size.in[u]) m[i] = weight;
        else if (size.row[u] >= 0) m[i] = std::fabs(glp_get_row_dual(lp_.get(), size.row[u]));
      }
      s.marginal.push_back(std::move(m));
    }
    make_feasible(s);
    return s;
  }

  int predictor_sizes() const { return static_cast<int>(predictor_.size()); }
  int adversary_sizes() const { return static_cast<int>(adversary_.size()); }
  long adversary_rows() const {
    long rows = 0;
    for (const auto& s : adversary_)
      rows += std::count_if(s.row.begin(), s.row.end(), [](int r) { return r >= 0; });
    return rows;
  }
  long adversary_fixed() const {
    long fixed = 0;
    for (const auto& s : adversary_) fixed += s.in_count;
    return fixed;
  }
  long predictor_fixed() const {
    long fixed = 0;
    for (const auto& s : predictor_) fixed += s.fixed_count;
    return fixed;
  }
  long unfixed() const { return unfixed_; }
  long dropped_sizes() const { return dropped_; }
  int rows() const { return glp_get_num_rows(lp_.get()); }

 private:
  static constexpr double kAtBound = 1e-9;      // a marginal this close to a bound is at it
  static constexpr char kColumn = 0, kAtR = 1, kOut = 2;  // a predictor slot's state at a size
  static constexpr double kZeroWeight = 1e-12;  // a size with no more weight is idle

  struct PredictorSize {
    long k = 0;
    int r = 0, balance = 0;
    std::vector<int> p, cap;  // per slot: column p_ik and its row p_ik <= r_k; -1 while substituted
    std::vector<char> state;  // per slot: kColumn, kAtR (p_ik = r_k substituted) or kOut (p_ik = 0)
    std::vector<signed char> streak;  // per slot: rounds in a row fixable in (> 0) or out (< 0)
    long fixed_count = 0;
    int idle = 0;
  };
  struct AdversarySize {
    long l = 0;
    int sigma = 0, value_row = 0;
    std::vector<int> row, mu;  // per example: its row and column mu_il, -1 = none
    std::vector<char> in;      // per example: fixed in the size's actions (aggregated)
    std::vector<signed char> streak;  // per example: rounds in a row fixable in (> 0) or out (< 0)
    long in_count = 0;
    int idle = 0;
  };

  int theta(int j) const { return 1 + j; }
  int t(int j) const { return 1 + d_ + j; }
  int z() const { return 1 + 2 * d_; }
  int r0() const { return 2 + 2 * d_; }

  int add_row(int type, double bound, std::vector<int> columns, std::vector<double> values) {
    glp_prob* lp = lp_.get();
    const int row = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, row, type, bound, bound);
    set_row(row, std::move(columns), std::move(values));
    return row;
  }
  void set_row(int row, std::vector<int> columns, std::vector<double> values) {
    columns.insert(columns.begin(), 0);
    values.insert(values.begin(), 0.0);
    glp_set_mat_row(lp_.get(), row, static_cast<int>(columns.size()) - 1, columns.data(), values.data());
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

  // Fixing a column at the value its row makes tight (mu_il = sigma_l - c_il, p_ik = r_k) and
  // substituting it into the other rows is one Gaussian elimination step on the basis when the
  // column is basic and the row's auxiliary is not: the basis of the rest stays non-singular.
  bool eliminable(int column, int row) const {
    return glp_get_col_stat(lp_.get(), column) == GLP_BS && glp_get_row_stat(lp_.get(), row) != GLP_BS;
  }
  // Removing a non-basic column (at 0) with a row whose auxiliary is basic leaves a basis of the rest.
  bool removable(int column, int row) const {
    return glp_get_col_stat(lp_.get(), column) != GLP_BS && glp_get_row_stat(lp_.get(), row) == GLP_BS;
  }
  // A size's rows hold only its own columns (a predictor size's balance and cap rows: r_k, p_ik;
  // an adversary size's value row and rows: sigma_l, mu_il besides others') and, for an adversary
  // size, its columns appear only in its rows. Either way the basis is block triangular with the
  // size's rows and its basic variables as one diagonal block, so deleting the size leaves a
  // non-singular basis of the rest iff that block is square: as many of its columns basic as its
  // rows tight (auxiliary non-basic). Dropped regardless, the count repair guessed statuses and
  // the next solve started from a singular basis (syn1000: after 6 % of the rounds, each then
  // re-solved from GLPK's advanced basis at ~3k pivots instead of ~500).
  bool block_leaves_basis(const std::vector<int>& columns, const std::vector<int>& rows) const {
    long basic = 0, tight = 0;
    for (int c : columns)
      if (c >= 0) basic += glp_get_col_stat(lp_.get(), c) == GLP_BS;
    for (int r : rows)
      if (r >= 0) tight += glp_get_row_stat(lp_.get(), r) != GLP_BS;
    return basic == tight;
  }
  static std::vector<int> with(int first, const std::vector<int>& rest) {
    std::vector<int> out{first};
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }

  // Undoing an elimination: the column comes back basic, its row tight (status `bound`).
  void restore_elimination(int column, int row, int bound) {
    glp_set_col_stat(lp_.get(), column, GLP_BS);
    glp_set_row_stat(lp_.get(), row, bound);
  }

  // A pair is fixed once it has met the same condition (in or out) for fix_after rounds in a row.
  bool count_streak(signed char& streak, bool in, bool out) const {
    if (in) streak = static_cast<signed char>(std::clamp(streak > 0 ? streak + 1 : 1, 1, 100));
    else if (out) streak = static_cast<signed char>(std::clamp(streak < 0 ? streak - 1 : -1, -100, -1));
    else streak = 0;
    return std::abs(streak) >= fix_after_;
  }

  std::vector<char> indicator(const std::vector<long>& examples) const {
    std::vector<char> out(static_cast<std::size_t>(n_), 0);
    for (long i : examples) out[static_cast<std::size_t>(i)] = 1;
    return out;
  }

  // Column p_ik of slot f and its row p_ik <= r_k (its other entries come from rebuild_rows).
  void add_predictor_column(PredictorSize& s, std::size_t f) {
    glp_prob* lp = lp_.get();
    const int column = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, column, GLP_LO, 0.0, 0.0);
    s.p[f] = column;
    s.cap[f] = add_row(GLP_UP, 0.0, {column, s.r}, {1.0, -1.0});
  }

  // Row mu_il - sigma_l + sum_k kernel(k, l) p_ik - x_i . theta >= 0 and column mu_il (entries
  // from rebuild_rows).
  void add_adversary_row(AdversarySize& s, long i) {
    const std::size_t u = static_cast<std::size_t>(i);
    if (s.row[u] >= 0) return;
    s.mu[u] = glp_add_cols(lp_.get(), 1);
    glp_set_col_bnds(lp_.get(), s.mu[u], GLP_LO, 0.0, 0.0);
    s.row[u] = add_row(GLP_LO, 0.0, {s.mu[u]}, {1.0});
  }

  // Fixes example i in size s's actions; its row and mu column, if any, go.
  void fix_in(AdversarySize& s, long i) {
    const std::size_t u = static_cast<std::size_t>(i);
    if (s.in[u]) return;
    s.in[u] = 1;
    ++s.in_count;
    if (s.row[u] < 0) return;
    dead_rows_.push_back(s.row[u]);
    dead_columns_.push_back(s.mu[u]);
    s.row[u] = s.mu[u] = -1;
  }

  // The rows whose coefficients depend on the sets:
  //   balance of size k:  sum_{i free} p_ik - (k - |J_k|) r_k = 0, J_k the substituted examples;
  //   row (i, l):  mu_il - sigma_l + sum_k kernel(k, l) [p_ik or r_k] - x_i . theta >= 0;
  //   value row of l:  z - (l - |I_l|) sigma_l + sum_{rows} mu_il - sum_{i in I_l} c_il <= 0,
  //     with -c_il = x_i . theta - sum_k kernel(k, l) [p_ik or r_k]: the smallest sum of l costs
  //     with the examples I_l taken (LP duality on the rest).
  void rebuild_rows() {
    std::vector<int> columns;
    std::vector<double> values;
    for (const auto& s : predictor_) {
      columns.assign({s.r});
      values.assign({-static_cast<double>(s.k - s.fixed_count)});
      for (std::size_t f = 0; f < free_.size(); ++f)
        if (s.state[f] == kColumn) {
          columns.push_back(s.p[f]);
          values.push_back(1.0);
        }
      set_row(s.balance, columns, values);
    }
    // The predictor terms sum_k kernel(k, l) [p_ik or r_k] of example i, times sign.
    auto predictor_terms = [&](long i, long l, double sign) {
      const int f = slot_[static_cast<std::size_t>(i)];
      if (f < 0) return;
      for (const auto& s : predictor_) {
        const char state = s.state[static_cast<std::size_t>(f)];
        if (state == kOut) continue;
        columns.push_back(state == kAtR ? s.r : s.p[static_cast<std::size_t>(f)]);
        values.push_back(sign * kernel(s.k, l));
      }
    };
    for (const auto& a : adversary_) {
      for (long i = 0; i < n_; ++i) {
        const std::size_t u = static_cast<std::size_t>(i);
        if (a.row[u] < 0) continue;
        columns.assign({a.mu[u], a.sigma});
        values.assign({1.0, -1.0});
        for (SparseRowMatrix::InnerIterator it(x_, i); it; ++it) {
          columns.push_back(theta(static_cast<int>(it.col())));
          values.push_back(-it.value());
        }
        predictor_terms(i, a.l, 1.0);
        set_row(a.row[u], columns, values);
      }
      columns.assign({z(), a.sigma});
      values.assign({1.0, -static_cast<double>(a.l - a.in_count)});
      Eigen::VectorXd features = Eigen::VectorXd::Zero(d_);
      Eigen::VectorXd at_r = Eigen::VectorXd::Zero(static_cast<long>(predictor_.size()));
      for (long i = 0; i < n_; ++i) {
        const std::size_t u = static_cast<std::size_t>(i);
        if (a.row[u] >= 0) {
          columns.push_back(a.mu[u]);
          values.push_back(1.0);
        }
        if (!a.in[u]) continue;
        for (SparseRowMatrix::InnerIterator it(x_, i); it; ++it) features[it.col()] += it.value();
        const int f = slot_[u];
        if (f < 0) continue;
        for (std::size_t j = 0; j < predictor_.size(); ++j) {
          const auto& s = predictor_[j];
          const char state = s.state[static_cast<std::size_t>(f)];
          if (state == kAtR) {
            at_r[static_cast<long>(j)] -= kernel(s.k, a.l);
          } else if (state == kColumn) {
            columns.push_back(s.p[static_cast<std::size_t>(f)]);
            values.push_back(-kernel(s.k, a.l));
          }
        }
      }
      for (int j = 0; j < d_; ++j)
        if (features[j] != 0.0) {
          columns.push_back(theta(j));
          values.push_back(features[j]);
        }
      for (std::size_t j = 0; j < predictor_.size(); ++j)
        if (at_r[static_cast<long>(j)] != 0.0) {
          columns.push_back(predictor_[j].r);
          values.push_back(at_r[static_cast<long>(j)]);
        }
      set_row(a.value_row, columns, values);
    }
  }

  // Deletes the listed rows and columns; GLPK renumbers the rest in order (an index moves down by
  // the deleted indices below it), so every stored index is shifted, and the basis count repaired.
  void delete_dead() {
    if (dead_rows_.empty() && dead_columns_.empty()) return;
    glp_prob* lp = lp_.get();
    for (auto* list : {&dead_rows_, &dead_columns_}) {
      std::sort(list->begin(), list->end());
      list->insert(list->begin(), 0);  // GLPK's 1-based lists
    }
    if (dead_rows_.size() > 1) glp_del_rows(lp, static_cast<int>(dead_rows_.size()) - 1, dead_rows_.data());
    if (dead_columns_.size() > 1) glp_del_cols(lp, static_cast<int>(dead_columns_.size()) - 1, dead_columns_.data());
    auto shift = [](const std::vector<int>& deleted) {
      return [&deleted](int& index) {
        if (index > 0)
          index -= static_cast<int>(std::lower_bound(deleted.begin() + 1, deleted.end(), index) - (deleted.begin() + 1));
      };
    };
    const auto row = shift(dead_rows_), column = shift(dead_columns_);
    for (auto& s : predictor_) {
      column(s.r);
      row(s.balance);
      for (int& c : s.p) column(c);
      for (int& r : s.cap) row(r);
    }
    for (auto& s : adversary_) {
      column(s.sigma);
      row(s.value_row);
      for (int& c : s.mu) column(c);
      for (int& r : s.row) row(r);
    }
    dead_rows_.clear();
    dead_columns_.clear();
    repair_basis_count(lp);
  }

  const SparseRowMatrix& x_;
  long n_;
  int d_;
  double lambda_, spacing_, box_;
  Problem lp_;
  long rescued_ = 0;  // LPs solved by solve_rescaled
  long pivots_ = 0;   // simplex iterations, over every attempt
  int pivot_limit_ = 0;  // per strict attempt; 0 = by the LP's size
  glp_smcp simplex_;
  std::vector<std::vector<double>> tangents_;
  std::vector<int> slot_;        // example -> its predictor slot, -1 = none
  std::vector<long> free_;       // examples with predictor columns, by slot
  std::vector<PredictorSize> predictor_;
  std::vector<AdversarySize> adversary_;
  std::vector<int> dead_rows_, dead_columns_;  // to delete before the next solve
  int sum_row_ = 0, empty_row_ = 0;
  long unfixed_ = 0, dropped_ = 0;
  std::set<long> dropped_k_, dropped_l_;  // sizes dropped once
  int fix_after_ = 1;
};

}  // namespace

nlohmann::json JointTrainSummary::to_json() const {
  nlohmann::json out = certified_run_json(converged(), message, iterations, objective, lower_bound, gap);
  out.update({{"predictor_sizes", predictor_sizes},
              {"adversary_sizes", adversary_sizes},
              {"predictor_examples", predictor_examples},
              {"adversary_rows", adversary_rows},
              {"adversary_fixed", adversary_fixed},
              {"predictor_fixed", predictor_fixed},
              {"unfixed", unfixed},
              {"dropped_sizes", dropped_sizes},
              {"lp_rows", lp_rows},
              {"rescued_lps", rescued_lps},
              {"lp_pivots", lp_pivots},
              {"sizes_per_round", sizes_per_round},
              {"tail_rounds", tail_rounds},
              {"seconds", seconds},
              {"lp_seconds", lp_seconds},
              {"response_seconds", response_seconds}});
  return out;
}

std::string JointTrainSummary::report() const {
  return fmt::format(
      "{} after {} rounds: objective {:.10g} (certified gap {:.2e}), {} + {} sizes ({} dropped), {} predictor "
      "examples ({} substituted by r_k), {} adversary rows ({} fixed in), {} unfixed, {} LP rows ({} rescued), {} pivots; "
      "{:.2f} s ({:.2f} s LP, {:.2f} s best responses)",
      message, iterations, objective, gap, predictor_sizes, adversary_sizes, dropped_sizes, predictor_examples,
      predictor_fixed, adversary_rows, adversary_fixed, unfixed, lp_rows, rescued_lps, lp_pivots, seconds, lp_seconds,
      response_seconds);
}

double gold_direction_step(const BinaryProblem& problem, double lambda) {
  if (!(lambda > 0.0)) throw Error("gold_direction_step needs lambda > 0");
  const BinaryAction gold = positives_of(problem.labels);
  const Eigen::VectorXd gold_features = features_of(problem.features, gold);
  const double norm = gold_features.norm();
  if (!(norm > 0.0)) return 0.0;
  const Eigen::VectorXd u = problem.features * (gold_features / norm);
  std::vector<char> is_gold(static_cast<std::size_t>(u.size()), 0);
  for (auto i : gold) is_gold[static_cast<std::size_t>(i)] = 1;
  return gold_direction_scale(u, is_gold, lambda, norm);
}

BinaryModel train_f1_mpg_joint(const BinaryProblem& problem, const MetricSettings& settings,
                               const JointTrainOptions& options, JointTrainSummary* summary_out) {
  const auto start = Clock::now();
  const double lambda = options.lambda;
  require_certified_lambda("the joint trainer", lambda);
  if (!(options.tolerance > 0.0)) throw Error("the joint trainer needs a tolerance > 0");
  if (options.pivot_limit < 0) throw Error("the joint trainer needs a pivot_limit >= 0 (0 = by the LP's size)");
  if (options.sizes_per_round < 1) throw Error("the joint trainer needs sizes_per_round >= 1");
  if (options.tail_sizes_per_round < 0 || !(options.tail_gap >= 1.0))
    throw Error("the joint trainer needs tail_sizes_per_round >= 0 and tail_gap >= 1");
  if (!std::isfinite(options.start_potential))
    throw Error("the joint trainer needs a finite start_potential (got " + std::to_string(options.start_potential) + ")");
  if (!has_joint_trainer(settings))
    throw Error("the joint trainer trains the MPG of F1 only (its LP encodes F1's game); got metric " +
                to_string(settings.metric));
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
  if (options.start == TrainStart::gold_direction && gold_features.norm() > 0.0) {
    best_theta = gold_features / gold_features.norm();  // the other trainers' start, then scaled
    if (options.start_potential == 0.0) {
      best_theta *= gold_direction_step(problem, lambda);
    } else if (options.start_potential > 0.0) {  // > 0: the gold examples' potentials sum to |Phi_gold|
      best_theta *= options.start_potential / (x * best_theta).cwiseAbs().maxCoeff();
    }
  }
  Eigen::VectorXd center = best_theta;  // of the trust region of the LP being solved
  lp.set_trust_region(center, radius);
  // Start: predictor columns for the gold examples and, up to initial_free_factor times as many,
  // the examples most like them (largest x_i . Phi_gold); both players at the gold count, the
  // adversary's examples ranked by their costs against the gold action at the start point.
  for (auto i : gold) lp.add_predictor_example(static_cast<long>(i));
  {
    const Eigen::VectorXd likeness = x * gold_features;
    const long extra = std::min(n, static_cast<long>(options.initial_free_factor * static_cast<double>(positives)));
    if (extra > 0)
      for (long i : cheapest(-likeness, extra))
        if (lp.predictor_examples() < extra) lp.add_predictor_example(i);
  }
  lp.add_predictor_size(positives);
  lp.set_fix_after(options.fix_after);
  lp.set_pivot_limit(options.pivot_limit);
  lp.set_long_step(options.long_step);
  // Examples ranked below size - fix_margin by a player's costs (gains) at a size (none if < 0).
  auto surely = [&](const Eigen::VectorXd& cost, long size) {
    return options.fix_margin < 0 ? std::vector<long>{} : cheapest(cost, size - options.fix_margin);
  };
  // Examples ranked below size + fix_margin (all if < 0).
  auto near = [&](const Eigen::VectorXd& cost, long size) {
    return cheapest(cost, options.fix_margin < 0 ? n : size + options.fix_margin);
  };
  {
    Eigen::VectorXd cost = -(x * best_theta);
    for (auto i : gold) cost[static_cast<long>(i)] += kernel(positives, positives);
    lp.add_adversary_size(positives, {}, cheapest(cost, positives + options.row_margin));
  }

  JointTrainSummary summary;
  summary.sizes_per_round = options.sizes_per_round;
  summary.objective = std::numeric_limits<double>::infinity();
  summary.lower_bound = -std::numeric_limits<double>::infinity();
  double best_gap = std::numeric_limits<double>::infinity();
  int last_progress = 0;
  for (;;) {
    ++summary.iterations;
    const auto lp_start = Clock::now();
    const double seconds_left = options.max_seconds - seconds_since(start);
    const JointLp::Solve solved = lp.solve(options.max_seconds > 0.0 ? std::max(seconds_left, 1e-3) : 0.0);
    summary.lp_seconds += seconds_since(lp_start);
    // Without a finished round there are no bounds and no theta to return.
    if (solved == JointLp::Solve::failed && summary.iterations == 1)
      throw SolverError("the joint trainer's LP has no optimum (GLPK) in round 1");
    if (solved != JointLp::Solve::optimal) {  // the bounds of the rounds before stand
      --summary.iterations;
      const int round = summary.iterations + 1;
      if (solved == JointLp::Solve::time_limit) {
        summary.status = CuttingPlaneStatus::time_limit;
        summary.message = fmt::format("{} (inside the LP of round {})", to_string(RunLimit::seconds), round);
      } else {
        summary.status = CuttingPlaneStatus::lp_failure;
        summary.message = fmt::format("{} (GLPK found no optimum of the LP of round {})", to_string(summary.status), round);
      }
      break;
    }
    const auto response_start = Clock::now();
    const Eigen::VectorXd theta = lp.theta_value();
    const Eigen::VectorXd psi = x * theta;
    const SizeStrategy predictor = lp.predictor_strategy();
    const SizeStrategy adversary = lp.adversary_strategy();
    // Lower bound on J* at (P, theta): F(theta) <= -it.
    const std::vector<long> adversary_lp_sizes = lp.adversary_size_list();
    const std::vector<double> adversary_by_size =
        adversary_values(predictor, psi, options.lazy_best_values ? &adversary_lp_sizes : nullptr);
    const long best_l = std::min_element(adversary_by_size.begin(), adversary_by_size.end()) - adversary_by_size.begin();
    const double guaranteed = adversary_by_size[static_cast<std::size_t>(best_l)] + theta.dot(gold_features) -
                              0.5 * lambda * theta.squaredNorm();
    const bool improved = -guaranteed < summary.objective;
    if (improved) {
      summary.objective = -guaranteed;
      best_theta = theta;
    }
    // Upper bound on J* from Q: min F >= -it.
    Eigen::VectorXd q = Eigen::VectorXd::Zero(n);
    for (const auto& m : adversary.marginal) q += m;
    const Eigen::VectorXd moment_gap = x.transpose() * q - gold_features;  // E_Q[Phi] - Phi_gold
    const std::vector<long> predictor_lp_sizes = lp.predictor_size_list();
    const std::vector<double> predictor_by_size =
        predictor_values(adversary, options.lazy_best_values ? &predictor_lp_sizes : nullptr);
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
    auto add_adversary_at = [&](long l) {
      if (l <= 0 || lp.has_adversary_size(l)) return;
      const Eigen::VectorXd cost = cost_at(l);
      // sparse growth: its examples ranked below l - fix_margin fixed in from the start
      lp.add_adversary_size(l, options.sparse_growth ? surely(cost, l) : std::vector<long>{},
                            cheapest(cost, l + options.row_margin));
    };
    const bool tail = options.tail_sizes_per_round > 0 && summary.gap <= options.tail_gap * options.tolerance;
    const int sizes_now = tail ? options.tail_sizes_per_round : options.sizes_per_round;
    if (tail) ++summary.tail_rounds;
    {
      const std::vector<long> extra =
          violating_sizes(adversary_by_size, adversary_lp_sizes, best_l, sizes_now - 1, -1.0);
      add_adversary_at(best_l);
      for (long l : extra) add_adversary_at(l);
    }
    {
      const std::vector<long> sizes = lp.adversary_size_list();
      for (std::size_t j = 0; j < sizes.size(); ++j) {
        const Eigen::VectorXd cost = cost_at(sizes[j]);
        lp.update_adversary(j, cheapest(cost, sizes[j]), surely(cost, sizes[j]), near(cost, sizes[j]), adversary);
      }
    }
    // (for a size already in the LP: only the examples its best action takes join, as columns-to-be)
    auto add_predictor_at = [&](long k) {
      if (k <= 0) return;
      Eigen::VectorXd gain(n);
      size_costs(adversary, k, gain);
      const Eigen::VectorXd loss = -gain;
      for (long i : cheapest(loss, k)) lp.add_predictor_example(i, options.sparse_growth);
      if (options.sparse_growth) {
        // surely and near: ranked below k -/+ fix_margin (none fixed, all near, if fix_margin < 0)
        const std::vector<long> in = surely(loss, k), band = near(loss, k);
        for (long i : band) lp.add_predictor_example(i, true);
        lp.add_predictor_size(k, &in, &band);
      } else {
        lp.add_predictor_size(k);
      }
    };
    {
      const std::vector<long> extra =
          violating_sizes(predictor_by_size, predictor_lp_sizes, best_k, sizes_now - 1, 1.0);
      add_predictor_at(best_k);
      for (long k : extra) add_predictor_at(k);
    }
    {
      const std::vector<long> sizes = lp.predictor_size_list();
      Eigen::VectorXd gain(n);
      for (std::size_t j = 0; j < sizes.size(); ++j) {
        size_costs(adversary, sizes[j], gain);
        const Eigen::VectorXd loss = -gain;
        lp.update_predictor(j, cheapest(loss, sizes[j]), surely(loss, sizes[j]), near(loss, sizes[j]), predictor);
      }
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
    // Idle sizes leave only in a round that improved the objective (a serious step, in bundle
    // terms): after a null step the model must keep what cut the rejected theta off, or the next
    // LP may propose it again (dropped there, OPTDIGITS class 7 at lambda = 2^-4 stalled at gap
    // 4.7e-5 for an hour; docs/methods.md).
    lp.drop_idle_sizes(predictor, adversary, improved ? options.drop_idle_rounds : 0, best_k, best_l);
    summary.response_seconds += seconds_since(response_start);

    summary.predictor_sizes = lp.predictor_sizes();
    summary.adversary_sizes = lp.adversary_sizes();
    summary.predictor_examples = static_cast<int>(lp.predictor_examples());
    summary.adversary_rows = lp.adversary_rows();
    summary.adversary_fixed = lp.adversary_fixed();
    summary.predictor_fixed = lp.predictor_fixed();
    summary.unfixed = lp.unfixed();
    summary.dropped_sizes = lp.dropped_sizes();
    summary.lp_rows = lp.rows();
    summary.rescued_lps = lp.rescued();
    summary.lp_pivots = lp.pivots();
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
