// Errors raised by mpg-repro. Every user-facing failure is an mpg::Error whose message names
// what went wrong and, for input files, the file and line; the CLI prints it and exits non-zero.
#pragma once

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mpg {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An input file is malformed: the message reads "<path>:<line>: <what>".
class InputError : public Error {
 public:
  InputError(const std::string& path, long line, const std::string& what)
      : Error(path + ":" + std::to_string(line) + ": " + what) {}
  InputError(const std::string& path, const std::string& what) : Error(path + ": " + what) {}
};

// Bad input as a message quotes it: at most `limit` bytes of it, bytes outside printable ASCII as
// \xNN, so that a 10 MB token or binary garbage cannot flood the terminal (issue 28).
// clipped: the text itself, "... (N bytes)" appended when it was cut; excerpt: the same in double
// quotes (with '"' and '\' escaped too).
inline std::string clipped(std::string_view text, std::size_t limit = 80, bool in_quotes = false) {
  std::string out = in_quotes ? "\"" : "";
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f && !(in_quotes && (byte == '"' || byte == '\\'))) {
      out += static_cast<char>(byte);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    }
  }
  if (in_quotes) out += '"';
  if (text.size() > limit) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}
inline std::string excerpt(std::string_view text, std::size_t limit = 80) { return clipped(text, limit, true); }

// A numerical solver failed (e.g. the LP solver returned a non-optimal status).
class SolverError : public Error {
 public:
  using Error::Error;
};

}  // namespace mpg
