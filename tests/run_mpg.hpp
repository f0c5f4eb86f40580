// Runs the `mpg` tool as a separate process with its output captured: for the tests of the
// command line (exit codes, messages, files written or not).
#pragma once

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/temp_dir.hpp"

namespace mpg::testing {

// `text` as one single-quoted shell word.
inline std::string quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct RunResult {
  bool exited = false;  // terminated normally (not by a signal)
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `mpg <arguments>` (arguments already shell-quoted where needed), capturing both streams
// in files of `dir`.
inline RunResult run_mpg(const TempDir& dir, const std::string& arguments) {
  static int run = 0;
  const std::string out_path = dir.file("stdout." + std::to_string(run));
  const std::string err_path = dir.file("stderr." + std::to_string(run));
  ++run;
  const std::string command =
      quote(MPG_CLI_PATH) + " " + arguments + " >" + quote(out_path) + " 2>" + quote(err_path) + " </dev/null";
  const int status = std::system(command.c_str());
  RunResult result;
  REQUIRE(status != -1);
  result.exited = WIFEXITED(status);
  result.exit_code = result.exited ? WEXITSTATUS(status) : -1;
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

}  // namespace mpg::testing
