// Spec loading: JSON, the "quick" merge patch, --set overrides, then validation of the common keys
// and, through its Family, the family's keys and methods (lib/harness/spec.hpp).
#include "lib/harness/spec.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/learn/training_protocol.hpp"

namespace mpg::harness {

using nlohmann::json;

void SpecValidator::fail(const std::string& where, const std::string& what) const {
  // `where` holds the spec's own labels (methods, datasets): quoted in part if one is huge.
  throw InputError(path_, (where.empty() ? "" : clipped(where, 200) + ": ") + what);
}

void SpecValidator::keys(const json& object, const std::string& where, const std::set<std::string>& allowed,
                         const std::set<std::string>& required) const {
  if (!object.is_object()) fail(where, "expected an object");
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where, "unknown key '" + clipped(key) + "' (allowed: " + list + ")");
    }
  for (const auto& key : required)
    if (!object.contains(key)) fail(where, "missing required key '" + key + "'");
}

const json& SpecValidator::string(const json& object, const std::string& key, const std::string& where) const {
  const json& value = object.at(key);
  if (!value.is_string()) fail(where.empty() ? key : where + "." + key, "expected a string");
  return value;
}

double SpecValidator::number(const json& object, const std::string& key, const std::string& where, double low,
                             double high, bool open_low) const {
  const std::string at = where.empty() ? key : where + "." + key;
  const json& value = object.at(key);
  if (!value.is_number()) fail(at, "expected a number");
  const double x = value.get<double>();
  if (!std::isfinite(x) || x > high || (open_low ? x <= low : x < low))
    fail(at, "value " + clipped(value.dump()) + " is outside " + (open_low ? "(" : "[") + json(low).dump() + ", " +
                 json(high).dump() + "]");
  return x;
}

void SpecValidator::registry_dataset(const json& object, const std::string& where,
                                     const std::set<std::string>& formats) const {
  const json& registry = dataset_registry();
  const std::string name = string(object, "registry", where).get<std::string>();
  if (!registry.contains(name)) fail(where + ".registry", "no dataset '" + clipped(name) + "' in " + registry_path());
  if (!formats.empty() && !formats.count(registry[name].value("format", std::string()))) {
    std::string list;
    for (const auto& f : formats) list += (list.empty() ? "" : ", ") + f;
    fail(where + ".registry", "dataset '" + name + "' has format '" + registry[name].value("format", std::string()) +
                                  "'; this family reads " + list);
  }
  if (!object.contains("variant")) return;
  const std::string variant = string(object, "variant", where).get<std::string>();
  if (!registry[name]["variants"].contains(variant)) {
    std::string list;
    for (const auto& [k, _] : registry[name]["variants"].items()) list += (list.empty() ? "" : ", ") + k;
    fail(where + ".variant", "dataset '" + name + "' has no variant '" + clipped(variant) + "' (known: " + list + ")");
  }
}

void SpecValidator::number_table(const json& object, const std::string& where, int depth) const {
  if (!object.is_object()) fail(where, "expected an object");
  for (const auto& [key, value] : object.items()) {
    if (depth <= 1) {
      if (!value.is_number()) fail(where + "." + key, "expected a number");
    } else {
      number_table(value, where + "." + key, depth - 1);
    }
  }
}

