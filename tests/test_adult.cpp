// The raw UCI Adult reader (lib/data/adult): the 123-feature a9a-style encoding of hand-checked
// records, missing values, error messages, and on the shared data: encoding adult.data reproduces
// the rows of LIBSVM's a1a, a3a and a4a (train and test parts together) as multisets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/data/adult.hpp"
#include "lib/data/libsvm.hpp"
#include "tests/shared_data.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace mpg;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// 1-based feature indices of row i.
std::vector<long> indices_of(const LibsvmData& data, long i) {
  std::vector<long> out;
  for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(data.features, i); it; ++it) {
    if (it.value() != 0.0) out.push_back(it.col() + 1);
  }
  return out;
}

std::string adult_error(const std::string& path) {
  return mpg::testing::input_error_of([&] { (void)read_adult(path); });
}

// (label, indices) -> count over every row of `data`.
using RowMultiset = std::map<std::pair<double, std::vector<long>>, long>;
void add_rows(const LibsvmData& data, RowMultiset& rows) {
  for (long i = 0; i < data.features.rows(); ++i) ++rows[{data.labels[static_cast<std::size_t>(i)], indices_of(data, i)}];
}

}  // namespace

TEST_CASE("read_adult encodes records as the a9a features", "[adult]") {
  TempDir dir("adult");
  const std::string path = dir.write(
      "adult.test",
      "|1x3 Cross validator\n"
      "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n"
      "\n"
      "50, Self-emp-inc, 259866, Doctorate, 16, Married-civ-spouse, Exec-managerial, Husband, Asian-Pac-Islander, Female, 0, 1902, 60, ?, >50K.\n"
      "25, ?, 106627, 11th, 7, Never-married, ?, Own-child, Black, Male, 0, 0, 34, Holand-Netherlands, <=50K.\n");
  LibsvmReadOptions options;
  options.bias = 100.0;
  const LibsvmData data = read_adult(path, options);
  REQUIRE(data.features.rows() == 3);
  CHECK(data.features.cols() == kAdultFeatures + 1);
  CHECK(data.labels == std::vector<double>{-1.0, 1.0, -1.0});
  CHECK(data.source_lines == std::vector<long>{2, 4, 5});
  // Row 1 is LIBSVM a3a's first row: 3 11 14 19 39 42 55 64 67 73 75 76 80 83 (+ bias 124).
  CHECK(indices_of(data, 0) == std::vector<long>{3, 11, 14, 19, 39, 42, 55, 64, 67, 73, 75, 76, 80, 83, 124});
  // age 50 -> 5, Self-emp-inc -> 8, fnlwgt above 259865 -> 18, Doctorate -> 32, 16 -> 39,
  // Married-civ-spouse -> 40, Exec-managerial -> 51, Husband -> 63, Asian-Pac-Islander -> 68,
  // Female -> 72, gain 0 -> 74, loss > 0 -> 77, 60 hours -> 82, country missing.
  CHECK(indices_of(data, 1) == std::vector<long>{5, 8, 18, 32, 39, 40, 51, 63, 68, 72, 74, 77, 82, 124});
  // Missing workclass and occupation; boundary values 25, 106627, 34 fall in the lower bins.
  CHECK(indices_of(data, 2) == std::vector<long>{1, 14, 21, 35, 42, 62, 71, 73, 74, 76, 78, 123, 124});
  CHECK(data.features.coeff(0, kAdultFeatures) == 100.0);
}

TEST_CASE("read_adult names the file and line of bad records", "[adult]") {
  TempDir dir("adult_errors");
  const std::string good =
      "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n";
  CHECK_THAT(adult_error(dir.write("a", good + "39, State-gov, 77516\n")),
             StartsWith(dir.file("a") + ":2: expected 15 comma-separated fields, got 3"));
  CHECK_THAT(adult_error(dir.write("b", "x9, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
                                        "Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n")),
             StartsWith(dir.file("b") + ":1: age is not an integer: \"x9\""));
  CHECK_THAT(adult_error(dir.write("c", "39, State, 77516, Bachelors, 13, Never-married, Adm-clerical, "
                                        "Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n")),
             Contains("unknown workclass \"State\""));
  CHECK_THAT(adult_error(dir.write("d", "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, "
                                        "Not-in-family, White, Male, 2174, 0, 40, United-States, 50K\n")),
             Contains("income must be"));
  CHECK_THAT(adult_error(dir.write("e", "|1x3 Cross validator\n\n")), Contains("no examples"));
  CHECK_THAT(adult_error(dir.file("missing")), StartsWith(dir.file("missing")));
}

TEST_CASE("the Adult encoding reproduces LIBSVM a1a, a3a and a4a from adult.data", "[adult_shared]") {
  const fs::path folder = fs::path(mpg::testing::shared_data_directory()) / "adult";
  if (!fs::exists(folder / "adult.data.gz") || !fs::exists(folder / "a3a")) {
    MPG_SKIP("the Adult files are not in " << folder.string());
  }
  const LibsvmData encoded = read_adult((folder / "adult.data.gz").string());
  REQUIRE(encoded.features.rows() == 32561);
  RowMultiset ours;
  add_rows(encoded, ours);
  LibsvmReadOptions options;
  options.min_features = kAdultFeatures;
  for (const std::string name : {"a1a", "a3a", "a4a"}) {
    RowMultiset theirs;
    add_rows(read_libsvm((folder / name).string(), options), theirs);
    add_rows(read_libsvm((folder / (name + ".t.gz")).string(), options), theirs);
    INFO(name);
    CHECK(theirs == ours);
  }
  const LibsvmData test = read_adult((folder / "adult.test.gz").string());
  CHECK(test.features.rows() == 16281);
  long positives = 0;
  for (const double y : test.labels) positives += y > 0 ? 1 : 0;
  CHECK(positives == 3846);
}
