// Prototype for issue 3 (bench/README, "A solver over marginals"): the F1 game of a whole file
// solved in marginal space instead of over pure actions, with an exact certificate.
//
// Examples are ranked by psi (descending). Both players are restricted to the same layout: the
// top `a` examples always labelled positive (T), a band B = ranks [a, b) mixed freely, the rest
// never positive, and a few action sizes each (K_p, K_q, grown by best responses). A player's
// mixed strategy is then its size distribution r_k and band marginals p_ik = P(y_i = 1, |y| = k),
// any point of 0 <= p_ik <= r_k, sum_i p_ik = (k - a) r_k (a scaled hypersimplex: every such
// point is the marginal of some mixture of pure actions). The payoff is bilinear in marginals,
//   E[F1 - psi(Y_check)] = sum_kl r_k s_l 2a/(k+l) + sum_i sum_kl p_ik q_il 2/(k+l)
//                          - sum_l s_l psi(T) - sum_il q_il psi_i,
// so the restricted game is one LP: the predictor's maxmin, with the adversary's best response
// of each size l ("sum of the l - a smallest c_il", c_il = sum_k 2 p_ik/(k+l) - psi_i) written
// through LP duality. The adversary's marginals are that LP's row duals.
//
// The certificate is exact for the FULL game: both players' best responses over all sizes
// 0..n and all examples, against the LP's strategies. The band and the size sets only limit
// what the restricted game can express; a band chosen too narrow shows up as a gap that does not
// close. The strategies are the LP's, clipped to 0 <= p_ik <= r_k; their size sums hold to GLPK's
// feasibility tolerance only, which moves the certified values by far less than 1e-6 here.
// Not in the library: no tests, no decomposition of the marginals into pure actions (so no most
// probable action and no test F1), and the band is given by hand or read off a short run of the
// double oracle (--band-from-double-oracle).
#include <glpk.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

#include "lib/binary_mpg.hpp"
#include "lib/error.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Potentials sorted descending, with prefix sums: prefix[j] = psi_0 + ... + psi_{j-1}.
struct RankedPotentials {
  std::vector<double> psi;
  std::vector<double> prefix;
  long n() const { return static_cast<long>(psi.size()); }
  double sum(long first, long end) const { return prefix[end] - prefix[first]; }
};

// One player's strategy under the band layout: sizes[j] played with probability weight[j],
// band[i * sizes.size() + j] = P(example a + i positive and size sizes[j]).
struct BandStrategy {
  std::vector<long> sizes;
  std::vector<double> weight;
  std::vector<double> band;
};

struct Restricted {
  double value = 0.0;  // restricted game value (original payoff units)
  BandStrategy predictor, adversary;
  double lp_seconds = 0.0;
};

// The predictor's maxmin of the restricted game as an LP, grown one action size at a time and
// re-solved from the previous basis. Payoffs are multiplied by lp_scale, which brings the F1
// terms 2/(k+l) to order 1 so that GLPK's absolute tolerances bite. Columns: v, r_k, p_ik,
// mu_l (free), nu_il >= 0. Rows (v measured net of psi(T)):
//   sum_k r_k = 1;  sum_i p_ik = (k - a) r_k;  p_ik <= r_k;
//   v <= sum_k r_k 2a/(k+l) + (l - a) mu_l - sum_i nu_il            (dual: s_l)
//   mu_l - nu_il <= sum_k p_ik 2/(k+l) - psi_i                       (dual: q_il)
// The last two rows are "v <= the adversary's best value at size l" by LP duality: the sum of
// the l - a smallest band costs c_il = max { (l - a) mu - sum_i nu_i : mu - nu_i <= c_il, nu >= 0 }.
class RestrictedGame {
 public:
  RestrictedGame(const RankedPotentials& ranked, long a, long b, double lp_scale)
      : ranked_(ranked), a_(a), width_(static_cast<int>(b - a)), scale_(lp_scale),
        lp_(glp_create_prob(), glp_delete_prob) {
    glp_set_obj_dir(lp(), GLP_MAX);
    glp_add_cols(lp(), 1);  // v
    glp_set_col_bnds(lp(), 1, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp(), 1, 1.0);
    glp_add_rows(lp(), 1);  // sum_k r_k = 1
    glp_set_row_bnds(lp(), 1, GLP_FX, 1.0, 1.0);
  }

