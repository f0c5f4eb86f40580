// Per-unit statistics in cached cell results and in tables (issue 57): what a table's bootstrap
// interval is computed from (lib/stats/bootstrap.hpp), so that no model is trained again.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/stats/bootstrap.hpp"

namespace mpg::harness {

// {"unit", "measure", "blocks", "rows", "counts"}, rows as given: one per unit in the units' order
// where a paired comparison needs them (parsing, alignment), or sample.canonical() to store fewer.
nlohmann::json unit_sample_json(const stats::UnitSample& sample);
// Reads one back; throws mpg::Error naming `where` when it is absent or malformed (a cache entry
// written before per-unit statistics existed has none: its cell must be recomputed).
stats::UnitSample unit_sample_from_json(const nlohmann::json& value, const std::string& where);

// A cell result as a table's JSON keeps it: every per-unit sample (the keys "units",
// "token_units" and "entity_units", at any depth) removed. They feed the intervals; the cache
// keeps them (with them Table X's full JSON is 10 MB).
nlohmann::json without_unit_samples(nlohmann::json result);

// A 0/1 labelling as a compact string ("0110…"), as cached cell results keep predictions, and back.
std::string labelling_text(const std::vector<int>& labels);
std::vector<int> labelling_of(const nlohmann::json& text, std::size_t n, const std::string& where);

// Per-example rows of a binary task, appended block by block (one block per one-vs-rest task):
//   f1:        (tp, fp, fn) of each example;
//   precision: (hit, slot) of each example, P@k = Σ hit / Σ slot: the slots are the k places the
//              method ranks (its predicted set, or its top k where it predicts fewer than k), held
//              fixed while the examples are resampled.
void append_binary_block(std::vector<std::vector<double>>& rows, stats::UnitMeasure measure,
                         const std::vector<int>& predicted, const std::vector<int>& gold, const std::vector<int>& slots);

// A paired bootstrap of two methods' samples over the same units, as a claim's evidence: the JSON
// {"difference", "interval", "p_value", "significant"} in the values' units (× scale) and the text
// "+1.20 [-0.31, +2.60] not significant"; nothing where they did not score the same units.
struct PairedEvidence {
  nlohmann::json json;
  std::string text;
};
std::optional<PairedEvidence> paired_evidence(const stats::UnitSample& a, const stats::UnitSample& b, double scale);

}  // namespace mpg::harness
