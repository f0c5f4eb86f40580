// The F1 game over marginals (lib/metrics/f1_marginal_solver.hpp). Notation: examples are ranked by psi,
// descending; a player's strategy is r_k = P(|y| = k) and p_ik = P(y_i = 1, |y| = k), any point
// of 0 <= p_ik <= r_k, sum_i p_ik = k r_k (a scaled hypersimplex per size: every such point is
// the marginal of some mixture of pure actions). The payoff is bilinear in the marginals,
//   E[F1 - psi(Y_check)] = sum_i sum_kl p_ik q_il 2/(k+l) - sum_il q_il psi_i    (k, l >= 1),
// plus 1 for the pair of empty actions.
//
// Each size has a layout over the ranks: every example below `lo` is fixed in, every one from
// `hi` on is fixed out, and the window [lo, hi) holds free entries (LP variables for the
// predictor, LP rows for the adversary) and entries fixed in or out. After each LP, pricing frees
// the fixed entries that the LP's optimality conditions reject, and the LP is re-solved from its
// last basis until none is left; the LP is then optimal for the game restricted to its sizes.
// Sizes that carry no weight for a few rounds leave the LP.
//
// Each round the certificate computes both players' best responses over all sizes 0..n and all
// examples of the full game, against the LP's strategies. The best sizes that beat the LP's
// value are added, or, if present already, their fixed entries that disagree with the best
// response are freed. The bounds pair the best predictor and the best adversary strategy found
// so far: they hold for the full game, whatever the layouts.
#include "lib/metrics/f1_marginal_solver.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lib/base/choices.hpp"
#include "lib/base/error.hpp"
#include "lib/game/glpk_basis.hpp"
#include "lib/game/matrix_game.hpp"
#include "lib/metrics/f1_marginal_rounds.hpp"

namespace mpg {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Potentials sorted descending, with prefix sums: prefix[j] = psi_0 + ... + psi_{j-1}.
struct RankedPotentials {
  std::vector<double> psi;
  std::vector<double> prefix;
  std::vector<std::size_t> order;  // order[rank] = the example's index in the input
  explicit RankedPotentials(const std::vector<double>& potentials)
      : prefix(potentials.size() + 1, 0.0), order(potentials.size()) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return potentials[x] > potentials[y]; });
    for (std::size_t i : order) psi.push_back(potentials[i]);
    std::partial_sum(psi.begin(), psi.end(), prefix.begin() + 1);
  }
  long n() const { return static_cast<long>(psi.size()); }
  double sum(long first, long end) const { return prefix[end] - prefix[first]; }
};

// One player's strategy over a region of ranks [a, b): ranks below a are positive in every action
// played, ranks from b on in none. sizes[j] is played with probability weight[j], and
// region[i * sizes.size() + j] = P(example a + i positive and size sizes[j]).
struct RegionStrategy {
  double empty = 0.0;  // probability of the empty action (size 0)
  std::vector<long> sizes;
  std::vector<double> weight;
  std::vector<double> region;

  // The same strategy without its sizes of zero weight (the certificate's cost grows with them).
  RegionStrategy in_use(long width) const {
    RegionStrategy out;
    out.empty = empty;
    const std::size_t m = sizes.size();
    std::vector<std::size_t> kept;
    for (std::size_t j = 0; j < m; ++j)
      if (weight[j] > 0.0) kept.push_back(j);
    for (auto j : kept) {
      out.sizes.push_back(sizes[j]);
      out.weight.push_back(weight[j]);
    }
    for (long i = 0; i < width; ++i)
      for (auto j : kept) out.region.push_back(region[static_cast<std::size_t>(i) * m + j]);
    return out;
  }
};

// Which ranks one size's actions may label positive: fixed in below lo, fixed out from hi on,
// and a status per rank of the window [lo, hi).
struct SizeLayout {
  enum Status : signed char { kOut = 0, kIn = 1, kFree = 2 };
  long size, lo, hi;
  std::vector<signed char> status;
  int idle_rounds = 0;  // consecutive LP solutions in which the size had zero weight

  static SizeLayout window(long size, long half_width, long n) {
    SizeLayout x{size, std::max(0L, size - half_width), std::min(n, size + half_width), {}};
    x.status.assign(static_cast<std::size_t>(x.hi - x.lo), kFree);
    return x;
  }
  int at(long i) const {
    if (i < lo) return kIn;
    if (i >= hi) return kOut;
    return status[static_cast<std::size_t>(i - lo)];
  }
  void free(long i) {
    if (i < lo) {
      status.insert(status.begin(), static_cast<std::size_t>(lo - i), kIn);
      lo = i;
    }
    if (i >= hi) {
      status.insert(status.end(), static_cast<std::size_t>(i + 1 - hi), kOut);
      hi = i + 1;
    }
    status[static_cast<std::size_t>(i - lo)] = kFree;
  }
  long count_in() const { return lo + std::count(status.begin(), status.end(), kIn); }
};

double kernel(long k, long l) { return 2.0 / static_cast<double>(k + l); }  // F1 = 2|y^ y|/(k+l)
constexpr double kZeroWeight = 1e-12;  // a size weighted at most this counts as unused

struct Restricted {
  double value = 0.0;  // restricted game value (original payoff units)
  long first = 0, end = 0;  // the region [a, b) of both strategies
  RegionStrategy predictor, adversary;
  int rows = 0, pricing_passes = 0;
  double lp_seconds = 0.0;
};

// The predictor's maxmin over the layouts as one GLPK LP, kept across rounds and re-solved from
// its last basis. Payoffs are multiplied by lp_scale, which brings the F1 terms 2/(k+l) to
// order 1 so that GLPK's absolute tolerances bite. v is measured net of psi(ranks below a).
// Columns: v, r_0, r_k, p_ik (k's free entries), mu_l (free), nu_il >= 0 (l's free entries).
// Rows:
//   sum_k r_k = 1 (k >= 0);   sum_{i free} p_ik = (k - #in_k) r_k;   p_ik <= r_k;
//   v <= r_0                                      (the empty adversary action; dual: s_0)
//   v <= sum_{i in_l} c_il + (l - #in_l) mu_l - sum_{i free} nu_il             (dual: s_l)
//   mu_l - nu_il <= c_il                          for l's free entries i       (dual: q_il)
// with c_il = sum_k 2 p~_ik/(k+l) - psi_i, p~_ik = p_ik, r_k or 0 as k's entry i is free, in
// or out. The last two rows are "v <= the adversary's best value at size l" by LP duality.
class LayoutGame {
 public:
  std::vector<SizeLayout> predictor, adversary;
  bool with_empty_action = false;  // set once a best response is the empty action
  bool lp_failed = false;          // GLPK did not solve a restricted game within its caps

  LayoutGame(const RankedPotentials& ranked, double lp_scale) : ranked_(ranked), scale_(lp_scale) {}

