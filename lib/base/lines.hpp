// Line iteration shared by the text readers.
#pragma once

#include <string_view>

namespace mpg {

// Calls visit(line_number, line) for every line of `text` (numbers from 1; the '\r' of a CRLF
// ending removed; a final line without '\n' included).
template <typename Visit>
void for_each_line(std::string_view text, Visit visit) {
  long number = 0;
  std::size_t position = 0;
  while (position < text.size()) {
    auto end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    visit(++number, line);
  }
}

}  // namespace mpg
