// Small pieces shared by the line-oriented readers of lib/data (lines come from
// lib/base/lines.hpp): blank trimming, comma splitting, strict number parsing, and a builder of
// the row-major sparse feature matrix (with the optional constant bias column).
#pragma once

#include <Eigen/SparseCore>
#include <string>
#include <string_view>
#include <vector>

namespace mpg::text_rows {

using FeatureMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using StorageIndex = FeatureMatrix::StorageIndex;

// `text` without leading and trailing blanks (space, tab, carriage return).
std::string_view trim(std::string_view text);

// The fields of `line` separated by `separator`, each trimmed.
void split(std::string_view line, char separator, std::vector<std::string_view>& fields);

// Parses all of `text` as a finite double (a leading '+' accepted); false otherwise.
bool parse_double(std::string_view text, double& value);
// Parses all of `text` as a long; false otherwise.
bool parse_long(std::string_view text, long& value);

// Collects rows of (column, value) entries, zeros dropped, then builds the matrix.
class SparseRowBuilder {
 public:
  // Errors name `path`; a positive `bias` appends a column of that constant after the last one.
  SparseRowBuilder(std::string path, double bias) : path_(std::move(path)), bias_(bias) {}

  // Adds an entry to the current row (columns need not be sorted across calls, but must be
  // increasing within a row for the reader's own checks to be meaningful).
  void add(long column, double value);
  // Ends the current row; `line` names it in a size error.
  void end_row(long line);
  long rows() const { return static_cast<long>(row_starts_.size()) - 1; }
  long max_column() const { return max_column_; }
  // The n x (max(min_columns, max_column + 1) [+ 1 with a bias]) matrix.
  FeatureMatrix build(long min_columns);

 private:
  std::string path_;
  double bias_;
  std::vector<StorageIndex> row_starts_{0};
  std::vector<StorageIndex> columns_;
  std::vector<double> values_;
  long max_column_ = -1;
};

}  // namespace mpg::text_rows
