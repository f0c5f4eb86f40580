// Max-margin matching and the alignment model pieces it shares with the alignment MPGs: the loss
// and target matchings by hand, the trained objective against a brute-force 1-slack hinge over all
// matchings, a separable problem learned exactly, joint features, and per-pair game predictions.
#include <catch2/catch.hpp>

#include <random>

#include "baselines/matching_ssvm.hpp"
#include "lib/base/error.hpp"
#include "tests/alignment_brute_force.hpp"

using mpg::AlignmentAction;
using mpg::link_code;

namespace {

// A pair with random dense features on a rows x columns grid and the given gold links.
mpg::AlignmentInstance random_instance(std::size_t rows, std::size_t columns, Eigen::Index d, AlignmentAction gold,
                                       std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  mpg::AlignmentInstance x;
  x.english_length = rows;
  x.french_length = columns;
  Eigen::MatrixXd dense(static_cast<Eigen::Index>(rows * columns), d);
  for (Eigen::Index r = 0; r < dense.rows(); ++r)
    for (Eigen::Index c = 0; c < d; ++c) dense(r, c) = c == 0 ? 1.0 : u(rng);
  x.features = dense.sparseView();
  std::sort(gold.begin(), gold.end());
  x.gold = std::move(gold);
  return x;
}

// (1/N) sum_n max_y [Delta_n(y) - w . (Psi(y_n*) - Psi(y))] over all matchings, clipped at 0.
double brute_force_slack(const std::vector<mpg::AlignmentInstance>& instances, const Eigen::VectorXd& w,
                         const mpg::AlignmentCosts& costs) {
  double total = 0.0;
  for (const auto& x : instances) {
    const AlignmentAction target = mpg::target_matching(x, costs);
    const double target_loss = mpg::alignment_loss(target, x.gold, costs);
    const double target_score = w.dot(mpg::link_features(x, target));
    double best = -1e300;
    for (const auto& y : mpg::testing::all_matchings(x.english_length, x.french_length))
      best = std::max(best, mpg::alignment_loss(y, x.gold, costs) - target_loss - target_score +
                                w.dot(mpg::link_features(x, y)));
    total += best;
  }
  return std::max(0.0, total / static_cast<double>(instances.size()));
}

}  // namespace

TEST_CASE("alignment loss and target matchings by hand", "[matching_ssvm]") {
  // Gold on a 2 x 3 grid: English 0 sure with French 0 and 1, English 1 possible with French 1.
  const AlignmentAction gold = {link_code(0), link_code(1), link_code(4, true)};
  CHECK(mpg::alignment_loss({}, gold, {}) == 2.0);                          // two sure links missed
  CHECK(mpg::alignment_loss({link_code(0), link_code(5)}, gold, {}) == 2.0);  // one missed, one outside P
  CHECK(mpg::alignment_loss({link_code(0), link_code(5)}, gold, {3.0, 0.5}) == 3.5);
  CHECK(mpg::alignment_loss({link_code(4)}, gold, {}) == 2.0);              // possible: no cost
  std::mt19937 rng(1);
  const auto x = random_instance(2, 3, 2, gold, rng);
  // One sure link fits (English 0 has only one slot); then the possible link (1,1) with (0,0).
  CHECK(mpg::target_matching(x) == AlignmentAction{link_code(0), link_code(4)});
}

TEST_CASE("max-margin matching: certified objective equals the brute-force 1-slack primal", "[matching_ssvm]") {
  std::mt19937 rng(2005);
  std::vector<mpg::AlignmentInstance> instances;
  instances.push_back(random_instance(3, 3, 4, {link_code(0), link_code(4), link_code(8, true)}, rng));
  instances.push_back(random_instance(2, 3, 4, {link_code(1), link_code(3), link_code(5, true)}, rng));
  instances.push_back(random_instance(3, 2, 4, {link_code(0), link_code(2, true), link_code(5)}, rng));
  for (double C : {0.1, 1.0, 10.0}) {
    mpg::MatchingSsvmOptions options;
    options.C = C;
    options.costs = {1.0, 0.5};
    options.epsilon = 1e-6;
    mpg::MatchingSsvmSummary summary;
    const auto model = mpg::train_matching_ssvm(instances, options, &summary);
    INFO(summary.message);
    REQUIRE(summary.converged());
    const double slack = brute_force_slack(instances, model.weights, options.costs);
    CHECK(summary.slack == Approx(slack).margin(1e-9));
    CHECK(summary.objective == Approx(0.5 * model.weights.squaredNorm() + C * slack).margin(1e-9));
    CHECK(summary.objective - summary.dual_objective <= C * options.epsilon + 1e-12);
    CHECK(summary.dual_objective <= summary.objective + 1e-12);
  }
}

