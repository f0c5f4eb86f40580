// What every family's tables share beside ComparisonTable (lib/harness/tables.hpp): the spec's
// published numbers, tolerance and notes, and the papers' claims checked on our numbers. A claim
// has one JSON shape and one Markdown rendering for every family; a claim with a verdict counts in
// the run's Tally like a published number (holds = within tolerance).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/harness/spec.hpp"
#include "lib/harness/tables.hpp"

namespace mpg::harness {

// ---- The spec's published numbers, tolerance and notes --------------------------------------------

// The spec's "published" object ({} when absent) and "tolerance" (`fallback` when absent).
nlohmann::json published_of(const nlohmann::json& spec);
double tolerance_of(const nlohmann::json& spec, double fallback);
// Checks the spec's "tolerance", when present: a number in [0, high].
void validate_tolerance(const nlohmann::json& spec, const SpecValidator& v, double high);
// "- <note>\n" for each of the spec's "notes", then for each of `more`.
std::string notes_markdown(const nlohmann::json& spec, const std::vector<std::string>& more = {});
// "\n## Published numbers (<source>)\n\n<table>\n" (<source>: the spec's "source").
std::string published_section(const nlohmann::json& spec, const std::string& table_markdown);

// The spec's methods that run `method` under another training protocol (issue 53): same "kind" and
// "features", a "protocol" other than "certified"; in the spec's key order. Their rows stand beside
// the method's against the same published number, counted apart (Standing::variant).
std::vector<std::string> protocol_variants(const nlohmann::json& spec, const std::string& method);

// ---- Claims ---------------------------------------------------------------------------------------

struct Claim {
  std::string claim;          // its text (or id)
  std::optional<bool> holds;  // nullopt: not run (no numbers to decide on)
  std::string evidence;       // the numbers behind the verdict
  // Identifying fields (figure, data set, table, row, ...) and numbers (margin, ...): JSON keys of
  // the claim's object, and Markdown columns by Claims::markdown's `columns`.
  nlohmann::json context = nlohmann::json::object();
  Standing standing = Standing::exact;  // how the claim counts (Tally): on substitute data, ...
};

class Claims {
 public:
  Claim& add(std::string claim, std::optional<bool> holds, std::string evidence = "",
             nlohmann::json context = nlohmann::json::object());
  const std::vector<Claim>& list() const { return claims_; }

  // One object per claim: "claim", "holds" (true, false or null), "evidence" (when any) and the
  // context's keys.
  nlohmann::json to_json() const;
  // "| <columns> | claim | verdict | evidence |" with a row per claim (columns read the context;
  // a column whose key is "claim" places the claim's text there instead).
  std::string markdown(const std::vector<TableColumn>& columns = {{"claim", "claim"}}) const;
  // A bullet per claim: "- <claim>: **<verdict>**.<evidence>\n".
  std::string bullets() const;
  // Each claim with a verdict is a published cell, within tolerance when it holds; outside:
  // "claim <claim>: <evidence>" (or `outside(claim)` when given).
  void count(Tally& tally) const;

 private:
  std::vector<Claim> claims_;
};

// "holds", "**does not hold**" or "not run".
std::string verdict(const std::optional<bool>& holds);

// A claim that one method scores better than others on several (measure, set) cells: each
// compared cell is "<where>: a vs b (a − b)" in `held` or `failed`; holds when every compared cell
// held (and one was compared). Markdown: " <Held word>: ...; ... <Failed word>: ...".
struct OrderingClaim {
  bool higher_is_better = true;
  int digits = 2;
  std::vector<std::string> held, failed;
  // Compares a with b when both are known.
  void compare(const std::string& where, const std::optional<double>& a, const std::optional<double>& b);
  std::optional<bool> holds() const;
  // " <held_word>: x; y. <failed_word>: z." (the parts that are not empty)
  std::string evidence(const std::string& held_word, const std::string& failed_word) const;
};

// A monotone trend over every x (issue 55: "error decreases as n increases" is not first vs last):
// it holds when the value moves the claimed way at every consecutive pair of x (sorted), strictly.
// Kendall's tau-b between x and the values (lib/stats/rank_tests) is reported beside the rule; it
// does not decide. `evidence` is "v1 → v2 → ... (τ t)" with the steps that break the trend.
struct Trend {
  bool holds = false;
  double tau = 0;
  std::vector<std::string> breaks;  // "x_a → x_b: +d"
  std::string evidence;
};
// Throws mpg::Error for fewer than 2 points or sizes that differ.
Trend monotone_trend(const std::vector<double>& xs, const std::vector<double>& values, bool decreasing, int digits = 1);

}  // namespace mpg::harness
