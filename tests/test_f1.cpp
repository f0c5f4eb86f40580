// Binary F1 game: score, GFM best responses (thesis Alg. 2) against brute force, worked examples
// of thesis §4.2 and Table IV, and exact game values (digest §8 items 4, 5, 12, 13).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "lib/game/double_oracle.hpp"
#include "lib/metrics/f1.hpp"
#include "tests/brute_force.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {
MixedStrategy<BinaryAction> strategy(std::vector<std::pair<std::string, double>> support) {
  MixedStrategy<BinaryAction> s;
  for (auto& [bits, p] : support) {
    s.actions.push_back(from_bitstring(bits));
    s.probabilities.push_back(p);
  }
  return s;
}
}  // namespace

TEST_CASE("F1 score of the thesis worked example and its conventions", "[f1]") {
  // y = 10110010, y_hat = 11100110: precision 3/5, recall 3/4, F1 = 2/3 (thesis §4.1).
  CHECK(f1_score(from_bitstring("11100110"), from_bitstring("10110010")) ==
        Approx(2.0 / 3.0).margin(1e-15));
  CHECK(f1_score(all_zeros(), all_zeros()) == 1.0);
  CHECK(f1_score(from_bitstring("0100"), all_zeros()) == 0.0);
  CHECK(f1_score(all_zeros(), from_bitstring("0100")) == 0.0);
  CHECK(f1_score({1, 3, 5, 7}, {2, 3, 5, 8, 9}) == Approx(4.0 / 9.0).margin(1e-15));
  CHECK(f1_score({1, 3, 5, 7}, {2, 4, 6, 8}) == 0.0);
}

TEST_CASE("F1 payoff matrix equals thesis Table IV", "[f1]") {
  F1Game game({0.0, 0.0, 0.0});
  const char* labels[] = {"000", "001", "010", "011", "100", "101", "110", "111"};
  // Row 011 of Table IV: 0, 2/3, 2/3, 1, 0, 1/2, 1/2, 4/5.
  const double row_011[] = {0, 2.0 / 3, 2.0 / 3, 1, 0, 0.5, 0.5, 0.8};
  for (int c = 0; c < 8; ++c)
    CHECK(game.score(from_bitstring("011"), from_bitstring(labels[c])) ==
          Approx(row_011[c]).margin(1e-15));
  // Potentials enter only through the adversary's column: entry = score - sum psi over its ones.
  F1Game shifted({0.1, 0.2, 0.3});
  CHECK(shifted.payoff(from_bitstring("101"), from_bitstring("011")) ==
        Approx(0.5 - 0.2 - 0.3).margin(1e-15));
}

TEST_CASE("F1 predictor best response on the thesis §4.2 motivating example", "[f1]") {
  F1Game game({0.0, 0.0, 0.0});
  const auto adversary = strategy({{"101", 0.5}, {"111", 0.2}, {"010", 0.3}});
  CHECK(predictor_value_of(game, from_bitstring("100"), adversary) ==
        Approx(13.0 / 30.0).margin(1e-12));
  CHECK(predictor_value_of(game, from_bitstring("110"), adversary) == Approx(0.61).margin(1e-12));
  const auto best = game.predictor_best_response(adversary);
  CHECK(to_bitstring(best.action, 3) == "111");
  CHECK(best.value == Approx(0.75).margin(1e-12));
}

TEST_CASE("F1 best responses against the empty-action-only opponent", "[f1]") {
  // GFM with k = 0: against Q = {0^n: 1} the predictor's best response is 0^n with value 1.
  F1Game game({0.3, -0.2, 0.1, 0.4});
  const auto best = game.predictor_best_response(strategy({{"0000", 1.0}}));
  CHECK(best.action.empty());
  CHECK(best.value == Approx(1.0).margin(1e-15));
  // The adversary facing 0^n pays 1 at 0^n; with psi it prefers every i with psi_i > 0.
  const auto adv = game.adversary_best_response(strategy({{"0000", 1.0}}));
  CHECK(to_bitstring(adv.action, 4) == "1011");
  CHECK(adv.value == Approx(-0.8).margin(1e-15));
}