  // Solves, frees the fixed entries pricing rejects, and re-solves until none is left. Empty if
  // the time limit ran out first or GLPK failed (lp_failed).
  std::optional<Restricted> solve(double seconds_left) {
    const auto start = Clock::now();
    Restricted out;
    for (;;) {
      ++out.pricing_passes;
      if (!build_and_solve(seconds_left - seconds_since(start))) return std::nullopt;
      if (free_rejected_entries() == 0) break;
    }
    out.lp_seconds = seconds_since(start);
    out.rows = glp_get_num_rows(lp());
    extract(out);
    for (std::size_t k = 0; k < predictor.size(); ++k)
      predictor[k].idle_rounds = out.predictor.weight[k] > kZeroWeight ? 0 : predictor[k].idle_rounds + 1;
    for (std::size_t l = 0; l < adversary.size(); ++l)
      adversary[l].idle_rounds = out.adversary.weight[l] > kZeroWeight ? 0 : adversary[l].idle_rounds + 1;
    return out;
  }

  // Removes the sizes idle for `rounds` solutions with their rows and columns. GLPK keeps the
  // basis of the rest; its count of basic variables is repaired if the removal upset it.
  void drop_idle_sizes(int rounds) {
    if (!lp_) return;
    std::vector<int> rows{0}, columns{0};  // GLPK's 1-based lists
    // Flags the idle sizes of one player and lists their rows and columns.
    auto collect = [&](const std::vector<SizeLayout>& layouts, const auto& index, auto column, auto row) {
      std::vector<char> drop(layouts.size(), 0);
      for (std::size_t j = 0; j < index.size(); ++j)
        if (layouts[j].idle_rounds >= rounds) {
          drop[j] = 1;
          columns.push_back(index[j].*column);
          rows.push_back(index[j].*row);
          for (const auto& [i, c] : index[j].columns) columns.push_back(c);
          for (const auto& [i, r] : index[j].rows) rows.push_back(r);
        }
      return drop;
    };
    const auto drop_k = collect(predictor, p_, &PredictorIndex::r_column, &PredictorIndex::sum_row);
    const auto drop_l = collect(adversary, q_, &AdversaryIndex::mu_column, &AdversaryIndex::value_row);
    if (rows.size() == 1) return;
    glp_del_rows(lp(), static_cast<int>(rows.size()) - 1, rows.data());
    glp_del_cols(lp(), static_cast<int>(columns.size()) - 1, columns.data());
    erase_flagged(predictor, drop_k);
    erase_flagged(p_, drop_k);
    erase_flagged(adversary, drop_l);
    erase_flagged(q_, drop_l);
    // GLPK renumbers the rest in order: an index moves down by the deleted indices below it.
    std::sort(rows.begin() + 1, rows.end());
    std::sort(columns.begin() + 1, columns.end());
    auto shift = [](const std::vector<int>& deleted) {
      return [&deleted](int& index) {
        index -= static_cast<int>(std::lower_bound(deleted.begin() + 1, deleted.end(), index) - (deleted.begin() + 1));
      };
    };
    const auto row = shift(rows), column = shift(columns);
    if (empty_column_ != 0) {
      column(empty_column_);
      row(empty_row_);
    }
    for (auto& x : p_) {
      column(x.r_column);
      row(x.sum_row);
      for (auto& [i, c] : x.columns) column(c);
      for (auto& [i, r] : x.rows) row(r);
    }
    for (auto& x : q_) {
      column(x.mu_column);
      row(x.value_row);
      for (auto& [i, c] : x.columns) column(c);
      for (auto& [i, r] : x.rows) row(r);
    }
    repair_basis_count(lp());
  }

 private:
  struct PredictorIndex {
    int r_column = 0, sum_row = 0;
    std::unordered_map<long, int> columns, rows;  // p_ik and p_ik <= r_k by rank i
  };
  struct AdversaryIndex {
    int mu_column = 0, value_row = 0;
    std::unordered_map<long, int> columns, rows;  // nu_il and mu_l - nu_il <= c_il by rank i
  };

  glp_prob* lp() const { return lp_.get(); }  // GLPK's getters take a non-const problem

  template <class T>
  static void erase_flagged(std::vector<T>& items, const std::vector<char>& flagged) {
    std::size_t kept = 0;
    for (std::size_t j = 0; j < items.size(); ++j)
      if (j >= flagged.size() || !flagged[j]) {
        if (j != kept) items[kept] = std::move(items[j]);
        ++kept;
      }
    items.resize(kept);
  }

  int add_column(int kind) {
    const int c = glp_add_cols(lp(), 1);
    glp_set_col_bnds(lp(), c, kind, 0.0, 0.0);
    return c;
  }
  int index_of(std::unordered_map<long, int>& map, long i, bool column) {
    const auto found = map.find(i);
    if (found != map.end()) return found->second;
    return map[i] = column ? add_column(GLP_LO) : glp_add_rows(lp(), 1);
  }

