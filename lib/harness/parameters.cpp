// Parameter tables (lib/harness/parameters.hpp).
#include "lib/harness/parameters.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "lib/base/error.hpp"
#include "lib/harness/spec.hpp"

namespace mpg::harness {

using nlohmann::json;

namespace {

// A number as a reader expects it in a table: 1e-06 -> 1e-6, 10000 -> 10,000.
std::string number_text(double x) {
  if (std::isinf(x)) return x > 0 ? "∞" : "−∞";
  if (std::abs(x) >= 1e6) {  // 1e+09 -> 1e9
    std::string text = fmt::format("{:.0e}", x);
    const auto e = text.find("e+");
    return text.substr(0, e) + "e" + std::to_string(std::stoi(text.substr(e + 2)));
  }
  if (x == std::floor(x)) {
    std::string digits = fmt::format("{:.0f}", std::abs(x));
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0 && digits.size() > 4) grouped += ',';
      grouped += digits[i];
    }
    return (x < 0 ? "−" : "") + grouped;
  }
  std::string text = fmt::format("{:g}", x);
  const auto e = text.find("e-0");
  if (e != std::string::npos) text.erase(e + 2, 1);
  return text;
}

}  // namespace

std::string Parameter::default_text() const {
  const json& value = default_value;
  if (value.is_null()) return "required";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) return number_text(value.get<double>());
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string Parameter::option_name() const {
  std::string option = "--" + name;
  for (char& c : option)
    if (c == '_') c = '-';
  return option;
}

std::string Parameter::type_text() const {
  switch (type) {
    case Type::number: return "number";
    case Type::integer: return "integer";
    case Type::flag: return "true/false";
    case Type::grid: return "list of numbers";
    case Type::choice: {
      std::string text;
      for (const auto& c : choices) text += (text.empty() ? "" : " \\| ") + ("`" + c + "`");
      return text;
    }
  }
  return "";
}

std::string Parameter::range_text() const {
  if (type == Type::choice || type == Type::flag) return "";
  if (std::isinf(low) && std::isinf(high)) return "";
  return fmt::format("{}{}, {}{}", open_low ? "(" : "[", number_text(low), number_text(high), std::isinf(high) ? ")" : "]");
}

std::string Parameter::problem(const json& value) const {
  auto in_range = [&](const json& x) -> std::string {
    if (!x.is_number()) return "expected a number, got " + clipped(x.dump());
    const double v = x.get<double>();
    if (!std::isfinite(v) || v > high || (open_low ? v <= low : v < low))
      return "value " + clipped(x.dump()) + " is outside " + range_text();
    return "";
  };
  switch (type) {
    case Type::number: return in_range(value);
    case Type::integer: {
      if (!value.is_number_integer() && !(value.is_number() && value.get<double>() == std::floor(value.get<double>())))
        return "expected a whole number, got " + clipped(value.dump());
      return in_range(value);
    }
    case Type::flag: return value.is_boolean() ? "" : "expected true or false, got " + clipped(value.dump());
    case Type::choice: {
      if (value.is_string())
        for (const auto& c : choices)
          if (value.get<std::string>() == c) return "";
      std::string known;
      for (const auto& c : choices) known += (known.empty() ? "" : ", ") + c;
      return "expected one of " + known + ", got " + clipped(value.dump());
    }
    case Type::grid: {
      if (!value.is_array() || value.empty()) return "expected a non-empty array of numbers";
      for (const auto& x : value)
        if (const std::string p = in_range(x); !p.empty()) return "every value must be in " + range_text() + ": " + p;
      return "";
    }
  }
  return "";
}

Parameter number_parameter(std::string name, double default_value, double low, double high, std::string help,
                           bool open_low) {
  Parameter p;
  p.name = std::move(name);
  p.type = Parameter::Type::number;
  p.default_value = default_value;
  p.low = low;
  p.high = high;
  p.open_low = open_low;
  p.help = std::move(help);
  return p;
}

Parameter integer_parameter(std::string name, long default_value, long low, long high, std::string help) {
  Parameter p;
  p.name = std::move(name);
  p.type = Parameter::Type::integer;
  p.default_value = default_value;
  p.low = static_cast<double>(low);
  p.high = static_cast<double>(high);
  p.help = std::move(help);
  return p;
}

Parameter choice_parameter(std::string name, std::string default_value, std::vector<std::string> choices,
                           std::string help) {
  Parameter p;
  p.name = std::move(name);
  p.type = Parameter::Type::choice;
  p.default_value = std::move(default_value);
  p.choices = std::move(choices);
  p.help = std::move(help);
  return p;
}

Parameter flag_parameter(std::string name, bool default_value, std::string help) {
  Parameter p;
  p.name = std::move(name);
  p.type = Parameter::Type::flag;
  p.default_value = default_value;
  p.help = std::move(help);
  return p;
}

