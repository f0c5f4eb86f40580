// Errors raised by mpg-repro. Every user-facing failure is an mpg::Error whose message names
// what went wrong and, for input files, the file and line; the CLI prints it and exits non-zero.
#pragma once

#include <stdexcept>
#include <string>

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

// A numerical solver failed (e.g. the LP solver returned a non-optimal status).
class SolverError : public Error {
 public:
  using Error::Error;
};

}  // namespace mpg