TEST_CASE("F1 best responses equal brute force over all 2^n actions", "[f1]") {
  std::mt19937 rng(20261121);
  for (std::size_t n = 1; n <= 10; ++n) {
    const auto actions = all_binary_actions(n);
    for (int trial = 0; trial < 25; ++trial) {
      F1Game game(random_potentials(n, rng));
      const std::size_t support = 1 + trial % 7;
      const auto opponent = random_strategy(actions, support, rng);
      INFO("n = " << n << ", trial " << trial);

      const auto pred = game.predictor_best_response(opponent);
      CHECK(pred.value == Approx(brute_force_predictor_value(game, n, opponent)).margin(1e-12));
      CHECK(predictor_value_of(game, pred.action, opponent) == Approx(pred.value).margin(1e-12));

      const auto adv = game.adversary_best_response(opponent);
      CHECK(adv.value == Approx(brute_force_adversary_value(game, n, opponent)).margin(1e-12));
      CHECK(adversary_value_of(game, adv.action, opponent) == Approx(adv.value).margin(1e-12));
    }
  }
}

TEST_CASE("Membership groups: items with equal support membership, terms summed per size", "[f1]") {
  std::mt19937 rng(20261122);
  const std::size_t n = 40;
  MixedStrategy<BinaryAction> mixed;
  for (int j = 0; j < 30; ++j) {  // sizes from {0, 3, 5, 8}: equal sizes merge into one term
    const std::size_t size = std::vector<std::size_t>{0, 3, 5, 8}[static_cast<std::size_t>(j % 4)];
    std::vector<std::uint32_t> items(n);
    std::iota(items.begin(), items.end(), 0u);
    std::shuffle(items.begin(), items.end(), rng);
    BinaryAction action(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(size));
    std::sort(action.begin(), action.end());
    mixed.actions.push_back(action);
    mixed.probabilities.push_back(1.0 + j);
  }
  const MembershipGroups groups = group_by_membership(mixed, n);
  // Naive: an item's pattern is the list of actions containing it.
  std::vector<std::vector<int>> pattern(n);
  for (std::size_t j = 0; j < mixed.size(); ++j)
    for (auto i : mixed.actions[j]) pattern[i].push_back(static_cast<int>(j));
  double empty = 0.0;
  for (std::size_t j = 0; j < mixed.size(); ++j)
    if (mixed.actions[j].empty()) empty += mixed.probabilities[j];
  CHECK(groups.empty_action_probability == empty);
  std::uint32_t next_group = 0;
  for (std::size_t i = 0; i < n; ++i) {
    INFO("item " << i);
    // Groups are numbered in order of their first item.
    if (groups.group_of_item[i] == next_group) ++next_group;
    CHECK(groups.group_of_item[i] < next_group);
    for (std::size_t other = 0; other < n; ++other)
      CHECK((groups.group_of_item[i] == groups.group_of_item[other]) == (pattern[i] == pattern[other]));
    // Terms: one per size, in order of first appearance, weights summed in action order.
    std::vector<MembershipGroups::Term> expected;
    for (int j : pattern[i]) {
      const double size = static_cast<double>(mixed.actions[static_cast<std::size_t>(j)].size());
      auto same = std::find_if(expected.begin(), expected.end(), [&](auto& t) { return t.size == size; });
      if (same == expected.end()) {
        expected.push_back({size, mixed.probabilities[static_cast<std::size_t>(j)]});
      } else {
        same->weight += mixed.probabilities[static_cast<std::size_t>(j)];
      }
    }
    const auto& terms = groups.terms[groups.group_of_item[i]];
    REQUIRE(terms.size() == expected.size());
    for (std::size_t t = 0; t < terms.size(); ++t) {
      CHECK(terms[t].size == expected[t].size);
      CHECK(terms[t].weight == expected[t].weight);
    }
    const auto& items = groups.items[groups.group_of_item[i]];
    CHECK(std::find(items.begin(), items.end(), static_cast<std::uint32_t>(i)) != items.end());
  }
  CHECK(groups.group_count() == next_group);
}

