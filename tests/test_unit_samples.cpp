// Per-unit statistics in cell results (lib/harness/unit_samples.*): what a table's JSON keeps.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "lib/harness/unit_samples.hpp"

using nlohmann::json;

TEST_CASE("A table keeps a cell's scores without its per-unit samples, at any depth", "[unit_samples]") {
  // The shapes of the parsing and alignment parts ("units" beside the scores) and of the
  // sequence-labeling results (per set and class, "token_units" and "entity_units").
  const json cell = {
      {"testa", {{"f1", 0.5}, {"units", {{"unit", "sentences"}, {"rows", {{1, 2}}}}}}},
      {"validation", {{"PER", {{"token_f1", 0.7}, {"token_units", json::array()}, {"entity_units", json::object()}}}}},
      {"grid", json::array({{{"units", 3}, {"lambda", 1}}})},
      {"unit", "kept"}};
  const json expected = {{"testa", {{"f1", 0.5}}},
                         {"validation", {{"PER", {{"token_f1", 0.7}}}}},
                         {"grid", json::array({{{"lambda", 1}}})},
                         {"unit", "kept"}};
  CHECK(mpg::harness::without_unit_samples(cell) == expected);
  CHECK(mpg::harness::without_unit_samples(json(3.5)) == json(3.5));
}
