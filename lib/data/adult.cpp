#include "lib/data/adult.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/lines.hpp"
#include "lib/data/text_rows.hpp"

namespace mpg {
namespace {

constexpr std::size_t kFields = 15;

// One attribute's block of features: a numeric attribute binned by upper bounds (bin k holds
// values <= upper[k], the last bin the rest) or a categorical one by its list of values.
struct Attribute {
  const char* name;
  std::vector<long> upper;                // numeric
  std::vector<std::string_view> values;   // categorical (adult.names order)
  std::size_t width() const { return values.empty() ? upper.size() + 1 : values.size(); }
};

const std::array<Attribute, 14>& attributes() {
  static const std::array<Attribute, 14> table = {{
      {"age", {25, 32, 40, 49}, {}},
      {"workclass", {}, {"Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov",
                         "State-gov", "Without-pay", "Never-worked"}},
      {"fnlwgt", {106627, 158656, 196332, 259865}, {}},
      {"education", {}, {"Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm",
                         "Assoc-voc", "9th", "7th-8th", "12th", "Masters", "1st-4th", "10th",
                         "Doctorate", "5th-6th", "Preschool"}},
      {"education-num", {8, 9, 10, 12}, {}},
      {"marital-status", {}, {"Married-civ-spouse", "Divorced", "Never-married", "Separated",
                              "Widowed", "Married-spouse-absent", "Married-AF-spouse"}},
      {"occupation", {}, {"Tech-support", "Craft-repair", "Other-service", "Sales",
                          "Exec-managerial", "Prof-specialty", "Handlers-cleaners",
                          "Machine-op-inspct", "Adm-clerical", "Farming-fishing",
                          "Transport-moving", "Priv-house-serv", "Protective-serv",
                          "Armed-Forces"}},
      {"relationship", {}, {"Wife", "Own-child", "Husband", "Not-in-family", "Other-relative",
                            "Unmarried"}},
      {"race", {}, {"White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"}},
      {"sex", {}, {"Female", "Male"}},
      {"capital-gain", {0}, {}},
      {"capital-loss", {0}, {}},
      {"hours-per-week", {34, 39, 40, 47}, {}},
      {"native-country", {}, {"United-States", "Cambodia", "England", "Puerto-Rico", "Canada",
                              "Germany", "Outlying-US(Guam-USVI-etc)", "India", "Japan", "Greece",
                              "South", "China", "Cuba", "Iran", "Honduras", "Philippines", "Italy",
                              "Poland", "Jamaica", "Vietnam", "Mexico", "Portugal", "Ireland",
                              "France", "Dominican-Republic", "Laos", "Ecuador", "Taiwan", "Haiti",
                              "Columbia", "Hungary", "Guatemala", "Nicaragua", "Scotland",
                              "Thailand", "Yugoslavia", "El-Salvador", "Trinadad&Tobago", "Peru",
                              "Hong", "Holand-Netherlands"}},
  }};
  return table;
}

}  // namespace

LibsvmData read_adult(const std::string& path, const LibsvmReadOptions& options) {
  LibsvmData data;
  data.path = path;
  text_rows::SparseRowBuilder builder(path, options.bias);
  std::vector<std::string_view> fields;
  {
    const std::string contents = read_file(path);
    for_each_line(contents, [&](long line_number, std::string_view raw_line) {
      const std::string_view line = text_rows::trim(raw_line);
      if (line.empty() || line.front() == '|') return;
      text_rows::split(line, ',', fields);
      if (fields.size() != kFields) {
        throw InputError(path, line_number,
                         fmt::format("expected {} comma-separated fields, got {}", kFields, fields.size()));
      }
      long first_column = 0;
      for (std::size_t a = 0; a < attributes().size(); ++a) {
        const Attribute& attribute = attributes()[a];
        const std::string_view field = fields[a];
        if (field != "?") {
          long bin = 0;
          if (attribute.values.empty()) {
            long value = 0;
            if (!text_rows::parse_long(field, value)) {
              throw InputError(path, line_number,
                               fmt::format("{} is not an integer: {}", attribute.name, excerpt(field)));
            }
            // The number of upper bounds below the value.
            bin = std::lower_bound(attribute.upper.begin(), attribute.upper.end(), value) -
                  attribute.upper.begin();
          } else {
            const auto found = std::find(attribute.values.begin(), attribute.values.end(), field);
            if (found == attribute.values.end()) {
              throw InputError(path, line_number,
                               fmt::format("unknown {} {}", attribute.name, excerpt(field)));
            }
            bin = found - attribute.values.begin();
          }
          builder.add(first_column + bin, 1.0);
        }
        first_column += static_cast<long>(attribute.width());
      }
      std::string_view income = fields[kFields - 1];
      if (!income.empty() && income.back() == '.') income.remove_suffix(1);
      if (income != ">50K" && income != "<=50K") {
        throw InputError(path, line_number,
                         fmt::format("income must be \">50K\" or \"<=50K\", got {}", excerpt(fields[kFields - 1])));
      }
      builder.end_row(line_number);
      data.labels.push_back(income == ">50K" ? 1.0 : -1.0);
      data.source_lines.push_back(line_number);
    });
  }
  if (data.labels.empty()) throw InputError(path, "no examples");
  data.features = builder.build(std::max(options.min_features, kAdultFeatures));
  return data;
}

}  // namespace mpg
