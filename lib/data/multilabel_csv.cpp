#include "lib/data/multilabel_csv.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/lines.hpp"

namespace mpg {

MultilabelData read_multilabel_csv(const std::string& path, int labels) {
  if (labels < 1) throw Error("read_multilabel_csv: the number of labels must be >= 1");
  const std::string text = read_file(path);
  std::vector<double> values;
  long columns = -1, rows = 0;
  for_each_line(text, [&](long line_number, std::string_view line) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) return;
    long fields = 0;
    std::size_t start = 0;
    for (;;) {
      const auto comma = line.find(',', start);
      std::string_view field = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
      while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
      double value = 0.0;
      const auto [stop, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (error != std::errc() || stop != field.data() + field.size() || !std::isfinite(value))
        throw InputError(path, line_number, "field " + std::to_string(fields + 1) + " '" + std::string(field) + "' is not a number");
      values.push_back(value);
      ++fields;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (columns < 0) {
      if (fields <= labels)
        throw InputError(path, line_number, std::to_string(fields) + " fields leave no feature before the " +
                                                std::to_string(labels) + " labels");
      columns = fields;
    } else if (fields != columns) {
      throw InputError(path, line_number, std::to_string(fields) + " fields, the first row has " + std::to_string(columns));
    }
    for (long k = columns - labels; k < columns; ++k) {
      const double y = values[static_cast<std::size_t>(rows * columns + k)];
      if (y != 0.0 && y != 1.0)
        throw InputError(path, line_number, "label " + std::to_string(k - (columns - labels) + 1) + " is " +
                                                std::to_string(y) + ", not 0 or 1");
    }
    ++rows;
  });
  if (rows == 0) throw InputError(path, "no rows");
  MultilabelData data;
  data.path = path;
  const long d = columns - labels;
  data.features.resize(rows, d);
  data.labels.resize(rows, labels);
  for (long i = 0; i < rows; ++i)
    for (long k = 0; k < columns; ++k) {
      const double v = values[static_cast<std::size_t>(i * columns + k)];
      if (k < d) {
        data.features(i, k) = v;
      } else {
        data.labels(i, k - d) = static_cast<int>(v);
      }
    }
  return data;
}

}  // namespace mpg
