// Multilabel readers (lib/data/multilabel): MULAN CSV rows and the LIBSVM multilabel layout,
// their error messages, and the shared Scene, Yeast, Siam (tmc2007-500) and RCV1 (top-944)
// files' sizes and label frequencies (thesis Table 2.2 where the data is the thesis').
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/data/multilabel.hpp"
#include "tests/shared_data.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace mpg;
using mpg::testing::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using mpg::testing::input_error_of;
using mpg::testing::shared_data_directory;

// Smallest and largest label frequency in percent.
std::pair<double, double> frequency_range(const MultilabelData& data) {
  double low = 100.0, high = 0.0;
  for (const auto& column : data.labels) {
    const double f = 100.0 * static_cast<double>(std::count(column.begin(), column.end(), 1)) /
                     static_cast<double>(column.size());
    low = std::min(low, f);
    high = std::max(high, f);
  }
  return {low, high};
}

}  // namespace

TEST_CASE("read_multilabel_csv splits features and label columns", "[multilabel]") {
  TempDir dir("mulan");
  const std::string path = dir.write("x.csv", "0.5,0,-1.25,1,0\n\n2,3e-1,0,0,1\r\n");
  MultilabelReadOptions options;
  options.labels = 2;
  options.bias = 100.0;
  const MultilabelData data = read_multilabel_csv(path, options);
  REQUIRE(data.examples() == 2);
  CHECK(data.features.cols() == 4);
  CHECK(data.features.coeff(0, 0) == 0.5);
  CHECK(data.features.coeff(0, 2) == -1.25);
  CHECK(data.features.coeff(1, 1) == 0.3);
  CHECK(data.features.coeff(1, 3) == 100.0);
  CHECK(data.labels == std::vector<std::vector<int>>{{1, 0}, {0, 1}});
  CHECK(data.source_lines == std::vector<long>{1, 3});

  CHECK_THAT(input_error_of([&] { (void)read_multilabel_csv(dir.write("a", "1,0,1\n1,0\n"), options); }),
             StartsWith(dir.file("a") + ":2: expected 3 comma-separated fields"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_csv(dir.write("b", "1,0,1\nx,1,0\n"), options); }),
             StartsWith(dir.file("b") + ":2: feature 1 is not a finite number: \"x\""));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_csv(dir.write("c", "1,1,0.5\n"), options); }),
             Contains("label 2 must be 0 or 1"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_csv(dir.write("d", "1,0\n"), options); }),
             Contains("leave no feature"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_csv(dir.write("e", "\n"), options); }), Contains("no examples"));
  options.labels = 0;
  CHECK_THROWS_AS(read_multilabel_csv(path, options), Error);
}

TEST_CASE("read_multilabel_svm reads label lists and sparse features", "[multilabel]") {
  TempDir dir("mlsvm");
  const std::string path = dir.write("x.svm", "0,2 1:1 4:0.5\n3:2\n1\n");
  MultilabelReadOptions options;
  options.labels = 3;
  options.min_features = 5;
  const MultilabelData data = read_multilabel_svm(path, options);
  REQUIRE(data.examples() == 3);
  CHECK(data.features.cols() == 5);
  CHECK(data.features.coeff(0, 3) == 0.5);
  CHECK(data.features.coeff(1, 2) == 2.0);
  CHECK(data.labels == std::vector<std::vector<int>>{{1, 0, 0}, {0, 0, 1}, {1, 0, 0}});

  CHECK_THAT(input_error_of([&] { (void)read_multilabel_svm(dir.write("a", "0,3 1:1\n"), options); }),
             StartsWith(dir.file("a") + ":1: label id must be an integer in [0, 3), got \"3\""));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_svm(dir.write("b", "0 1:1\n1,1 2:1\n"), options); }),
             StartsWith(dir.file("b") + ":2: label id 1 repeated"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_svm(dir.write("c", "0 2:1 1:1\n"), options); }),
             Contains("feature indices must be increasing"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_svm(dir.write("d", "0 0:1\n"), options); }),
             Contains("expected <index>:<value>"));
  CHECK_THAT(input_error_of([&] { (void)read_multilabel_svm(dir.write("e", "0 1:nan\n"), options); }),
             Contains("not a finite number"));
}

TEST_CASE("the shared multilabel files have the sizes and label frequencies of Table 2.2", "[multilabel_shared]") {
  const fs::path mulan = fs::path(shared_data_directory()) / "multilabel_mulan";
  const fs::path toolbox = fs::path(shared_data_directory()) / "multilabel_mlc_toolbox";
  if (!fs::exists(mulan / "scene-train.data.csv.gz") || !fs::exists(toolbox / "tmc2007-500.svm.xz")) {
    MPG_SKIP("the multilabel files are not in " << shared_data_directory());
  }
  MultilabelReadOptions scene_options;
  scene_options.labels = 6;
  const MultilabelData scene = read_multilabel_csv((mulan / "scene-train.data.csv.gz").string(), scene_options);
  CHECK(scene.examples() == 1211);
  CHECK(scene.features.cols() == 294);
  // Table 2.2: 13.6 / 22.8 (the thesis truncates 22.87).
  CHECK(frequency_range(scene).first == Approx(13.625).margin(1e-3));
  CHECK(frequency_range(scene).second == Approx(22.874).margin(1e-3));
  CHECK(read_multilabel_csv((mulan / "scene-test.data.csv.gz").string(), scene_options).examples() == 1196);

  MultilabelReadOptions yeast_options;
  yeast_options.labels = 14;
  const MultilabelData yeast = read_multilabel_csv((mulan / "yeast-train.data.csv.gz").string(), yeast_options);
  CHECK(yeast.examples() == 1500);
  CHECK(yeast.features.cols() == 103);
  // Table 2.2 prints 25.2 / 43.0; the file's labels range from 1.4 % to 75.2 %.
  CHECK(frequency_range(yeast).first == Approx(1.4).margin(1e-9));
  CHECK(frequency_range(yeast).second == Approx(75.2).margin(1e-9));
  CHECK(read_multilabel_csv((mulan / "yeast-test.data.csv.gz").string(), yeast_options).examples() == 917);

  MultilabelReadOptions siam_options;
  siam_options.labels = 22;
  siam_options.min_features = 500;
  const MultilabelData siam = read_multilabel_svm((toolbox / "tmc2007-500.svm.xz").string(), siam_options);
  CHECK(siam.examples() == 28596);
  CHECK(siam.features.cols() == 500);
  long label_total = 0;
  for (const auto& column : siam.labels) label_total += std::count(column.begin(), column.end(), 1);
  CHECK(static_cast<double>(label_total) / 28596.0 == Approx(2.2196).margin(1e-4));

  MultilabelReadOptions rcv1_options;
  rcv1_options.labels = 101;
  rcv1_options.min_features = 944;
  const MultilabelData rcv1 = read_multilabel_svm((toolbox / "rcv1subset1_top944.svm.xz").string(), rcv1_options);
  CHECK(rcv1.examples() == 6000);
  CHECK(rcv1.features.cols() == 944);
  label_total = 0;
  for (const auto& column : rcv1.labels) label_total += std::count(column.begin(), column.end(), 1);
  CHECK(static_cast<double>(label_total) / 6000.0 == Approx(2.8797).margin(1e-4));
}