  // (Re)loads the whole matrix (new entries get new rows and columns; GLPK keeps the statuses
  // of the old ones, so the simplex starts from the last basis) and solves. False if out of time.
  bool build_and_solve(double seconds_left) {
    if (!lp_) {
      lp_.reset(glp_create_prob());
      glp_set_obj_dir(lp(), GLP_MAX);
      v_column_ = add_column(GLP_FR);
      glp_set_obj_coef(lp(), v_column_, 1.0);
      one_row_ = glp_add_rows(lp(), 1);
      glp_set_row_bnds(lp(), one_row_, GLP_FX, 1.0, 1.0);
    }
    if (with_empty_action && empty_column_ == 0) {
      empty_column_ = add_column(GLP_LO);
      empty_row_ = glp_add_rows(lp(), 1);
    }
    while (p_.size() < predictor.size()) {
      p_.emplace_back();
      p_.back().r_column = add_column(GLP_LO);
      p_.back().sum_row = glp_add_rows(lp(), 1);
      glp_set_row_bnds(lp(), p_.back().sum_row, GLP_FX, 0.0, 0.0);
    }
    while (q_.size() < adversary.size()) {
      q_.emplace_back();
      q_.back().mu_column = add_column(GLP_FR);
      q_.back().value_row = glp_add_rows(lp(), 1);
    }
    first_ = end_ = 0;
    region(first_, end_);
    std::vector<int> rows{0}, columns{0};
    std::vector<double> values{0.0};
    auto put = [&](int row, int column, double x) {
      rows.push_back(row);
      columns.push_back(column);
      values.push_back(x);
    };
    if (empty_column_ != 0) {
      put(one_row_, empty_column_, 1.0);
      put(empty_row_, v_column_, 1.0);
      put(empty_row_, empty_column_, -scale_);
      glp_set_row_bnds(lp(), empty_row_, GLP_UP, 0.0, scale_ * ranked_.sum(0, first_));
    }
    for (std::size_t k = 0; k < predictor.size(); ++k) {
      const SizeLayout& x = predictor[k];
      auto& index = p_[k];
      put(one_row_, index.r_column, 1.0);
      put(index.sum_row, index.r_column, -static_cast<double>(x.size - x.count_in()));
      for (long i = x.lo; i < x.hi; ++i) {
        if (x.at(i) != SizeLayout::kFree) continue;
        const int p = index_of(index.columns, i, true), bound = index_of(index.rows, i, false);
        glp_set_row_bnds(lp(), bound, GLP_UP, 0.0, 0.0);
        put(index.sum_row, p, 1.0);
        put(bound, p, 1.0);
        put(bound, index.r_column, -1.0);
      }
    }
    for (std::size_t l = 0; l < adversary.size(); ++l) {
      const SizeLayout& y = adversary[l];
      auto& index = q_[l];
      const int value_row = index.value_row;
      put(value_row, v_column_, 1.0);
      put(value_row, index.mu_column, -static_cast<double>(y.size - y.count_in()));
      // Ranks below the region are in for every layout.
      double psi_in = ranked_.sum(first_, std::max(first_, y.lo));
      std::vector<long> both_in(predictor.size(), first_);
      for (long i = first_; i < end_; ++i) {
        const int status = y.at(i);
        if (status == SizeLayout::kOut) continue;
        if (status == SizeLayout::kIn) {
          if (i >= y.lo) psi_in += ranked_.psi[i];
          for (std::size_t k = 0; k < predictor.size(); ++k) {
            const int own = predictor[k].at(i);
            if (own == SizeLayout::kIn) ++both_in[k];
            if (own == SizeLayout::kFree) put(value_row, p_[k].columns.at(i), -scale_ * kernel(predictor[k].size, y.size));
          }
          continue;
        }
        const int nu = index_of(index.columns, i, true), band = index_of(index.rows, i, false);
        glp_set_row_bnds(lp(), band, GLP_UP, 0.0, -scale_ * ranked_.psi[i]);
        put(value_row, nu, 1.0);
        put(band, index.mu_column, 1.0);
        put(band, nu, -1.0);
        for (std::size_t k = 0; k < predictor.size(); ++k) {
          const int own = predictor[k].at(i);
          if (own == SizeLayout::kFree) put(band, p_[k].columns.at(i), -scale_ * kernel(predictor[k].size, y.size));
          if (own == SizeLayout::kIn) put(band, p_[k].r_column, -scale_ * kernel(predictor[k].size, y.size));
        }
      }
      for (std::size_t k = 0; k < predictor.size(); ++k)
        put(value_row, p_[k].r_column, -scale_ * kernel(predictor[k].size, y.size) * static_cast<double>(both_in[k]));
      glp_set_row_bnds(lp(), value_row, GLP_UP, 0.0, -scale_ * psi_in);
    }
    glp_load_matrix(lp(), static_cast<int>(rows.size()) - 1, rows.data(), columns.data(), values.data());
    return run_simplex(seconds_left);
  }

  // The region [first, end) outside which every layout of both players agrees: all in below
  // first (every layout's lo is at least first), all out from end on.
  void region(long& first, long& end) const {
    first = ranked_.n();
    end = 0;
    for (const auto* side : {&predictor, &adversary})
      for (const auto& x : *side) {
        first = std::min(first, x.lo);
        end = std::max(end, x.hi);
      }
  }

  bool run_simplex(double seconds_left) {
    const auto start = Clock::now();
    glp_term_out(GLP_OFF);
    // Equilibration scaling only: GLPK's automatic choice (geometric mean, then equilibration,
    // powers of 2) was 1.5x slower on the learned-theta game of the earlier band LP, and no
    // scaling 25x slower at theta x 10.
    glp_scale_prob(lp(), GLP_SF_EQ);
    glp_term_out(GLP_ON);
    glp_smcp settings;
    glp_init_smcp(&settings);
    settings.msg_lev = GLP_MSG_OFF;
    // Primal simplex from the last basis. GLPK's simplex can stall on these degenerate LPs, so
    // each attempt has an iteration cap and the next one changes course: the primal simplex
    // with the textbook ratio test instead of Harris' (from where the first stopped), the dual
    // simplex, then the primal from an advanced basis (also the way out of a basis made
    // singular by dropped sizes). A re-solve from the last basis takes at most about 3,000
    // pivots on the ADULT test games; a stalled one went on for 11,000 with Harris' test and
    // finished within its cap with the textbook one (bench/README, "A solver over marginals").
    const int size = glp_get_num_rows(lp()) + glp_get_num_cols(lp());
    settings.it_lim = std::min(size + 1000, 4000);
    bool out_of_time = false;
    auto solved = [&](int method) {
      const double left = seconds_left - seconds_since(start);
      if (left <= 0.0) return !(out_of_time = true);
      settings.meth = method;
      settings.tm_lim = static_cast<int>(std::min(left, 1e6) * 1000.0) + 1;
      const int code = glp_simplex(lp(), &settings);
      out_of_time = code == GLP_ETMLIM;
      return code == 0 && glp_get_status(lp()) == GLP_OPT;
    };
    if (solved(GLP_PRIMAL) || out_of_time) return !out_of_time;
    settings.it_lim = size + 1000;
    settings.r_test = GLP_RT_STD;
    if (solved(GLP_PRIMAL) || out_of_time) return !out_of_time;
    settings.r_test = GLP_RT_HAR;
    if (solved(GLP_DUALP) || out_of_time) return !out_of_time;
    glp_term_out(GLP_OFF);  // glp_adv_basis reports on the terminal
    glp_adv_basis(lp(), 0);
    glp_term_out(GLP_ON);
    settings.it_lim = 5 * size + 1000;
    if (solved(GLP_PRIMAL)) return true;
    lp_failed = !out_of_time;  // the run ends with the bounds of the rounds before
    return false;
  }

  // Value of p~_ik (the predictor's marginal as the layout has it) and of the dual that prices
  // entry i of adversary size l (q_il in LP units: the band row's dual, the value row's if in).
  double predictor_marginal(std::size_t k, long i) const {
    switch (predictor[k].at(i)) {
      case SizeLayout::kIn: return glp_get_col_prim(lp(), p_[k].r_column);
      case SizeLayout::kFree: return glp_get_col_prim(lp(), p_[k].columns.at(i));
      default: return 0.0;
    }
  }
  double adversary_dual(std::size_t l, long i) const {
    switch (adversary[l].at(i)) {
      case SizeLayout::kIn: return glp_get_row_dual(lp(), q_[l].value_row);
      case SizeLayout::kFree: return glp_get_row_dual(lp(), q_[l].rows.at(i));
      default: return 0.0;
    }
  }

