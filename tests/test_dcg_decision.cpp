// The decision rule of a DCG game (lib/metrics/dcg.hpp, dcg_decision): its strategy c* is the
// optimal strategy whose piece amounts are lexicographically largest (pieces by slope descending,
// then the documents' priority), checked against an independent computation (the pieces from the
// lines' lower envelope, then one LP per piece over the optimal set, GLPK); and the ranking is one
// decision that the greedy, the compact LP and the double oracle all yield.
#include <catch2/catch.hpp>
#include <glpk.h>

#include <algorithm>
#include <random>

#include "lib/metrics/dcg.hpp"
#include "lib/models/ranking_mpg.hpp"

using mpg::DcgDiscount;
using mpg::DcgGame;
using Approx = Catch::Detail::Approx;

namespace {

struct Piece {
  int document = 0;
  double slope = 0.0, start = 0.0, end = 0.0;
};

// The pieces of phi_j(c) = min_s (2^s - 1) c - psi_j(s) on [0, limit], from the lines' pairwise
// crossings (a construction independent of the solver's).
std::vector<Piece> pieces_of(const DcgGame& game) {
  const double limit = game.discounts().front();
  std::vector<Piece> out;
  for (int j = 0; j < static_cast<int>(game.documents()); ++j) {
    auto line = [&](int s, double c) { return mpg::relevance_gain(s) * c - game.potentials()(j, s); };
    std::vector<double> cuts = {0.0, limit};
    for (int a = 0; a < game.levels(); ++a)
      for (int b = a + 1; b < game.levels(); ++b) {
        const double x = (game.potentials()(j, b) - game.potentials()(j, a)) /
                         (mpg::relevance_gain(b) - mpg::relevance_gain(a));
        if (x > 0.0 && x < limit) cuts.push_back(x);
      }
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      if (cuts[i + 1] - cuts[i] <= 1e-12) continue;
      const double middle = 0.5 * (cuts[i] + cuts[i + 1]);
      int lowest = 0;
      for (int s = 1; s < game.levels(); ++s)
        if (line(s, middle) < line(lowest, middle)) lowest = s;
      const double slope = mpg::relevance_gain(lowest);
      if (!out.empty() && out.back().document == j && out.back().slope == slope)
        out.back().end = cuts[i + 1];
      else
        out.push_back({j, slope, cuts[i], cuts[i + 1]});
    }
  }
  // Slope descending, then priority (a document has one piece per slope).
  std::stable_sort(out.begin(), out.end(), [&](const Piece& a, const Piece& b) {
    if (a.slope != b.slope) return a.slope > b.slope;
    return game.priority_rank()[static_cast<std::size_t>(a.document)] <
           game.priority_rank()[static_cast<std::size_t>(b.document)];
  });
  return out;
}

// The lexicographically largest piece amounts over the optimal strategies: one LP per piece,
// constraints c(S) <= D(|S|) for every set S of documents (n <= 7), c(all) = D(n), and the
// objective sum_j phi_j(c_j) at the game value.
std::vector<double> lexicographic_optimum(const DcgGame& game, const std::vector<Piece>& pieces, double value) {
  const int n = static_cast<int>(game.documents());
  const int m = static_cast<int>(pieces.size());
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MAX);
  glp_add_cols(lp, m);
  for (int p = 0; p < m; ++p) glp_set_col_bnds(lp, p + 1, GLP_DB, 0.0, pieces[p].end - pieces[p].start);
  std::vector<double> top(static_cast<std::size_t>(n) + 1, 0.0);
  for (int r = 0; r < n; ++r) top[static_cast<std::size_t>(r) + 1] = top[static_cast<std::size_t>(r)] + game.discounts()[static_cast<std::size_t>(r)];
  std::vector<int> index(static_cast<std::size_t>(m) + 1);
  std::vector<double> coefficient(static_cast<std::size_t>(m) + 1);
  for (unsigned set = 1; set < (1u << n); ++set) {
    int k = 0;
    for (int p = 0; p < m; ++p)
      if (set >> pieces[p].document & 1u) {
        index[static_cast<std::size_t>(++k)] = p + 1;
        coefficient[static_cast<std::size_t>(k)] = 1.0;
      }
    const int row = glp_add_rows(lp, 1);
    const double bound = top[static_cast<std::size_t>(__builtin_popcount(set))];
    glp_set_row_bnds(lp, row, set + 1 == (1u << n) ? GLP_FX : GLP_UP, bound, bound);
    glp_set_mat_row(lp, row, k, index.data(), coefficient.data());
  }
  // sum_j phi_j(0) + sum_p slope_p x_p >= value.
  double at_zero = 0.0;
  for (int j = 0; j < n; ++j) at_zero += -game.potentials().row(j).maxCoeff();
  for (int p = 0; p < m; ++p) {
    index[static_cast<std::size_t>(p) + 1] = p + 1;
    coefficient[static_cast<std::size_t>(p) + 1] = pieces[p].slope;
  }
  const int objective_row = glp_add_rows(lp, 1);
  glp_set_row_bnds(lp, objective_row, GLP_LO, value - at_zero - 1e-9, 0.0);
  glp_set_mat_row(lp, objective_row, m, index.data(), coefficient.data());
  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  std::vector<double> x(static_cast<std::size_t>(m));
  for (int p = 0; p < m; ++p) {
    for (int q = 0; q < m; ++q) glp_set_obj_coef(lp, q + 1, q == p ? 1.0 : 0.0);
    REQUIRE(glp_simplex(lp, &parameters) == 0);
    REQUIRE(glp_get_status(lp) == GLP_OPT);
    x[static_cast<std::size_t>(p)] = glp_get_obj_val(lp);
    glp_set_col_bnds(lp, p + 1, GLP_DB, std::max(0.0, x[static_cast<std::size_t>(p)] - 1e-10),
                     pieces[p].end - pieces[p].start);
  }
  glp_delete_prob(lp);
  return x;
}

