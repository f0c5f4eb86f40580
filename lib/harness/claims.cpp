// The spec's published numbers, tolerance and notes, and the papers' claims (lib/harness/claims.hpp).
#include "lib/harness/claims.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "lib/base/error.hpp"
#include "lib/stats/rank_tests.hpp"

namespace mpg::harness {

using nlohmann::json;

json published_of(const json& spec) { return spec.value("published", json::object()); }

double tolerance_of(const json& spec, double fallback) { return spec.value("tolerance", fallback); }

void validate_tolerance(const json& spec, const SpecValidator& v, double high) {
  if (spec.contains("tolerance")) v.number(spec, "tolerance", "", 0.0, high);
}

std::string notes_markdown(const json& spec, const std::vector<std::string>& more) {
  std::string md;
  for (const auto& note : spec.value("notes", json::array())) md += "- " + note.get<std::string>() + "\n";
  for (const auto& note : more) md += "- " + note + "\n";
  return md;
}

std::string published_section(const json& spec, const std::string& table_markdown) {
  return fmt::format("\n## Published numbers ({})\n\n{}\n", spec.value("source", std::string("see the spec")),
                     table_markdown);
}

std::string verdict(const std::optional<bool>& holds) {
  return holds ? (*holds ? "holds" : "**does not hold**") : "not run";
}

std::vector<std::string> protocol_variants(const nlohmann::json& spec, const std::string& method) {
  std::vector<std::string> out;
  const nlohmann::json methods = spec.value("methods", nlohmann::json::object());
  if (!methods.contains(method)) return out;
  const nlohmann::json& base = methods[method];
  auto protocol = [](const nlohmann::json& m) { return m.value("protocol", std::string("certified")); };
  if (protocol(base) != "certified") return out;
  for (const auto& [name, m] : methods.items())
    if (name != method && m.value("kind", std::string()) == base.value("kind", std::string()) &&
        m.value("features", std::string()) == base.value("features", std::string()) && protocol(m) != "certified")
      out.push_back(name);
  return out;
}

Claim& Claims::add(std::string claim, std::optional<bool> holds, std::string evidence, json context) {
  claims_.push_back({std::move(claim), holds, std::move(evidence), std::move(context)});
  return claims_.back();
}

json Claims::to_json() const {
  json out = json::array();
  for (const auto& c : claims_) {
    json o = {{"claim", c.claim}, {"holds", c.holds ? json(*c.holds) : json()}};
    if (!c.evidence.empty()) o["evidence"] = c.evidence;
    for (const auto& [key, value] : c.context.items()) o[key] = value;
    out.push_back(std::move(o));
  }
  return out;
}

std::string Claims::markdown(const std::vector<TableColumn>& columns) const {
  std::string md = "|", rule = "|";
  for (const auto& c : columns) {
    md += fmt::format(" {} |", c.header);
    rule += "---|";
  }
  md += fmt::format(" verdict | evidence |\n{}---|---|\n", rule);
  for (const auto& c : claims_) {
    md += "|";
    for (const auto& column : columns) {
      if (column.key == "claim") {
        md += fmt::format(" {} |", c.claim);
        continue;
      }
      const json value = c.context.value(column.key, json());
      md += fmt::format(" {} |", value.is_string()   ? value.get<std::string>()
                                 : value.is_number() ? fixed(column.scale * value.get<double>(), column.digits)
                                                     : std::string());
    }
    md += fmt::format(" {} | {} |\n", verdict(c.holds), c.evidence);
  }
  return md;
}

std::string Claims::bullets() const {
  std::string md;
  for (const auto& c : claims_)
    md += fmt::format("- {}: **{}**.{}\n", c.claim, c.holds ? (*c.holds ? "holds" : "does not hold") : "not run",
                      c.evidence);
  return md;
}

void Claims::count(Tally& tally) const {
  for (const auto& c : claims_) {
    if (!c.holds) continue;
    tally.count(c.standing, *c.holds, fmt::format("claim {}: {}", c.claim, c.evidence));
  }
}

void OrderingClaim::compare(const std::string& where, const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return;
  const bool better = higher_is_better ? *a > *b : *a < *b;
  (better ? held : failed)
      .push_back(fmt::format("{}: {} vs {} ({})", where, fixed(*a, digits), fixed(*b, digits), fixed(*a - *b, digits, true)));
}

std::optional<bool> OrderingClaim::holds() const {
  if (held.empty() && failed.empty()) return std::nullopt;
  return failed.empty();
}

std::string OrderingClaim::evidence(const std::string& held_word, const std::string& failed_word) const {
  std::string text;
  if (!held.empty()) text += fmt::format(" {}: {}.", held_word, fmt::join(held, "; "));
  if (!failed.empty()) text += fmt::format(" {}: {}.", failed_word, fmt::join(failed, "; "));
  return text;
}

Trend monotone_trend(const std::vector<double>& xs, const std::vector<double>& values, bool decreasing, int digits) {
  if (xs.size() != values.size() || xs.size() < 2)
    throw Error(fmt::format("monotone_trend: needs at least 2 points with one value each (got {} x, {} values)", xs.size(),
                            values.size()));
  std::vector<std::size_t> order(xs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xs[a] < xs[b]; });
  Trend t;
  t.holds = true;
  std::vector<std::string> steps;
  for (std::size_t k = 0; k < order.size(); ++k) {
    steps.push_back(fixed(values[order[k]], digits));
    if (k == 0) continue;
    const double a = values[order[k - 1]], b = values[order[k]];
    if (decreasing ? b < a : b > a) continue;
    t.holds = false;
    t.breaks.push_back(fmt::format("{:g} → {:g}: {}", xs[order[k - 1]], xs[order[k]], fixed(b - a, digits, true)));
  }
  t.tau = stats::kendall_tau_b(xs, values);
  t.evidence = fmt::format("{} (τ {:+.2f})", fmt::join(steps, " → "), t.tau);
  if (!t.breaks.empty()) t.evidence += fmt::format(", breaks at {}", fmt::join(t.breaks, "; "));
  return t;
}

}  // namespace mpg::harness
