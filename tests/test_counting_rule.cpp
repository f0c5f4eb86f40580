// The one counting rule (lib/harness/tables.hpp, issue 53): a published cell counts as reproduced
// only where the paper's method runs on the paper's data at the paper's evaluation level; every
// other row keeps its delta and verdict and is counted apart, by standing.
#include <catch2/catch.hpp>

#include "lib/harness/claims.hpp"
#include "lib/harness/tables.hpp"

using mpg::harness::Claims;
using mpg::harness::ComparisonTable;
using mpg::harness::Standing;
using mpg::harness::Tally;

namespace {

// Tolerance 0.01: rows at |delta| 0.005 are within, rows at 0.05 are not.
ComparisonTable synthetic_table() {
  ComparisonTable table({{"dataset", "data set"}, {"method", "method"}}, {}, 0.01);
  table.add({"A", "MPG"}, 0.705, 0.700);                                    // exact, within
  table.add({"A", "SSVM"}, 0.650, 0.700);                                   // exact, outside
  table.add({"B", "MPG"}, 0.805, 0.800).standing = Standing::substitute;    // within, apart
  table.add({"B", "SSVM"}, 0.750, 0.800).standing = Standing::substitute;   // outside, apart
  table.add({"A", "MPG (token)"}, 0.702, 0.700).standing = Standing::diagnostic;
  table.add({"A", "MPG (AdaDelta)"}, 0.600, 0.700).standing = Standing::variant;
  table.add({"A", "ELO"}, 0.701, 0.700).standing = Standing::no_learning;
  table.add({"A", "PCFG"}, 0.690, std::nullopt).standing = Standing::stand_in;  // no published value: not compared
  return table;
}

}  // namespace

TEST_CASE("exact rows are counted; substitute, diagnostic, variant and no-learning rows apart", "[counting_rule]") {
  const Tally tally = synthetic_table().tally();
  CHECK(tally.published_cells == 2);
  CHECK(tally.within_tolerance == 1);
  REQUIRE(tally.outside.size() == 1);  // only the exact miss is listed
  CHECK(tally.outside[0].rfind("A SSVM: ours 0.650 vs published 0.700 (-0.050)", 0) == 0);
  CHECK(tally.apart_cells == 5);
  CHECK(tally.apart_within == 3);  // B MPG, the token-level row, ELO
  CHECK(tally.apart.at(Standing::substitute) == std::pair{2, 1});
  CHECK(tally.apart.at(Standing::diagnostic) == std::pair{1, 1});
  CHECK(tally.apart.at(Standing::variant) == std::pair{1, 0});
  CHECK(tally.apart.at(Standing::no_learning) == std::pair{1, 1});
  CHECK(tally.apart.count(Standing::stand_in) == 0);
  CHECK(tally.summary() ==
        "1 of 2 exact cells within tolerance; 5 cells apart (3 within: 2 substitute data, 1 no learning, "
        "1 diagnostic, 1 protocol variant)");
  const auto json = tally.to_json();
  CHECK(json["exact_cells"] == 2);
  CHECK(json["apart"]["substitute"] == nlohmann::json::array({2, 1}));
}

TEST_CASE("a row that is not exact shows its standing beside its verdict", "[counting_rule]") {
  const ComparisonTable table = synthetic_table();
  const std::string md = table.markdown();
  CHECK(md.find("| B | MPG | 0.805 | 0.800 | +0.005 | yes (substitute data) |") != std::string::npos);
  CHECK(md.find("| A | MPG | 0.705 | 0.700 | +0.005 | yes |") != std::string::npos);
  CHECK(md.find("| A | MPG (AdaDelta) | 0.600 | 0.700 | -0.100 | **no** (protocol variant) |") != std::string::npos);
  const auto rows = table.rows_json();
  CHECK_FALSE(rows[0].contains("standing"));
  CHECK(rows[2]["standing"] == "substitute");
}

TEST_CASE("claims count under the same rule, and a table on substitute data is relabelled", "[counting_rule]") {
  Claims claims;
  claims.add("holds on the paper's data", true);
  claims.add("fails on the paper's data", false, "margin -1");
  claims.add("holds on other data", true).standing = Standing::substitute;
  claims.add("not run", std::nullopt);
  Tally tally;
  claims.count(tally);
  CHECK(tally.published_cells == 2);
  CHECK(tally.within_tolerance == 1);
  CHECK(tally.outside == std::vector<std::string>{"claim fails on the paper's data: margin -1"});
  CHECK(tally.apart_cells == 1);

  Tally whole = synthetic_table().tally();
  whole.add(tally);
  whole.relabel(Standing::substitute);
  CHECK(whole.published_cells == 0);
  CHECK(whole.outside.empty());
  CHECK(whole.apart_cells == 10);
  CHECK(whole.apart.at(Standing::substitute) == std::pair{2 + 4 + 1, 1 + 2 + 1});
}

TEST_CASE("standing_of: other data first, then a stand-in method, then another protocol", "[counting_rule]") {
  using mpg::harness::standing_of;
  CHECK(standing_of({}) == Standing::exact);
  CHECK(standing_of({.counted_protocol = false}) == Standing::variant);
  CHECK(standing_of({.papers_method = false, .counted_protocol = false}) == Standing::stand_in);
  CHECK(standing_of({.papers_data = false, .papers_method = false, .counted_protocol = false}) ==
        Standing::substitute);
  CHECK(standing_of({.papers_data = false}) == Standing::substitute);
}