namespace {

// The published numbers of a dataset (or subset) or a method an override removed go with it.
void drop_published(json& spec, const std::string& section, const std::string& name) {
  for (const char* table : {"published", "published_seconds"}) {
    if (!spec.contains(table) || !spec[table].is_object()) continue;
    if (section == "methods") {
      spec[table].erase(name);
    } else {
      for (auto& [method, row] : spec[table].items())
        if (row.is_object()) row.erase(name);
    }
  }
}

// Sets the value at a dotted path (every key but the last must exist); "null" removes the key, as in the
// quick section's merge patch (datasets.X=null, subsets.X=null or methods.X=null also removes
// the published numbers of X, so one dataset or method can be run alone).
void apply_override(json& spec, const std::string& assignment, const std::string& path) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError(path, "override '" + clipped(assignment) + "' is not of the form key.path=value");
  const std::string key = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  if (const auto problem = json_limit_problem(text))
    throw InputError(path, "override '" + clipped(assignment) + "': " + *problem);
  json value = parse_json_or_discarded(text);
  if (value.is_discarded()) value = text;
  json* node = &spec;
  std::size_t start = 0;
  for (;;) {
    // A key may itself hold dots (Table X's subset "conll.300"): the longest key present here
    // that the rest of the path starts with (up to a dot or the end) wins.
    auto dot = key.find('.', start);
    if (node->is_object())
      for (std::size_t end = key.size(); end != std::string::npos && end > start;
           end = end == 0 ? std::string::npos : key.rfind('.', end - 1))
        if (node->contains(key.substr(start, end - start))) {
          dot = end == key.size() ? std::string::npos : end;
          break;
        }
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) throw InputError(path, "override '" + clipped(assignment) + "' has an empty key part");
    if (!node->is_object()) throw InputError(path, "override '" + clipped(assignment) + "': '" + clipped(part) + "' is not inside an object");
    if (dot == std::string::npos) {
      if (!value.is_null()) {
        (*node)[part] = value;
        return;
      }
      if (!node->contains(part))
        throw InputError(path, "override '" + clipped(assignment) + "' removes '" + clipped(key) + "', which the spec does not have");
      node->erase(part);
      const auto first_dot = key.find('.');
      const std::string section = key.substr(0, first_dot);
      const bool top_level_entry = first_dot != std::string::npos && start == first_dot + 1;
      if (top_level_entry && (section == "datasets" || section == "subsets" || section == "methods"))
        drop_published(spec, section, part);
      return;
    }
    if (!node->contains(part)) {
      std::string known;
      for (const auto& [k, v] : node->items()) known += (known.empty() ? "" : ", ") + k;
      // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on "literal" + string&&.
      std::string message = "override '";
      message += clipped(assignment);
      message += "': ";
      if (start == 0) {
        message += "the spec";
      } else {
        message += '\'';
        message += clipped(std::string_view(key).substr(0, start - 1));
        message += '\'';
      }
      message += " has no key '";
      message += clipped(part);
      message += "' (keys: ";
      message += clipped(known, 300);
      message += ')';
      throw InputError(path, message);
    }
    node = &(*node)[part];
    start = dot + 1;
  }
}

}  // namespace

const std::vector<SpecKey>& common_keys() {
  static const std::vector<SpecKey> keys = {
      {"task", false, "the experiment family (default `binary`)"},
      {"name", true, "table name: result files `results/<name>[.quick].{md,csv,json}` and the cache are named after it (letters, digits, `_`, `-`, `.`)"},
      {"title", false, "shown as the table's heading"},
      {"source", false, "where the published numbers come from"},
      {"paper", false, "the paper's short name, as `mpg report` groups and colours tables (default: the start of `source`)"},
      {"notes", false, "strings printed under the table: protocol choices, substitutions, known deviations"},
      {"quick", false, "a JSON merge patch applied with `--quick` (a reduced grid that runs in minutes); validated too"}};
  return keys;
}

