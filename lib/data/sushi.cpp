#include "lib/data/sushi.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/lines.hpp"

namespace mpg {

namespace {

// Capitals of the prefectures in sushi3's numbering (README-en.txt), degrees north / east.
constexpr std::array<std::array<double, 2>, 47> kCapitals = {{
    {43.06, 141.35}, {40.82, 140.74}, {39.70, 141.15}, {39.72, 140.10}, {38.27, 140.87},  // 0-4
    {38.24, 140.36}, {37.75, 140.47}, {37.90, 139.02}, {36.34, 140.45}, {36.57, 139.88},  // 5-9
    {36.39, 139.06}, {35.86, 139.65}, {35.61, 140.12}, {35.69, 139.69}, {35.45, 139.64},  // 10-14
    {35.66, 138.57}, {34.98, 138.38}, {36.65, 138.18}, {35.18, 136.91}, {35.39, 136.72},  // 15-19
    {36.70, 137.21}, {36.59, 136.63}, {36.07, 136.22}, {35.00, 135.87}, {34.73, 136.51},  // 20-24
    {35.02, 135.76}, {34.69, 135.52}, {34.69, 135.83}, {34.23, 135.17}, {34.69, 135.18},  // 25-29
    {34.66, 133.93}, {34.40, 132.46}, {35.50, 134.24}, {35.47, 133.05}, {34.19, 131.47},  // 30-34
    {33.84, 132.77}, {34.34, 134.04}, {34.07, 134.56}, {33.56, 133.53}, {33.61, 130.42},  // 35-39
    {32.74, 129.87}, {33.25, 130.30}, {32.79, 130.74}, {31.56, 130.56}, {31.91, 131.42},  // 40-44
    {33.24, 131.61}, {26.21, 127.68},                                                    // 45-46
}};

constexpr int kItems = 100;

// Splits a line at runs of `separators`.
std::vector<std::string_view> fields_of(std::string_view line, std::string_view separators) {
  std::vector<std::string_view> out;
  std::size_t position = 0;
  while (position < line.size()) {
    const auto begin = line.find_first_not_of(separators, position);
    if (begin == std::string_view::npos) break;
    auto end = line.find_first_of(separators, begin);
    if (end == std::string_view::npos) end = line.size();
    out.push_back(line.substr(begin, end - begin));
    position = end;
  }
  return out;
}

// The non-blank, non-comment lines of a file with their 1-based numbers.
std::vector<std::pair<long, std::string>> data_lines(const std::string& path) {
  const std::string text = read_file(path);
  std::vector<std::pair<long, std::string>> out;
  for_each_line(text, [&](long number, std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') return;
    out.emplace_back(number, std::string(line));
  });
  if (out.empty()) throw InputError(path, "no data lines");
  return out;
}

double number_at(std::string_view field, const std::string& path, long line, const char* what) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || !std::isfinite(value))
    throw InputError(path, line, std::string("bad ") + what + " " + excerpt(field));
  return value;
}

int integer_at(std::string_view field, const std::string& path, long line, const char* what, int low, int high) {
  int value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || value < low || value > high)
    throw InputError(path, line, std::string("bad ") + what + " " + excerpt(field) + " (expected an integer in " +
                                     std::to_string(low) + ".." + std::to_string(high) + ")");
  return value;
}

}  // namespace

std::pair<double, double> sushi_prefecture_location(int prefecture) {
  if (prefecture >= 0 && prefecture < 47) return {kCapitals[prefecture][0], kCapitals[prefecture][1]};
  if (prefecture == 47) {
    double latitude = 0.0, longitude = 0.0;
    for (const auto& c : kCapitals) latitude += c[0], longitude += c[1];
    return {latitude / 47.0, longitude / 47.0};
  }
  throw Error("sushi prefecture id " + std::to_string(prefecture) + " is not in 0..47");
}

