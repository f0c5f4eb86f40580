#include "lib/base/io.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <lzma.h>
#include <zlib.h>

#include "lib/base/error.hpp"
#include "lib/base/numbers.hpp"

namespace mpg {
namespace {

constexpr std::size_t kFirstBufferBytes = std::size_t{1} << 16;
constexpr std::size_t kMaxReadBytes = std::size_t{1} << 26;  // per call; gzread counts in int

bool ends_with_gz(std::string_view path) { return path.ends_with(".gz"); }
bool ends_with_xz(std::string_view path) { return path.ends_with(".xz"); }

// The limits of read_file (io.hpp), checked as the text arrives so that /dev/zero or a gzip bomb
// ends with an error after at most kMaxInputBytes (a line after kMaxLineBytes plus one chunk).
class InputLimits {
 public:
  explicit InputLimits(const std::string& path) : path_(path) {}
  // Checks the first `used` bytes of `text` (those of earlier calls were checked then).
  void check(const std::string& text, std::size_t used) {
    if (used > kMaxInputBytes)
      throw InputError(path_, "longer than " + std::to_string(kMaxInputBytes >> 20) +
                                  " MiB (the limit of an input file, after decompression)");
    const char* begin = text.data() + checked_;
    const char* end = text.data() + used;
    for (const char* newline = begin;
         (newline = static_cast<const char*>(std::memchr(newline, '\n', static_cast<std::size_t>(end - newline))));
         ++newline) {
      ++line_;
      line_start_ = static_cast<std::size_t>(newline - text.data()) + 1;
    }
    checked_ = used;
    if (used - line_start_ > kMaxLineBytes)
      throw InputError(path_, line_ + 1, "a line longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB (the limit)");
  }
  // The size the buffer grows to when full: double, but never beyond the limit and one byte.
  static std::size_t grown(std::size_t size) { return std::min(2 * size, kMaxInputBytes + 1); }

 private:
  const std::string& path_;
  std::size_t checked_ = 0;
  std::size_t line_start_ = 0;
  long line_ = 0;
};

// Calls `read_some(buffer, capacity) -> bytes read` until it returns 0, reading straight into
// the result, which doubles when full. The first buffer holds `size_hint` bytes and one more, so
// a file of exactly the hinted size is read without growing.
template <typename ReadSome>
std::string read_chunks(const std::string& path, std::size_t size_hint, ReadSome read_some) {
  InputLimits limits(path);
  std::string text(std::min(std::max(size_hint + 1, kFirstBufferBytes), kMaxInputBytes + 1), '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == text.size()) text.resize(InputLimits::grown(text.size()));
    const std::size_t got =
        read_some(text.data() + used, std::min(text.size() - used, kMaxReadBytes));
    if (got == 0) break;
    used += got;
    limits.check(text, used);
  }
  text.resize(used);
  return text;
}

std::string read_plain(const std::string& path, std::size_t size_hint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open file");
  std::string text = read_chunks(path, size_hint, [&in](char* buffer, std::size_t capacity) {
    in.read(buffer, static_cast<std::streamsize>(capacity));
    return static_cast<std::size_t>(in.gcount());
  });
  if (in.bad()) throw InputError(path, "cannot read file");
  return text;
}

struct GzCloser {
  void operator()(gzFile file) const { gzclose(file); }
};

// zlib's error code for `file` and its reason, without the "<path>: " zlib puts in front.
int gzip_error(gzFile file, const std::string& path, std::string& reason) {
  int code = Z_OK;
  std::string_view message = gzerror(file, &code);
  if (message.starts_with(path + ": ")) message.remove_prefix(path.size() + 2);
  reason = message;
  return code;
}

// Decompresses a gzip file (several concatenated members are read as one stream). Throws on a
// file that is not gzip, a corrupt stream (zlib's reason is quoted) or a truncated one.
std::string read_gzip(const std::string& path, std::size_t compressed_size) {
  const std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  if (!file) throw InputError(path, "cannot open file");
  gzbuffer(file.get(), 1U << 17);
  // Throws for zlib's current error state of the file, if any.
  const auto check = [&] {
    std::string reason;
    const int code = gzip_error(file.get(), path, reason);
    if (code == Z_OK) return;
    if (code == Z_ERRNO) throw InputError(path, "cannot read file");
    // A stream that stops early is not a read error for gzread, only an error state.
    if (code == Z_BUF_ERROR) throw InputError(path, "truncated gzip data (" + reason + ")");
    throw InputError(path, "corrupt gzip data (" + reason + ")");
  };
  // Compressed text is typically several times smaller, so start a few times larger.
  std::string text = read_chunks(path, 4 * compressed_size, [&](char* buffer, std::size_t capacity) {
    const int got = gzread(file.get(), buffer, static_cast<unsigned>(capacity));
    if (got < 0) check();
    return static_cast<std::size_t>(std::max(got, 0));
  });
  check();
  // zlib passes input without a gzip header through unchanged; a .gz name promises gzip.
  if (gzdirect(file.get())) throw InputError(path, "not a gzip file");
  return text;
}

struct LzmaEnd {
  void operator()(lzma_stream* stream) const { lzma_end(stream); }
};

// Decompresses an .xz file (concatenated streams are read as one, as xz -d does). Throws on a
// file that is not xz, a corrupt or truncated stream, with liblzma's reason.
std::string read_xz(const std::string& path, std::size_t compressed_size) {
  const std::string compressed = read_plain(path, compressed_size);
  lzma_stream stream = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&stream, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    throw InputError(path, "cannot start the xz decoder");
  const std::unique_ptr<lzma_stream, LzmaEnd> guard(&stream);
  stream.next_in = reinterpret_cast<const std::uint8_t*>(compressed.data());
  stream.avail_in = compressed.size();
  InputLimits limits(path);
  std::string text(std::min(std::max(4 * compressed.size() + 1, kFirstBufferBytes), kMaxInputBytes + 1), '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == text.size()) text.resize(InputLimits::grown(text.size()));
    stream.next_out = reinterpret_cast<std::uint8_t*>(text.data() + used);
    stream.avail_out = text.size() - used;
    // All input is present, so LZMA_FINISH from the start.
    const lzma_ret status = lzma_code(&stream, LZMA_FINISH);
    used = text.size() - stream.avail_out;
    limits.check(text, used);
    if (status == LZMA_STREAM_END) break;
    if (status == LZMA_OK) continue;
    switch (status) {
      case LZMA_FORMAT_ERROR: throw InputError(path, "not an xz file");
      case LZMA_BUF_ERROR: throw InputError(path, "truncated xz data");
      case LZMA_DATA_ERROR: throw InputError(path, "corrupt xz data");
      case LZMA_MEM_ERROR: throw InputError(path, "out of memory while decompressing xz data");
      default: throw InputError(path, "corrupt xz data (liblzma status " + std::to_string(static_cast<int>(status)) + ")");
    }
  }
  text.resize(used);
  return text;
}

}  // namespace

void write_file_atomically(const std::string& given, const std::string& content) {
  namespace fs = std::filesystem;
  std::error_code error;
  // Through a symbolic link to its target, so the link is kept (when the target resolves).
  std::string path = given;
  if (fs::is_symlink(fs::symlink_status(given, error))) {
    const fs::path target = fs::canonical(given, error);
    if (!error) path = target.string();
  }
  // A device or a FIFO (e.g. /dev/stdout's) is written in place: renaming over it would replace it.
  const fs::file_status status = fs::status(path, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status)) {
    if (fs::is_directory(status)) throw Error(given + ": cannot write (a directory)");
    std::ofstream out(path, std::ios::binary);
    out << content;
    out.flush();
    if (!out) throw Error(given + ": write failed");
    return;
  }
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path + ": cannot write (" + std::strerror(errno) + ")");
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw Error(path + ": write failed");
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw Error(path + ": cannot move the finished file into place");
  }
}