  void add_predictor_size(long k) {
    PredictorSize size{k, glp_add_cols(lp(), 1 + width_), glp_add_rows(lp(), 1 + width_)};
    const int r = size.r_col, sum_row = size.first_row;
    glp_set_col_bnds(lp(), r, GLP_LO, 0.0, 0.0);
    glp_set_row_bnds(lp(), sum_row, GLP_FX, 0.0, 0.0);
    // r_k: in sum_k r_k = 1, its own rows and every adversary size's value row.
    SparseVector column;
    column.put(1, 1.0);
    column.put(sum_row, -static_cast<double>(k - a_));
    for (int i = 0; i < width_; ++i) column.put(sum_row + 1 + i, -1.0);
    for (const auto& l : adversary_) column.put(l.value_row, -2.0 * scale_ * static_cast<double>(a_) / static_cast<double>(k + l.l));
    column.set(lp(), r);
    for (int i = 0; i < width_; ++i) {
      glp_set_col_bnds(lp(), r + 1 + i, GLP_LO, 0.0, 0.0);
      glp_set_row_bnds(lp(), sum_row + 1 + i, GLP_UP, 0.0, 0.0);
      SparseVector p;
      p.put(sum_row, 1.0);
      p.put(sum_row + 1 + i, 1.0);
      for (const auto& l : adversary_) p.put(l.value_row + 1 + i, -2.0 * scale_ / static_cast<double>(k + l.l));
      p.set(lp(), r + 1 + i);
    }
    predictor_.push_back(size);
  }

  void add_adversary_size(long l) {
    AdversarySize size{l, glp_add_cols(lp(), 1 + width_), glp_add_rows(lp(), 1 + width_)};
    const int mu = size.mu_col, value_row = size.value_row;
    glp_set_col_bnds(lp(), mu, GLP_FR, 0.0, 0.0);
    for (int i = 0; i < width_; ++i) glp_set_col_bnds(lp(), mu + 1 + i, GLP_LO, 0.0, 0.0);
    glp_set_row_bnds(lp(), value_row, GLP_UP, 0.0, 0.0);
    SparseVector row;  // the value row
    row.put(1, 1.0);
    for (const auto& k : predictor_) row.put(k.r_col, -2.0 * scale_ * static_cast<double>(a_) / static_cast<double>(k.k + l));
    row.put(mu, -static_cast<double>(l - a_));
    for (int i = 0; i < width_; ++i) row.put(mu + 1 + i, 1.0);
    row.set_row(lp(), value_row);
    for (int i = 0; i < width_; ++i) {
      glp_set_row_bnds(lp(), value_row + 1 + i, GLP_UP, 0.0, -scale_ * ranked_.psi[a_ + i]);
      SparseVector band;
      band.put(mu, 1.0);
      band.put(mu + 1 + i, -1.0);
      for (const auto& k : predictor_) band.put(k.r_col + 1 + i, -2.0 * scale_ / static_cast<double>(k.k + l));
      band.set_row(lp(), value_row + 1 + i);
    }
    adversary_.push_back(size);
  }

