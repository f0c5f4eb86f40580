// Shared harness pieces (lib/harness/common.hpp).
#include "lib/harness/common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

using nlohmann::json;

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

std::size_t cell_threads(const RunOptions& options) {
  const int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  return static_cast<std::size_t>(std::max(1, threads));
}

const std::vector<std::string>& all_code_paths() {
  static const std::vector<std::string> paths = {"lib", "baselines", "cli", "CMakeLists.txt",
                                                       "datasets/registry.json"};
  return paths;
}

namespace {

// `text` as one single-quoted shell word.
std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The standard output of a shell command, trailing newlines and spaces removed ("" if it fails).
std::string command_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
    pclose(pipe);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

std::string source_revision(const std::vector<std::string>& paths, const std::string& directory) {
  if (paths.empty()) throw Error("source_revision: no paths");  // "git log --" alone means the whole tree
  // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on "literal" + string&&.
  std::string git = "git -C ";
  git += shell_quote(directory);
  git += ' ';
  std::string pathspecs = " --";
  for (const auto& path : paths) {
    pathspecs += ' ';
    pathspecs += shell_quote(path);
  }
  pathspecs += " 2>/dev/null";
  std::string revision = command_output(git + "log -1 --format=%h" + pathspecs);
  if (revision.empty()) return "unknown";
  if (!command_output(git + "status --porcelain --untracked-files=no" + pathspecs).empty()) revision += "-dirty";
  return revision;
}

std::string overrides_text(const RunOptions& options) {
  std::string text;
  for (const auto& o : options.overrides) text += fmt::format(" --set '{}'", o);
  return text;
}

std::string source_stamp(const std::string& directory) {
  std::string git = "git -C ";
  git += shell_quote(directory);
  const std::string listing =
      command_output(git + " ls-files --cached --others --exclude-standard -- lib baselines cli CMakeLists.txt 2>/dev/null");
  if (listing.empty()) return "unknown";
  std::string lines;
  std::size_t start = 0;
  while (start <= listing.size()) {
    const std::size_t end = std::min(listing.find('\n', start), listing.size());
    const std::string path = listing.substr(start, end - start);
    start = end + 1;
    if (path.empty()) continue;
    const std::string file = directory + "/" + path;
    lines += std::filesystem::exists(file) ? sha256_file_hex(file) : std::string("deleted");
    lines += "  " + path + "\n";
  }
  return sha256_hex(lines);
}

void SpecValidator::fail(const std::string& where, const std::string& what) const {
  throw InputError(path_, (where.empty() ? "" : where + ": ") + what);
}

void SpecValidator::keys(const json& object, const std::string& where, const std::set<std::string>& allowed,
                         const std::set<std::string>& required) const {
  if (!object.is_object()) fail(where, "expected an object");
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where, "unknown key '" + key + "' (allowed: " + list + ")");
    }
  for (const auto& key : required)
    if (!object.contains(key)) fail(where, "missing required key '" + key + "'");
}

const json& SpecValidator::string(const json& object, const std::string& key, const std::string& where) const {
  const json& value = object.at(key);
  if (!value.is_string()) fail(where.empty() ? key : where + "." + key, "expected a string");
  return value;
}

double SpecValidator::number(const json& object, const std::string& key, const std::string& where, double low,
                             double high, bool open_low) const {
  const std::string at = where.empty() ? key : where + "." + key;
  const json& value = object.at(key);
  if (!value.is_number()) fail(at, "expected a number");
  const double x = value.get<double>();
  if (!std::isfinite(x) || x > high || (open_low ? x <= low : x < low))
    fail(at, "value " + value.dump() + " is outside " + (open_low ? "(" : "[") + json(low).dump() + ", " +
                 json(high).dump() + "]");
  return x;
}

void SpecValidator::descriptive_keys(const json& spec) const {
  for (const char* key : {"title", "source"})
    if (spec.contains(key)) string(spec, key, "");
  if (spec.contains("notes")) {
    if (!spec["notes"].is_array()) fail("notes", "expected an array of strings");
    for (const auto& note : spec["notes"])
      if (!note.is_string()) fail("notes", "expected an array of strings");
  }
}

void SpecValidator::positive_grid(const json& object, const std::string& key, const std::string& where) const {
  const std::string at = where.empty() ? key : where + "." + key;
  const json& value = object.at(key);
  if (!value.is_array() || value.empty()) fail(at, "expected a non-empty array");
  for (const auto& x : value)
    if (!x.is_number() || !(x.get<double>() > 0.0) || !std::isfinite(x.get<double>()))
      fail(at, "every value must be a finite number > 0, got " + x.dump());
}

void SpecValidator::registry_dataset(const json& object, const std::string& where) const {
  const json& registry = dataset_registry();
  const std::string name = string(object, "registry", where).get<std::string>();
  if (!registry.contains(name)) fail(where + ".registry", "no dataset '" + name + "' in datasets/registry.json");
  if (!object.contains("variant")) return;
  const std::string variant = string(object, "variant", where).get<std::string>();
  if (!registry[name]["variants"].contains(variant)) {
    std::string list;
    for (const auto& [k, _] : registry[name]["variants"].items()) list += (list.empty() ? "" : ", ") + k;
    fail(where + ".variant", "dataset '" + name + "' has no variant '" + variant + "' (known: " + list + ")");
  }
}

std::pair<json, bool> CellCache::get_or_compute(const json& key, const std::function<json()>& compute) const {
  const std::string file = directory_ + "/" + sha256_hex(key.dump()).substr(0, 24) + ".json";
  if (std::filesystem::exists(file)) {
    const json stored = json::parse(read_file(file), nullptr, false);
    if (!stored.is_discarded() && stored.is_object() && stored.value("key", json()) == key)
      return {stored["result"], true};
  }
  json result = compute();
  std::filesystem::create_directories(directory_);
  write_file_atomically(file, json{{"key", key}, {"result", result}}.dump() + "\n");
  return {std::move(result), false};
}

std::string results_directory(const RunOptions& options) {
  return options.results_directory.empty() ? std::string(MPG_SOURCE_DIR) + "/results" : options.results_directory;
}

std::string cache_directory(const RunOptions& options, const std::string& spec_name) {
  return (options.cache_directory.empty() ? results_directory(options) + "/.cache" : options.cache_directory) +
         "/" + spec_name;
}

std::vector<std::string> write_result_files(const std::string& results_dir, const std::string& name, bool quick,
                                            const std::string& markdown, const std::string& csv, const json& out) {
  std::filesystem::create_directories(results_dir);
  const std::string base = results_dir + "/" + name + (quick ? ".quick" : "");
  write_file_atomically(base + ".md", markdown);
  write_file_atomically(base + ".csv", csv);
  write_file_atomically(base + ".json", out.dump(2) + "\n");
  return {base + ".md", base + ".csv", base + ".json"};
}

}  // namespace mpg::harness
