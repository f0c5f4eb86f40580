// The cell cache and the code identities (lib/harness/cache.hpp).
#include "lib/harness/cache.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"
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

namespace {

// The project includes of one file: `#include "path"` resolved against the root, then against the
// file's own folder; includes that name no file of the tree (system headers) are left out.
std::vector<std::string> project_includes(const fs::path& root, const std::string& file) {
  static const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<std::string> out;
  std::ifstream in(root / file);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch match;
    if (!std::regex_search(line, match, include_line)) continue;
    for (const fs::path& candidate : {fs::path(match[1].str()), fs::path(file).parent_path() / match[1].str()}) {
      const fs::path normal = candidate.lexically_normal();
      if (fs::is_regular_file(root / normal)) {
        out.push_back(normal.generic_string());
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> family_sources(const std::string& family, const std::string& directory) {
  const fs::path root(directory);
  const fs::path families = root / "lib" / "harness" / "families";
  std::vector<std::string> work;
  if (fs::is_directory(families)) {
    for (const auto& entry : fs::directory_iterator(families)) {
      const std::string stem = entry.path().stem().string();
      if (entry.is_regular_file() && compiled_source(entry.path()) && (stem == family || stem.rfind(family + "_", 0) == 0))
        work.push_back(fs::relative(entry.path(), root).generic_string());
    }
  }
  if (work.empty()) return {};
  for (const auto& entry : fs::directory_iterator(root / "lib" / "harness"))
    if (entry.is_regular_file() && compiled_source(entry.path()))
      work.push_back(fs::relative(entry.path(), root).generic_string());
  std::set<std::string> closure;
  while (!work.empty()) {
    const std::string file = work.back();
    work.pop_back();
    if (!closure.insert(file).second) continue;
    for (auto& included : project_includes(root, file)) work.push_back(std::move(included));
    const fs::path path(file);
    if (path.extension() == ".hpp" || path.extension() == ".h") {
      const fs::path implementation = fs::path(path).replace_extension(".cpp");
      if (fs::is_regular_file(root / implementation)) work.push_back(implementation.generic_string());
    }
  }
  if (fs::exists(root / "CMakeLists.txt")) closure.insert("CMakeLists.txt");
  return {closure.begin(), closure.end()};  // std::set: byte order
}

std::string family_stamp(const std::string& family, const std::string& directory) {
  const std::vector<std::string> files = family_sources(family, directory);
  if (files.empty()) return "unknown";
  std::string lines;
  for (const auto& file : files) lines += sha256_file_hex((fs::path(directory) / file).string()) + "  " + file + "\n";
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

namespace {

std::string entry_file(const std::string& directory, const json& key) {
  return directory + "/" + sha256_hex(key.dump()).substr(0, 24) + ".json";
}

}  // namespace

std::optional<json> CellCache::lookup(const json& key) const {
  if (!enabled_) return std::nullopt;
  const std::string file = entry_file(directory_, key);
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return std::nullopt;
  std::string text;
  try {
    text = read_file(file);
  } catch (const Error&) {
    return std::nullopt;  // unreadable: recomputed and rewritten
  }
  const json stored = parse_json_or_discarded(text);
  if (stored.is_discarded() || !stored.is_object() || stored.value("key", json()) != key) return std::nullopt;
  const auto result = stored.find("result");
  const auto hash = stored.find("result_sha256");
  if (result == stored.end() || !result->is_object() || result->empty() || hash == stored.end() ||
      !hash->is_string() || *hash != sha256_hex(result->dump()))
    return std::nullopt;
  return *result;
}

std::pair<json, bool> CellCache::get_or_compute(const json& key, const std::function<json()>& compute) const {
  if (!enabled_) return {compute(), false};
  if (auto cached = lookup(key)) return {std::move(*cached), true};
  json result = compute();
  fs::create_directories(directory_);
  const std::string hash = sha256_hex(result.dump());
  write_file_atomically(entry_file(directory_, key),
                        json{{"key", key}, {"result", result}, {"result_sha256", hash}}.dump() + "\n");
  return {std::move(result), false};
}

}  // namespace mpg::harness
