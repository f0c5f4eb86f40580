#include "lib/data/multilabel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string_view>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/lines.hpp"
#include "lib/data/text_rows.hpp"

namespace mpg {
namespace {

// An empty result with L label vectors; throws for L < 1.
MultilabelData empty_data(const std::string& path, const MultilabelReadOptions& options) {
  if (options.labels < 1) {
    throw Error(fmt::format("{}: the number of labels must be >= 1, got {}", path, options.labels));
  }
  MultilabelData data;
  data.path = path;
  data.labels.assign(static_cast<std::size_t>(options.labels), {});
  return data;
}

// The next blank-separated token of `rest`, consumed; empty at the end.
std::string_view next_token(std::string_view& rest) {
  rest = text_rows::trim(rest);
  const std::size_t end = std::min(rest.find(' '), rest.find('\t'));
  const std::string_view token = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  return token;
}

}  // namespace

MultilabelData read_multilabel_csv(const std::string& path, const MultilabelReadOptions& options) {
  MultilabelData data = empty_data(path, options);
  text_rows::SparseRowBuilder builder(path, options.bias);
  std::vector<std::string_view> fields;
  std::size_t expected_fields = 0;
  {
    const std::string contents = read_file(path);
    for_each_line(contents, [&](long line_number, std::string_view raw_line) {
      const std::string_view line = text_rows::trim(raw_line);
      if (line.empty()) return;
      text_rows::split(line, ',', fields);
      if (expected_fields == 0) {
        expected_fields = fields.size();
        if (expected_fields <= static_cast<std::size_t>(options.labels)) {
          throw InputError(path, line_number,
                           fmt::format("{} fields leave no feature before the {} label columns",
                                       fields.size(), options.labels));
        }
      } else if (fields.size() != expected_fields) {
        throw InputError(path, line_number,
                         fmt::format("expected {} comma-separated fields (as the first row), got {}",
                                     expected_fields, fields.size()));
      }
      const std::size_t features = expected_fields - static_cast<std::size_t>(options.labels);
      for (std::size_t j = 0; j < features; ++j) {
        double value = 0.0;
        if (!text_rows::parse_double(fields[j], value)) {
          throw InputError(path, line_number,
                           fmt::format("feature {} is not a finite number: {}", j + 1, excerpt(fields[j])));
        }
        builder.add(static_cast<long>(j), value);
      }
      for (long k = 0; k < options.labels; ++k) {
        const std::string_view field = fields[features + static_cast<std::size_t>(k)];
        if (field != "0" && field != "1") {
          throw InputError(path, line_number,
                           fmt::format("label {} must be 0 or 1, got {}", k + 1, excerpt(field)));
        }
        data.labels[static_cast<std::size_t>(k)].push_back(field == "1" ? 1 : 0);
      }
      builder.end_row(line_number);
      data.source_lines.push_back(line_number);
    });
  }
  if (data.source_lines.empty()) throw InputError(path, "no examples");
  data.features = builder.build(std::max<long>(options.min_features,
                                               static_cast<long>(expected_fields) - options.labels));
  return data;
}

MultilabelData read_multilabel_svm(const std::string& path, const MultilabelReadOptions& options) {
  MultilabelData data = empty_data(path, options);
  text_rows::SparseRowBuilder builder(path, options.bias);
  std::vector<std::string_view> ids;
  {
    const std::string contents = read_file(path);
    for_each_line(contents, [&](long line_number, std::string_view raw_line) {
      const std::string_view line = text_rows::trim(raw_line);
      if (line.empty()) return;
      std::string_view rest = line;
      std::string_view token = next_token(rest);
      for (auto& column : data.labels) column.push_back(0);
      if (token.find(':') == std::string_view::npos) {  // the label list
        text_rows::split(token, ',', ids);
        for (const std::string_view id : ids) {
          long k = 0;
          if (!text_rows::parse_long(id, k) || k < 0 || k >= options.labels) {
            throw InputError(path, line_number,
                             fmt::format("label id must be an integer in [0, {}), got {}",
                                         options.labels, excerpt(id)));
          }
          int& slot = data.labels[static_cast<std::size_t>(k)].back();
          if (slot == 1) throw InputError(path, line_number, fmt::format("label id {} repeated", k));
          slot = 1;
        }
        token = next_token(rest);
      }
      long previous = 0;
      for (; !token.empty(); token = next_token(rest)) {
        const std::size_t colon = token.find(':');
        long index = 0;
        double value = 0.0;
        if (colon == std::string_view::npos || !text_rows::parse_long(token.substr(0, colon), index) ||
            index < 1 || index > std::numeric_limits<int>::max()) {
          throw InputError(path, line_number,
                           fmt::format("expected <index>:<value> with an index >= 1, got {}", excerpt(token)));
        }
        if (index <= previous) {
          throw InputError(path, line_number,
                           fmt::format("feature indices must be increasing, got {} after {}", index, previous));
        }
        if (!text_rows::parse_double(token.substr(colon + 1), value)) {
          throw InputError(path, line_number,
                           fmt::format("value of feature {} is not a finite number: {}", index, excerpt(token.substr(colon + 1))));
        }
        builder.add(index - 1, value);
        previous = index;
      }
      builder.end_row(line_number);
      data.source_lines.push_back(line_number);
    });
  }
  if (data.source_lines.empty()) throw InputError(path, "no examples");
  data.features = builder.build(options.min_features);
  return data;
}

Eigen::MatrixXi label_matrix(const MultilabelData& data) {
  Eigen::MatrixXi out(data.examples(), data.label_count());
  for (long k = 0; k < data.label_count(); ++k) {
    for (long i = 0; i < data.examples(); ++i) out(i, k) = data.labels[static_cast<std::size_t>(k)][static_cast<std::size_t>(i)];
  }
  return out;
}

}  // namespace mpg