  // Empty if the time limit ran out first.
  std::optional<Restricted> solve(double seconds_left) {
    glp_smcp settings;
    glp_init_smcp(&settings);
    settings.msg_lev = GLP_MSG_OFF;
    const auto start = Clock::now();
    glp_term_out(GLP_OFF);
    // Equilibration scaling only: GLPK's automatic choice (geometric mean, then equilibration,
    // powers of 2) took 7.5 s for the first LP of the learned-theta game (5 sizes per player)
    // against 5.1 s, and no scaling took 1.0 s for the theta x 10 one against 0.04 s.
    glp_scale_prob(lp(), GLP_SF_EQ);
    glp_term_out(GLP_ON);
    // Warm start from the last basis. GLPK's simplex can stall on these degenerate LPs (the
    // primal one for 10+ minutes on the theta x 10 game with the band [11686, 11754)), so each
    // attempt has an iteration cap and the next one switches method: primal (on the theta x 3 game
    // 0.29 s + 0.44 s for two rounds, against 1.0 s + 2.7 s for the dual simplex), dual, then
    // primal from an advanced basis.
    settings.it_lim = 5 * (glp_get_num_rows(lp()) + glp_get_num_cols(lp())) + 1000;
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
    if (!solved(GLP_PRIMAL) && !out_of_time && !solved(GLP_DUALP) && !out_of_time) {
      glp_adv_basis(lp(), 0);
      settings.it_lim = std::numeric_limits<int>::max();
      if (!solved(GLP_PRIMAL) && !out_of_time)
        throw mpg::Error("f1_marginal_lp: GLPK did not solve the restricted game");
    }
    if (out_of_time) return std::nullopt;
    Restricted out;
    out.lp_seconds = seconds_since(start);
    out.value = glp_get_obj_val(lp()) / scale_ - ranked_.sum(0, a_);
    const auto P = predictor_.size(), Q = adversary_.size(), width = static_cast<std::size_t>(width_);
    out.predictor.band.resize(width * P);
    out.adversary.band.resize(width * Q);
    for (std::size_t k = 0; k < P; ++k) {
      const double weight = std::max(0.0, glp_get_col_prim(lp(), predictor_[k].r_col));
      out.predictor.sizes.push_back(predictor_[k].k);
      out.predictor.weight.push_back(weight);
      for (std::size_t i = 0; i < width; ++i)
        out.predictor.band[i * P + k] =
            std::clamp(glp_get_col_prim(lp(), predictor_[k].r_col + 1 + static_cast<int>(i)), 0.0, weight);
    }
    for (std::size_t l = 0; l < Q; ++l) {
      const double weight = std::fabs(glp_get_row_dual(lp(), adversary_[l].value_row));
      out.adversary.sizes.push_back(adversary_[l].l);
      out.adversary.weight.push_back(weight);
      for (std::size_t i = 0; i < width; ++i)
        out.adversary.band[i * Q + l] =
            std::min(weight, std::fabs(glp_get_row_dual(lp(), adversary_[l].value_row + 1 + static_cast<int>(i))));
    }
    return out;
  }

 private:
  struct PredictorSize {
    long k;
    int r_col;      // then p_ik at r_col + 1 + i
    int first_row;  // sum row, then p_ik <= r_k at first_row + 1 + i
  };
  struct AdversarySize {
    long l;
    int mu_col;     // then nu_il at mu_col + 1 + i
    int value_row;  // then the band rows at value_row + 1 + i
  };
  // A sparse row or column in GLPK's 1-based layout (index 0 unused).
  struct SparseVector {
    std::vector<int> index{0};
    std::vector<double> value{0.0};
    void put(int at, double x) {
      index.push_back(at);
      value.push_back(x);
    }
    void set(glp_prob* lp, int column) const {
      glp_set_mat_col(lp, column, static_cast<int>(index.size()) - 1, index.data(), value.data());
    }
    void set_row(glp_prob* lp, int row) const {
      glp_set_mat_row(lp, row, static_cast<int>(index.size()) - 1, index.data(), value.data());
    }
  };
  glp_prob* lp() { return lp_.get(); }

  const RankedPotentials& ranked_;
  long a_;
  int width_;
  double scale_;
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp_;
  std::vector<PredictorSize> predictor_;
  std::vector<AdversarySize> adversary_;
};

struct BestValue {
  double value;
  long size;
};

