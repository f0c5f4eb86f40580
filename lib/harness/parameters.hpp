// Parameter tables (in the manner of CRFsuite's one-table parameters): every setting of a method
// is declared once, with its type, default, range and help. The spec validator, the spec
// reference of experiments/README.md, the cache keys of `mpg run` and the options of `mpg train`
// and `mpg predict` are all generated from the declaration, so a new parameter is added in one
// place and defaults live only there.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mpg::harness {

class SpecValidator;

struct Parameter {
  enum class Type {
    number,   // a finite real in [low, high] ((low, high] when open_low)
    integer,  // a whole number in [low, high]
    choice,   // one of `choices`
    flag,     // true or false
    grid,     // a non-empty array of numbers in the range: one cell per value
  };
  std::string name;  // spec key; the command-line option is --name with '_' -> '-'
  Type type = Type::number;
  nlohmann::json default_value;  // null = required
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool open_low = false;
  std::vector<std::string> choices;
  std::string help;
  std::vector<std::string> aliases;  // further command-line names (e.g. an older option name)

  bool required() const { return default_value.is_null(); }
  std::string option_name() const;  // "--max-game-iterations"
  std::string default_text() const;  // "1e-6", "10,000", "greedy", "required"
  std::string type_text() const;    // "number", "integer", "one of a | b", "true/false", "list of numbers"
  std::string range_text() const;   // "(0, 1]", "[0, ∞)" or ""
  // Checks one value (a grid's entries one by one); returns "" or what is wrong with it.
  std::string problem(const nlohmann::json& value) const;
};

// Declaration helpers: the name, the default (null for none: the parameter is required), range
// and help.
Parameter number_parameter(std::string name, double default_value, double low, double high, std::string help,
                           bool open_low = false);
Parameter integer_parameter(std::string name, long default_value, long low, long high, std::string help);
Parameter choice_parameter(std::string name, std::string default_value, std::vector<std::string> choices,
                           std::string help);
Parameter flag_parameter(std::string name, bool default_value, std::string help);
// A required grid of numbers in (low, high] (open_low) or [low, high].
Parameter grid_parameter(std::string name, double low, double high, std::string help, bool open_low = true);

class ParameterTable {
 public:
  ParameterTable() = default;
  explicit ParameterTable(std::vector<Parameter> entries);
  // The entries of `first` then those of `second` (names must not repeat).
  static ParameterTable join(const ParameterTable& first, const ParameterTable& second);

  const std::vector<Parameter>& entries() const { return entries_; }
  bool contains(const std::string& name) const;
  // Throws mpg::Error for a name the table does not declare (a programming error).
  const Parameter& at(const std::string& name) const;
  // The grid parameter, or nullptr.
  const Parameter* grid() const;

  // `object` (a spec's method entry) may hold the declared names and `extra_keys`; required
  // parameters must be present and every value must be of its type and in its range. Messages
  // name the spec file and "<where>.<name>".
  void validate(const nlohmann::json& object, const std::string& where, const SpecValidator& validator,
                const std::vector<std::string>& extra_keys = {}) const;
  // Every declared parameter with its given value, or its default; grids stay arrays.
  nlohmann::json resolve(const nlohmann::json& given) const;
  // Markdown rows "| `name` | type | default | range | help |" under a header.
  std::string markdown() const;

 private:
  std::vector<Parameter> entries_;
};

// The resolved parameters of one method instance (defaults filled in), read by name and type.
class ParameterValues {
 public:
  ParameterValues(const ParameterTable& table, const nlohmann::json& given);
  double number(const std::string& name) const;
  long integer(const std::string& name) const;
  std::string choice(const std::string& name) const;
  bool flag(const std::string& name) const;
  std::vector<double> grid(const std::string& name) const;
  // The value of one parameter, with a grid replaced by one of its values (a cell's view).
  ParameterValues with(const std::string& name, const nlohmann::json& value) const;
  const nlohmann::json& all() const { return values_; }
  const ParameterTable& table() const { return *table_; }

 private:
  const nlohmann::json& checked(const std::string& name, Parameter::Type type) const;
  const ParameterTable* table_;
  nlohmann::json values_;
};

}  // namespace mpg::harness
