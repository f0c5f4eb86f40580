// Tests for reading data files: transparent gzip in read_file and read_libsvm, the UCI optdigits
// reader with its error messages, and the shared optdigits and adult files when present.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"
#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/data/optdigits.hpp"
#include "lib/base/sha256.hpp"

namespace fs = std::filesystem;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// Writes `members` as consecutive gzip members of `file_name` in `dir` (one member per entry).
std::string write_gzip(const TempDir& dir, const std::string& file_name,
                       const std::vector<std::string>& members) {
  const std::string file = dir.file(file_name);
  fs::remove(file);
  for (const std::string& member : members) {
    gzFile out = gzopen(file.c_str(), "ab");
    REQUIRE(out != nullptr);
    REQUIRE(gzwrite(out, member.data(), static_cast<unsigned>(member.size())) ==
            static_cast<int>(member.size()));
    REQUIRE(gzclose(out) == Z_OK);
  }
  return file;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The message of the mpg::InputError that `read` throws, or "" if it throws none.
template <typename Read>
std::string input_error_message(Read read) {
  try {
    read();
  } catch (const mpg::InputError& error) {
    return error.what();
  }
  return "";
}

std::string read_file_error(const std::string& path) {
  return input_error_message([&] { (void)mpg::read_file(path); });
}

std::string optdigits_error(const std::string& path) {
  return input_error_message([&] { (void)mpg::read_optdigits(path); });
}

// One optdigits line: feature i (0-based) is features[i], then the class.
std::string optdigits_line(const std::array<int, 64>& features, int digit) {
  std::string line;
  for (const int value : features) line += std::to_string(value) + ",";
  return line + std::to_string(digit);
}

// The shared data folder: $MPG_DATA_DIR, else <source>/../shared/datasets.
std::string data_directory() {
  if (const char* dir = std::getenv("MPG_DATA_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::string(MPG_SOURCE_DIR) + "/../shared/datasets";
}

}  // namespace

TEST_CASE("read_libsvm reads a gzipped file as the plain one", "[data_files]") {
  TempDir dir("gz");
  const std::string text =
      "# a comment\n"
      "1 1:0.5 3:-2\n"
      "\n"
      "-1 2:1.25 7:3\r\n"
      "+1 1:1e-3 4:0 5:+7\n"
      "-1";
  const std::string plain = dir.write("small.svm", text);
  const std::string gzipped = write_gzip(dir, "small.svm.gz", {text});
  REQUIRE(file_bytes(gzipped).substr(0, 2) == "\x1f\x8b");
  CHECK(mpg::read_file(gzipped) == text);

  const mpg::LibsvmReadOptions options{.min_features = 9, .bias = 1.0};
  const mpg::LibsvmData expected = mpg::read_libsvm(plain, options);
  const mpg::LibsvmData data = mpg::read_libsvm(gzipped, options);
  CHECK(data.path == gzipped);
  REQUIRE(data.features.rows() == 4);
  REQUIRE(data.features.cols() == 10);
  CHECK(data.features.nonZeros() == expected.features.nonZeros());
  CHECK(Eigen::MatrixXd(data.features) == Eigen::MatrixXd(expected.features));
  CHECK(data.labels == expected.labels);
  CHECK(data.source_lines == expected.source_lines);
  CHECK(data.source_lines == std::vector<long>{2, 4, 5, 6});

  SECTION("several gzip members are one stream") {
    const std::string split = write_gzip(dir, "split.svm.gz", {text.substr(0, 20), text.substr(20)});
    CHECK(mpg::read_file(split) == text);
    CHECK(mpg::read_libsvm(split, options).labels == expected.labels);
  }

  SECTION("an empty gzip stream reads as an empty file") {
    const std::string empty = write_gzip(dir, "empty.svm.gz", {""});
    CHECK(mpg::read_file(empty).empty());
    CHECK(input_error_message([&] { (void)mpg::read_libsvm(empty); }) == empty + ": no examples");
  }

  SECTION("a long file that inflates far beyond the first buffer") {
    std::string long_text;
    for (int row = 0; row < 100000; ++row) long_text += row % 2 ? "1 1:1 2:0.5\n" : "-1 3:2\n";
    const std::string long_file = write_gzip(dir, "long.svm.gz", {long_text});
    CHECK(fs::file_size(long_file) * 50 < long_text.size());
    CHECK(mpg::read_file(long_file) == long_text);
    const mpg::LibsvmData long_data = mpg::read_libsvm(long_file);
    CHECK(long_data.features.rows() == 100000);
    CHECK(long_data.features.nonZeros() == 150000);
  }
}

TEST_CASE("read_file reports corrupt, truncated and non-gzip .gz files", "[data_files]") {
  TempDir dir("gz_errors");
  std::string text;
  for (int row = 0; row < 2000; ++row) {
    text += std::to_string(row % 3) + " 1:" + std::to_string(row) + "\n";
  }
  const std::string good = write_gzip(dir, "good.svm.gz", {text});
  const std::string bytes = file_bytes(good);
  REQUIRE(bytes.size() > 40);

  SECTION("checksum mismatch") {
    std::string corrupt = bytes;
    corrupt[corrupt.size() - 8] ^= 0x01;  // first byte of the CRC-32 trailer
    const std::string path = dir.write("crc.svm.gz", corrupt);
    CHECK(read_file_error(path) == path + ": corrupt gzip data (incorrect data check)");
    CHECK(input_error_message([&] { (void)mpg::read_libsvm(path); }) ==
          path + ": corrupt gzip data (incorrect data check)");
  }

  SECTION("damaged compressed data") {
    std::string corrupt = bytes;
    for (std::size_t i = 12; i < corrupt.size() - 8; i += 3) corrupt[i] = '\xff';
    const std::string path = dir.write("damaged.svm.gz", corrupt);
    CHECK_THAT(read_file_error(path), StartsWith(path + ": corrupt gzip data ("));
  }

  SECTION("truncated stream") {
    const std::string path = dir.write("truncated.svm.gz", bytes.substr(0, bytes.size() / 2));
    CHECK_THAT(read_file_error(path), StartsWith(path + ": truncated gzip data"));
    CHECK_THAT(input_error_message([&] { (void)mpg::read_libsvm(path); }),
               StartsWith(path + ": truncated gzip data"));
    const std::string no_trailer =
        dir.write("no_trailer.svm.gz", bytes.substr(0, bytes.size() - 4));
    CHECK_THAT(read_file_error(no_trailer), StartsWith(no_trailer + ": truncated gzip data"));
  }

  SECTION("not gzip at all") {
    const std::string path = dir.write("plain.svm.gz", text);
    CHECK(read_file_error(path) == path + ": not a gzip file");
    const std::string zero_bytes = dir.write("zero.svm.gz", "");
    CHECK(read_file_error(zero_bytes) == zero_bytes + ": not a gzip file");
  }

  SECTION("missing file and directory") {
    const std::string missing = dir.path().string() + "/missing.svm.gz";
    CHECK(read_file_error(missing) == missing + ": cannot open file");
    const std::string folder = dir.path().string() + "/folder.gz";
    fs::create_directories(folder);
    CHECK(read_file_error(folder) == folder + ": cannot open file");
  }
}

TEST_CASE("read_file reads plain files byte for byte", "[data_files]") {
  TempDir dir("plain");
  std::string bytes(300000, '\0');
  std::mt19937 random(11);
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xff);
  CHECK(mpg::read_file(dir.write("random.bin", bytes)) == bytes);
  CHECK(mpg::read_file(dir.write("empty.txt", "")).empty());
  CHECK(read_file_error(dir.path().string()) == dir.path().string() + ": cannot open file");
  CHECK(read_file_error(dir.path().string() + "/missing") == dir.path().string() + "/missing: cannot open file");
}

TEST_CASE("read_optdigits parses a small file", "[data_files]") {
  std::array<int, 64> first{};
  first[0] = 1;
  first[10] = 16;
  first[63] = 5;
  std::array<int, 64> second{};
  second[5] = 7;
  const std::array<int, 64> zeros{};
  const std::string text = optdigits_line(first, 3) + "\n\n" + optdigits_line(second, 0) +
                           "\r\n   \n" + optdigits_line(zeros, 9);  // no final newline
  TempDir dir("optdigits");
  const std::string path = dir.write("small.tra", text);

  SECTION("default options") {
    const mpg::LibsvmData data = mpg::read_optdigits(path);
    CHECK(data.path == path);
    REQUIRE(data.features.rows() == 3);
    REQUIRE(data.features.cols() == 64);
    CHECK(data.features.nonZeros() == 4);
    CHECK(data.features.coeff(0, 0) == 1.0);
    CHECK(data.features.coeff(0, 10) == 16.0);
    CHECK(data.features.coeff(0, 63) == 5.0);
    CHECK(data.features.coeff(1, 5) == 7.0);
    CHECK(data.features.row(2).nonZeros() == 0);
    CHECK(data.labels == std::vector<double>{3.0, 0.0, 9.0});
    CHECK(data.source_lines == std::vector<long>{1, 3, 5});
  }

  SECTION("bias column and min_features as in the LIBSVM reader") {
    const mpg::LibsvmData data = mpg::read_optdigits(path, {.bias = 1.0});
    REQUIRE(data.features.cols() == 65);
    CHECK(data.features.nonZeros() == 7);
    for (Eigen::Index row = 0; row < 3; ++row) CHECK(data.features.coeff(row, 64) == 1.0);
    const mpg::LibsvmData wide = mpg::read_optdigits(path, {.min_features = 70, .bias = 2.0});
    REQUIRE(wide.features.cols() == 71);
    CHECK(wide.features.coeff(1, 70) == 2.0);
    CHECK(wide.features.coeff(0, 63) == 5.0);
    CHECK(mpg::read_optdigits(path, {.min_features = 10}).features.cols() == 64);
  }

  SECTION("spaces around fields and a gzipped copy") {
    std::string spaced = " 0 , 1,\t2";
    for (int i = 3; i < 64; ++i) spaced += ",0";
    spaced += " , 4 \n";
    const mpg::LibsvmData data = mpg::read_optdigits(dir.write("spaced.tra", spaced));
    CHECK(data.features.coeff(0, 1) == 1.0);
    CHECK(data.features.coeff(0, 2) == 2.0);
    CHECK(data.labels == std::vector<double>{4.0});

    const mpg::LibsvmData gzipped = mpg::read_optdigits(write_gzip(dir, "small.tra.gz", {text}));
    CHECK(Eigen::MatrixXd(gzipped.features) == Eigen::MatrixXd(mpg::read_optdigits(path).features));
    CHECK(gzipped.labels == std::vector<double>{3.0, 0.0, 9.0});
  }
}

TEST_CASE("read_optdigits reports bad lines with file and line number", "[data_files]") {
  std::array<int, 64> features{};
  features[20] = 12;
  const std::string good = optdigits_line(features, 2);
  const std::string good_prefix = good.substr(0, good.rfind(','));  // the 64 features
  struct BadLine {
    std::string text;
    std::string expected;  // part of the message after "path:3: "
  };
  // Replaces field `field` (0-based) of the good line with `value`.
  const auto with_field = [&good](int field, const std::string& value) {
    std::size_t begin = 0;
    for (int i = 0; i < field; ++i) begin = good.find(',', begin) + 1;
    const std::size_t end = good.find(',', begin);
    return good.substr(0, begin) + value +
           (end == std::string::npos ? std::string() : good.substr(end));
  };
  const std::vector<BadLine> bad_lines = {
      {good_prefix, "expected 65 comma-separated fields (64 features and the class), got 64"},
      {good + ",1", "expected 65 comma-separated fields (64 features and the class), got 66"},
      {good + ",", "got 66"},
      {"1 2 3", "got 1"},
      {with_field(0, "x"), "feature 1 is not an integer: \"x\""},
      {with_field(7, "1.5"), "feature 8 is not an integer: \"1.5\""},
      {with_field(9, ""), "feature 10 is not an integer: \"\""},
      {with_field(9, "3 4"), "feature 10 is not an integer: \"3 4\""},
      {with_field(63, "17"), "feature 64 is 17, outside 0..16"},
      {with_field(2, "-1"), "feature 3 is -1, outside 0..16"},
      {with_field(2, "99999999999"), "feature 3 is 99999999999, outside 0..16"},
      {with_field(64, "10"), "class is 10, outside 0..9"},
      {with_field(64, "-1"), "class is -1, outside 0..9"},
      {with_field(64, "a"), "class is not an integer: \"a\""},
      {with_field(64, "3.0"), "class is not an integer: \"3.0\""},
  };
  TempDir dir("optdigits_errors");
  for (const BadLine& bad : bad_lines) {
    INFO("line: " << bad.text);
    const std::string path = dir.write("bad.tra", good + "\n\n" + bad.text + "\n" + good + "\n");
    CHECK_THAT(optdigits_error(path), StartsWith(path + ":3: ") && Contains(bad.expected));
  }
}

TEST_CASE("read_optdigits reports unreadable and empty files", "[data_files]") {
  TempDir dir("optdigits_files");
  const std::string missing = dir.path().string() + "/missing.tra";
  CHECK(optdigits_error(missing) == missing + ": cannot open file");
  const std::string empty = dir.write("empty.tra", "");
  CHECK(optdigits_error(empty) == empty + ": no examples");
  const std::string blank = dir.write("blank.tra", "\n  \r\n\t\n");
  CHECK(optdigits_error(blank) == blank + ": no examples");
}

TEST_CASE("the shared optdigits training file reads as published", "[data_files_shared]") {
  const std::string path = data_directory() + "/optdigits/optdigits.tra";
  if (!fs::exists(path)) {
    MPG_SKIP(path << " not found");
  }
  CHECK(mpg::sha256_file_hex(path) ==
        "e1b683cc211604fe8fd8c4417e6a69f31380e0c61d4af22e93cc21e9257ffedd");
  const mpg::LibsvmData data = mpg::read_optdigits(path);
  CHECK(data.features.rows() == 3823);
  CHECK(data.features.cols() == 64);
  CHECK(data.source_lines.back() == 3823);
  std::vector<int> counts(10, 0);
  for (const double label : data.labels) ++counts.at(static_cast<std::size_t>(label));
  CHECK(counts == std::vector<int>{376, 389, 380, 389, 387, 376, 377, 387, 380, 382});
  CHECK(data.features.coeffs().maxCoeff() <= 16.0);
  CHECK(data.features.coeffs().minCoeff() >= 1.0);
}

TEST_CASE("the shared adult a3a test file reads through gzip", "[data_files_shared]") {
  const std::string path = data_directory() + "/adult/a3a.t.gz";
  if (!fs::exists(path)) {
    MPG_SKIP(path << " not found");
  }
  const mpg::LibsvmData data = mpg::read_libsvm(path);
  CHECK(data.features.rows() == 29376);
  CHECK(data.features.cols() == 123);
  CHECK(data.source_lines.back() == 29376);
}