  // Frees the fixed entries of the sizes in use that violate the LP's optimality conditions,
  // over the region and 16 ranks either side of it. Predictor entry (k, i): the reduced cost of
  // p_ik, d = -pi(sum row k) + scale sum_l 2/(k+l) q_il, must be <= 0 if fixed out and >= 0 if
  // fixed in. Adversary entry (l, i): c_il <= mu_l if fixed in, c_il >= mu_l if fixed out.
  // Sizes of zero weight are skipped (their fixed entries are degenerate, not wrong); a best
  // response through one of them frees its entries instead (free_disagreements).
  int free_rejected_entries() {
    constexpr double kTolerance = 1e-7;  // GLPK's own reduced-cost tolerance
    constexpr long kMargin = 16;
    const long first = std::max(0L, first_ - kMargin), end = std::min(ranked_.n(), end_ + kMargin);
    std::vector<std::pair<std::size_t, long>> rejected_p, rejected_q;
    for (std::size_t k = 0; k < predictor.size(); ++k) {
      if (glp_get_col_prim(lp(), p_[k].r_column) <= kZeroWeight) continue;
      const double sum_dual = glp_get_row_dual(lp(), p_[k].sum_row);
      for (long i = first; i < end; ++i) {
        const int status = predictor[k].at(i);
        if (status == SizeLayout::kFree) continue;
        double reduced_cost = -sum_dual;
        for (std::size_t l = 0; l < adversary.size(); ++l)
          reduced_cost += scale_ * kernel(predictor[k].size, adversary[l].size) * adversary_dual(l, i);
        if (status == SizeLayout::kOut ? reduced_cost > kTolerance : reduced_cost < -kTolerance)
          rejected_p.push_back({k, i});
      }
    }
    for (std::size_t l = 0; l < adversary.size(); ++l) {
      if (std::fabs(glp_get_row_dual(lp(), q_[l].value_row)) <= kZeroWeight) continue;
      const double mu = glp_get_col_prim(lp(), q_[l].mu_column);
      for (long i = first; i < end; ++i) {
        const int status = adversary[l].at(i);
        if (status == SizeLayout::kFree) continue;
        double cost = -ranked_.psi[i];
        for (std::size_t k = 0; k < predictor.size(); ++k)
          cost += kernel(predictor[k].size, adversary[l].size) * predictor_marginal(k, i);
        cost *= scale_;
        if (status == SizeLayout::kIn ? cost > mu + kTolerance : cost < mu - kTolerance) rejected_q.push_back({l, i});
      }
    }
    for (const auto& [k, i] : rejected_p) predictor[k].free(i);
    for (const auto& [l, i] : rejected_q) adversary[l].free(i);
    return static_cast<int>(rejected_p.size() + rejected_q.size());
  }

  void extract(Restricted& out) const {
    const long first = first_, end = end_;
    out.first = first;
    out.end = end;
    out.value = glp_get_obj_val(lp()) / scale_ - ranked_.sum(0, first);
    const std::size_t P = predictor.size(), Q = adversary.size(), width = static_cast<std::size_t>(end - first);
    if (empty_column_ != 0) {
      out.predictor.empty = std::max(0.0, glp_get_col_prim(lp(), empty_column_));
      out.adversary.empty = std::fabs(glp_get_row_dual(lp(), empty_row_));
    }
    out.predictor.region.assign(width * P, 0.0);
    out.adversary.region.assign(width * Q, 0.0);
    for (std::size_t k = 0; k < P; ++k) {
      const double weight = std::max(0.0, glp_get_col_prim(lp(), p_[k].r_column));
      out.predictor.sizes.push_back(predictor[k].size);
      out.predictor.weight.push_back(weight);
      for (long i = first; i < end; ++i)
        out.predictor.region[static_cast<std::size_t>(i - first) * P + k] = std::clamp(predictor_marginal(k, i), 0.0, weight);
    }
    for (std::size_t l = 0; l < Q; ++l) {
      const double weight = std::fabs(glp_get_row_dual(lp(), q_[l].value_row));
      out.adversary.sizes.push_back(adversary[l].size);
      out.adversary.weight.push_back(weight);
      for (long i = first; i < end; ++i)
        out.adversary.region[static_cast<std::size_t>(i - first) * Q + l] = std::min(weight, std::fabs(adversary_dual(l, i)));
    }
  }

  const RankedPotentials& ranked_;
  double scale_;
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp_{nullptr, glp_delete_prob};
  int v_column_ = 0, one_row_ = 0, empty_column_ = 0, empty_row_ = 0;
  long first_ = 0, end_ = 0;
  std::vector<PredictorIndex> p_;
  std::vector<AdversaryIndex> q_;
};

struct BestValue {
  double value;
  long size;
};

// Predictor's best response over all pure actions (Eq. 3.11): for each size k >= 1, the top k
// of the scores  below a: sum_l 2 s_l/(k+l);  region i: sum_l 2 q_il/(k+l);  from b on: 0;
// minus E_Q[psi] (l >= 1: the empty action scores nothing). The first score is the largest
// since q_il <= s_l. Best first.
std::vector<BestValue> predictor_values(const RankedPotentials& ranked, long a, long b,
                                        const RegionStrategy& adversary) {
  const long n = ranked.n(), width = b - a, Q = static_cast<long>(adversary.sizes.size());
  double expected_psi = 0.0;
  for (long l = 0; l < Q; ++l) expected_psi += adversary.weight[l] * ranked.sum(0, a);
  for (long i = 0; i < width; ++i)
    for (long l = 0; l < Q; ++l) expected_psi += adversary.region[i * Q + l] * ranked.psi[a + i];
  std::vector<BestValue> values{{adversary.empty - expected_psi, 0}};  // k = 0: F1 1 against {} only
  std::vector<double> scores(width);
  for (long k = 1; k <= n; ++k) {
    double top = 0.0, region_total = 0.0;
    for (long l = 0; l < Q; ++l) {
      top += adversary.weight[l] * kernel(k, adversary.sizes[l]);
      region_total += static_cast<double>(adversary.sizes[l] - a) * adversary.weight[l] * kernel(k, adversary.sizes[l]);
    }
    double value;
    if (k <= a) {
      value = static_cast<double>(k) * top;
    } else if (k >= b) {
      value = static_cast<double>(a) * top + region_total;
    } else {
      for (long i = 0; i < width; ++i) {
        double x = 0.0;
        for (long l = 0; l < Q; ++l) x += adversary.region[i * Q + l] * kernel(k, adversary.sizes[l]);
        scores[i] = x;
      }
      std::nth_element(scores.begin(), scores.begin() + (k - a), scores.end(), std::greater<double>());
      value = static_cast<double>(a) * top + std::accumulate(scores.begin(), scores.begin() + (k - a), 0.0);
    }
    values.push_back({value - expected_psi, k});
  }
  std::sort(values.begin(), values.end(), [](const BestValue& x, const BestValue& y) { return x.value > y.value; });
  return values;
}

