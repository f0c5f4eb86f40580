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

// Limits of the reader (issue 28). The learners keep dense weight vectors (and the cutting-plane
// trainer dense cuts) of one entry per column, sized by the largest index, so an index sets the
// memory: 2^24 = 16,777,216 columns (128 MB per vector) cover every LIBSVM collection with a
// linear model in use (RCV1 47k, news20 1.36M, url 3.2M, webspam 16.6M) and reject a stray
// 900000000 with an error instead of exhausting memory. A feature value beyond 1e12 in magnitude
// makes potentials psi = theta . x beyond what a game resolves (kMaxPotential): scale the features.
inline constexpr long kMaxFeatureIndex = 1L << 24;
inline constexpr double kMaxFeatureValue = 1e12;

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
