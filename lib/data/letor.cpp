#include "lib/data/letor.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <unordered_set>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {

int LetorQuery::relevant_documents() const {
  int count = 0;
  for (int r : relevance) count += r > 0;
  return count;
}

std::size_t LetorData::documents() const {
  std::size_t n = 0;
  for (const auto& q : queries) n += q.relevance.size();
  return n;
}

namespace {

// Limits that keep a damaged file from exhausting memory: the largest feature index, and the
// values of all queries' dense feature matrices together (2^28 doubles = 2 GiB).
constexpr long kMaxLetorFeature = 100000;
constexpr double kMaxLetorCells = 268435456.0;

std::string_view next_token(std::string_view& rest) {
  const auto begin = rest.find_first_not_of(" \t");
  if (begin == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(begin);
  const auto end = rest.find_first_of(" \t");
  const std::string_view token = rest.substr(0, end);
  rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  return token;
}

struct ParsedLine {
  int relevance = 0;
  std::string_view qid;
  std::vector<std::pair<long, double>> entries;
};

}  // namespace

LetorData read_letor(const std::string& path, long min_features) { return parse_letor(read_file(path), path, min_features); }

LetorData parse_letor(std::string_view text, const std::string& path, long min_features) {
  LetorData data;
  data.path = path;
  data.features = min_features;
  std::vector<std::vector<ParsedLine>> lines_of_query;
  std::vector<std::string> ids;
  std::unordered_set<std::string> finished;  // queries whose block of lines has ended
  long line_number = 0;
  std::size_t position = 0;
  while (position < text.size()) {
    auto end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line(text.data() + position, end - position);
    position = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::string_view rest = line;
    const std::string_view label = next_token(rest);
    if (label.empty()) continue;  // blank or comment-only line
    auto fail = [&](const std::string& what) -> void { throw InputError(path, line_number, what); };
    ParsedLine parsed;
    {
      const auto [p, ec] = std::from_chars(label.data(), label.data() + label.size(), parsed.relevance);
      if (ec != std::errc() || p != label.data() + label.size() || parsed.relevance < 0)
        fail("relevance label " + excerpt(label) + " is not an integer >= 0");
    }
    const std::string_view qid = next_token(rest);
    if (!qid.starts_with("qid:") || qid.size() == 4) fail("expected 'qid:<id>' after the label");
    parsed.qid = qid.substr(4);
    long previous = 0;
    for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest)) {
      const auto colon = token.find(':');
      if (colon == std::string_view::npos) fail("expected '<index>:<value>', got " + excerpt(token));
      long index = 0;
      const auto [p, ec] = std::from_chars(token.data(), token.data() + colon, index);
      if (ec != std::errc() || p != token.data() + colon || index < 1)
        fail("feature index in " + excerpt(token) + " is not an integer >= 1");
      if (index > kMaxLetorFeature)
        fail("feature index " + std::to_string(index) + " is above " + std::to_string(kMaxLetorFeature) +
             " (the queries' feature matrices are dense; LETOR sets have at most a few hundred features)");
      if (index <= previous) fail("feature indices must increase (" + std::to_string(index) + " after " +
                                  std::to_string(previous) + ")");
      previous = index;
      // strtod accepts the forms LETOR files use (0, 0.123, 1e-05).
      const std::string value_text(token.substr(colon + 1));
      char* value_end = nullptr;
      const double value = std::strtod(value_text.c_str(), &value_end);
      if (value_text.empty() || *value_end != '\0' || !std::isfinite(value))
        fail("feature value in " + excerpt(token) + " is not a finite number");
      parsed.entries.emplace_back(index, value);
      data.features = std::max(data.features, index);
    }
    const std::string id(parsed.qid);
    if (ids.empty() || ids.back() != id) {
      if (!ids.empty()) finished.insert(ids.back());
      if (finished.count(id)) fail("query " + excerpt(id) + " continues after other queries (its lines must be consecutive)");
      ids.push_back(id);
      lines_of_query.emplace_back();
    }
    lines_of_query.back().push_back(std::move(parsed));
  }
  if (ids.empty()) throw InputError(path, "no documents in the file");
  std::size_t documents = 0;
  for (const auto& lines : lines_of_query) documents += lines.size();
  if (static_cast<double>(documents) * static_cast<double>(data.features) > kMaxLetorCells)
    throw InputError(path, std::to_string(documents) + " documents x " + std::to_string(data.features) +
                               " features are too many for dense feature matrices (at most " +
                               std::to_string(static_cast<long>(kMaxLetorCells)) + " values)");
  data.queries.resize(ids.size());
  for (std::size_t q = 0; q < ids.size(); ++q) {
    LetorQuery& query = data.queries[q];
    query.id = ids[q];
    const auto& lines = lines_of_query[q];
    query.features = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(lines.size()), data.features);
    for (std::size_t j = 0; j < lines.size(); ++j) {
      query.relevance.push_back(lines[j].relevance);
      for (const auto& [index, value] : lines[j].entries)
        query.features(static_cast<Eigen::Index>(j), index - 1) = value;
    }
  }
  return data;
}

}  // namespace mpg
