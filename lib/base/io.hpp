// Small file helpers shared by the CLI and the harness.
#pragma once

#include <string>
#include <vector>

namespace mpg {

// Writes `content` to a temporary file beside `path` and renames it into place, so a reader
// never sees a partial file and a failed run leaves no file behind. A symbolic link is written
// through (its target is replaced, the link stays); a target that is not a regular file (a
// device, a FIFO) is written in place. Throws mpg::Error.
void write_file_atomically(const std::string& path, const std::string& content);

// Throws mpg::Error "<output_what> '<output>' is the same file as <input_what> '<input>'..." when
// both paths name one existing file (links resolved, device and inode compared): an output must
// never overwrite an input. Call it before the work.
void refuse_same_file(const std::string& output, const std::string& output_what, const std::string& input,
                      const std::string& input_what);

// Reads a whole file, decompressing names ending in .gz (zlib) or .xz (liblzma); throws
// mpg::InputError naming the file if it cannot be read or is corrupt.
std::string read_file(const std::string& path);

// Parses "v1,v2,..." into finite doubles; throws mpg::Error naming `what` and the bad entry.
std::vector<double> parse_number_list(const std::string& text, const std::string& what);

// `text` as one single-quoted POSIX shell word.
std::string shell_quote(const std::string& text);

// Runs `command` with /bin/sh and returns its standard output without trailing newlines and
// spaces ("" if it cannot run); `status` receives the exit status (-1 if it did not exit).
std::string command_output(const std::string& command, int* status = nullptr);

// Reads a file of finite numbers separated by commas or white space (any run of them).
std::vector<double> read_number_file(const std::string& path);

}  // namespace mpg
