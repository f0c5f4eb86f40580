// The claim helpers of lib/harness/claims: a monotone trend is tested at every consecutive x, so a
// series that falls from its first to its last x but rises in between fails (issue 55).
#include <catch2/catch.hpp>

#include "lib/base/error.hpp"
#include "lib/harness/claims.hpp"

using Catch::Matchers::Contains;
using mpg::harness::monotone_trend;

TEST_CASE("A decreasing trend holds only when every consecutive step falls", "[claims]") {
  const std::vector<double> n = {50, 100, 200, 400};
  const auto falls = monotone_trend(n, {30.0, 25.0, 21.0, 18.5}, true);
  CHECK(falls.holds);
  CHECK(falls.tau == Approx(-1.0));
  CHECK(falls.breaks.empty());
  CHECK(falls.evidence == "30.0 → 25.0 → 21.0 → 18.5 (τ -1.00)");
  // First 30 > last 20, which the old first-vs-last rule accepted; 100 → 200 rises.
  const auto bumpy = monotone_trend(n, {30.0, 22.0, 26.0, 20.0}, true);
  CHECK_FALSE(bumpy.holds);
  REQUIRE(bumpy.breaks.size() == 1);
  CHECK(bumpy.breaks[0] == "100 → 200: +4.0");
  CHECK(bumpy.tau == Approx(-2.0 / 3.0));  // 5 concordant-with-falling pairs of 6, 1 not
  CHECK_THAT(bumpy.evidence, Contains("breaks at 100 → 200: +4.0"));
  // A tie breaks a strict trend; the points may come in any order of x.
  CHECK_FALSE(monotone_trend(n, {30.0, 25.0, 25.0, 18.5}, true).holds);
  CHECK(monotone_trend({400, 50, 200, 100}, {18.5, 30.0, 21.0, 25.0}, true).holds);
  CHECK(monotone_trend({0.1, 0.5, 0.9}, {0.7, 0.8, 0.9}, false, 2).holds);
  CHECK_FALSE(monotone_trend({0.1, 0.5, 0.9}, {0.7, 0.8, 0.9}, true, 2).holds);
  CHECK_THROWS_AS(monotone_trend({1}, {1}, true), mpg::Error);
  CHECK_THROWS_AS(monotone_trend({1, 2}, {1}, true), mpg::Error);
}
