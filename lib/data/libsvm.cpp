// LIBSVM reader: loads the whole file into memory with mpg::read_file (so .gz files are inflated),
// parses it in place with std::from_chars into CSR arrays and copies those into the row-major
// feature matrix.
#include "lib/data/libsvm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/limits.hpp"
#include "lib/base/numbers.hpp"
#include "lib/data/csr_matrix.hpp"

namespace mpg {
namespace {

using FeatureMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using StorageIndex = FeatureMatrix::StorageIndex;
constexpr long kMaxStorageIndex = std::numeric_limits<StorageIndex>::max();
static_assert(kMaxFeatureIndex < kMaxStorageIndex);

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Returns the next whitespace-separated token of `rest` and consumes it; empty at end of line.
std::string_view next_token(std::string_view& rest) {
  std::size_t begin = 0;
  while (begin < rest.size() && is_blank(rest[begin])) ++begin;
  std::size_t end = begin;
  while (end < rest.size() && !is_blank(rest[end])) ++end;
  const std::string_view token = rest.substr(begin, end - begin);
  rest.remove_prefix(end);
  return token;
}

// Parses all of `text` as a number: std::errc() on success, invalid_argument on any malformed or
// trailing characters, result_out_of_range on overflow (an underflow of a double reads as 0, see
// mpg::parse_double). A leading '+' is accepted.
template <typename Number>
std::errc parse_number(std::string_view text, Number& value) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  if constexpr (std::is_same_v<Number, double>) return parse_double(text, value);
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc() && stop != end) return std::errc::invalid_argument;
  return error;
}

double parse_label(std::string_view token, const std::string& path, long line) {
  double label = 0.0;
  const std::errc error = parse_number(token, label);
  if (error == std::errc::result_out_of_range) {
    throw InputError(path, line, fmt::format("label is out of range: {}", excerpt(token)));
  }
  if (error != std::errc()) {
    const char* hint = token.find(':') != std::string_view::npos ? " (is the label missing?)" : "";
    throw InputError(path, line, fmt::format("expected a numeric label, got {}{}", excerpt(token), hint));
  }
  if (!std::isfinite(label)) {
    throw InputError(path, line, fmt::format("label is not finite: {}", excerpt(token)));
  }
  return label;
}

long parse_index(std::string_view text, const std::string& path, long line) {
  if (text == "qid") {
    throw InputError(path, line, "qid:<n> tokens (LETOR ranking format) are not supported");
  }
  long index = 0;
  if (parse_number(text, index) != std::errc() || index < 1) {
    throw InputError(path, line,
                     fmt::format("feature index must be a positive integer, got {}", excerpt(text)));
  }
  if (index > kMaxFeatureIndex) {
    throw InputError(path, line,
                     fmt::format("feature index {} is above the limit {} (weight vectors are dense, sized by the "
                                 "largest index; renumber the features)", index, kMaxFeatureIndex));
  }
  return index;
}

double parse_value(std::string_view text, long index, const std::string& path, long line) {
  double value = 0.0;
  const std::errc error = parse_number(text, value);
  if (error == std::errc::result_out_of_range) {
    throw InputError(path, line,
                     fmt::format("value of feature {} is out of range: {}", index, excerpt(text)));
  }
  if (error != std::errc()) {
    throw InputError(path, line,
                     fmt::format("value of feature {} is not a number: {}", index, excerpt(text)));
  }
  if (!std::isfinite(value)) {
    throw InputError(path, line,
                     fmt::format("value of feature {} is not finite: {}", index, excerpt(text)));
  }
  if (std::abs(value) > kMaxFeatureValue) {
    throw InputError(path, line,
                     fmt::format("value of feature {} is {}, beyond +-{:g} (scale the features)", index, excerpt(text),
                                 kMaxFeatureValue));
  }
  return value;
}

// Parsed rows in CSR form, before the column count is final.
struct ParsedRows {
  std::vector<StorageIndex> row_starts{0};
  std::vector<StorageIndex> columns;  // 0-based column of each stored entry
  std::vector<double> values;
  long max_index = 0;
};

