// The authors' training protocols (lib/learn/protocol.hpp) for the alignment and CFG MPGs: the
// reference's double oracle (authors_game_options: DoubleOracleOptions::StopRule::value_repeat) on
// hand-worked table games, the
// protocol reaching train_alignment_mpg and train_cfg_mpg (theta = 0, the preset optimizer, every
// game stopped by the reference's rule) and their predictions; Table XIV's 1 - Hamming
// (|∩| / |∪|) against an independent multiset count over every pair of trees of a tiny grammar.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/learn/protocol.hpp"
#include "lib/models/alignment_mpg.hpp"
#include "lib/models/cfg_mpg.hpp"
#include "tests/cfg_trees.hpp"

namespace {

using Row = std::vector<int>;  // one action {k}

// A zero-sum game given by its table score[a][b] (potentials 0); best responses by enumeration,
// ties to the smaller index; both players start from action {0}.
class TableGame : public mpg::Game<Row> {
 public:
  explicit TableGame(std::vector<std::vector<double>> table) : table_(std::move(table)) {}
  std::string metric_name() const override { return "table"; }
  double score(const Row& a, const Row& b) const override { return table_[a[0]][b[0]]; }
  double potential(const Row&) const override { return 0.0; }
  std::vector<Row> initial_predictor_actions() const override { return {{0}}; }
  std::vector<Row> initial_adversary_actions() const override { return {{0}}; }
  bool is_legal_predictor_action(const Row& a) const override { return a.size() == 1 && a[0] < rows(); }
  bool is_legal_adversary_action(const Row& b) const override { return b.size() == 1 && b[0] < columns(); }
  mpg::BestResponse<Row> predictor_best_response(const mpg::MixedStrategy<Row>& q) const override {
    mpg::BestResponse<Row> best{{0}, -1e300};
    for (int a = 0; a < rows(); ++a) {
      double v = 0.0;
      for (std::size_t j = 0; j < q.size(); ++j) v += q.probabilities[j] * table_[a][q.actions[j][0]];
      if (v > best.value) best = {{a}, v};
    }
    return best;
  }
  mpg::BestResponse<Row> adversary_best_response(const mpg::MixedStrategy<Row>& p) const override {
    mpg::BestResponse<Row> best{{0}, 1e300};
    for (int b = 0; b < columns(); ++b) {
      double v = 0.0;
      for (std::size_t i = 0; i < p.size(); ++i) v += p.probabilities[i] * table_[p.actions[i][0]][b];
      if (v < best.value) best = {{b}, v};
    }
    return best;
  }

 private:
  int rows() const { return static_cast<int>(table_.size()); }
  int columns() const { return static_cast<int>(table_[0].size()); }
  std::vector<std::vector<double>> table_;
};

}  // namespace

