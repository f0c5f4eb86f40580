// Small file helpers shared by the CLI and the harness.
#pragma once

#include <cstddef>
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

// The limits of every file read (`mpg train --help` and README.md state them): its text, after
// decompression, up to 1 GiB, and each line up to 64 MiB (a line of LIBSVM text with 10^6
// features takes ~20 MB). They stop /dev/zero or a gzip bomb with an error before memory runs out.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

// Creates `directory` (and its parents) if missing and proves it writable by creating and removing
// a file in it (root ignores permission bits, a read-only mount does not); throws mpg::Error
// "cannot write <what> to <directory>: <reason>", e.g. "read-only file system" or "not a directory".
void require_writable_directory(const std::string& directory, const std::string& what);

// Reads a whole file, decompressing names ending in .gz (zlib) or .xz (liblzma); throws
// mpg::InputError naming the file if it cannot be read, is corrupt, is beyond the limits above
// or does not fit in memory.
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
