// Number parsing shared by the readers and the command line.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

namespace mpg {

// Parses all of `text` as a double (std::from_chars, general format): std::errc() on success,
// invalid_argument on malformed or trailing characters, result_out_of_range on overflow (|x| above
// DBL_MAX). A magnitude below the smallest subnormal (1e-400) is read as the value it rounds to
// (0, as strtod gives), like any subnormal (1e-320), not rejected: both are tiny numbers.
inline std::errc parse_double(std::string_view text, double& value) {
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc() && stop != end) return std::errc::invalid_argument;
  if (error != std::errc::result_out_of_range) return error;
  if (stop != end) return std::errc::invalid_argument;
  const std::string copy(text);
  const double rounded = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(rounded)) return std::errc::result_out_of_range;
  value = rounded;
  return std::errc();
}

}  // namespace mpg
