// The names of an enum's values, for options given by name: one table per enum serves parsing,
// printing and the error message that lists the choices.
#pragma once

#include <cstddef>
#include <string>

#include "lib/base/error.hpp"

namespace mpg {

template <class Enum>
struct Choice {
  const char* name;
  Enum value;
};

// The value named `name`; throws mpg::Error "unknown <what> '<name>' (expected a, b or c)".
template <class Enum, std::size_t N>
Enum parse_choice(const std::string& name, const Choice<Enum> (&choices)[N], const char* what) {
  for (const auto& choice : choices)
    if (name == choice.name) return choice.value;
  std::string expected;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) expected += i + 1 == N ? " or " : ", ";
    expected += choices[i].name;
  }
  throw Error("unknown " + std::string(what) + " '" + name + "' (expected " + expected + ")");
}

// The name of `value` ("unknown" if the table lacks it).
template <class Enum, std::size_t N>
std::string choice_name(Enum value, const Choice<Enum> (&choices)[N]) {
  for (const auto& choice : choices)
    if (choice.value == value) return choice.name;
  return "unknown";
}

}  // namespace mpg
