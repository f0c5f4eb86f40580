// The joint trainer's exact best values at every size (lib/models/binary/joint_strategy.*), which
// give its certificate: computed over the examples and sizes that carry weight, by blocks of
// sizes, they equal brute force over all actions of each size and the direct per-size sums.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "lib/models/binary/joint_strategy.hpp"

using namespace mpg::joint_detail;

namespace {

// A feasible strategy over n examples at `sizes`: random weights (some exactly 0) and marginals
// that vanish on the examples not in `support`.
SizeStrategy random_strategy(long n, const std::vector<long>& sizes, const std::vector<long>& support, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SizeStrategy s;
  s.empty = unit(rng);
  for (long k : sizes) {
    if (k > static_cast<long>(support.size())) continue;
    s.sizes.push_back(k);
    s.weight.push_back(unit(rng) < 0.3 ? 0.0 : unit(rng));
    Eigen::VectorXd m = Eigen::VectorXd::Zero(n);
    // k of the support at the weight, then a little mass moved to two others (still feasible).
    std::vector<long> order = support;
    std::shuffle(order.begin(), order.end(), rng);
    for (long j = 0; j < k; ++j) m[order[static_cast<std::size_t>(j)]] = s.weight.back();
    if (k < static_cast<long>(order.size())) {
      const double moved = 0.5 * unit(rng) * s.weight.back();
      m[order[0]] -= moved;
      m[order[static_cast<std::size_t>(k)]] += moved;
    }
    s.marginal.push_back(m);
  }
  make_feasible(s);
  return s;
}

// min (sign -1: max) over all actions y of size m of sum_{i in y} (cost_i(m) + offset_i).
double brute_force(const SizeStrategy& s, const Eigen::VectorXd& offset, long m, double sign) {
  const long n = offset.size();
  Eigen::VectorXd cost(n);
  size_costs(s, m, cost);
  double best = sign * 1e300;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (__builtin_popcount(mask) != m) continue;
    double total = 0.0;
    for (long i = 0; i < n; ++i)
      if (mask & (1u << i)) total += cost[i] + offset[i];
    best = sign > 0 ? std::min(best, total) : std::max(best, total);
  }
  return best;
}

}  // namespace

TEST_CASE("Joint best values: a worked game of two examples", "[joint_best_values]") {
  // The predictor plays size 1 on example 0 (weight 1); potentials (0.5, 0.1). The adversary's
  // costs at size l: c_0 = 2/(1 + l) - 0.5, c_1 = -0.1. Size 1: min(0.5, -0.1) = -0.1; size 2:
  // 2/3 - 0.5 - 0.1 = 1/15; size 0: P(empty) = 0.
  SizeStrategy predictor;
  predictor.sizes = {1};
  predictor.weight = {1.0};
  predictor.marginal = {Eigen::Vector2d(1.0, 0.0)};
  const std::vector<double> adversary = adversary_values(predictor, Eigen::Vector2d(0.5, 0.1));
  REQUIRE(adversary.size() == 3);
  CHECK(adversary[0] == 0.0);
  CHECK(adversary[1] == Approx(-0.1).margin(1e-15));
  CHECK(adversary[2] == Approx(1.0 / 15.0).margin(1e-15));
  // The same strategy as the adversary's: the predictor's gains at size k are 2/(k + 1) on
  // example 0: size 1 gains 1, size 2 gains 2/3; size 0 is worth Q(empty) = 0.
  const std::vector<double> predictor_best = predictor_values(predictor);
  CHECK(predictor_best == std::vector<double>{0.0, 1.0, 2.0 / 3.0});
}

TEST_CASE("Joint best values equal brute force over all actions of each size", "[joint_best_values]") {
  std::mt19937 rng(54);
  std::uniform_real_distribution<double> potential(-0.4, 0.4);
  for (int trial = 0; trial < 40; ++trial) {
    const long n = 3 + trial % 7;  // 3..9 examples
    // Marginals only on part of the examples (the rest's terms are their offsets at every size).
    std::vector<long> support;
    for (long i = 0; i < n; ++i)
      if (trial % 3 == 0 || i % 2 == 0 || i == 1) support.push_back(i);
    std::vector<long> sizes;
    for (long k = 1; k <= n; ++k)
      if ((k + trial) % 2 == 0 || k == 1) sizes.push_back(k);
    const SizeStrategy s = random_strategy(n, sizes, support, rng);
    Eigen::VectorXd psi(n);
    for (long i = 0; i < n; ++i) psi[i] = trial % 5 == 0 ? 0.1 : potential(rng);  // ties in one of five
    const std::vector<double> adversary = adversary_values(s, psi);
    const std::vector<double> predictor = predictor_values(s);
    REQUIRE(adversary.size() == static_cast<std::size_t>(n + 1));
    REQUIRE(predictor.size() == static_cast<std::size_t>(n + 1));
    CHECK(adversary[0] == s.empty);
    CHECK(predictor[0] == s.empty);
    for (long m = 1; m <= n; ++m) {
      CHECK(adversary[static_cast<std::size_t>(m)] == Approx(brute_force(s, -psi, m, 1.0)).margin(1e-13));
      CHECK(predictor[static_cast<std::size_t>(m)] ==
            Approx(brute_force(s, Eigen::VectorXd::Zero(n), m, -1.0)).margin(1e-13));
    }
  }
}

