// The ours-vs-published table writer (lib/harness/tables.hpp).
#include "lib/harness/tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace mpg::harness {

using nlohmann::json;

std::string fixed(double x, int digits, bool sign) {
  return sign ? fmt::format("{:+.{}f}", x, digits) : fmt::format("{:.{}f}", x, digits);
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

namespace {

constexpr std::pair<Standing, const char*> kStandingNames[] = {
    {Standing::exact, "exact"},           {Standing::substitute, "substitute"}, {Standing::stand_in, "stand_in"},
    {Standing::no_learning, "no_learning"}, {Standing::diagnostic, "diagnostic"}, {Standing::variant, "variant"}};
constexpr std::pair<Standing, const char*> kStandingWords[] = {
    {Standing::exact, "exact"},           {Standing::substitute, "substitute data"},
    {Standing::stand_in, "stand-in method"}, {Standing::no_learning, "no learning"},
    {Standing::diagnostic, "diagnostic"}, {Standing::variant, "protocol variant"}};

template <std::size_t N>
const char* lookup(Standing standing, const std::pair<Standing, const char*> (&table)[N]) {
  for (const auto& [value, name] : table)
    if (value == standing) return name;
  return "unknown";
}

}  // namespace

std::string to_string(Standing standing) { return lookup(standing, kStandingNames); }
std::string describe(Standing standing) { return lookup(standing, kStandingWords); }

Standing standing_of(const RowOrigin& origin) {
  if (!origin.papers_data) return Standing::substitute;
  if (!origin.papers_method) return Standing::stand_in;
  if (!origin.counted_protocol) return Standing::variant;
  return Standing::exact;
}

void Tally::add(const Tally& other) {
  published_cells += other.published_cells;
  within_tolerance += other.within_tolerance;
  outside.insert(outside.end(), other.outside.begin(), other.outside.end());
  apart_cells += other.apart_cells;
  apart_within += other.apart_within;
  for (const auto& [standing, counts] : other.apart) {
    apart[standing].first += counts.first;
    apart[standing].second += counts.second;
  }
}

void Tally::count(Standing standing, bool within, const std::string& outside_line) {
  if (standing == Standing::exact) {
    ++published_cells;
    if (within)
      ++within_tolerance;
    else
      outside.push_back(outside_line);
    return;
  }
  ++apart_cells;
  apart_within += within;
  auto& counts = apart[standing];
  ++counts.first;
  counts.second += within;
}

void Tally::relabel(Standing standing) {
  if (standing == Standing::exact || published_cells == 0) return;
  apart_cells += published_cells;
  apart_within += within_tolerance;
  apart[standing].first += published_cells;
  apart[standing].second += within_tolerance;
  published_cells = within_tolerance = 0;
  outside.clear();
}

std::string Tally::summary() const {
  std::string text = fmt::format("{} of {} exact cells within tolerance", within_tolerance, published_cells);
  if (apart_cells == 0) return text;
  std::vector<std::string> parts;
  for (const auto& [standing, counts] : apart) parts.push_back(fmt::format("{} {}", counts.first, describe(standing)));
  return text + fmt::format("; {} cells apart ({} within: {})", apart_cells, apart_within, fmt::join(parts, ", "));
}

json Tally::to_json() const {
  json by_standing = json::object();
  for (const auto& [standing, counts] : apart) by_standing[to_string(standing)] = {counts.first, counts.second};
  return {{"exact_cells", published_cells},
          {"exact_within", within_tolerance},
          {"apart_cells", apart_cells},
          {"apart_within", apart_within},
          {"apart", by_standing}};
}

ComparisonTable::ComparisonTable(std::vector<TableColumn> ids, std::vector<TableColumn> extra, double tolerance,
                                 int digits, double scale)
    : ids_(std::move(ids)), extra_(std::move(extra)), tolerance_(tolerance), digits_(digits), scale_(scale) {}

ComparisonTable::Row& ComparisonTable::add(std::vector<std::string> ids, std::optional<double> ours,
                                           std::optional<double> published) {
  rows_.push_back({std::move(ids), ours, published, json::object(), {}, Standing::exact});
  return rows_.back();
}

bool ComparisonTable::within(const Row& row) const {
  // 1e-9 absorbs the decimal representation of published values (e.g. 14.53 - 14.53 != 0).
  return row.ours && row.published && std::abs(*row.ours - *row.published) <= tolerance_ + 1e-9;
}

std::string ComparisonTable::number(double value, int digits, double scale, bool sign) const {
  return fixed(scale * value, digits, sign);
}

std::string ComparisonTable::verdict_text(const Row& row) const {
  const std::string verdict = within(row) ? "yes" : "**no**";
  return row.standing == Standing::exact ? verdict : verdict + " (" + describe(row.standing) + ")";
}

std::string ComparisonTable::markdown() const {
  std::string header = "|", rule = "|";
  for (const auto& c : ids_) {
    header += " " + c.header + " |";
    rule += "---|";
  }
  header += " ours | published | delta | within tolerance |";
  rule += "---|---|---|---|";
  for (const auto& c : extra_) {
    header += " " + c.header + " |";
    rule += "---|";
  }
  std::string md = header + "\n" + rule + "\n";
  for (const auto& row : rows_) {
    md += "|";
    for (const auto& id : row.ids) md += " " + id + " |";
    md += fmt::format(" {} | {} | {} | {} |", row.ours ? number(*row.ours, digits_, scale_) : "—",
                      row.published ? number(*row.published, digits_, scale_) : "",
                      row.ours && row.published ? number(*row.ours - *row.published, digits_, scale_, true) : "",
                      row.ours && row.published ? verdict_text(row) : "");
    for (const auto& c : extra_) {
      const json value = row.extra.value(c.key, json());
      md += fmt::format(" {} |", value.is_number() ? number(value.get<double>(), c.digits, c.scale)
                                 : value.is_string() ? value.get<std::string>()
                                                     : std::string());
    }
    md += "\n";
  }
  return md;
}

std::string ComparisonTable::csv() const {
  std::string text;
  for (const auto& c : ids_) text += c.key + ",";
  text += "ours,published,delta,within_tolerance";
  for (const auto& c : extra_) text += "," + c.key;
  text += "\n";
  auto full = [](double x) { return fmt::format("{:.6f}", x); };
  for (const auto& row : rows_) {
    for (const auto& id : row.ids) text += id + ",";
    text += fmt::format("{},{},{},{}", row.ours ? full(*row.ours) : "", row.published ? full(*row.published) : "",
                        row.ours && row.published ? full(*row.ours - *row.published) : "",
                        row.ours && row.published ? (within(row) ? "true" : "false") : "");
    for (const auto& c : extra_) {
      const json value = row.extra.value(c.key, json());
      text += fmt::format(",{}", value.is_number() ? full(value.get<double>())
                                 : value.is_string() ? value.get<std::string>()
                                                     : std::string());
    }
    text += "\n";
  }
  return text;
}

json ComparisonTable::rows_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : rows_) {
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t i = 0; i < ids_.size(); ++i) out[ids_[i].key] = row.ids[i];
    if (row.ours) out["ours"] = *row.ours;
    if (row.published) out["published"] = *row.published;
    if (row.ours && row.published) {
      out["delta"] = *row.ours - *row.published;
      out["within_tolerance"] = within(row);
    }
    for (const auto& [key, value] : row.extra.items()) out[key] = value;
    out["recorded_causes"] = row.causes;
    if (row.standing != Standing::exact) out["standing"] = to_string(row.standing);
    rows.push_back(std::move(out));
  }
  return rows;
}

Tally ComparisonTable::tally() const {
  Tally tally;
  for (const auto& row : rows_) {
    if (!row.published || !row.ours) continue;
    if (within(row) || row.standing != Standing::exact) {
      tally.count(row.standing, within(row), "");
      continue;
    }
    const std::string why = row.causes.empty() ? "no cap or data substitute recorded (see the table's notes)"
                                               : fmt::format("{}", fmt::join(row.causes, "; "));
    tally.count(Standing::exact, false,
                fmt::format("{}: ours {} vs published {} ({}); {}", fmt::join(row.ids, " "),
                            number(*row.ours, digits_, scale_), number(*row.published, digits_, scale_),
                            number(*row.ours - *row.published, digits_, scale_, true), why));
  }
  return tally;
}

}  // namespace mpg::harness