TEST_CASE("the reference's double oracle stops when the LP value repeats, not at a certificate",
          "[alignment_cfg_protocol]") {
  // Rows a = 0, 1, 2 against columns b = 0, 1: (0, 1), (0.5, 0), (1, 0); value 1/2 (a = 0 and 2
  // half each). From {0} x {0}: LP value 0; the adversary's best response to a = 0 is b = 0 (0),
  // no better than the LP value, so nothing is added, the LP is solved again, its value 0 repeats
  // and the game stops after one iteration with the predictor's best response (a = 2, 1) unused:
  // gap 1 - 0 = 1.
  const TableGame game({{0.0, 1.0}, {0.5, 0.0}, {1.0, 0.0}});
  const auto stopped = mpg::solve_double_oracle(game, mpg::authors_game_options({}));
  CHECK(stopped.summary.status == mpg::DoubleOracleStatus::value_repeated);
  CHECK(stopped.summary.iterations == 1);
  CHECK(stopped.summary.value == 0.0);
  CHECK(stopped.summary.predictor_response_value == 1.0);
  CHECK(stopped.summary.adversary_response_value == 0.0);
  CHECK(stopped.summary.gap == 1.0);
  REQUIRE(stopped.predictor.size() == 1);
  CHECK(stopped.predictor.actions[0] == Row{0});
  // The certified double oracle finds the value 1/2 of the same game.
  const auto certified = mpg::solve_double_oracle(game, mpg::DoubleOracleOptions{});
  CHECK(certified.summary.converged());
  CHECK(certified.summary.value == Approx(0.5).margin(1e-9));

  // Matching pennies on three actions (identity table, value 1/3). Iteration 1: LP {0}x{0} value
  // 1; the adversary adds b = 1 (0 < 1); LP value 0; the predictor adds a = 1 (1 > 0). Iteration 2:
  // LP 2x2 value 1/2; the adversary adds b = 2 (0); LP value 0; the predictor adds a = 2.
  // Iteration 3: LP 3x3 value 1/3; every column scores 1/3 against the uniform P, no addition;
  // the value 1/3 repeats: stop with the equilibrium.
  const TableGame pennies({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  // The gap measured at the stop is 0: the stopped game is labelled converged.
  const auto solved = mpg::solve_double_oracle(pennies, mpg::authors_game_options({}));
  CHECK(solved.summary.status == mpg::DoubleOracleStatus::converged);
  CHECK(solved.summary.iterations == 3);
  CHECK(solved.summary.value == Approx(1.0 / 3.0).margin(1e-12));
  CHECK(solved.summary.gap == Approx(0.0).margin(1e-12));
  CHECK(solved.summary.predictor_actions == 3);
  CHECK(solved.summary.adversary_actions == 3);
  // The action cap (the reference's 300, here 2), checked after each LP for the player whose
  // strategy that LP served: iteration 1 adds column b = 1, the second LP (1 x 2, value 0) then
  // finds the adversary holding two actions and stops.
  const mpg::DoubleOracleOptions capped = mpg::authors_game_options({}, {.value_precision = 1e-8, .max_actions = 2});
  const auto cut = mpg::solve_double_oracle(pennies, capped);
  CHECK(cut.summary.status == mpg::DoubleOracleStatus::action_limit);
  CHECK(cut.summary.iterations == 1);
  CHECK(cut.summary.value == 0.0);
  CHECK(cut.summary.adversary_actions == 2);
  CHECK(cut.summary.predictor_actions == 1);
}

namespace {

// A size x size pair with sure links on the diagonal and possible-only links right of it
// (as tests/test_alignment_mpg.cpp, features x1).
mpg::AlignmentInstance diagonal_pair(std::size_t size, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  mpg::AlignmentInstance x;
  x.english_length = x.french_length = size;
  Eigen::MatrixXd dense(static_cast<Eigen::Index>(size * size), 3);
  for (std::size_t e = 0; e < size; ++e)
    for (std::size_t f = 0; f < size; ++f) {
      const auto row = static_cast<Eigen::Index>(e * size + f);
      const bool sure = e == f, possible = e + 1 == f;
      dense(row, 0) = 1.0;
      dense(row, 1) = (sure ? 1.0 : 0.0) + 0.5 * u(rng);
      dense(row, 2) = (possible ? 1.0 : 0.0) + 0.5 * u(rng);
      if (sure || possible) x.gold.push_back(mpg::link_code(static_cast<std::uint32_t>(row), possible));
    }
  x.features = dense.sparseView();
  return x;
}

}  // namespace

TEST_CASE("an authors' protocol reaches the alignment trainer: theta = 0, preset optimizer, reference games",
          "[alignment_cfg_protocol]") {
  std::mt19937 rng(3);
  std::vector<mpg::AlignmentInstance> set;
  for (int i = 0; i < 4; ++i) set.push_back(diagonal_pair(3, rng));
  for (const mpg::AlignmentMpgKind kind : {mpg::AlignmentMpgKind::matching, mpg::AlignmentMpgKind::aer}) {
    const Eigen::Index d = kind == mpg::AlignmentMpgKind::matching ? 3 : 6;
    // f(0) = -sum_n v_n(0), v_n by the reference's double oracle seeded with the gold.
    mpg::AlignmentMpgOptions options;
    options.kind = kind;
    options.lambda = 0.5;
    options.protocol = mpg::TrainingProtocol::authors_adadelta;
    options.authors_max_iterations = 3;
    const mpg::AlignmentGames games(set, options);
    double f0 = 0.0;
    for (std::size_t i = 0; i < set.size(); ++i) {
      mpg::AlignmentGames::Warm warm;
      const auto s = games.solve(i, Eigen::VectorXd::Zero(d), warm);
      const mpg::AlignmentAction gold = kind == mpg::AlignmentMpgKind::matching ? mpg::target_matching(set[i]) : set[i].gold;
      std::vector<mpg::AlignmentAction> rows;
      rows.emplace_back();
      for (std::uint32_t code : gold) rows.back().push_back(mpg::link_code(mpg::link_position(code)));
      const auto reference =
          kind == mpg::AlignmentMpgKind::matching
              ? mpg::solve_double_oracle(mpg::make_matching_game(set[i], Eigen::VectorXd::Zero(d)),
                                                      mpg::authors_game_options({}), rows, {gold})
              : mpg::solve_double_oracle(mpg::make_aer_game(set[i], Eigen::VectorXd::Zero(d)),
                                                      mpg::authors_game_options({}), rows, {gold});
      CHECK(s.value == reference.summary.value);
      f0 -= reference.summary.value;
    }
    for (const auto protocol : {mpg::TrainingProtocol::authors_adadelta, mpg::TrainingProtocol::authors_lbfgs}) {
      options.protocol = protocol;
      const mpg::AlignmentMpgModel model = mpg::train_alignment_mpg(set, options);
      CHECK(model.protocol == protocol);
      CHECK(model.summary.optimizer.initial_value == f0);  // theta starts at 0
      CHECK(model.summary.optimizer.iterations <= 3);
      CHECK_FALSE(std::isfinite(model.summary.optimizer.lower_bound));  // no certificate
      CHECK_THAT(model.summary.optimizer.message,
                 Catch::Contains(protocol == mpg::TrainingProtocol::authors_adadelta ? "AdaDelta" : "L-BFGS"));
      // Prediction stops the test game by the same rule.
      const auto predicted = mpg::predict_alignment_mpg(model, set[0]);
      const auto game_of = [&](const mpg::AlignmentInstance& x) -> std::unique_ptr<mpg::Game<mpg::AlignmentAction>> {
        if (kind == mpg::AlignmentMpgKind::matching)
          return std::make_unique<mpg::MatchingGame>(mpg::make_matching_game(x, model.theta));
        return std::make_unique<mpg::AerGame>(mpg::make_aer_game(x, model.theta));
      };
      const auto reference = mpg::predict_by_game(*game_of(set[0]), mpg::authors_game_options({}));
      CHECK(predicted.links == reference.links);
      CHECK(predicted.game.iterations == reference.game.iterations);
      CHECK(predicted.game.status != mpg::DoubleOracleStatus::iteration_limit);
    }
  }
}

namespace {

std::vector<mpg::ParseExample> short_examples(const mpg::Grammar& g) {
  std::vector<mpg::ParseExample> out;
  for (const mpg::PtbTree& t : mpg::testing::small_treebank()) {
    const auto tags = mpg::cnf_tags(t);
    if (tags.size() <= 3) out.push_back({g.tag_ids(tags), mpg::encode_parse(g, t)});
  }
  return out;
}

}  // namespace

TEST_CASE("an authors' protocol reaches the CFG trainer: theta = 0, preset optimizer, reference games",
          "[alignment_cfg_protocol]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  const auto examples = short_examples(g);
  REQUIRE(examples.size() == 6);
  const std::vector<double> zero(g.rule_count(), 0.0);
  double f0 = 0.0;
  for (const auto& e : examples) {
    const mpg::CfgHammingGame game(g, e.tags, zero);
    f0 -= mpg::solve_double_oracle(game, mpg::authors_game_options({}), {e.gold}, {e.gold}).summary.value;
  }
  for (const auto protocol : {mpg::TrainingProtocol::authors_adadelta, mpg::TrainingProtocol::authors_lbfgs}) {
    mpg::CfgMpgOptions options;
    options.lambda = 0.5;
    options.protocol = protocol;
    options.authors_max_iterations = 4;
    const mpg::CfgMpgModel model = mpg::train_cfg_mpg(g, examples, options);
    CHECK(model.protocol == protocol);
    CHECK(model.summary.optimizer.initial_value == f0);
    CHECK(model.summary.optimizer.iterations <= 4);
    CHECK_FALSE(std::isfinite(model.summary.optimizer.lower_bound));
    CHECK(model.summary.games >= 6);
    // The test parse: the most probable action of the game stopped by the reference's rule.
    const auto& e = examples[2];
    mpg::DoubleOracleSummary summary;
    std::vector<std::string> tags, words;
    for (int t : e.tags) {
      tags.push_back(g.tag_name(t));
      words.push_back("x");
    }
    const auto parsed = mpg::predict_cfg_mpg(g, model, tags, words, "A", 1e-6, &summary);
    const mpg::CfgHammingGame game(g, e.tags, model.theta);
    const auto reference = mpg::solve_double_oracle(game, mpg::authors_game_options({}));
    CHECK(summary.iterations == reference.summary.iterations);
    CHECK(summary.value == reference.summary.value);
    const auto& best = reference.predictor.actions[mpg::most_probable_index(reference.predictor)];
    CHECK(parsed.tree == mpg::from_cnf(mpg::decode_parse(g, best, e.tags, words)));
  }
}

TEST_CASE("Table XIV's 1 - Hamming is |∩| / |∪| of the constituent multisets (every pair of trees, n <= 4)",
          "[alignment_cfg_protocol]") {
  const mpg::Grammar g = mpg::Grammar::from_cnf_trees(mpg::testing::small_treebank());
  std::mt19937 rng(13);
  int pairs = 0, below = 0;
  for (int n = 1; n <= 4; ++n) {
    const auto tags = mpg::testing::random_parsable_tags(g, n, rng);
    const auto all = mpg::testing::all_parses(g, tags);
    for (const auto& a : all)
      for (const auto& b : all) {
        const mpg::PtbTree ta = mpg::from_cnf(mpg::decode_parse(g, a, tags));
        const mpg::PtbTree tb = mpg::from_cnf(mpg::decode_parse(g, b, tags));
        // Independent count: multiset intersection (min of counts) and union (max of counts).
        std::map<mpg::LabeledSpan, int> ca, cb;
        for (const auto& s : mpg::labeled_constituents(ta)) ++ca[s];
        for (const auto& s : mpg::labeled_constituents(tb)) ++cb[s];
        double inter = 0.0, uni = 0.0;
        for (const auto& [span, k] : ca) {
          const int other = cb.count(span) ? cb.at(span) : 0;
          inter += std::min(k, other);
          uni += std::max(k, other);
        }
        for (const auto& [span, k] : cb)
          if (!ca.count(span)) uni += k;
        const mpg::HammingCounts h = mpg::hamming_counts(ta, tb);
        const double expected = uni == 0.0 ? 1.0 : inter / uni;
        CHECK(h.one_minus_hamming() == Approx(expected).margin(1e-15));
        CHECK(h.one_minus_hamming() <= h.dice() + 1e-15);
        below += h.one_minus_hamming() < h.dice();
        if (a == b) CHECK(h.one_minus_hamming() == 1.0);
        ++pairs;
      }
  }
  CHECK(pairs > 30);
  CHECK(below > 0);
}
