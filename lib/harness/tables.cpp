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

std::string to_string(Verdict verdict) {
  return verdict == Verdict::within ? "within" : verdict == Verdict::within_noise ? "within_noise" : "miss";
}
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
  within_noise += other.within_noise;
  outside.insert(outside.end(), other.outside.begin(), other.outside.end());
  apart_cells += other.apart_cells;
  apart_within += other.apart_within;
  apart_noise += other.apart_noise;
  for (const auto& [standing, counts] : other.apart) {
    apart[standing].first += counts.first;
    apart[standing].second += counts.second;
  }
}

void Tally::count(Standing standing, bool within, const std::string& outside_line) {
  count(standing, within ? Verdict::within : Verdict::miss, outside_line);
}

void Tally::count(Standing standing, Verdict verdict, const std::string& outside_line) {
  const bool within = verdict == Verdict::within, noise = verdict == Verdict::within_noise;
  if (standing == Standing::exact) {
    ++published_cells;
    within_tolerance += within;
    within_noise += noise;
    if (!within) outside.push_back(outside_line);
    return;
  }
  ++apart_cells;
  apart_within += within;
  apart_noise += noise;
  auto& counts = apart[standing];
  ++counts.first;
  counts.second += within;
}

void Tally::relabel(Standing standing) {
  if (standing == Standing::exact || published_cells == 0) return;
  apart_cells += published_cells;
  apart_within += within_tolerance;
  apart_noise += within_noise;
  apart[standing].first += published_cells;
  apart[standing].second += within_tolerance;
  published_cells = within_tolerance = within_noise = 0;
  outside.clear();
}

std::string Tally::summary() const {
  std::string text = fmt::format("{} of {} exact cells within tolerance", within_tolerance, published_cells);
  if (within_noise > 0) text += fmt::format(", {} within noise", within_noise);
  if (apart_cells == 0) return text;
  std::vector<std::string> parts;
  for (const auto& [standing, counts] : apart) parts.push_back(fmt::format("{} {}", counts.first, describe(standing)));
  const std::string noise = apart_noise > 0 ? fmt::format(", {} within noise", apart_noise) : "";
  return text + fmt::format("; {} cells apart ({} within{}: {})", apart_cells, apart_within, noise, fmt::join(parts, ", "));
}

json Tally::to_json() const {
  json by_standing = json::object();
  for (const auto& [standing, counts] : apart) by_standing[to_string(standing)] = {counts.first, counts.second};
  return {{"exact_cells", published_cells}, {"exact_within", within_tolerance}, {"exact_within_noise", within_noise},
          {"apart_cells", apart_cells},     {"apart_within", apart_within},     {"apart_within_noise", apart_noise},
          {"apart", by_standing}};
}

ComparisonTable::ComparisonTable(std::vector<TableColumn> ids, std::vector<TableColumn> extra, double tolerance,
                                 int digits, double scale)
    : ids_(std::move(ids)), extra_(std::move(extra)), tolerance_(tolerance), digits_(digits), scale_(scale) {}

ComparisonTable::Row& ComparisonTable::add(std::vector<std::string> ids, std::optional<double> ours,
                                           std::optional<double> published) {
  rows_.push_back({std::move(ids), ours, published, json::object(), {}, Standing::exact, std::nullopt, ""});
  return rows_.back();
}

bool ComparisonTable::within(const Row& row) const {
  // 1e-9 absorbs the decimal representation of published values (e.g. 14.53 - 14.53 != 0).
  return row.ours && row.published && std::abs(*row.ours - *row.published) <= tolerance_ + 1e-9;
}

Verdict ComparisonTable::verdict(const Row& row) const {
  if (within(row)) return Verdict::within;
  if (row.ours && row.published && row.interval && row.interval->contains(*row.published)) return Verdict::within_noise;
  return Verdict::miss;
}

bool ComparisonTable::has_intervals() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.interval.has_value(); });
}

void ComparisonTable::set_interval(Row& row, const stats::UnitSample& sample, double scale_values) {
  const stats::Interval i = stats::bootstrap_interval(sample);
  row.interval = stats::Interval{scale_values * i.low, scale_values * i.high};
  row.interval_unit = sample.unit;
}

std::string ComparisonTable::number(double value, int digits, double scale, bool sign) const {
  return fixed(scale * value, digits, sign);
}

