// Reading JSON (specs, models, tables, cache entries, task files) within limits (issue 56): the
// text's nesting depth is measured before nlohmann/json builds anything, since its dump, copy and
// comparison recurse once per level and a file nested ~75,000 deep overflows the stack.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace mpg {

// The deepest nesting of arrays and objects accepted (the repository's specs nest under 10).
inline constexpr std::size_t kMaxJsonDepth = 256;
// The largest JSON text accepted: a dense model over 2^24 columns, written by `mpg train`, fits.
inline constexpr std::size_t kMaxJsonBytes = std::size_t{512} << 20;

// Why `text` is beyond the limits ("nested deeper than 256 levels (the limit) at byte 1234"),
// or nothing. Counts brackets outside strings only; does not otherwise validate.
std::optional<std::string> json_limit_problem(std::string_view text);

// Parses `text`; throws mpg::InputError naming `source` (a file name) for text beyond the limits,
// invalid JSON ("not valid JSON: <the parser's reason>") or memory exhausted. `callback` as nlohmann's.
nlohmann::json parse_json(const std::string& text, const std::string& source,
                          const nlohmann::json::parser_callback_t& callback = nullptr);

// Throws mpg::InputError naming `source` for text beyond the limits (or memory exhausted);
// returns a discarded value (is_discarded()) for text that is not JSON, for the caller's message.
nlohmann::json parse_json_within_limits(const std::string& text, const std::string& source);

// A discarded value also for text beyond the limits: for readers that treat such a file as absent
// (a damaged cache entry is recomputed).
nlohmann::json parse_json_or_discarded(const std::string& text);

// read_file, then parse_json_within_limits.
nlohmann::json read_json_file(const std::string& path);

}  // namespace mpg