// Parses the file contents, appending labels and line numbers to `data`. With a bias, each row
// ends with a bias entry whose column is a placeholder, fixed once the column count is known.
ParsedRows parse_rows(std::string_view text, double bias, LibsvmData& data) {
  const std::string& path = data.path;
  const bool add_bias = bias > 0;
  const auto line_estimate = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  // Each "index:value" token has one ':', so counting them bounds the number of stored entries.
  const auto entry_estimate = static_cast<std::size_t>(std::count(text.begin(), text.end(), ':')) +
                              (add_bias ? line_estimate + 1 : 0);
  data.labels.reserve(line_estimate + 1);
  data.source_lines.reserve(line_estimate + 1);
  ParsedRows rows;
  rows.row_starts.reserve(line_estimate + 2);
  rows.columns.reserve(entry_estimate);
  rows.values.reserve(entry_estimate);

  for (long line_number = 1; !text.empty(); ++line_number) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    line = line.substr(0, line.find('#'));  // drop comments, whole-line or trailing

    const std::string_view label_token = next_token(line);
    if (label_token.empty()) continue;
    data.labels.push_back(parse_label(label_token, path, line_number));
    data.source_lines.push_back(line_number);

    long previous_index = 0;
    for (std::string_view token = next_token(line); !token.empty(); token = next_token(line)) {
      const std::size_t colon = token.find(':');
      if (colon == std::string_view::npos) {
        throw InputError(path, line_number,
                         fmt::format("expected <index>:<value>, got {}", excerpt(token)));
      }
      const long index = parse_index(token.substr(0, colon), path, line_number);
      if (index == previous_index) {
        throw InputError(path, line_number, fmt::format("duplicate feature index {}", index));
      }
      if (index < previous_index) {
        throw InputError(path, line_number,
                         fmt::format("feature indices must be increasing, got {} after {}", index,
                                     previous_index));
      }
      const double value = parse_value(token.substr(colon + 1), index, path, line_number);
      previous_index = index;
      if (value != 0.0) {
        rows.columns.push_back(static_cast<StorageIndex>(index - 1));
        rows.values.push_back(value);
      }
    }
    rows.max_index = std::max(rows.max_index, previous_index);
    if (add_bias) {
      rows.columns.push_back(0);
      rows.values.push_back(bias);
    }
    if (rows.values.size() > static_cast<std::size_t>(kMaxStorageIndex)) {
      throw InputError(path, line_number, "too many nonzero entries for the sparse matrix");
    }
    rows.row_starts.push_back(static_cast<StorageIndex>(rows.values.size()));
  }
  return rows;
}

}  // namespace

LibsvmData read_libsvm(const std::string& path, const LibsvmReadOptions& options) {
  return parse_libsvm(read_file(path), path, options);
}

LibsvmData parse_libsvm(std::string_view text, const std::string& path, const LibsvmReadOptions& options) {
  LibsvmData data;
  data.path = path;
  ParsedRows rows = parse_rows(text, options.bias, data);
  if (data.labels.empty()) throw InputError(path, "no examples");

  long column_count = std::max(options.min_features, rows.max_index);
  if (options.bias > 0) {
    if (column_count > kMaxStorageIndex) {
      throw Error(fmt::format("{}: bias column index {} is too large", path, column_count));
    }
    for (std::size_t row = 1; row < rows.row_starts.size(); ++row) {
      rows.columns[rows.row_starts[row] - 1] = static_cast<StorageIndex>(column_count);
    }
    ++column_count;
  }

  data.features = csr_matrix(static_cast<long>(data.labels.size()), column_count, rows.row_starts, rows.columns,
                             rows.values);
  return data;
}

FeatureMatrix csr_matrix(long rows, long cols, const std::vector<int>& row_starts, const std::vector<int>& columns,
                         const std::vector<double>& values) {
  // Filled in place: assigning an Eigen::Map of the arrays allocated O(cols) (untouched memory in
  // a plain build, but gigabytes under AddressSanitizer for one huge index; found by fuzz_libsvm).
  FeatureMatrix matrix(rows, cols);
  matrix.resizeNonZeros(static_cast<Eigen::Index>(values.size()));
  std::copy(row_starts.begin(), row_starts.end(), matrix.outerIndexPtr());
  std::copy(columns.begin(), columns.end(), matrix.innerIndexPtr());
  std::copy(values.begin(), values.end(), matrix.valuePtr());
  return matrix;
}

std::vector<int> binarize_labels(const std::vector<double>& labels, double positive_label) {
  std::vector<int> binary(labels.size());
  std::transform(labels.begin(), labels.end(), binary.begin(),
                 [positive_label](double label) { return label == positive_label ? 1 : 0; });
  return binary;
}

}  // namespace mpg
