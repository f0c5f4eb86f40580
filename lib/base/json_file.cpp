#include "lib/base/json_file.hpp"

#include <fmt/format.h>

#include <new>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {

std::optional<std::string> json_limit_problem(std::string_view text) {
  if (text.size() > kMaxJsonBytes)
    return fmt::format("{} bytes of JSON, beyond the limit of {} MiB", text.size(), kMaxJsonBytes >> 20);
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return fmt::format("JSON nested deeper than {} levels (the limit) at byte {}", kMaxJsonDepth, i + 1);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

namespace {

[[noreturn]] void out_of_memory(const std::string& source, std::size_t bytes) {
  throw InputError(source, fmt::format("out of memory while reading the file ({} bytes of JSON)", bytes));
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& source,
                          const nlohmann::json::parser_callback_t& callback) {
  if (const auto problem = json_limit_problem(text)) throw InputError(source, *problem);
  try {
    return nlohmann::json::parse(text, callback);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source, std::string("not valid JSON: ") + clipped(e.what(), 200));
  } catch (const std::bad_alloc&) {
    out_of_memory(source, text.size());
  }
}

nlohmann::json parse_json_within_limits(const std::string& text, const std::string& source) {
  if (const auto problem = json_limit_problem(text)) throw InputError(source, *problem);
  try {
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  } catch (const std::bad_alloc&) {
    out_of_memory(source, text.size());
  }
}

nlohmann::json parse_json_or_discarded(const std::string& text) {
  if (json_limit_problem(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
  try {
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  } catch (const std::bad_alloc&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

nlohmann::json read_json_file(const std::string& path) { return parse_json_within_limits(read_file(path), path); }

}  // namespace mpg