Parameter grid_parameter(std::string name, double low, double high, std::string help, bool open_low) {
  Parameter p;
  p.name = std::move(name);
  p.type = Parameter::Type::grid;
  p.low = low;
  p.high = high;
  p.open_low = open_low;
  p.help = std::move(help);
  return p;
}

ParameterTable::ParameterTable(std::vector<Parameter> entries) : entries_(std::move(entries)) {
  std::set<std::string> names;
  for (const auto& p : entries_) {
    if (!names.insert(p.name).second) throw Error("parameter table: '" + p.name + "' is declared twice");
    if (!p.default_value.is_null() && !p.problem(p.default_value).empty())
      throw Error("parameter table: the default of '" + p.name + "' is invalid: " + p.problem(p.default_value));
  }
}

ParameterTable ParameterTable::join(const ParameterTable& first, const ParameterTable& second) {
  std::vector<Parameter> all = first.entries_;
  all.insert(all.end(), second.entries_.begin(), second.entries_.end());
  return ParameterTable(std::move(all));
}

bool ParameterTable::contains(const std::string& name) const {
  for (const auto& p : entries_)
    if (p.name == name) return true;
  return false;
}

const Parameter& ParameterTable::at(const std::string& name) const {
  for (const auto& p : entries_)
    if (p.name == name) return p;
  throw Error("parameter table: no parameter '" + name + "'");
}

const Parameter* ParameterTable::grid() const {
  for (const auto& p : entries_)
    if (p.type == Parameter::Type::grid) return &p;
  return nullptr;
}

void ParameterTable::validate(const json& object, const std::string& where, const SpecValidator& validator,
                              const std::vector<std::string>& extra_keys) const {
  if (!object.is_object()) validator.fail(where, "expected an object");
  for (const auto& [key, value] : object.items()) {
    if (contains(key)) {
      if (const std::string p = at(key).problem(value); !p.empty()) validator.fail(where + "." + key, p);
      continue;
    }
    bool extra = false;
    for (const auto& k : extra_keys) extra = extra || k == key;
    if (extra) continue;
    std::string known;
    for (const auto& k : extra_keys) known += (known.empty() ? "" : ", ") + k;
    for (const auto& p : entries_) known += (known.empty() ? "" : ", ") + p.name;
    validator.fail(where, "unknown key '" + clipped(key) + "' (allowed: " + known + ")");
  }
  for (const auto& p : entries_)
    if (p.required() && !object.contains(p.name)) validator.fail(where, "missing required key '" + p.name + "'");
}

json ParameterTable::resolve(const json& given) const {
  json values = json::object();
  for (const auto& p : entries_) values[p.name] = given.contains(p.name) ? given[p.name] : p.default_value;
  return values;
}

std::string ParameterTable::markdown() const {
  std::string md = "| parameter | type | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const auto& p : entries_)
    md += fmt::format("| `{}` | {} | {} | {} | {} |\n", p.name, p.type_text(), p.default_text(),
                      p.range_text(), p.help);
  return md;
}

ParameterValues::ParameterValues(const ParameterTable& table, const json& given)
    : table_(&table), values_(table.resolve(given)) {}

const json& ParameterValues::checked(const std::string& name, Parameter::Type type) const {
  const Parameter& p = table_->at(name);
  const bool grid_value = p.type == Parameter::Type::grid && type == Parameter::Type::number;
  if (p.type != type && !grid_value && !(p.type == Parameter::Type::integer && type == Parameter::Type::number))
    throw Error("parameter '" + name + "' is declared as " + p.type_text() + ", read as another type");
  const json& value = values_.at(name);
  if (value.is_null()) throw Error("parameter '" + name + "' has no value (required, not given)");
  if (grid_value && !value.is_number()) throw Error("grid parameter '" + name + "' read as one value outside a cell");
  return value;
}

double ParameterValues::number(const std::string& name) const {
  return checked(name, Parameter::Type::number).get<double>();
}

long ParameterValues::integer(const std::string& name) const {
  return static_cast<long>(std::llround(checked(name, Parameter::Type::integer).get<double>()));
}

std::string ParameterValues::choice(const std::string& name) const {
  return checked(name, Parameter::Type::choice).get<std::string>();
}

bool ParameterValues::flag(const std::string& name) const { return checked(name, Parameter::Type::flag).get<bool>(); }

std::vector<double> ParameterValues::grid(const std::string& name) const {
  return checked(name, Parameter::Type::grid).get<std::vector<double>>();
}

ParameterValues ParameterValues::with(const std::string& name, const json& value) const {
  ParameterValues copy = *this;
  table_->at(name);
  copy.values_[name] = value;
  return copy;
}

}  // namespace mpg::harness
