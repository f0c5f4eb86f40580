// The Hungarian algorithm against brute force over all matchings of grids up to 7 x 7, with ties,
// negative weights and both orientations.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "lib/base/error.hpp"
#include "lib/game/bipartite_matching.hpp"

namespace {

// max over all partial matchings of the sum of their weights (empty matching = 0).
double brute_force_best(const Eigen::MatrixXd& w) {
  std::vector<char> used(static_cast<std::size_t>(w.cols()), 0);
  std::function<double(Eigen::Index)> best = [&](Eigen::Index row) -> double {
    if (row == w.rows()) return 0.0;
    double value = best(row + 1);
    for (Eigen::Index c = 0; c < w.cols(); ++c) {
      if (used[static_cast<std::size_t>(c)]) continue;
      used[static_cast<std::size_t>(c)] = 1;
      value = std::max(value, w(row, c) + best(row + 1));
      used[static_cast<std::size_t>(c)] = 0;
    }
    return value;
  };
  return best(0);
}

// The matching is valid, uses only positive edges, and its weight is the sum of its edges.
void check_matching(const Eigen::MatrixXd& w, const mpg::BipartiteMatching& m) {
  REQUIRE(m.column_of_row.size() == static_cast<std::size_t>(w.rows()));
  std::vector<char> used(static_cast<std::size_t>(w.cols()), 0);
  double total = 0.0;
  for (Eigen::Index r = 0; r < w.rows(); ++r) {
    const int c = m.column_of_row[static_cast<std::size_t>(r)];
    if (c < 0) continue;
    REQUIRE(c < w.cols());
    REQUIRE_FALSE(used[static_cast<std::size_t>(c)]);
    used[static_cast<std::size_t>(c)] = 1;
    CHECK(w(r, c) > 0.0);
    total += w(r, c);
  }
  CHECK(m.weight == Approx(total).margin(1e-12));
}

}  // namespace

TEST_CASE("Hungarian matching equals brute force on grids up to 7 x 7", "[bipartite_matching]") {
  std::mt19937 rng(1955);
  std::uniform_real_distribution<double> real(-1.0, 2.0);
  std::uniform_int_distribution<int> small(-2, 3);  // many ties
  int checked = 0;
  for (Eigen::Index rows = 1; rows <= 7; ++rows) {
    for (Eigen::Index columns = 1; columns <= 7; ++columns) {
      const int trials = rows * columns >= 36 ? 2 : 6;
      for (int trial = 0; trial < trials; ++trial) {
        Eigen::MatrixXd w(rows, columns);
        for (Eigen::Index r = 0; r < rows; ++r)
          for (Eigen::Index c = 0; c < columns; ++c)
            w(r, c) = trial % 2 == 0 ? real(rng) : static_cast<double>(small(rng));
        const mpg::BipartiteMatching m = mpg::max_weight_matching(w);
        check_matching(w, m);
        CHECK(m.weight == Approx(brute_force_best(w)).margin(1e-12));
        ++checked;
      }
    }
  }
  CHECK(checked == 278);
}

TEST_CASE("Hungarian matching: a hand example, all-negative weights, empty grids", "[bipartite_matching]") {
  // Greedy would take the 5 and then only the 1; the optimum is 4 + 4.
  Eigen::MatrixXd w(2, 2);
  w << 5, 4,
       4, 1;
  const mpg::BipartiteMatching m = mpg::max_weight_matching(w);
  CHECK(m.weight == 8.0);
  CHECK(m.column_of_row == std::vector<int>{1, 0});
  CHECK(m.size() == 2);
  // Only non-positive edges: nothing is matched.
  const mpg::BipartiteMatching none = mpg::max_weight_matching(Eigen::MatrixXd::Constant(3, 2, -1.0));
  CHECK(none.size() == 0);
  CHECK(none.weight == 0.0);
  CHECK(mpg::max_weight_matching(Eigen::MatrixXd::Zero(2, 3)).size() == 0);
  CHECK(mpg::max_weight_matching(Eigen::MatrixXd(0, 4)).column_of_row.empty());
  CHECK(mpg::max_weight_matching(Eigen::MatrixXd(3, 0)).column_of_row == std::vector<int>(3, -1));
  Eigen::MatrixXd bad = Eigen::MatrixXd::Ones(2, 2);
  bad(1, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(mpg::max_weight_matching(bad), mpg::Error);
}

TEST_CASE("Hungarian matching of a 30 x 30 grid beats any single swap", "[bipartite_matching]") {
  // Local optimality certificate on a sentence-sized grid: no 2-exchange improves the matching.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.5, 1.0);
  Eigen::MatrixXd w(30, 30);
  for (Eigen::Index r = 0; r < 30; ++r)
    for (Eigen::Index c = 0; c < 30; ++c) w(r, c) = u(rng);
  const mpg::BipartiteMatching m = mpg::max_weight_matching(w);
  check_matching(w, m);
  auto edge = [&](Eigen::Index r, int c) { return c < 0 ? 0.0 : std::max(w(r, c), 0.0); };
  for (Eigen::Index a = 0; a < 30; ++a)
    for (Eigen::Index b = a + 1; b < 30; ++b) {
      const int ca = m.column_of_row[static_cast<std::size_t>(a)];
      const int cb = m.column_of_row[static_cast<std::size_t>(b)];
      if (ca < 0 || cb < 0) continue;
      CHECK(edge(a, ca) + edge(b, cb) >= edge(a, cb) + edge(b, ca) - 1e-12);
    }
}
