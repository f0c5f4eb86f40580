// optdigits reader: parses the whole file in place with std::from_chars into CSR arrays, then
// copies them into the row-major feature matrix, as the LIBSVM reader does.
#include "lib/data/optdigits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>
#include <system_error>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/data/csr_matrix.hpp"

namespace mpg {
namespace {

using FeatureMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using StorageIndex = FeatureMatrix::StorageIndex;

constexpr long kFeatureCount = 64;
constexpr int kMaxFeature = 16;
constexpr int kMaxClass = 9;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// `text` without leading and trailing blanks.
std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

enum class FieldStatus { kOk, kNotInteger, kOutOfRange };

// Parses `field` as an integer in [low, high].
FieldStatus parse_field(std::string_view field, int low, int high, int& value) {
  const char* const end = field.data() + field.size();
  const auto [stop, error] = std::from_chars(field.data(), end, value);
  if (field.empty() || error == std::errc::invalid_argument || stop != end) {
    return FieldStatus::kNotInteger;
  }
  if (error == std::errc::result_out_of_range || value < low || value > high) {
    return FieldStatus::kOutOfRange;
  }
  return FieldStatus::kOk;
}

// Throws the error for a field that parse_field rejected; `what` names it ("feature 3", "class").
[[noreturn]] void throw_field_error(FieldStatus status, std::string_view what,
                                    std::string_view field, int low, int high,
                                    const std::string& path, long line) {
  if (status == FieldStatus::kNotInteger) {
    throw InputError(path, line, fmt::format("{} is not an integer: {}", what, excerpt(field)));
  }
  throw InputError(path, line, fmt::format("{} is {}, outside {}..{}", what, clipped(field), low, high));
}

}  // namespace

LibsvmData read_optdigits(const std::string& path, const LibsvmReadOptions& options) {
  return parse_optdigits(read_file(path), path, options);
}

LibsvmData parse_optdigits(std::string_view contents, const std::string& path, const LibsvmReadOptions& options) {
  LibsvmData data;
  data.path = path;
  const long column_count = std::max(options.min_features, kFeatureCount);
  const bool add_bias = options.bias > 0;
  if (column_count + (add_bias ? 1 : 0) > std::numeric_limits<StorageIndex>::max()) {
    throw Error(fmt::format("{}: {} feature columns are too many", path, column_count));
  }

  std::vector<StorageIndex> row_starts{0};
  std::vector<StorageIndex> columns;
  std::vector<double> values;
  {
    std::string_view text = contents;
    std::vector<std::string_view> fields;  // of the current line
    fields.reserve(kFeatureCount + 1);
    for (long line_number = 1; !text.empty(); ++line_number) {
      const std::size_t newline = text.find('\n');
      const std::string_view line = trim(text.substr(0, newline));
      text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
      if (line.empty()) continue;

      // Split first so that a wrong field count is reported before any bad value in it.
      fields.clear();
      for (std::string_view rest = line;;) {
        const std::size_t comma = rest.find(',');
        fields.push_back(trim(rest.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
      if (fields.size() != static_cast<std::size_t>(kFeatureCount + 1)) {
        throw InputError(path, line_number,
                         fmt::format("expected {} comma-separated fields ({} features and the "
                                     "class), got {}",
                                     kFeatureCount + 1, kFeatureCount, fields.size()));
      }

      for (long feature = 0; feature < kFeatureCount; ++feature) {
        int value = 0;
        const FieldStatus status = parse_field(fields[feature], 0, kMaxFeature, value);
        if (status != FieldStatus::kOk) {
          throw_field_error(status, fmt::format("feature {}", feature + 1), fields[feature], 0,
                            kMaxFeature, path, line_number);
        }
        if (value != 0) {
          columns.push_back(static_cast<StorageIndex>(feature));
          values.push_back(static_cast<double>(value));
        }
      }
      int digit = 0;
      const FieldStatus status = parse_field(fields[kFeatureCount], 0, kMaxClass, digit);
      if (status != FieldStatus::kOk) {
        throw_field_error(status, "class", fields[kFeatureCount], 0, kMaxClass, path, line_number);
      }
      if (add_bias) {
        columns.push_back(static_cast<StorageIndex>(column_count));
        values.push_back(options.bias);
      }
      if (values.size() > static_cast<std::size_t>(std::numeric_limits<StorageIndex>::max())) {
        throw InputError(path, line_number, "too many nonzero entries for the sparse matrix");
      }
      row_starts.push_back(static_cast<StorageIndex>(values.size()));
      data.labels.push_back(static_cast<double>(digit));
      data.source_lines.push_back(line_number);
    }
  }
  if (data.labels.empty()) throw InputError(path, "no examples");

  data.features = csr_matrix(static_cast<long>(data.labels.size()), column_count + (add_bias ? 1 : 0), row_starts,
                             columns, values);
  return data;
}

}  // namespace mpg
