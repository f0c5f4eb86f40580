// The cell cache and the code identities (lib/harness/cache.hpp).
#include "lib/harness/cache.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

using nlohmann::json;
namespace fs = std::filesystem;

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

namespace {

bool compiled_source(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".cpp" || extension == ".hpp" || extension == ".h" || extension == ".cc";
}

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

std::string source_stamp(const std::string& directory) {
  const fs::path root(directory);
  std::vector<std::string> files;
  for (const char* top : {"lib", "baselines", "cli"}) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top))
      if (entry.is_regular_file() && compiled_source(entry.path()))
        files.push_back(fs::relative(entry.path(), root).generic_string());
  }
  if (fs::exists(root / "CMakeLists.txt")) files.push_back("CMakeLists.txt");
  if (files.empty()) return "unknown";
  std::sort(files.begin(), files.end());
  std::string lines;
  for (const auto& file : files) lines += sha256_file_hex((root / file).string()) + "  " + file + "\n";
  return sha256_hex(lines);
}

std::string source_revision(const std::string& directory) {
  const std::string git = "git -C " + shell_quote(directory) + " ";
  const std::string paths = " -- lib baselines cli CMakeLists.txt datasets/registry.json 2>/dev/null";
  std::string revision = command_output(git + "log -1 --format=%h" + paths);
  if (revision.empty()) return "unknown";
  if (!command_output(git + "status --porcelain --untracked-files=no" + paths).empty()) revision += "-dirty";
  return revision;
}

std::pair<json, bool> CellCache::get_or_compute(const json& key, const std::function<json()>& compute) const {
  if (!enabled_) return {compute(), false};
  const std::string file = directory_ + "/" + sha256_hex(key.dump()).substr(0, 24) + ".json";
  if (fs::exists(file)) {
    const json stored = json::parse(read_file(file), nullptr, false);
    if (!stored.is_discarded() && stored.is_object() && stored.value("key", json()) == key &&
        stored.contains("result") && stored["result"].is_object() && !stored["result"].empty())
      return {stored["result"], true};
  }
  json result = compute();
  fs::create_directories(directory_);
  write_file_atomically(file, json{{"key", key}, {"result", result}}.dump() + "\n");
  return {std::move(result), false};
}

}  // namespace mpg::harness