// The adversary's costs at size l (Eq. 3.12): below a, top - psi_i with top = sum_k 2 r_k/(k+l);
// region i, sum_k 2 p_ik/(k+l) - psi_i (kept sorted, with prefix sums); from b on, -psi_i.
struct AdversaryCosts {
  double top = 0.0;
  std::vector<double> region, prefix;
};
AdversaryCosts adversary_costs(const RankedPotentials& ranked, long a, long b, const RegionStrategy& predictor, long l) {
  const long width = b - a, P = static_cast<long>(predictor.sizes.size());
  AdversaryCosts c{0.0, std::vector<double>(width), std::vector<double>(width + 1, 0.0)};
  for (long k = 0; k < P; ++k) c.top += predictor.weight[k] * kernel(predictor.sizes[k], l);
  for (long i = 0; i < width; ++i) {
    double x = -ranked.psi[a + i];
    for (long k = 0; k < P; ++k) x += predictor.region[i * P + k] * kernel(predictor.sizes[k], l);
    c.region[i] = x;
  }
  std::sort(c.region.begin(), c.region.end());
  std::partial_sum(c.region.begin(), c.region.end(), c.prefix.begin() + 1);
  return c;
}

// The number and the sum of the costs at most t. The costs below a and from b on ascend with
// the rank (psi descends), so binary searches in the three sorted lists find them.
void count_at_most(const RankedPotentials& ranked, long a, long b, const AdversaryCosts& c, double t, long& count,
                   double& sum) {
  const auto& psi = ranked.psi;
  const long below = std::upper_bound(psi.begin(), psi.begin() + a, c.top - t, std::greater<double>()) - psi.begin();
  const long inside = std::upper_bound(c.region.begin(), c.region.end(), t) - c.region.begin();
  const long after = std::upper_bound(psi.begin() + b, psi.end(), -t, std::greater<double>()) - (psi.begin() + b);
  count = below + inside + after;
  sum = static_cast<double>(below) * c.top - ranked.sum(0, below) + c.prefix[inside] - ranked.sum(b, b + after);
}

// The sum of the l smallest costs: the l-th smallest is found by bisection on a threshold.
double sum_of_smallest(const RankedPotentials& ranked, long a, long b, const AdversaryCosts& c, long l) {
  const long n = ranked.n(), width = b - a;
  const auto& psi = ranked.psi;
  auto count_sum = [&](double t, long& count, double& sum) { count_at_most(ranked, a, b, c, t, count, sum); };
  double low = std::min({a > 0 ? c.top - psi[0] : INFINITY, width > 0 ? c.region[0] : INFINITY, b < n ? -psi[b] : INFINITY});
  double high = std::max({a > 0 ? c.top - psi[a - 1] : -INFINITY, width > 0 ? c.region[width - 1] : -INFINITY,
                          b < n ? -psi[n - 1] : -INFINITY});
  low = std::nextafter(low, -INFINITY);  // count(low) < l <= count(high)
  long count;
  double sum;
  while (std::nextafter(low, INFINITY) < high) {
    const double middle = low + (high - low) / 2.0;
    if (middle <= low || middle >= high) break;
    count_sum(middle, count, sum);
    (count >= l ? high : low) = middle;
  }
  count_sum(low, count, sum);
  return sum + static_cast<double>(l - count) * high;
}

// The adversary's best values over sizes 0..n, exact for every size that can be among the
// `wanted` best (best first). Costs fall as l grows, so the costs at the last size of a block of
// 64 sizes bound the values of the whole block from below: the sum of the l smallest of those
// fixed costs, which is convex in l and least where l is the number of costs <= 0 (clamped to
// the block). Blocks whose bound cannot beat the `wanted`-th best exact value are skipped.
std::vector<BestValue> adversary_values(const RankedPotentials& ranked, long a, long b,
                                        const RegionStrategy& predictor, std::size_t wanted,
                                        std::vector<double>* lower_by_size = nullptr) {
  constexpr long kBlock = 64;
  struct Block {
    double bound;
    long first, last;
  };
  std::vector<Block> blocks;
  for (long first = 1; first <= ranked.n(); first += kBlock) {
    const long last = std::min(ranked.n(), first + kBlock - 1);
    const AdversaryCosts costs = adversary_costs(ranked, a, b, predictor, last);
    long nonpositive;
    double unused;
    count_at_most(ranked, a, b, costs, 0.0, nonpositive, unused);
    blocks.push_back({sum_of_smallest(ranked, a, b, costs, std::clamp(nonpositive, first, last)), first, last});
  }
  if (lower_by_size) {
    lower_by_size->assign(static_cast<std::size_t>(ranked.n() + 1), predictor.empty);
    for (const auto& block : blocks)
      std::fill(lower_by_size->begin() + block.first, lower_by_size->begin() + block.last + 1, block.bound);
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block& x, const Block& y) { return x.bound < y.bound; });
  std::vector<BestValue> values{{predictor.empty, 0}};  // l = 0: F1 1 against {} only
  auto by_value = [](const BestValue& x, const BestValue& y) { return x.value < y.value; };
  for (const auto& block : blocks) {
    if (values.size() >= wanted) {
      std::nth_element(values.begin(), values.begin() + static_cast<long>(wanted - 1), values.end(), by_value);
      if (block.bound >= values[wanted - 1].value) break;
    }
    for (long l = block.first; l <= block.last; ++l)
      values.push_back({sum_of_smallest(ranked, a, b, adversary_costs(ranked, a, b, predictor, l), l), l});
  }
  std::sort(values.begin(), values.end(), by_value);
  if (lower_by_size)
    for (const auto& [value, size] : values) (*lower_by_size)[static_cast<std::size_t>(size)] = value;
  return values;
}

// A strategy with its region [first, end) of ranks.
struct PlacedStrategy {
  RegionStrategy strategy;
  long first = 0, end = 0;
};

// Makes a strategy read from the LP exactly feasible (GLPK's tolerances let it stray by ~1e-9),
// so that the bounds computed from it are exact: weights >= 0 summing to 1 with the empty action,
// and per size l the conditional marginals of the region in [0, 1] summing to l - a, moved
// towards 1 or 0 by one affine map x -> shift + factor x (ranks below a are in, from b on out).
void make_feasible(RegionStrategy& x, long a, long width) {
  x.empty = std::max(0.0, x.empty);
  double total = x.empty;
  for (double& w : x.weight) total += (w = std::max(0.0, w));
  if (!(total > 0.0)) {
    x.empty = total = 1.0;
  }
  x.empty /= total;
  const std::size_t m = x.sizes.size();
  for (std::size_t j = 0; j < m; ++j) {
    const double w = x.weight[j] /= total;
    auto entry = [&](long i) -> double& { return x.region[static_cast<std::size_t>(i) * m + j]; };
    if (w <= 0.0) {
      for (long i = 0; i < width; ++i) entry(i) = 0.0;
      continue;
    }
    double sum = 0.0;
    for (long i = 0; i < width; ++i) sum += (entry(i) = std::clamp(entry(i) / w, 0.0, 1.0));
    const double target = static_cast<double>(x.sizes[j] - a);
    double shift = 0.0, factor = 1.0;
    if (sum < target) {
      shift = (target - sum) / (static_cast<double>(width) - sum);
      factor = 1.0 - shift;
    } else if (sum > target) {
      factor = target / sum;
    }
    for (long i = 0; i < width; ++i) entry(i) = w * std::min(1.0, shift + factor * entry(i));
  }
}

