// A scratch folder for tests: a fresh directory under the system temp directory, removed with
// everything in it at scope exit.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace mpg::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& name = "scratch") {
    static std::atomic<int> counter{0};
    std::random_device device;
    for (;;) {
      path_ = std::filesystem::temp_directory_path() /
              ("mpg_test_" + name + "_" + std::to_string(::getpid()) + "_" +
               std::to_string(counter++) + "_" + std::to_string(device()));
      if (std::filesystem::create_directory(path_)) break;
    }
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` in this folder (not created).
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` byte for byte to `name` in this folder and returns the file's path.
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path_ / name, std::ios::binary) << content;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace mpg::testing
