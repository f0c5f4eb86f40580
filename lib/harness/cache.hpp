// The on-disk cell cache of `mpg run` and the code identities its keys and tables carry.
//
// Cache keys follow one rule: a cell's key is what its result depends on — the family, the phase,
// the cell's own description from its family (data hashes, task, method kind with every resolved
// parameter, grid value) — plus the family's code stamp: the content of the sources its cells can
// run (family_stamp). A change to one family's file, or to a header only other families include,
// leaves its cached cells valid; a change to the engine, to CMakeLists.txt or to anything the
// family includes recomputes them. Nothing in the key is kept by hand.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/base/source_dir.hpp"

namespace mpg::harness {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t);

// Content stamp of the compiled code as the tree at `directory` holds it now: the SHA-256 of the
// lines "<SHA-256 of the file>  <path>\n" over the C++ sources and headers under lib/, baselines/
// and cli/ and CMakeLists.txt, in byte order of their relative paths; "unknown" if there are
// none. cmake/source_stamp.cmake computes the same into the mpg binary at build time.
std::string source_stamp(const std::string& directory = source_directory());

// The sources a family's cells depend on, as paths relative to `directory`, sorted: the include
// closure (project includes `#include "..."`, resolved from the tree's root or the including
// file's folder) of the family's files lib/harness/families/<family>.cpp and <family>_*.cpp and of
// the engine (every source directly in lib/harness), each header taken with its implementation
// file (X.hpp brings X.cpp), plus CMakeLists.txt. Empty if the family has no file there.
std::vector<std::string> family_sources(const std::string& family, const std::string& directory = source_directory());
// The SHA-256 of "<SHA-256 of the file>  <path>\n" over family_sources, or "unknown" where they
// are empty. `mpg run` checks the binary against the whole tree (source_stamp) first, so the
// family's stamp read from the tree is the stamp of the code compiled into the binary.
std::string family_stamp(const std::string& family, const std::string& directory = source_directory());

// The git revision of the code (lib, baselines, cli, CMakeLists.txt, datasets/registry.json): the
// abbreviated hash of the last commit touching it, "-dirty" with uncommitted changes to it,
// "unknown" without git. Printed in every table ("made at revision ...").
std::string source_revision(const std::string& directory = source_directory());

// Finished cells on disk: <directory>/<sha256(key)[:24]>.json holding {key, result, result_sha256}.
// A file whose stored key differs (a hash collision), that does not parse, whose result is not a
// non-empty object, or whose result no longer hashes to result_sha256 (an entry damaged or edited
// by hand, e.g. "result": {} or a changed score) is recomputed, never used. Files are written
// atomically, so a killed run leaves only whole cells. With `enabled` false nothing is read or
// written (a build whose code stamp is unknown).
class CellCache {
 public:
  CellCache(std::string directory, bool enabled = true) : directory_(std::move(directory)), enabled_(enabled) {}
  // The cached result for `key`, or computes, stores and returns it; .second = cached.
  std::pair<nlohmann::json, bool> get_or_compute(const nlohmann::json& key,
                                                 const std::function<nlohmann::json()>& compute) const;
  // The intact cached result for `key`, if there is one (nothing is computed).
  std::optional<nlohmann::json> lookup(const nlohmann::json& key) const;
  const std::string& directory() const { return directory_; }
  bool enabled() const { return enabled_; }

 private:
  std::string directory_;
  bool enabled_;
};

}  // namespace mpg::harness
