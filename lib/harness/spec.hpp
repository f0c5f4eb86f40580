// Experiment specs: a JSON file per paper table (experiments/README.md). Loading applies the
// spec's "quick" merge patch (with --quick) and the command-line overrides, then validates the
// common keys here and the family's keys through its Family (lib/harness/family.hpp); every
// message names the spec file and the dotted key.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mpg::harness {

// Validation messages "<spec file>: <dotted key>: <what>" (thrown as mpg::InputError).
class SpecValidator {
 public:
  explicit SpecValidator(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const;
  // `object` must be an object whose keys are all in `allowed` and include `required`.
  void keys(const nlohmann::json& object, const std::string& where, const std::set<std::string>& allowed,
            const std::set<std::string>& required = {}) const;
  const nlohmann::json& string(const nlohmann::json& object, const std::string& key, const std::string& where) const;
  // A finite number in [low, high] ((low, high] when open_low).
  double number(const nlohmann::json& object, const std::string& key, const std::string& where, double low,
                double high, bool open_low = false) const;
  // `object["registry"]` names a dataset of the registry (and `object["variant"]`, if given, one
  // of its variants) of one of `formats` (any format when empty).
  void registry_dataset(const nlohmann::json& object, const std::string& where,
                        const std::set<std::string>& formats = {}) const;
  // A non-empty object of `{name: value}` whose values are numbers (published numbers, ...).
  void number_table(const nlohmann::json& object, const std::string& where, int depth) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Reads, overrides and validates a spec. `overrides` are "dotted.path=value" strings applied after
// the "quick" section (when quick is set); a value is parsed as JSON if it can be, else taken as a
// string; "null" removes a key (and a removed dataset, subset or method takes its published numbers
// along). Throws mpg::InputError naming the file and the key.
nlohmann::json load_spec(const std::string& path, bool quick, const std::vector<std::string>& overrides = {});
// The same from the spec's text already in memory (`path` only names it in messages).
nlohmann::json parse_spec(const std::string& text, const std::string& path, bool quick,
                          const std::vector<std::string>& overrides = {});

}  // namespace mpg::harness
