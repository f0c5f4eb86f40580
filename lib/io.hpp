// Small file helpers shared by the CLI and the harness.
#pragma once

#include <string>

namespace mpg {

// Writes `content` to a temporary file beside `path` and renames it into place, so a reader
// never sees a partial file and a failed run leaves no file behind. Throws mpg::Error.
void write_file_atomically(const std::string& path, const std::string& content);

// Reads a whole file, decompressing names ending in .gz (zlib) or .xz (liblzma); throws
// mpg::InputError naming the file if it cannot be read or is corrupt.
std::string read_file(const std::string& path);

}  // namespace mpg