// P(y_i = 1) per rank of a placed strategy: the total weight of the sizes below its region, the
// sum over sizes inside, 0 from its end on.
std::vector<double> rank_marginals(const PlacedStrategy& x, long n) {
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  const RegionStrategy& s = x.strategy;
  const std::size_t m = s.sizes.size();
  const double nonempty = std::accumulate(s.weight.begin(), s.weight.end(), 0.0);
  for (long i = 0; i < std::min(x.end, n); ++i) {
    double& total = out[static_cast<std::size_t>(i)];
    if (i < x.first) {
      total = nonempty;
      continue;
    }
    for (std::size_t j = 0; j < m; ++j) total += s.region[static_cast<std::size_t>(i - x.first) * m + j];
  }
  return out;
}

// The mix sum_t w_t S_t of strategies, over the union of their regions (a rank below a part's
// region is positive in all of that part's actions).
PlacedStrategy mix(const std::vector<PlacedStrategy>& parts, const std::vector<double>& w) {
  PlacedStrategy out{{}, std::numeric_limits<long>::max(), 0};
  std::vector<long> sizes;
  for (std::size_t t = 0; t < parts.size(); ++t) {
    if (w[t] <= 0.0) continue;
    out.first = std::min(out.first, parts[t].first);
    out.end = std::max(out.end, parts[t].end);
    sizes.insert(sizes.end(), parts[t].strategy.sizes.begin(), parts[t].strategy.sizes.end());
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  RegionStrategy& s = out.strategy;
  const std::size_t m = sizes.size(), width = static_cast<std::size_t>(out.end - out.first);
  s.sizes = sizes;
  s.weight.assign(m, 0.0);
  s.region.assign(width * m, 0.0);
  for (std::size_t t = 0; t < parts.size(); ++t) {
    if (w[t] <= 0.0) continue;
    const PlacedStrategy& part = parts[t];
    const std::size_t pm = part.strategy.sizes.size();
    s.empty += w[t] * part.strategy.empty;
    for (std::size_t j = 0; j < pm; ++j) {
      const std::size_t c = static_cast<std::size_t>(std::lower_bound(sizes.begin(), sizes.end(), part.strategy.sizes[j]) - sizes.begin());
      const double r = part.strategy.weight[j];
      s.weight[c] += w[t] * r;
      for (long i = out.first; i < std::min(out.end, part.end); ++i) {
        const double x = i < part.first ? r : part.strategy.region[static_cast<std::size_t>(i - part.first) * pm + j];
        s.region[static_cast<std::size_t>(i - out.first) * m + c] += w[t] * x;
      }
    }
  }
  return out;
}

// One player's strategies of the last rounds, each with its opponent's best-response values by
// size (the predictor's exact values against an adversary strategy; lower bounds of the
// adversary's against a predictor strategy).
struct StrategyHistory {
  std::vector<PlacedStrategy> strategies;
  std::vector<std::vector<double>> values;
  void add(PlacedStrategy strategy, std::vector<double> values_by_size, std::size_t capacity) {
    if (strategies.size() == capacity) {
      strategies.erase(strategies.begin());
      values.erase(values.begin());
    }
    strategies.push_back(std::move(strategy));
    values.push_back(std::move(values_by_size));
  }
};


// The best pure action of size k of each player (as 0/1 per rank), for freeing the entries of a
// layout that rule it out.
std::vector<char> predictor_action(long n, long a, long b, const RegionStrategy& adversary, long k) {
  std::vector<char> in(static_cast<std::size_t>(n), 0);
  const long Q = static_cast<long>(adversary.sizes.size());
  std::fill(in.begin(), in.begin() + std::min(k, a), 1);
  if (k <= a) return in;
  std::vector<std::pair<double, long>> scores;  // (-score, rank): best first
  for (long i = a; i < b; ++i) {
    double x = 0.0;
    for (long l = 0; l < Q; ++l) x += adversary.region[(i - a) * Q + l] * kernel(k, adversary.sizes[l]);
    scores.push_back({-x, i});
  }
  const long taken = std::min(k - a, b - a);
  std::partial_sort(scores.begin(), scores.begin() + taken, scores.end());
  for (long j = 0; j < taken; ++j) in[static_cast<std::size_t>(scores[j].second)] = 1;
  std::fill(in.begin() + b, in.begin() + b + (k - a - taken), 1);
  return in;
}
std::vector<char> adversary_action(const RankedPotentials& ranked, long a, long b, const RegionStrategy& predictor, long l) {
  const long n = ranked.n();
  const long P = static_cast<long>(predictor.sizes.size());
  double top = 0.0;
  for (long k = 0; k < P; ++k) top += predictor.weight[k] * kernel(predictor.sizes[k], l);
  std::vector<std::pair<double, long>> cost(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) {
    double c = -ranked.psi[i];
    if (i < a) c += top;
    if (i >= a && i < b)
      for (long k = 0; k < P; ++k) c += predictor.region[(i - a) * P + k] * kernel(predictor.sizes[k], l);
    cost[static_cast<std::size_t>(i)] = {c, i};
  }
  std::nth_element(cost.begin(), cost.begin() + l, cost.end());
  std::vector<char> in(static_cast<std::size_t>(n), 0);
  for (long j = 0; j < l; ++j) in[static_cast<std::size_t>(cost[j].second)] = 1;
  return in;
}

// Frees every fixed entry of the layout that the action contradicts; returns how many.
int free_disagreements(SizeLayout& layout, const std::vector<char>& in) {
  int freed = 0;
  for (long i = 0; i < static_cast<long>(in.size()); ++i) {
    const int status = layout.at(i);
    if (status != SizeLayout::kFree && status != in[static_cast<std::size_t>(i)]) {
      layout.free(i);
      ++freed;
    }
  }
  return freed;
}

// Adds up to `count` best-response sizes that beat the restricted value (`better`), or, for
// sizes present already, frees the entries that rule the best response out. Returns the number
// of sizes added plus entries freed.
template <class Better, class Action>
int add_best_responses(std::vector<SizeLayout>& layouts, const std::vector<BestValue>& best, int count,
                        long half_width, long n, Better better, Action action) {
  int taken = 0, changed = 0;
  for (const auto& [value, size] : best) {
    if (taken == count || !better(value)) break;
    if (size == 0) {  // the empty action: main adds it to the LP
      ++taken;
      continue;
    }
    auto found = std::find_if(layouts.begin(), layouts.end(), [&](const SizeLayout& x) { return x.size == size; });
    if (found == layouts.end()) {
      layouts.push_back(SizeLayout::window(size, half_width, n));
      found = layouts.end() - 1;
      ++changed;
    }
    changed += free_disagreements(*found, action(size));
    found->idle_rounds = 0;
    ++taken;
  }
  return changed;
}


// The pure action of largest probability a mix with the predictor's marginals can give. For size
// k with conditional marginals x_i = p_ik / r_k on the region (sum: k - a), an action S can have
// weight lambda in a decomposition only if x_i >= lambda on S and x_i <= 1 - lambda off S; the
// top k - a by x maximise this: lambda_k = min(x_(k-a), 1 - x_(k-a+1)) (j-th largest). The
// action is the one maximising r_k lambda_k (the empty action: its own weight). Unlike the
// double oracle's most probable action, this does not depend on how the mix was built.
struct LikeliestAction {
  long size = 0;
  double probability = 0.0;
  std::vector<long> ranks;  // positive ranks, ascending
};
LikeliestAction likeliest_action(long a, long b, const RegionStrategy& predictor) {
  LikeliestAction best{0, predictor.empty, {}};
  const long width = b - a, P = static_cast<long>(predictor.sizes.size());
  std::vector<std::pair<double, long>> x(static_cast<std::size_t>(width));
  for (long j = 0; j < P; ++j) {
    const double r = predictor.weight[j];
    const long chosen = predictor.sizes[j] - a;
    if (r <= 0.0 || chosen < 0 || chosen > width) continue;
    for (long i = 0; i < width; ++i) x[static_cast<std::size_t>(i)] = {-predictor.region[i * P + j] / r, i};
    std::sort(x.begin(), x.end());  // largest marginal first, ties by rank
    const double lambda = std::min(chosen > 0 ? -x[static_cast<std::size_t>(chosen - 1)].first : 1.0,
                                   chosen < width ? 1.0 + x[static_cast<std::size_t>(chosen)].first : 1.0);
    if (r * lambda <= best.probability) continue;
    best = {predictor.sizes[j], r * lambda, {}};
    for (long i = 0; i < a; ++i) best.ranks.push_back(i);
    for (long t = 0; t < chosen; ++t) best.ranks.push_back(a + x[static_cast<std::size_t>(t)].second);
    std::sort(best.ranks.begin(), best.ranks.end());
  }
  return best;
}
}  // namespace