SushiPairs read_sushi_pairs(const std::string& scores_path, const std::string& items_path,
                            const std::string& users_path) {
  // Items: id, name, style, major, minor, oiliness, eating frequency, price, selling frequency.
  std::vector<std::array<double, 7>> items(kItems);
  std::vector<bool> seen(kItems, false);
  for (const auto& [line, text] : data_lines(items_path)) {
    const auto fields = fields_of(text, "\t");
    if (fields.size() != 9)
      throw InputError(items_path, line, "expected 9 tab-separated fields, got " + std::to_string(fields.size()));
    const int id = integer_at(fields[0], items_path, line, "item id", 0, kItems - 1);
    if (seen[static_cast<std::size_t>(id)]) throw InputError(items_path, line, "item " + std::to_string(id) + " repeated");
    seen[static_cast<std::size_t>(id)] = true;
    for (std::size_t k = 0; k < 7; ++k)
      items[static_cast<std::size_t>(id)][k] = number_at(fields[k + 2], items_path, line, "item feature");
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end())
    throw InputError(items_path, "expected items 0..99, some are missing");

  // Users: id, gender, age, time, prefecture/region/east-west until 15, now, moved.
  std::vector<std::array<double, 7>> users;
  for (const auto& [line, text] : data_lines(users_path)) {
    const auto fields = fields_of(text, "\t");
    if (fields.size() != 11)
      throw InputError(users_path, line, "expected 11 tab-separated fields, got " + std::to_string(fields.size()));
    std::array<double, 7> user{};
    user[0] = integer_at(fields[1], users_path, line, "gender", 0, 1);
    user[1] = integer_at(fields[2], users_path, line, "age group", 0, 5);
    user[2] = number_at(fields[3], users_path, line, "time");
    const auto young = sushi_prefecture_location(integer_at(fields[4], users_path, line, "prefecture", 0, 47));
    const auto now = sushi_prefecture_location(integer_at(fields[7], users_path, line, "prefecture", 0, 47));
    user[3] = young.first, user[4] = young.second, user[5] = now.first, user[6] = now.second;
    users.push_back(user);
  }

  SushiPairs out;
  std::vector<std::array<double, 14>> first, second;
  std::size_t row = 0;
  for (const auto& [line, text] : data_lines(scores_path)) {
    const auto fields = fields_of(text, " \t");
    if (fields.size() != static_cast<std::size_t>(kItems))
      throw InputError(scores_path, line, "expected 100 scores, got " + std::to_string(fields.size()));
    if (row >= users.size())
      throw InputError(scores_path, line, "more score rows than the " + std::to_string(users.size()) + " users of " + users_path);
    std::vector<std::pair<int, int>> rated;  // (score, item)
    for (int item = 0; item < kItems; ++item) {
      const int score = integer_at(fields[static_cast<std::size_t>(item)], scores_path, line, "score", -1, 4);
      if (score >= 0) rated.emplace_back(score, item);
    }
    std::sort(rated.begin(), rated.end());
    for (std::size_t k = 0; k + 1 < rated.size(); k += 2) {
      std::array<double, 14> a{}, b{};
      for (std::size_t f = 0; f < 7; ++f) {
        a[f] = items[static_cast<std::size_t>(rated[k].second)][f];
        b[f] = items[static_cast<std::size_t>(rated[k + 1].second)][f];
        a[f + 7] = b[f + 7] = users[row][f];
      }
      first.push_back(a);
      second.push_back(b);
      out.pairs.labels.push_back(rated[k + 1].first > rated[k].first ? 1 : 0);
      out.user.push_back(row);
      out.first_item.push_back(rated[k].second);
      out.second_item.push_back(rated[k + 1].second);
    }
    ++row;
  }
  if (row != users.size())
    throw InputError(scores_path, std::to_string(row) + " score rows for " + std::to_string(users.size()) + " users in " + users_path);
  const auto n = static_cast<long>(first.size());
  out.pairs.first.resize(n, 14);
  out.pairs.second.resize(n, 14);
  for (long i = 0; i < n; ++i)
    for (long f = 0; f < 14; ++f) {
      out.pairs.first(i, f) = first[static_cast<std::size_t>(i)][static_cast<std::size_t>(f)];
      out.pairs.second(i, f) = second[static_cast<std::size_t>(i)][static_cast<std::size_t>(f)];
    }
  return out;
}

}  // namespace mpg
