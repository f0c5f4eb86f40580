// Spec loading: JSON, the "quick" merge patch, --set overrides, then validation with messages
// that name the file and the key (experiments/README.md documents the format).
#include <cmath>
#include <set>

#include "lib/base/error.hpp"
#include "lib/harness/common.hpp"
#include "lib/base/io.hpp"

namespace mpg::harness {

using nlohmann::json;

namespace {

const std::set<std::string> kMethodKinds = {"mpg", "logistic_regression", "ssvm", "ssvm_top_k"};

}  // namespace

void validate_binary_spec(const json& spec, const std::string& path) {
  const SpecValidator v(path);
  v.keys(spec, "",
         {"task", "name", "title", "source", "metric", "k_fraction", "datasets", "protocol", "methods",
          "published", "published_seconds", "tolerance", "quick", "notes"},
         {"name", "metric", "datasets", "protocol", "methods"});
  v.string(spec, "name", "");
  const std::string metric = v.string(spec, "metric", "").get<std::string>();
  if (metric != "f1" && metric != "precision_at_k")
    v.fail("metric", "expected \"f1\" or \"precision_at_k\", got \"" + metric + "\"");
  if (spec.contains("k_fraction")) v.number(spec, "k_fraction", "", 0.0, 1.0, true);
  if (spec.contains("tolerance")) v.number(spec, "tolerance", "", 0.0, 1.0);
  v.descriptive_keys(spec);

  const json& datasets = spec["datasets"];
  if (!datasets.is_object() || datasets.empty()) v.fail("datasets", "expected a non-empty object");
  for (const auto& [label, d] : datasets.items()) {
    const std::string where = "datasets." + label;
    v.keys(d, where, {"registry", "variant", "positive_label", "one_vs_rest", "classes"},
           {"registry"});
    v.registry_dataset(d, where);
    const bool one_vs_rest = d.contains("one_vs_rest") && d["one_vs_rest"].is_boolean() &&
                             d["one_vs_rest"].get<bool>();
    if (d.contains("one_vs_rest") && !d["one_vs_rest"].is_boolean())
      v.fail(where + ".one_vs_rest", "expected true or false");
    if (one_vs_rest == d.contains("positive_label"))
      v.fail(where, "give exactly one of positive_label or one_vs_rest: true");
    if (d.contains("positive_label") && !d["positive_label"].is_number())
      v.fail(where + ".positive_label", "expected a number");
    if (d.contains("classes")) {
      if (!one_vs_rest) v.fail(where + ".classes", "only with one_vs_rest: true");
      if (!d["classes"].is_array() || d["classes"].empty())
        v.fail(where + ".classes", "expected a non-empty array of labels");
      for (const auto& c : d["classes"])
        if (!c.is_number()) v.fail(where + ".classes", "expected numbers, got " + c.dump());
    }
  }

  const json& protocol = spec["protocol"];
  v.keys(protocol, "protocol", {"validation_fraction", "split_seed", "bias"},
         {"validation_fraction", "split_seed"});
  v.number(protocol, "validation_fraction", "protocol", 0.0, 1.0, true);
  if (protocol["validation_fraction"].get<double>() >= 1.0)
    v.fail("protocol.validation_fraction", "must be < 1");
  if (!protocol["split_seed"].is_number_unsigned())
    v.fail("protocol.split_seed", "expected a non-negative integer");
  if (protocol.contains("bias")) v.number(protocol, "bias", "protocol", 0.0, 1e6);

  const json& methods = spec["methods"];
  if (!methods.is_object() || methods.empty()) v.fail("methods", "expected a non-empty object");
  for (const auto& [label, m] : methods.items()) {
    const std::string where = "methods." + label;
    v.keys(m, where,
           {"kind", "lambda", "C", "tolerance", "max_seconds", "max_game_solves", "max_game_iterations",
            "game_solver", "max_game_rounds"},
           {"kind"});
    const std::string kind = v.string(m, "kind", where).get<std::string>();
    if (!kMethodKinds.count(kind)) v.fail(where + ".kind", "unknown method kind '" + kind + "'");
    if (kind == "mpg" || kind == "logistic_regression") {
      if (!m.contains("lambda")) v.fail(where, "method kind '" + kind + "' needs a lambda grid");
      v.positive_grid(m, "lambda", where);
    } else {
      if (!m.contains("C")) v.fail(where, "method kind '" + kind + "' needs a C grid");
      v.positive_grid(m, "C", where);
    }
    if (m.contains("tolerance")) v.number(m, "tolerance", where, 0.0, 1.0, true);
    if (m.contains("max_seconds")) v.number(m, "max_seconds", where, 0.0, 1e9);
    for (const char* cap : {"max_game_solves", "max_game_iterations", "max_game_rounds"})
      if (m.contains(cap)) v.number(m, cap, where, 0.0, 1e9);
    if (m.contains("game_solver")) {
      const std::string solver = v.string(m, "game_solver", where).get<std::string>();
      if (solver != "double_oracle" && solver != "marginals")
        v.fail(where + ".game_solver", "expected double_oracle or marginals, got '" + solver + "'");
      if (solver == "marginals" && (kind != "mpg" || metric != "f1"))
        v.fail(where + ".game_solver", "marginals solves the games of mpg methods in an F1 table only");
    }
  }

  for (const char* table : {"published", "published_seconds"}) {
    if (!spec.contains(table)) continue;
    const json& published = spec[table];
    if (!published.is_object()) v.fail(table, "expected an object {method: {dataset: value}}");
    for (const auto& [method, row] : published.items()) {
      const std::string where = std::string(table) + "." + method;
      if (!methods.contains(method)) v.fail(where, "no method '" + method + "' in methods");
      if (!row.is_object()) v.fail(where, "expected an object {dataset: value}");
      for (const auto& [dataset, value] : row.items()) {
        if (!datasets.contains(dataset)) v.fail(where + "." + dataset, "no such dataset in datasets");
        if (!value.is_number()) v.fail(where + "." + dataset, "expected a number");
      }
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
    throw InputError(path, "override '" + assignment + "' is not of the form key.path=value");
  const std::string key = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
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
    if (part.empty()) throw InputError(path, "override '" + assignment + "' has an empty key part");
    if (!node->is_object()) throw InputError(path, "override '" + assignment + "': '" + part + "' is not inside an object");
    if (dot == std::string::npos) {
      if (!value.is_null()) {
        (*node)[part] = value;
        return;
      }
      if (!node->contains(part))
        throw InputError(path, "override '" + assignment + "' removes '" + key + "', which the spec does not have");
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
      message += assignment;
      message += "': ";
      if (start == 0) {
        message += "the spec";
      } else {
        message += '\'';
        message.append(key, 0, start - 1);
        message += '\'';
      }
      message += " has no key '";
      message += part;
      message += "' (keys: ";
      message += known;
      message += ')';
      throw InputError(path, message);
    }
    node = &(*node)[part];
    start = dot + 1;
  }
}

// Validates a spec by its experiment type ("task", default "binary").
void validate(const json& spec, const std::string& path) {
  const std::string task = spec.contains("task") && spec["task"].is_string() ? spec["task"].get<std::string>()
                                                                             : "binary";
  if (spec.contains("task") && !spec["task"].is_string()) throw InputError(path, "task: expected a string");
  if (task == "binary") return validate_binary_spec(spec, path);
  if (task == "sequence_labeling") return validate_sequence_labeling_spec(spec, path);
  if (task == "ranking") return validate_ranking_spec(spec, path);
  throw InputError(path, "task: unknown experiment type '" + task + "' (known: binary, sequence_labeling, ranking)");
}

}  // namespace

json load_spec(const std::string& path, bool quick, const std::vector<std::string>& overrides) {
  json original = json::parse(read_file(path), nullptr, /*allow_exceptions=*/false);
  if (original.is_discarded()) throw InputError(path, "not valid JSON");
  if (!original.is_object()) throw InputError(path, "a spec is a JSON object");
  const bool has_quick = original.contains("quick");
  if (has_quick && !original["quick"].is_object())
    throw InputError(path, "quick: expected an object (a merge patch)");
  // The spec a run uses: the quick patch first (when asked for), then the command-line overrides,
  // so an override always wins over the quick section.
  auto variant = [&](bool with_quick) {
    json spec = original;
    if (with_quick && has_quick) spec.merge_patch(original["quick"]);
    for (const auto& assignment : overrides) apply_override(spec, assignment, path);
    return spec;
  };
  json spec = variant(quick);
  validate(spec, path);
  // A spec's quick section must be valid too (checked on the plain spec: with overrides, a run
  // without --quick does not depend on it, and e.g. removing a dataset the patch refines is fine).
  if (!quick && has_quick && overrides.empty()) validate(variant(true), path + " (with its quick section)");
  return spec;
}

}  // namespace mpg::harness
