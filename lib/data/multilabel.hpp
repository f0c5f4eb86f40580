// Readers for multilabel data (Parambath's thesis ch. 2: Scene, Yeast, RCV1, Siam; the structured
// AUC supplement's Yeast):
//   multilabel_csv: MULAN data rows without the ARFF header: d numeric features then L label
//                   columns of 0/1, comma-separated (scene: 294 + 6, yeast: 103 + 14);
//   multilabel_svm: the LIBSVM multilabel layout "<l1>,<l2>,... <index>:<value> ..." with
//                   0-based label ids and 1-based increasing feature indices; a line may have no
//                   label (it then starts with a feature token) or no feature.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

namespace mpg {

struct MultilabelData {
  std::string path;
  Eigen::SparseMatrix<double, Eigen::RowMajor> features;  // n x d (+ bias column last)
  // labels[k][i] = 1 iff example i has label k (L vectors of n entries): binary relevance trains
  // one classifier per vector.
  std::vector<std::vector<int>> labels;
  std::vector<long> source_lines;  // line number of each example in the file

  long examples() const { return static_cast<long>(source_lines.size()); }
  long label_count() const { return static_cast<long>(labels.size()); }
};

struct MultilabelReadOptions {
  long labels = 0;        // L >= 1: the number of label columns (csv) or label ids (svm)
  long min_features = 0;  // feature columns: max(min_features, columns found)
  double bias = 0.0;      // > 0: append a constant feature of this value as the last column
};

// Throws mpg::InputError("<path>:<line>: <what>") on: missing or unreadable file, a row whose
// field count differs from the first row's or leaves no feature, a feature that is not a finite
// number, a label other than 0/1, or an empty file.
MultilabelData read_multilabel_csv(const std::string& path, const MultilabelReadOptions& options);

// Throws mpg::InputError on: missing or unreadable file, a label id that is not an integer in
// [0, L) or repeated, a malformed "index:value" token, an index < 1, non-increasing indices, a
// non-finite value, or an empty file.
MultilabelData read_multilabel_svm(const std::string& path, const MultilabelReadOptions& options);

// The labels as an n x L matrix of 0/1 (entry (i, k) = labels[k][i]).
Eigen::MatrixXi label_matrix(const MultilabelData& data);

}  // namespace mpg
