// Reader for LIBSVM sparse text files: "<label> <index>:<value> ..." one example per line,
// 1-based increasing feature indices. Blank lines and lines starting with '#' are skipped.
#pragma once

#include <Eigen/SparseCore>
#include <string>
#include <string_view>
#include <vector>

namespace mpg {

struct LibsvmData {
  std::string path;
  Eigen::SparseMatrix<double, Eigen::RowMajor> features;  // n x d (d = max index seen, or more)
  std::vector<double> labels;                             // length n, raw label values
  std::vector<long> source_lines;                         // line number of each example in the file
};

struct LibsvmReadOptions {
  // Feature columns in the returned matrix: max(min_features, largest index in the file).
  long min_features = 0;
  // If > 0, append a constant bias feature with this value as the last column (reference code
  // appends 1). The bias column index is max(min_features, largest index) (0-based).
  double bias = 0.0;
};

// Reads a LIBSVM file. Throws mpg::InputError("<path>:<line>: <what>") on: missing or unreadable
// file, a non-numeric or non-finite label or value, a malformed "index:value" token, an index < 1,
// non-increasing indices on a line, or an empty file (no examples).
LibsvmData read_libsvm(const std::string& path, const LibsvmReadOptions& options = {});
// The same from text already in memory (`path` only names it in messages).
LibsvmData parse_libsvm(std::string_view text, const std::string& path, const LibsvmReadOptions& options = {});

// Binary 0/1 labels: 1 where the raw label equals positive_label, else 0.
std::vector<int> binarize_labels(const std::vector<double>& labels, double positive_label);

}  // namespace mpg