namespace {
const Choice<MarginalAlgorithm> kMarginalAlgorithms[] = {{"auto", MarginalAlgorithm::automatic},
                                                         {"segments", MarginalAlgorithm::segments},
                                                         {"windows", MarginalAlgorithm::windows}};
}  // namespace

MarginalAlgorithm parse_marginal_algorithm(const std::string& name) {
  return parse_choice(name, kMarginalAlgorithms, "algorithm over marginals");
}
std::string to_string(MarginalAlgorithm algorithm) { return choice_name(algorithm, kMarginalAlgorithms); }

std::string to_string(MarginalSolverStatus status) {
  switch (status) {
    case MarginalSolverStatus::converged: return "converged";
    case MarginalSolverStatus::time_limit: return "not converged: time limit";
    case MarginalSolverStatus::round_limit: return "not converged: round limit";
    case MarginalSolverStatus::stalled:
      return "not converged: stalled (no best response beats the restricted value, or GLPK failed on a restricted game)";
  }
  return "unknown";
}

nlohmann::json MarginalSolverSummary::to_json() const {
  return {{"converged", converged()},
          {"status", to_string(status)},
          {"rounds", rounds},
          {"lower", lower},
          {"upper", upper},
          {"gap", gap},
          {"lp_rows", lp_rows},
          {"pricing_passes", pricing_passes},
          {"sizes_in_use", {predictor_sizes, adversary_sizes}},
          {"region", {region_first, region_end}},
          {"mixed_strategies", mixed_strategies},
          {"segments", segments},
          {"algorithm", to_string(algorithm)},
          {"seconds", seconds},
          {"lp_seconds", lp_seconds}};
}

std::string MarginalSolverSummary::report() const {
  return fmt::format("{} after {} rounds over marginals ({}), gap {:.2e}, {:.3f} s", to_string(status), rounds,
                     to_string(algorithm), gap, seconds);
}

