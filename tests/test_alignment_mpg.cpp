// Learning MPG_aer (lib/models/alignment_mpg.hpp) on a tiny synthetic alignment set whose features
// are large (x100), as the summed real features are: at theta = 0 with c = 0 the adversary's
// equilibrium is the empty tagging (value 0, subgradient -Phi(gold)), the objective falls below
// f(0) = 0 only within about 1/||Phi(gold)|| of theta = 0, so plain BMRM, whose first step is
// Phi(gold) / lambda, never gets back there in 20 iterations; the proximal bundle whose first
// step has length 1/||g(0)|| (the default) learns the set.
#include <catch2/catch.hpp>

#include <random>

#include "lib/models/alignment_mpg.hpp"

using mpg::AlignmentAction;
using mpg::link_code;

namespace {

// A size x size pair: gold sure links on the diagonal, possible-only links just right of it;
// features: bias, a noisy "diagonal" indicator, a noisy "next to the diagonal" indicator and
// noise, all times `scale`.
mpg::AlignmentInstance diagonal_pair(std::size_t size, double scale, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  mpg::AlignmentInstance x;
  x.english_length = x.french_length = size;
  Eigen::MatrixXd dense(static_cast<Eigen::Index>(size * size), 4);
  for (std::size_t e = 0; e < size; ++e)
    for (std::size_t f = 0; f < size; ++f) {
      const auto row = static_cast<Eigen::Index>(e * size + f);
      const bool sure = e == f, possible = e + 1 == f;
      dense(row, 0) = 1.0;
      dense(row, 1) = (sure ? 1.0 : 0.0) + 0.5 * u(rng);
      dense(row, 2) = (possible ? 1.0 : 0.0) + 0.5 * u(rng);
      dense(row, 3) = u(rng);
      if (sure || possible) x.gold.push_back(link_code(static_cast<std::uint32_t>(row), possible));
    }
  x.features = (scale * dense).sparseView();
  return x;
}

std::vector<mpg::AlignmentInstance> synthetic_set() {
  std::mt19937 rng(7);
  std::vector<mpg::AlignmentInstance> set;
  for (int i = 0; i < 6; ++i) set.push_back(diagonal_pair(4, 100.0, rng));
  return set;
}

// sum_n [-theta . Phi_n(gold) - v_n(theta)] (lambda = 0) and its subgradient.
double data_term(const mpg::AlignmentGames& games, const Eigen::VectorXd& theta, Eigen::VectorXd* gradient) {
  double value = 0.0;
  Eigen::VectorXd gold = Eigen::VectorXd::Zero(games.dimension()), expected = gold;
  for (std::size_t i = 0; i < games.size(); ++i) {
    mpg::AlignmentGames::Warm warm;
    const mpg::AlignmentGames::Solution s = games.solve(i, theta, warm);
    REQUIRE(s.converged);
    games.add_gold_features(i, gold);
    games.add_expected_features(i, s, 1.0, expected);
    value -= s.value;
  }
  if (gradient) *gradient = expected - gold;
  return value - theta.dot(gold);
}

}  // namespace

TEST_CASE("MPG_aer at theta = 0 (c = 0): value 0, subgradient -Phi(gold), below 0 only near 0", "[alignment_mpg]") {
  const std::vector<mpg::AlignmentInstance> set = synthetic_set();
  mpg::AlignmentMpgOptions options;
  options.kind = mpg::AlignmentMpgKind::aer;
  const mpg::AlignmentGames games(set, options);
  Eigen::VectorXd gradient;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(games.dimension());
  CHECK(data_term(games, zero, &gradient) == 0.0);
  Eigen::VectorXd gold = Eigen::VectorXd::Zero(games.dimension());
  for (std::size_t i = 0; i < games.size(); ++i) games.add_gold_features(i, gold);
  CHECK((gradient + gold).norm() == 0.0);  // E_Q[Phi] = 0: the adversary plays the empty tagging
  const Eigen::VectorXd direction = gold / gold.norm();
  // Linear (slope -||Phi(gold)||) for a step of 0.1 / ||g||; positive at BMRM's first step.
  CHECK(data_term(games, 0.1 / gold.norm() * direction, nullptr) == Approx(-0.1).epsilon(1e-9));
  CHECK(data_term(games, gold, nullptr) > 1000.0);
}

TEST_CASE("MPG_aer training leaves theta = 0 and learns the synthetic set", "[alignment_mpg]") {
  const std::vector<mpg::AlignmentInstance> set = synthetic_set();
  mpg::AlignmentMpgOptions options;
  options.kind = mpg::AlignmentMpgKind::aer;
  options.lambda = 1.0;
  options.max_iterations = 20;
  const mpg::AlignmentMpgModel model = mpg::train_alignment_mpg(set, options);  // default: proximal bundle
  CHECK(model.theta.norm() > 0.0);
  CHECK(model.summary.optimizer.final_value < -5.0);  // >= -6: each pair's term is >= -1
  mpg::AerCounts total;
  for (const auto& x : set) total.add(mpg::aer_counts(mpg::predict_alignment_mpg(model, x).links, x.gold));
  CHECK(mpg::aer_of_counts(total) < 0.05);

  // Plain BMRM from the same start stays at theta = 0 within the same iterations (AER 100).
  options.proximal = false;
  const mpg::AlignmentMpgModel bmrm = mpg::train_alignment_mpg(set, options);
  CHECK(bmrm.summary.optimizer.final_value > model.summary.optimizer.final_value + 4.0);
}
