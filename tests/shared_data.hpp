// Helpers for tests that read the shared data folder or check reader errors.
#pragma once

#include <cstdlib>
#include <string>

#include "lib/base/error.hpp"

namespace mpg::testing {

// The shared data folder: $MPG_DATA_DIR, else <source>/../shared/datasets.
inline std::string shared_data_directory() {
  if (const char* dir = std::getenv("MPG_DATA_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::string(MPG_SOURCE_DIR) + "/../shared/datasets";
}

// The official scorers of the fields (conlleval.pl, LETOR's Eval-Score, EVALB, wa_eval_align.pl;
// run by tests, never copied): $MPG_SCORERS_DIR, else <source>/../shared/scorers.
inline std::string shared_scorers_directory() {
  if (const char* dir = std::getenv("MPG_SCORERS_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::string(MPG_SOURCE_DIR) + "/../shared/scorers";
}

// The message of the mpg::InputError that `read` throws, or "" if it throws none.
template <typename Read>
std::string input_error_of(Read read) {
  try {
    read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace mpg::testing
