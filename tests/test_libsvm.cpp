// Tests for the LIBSVM reader: parsing, options, line numbers and error messages.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"
#include "lib/base/error.hpp"
#include "lib/data/libsvm.hpp"

namespace fs = std::filesystem;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// The message of the mpg::InputError thrown when reading `path`, or "" if it reads fine.
std::string input_error_message(const std::string& path) {
  try {
    (void)mpg::read_libsvm(path);
  } catch (const mpg::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("read_libsvm parses a small file", "[libsvm]") {
  TempDir dir("small");
  const std::string path = dir.write("small.svm",
                                     "1 1:0.5 3:-2\n"
                                     "-1 2:1.25\n"
                                     "+1 1:1e-3 4:0 5:+7\n");

  SECTION("default options") {
    const mpg::LibsvmData data = mpg::read_libsvm(path);
    CHECK(data.path == path);
    REQUIRE(data.features.rows() == 3);
    REQUIRE(data.features.cols() == 5);
    CHECK(data.features.nonZeros() == 5);  // the explicit zero 4:0 is dropped
    CHECK(data.features.coeff(0, 0) == 0.5);
    CHECK(data.features.coeff(0, 2) == -2.0);
    CHECK(data.features.coeff(1, 1) == 1.25);
    CHECK(data.features.coeff(2, 0) == 1e-3);
    CHECK(data.features.coeff(2, 3) == 0.0);
    CHECK(data.features.coeff(2, 4) == 7.0);
    CHECK(data.features.coeff(1, 0) == 0.0);
    CHECK(data.labels == std::vector<double>{1.0, -1.0, 1.0});
    CHECK(data.source_lines == std::vector<long>{1, 2, 3});
  }

  SECTION("min_features smaller than the largest index has no effect") {
    const mpg::LibsvmData data = mpg::read_libsvm(path, {.min_features = 3});
    CHECK(data.features.cols() == 5);
  }

  SECTION("min_features widens the matrix and the bias column follows it") {
    const mpg::LibsvmData data = mpg::read_libsvm(path, {.min_features = 8, .bias = 1.0});
    REQUIRE(data.features.cols() == 9);
    CHECK(data.features.nonZeros() == 8);
    for (Eigen::Index row = 0; row < 3; ++row) CHECK(data.features.coeff(row, 8) == 1.0);
    CHECK(data.features.coeff(0, 2) == -2.0);
  }

  SECTION("bias column right after the largest index") {
    const mpg::LibsvmData data = mpg::read_libsvm(path, {.bias = 2.5});
    REQUIRE(data.features.cols() == 6);
    for (Eigen::Index row = 0; row < 3; ++row) CHECK(data.features.coeff(row, 5) == 2.5);
    CHECK(data.features.coeff(2, 4) == 7.0);
  }
}

TEST_CASE("read_libsvm skips blank and comment lines and keeps line numbers", "[libsvm]") {
  TempDir dir("comments");
  const std::string path = dir.write("comments.svm",
                                     "# header comment\n"
                                     "\n"
                                     "1 1:1\n"
                                     "   \t \n"
                                     "\t# indented comment\n"
                                     "-1\t2:2 \t # trailing comment\n"
                                     "3 3:3#tight comment\n"
                                     "0\n");
  const mpg::LibsvmData data = mpg::read_libsvm(path);
  CHECK(data.labels == std::vector<double>{1.0, -1.0, 3.0, 0.0});
  CHECK(data.source_lines == std::vector<long>{3, 6, 7, 8});
  REQUIRE(data.features.rows() == 4);
  CHECK(data.features.cols() == 3);
  CHECK(data.features.coeff(1, 1) == 2.0);
  CHECK(data.features.coeff(2, 2) == 3.0);
  CHECK(data.features.row(3).nonZeros() == 0);  // a label without features is an empty row
}

TEST_CASE("read_libsvm accepts CRLF endings and a missing final newline", "[libsvm]") {
  TempDir dir("crlf");
  const std::string path = dir.write("crlf.svm", "1 1:0.5 2:1 \r\n\r\n-1 2:-1\r\n1 3:4");
  const mpg::LibsvmData data = mpg::read_libsvm(path);
  CHECK(data.labels == std::vector<double>{1.0, -1.0, 1.0});
  CHECK(data.source_lines == std::vector<long>{1, 3, 4});
  REQUIRE(data.features.cols() == 3);
  CHECK(data.features.coeff(0, 1) == 1.0);
  CHECK(data.features.coeff(1, 1) == -1.0);
  CHECK(data.features.coeff(2, 2) == 4.0);

  const std::string bad = dir.write("bad_crlf.svm", "1 1:1\r\n\r\nabc 1:1\r\n");
  CHECK(input_error_message(bad) == bad + ":3: expected a numeric label, got \"abc\"");
}

TEST_CASE("read_libsvm reports malformed lines with file and line number", "[libsvm]") {
  struct BadLine {
    std::string text;
    std::string expected;  // part of the message after "path:3: "
  };
  const std::vector<BadLine> bad_lines = {
      {"abc 1:0.5", "expected a numeric label, got \"abc\""},
      {"1:0.5 2:1", "expected a numeric label, got \"1:0.5\" (is the label missing?)"},
      {"nan 1:1", "label is not finite: \"nan\""},
      {"-inf 1:1", "label is not finite: \"-inf\""},
      {"1e999 1:1", "label is out of range: \"1e999\""},
      {"1 1:abc", "value of feature 1 is not a number: \"abc\""},
      {"1 2:", "value of feature 2 is not a number: \"\""},
      {"1 1:2:3", "value of feature 1 is not a number: \"2:3\""},
      {"1 1:nan", "value of feature 1 is not finite: \"nan\""},
      {"1 1:1 2:inf", "value of feature 2 is not finite: \"inf\""},
      {"1 1:1e999", "value of feature 1 is out of range: \"1e999\""},  // 1e-999 reads as 0 (tests/test_bad_input.cpp)
      {"1 3-0.5", "expected <index>:<value>, got \"3-0.5\""},
      {"1 0:1", "feature index must be a positive integer, got \"0\""},
      {"1 -2:1", "feature index must be a positive integer, got \"-2\""},
      {"1 1.5:1", "feature index must be a positive integer, got \"1.5\""},
      {"1 :1", "feature index must be a positive integer, got \"\""},
      {"1 3000000000:1", "feature index 3000000000 is above the limit 16777216"},
      {"1 16777217:1", "feature index 16777217 is above the limit 16777216"},
      {"1 1:1e13", "value of feature 1 is \"1e13\", beyond +-1e+12"},
      {"1 3:1 2:1", "feature indices must be increasing, got 2 after 3"},
      {"1 2:1 2:3", "duplicate feature index 2"},
      {"1 qid:3 1:0.5", "qid:<n> tokens (LETOR ranking format) are not supported"},
  };
  TempDir dir("errors");
  for (const BadLine& bad : bad_lines) {
    INFO("line: " << bad.text);
    const std::string path = dir.write("bad.svm", "1 1:0.5\n# comment\n" + bad.text + "\n2 1:1\n");
    const std::string message = input_error_message(path);
    CHECK_THAT(message, StartsWith(path + ":3: ") && Contains(bad.expected));
  }
}

TEST_CASE("read_libsvm reports unreadable and empty files", "[libsvm]") {
  TempDir dir("files");
  const std::string missing = dir.path().string() + "/missing.svm";
  CHECK(input_error_message(missing) == missing + ": cannot open file");
  CHECK(input_error_message(dir.path().string()) == dir.path().string() + ": cannot open file");

  const std::string empty = dir.write("empty.svm", "");
  CHECK(input_error_message(empty) == empty + ": no examples");
  const std::string only_comments = dir.write("comments.svm", "# nothing\n\n  \r\n# here\n");
  CHECK(input_error_message(only_comments) == only_comments + ": no examples");
}

TEST_CASE("binarize_labels marks the positive label", "[libsvm]") {
  CHECK(mpg::binarize_labels({1.0, -1.0, -1.0, 1.0}, 1.0) == std::vector<int>{1, 0, 0, 1});
  CHECK(mpg::binarize_labels({1.0, -1.0, -1.0, 1.0}, -1.0) == std::vector<int>{0, 1, 1, 0});
  const std::vector<double> digits = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3};
  CHECK(mpg::binarize_labels(digits, 3.0) == std::vector<int>{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1});
  CHECK(mpg::binarize_labels(digits, 10.0) == std::vector<int>(digits.size(), 0));
  CHECK(mpg::binarize_labels({}, 1.0).empty());
}

TEST_CASE("read_libsvm reads the shared syn200 benchmark file", "[libsvm_shared]") {
  const std::string path = std::string(MPG_SOURCE_DIR) + "/../shared/bench/syn200.train";
  if (!fs::exists(path)) {
    MPG_SKIP(path << " not found");
  }
  const mpg::LibsvmData data = mpg::read_libsvm(path);
  CHECK(data.features.rows() == 200);
  CHECK(data.features.cols() == 10);
  REQUIRE(data.labels.size() == 200);
  CHECK(std::set<double>(data.labels.begin(), data.labels.end()) == std::set<double>{-1.0, 1.0});
  CHECK(data.source_lines.front() == 1);
  CHECK(data.source_lines.back() == 200);

  const mpg::LibsvmData with_bias = mpg::read_libsvm(path, {.bias = 1.0});
  REQUIRE(with_bias.features.cols() == 11);
  CHECK(with_bias.features.col(10).sum() == 200.0);
}