void refuse_same_file(const std::string& output, const std::string& output_what, const std::string& input,
                      const std::string& input_what) {
  std::error_code error;  // either missing: not the same file
  if (std::filesystem::equivalent(output, input, error) && !error)
    throw Error(output_what + " '" + output + "' is the same file as " + input_what + " '" + input +
                "': refusing to overwrite an input (choose another output path)");
}

void require_writable_directory(const std::string& directory, const std::string& what) {
  namespace fs = std::filesystem;
  const auto fail = [&](std::string reason) {
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
    throw Error("cannot write " + what + " to " + directory + ": " + reason);
  };
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) fail(error.message());
  if (!fs::is_directory(directory, error)) fail("not a directory");
  const std::string probe = directory + "/.mpg-write-probe." + std::to_string(::getpid());
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    if (!out) fail(std::strerror(errno));
  }
  fs::remove(probe, error);
}

std::string read_file(const std::string& path) {
  std::error_code ignored;
  // Opening a directory succeeds and reading it yields nothing, so refuse it up front.
  if (std::filesystem::is_directory(path, ignored)) throw InputError(path, "cannot open file");
  std::error_code no_size;  // pipes and the like have none; the size is only a hint
  const std::uintmax_t size = std::filesystem::file_size(path, no_size);
  const std::size_t size_hint = no_size ? 0 : static_cast<std::size_t>(size);
  try {
    if (ends_with_gz(path)) return read_gzip(path, size_hint);
    if (ends_with_xz(path)) return read_xz(path, size_hint);
    if (size_hint > kMaxInputBytes)
      throw InputError(path, "longer than " + std::to_string(kMaxInputBytes >> 20) + " MiB (the limit of an input file)");
    return read_plain(path, size_hint);
  } catch (const std::bad_alloc&) {
    throw InputError(path, "out of memory while reading the file");
  }
}

std::vector<double> parse_number_list(const std::string& text, const std::string& what) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    double value = 0.0;
    if (item.empty() || parse_double(item, value) != std::errc() || !std::isfinite(value))
      throw Error(what + ": entry " + std::to_string(values.size() + 1) + " " + excerpt(item) +
                  " is not a finite number");
    values.push_back(value);
    start = end + 1;
  }
  return values;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_output(const std::string& command, int* status) {
  std::string out;
  int code = -1;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
    const int raw = pclose(pipe);
    if (raw != -1 && WIFEXITED(raw)) code = WEXITSTATUS(raw);
  }
  if (status) *status = code;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::vector<double> read_number_file(const std::string& path) {
  // Any run of commas and white space separates two numbers.
  std::string list;
  for (char c : read_file(path)) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') c = ',';
    if (c != ',' || (!list.empty() && list.back() != ',')) list += c;
  }
  while (!list.empty() && list.back() == ',') list.pop_back();
  return parse_number_list(list, path);
}

}  // namespace mpg
