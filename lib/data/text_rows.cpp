#include "lib/data/text_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "lib/base/error.hpp"

namespace mpg::text_rows {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

template <typename Number>
bool parse_all(std::string_view text, Number& value) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error == std::errc() && stop == end;
}

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

void split(std::string_view line, char separator, std::vector<std::string_view>& fields) {
  fields.clear();
  for (;;) {
    const std::size_t at = line.find(separator);
    fields.push_back(trim(line.substr(0, at)));
    if (at == std::string_view::npos) return;
    line.remove_prefix(at + 1);
  }
}

bool parse_double(std::string_view text, double& value) {
  return parse_all(text, value) && std::isfinite(value);
}

bool parse_long(std::string_view text, long& value) { return parse_all(text, value); }

void SparseRowBuilder::add(long column, double value) {
  max_column_ = std::max(max_column_, column);
  if (value == 0.0) return;
  columns_.push_back(static_cast<StorageIndex>(column));
  values_.push_back(value);
}

void SparseRowBuilder::end_row(long line) {
  if (bias_ > 0.0) {
    columns_.push_back(0);  // placeholder: the bias column is known only at build()
    values_.push_back(bias_);
  }
  if (values_.size() > static_cast<std::size_t>(std::numeric_limits<StorageIndex>::max())) {
    throw InputError(path_, line, "too many nonzero entries for the sparse matrix");
  }
  row_starts_.push_back(static_cast<StorageIndex>(values_.size()));
}

FeatureMatrix SparseRowBuilder::build(long min_columns) {
  long columns = std::max(min_columns, max_column_ + 1);
  if (columns + 1 > std::numeric_limits<StorageIndex>::max()) {
    throw Error(fmt::format("{}: {} feature columns are too many", path_, columns));
  }
  if (bias_ > 0.0) {
    for (std::size_t row = 1; row < row_starts_.size(); ++row) {
      columns_[static_cast<std::size_t>(row_starts_[row]) - 1] = static_cast<StorageIndex>(columns);
    }
    ++columns;
  }
  return Eigen::Map<const FeatureMatrix>(rows(), columns, static_cast<Eigen::Index>(values_.size()),
                                         row_starts_.data(), columns_.data(), values_.data());
}

}  // namespace mpg::text_rows
