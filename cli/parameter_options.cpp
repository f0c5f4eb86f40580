#include "cli/parameter_options.hpp"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace mpg::cli {

namespace {

using harness::Parameter;

// The command-line text as the JSON value a spec would hold: a number when it reads as one
// (a whole one as an integer), else the string, which the check then reports.
nlohmann::json as_value(const Parameter& parameter, const std::string& text) {
  if (parameter.type == Parameter::Type::choice) return text;
  if (parameter.type == Parameter::Type::grid) {  // one value: a grid of one entry, checked as a spec's
    Parameter entry = parameter;
    entry.type = Parameter::Type::number;
    return nlohmann::json::array({as_value(entry, text)});
  }
  char* end = nullptr;
  const long long whole = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() && *end == '\0') return whole;
  const double number = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0') return number;
  return text;
}

template <class T>
CLI::Option* add(CLI::App& command, const Parameter& parameter, T& value) {
  std::string names = parameter.option_name();
  for (const auto& alias : parameter.aliases) {
    Parameter renamed;
    renamed.name = alias;
    names += "," + renamed.option_name();
  }
  const bool required = parameter.required();
  if (!required) value = parameter.default_value.get<T>();
  std::string help = parameter.help;
  if (parameter.type == Parameter::Type::grid) help = "one value of the spec's " + help;
  CLI::Option* option = command.add_option(names, value, help);
  if (required)
    option->required();
  else
    option->default_str(parameter.default_text());
  std::string type_name = parameter.range_text();
  if (parameter.type == Parameter::Type::choice) {
    for (const auto& c : parameter.choices) type_name += (type_name.empty() ? "{" : ",") + c;
    type_name += "}";
  }
  option->check(CLI::Validator(
      [parameter](std::string& text) -> std::string {
        // NaN and infinities have no JSON form (NaN would be quoted as null): refused by name.
        char* end = nullptr;
        const double number = std::strtod(text.c_str(), &end);
        if (parameter.type != Parameter::Type::choice && end != text.c_str() && *end == '\0' && !std::isfinite(number))
          return "must be a finite number, got " + text;
        return parameter.problem(as_value(parameter, text));
      },
      type_name));
  return option;
}

}  // namespace

CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, double& value) {
  return add(command, parameter, value);
}
CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, long& value) {
  return add(command, parameter, value);
}
CLI::Option* add_parameter(CLI::App& command, const harness::Parameter& parameter, std::string& value) {
  return add(command, parameter, value);
}

}  // namespace mpg::cli