Eigen::MatrixXd random_potentials(int n, std::mt19937_64& rng, bool ties) {
  std::normal_distribution<double> normal(0.0, 0.4);
  std::uniform_int_distribution<int> pick(0, 2);
  Eigen::MatrixXd psi = Eigen::MatrixXd::Zero(n, 3);
  for (int j = 0; j < n; ++j)
    for (int s = 1; s < 3; ++s) psi(j, s) = ties ? 0.5 * pick(rng) * s : 0.3 * s + normal(rng);
  return psi;
}

}  // namespace

TEST_CASE("DCG decision rule: the greedy's strategy is the lexicographic optimum over the optimal set", "[dcg_decision]") {
  std::mt19937_64 rng(25);
  for (int n : {2, 3, 4, 5, 6})
    for (int trial = 0; trial < 6; ++trial) {
      INFO("n = " << n << ", trial " << trial);
      const bool ties = trial % 2 == 0;  // potentials from {0, 0.5, 1} x level: many exact ties
      std::vector<mpg::DocumentKey> keys(static_cast<std::size_t>(n));
      for (auto& key : keys) key = rng();
      const DcgGame game(random_potentials(n, rng, ties), trial % 3 ? DcgDiscount::letor : DcgDiscount::thesis, keys);
      const auto decision = mpg::dcg_decision(game);
      const double value = mpg::solve_dcg_game(game).value;
      CHECK(decision.equilibrium.value == Approx(value).margin(1e-9));
      const std::vector<Piece> pieces = pieces_of(game);
      const std::vector<double> lex = lexicographic_optimum(game, pieces, value);
      const Eigen::VectorXd& c = decision.equilibrium.expected_discounts;
      for (std::size_t p = 0; p < pieces.size(); ++p) {
        const double amount = std::clamp(c[pieces[p].document] - pieces[p].start, 0.0, pieces[p].end - pieces[p].start);
        CHECK(amount == Approx(lex[p]).margin(1e-7));
      }
    }
}

TEST_CASE("DCG decision rule: greedy, compact LP and double oracle give one decision", "[dcg_decision]") {
  std::mt19937_64 rng(7);
  mpg::RankingMpgModel model;
  model.levels = 3;
  model.discount = DcgDiscount::letor;
  for (int trial = 0; trial < 8; ++trial) {
    INFO("trial " << trial);
    // Few distinct feature values: many documents tie in potential, and some are identical.
    const int n = 4 + trial;
    std::uniform_int_distribution<int> value(0, 2);
    Eigen::MatrixXd features(n, 2);
    for (int j = 0; j < n; ++j) features.row(j) << value(rng), value(rng);
    model.theta.resize(3, 2);
    model.theta << 0.3 * (trial % 3), 0.8, 0.0, 0.2 * (trial % 2), -0.2, 0.1 * trial;
    mpg::DoubleOracleOptions options;
    options.tolerance = 1e-9;
    const auto greedy = mpg::predict_ranking_mpg(model, features, mpg::DcgGameSolver::greedy, options);
    const auto lp = mpg::predict_ranking_mpg(model, features, mpg::DcgGameSolver::lp, options);
    const auto oracle = mpg::predict_ranking_mpg(model, features, mpg::DcgGameSolver::double_oracle, options);
    CHECK(lp.game.value == Approx(greedy.game.value).margin(1e-7));
    CHECK(oracle.game.value == Approx(greedy.game.value).margin(1e-6));
    CHECK(lp.order == greedy.order);
    CHECK(oracle.order == greedy.order);
    CHECK(lp.expected_gain_order == greedy.expected_gain_order);
    CHECK(oracle.expected_gain_order == greedy.expected_gain_order);
  }
}
