// Per-unit statistics in cached results (lib/harness/unit_samples.hpp).
#include "lib/harness/unit_samples.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "lib/base/error.hpp"

namespace mpg::harness {

using nlohmann::json;

json unit_sample_json(const stats::UnitSample& sample) {
  const stats::UnitSample& s = sample;
  return {{"unit", s.unit}, {"measure", to_string(s.measure)}, {"blocks", s.blocks}, {"rows", s.rows}, {"counts", s.counts}};
}

stats::UnitSample unit_sample_from_json(const json& value, const std::string& where) {
  if (!value.is_object() || !value.contains("rows"))
    throw Error(where + ": no per-unit statistics (a result cached before intervals existed: rerun without its cache entry)");
  try {
    stats::UnitSample s;
    s.unit = value.at("unit").get<std::string>();
    s.measure = stats::parse_unit_measure(value.at("measure").get<std::string>());
    s.blocks = value.value("blocks", 1);
    s.rows = value.at("rows").get<std::vector<std::vector<double>>>();
    s.counts = value.at("counts").get<std::vector<long>>();
    s.check();
    return s;
  } catch (const json::exception& e) {
    throw Error(where + ": malformed per-unit statistics (" + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    throw Error(where + ": " + e.what());
  }
}

json without_unit_samples(json result) {
  if (result.is_object()) {
    for (const char* key : {"units", "token_units", "entity_units"}) result.erase(key);
    for (auto& [name, child] : result.items()) child = without_unit_samples(std::move(child));
  } else if (result.is_array()) {
    for (auto& child : result) child = without_unit_samples(std::move(child));
  }
  return result;
}

std::string labelling_text(const std::vector<int>& labels) {
  std::string text(labels.size(), '0');
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i]) text[i] = '1';
  return text;
}

std::vector<int> labelling_of(const json& text, std::size_t n, const std::string& where) {
  if (!text.is_string() || text.get_ref<const std::string&>().size() != n)
    throw Error(where + fmt::format(": no labelling of the {} test examples (a result cached before intervals existed: "
                                    "rerun without its cache entry)",
                                    n));
  const std::string& s = text.get_ref<const std::string&>();
  std::vector<int> labels(n);
  for (std::size_t i = 0; i < n; ++i) labels[i] = s[i] == '1';
  return labels;
}

void append_binary_block(std::vector<std::vector<double>>& rows, stats::UnitMeasure measure,
                         const std::vector<int>& predicted, const std::vector<int>& gold, const std::vector<int>& slots) {
  if (rows.empty()) rows.resize(gold.size());
  if (rows.size() != gold.size() || predicted.size() != gold.size() || slots.size() != gold.size())
    throw std::invalid_argument("append_binary_block: labellings of different lengths");
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const double p = predicted[i], g = gold[i];
    if (measure == stats::UnitMeasure::f1)
      rows[i].insert(rows[i].end(), {p * g, p * (1 - g), (1 - p) * g});
    else
      rows[i].insert(rows[i].end(), {p * g, static_cast<double>(slots[i])});
  }
}

std::optional<PairedEvidence> paired_evidence(const stats::UnitSample& a, const stats::UnitSample& b, double scale) {
  if (a.rows.size() != b.rows.size() || a.counts != b.counts) return std::nullopt;  // e.g. evalb skipping others
  const stats::PairedComparison d = stats::paired_bootstrap(a, b);
  PairedEvidence e;
  e.json = {{"difference", scale * d.difference},
            {"interval", {scale * d.interval.low, scale * d.interval.high}},
            {"p_value", d.p_value},
            {"significant", d.significant()}};
  e.text = fmt::format("{:+.2f} [{:+.2f}, {:+.2f}] {}", scale * d.difference, scale * d.interval.low,
                       scale * d.interval.high, d.significant() ? "significant" : "not significant");
  return e;
}

}  // namespace mpg::harness