MarginalSolution solve_f1_over_marginals(const std::vector<double>& psi, const MarginalSolverOptions& options) {
  if (psi.size() < 2) throw Error("solve_f1_over_marginals: the game needs at least 2 examples");
  for (double x : psi)
    if (!std::isfinite(x)) throw Error("solve_f1_over_marginals: a potential is not finite");
  if (!(options.tolerance > 0.0) || options.max_seconds < 0.0 || options.max_rounds < 0 || options.window < 1 ||
      options.sizes_per_round < 1 || options.drop_after < 1 || options.mixed_rounds < 0)
    throw Error("solve_f1_over_marginals: needs tolerance > 0, max_seconds >= 0, max_rounds >= 0, window >= 1, "
                "sizes_per_round >= 1, drop_after >= 1 and mixed_rounds >= 0");
  const RankedPotentials ranked(psi);
  const long n = ranked.n(), half_width = options.window;
  const double max_seconds = options.max_seconds > 0.0 ? options.max_seconds : std::numeric_limits<double>::infinity();
  // Both players start from one size: the number of positive potentials (at least 1). The LP's
  // payoffs are multiplied by twice that, which brings the F1 terms 2/(k+l) to order 1.
  const long first_size = std::clamp(static_cast<long>(std::count_if(ranked.psi.begin(), ranked.psi.end(), [](double x) { return x > 0.0; })), 1L, n);
  LayoutGame game(ranked, 2.0 * static_cast<double>(first_size));
  game.predictor.push_back(SizeLayout::window(first_size, half_width, n));
  game.adversary.push_back(SizeLayout::window(first_size, half_width, n));

  MarginalSolution solution;
  MarginalSolverSummary& summary = solution.summary;
  summary.lower = -std::numeric_limits<double>::infinity();
  summary.upper = std::numeric_limits<double>::infinity();
  summary.gap = std::numeric_limits<double>::infinity();
  // The predictor strategy that guarantees `lower`, the adversary strategy that concedes `upper`.
  PlacedStrategy guaranteeing, conceding;
  StrategyHistory predictor_history, adversary_history;
  const std::size_t history = static_cast<std::size_t>(options.mixed_rounds);
  const auto start = Clock::now();
  for (;;) {
    const auto solved = game.solve(max_seconds - seconds_since(start));
    if (!solved) {
      summary.status = game.lp_failed ? MarginalSolverStatus::stalled : MarginalSolverStatus::time_limit;
      break;
    }
    const Restricted& restricted = *solved;
    ++summary.rounds;
    const long a = restricted.first, b = restricted.end;
    RegionStrategy predictor = restricted.predictor.in_use(b - a), adversary = restricted.adversary.in_use(b - a);
    make_feasible(predictor, a, b - a);
    make_feasible(adversary, a, b - a);
    const std::size_t wanted = static_cast<std::size_t>(options.sizes_per_round);
    const auto predictor_best = predictor_values(ranked, a, b, adversary);
    std::vector<double> adversary_lower_by_size;
    const auto adversary_best = adversary_values(ranked, a, b, predictor, wanted, history > 1 ? &adversary_lower_by_size : nullptr);
    bool guaranteeing_is_a_mix = false;
    if (adversary_best.front().value > summary.lower) {
      summary.lower = adversary_best.front().value;
      guaranteeing = {predictor, a, b};
      summary.mixed_strategies = 1;
    }
    if (predictor_best.front().value < summary.upper) {
      summary.upper = predictor_best.front().value;
      conceding = {adversary, a, b};
    }
    if (history > 1) {  // mixes of the last rounds' strategies may bound the value more tightly
      std::vector<double> predictor_by_size(static_cast<std::size_t>(n + 1));
      for (const auto& [value, size] : predictor_best) predictor_by_size[static_cast<std::size_t>(size)] = value;
      adversary_history.add({adversary, a, b}, std::move(predictor_by_size), history);
      predictor_history.add({predictor, a, b}, std::move(adversary_lower_by_size), history);
      const Mixture adversary_mix = best_mixture(adversary_history.values, MixFor::adversary);
      if (adversary_mix.bound < summary.upper) {
        summary.upper = adversary_mix.bound;
        conceding = mix(adversary_history.strategies, adversary_mix.weights);
      }
      const Mixture mixed = best_mixture(predictor_history.values, MixFor::predictor);
      if (mixed.bound > summary.lower) {
        summary.lower = mixed.bound;
        guaranteeing = mix(predictor_history.strategies, mixed.weights);
        guaranteeing_is_a_mix = true;
        summary.mixed_strategies = static_cast<std::size_t>(std::count_if(mixed.weights.begin(), mixed.weights.end(), [](double w) { return w > 0.0; }));
      }
    }
    summary.gap = summary.upper - summary.lower;
    summary.lp_seconds += restricted.lp_seconds;
    summary.lp_rows = restricted.rows;
    summary.pricing_passes = restricted.pricing_passes;
    summary.predictor_sizes = predictor.sizes.size();
    summary.adversary_sizes = adversary.sizes.size();
    summary.region_first = a;
    summary.region_end = b;
    summary.seconds = seconds_since(start);
    if (round_ends_run(summary, options, max_seconds)) break;
    auto empty_beats = [&](const std::vector<BestValue>& best, auto better) {
      for (std::size_t j = 0; j < best.size() && j < wanted && better(best[j].value); ++j)
        if (best[j].size == 0) return true;
      return false;
    };
    auto beats_for_predictor = [&](double v) { return v > restricted.value + kZeroWeight; };
    auto beats_for_adversary = [&](double v) { return v < restricted.value - kZeroWeight; };
    const bool add_empty = !game.with_empty_action && (empty_beats(predictor_best, beats_for_predictor) ||
                                                       empty_beats(adversary_best, beats_for_adversary));
    game.with_empty_action = game.with_empty_action || add_empty;
    const int changed =
        static_cast<int>(add_empty) +
        add_best_responses(game.predictor, predictor_best, options.sizes_per_round, half_width, n, beats_for_predictor,
                           [&](long k) { return predictor_action(n, a, b, adversary, k); }) +
        add_best_responses(game.adversary, adversary_best, options.sizes_per_round, half_width, n, beats_for_adversary,
                           [&](long l) { return adversary_action(ranked, a, b, predictor, l); });
    int changed_by_mix = 0;
    if (options.respond_to_mix && guaranteeing_is_a_mix) {
      const PlacedStrategy& p = guaranteeing;
      changed_by_mix = add_best_responses(
          game.adversary, adversary_values(ranked, p.first, p.end, p.strategy, wanted), options.sizes_per_round,
          half_width, n, beats_for_adversary, [&](long l) { return adversary_action(ranked, p.first, p.end, p.strategy, l); });
    }
    if (changed + changed_by_mix == 0) {
      summary.status = MarginalSolverStatus::stalled;
      break;
    }
    game.drop_idle_sizes(options.drop_after);
  }
  summary.seconds = seconds_since(start);

  // Report the strategies that guarantee `lower` and concede `upper` in the input's order.
  const std::vector<double> predictor_marginals = rank_marginals(guaranteeing, n),
                            adversary_marginals = rank_marginals(conceding, n);
  solution.marginals = Eigen::VectorXd::Zero(n);
  solution.adversary_marginals = Eigen::VectorXd::Zero(n);
  for (long i = 0; i < n; ++i) {
    const auto at = static_cast<Eigen::Index>(ranked.order[static_cast<std::size_t>(i)]);
    solution.marginals[at] = predictor_marginals[static_cast<std::size_t>(i)];
    solution.adversary_marginals[at] = adversary_marginals[static_cast<std::size_t>(i)];
  }
  const LikeliestAction likeliest = likeliest_action(guaranteeing.first, guaranteeing.end, guaranteeing.strategy);
  for (long i : likeliest.ranks)
    solution.likeliest_action.push_back(static_cast<BinaryAction::value_type>(ranked.order[static_cast<std::size_t>(i)]));
  std::sort(solution.likeliest_action.begin(), solution.likeliest_action.end());
  solution.likeliest_probability = likeliest.probability;
  // E[F1(Y_hat, y)] = r_0 [y empty] + sum_k 2 (r_k |y below a| + sum_{i in region, y_i = 1} p_ik) / (k + |y|).
  solution.expected_score = [order = ranked.order, strategy = guaranteeing.strategy, first = guaranteeing.first, end = guaranteeing.end](const std::vector<int>& labels) {
    if (labels.size() != order.size()) throw Error("expected_score: one label per example needed");
    const long m = static_cast<long>(strategy.sizes.size());
    long positives = 0, positives_below = 0;
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
      const int y = labels[order[rank]];
      positives += y;
      if (static_cast<long>(rank) < first) positives_below += y;
    }
    double expected = positives == 0 ? strategy.empty : 0.0;
    for (long j = 0; j < m; ++j) {
      double overlap = strategy.weight[j] * static_cast<double>(positives_below);
      for (long i = first; i < end; ++i)
        if (labels[order[static_cast<std::size_t>(i)]]) overlap += strategy.region[(i - first) * m + j];
      expected += 2.0 * overlap / static_cast<double>(strategy.sizes[j] + positives);
    }
    return expected;
  };
  return solution;
}

}  // namespace mpg