namespace {

// Validates a spec: the common keys here, each method against its kind's parameter table, then
// the family's own keys.
void validate_spec(const json& spec, const std::string& path) {
  const SpecValidator v(path);
  if (spec.contains("task") && !spec["task"].is_string()) v.fail("task", "expected a string");
  const std::string task = spec.value("task", std::string("binary"));
  const Family* family = nullptr;
  for (const Family* f : families())
    if (f->name() == task) family = f;
  if (!family) {
    std::string known;
    for (const Family* f : families()) known += (known.empty() ? "" : ", ") + f->name();
    v.fail("task", "unknown experiment family '" + clipped(task) + "' (known: " + known + ")");
  }
  std::set<std::string> allowed, required;
  for (const auto& keys : {common_keys(), family->keys()})
    for (const auto& key : keys) {
      allowed.insert(key.name);
      if (key.required) required.insert(key.name);
    }
  v.keys(spec, "", allowed, required);
  const std::string name = v.string(spec, "name", "").get<std::string>();
  const bool plain = !name.empty() && name.front() != '.' &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                     });
  if (!plain) v.fail("name", "expected a file name of letters, digits, '_', '-' and '.' not starting with '.', got " + excerpt(name));
  for (const char* key : {"title", "source", "paper"})
    if (spec.contains(key)) v.string(spec, key, "");
  if (spec.contains("notes")) {
    if (!spec["notes"].is_array()) v.fail("notes", "expected an array of strings");
    for (const auto& note : spec["notes"])
      if (!note.is_string()) v.fail("notes", "expected an array of strings");
  }
  if (spec.contains("methods")) {
    const json& methods = spec["methods"];
    if (!methods.is_object() || methods.empty()) v.fail("methods", "expected a non-empty object {label: method}");
    for (const auto& [label, m] : methods.items()) {
      const std::string where = "methods." + label;
      if (!m.is_object() || !m.contains("kind")) v.fail(where, "expected an object with a 'kind'");
      const std::string kind = v.string(m, "kind", where).get<std::string>();
      const MethodKind* declared = nullptr;
      for (const auto& k : family->methods())
        if (k.kind == kind) declared = &k;
      if (!declared) {
        std::string known;
        for (const auto& k : family->methods()) known += (known.empty() ? "" : ", ") + k.kind;
        v.fail(where + ".kind", "unknown method kind '" + clipped(kind) + "' (known: " + known + ")");
      }
      // A training protocol (lib/learn/protocol.hpp) given to a kind that runs none.
      if (m.contains("protocol") && !declared->parameters.contains("protocol")) {
        std::string with;
        for (const auto& k : family->methods())
          if (k.parameters.contains("protocol")) with += (with.empty() ? "" : ", ") + k.kind;
        v.fail(where + ".protocol", "method kind '" + kind + "' runs no training protocol (protocol " +
                                        fmt::format("{}", fmt::join(training_protocol_names(), ", ")) +
                                        (with.empty() ? std::string(" is for no kind of this family)")
                                                      : " is a parameter of kind " + with + ")"));
      }
      declared->parameters.validate(m, where, v, {"kind"});
    }
  }
  family->validate(spec, v);
}
}  // namespace

json load_spec(const std::string& path, bool quick, const std::vector<std::string>& overrides) {
  return parse_spec(read_file(path), path, quick, overrides);
}

json parse_spec(const std::string& text, const std::string& path, bool quick, const std::vector<std::string>& overrides) {
  json original = parse_json_within_limits(text, path);
  if (original.is_discarded()) throw InputError(path, "not valid JSON");
  if (!original.is_object()) throw InputError(path, "a spec is a JSON object");
  const bool has_quick = original.contains("quick");
  if (has_quick && !original["quick"].is_object())
    throw InputError(path, "quick: expected an object (a merge patch)");
  // The spec a run uses: the quick patch first (when asked for), then the command-line overrides,
  // so an override always wins over the quick section.
  auto variant = [&](bool with_quick, bool with_overrides) {
    json spec = original;
    if (with_quick && has_quick) spec.merge_patch(original["quick"]);
    if (with_overrides)
      for (const auto& assignment : overrides) apply_override(spec, assignment, path);
    return spec;
  };
  json spec = variant(quick, true);
  validate_spec(spec, path);
  // Both variants must be valid, whichever runs: under --quick the full spec as the file has it
  // (the quick patch may replace a bad value the full run would refuse); on a full run without
  // overrides the quick variant (with overrides it may not hold: an override can keep only a
  // dataset the patch drops).
  if (has_quick && quick) validate_spec(variant(false, false), path);
  if (has_quick && !quick && overrides.empty()) validate_spec(variant(true, false), path + " (with its quick section)");
  return spec;
}

}  // namespace mpg::harness