// Predictor's best response over all pure actions (Eq. 3.11): for each size k, the top k of the
// scores  T: sum_l 2 s_l/(k+l);  band i: sum_l 2 q_il/(k+l);  others: 0;  minus E_Q[psi].
// T's score is the largest since q_il <= s_l. Sorted by value, best first.
std::vector<BestValue> predictor_values(const RankedPotentials& ranked, long a, long b,
                                        const BandStrategy& adversary) {
  const long n = ranked.n(), width = b - a, Q = static_cast<long>(adversary.sizes.size());
  double expected_psi = 0.0;
  for (long l = 0; l < Q; ++l) expected_psi += adversary.weight[l] * ranked.sum(0, a);
  for (long i = 0; i < width; ++i)
    for (long l = 0; l < Q; ++l) expected_psi += adversary.band[i * Q + l] * ranked.psi[a + i];
  std::vector<BestValue> values{{-expected_psi, 0}};  // k = 0 scores 0: the adversary never plays {}
  std::vector<double> band(width);
  for (long k = 1; k <= n; ++k) {
    double top = 0.0, band_total = 0.0;
    for (long l = 0; l < Q; ++l) {
      top += 2.0 * adversary.weight[l] / static_cast<double>(k + adversary.sizes[l]);
      band_total += 2.0 * static_cast<double>(adversary.sizes[l] - a) * adversary.weight[l] /
                    static_cast<double>(k + adversary.sizes[l]);
    }
    double value;
    if (k <= a) {
      value = static_cast<double>(k) * top;
    } else if (k >= b) {
      value = static_cast<double>(a) * top + band_total;
    } else {
      for (long i = 0; i < width; ++i) {
        double x = 0.0;
        for (long l = 0; l < Q; ++l) x += 2.0 * adversary.band[i * Q + l] / static_cast<double>(k + adversary.sizes[l]);
        band[i] = x;
      }
      std::nth_element(band.begin(), band.begin() + (k - a), band.end(), std::greater<double>());
      value = static_cast<double>(a) * top + std::accumulate(band.begin(), band.begin() + (k - a), 0.0);
    }
    values.push_back({value - expected_psi, k});
  }
  std::sort(values.begin(), values.end(), [](const BestValue& x, const BestValue& y) { return x.value > y.value; });
  return values;
}