TEST_CASE("max-margin matching learns a separable problem exactly", "[matching_ssvm]") {
  // Feature 1 marks the gold links; the learned matching reproduces every target.
  std::vector<mpg::AlignmentInstance> instances;
  std::mt19937 rng(9);
  for (int n = 0; n < 5; ++n) {
    const std::size_t rows = 3 + static_cast<std::size_t>(n % 2), columns = 4;
    AlignmentAction gold;
    for (std::size_t e = 0; e < rows; ++e) gold.push_back(link_code(static_cast<std::uint32_t>(e * columns + (e + static_cast<std::size_t>(n)) % columns)));
    auto x = random_instance(rows, columns, 3, gold, rng);
    Eigen::MatrixXd dense = Eigen::MatrixXd(x.features);
    for (Eigen::Index r = 0; r < dense.rows(); ++r) dense(r, 1) = 0.0;
    for (std::uint32_t code : x.gold) dense(mpg::link_position(code), 1) = 1.0;
    x.features = dense.sparseView();
    instances.push_back(std::move(x));
  }
  mpg::MatchingSsvmOptions options;
  options.C = 100.0;
  mpg::MatchingSsvmSummary summary;
  const auto model = mpg::train_matching_ssvm(instances, options, &summary);
  INFO(summary.message);
  CHECK(summary.converged());
  CHECK(summary.training_loss == 0.0);
  for (const auto& x : instances) CHECK(mpg::predict_matching(model, x) == x.gold);
}

TEST_CASE("max-margin matching rejects bad input", "[matching_ssvm]") {
  std::mt19937 rng(2);
  std::vector<mpg::AlignmentInstance> instances{random_instance(2, 2, 3, {link_code(0)}, rng)};
  mpg::MatchingSsvmOptions options;
  CHECK_THROWS_AS(mpg::train_matching_ssvm({}, options), mpg::Error);
  options.C = 0.0;
  CHECK_THROWS_AS(mpg::train_matching_ssvm(instances, options), mpg::Error);
  options = {};
  options.costs.false_positive_cost = -1.0;
  CHECK_THROWS_AS(mpg::train_matching_ssvm(instances, options), mpg::Error);
  options = {};
  instances.push_back(random_instance(2, 2, 4, {link_code(0)}, rng));
  CHECK_THROWS_AS(mpg::train_matching_ssvm(instances, options), mpg::Error);
}

TEST_CASE("joint features and games of a pair at theta", "[matching_ssvm]") {
  std::mt19937 rng(5);
  const auto x = random_instance(2, 3, 3, {link_code(0), link_code(4, true)}, rng);
  const AlignmentAction tagged = {link_code(0), link_code(4, true), link_code(5)};
  const Eigen::VectorXd both = mpg::tagged_link_features(x, tagged);
  const Eigen::MatrixXd dense(x.features);
  CHECK((both.head(3) - (dense.row(0) + dense.row(5)).transpose()).norm() < 1e-15);
  CHECK((both.tail(3) - dense.row(4).transpose()).norm() < 1e-15);
  CHECK((mpg::link_features(x, tagged) - (dense.row(0) + dense.row(4) + dense.row(5)).transpose()).norm() < 1e-15);
  // psi of the AER game = theta . Phi(tags); of the matching game = theta . Phi(links).
  Eigen::VectorXd theta(6);
  theta << 0.3, -0.2, 0.5, 1.0, 0.1, -0.4;
  const mpg::AerGame aer = mpg::make_aer_game(x, theta);
  CHECK(aer.potential(tagged) == Approx(theta.dot(both)));
  const mpg::MatchingGame bip = mpg::make_matching_game(x, theta.head(3));
  CHECK(bip.potential({link_code(0), link_code(4)}) ==
        Approx(theta.head(3).dot(mpg::link_features(x, {link_code(0), link_code(4)}))));
  CHECK_THROWS_AS(mpg::make_aer_game(x, theta.head(3)), mpg::Error);
  // Expected features of a mixed strategy.
  mpg::MixedStrategy<AlignmentAction> q{{tagged, {link_code(1)}}, {0.25, 0.75}};
  CHECK((mpg::expected_tagged_link_features(x, q) -
         (0.25 * both + 0.75 * mpg::tagged_link_features(x, {link_code(1)})))
            .norm() < 1e-15);
}

TEST_CASE("per-pair game predictions follow strong potentials", "[matching_ssvm]") {
  // Potentials +3 on the diagonal of a 3 x 3 grid, -3 elsewhere: the adversary always plays the
  // diagonal (sure, for AER), and the predictor's equilibrium action is the diagonal.
  std::vector<double> strong(9, -3.0);
  for (std::uint32_t e = 0; e < 3; ++e) strong[e * 3 + e] = 3.0;
  const AlignmentAction diagonal = {link_code(0), link_code(4), link_code(8)};
  const mpg::MatchingGame bip(3, 3, strong);
  const auto matched = mpg::predict_by_game(bip);
  CHECK(matched.game.converged());
  CHECK(matched.links == diagonal);
  for (double c : {0.0, 1.0}) {
    const mpg::AerGame aer(strong, std::vector<double>(9, -3.0), mpg::AerGameOptions{c});
    const auto predicted = mpg::predict_by_game(aer);
    CHECK(predicted.game.converged());
    CHECK(predicted.links == diagonal);
  }
}
