// The one ours-vs-published table writer of the harness. A family adds one row per published
// number it reproduces (identifying columns, our value, the published value, further columns, and
// what the run recorded that can explain a miss); the table computes every delta and verdict
// against the spec's tolerance, counts the cells within and outside it, and renders the rows as
// Markdown, CSV and JSON the same way for every family.
#pragma once

#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/stats/bootstrap.hpp"

namespace mpg::harness {

// The one counting rule (issue 53): a published cell counts as reproduced only where the paper's
// method runs on the paper's data at the paper's evaluation level (`exact`). Every other row keeps
// its delta and verdict but is counted apart, by why it is not exact:
//   substitute: other data than the paper's (a reduced or stand-in data set);
//   stand_in:   another method in the paper's method's place (IBM1/HMM for GIZA++, a PCFG for the
//               Stanford parser, a factored model for a pairwise one);
//   no_learning: a baseline that learns nothing (a single feature, a fixed rating rule);
//   diagnostic: another evaluation level, decision rule or normalisation, shown to explain a miss;
//   variant:    the paper's method under another training protocol than the counted row's (the
//               authors' optimizers beside the certified optimum).
enum class Standing { exact, substitute, stand_in, no_learning, diagnostic, variant };
// "exact", "substitute", "stand_in", "no_learning", "diagnostic", "variant".
std::string to_string(Standing standing);
// Words for a table: "exact", "substitute data", "stand-in method", "no learning", "diagnostic",
// "protocol variant".
std::string describe(Standing standing);

// Where a compared row comes from. The rule's order where several reasons apply: other data, then
// another method in the paper's method's place, then another training protocol; else exact.
struct RowOrigin {
  bool papers_data = true;       // the registry variant is exactly the paper's data
  bool papers_method = true;     // false: a stand-in (IBM1/HMM for GIZA++, a PCFG, a factored model)
  bool counted_protocol = true;  // false: the paper's method under another protocol (a variant)
};
Standing standing_of(const RowOrigin& origin);

// A compared cell's verdict (issue 57): within the spec's tolerance of the published number;
// outside it but with the published number inside our 95 % bootstrap interval ("within noise":
// the miss is no larger than the noise of the evaluated set); or outside both ("miss"). A row
// without an interval can only be within or a miss.
enum class Verdict { within, within_noise, miss };
// "within", "within_noise", "miss".
std::string to_string(Verdict verdict);

// What a table found against the published numbers: the one-screen summary of `mpg run`.
// published_cells / within_tolerance / within_noise count exact cells only; apart_cells /
// apart_within / apart_noise the others, by standing.
struct Tally {
  int published_cells = 0;
  int within_tolerance = 0;
  int within_noise = 0;              // exact cells outside tolerance with the published value in our interval
  std::vector<std::string> outside;  // "<ids>: ours X vs published Y (+d); <recorded causes>"
  int apart_cells = 0;
  int apart_within = 0;
  int apart_noise = 0;
  std::map<Standing, std::pair<int, int>> apart;  // standing -> (cells, within)
  void add(const Tally& other);
  // Counts one compared cell under the rule; `outside_line` is kept for exact cells that miss.
  void count(Standing standing, bool within, const std::string& outside_line);
  void count(Standing standing, Verdict verdict, const std::string& outside_line);
  // Counts every exact cell as `standing` instead (a whole table on substitute data); the misses'
  // lines are dropped with them.
  void relabel(Standing standing);
  // Exact cells neither within tolerance nor within noise.
  int misses() const { return published_cells - within_tolerance - within_noise; }
  // "n of m exact cells within tolerance[, j within noise]; k cells apart (i within[, h within
  // noise]: 2 substitute data, 1 diagnostic)"; noise counts are shown where there are any.
  std::string summary() const;
  // {"exact_cells", "exact_within", "exact_within_noise", "apart_cells", "apart_within",
  //  "apart_within_noise", "apart": {standing: [cells, within]}}.
  nlohmann::json to_json() const;
};

// A further column: its JSON key, Markdown header, and how its numbers are printed.
struct TableColumn {
  std::string key;
  std::string header;
  int digits = 3;
  double scale = 1.0;  // printed value = scale x value (100: per cent)
};

class ComparisonTable {
 public:
  struct Row {
    std::vector<std::string> ids;
    std::optional<double> ours;
    std::optional<double> published;
    nlohmann::json extra = nlohmann::json::object();  // by TableColumn::key (numbers or text)
    std::vector<std::string> causes;
    Standing standing = Standing::exact;  // how the row counts (Tally)
    // Our value's 95 % bootstrap interval over the units of its evaluated set (issue 57), in the
    // values' own units, and what a unit is ("example", "sentence", "query", "user").
    std::optional<stats::Interval> interval;
    std::string interval_unit;
  };

  // `ids`: the identifying columns' JSON keys and headers; values print with `digits` decimals
  // after multiplying by `scale`; a row is within tolerance when |ours - published| <= tolerance
  // (in the values' own units, not scaled).
  ComparisonTable(std::vector<TableColumn> ids, std::vector<TableColumn> extra, double tolerance, int digits = 3,
                  double scale = 1.0);

  Row& add(std::vector<std::string> ids, std::optional<double> ours, std::optional<double> published);
  const std::vector<Row>& rows() const { return rows_; }

  // Sets a row's interval from the per-unit statistics of its evaluated set (scaled like the
  // values: `scale_values` converts the sample's measure to the row's units, e.g. 100 for points).
  static void set_interval(Row& row, const stats::UnitSample& sample, double scale_values = 1.0);

  // "| ids | ours | [95 % interval |] published | delta | within tolerance | extras |" with the
  // rows (the interval column where any row has one); a row that is not exact shows its standing
  // beside its verdict ("yes (substitute data)").
  std::string markdown() const;
  // The same columns with full precision (empty fields where a value is absent).
  std::string csv() const;
  // One object per row: the id keys (and "ids", their values in column order), "ours", "published", "delta", "within_tolerance", the
  // extras by key, "recorded_causes", for rows that are not exact "standing", and for rows with an
  // interval "interval" [low, high], "interval_unit" and "verdict".
  nlohmann::json rows_json() const;
  Tally tally() const;
  // Whether a row is within tolerance (false without a published or our value).
  bool within(const Row& row) const;
  // The row's verdict (miss without a published or our value).
  Verdict verdict(const Row& row) const;
  bool has_intervals() const;

 private:
  std::string number(double value, int digits, double scale, bool sign = false) const;
  std::string verdict_text(const Row& row) const;
  std::vector<TableColumn> ids_, extra_;
  double tolerance_;
  int digits_;
  double scale_;
  std::vector<Row> rows_;
};

// "x.xxx" with `digits` decimals; sign: "+x.xxx".
std::string fixed(double x, int digits, bool sign = false);

// The median of the values (0 when there are none).
double median(std::vector<double> values);

}  // namespace mpg::harness
