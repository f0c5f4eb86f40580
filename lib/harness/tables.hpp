// The one ours-vs-published table writer of the harness. A family adds one row per published
// number it reproduces (identifying columns, our value, the published value, further columns, and
// what the run recorded that can explain a miss); the table computes every delta and verdict
// against the spec's tolerance, counts the cells within and outside it, and renders the rows as
// Markdown, CSV and JSON the same way for every family.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mpg::harness {

// What a table found against the published numbers: the one-screen summary of `mpg run`.
struct Tally {
  int published_cells = 0;
  int within_tolerance = 0;
  std::vector<std::string> outside;  // "<ids>: ours X vs published Y (+d); <recorded causes>"
  void add(const Tally& other);
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
  };

  // `ids`: the identifying columns' JSON keys and headers; values print with `digits` decimals
  // after multiplying by `scale`; a row is within tolerance when |ours - published| <= tolerance
  // (in the values' own units, not scaled).
  ComparisonTable(std::vector<TableColumn> ids, std::vector<TableColumn> extra, double tolerance, int digits = 3,
                  double scale = 1.0);

  Row& add(std::vector<std::string> ids, std::optional<double> ours, std::optional<double> published);
  const std::vector<Row>& rows() const { return rows_; }

  // "| ids | ours | published | delta | within tolerance | extras |" with the rows.
  std::string markdown() const;
  // The same columns with full precision (empty fields where a value is absent).
  std::string csv() const;
  // One object per row: the id keys, "ours", "published", "delta", "within_tolerance", the
  // extras by key and "recorded_causes".
  nlohmann::json rows_json() const;
  Tally tally() const;
  // Whether a row is within tolerance (false without a published or our value).
  bool within(const Row& row) const;

 private:
  std::string number(double value, int digits, double scale, bool sign = false) const;
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