TEST_CASE("Joint best values equal the direct per-size sums on a larger game (blocks of sizes)", "[joint_best_values]") {
  std::mt19937 rng(154);
  std::uniform_real_distribution<double> potential(-0.05, 0.05);
  const long n = 300;  // several blocks of 64 sizes
  std::vector<long> support;
  for (long i = 0; i < n; i += 1 + i % 3) support.push_back(i);
  const SizeStrategy s = random_strategy(n, {1, 7, 40, 63, 64, 65, 100, 150, 180}, support, rng);
  Eigen::VectorXd psi(n);
  for (long i = 0; i < n; ++i) psi[i] = potential(rng);
  const std::vector<double> adversary = adversary_values(s, psi);
  const std::vector<double> predictor = predictor_values(s);
  Eigen::VectorXd cost(n);
  for (long m = 1; m <= n; ++m) {
    size_costs(s, m, cost);
    std::vector<double> c(cost.data(), cost.data() + n), g(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
      c[static_cast<std::size_t>(i)] -= psi[i];
      g[static_cast<std::size_t>(i)] = cost[i];
    }
    std::sort(c.begin(), c.end());
    std::sort(g.begin(), g.end(), std::greater<>());
    CHECK(adversary[static_cast<std::size_t>(m)] == Approx(std::accumulate(c.begin(), c.begin() + m, 0.0)).margin(1e-12));
    CHECK(predictor[static_cast<std::size_t>(m)] == Approx(std::accumulate(g.begin(), g.begin() + m, 0.0)).margin(1e-12));
  }
}

TEST_CASE("Lazy joint best values: exact where they can matter, a valid bound above the best elsewhere",
          "[joint_best_values]") {
  std::mt19937 rng(254);
  long skipped = 0, sizes_seen = 0;
  for (int trial = 0; trial < 12; ++trial) {
    CAPTURE(trial);
    const long n = 130 + 40 * trial;  // 3 to 10 blocks of 64 sizes
    std::uniform_real_distribution<double> potential(-0.02 * (1 + trial % 4), 0.02 * (1 + trial % 4));
    std::vector<long> support;
    for (long i = 0; i < n; i += 1 + (i + trial) % 3) support.push_back(i);
    std::vector<long> strategy_sizes;
    for (long k = 1 + trial; k <= n; k += 17 + trial) strategy_sizes.push_back(k);
    const SizeStrategy s = random_strategy(n, strategy_sizes, support, rng);
    Eigen::VectorXd psi(n);
    for (long i = 0; i < n; ++i) psi[i] = trial % 5 == 0 ? 0.01 : potential(rng);  // ties in one of five
    // The LP's sizes: a few of the strategy's and some others.
    std::vector<long> in_lp = {strategy_sizes.front(), n / 2, n};
    for (int sign_index = 0; sign_index < 2; ++sign_index) {
      const bool adversary = sign_index == 0;
      const std::vector<double> full = adversary ? adversary_values(s, psi) : predictor_values(s);
      const std::vector<double> lazy = adversary ? adversary_values(s, psi, &in_lp) : predictor_values(s, &in_lp);
      REQUIRE(lazy.size() == full.size());
      const double sign = adversary ? -1.0 : 1.0;  // higher sign * value is better
      double best = sign * full[0];
      for (long m : in_lp) best = std::max(best, sign * full[static_cast<std::size_t>(m)]);
      for (std::size_t m = 0; m < full.size(); ++m) {
        ++sizes_seen;
        if (lazy[m] == full[m]) continue;
        ++skipped;
        // Not evaluated: a bound on the exact value, strictly worse than the LP's best.
        CHECK(sign * lazy[m] >= sign * full[m] - 1e-12);
        CHECK(sign * lazy[m] < best);
        CHECK(std::find(in_lp.begin(), in_lp.end(), static_cast<long>(m)) == in_lp.end());
      }
      // What the trainer reads: the best size and the sizes that beat the LP's best.
      const auto best_of = [&](const std::vector<double>& v) {
        return adversary ? std::min_element(v.begin(), v.end()) - v.begin() : std::max_element(v.begin(), v.end()) - v.begin();
      };
      CHECK(best_of(lazy) == best_of(full));
      CHECK(violating_sizes(lazy, in_lp, best_of(lazy), 8, sign) == violating_sizes(full, in_lp, best_of(full), 8, sign));
    }
  }
  CAPTURE(skipped, sizes_seen);
  CHECK(skipped > sizes_seen / 4);  // the bounds do spare most work on such games
}