std::string ComparisonTable::verdict_text(const Row& row) const {
  const Verdict v = verdict(row);
  const std::string text = v == Verdict::within ? "yes" : v == Verdict::within_noise ? "within noise" : "**no**";
  return row.standing == Standing::exact ? text : text + " (" + describe(row.standing) + ")";
}

std::string ComparisonTable::markdown() const {
  std::string header = "|", rule = "|";
  for (const auto& c : ids_) {
    header += " " + c.header + " |";
    rule += "---|";
  }
  const bool intervals = has_intervals();
  header += intervals ? " ours | 95 % interval | published | delta | within tolerance |" : " ours | published | delta | within tolerance |";
  rule += intervals ? "---|---|---|---|---|" : "---|---|---|---|";
  for (const auto& c : extra_) {
    header += " " + c.header + " |";
    rule += "---|";
  }
  std::string md = header + "\n" + rule + "\n";
  for (const auto& row : rows_) {
    md += "|";
    for (const auto& id : row.ids) md += " " + id + " |";
    md += fmt::format(" {} |", row.ours ? number(*row.ours, digits_, scale_) : "—");
    if (intervals)
      md += row.interval ? fmt::format(" {} – {} ({}s) |", number(row.interval->low, digits_, scale_),
                                       number(row.interval->high, digits_, scale_), row.interval_unit)
                         : " |";
    md += fmt::format(" {} | {} | {} |", row.published ? number(*row.published, digits_, scale_) : "",
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
  const bool intervals = has_intervals();
  text += "ours,published,delta,within_tolerance";
  if (intervals) text += ",interval_low,interval_high,interval_unit,verdict";
  for (const auto& c : extra_) text += "," + c.key;
  text += "\n";
  auto full = [](double x) { return fmt::format("{:.6f}", x); };
  for (const auto& row : rows_) {
    for (const auto& id : row.ids) text += id + ",";
    text += fmt::format("{},{},{},{}", row.ours ? full(*row.ours) : "", row.published ? full(*row.published) : "",
                        row.ours && row.published ? full(*row.ours - *row.published) : "",
                        row.ours && row.published ? (within(row) ? "true" : "false") : "");
    if (intervals)
      text += fmt::format(",{},{},{},{}", row.interval ? full(row.interval->low) : "",
                          row.interval ? full(row.interval->high) : "", row.interval_unit,
                          row.ours && row.published ? to_string(verdict(row)) : "");
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
    out["ids"] = row.ids;  // the identifying columns in the table's order (mpg report names cells by them)
    if (row.ours) out["ours"] = *row.ours;
    if (row.published) out["published"] = *row.published;
    if (row.ours && row.published) {
      out["delta"] = *row.ours - *row.published;
      out["within_tolerance"] = within(row);
    }
    for (const auto& [key, value] : row.extra.items()) out[key] = value;
    out["recorded_causes"] = row.causes;
    if (row.standing != Standing::exact) out["standing"] = to_string(row.standing);
    if (row.interval) {
      out["interval"] = {row.interval->low, row.interval->high};
      out["interval_unit"] = row.interval_unit;
      if (row.ours && row.published) out["verdict"] = to_string(verdict(row));
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

Tally ComparisonTable::tally() const {
  Tally tally;
  for (const auto& row : rows_) {
    if (!row.published || !row.ours) continue;
    const Verdict v = verdict(row);
    if (v == Verdict::within || row.standing != Standing::exact) {
      tally.count(row.standing, v, "");
      continue;
    }
    const std::string why = row.causes.empty() ? "no cap or data substitute recorded (see the table's notes)"
                                               : fmt::format("{}", fmt::join(row.causes, "; "));
    const std::string noise =
        row.interval ? fmt::format(" [95 % interval {} – {}{}]", number(row.interval->low, digits_, scale_),
                                   number(row.interval->high, digits_, scale_),
                                   v == Verdict::within_noise ? ": within noise" : "")
                     : "";
    tally.count(Standing::exact, v,
                fmt::format("{}: ours {} vs published {} ({}){}; {}", fmt::join(row.ids, " "),
                            number(*row.ours, digits_, scale_), number(*row.published, digits_, scale_),
                            number(*row.ours - *row.published, digits_, scale_, true), noise, why));
  }
  return tally;
}

}  // namespace mpg::harness