// Adversary's best response over all pure actions (Eq. 3.12): for each size l, the sum of the l
// smallest costs  T: sum_k 2 r_k/(k+l) - psi_i;  band i: sum_k 2 p_ik/(k+l) - psi_i;  others: -psi_i.
// T's and the others' costs are sorted by rank already, so the l-th smallest cost is found by
// bisection on a threshold with binary searches in the three sorted lists. Sorted, best first.
std::vector<BestValue> adversary_values(const RankedPotentials& ranked, long a, long b,
                                        const BandStrategy& predictor) {
  const long n = ranked.n(), width = b - a, P = static_cast<long>(predictor.sizes.size());
  std::vector<BestValue> values{{0.0, 0}};  // l = 0: F1(y_hat, {}) = 0 for the non-empty y_hat played
  std::vector<double> band(width), band_prefix(width + 1);
  const auto& psi = ranked.psi;
  for (long l = 1; l <= n; ++l) {
    double top = 0.0;
    for (long k = 0; k < P; ++k) top += 2.0 * predictor.weight[k] / static_cast<double>(predictor.sizes[k] + l);
    for (long i = 0; i < width; ++i) {
      double x = -psi[a + i];
      for (long k = 0; k < P; ++k) x += 2.0 * predictor.band[i * P + k] / static_cast<double>(predictor.sizes[k] + l);
      band[i] = x;
    }
    std::sort(band.begin(), band.end());
    for (long i = 0; i < width; ++i) band_prefix[i + 1] = band_prefix[i] + band[i];
    // Count and sum of the costs <= t in each list (psi descending, so T's costs top - psi_i and
    // the others' -psi_i ascend with the rank).
    auto count_sum = [&](double t, long& count, double& sum) {
      long in_top = std::upper_bound(psi.begin(), psi.begin() + a, top - t, std::greater<double>()) - psi.begin();
      long in_band = std::upper_bound(band.begin(), band.end(), t) - band.begin();
      long in_rest = std::upper_bound(psi.begin() + b, psi.end(), -t, std::greater<double>()) - (psi.begin() + b);
      count = in_top + in_band + in_rest;
      sum = static_cast<double>(in_top) * top - ranked.sum(0, in_top) + band_prefix[in_band] - ranked.sum(b, b + in_rest);
    };
    double low = std::min({a > 0 ? top - psi[0] : INFINITY, width > 0 ? band[0] : INFINITY, b < n ? -psi[b] : INFINITY});
    double high = std::max({a > 0 ? top - psi[a - 1] : -INFINITY, width > 0 ? band[width - 1] : -INFINITY,
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
    values.push_back({sum + static_cast<double>(l - count) * high, l});
  }
  std::sort(values.begin(), values.end(), [](const BestValue& x, const BestValue& y) { return x.value < y.value; });
  return values;
}

// The psi-ranks [a, b) of the examples on which the double oracle's predictor mixes after
// `seconds`, widened by 4% of their span + 2 on each side (the band the tables above were
// measured with is the mixed set at 185 iterations plus 25 on each side).
std::pair<long, long> band_of_double_oracle(const Eigen::VectorXd& psi, double seconds) {
  const long n = psi.size();
  mpg::MetricSettings settings;  // F1
  const auto game = mpg::make_binary_game(settings, {psi.data(), psi.data() + n}, std::vector<int>(static_cast<std::size_t>(n), 0));
  mpg::DoubleOracleOptions options;
  options.max_seconds = seconds;
  options.tolerance = 1e-9;
  const auto solution = mpg::solve_double_oracle(*game, options);
  const Eigen::VectorXd marginals = mpg::binary_marginals(solution.predictor, static_cast<std::size_t>(n));
  std::vector<long> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0L);
  std::stable_sort(order.begin(), order.end(), [&](long x, long y) { return psi[x] > psi[y]; });
  long first = n, last = -1;
  for (long rank = 0; rank < n; ++rank) {
    const double p = marginals[order[static_cast<std::size_t>(rank)]];
    if (p > 1e-9 && p < 1.0 - 1e-9) {
      first = std::min(first, rank);
      last = rank;
    }
  }
  if (last < 0) throw mpg::Error("f1_marginal_lp: the double oracle's predictor mixes no example; give the band by hand");
  const long margin = (last + 1 - first) / 25 + 2;
  std::printf("double oracle: %d iterations in %.2f s, gap %.3g, mixes psi-ranks [%ld, %ld]\n",
              solution.summary.iterations, solution.summary.seconds, solution.summary.gap, first, last);
  return {std::max(1L, first - margin), std::min(n, last + 1 + margin)};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Prototype (issue 3): the F1 game of a whole file solved over marginals on a band of psi-ranks\n"
      "[a, b), with best-response size generation and an exact certificate over the full game.\n"
      "See bench/README.md, \"A solver over marginals\"."};
  std::string model_path, test_path;
  double scale = 1.0, tolerance = 1e-6, max_seconds = 60.0;
  long band_first = -1, band_end = -1;
  int initial_sizes = 3, sizes_per_round = 2;
  app.add_option("--model", model_path, "JSON model of `mpg train` (its theta gives psi_i = theta . x_i)")->required();
  app.add_option("--test", test_path, "LIBSVM file whose examples form the game")->required();
  app.add_option("--scale", scale, "Multiply theta by this")->check(CLI::PositiveNumber);
  double band_seconds = 0.0;
  auto* first_option = app.add_option("--band-first", band_first, "a: first psi-rank of the band (ranks below a are always positive)");
  auto* end_option = app.add_option("--band-end", band_end, "b: one past the band's last psi-rank (ranks from b on never positive)");
  auto* auto_option = app.add_option("--band-from-double-oracle", band_seconds,
                 "Instead of --band-first/--band-end: run the double oracle this many seconds and take the psi-ranks of the "
                 "examples its predictor mixes, widened by 4% of their span + 2 on each side (not counted in the game time)")
      ->check(CLI::PositiveNumber);
  first_option->needs(end_option)->excludes(auto_option);
  end_option->needs(first_option);
  auto* band_group = app.add_option_group("band");
  band_group->add_option(first_option);
  band_group->add_option(auto_option);
  band_group->require_option(1);
  app.add_option("--initial-sizes", initial_sizes, "Sizes per player in the first restricted game, spread over (a, b)")->check(CLI::PositiveNumber);
  app.add_option("--sizes-per-round", sizes_per_round, "Best-response sizes added per player and round")->check(CLI::PositiveNumber);
  app.add_option("--tolerance", tolerance, "Stop at this equilibrium gap")->check(CLI::PositiveNumber);
  app.add_option("--max-seconds", max_seconds, "Stop after this many seconds of game time (LP included)")->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  try {
    const auto model = mpg::BinaryModel::read(model_path);
    const auto problem = mpg::load_binary_problem(test_path, model.positive_label, model.feature_count, model.bias);
    const Eigen::VectorXd psi = scale * (problem.features * model.aligned_theta(problem.features.cols() - 1));
    RankedPotentials ranked{{psi.data(), psi.data() + psi.size()}, {}};
    std::sort(ranked.psi.begin(), ranked.psi.end(), std::greater<double>());
    ranked.prefix.assign(ranked.psi.size() + 1, 0.0);
    std::partial_sum(ranked.psi.begin(), ranked.psi.end(), ranked.prefix.begin() + 1);
    if (band_seconds > 0.0) {
      const auto [first, end] = band_of_double_oracle(psi, band_seconds);
      band_first = first;
      band_end = end;
    }
    const long n = ranked.n(), a = band_first, b = band_end;
    if (a < 1 || b <= a + 1 || b > n)
      throw mpg::Error("f1_marginal_lp: the band needs 1 <= a and a + 2 <= b <= n = " + std::to_string(n));

    std::set<long> kp, kq;
    RestrictedGame restricted(ranked, a, b, static_cast<double>(a + b));
    for (int j = 0; j < initial_sizes; ++j) {
      const long k = a + 1 + ((b - a - 1) * (2 * j + 1)) / (2 * initial_sizes);
      if (kp.insert(k).second) restricted.add_predictor_size(k);
      if (kq.insert(k).second) restricted.add_adversary_size(k);
    }
    std::printf("n = %ld, band of psi-ranks [%ld, %ld) (%ld examples), theta x %g\n", n, a, b, b - a, scale);
    double lower = -INFINITY, upper = INFINITY;
    const auto start = Clock::now();
    for (int round = 1;; ++round) {
      const auto solved = restricted.solve(max_seconds - seconds_since(start));
      if (!solved) {
        std::printf("stopped at --max-seconds inside round %d's LP\n", round);
        return 1;
      }
      const Restricted& game = *solved;
      const auto predictor = predictor_values(ranked, a, b, game.adversary);
      const auto adversary = adversary_values(ranked, a, b, game.predictor);
      // The predictor's strategy guarantees the adversary's best value against it, and the
      // adversary's the predictor's; the best of each over the rounds so far form the pair
      // whose gap is reported.
      lower = std::max(lower, adversary.front().value);
      upper = std::min(upper, predictor.front().value);
      const double gap = upper - lower;
      std::printf("round %d: sizes %zu + %zu, LP %.2f s, value in [%.10f, %.10f], gap %.3g "
                  "(best sizes %ld and %ld), %.2f s\n",
                  round, kp.size(), kq.size(), game.lp_seconds, lower, upper, gap,
                  predictor.front().size, adversary.front().size, seconds_since(start));
      if (predictor.front().size < a || predictor.front().size > b || adversary.front().size < a ||
          adversary.front().size > b)
        std::printf("  a best response has a size outside [a, b]: widen the band\n");
      std::fflush(stdout);
      if (gap <= tolerance) break;
      if (seconds_since(start) > max_seconds) {
        std::printf("stopped at --max-seconds before the gap reached %g\n", tolerance);
        return 1;
      }
      int added_k = 0, added_l = 0;
      for (const auto& [value, k] : predictor) {
        if (added_k == sizes_per_round || value <= game.value) break;
        if (k >= a && k <= b && kp.insert(k).second) {
          restricted.add_predictor_size(k);
          ++added_k;
        }
      }
      for (const auto& [value, l] : adversary) {
        if (added_l == sizes_per_round || value >= game.value) break;
        if (l >= a && l <= b && kq.insert(l).second) {
          restricted.add_adversary_size(l);
          ++added_l;
        }
      }
      if (added_k + added_l == 0) {
        std::printf("no improving size inside the band: widen [a, b)\n");
        return 1;
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
}