TEST_CASE("F1 best response of the predictor does not depend on psi (Eq. 3.11a)", "[f1]") {
  std::mt19937 rng(7);
  const std::size_t n = 8;
  const auto opponent = random_strategy(all_binary_actions(n), 5, rng);
  F1Game a(random_potentials(n, rng));
  F1Game b(random_potentials(n, rng));
  CHECK(a.predictor_best_response(opponent).action == b.predictor_best_response(opponent).action);
}

TEST_CASE("F1 game values: 2/(n+3) at psi = 0 and the derived n = 3 games", "[f1]") {
  for (std::size_t n = 1; n <= 6; ++n) {
    F1Game game(std::vector<double>(n, 0.0));
    const auto solution = solve_double_oracle(game);
    INFO("n = " << n);
    CHECK(solution.summary.converged());
    CHECK(solution.summary.value == Approx(2.0 / (static_cast<double>(n) + 3.0)).margin(1e-9));
  }
  struct Case {
    std::vector<double> psi;
    double value;
  };
  for (const auto& c : {Case{{0.1, 0.2, 0.3}, 713.0 / 4180.0},
                        Case{{-0.2, 0.1, 0.4}, 137.0 / 660.0}, Case{{0.5, 0.5, 0.5}, -0.5}}) {
    const auto solution = solve_double_oracle(F1Game(c.psi));
    CHECK(solution.summary.converged());
    CHECK(solution.summary.gap <= 1e-9);
    CHECK(solution.summary.value == Approx(c.value).margin(1e-9));
  }
}

// The predictor's best response at larger n against a direct O(n^2) reference: for every size k,
// the k largest gains sum_j q_j [i in y_j] 2 / (|y_j| + k). Forty random actions of random sizes
// make hundreds of membership groups whose order changes across sizes, so the columns' sort
// from the previous column's order goes past its insertion budget and falls back to a full sort.
TEST_CASE("F1 predictor best response at n = 400 equals the per-size reference", "[f1]") {
  std::mt19937 rng(20261126);
  const std::size_t n = 400;
  for (int trial = 0; trial < 3; ++trial) {
    MixedStrategy<BinaryAction> adversary;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    double total = 0.0;
    for (int j = 0; j < 40; ++j) {
      BinaryAction action;
      const double density = unit(rng);
      for (std::uint32_t i = 0; i < n; ++i)
        if (unit(rng) < density) action.push_back(i);
      adversary.actions.push_back(action);
      adversary.probabilities.push_back(unit(rng));
      total += adversary.probabilities.back();
    }
    for (double& p : adversary.probabilities) p /= total;
    double reference = 0.0;  // size 0: F1(0^n, y) = 1 only against y = 0^n
    for (std::size_t j = 0; j < adversary.size(); ++j)
      if (adversary.actions[j].empty()) reference += adversary.probabilities[j];
    for (std::size_t k = 1; k <= n; ++k) {
      std::vector<double> gains(n, 0.0);
      for (std::size_t j = 0; j < adversary.size(); ++j)
        for (auto i : adversary.actions[j])
          gains[i] += adversary.probabilities[j] * 2.0 / static_cast<double>(adversary.actions[j].size() + k);
      std::nth_element(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(k - 1), gains.end(), std::greater<>());
      reference = std::max(reference, std::accumulate(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(k), 0.0));
    }
    const F1Game game(std::vector<double>(n, 0.0));
    const auto response = game.predictor_best_response(adversary);
    INFO("trial " << trial);
    CHECK(response.value == Approx(reference).margin(1e-12));
    CHECK(predictor_value_of(game, response.action, adversary) == Approx(reference).margin(1e-12));
  }
}
