// CoNLL-2003 reader, Table IX statistics and token features.
#include "lib/data/conll.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <sstream>
#include <string_view>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {

namespace {

// Concatenation by appending (GCC 12 raises a false -Wrestrict on chains of operator+).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out.append(p);
  return out;
}

}  // namespace

const std::array<std::string, kConllLabelCount>& conll_label_names() {
  static const std::array<std::string, kConllLabelCount> names = {"O", "PER", "LOC", "ORG", "MISC"};
  return names;
}

int conll_label_of_name(const std::string& name) {
  const auto& names = conll_label_names();
  for (int c = 0; c < kConllLabelCount; ++c)
    if (names[static_cast<std::size_t>(c)] == name) return c;
  return -1;
}

int conll_label_of_tag(const std::string& tag) {
  if (tag == "O") return kConllOutside;
  if (tag.size() < 3 || (tag[0] != 'I' && tag[0] != 'B') || tag[1] != '-') return -1;
  const int label = conll_label_of_name(tag.substr(2));
  return label > 0 ? label : -1;
}

std::vector<ConllSentence> parse_conll(const std::string& text, const std::string& path, std::size_t first,
                                       std::size_t count) {
  std::vector<ConllSentence> sentences;
  ConllSentence current;
  std::size_t index = 0;  // of the sentence being read
  auto finish = [&] {
    if (current.words.empty()) return;
    if (index >= first) sentences.push_back(std::move(current));
    current = ConllSentence{};
    ++index;
  };
  auto done = [&] { return count > 0 && sentences.size() >= count; };
  std::istringstream in(text);
  std::string line;
  long line_number = 0;
  while (!done() && std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) {
      finish();
      continue;
    }
    if (line.rfind("-DOCSTART-", 0) == 0) {
      finish();
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> columns;
    for (std::string field; fields >> field;) columns.push_back(field);
    if (columns.size() != 4)
      throw InputError(path, line_number,
                       "expected 4 space-separated columns (word POS chunk NE-tag), got " +
                           std::to_string(columns.size()));
    const int label = conll_label_of_tag(columns[3]);
    if (label < 0)
      throw InputError(path, line_number,
                       "unknown named-entity tag " + excerpt(columns[3]) + " (expected O or [IB]-PER/LOC/ORG/MISC)");
    if (index < first) {  // only counted, not kept
      current.words.push_back(columns[0]);
      continue;
    }
    current.words.push_back(std::move(columns[0]));
    current.pos.push_back(std::move(columns[1]));
    current.chunks.push_back(std::move(columns[2]));
    current.tags.push_back(std::move(columns[3]));
    current.labels.push_back(label);
  }
  if (!done()) finish();
  return sentences;
}

std::vector<ConllSentence> read_conll(const std::string& path, std::size_t first, std::size_t count) {
  return parse_conll(read_file(path), path, first, count);
}

// ---- Features ---------------------------------------------------------------------------------

std::string word_shape(const std::string& word) {
  auto kind = [](unsigned char ch) -> char {
    if (std::isupper(ch)) return 'X';
    if (std::islower(ch)) return 'x';
    if (std::isdigit(ch)) return 'd';
    return static_cast<char>(ch);
  };
  std::string shape;
  int run = 0;
  for (unsigned char ch : word) {
    const char k = kind(ch);
    run = (!shape.empty() && shape.back() == k) ? run + 1 : 1;
    if (run <= 2) shape.push_back(k);
  }
  return shape;
}

namespace {

std::string lower(const std::string& word) {
  std::string out = word;
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

std::vector<std::string> token_feature_strings(const ConllSentence& sentence, std::size_t t) {
  const std::size_t n = sentence.size();
  const std::string& word = sentence.words[t];
  const std::string lw = lower(word);
  auto lower_at = [&](long i) -> std::string {
    if (i < 0) return "<S>";
    if (i >= static_cast<long>(n)) return "</S>";
    return lower(sentence.words[static_cast<std::size_t>(i)]);
  };
  auto shape_at = [&](long i) -> std::string {
    if (i < 0) return "<S>";
    if (i >= static_cast<long>(n)) return "</S>";
    return word_shape(sentence.words[static_cast<std::size_t>(i)]);
  };
  const long i = static_cast<long>(t);
  std::vector<std::string> f;
  f.reserve(32);
  f.push_back("BIAS");
  f.push_back(cat({"W=", word}));
  f.push_back(cat({"LW=", lw}));
  for (std::size_t k = 1; k <= 4 && k <= word.size(); ++k) {
    const std::string length = std::to_string(k);
    f.push_back(cat({"P", length, "=", std::string_view(word).substr(0, k)}));
    f.push_back(cat({"S", length, "=", std::string_view(word).substr(word.size() - k)}));
  }
  f.push_back(cat({"SH=", shape_at(i)}));
  f.push_back(cat({"PW=", lower_at(i - 1)}));
  f.push_back(cat({"NW=", lower_at(i + 1)}));
  f.push_back(cat({"PSH=", shape_at(i - 1)}));
  f.push_back(cat({"NSH=", shape_at(i + 1)}));
  f.push_back(cat({"PW|W=", lower_at(i - 1), "|", lw}));
  f.push_back(cat({"W|NW=", lw, "|", lower_at(i + 1)}));
  f.push_back(cat({"PSH|SH|NSH=", shape_at(i - 1), "|", shape_at(i), "|", shape_at(i + 1)}));
  for (long d = 1; d <= 4; ++d) {
    if (i - d >= 0) f.push_back(cat({"DL=", lower_at(i - d)}));
    if (i + d < static_cast<long>(n)) f.push_back(cat({"DR=", lower_at(i + d)}));
  }
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

void FeatureDictionary::build(const std::vector<ConllSentence>& training) {
  ids_.clear();
  for (const auto& sentence : training)
    for (std::size_t t = 0; t < sentence.size(); ++t)
      for (auto& feature : token_feature_strings(sentence, t))
        ids_.emplace(std::move(feature), static_cast<std::uint32_t>(ids_.size()));
}

FeaturizedSentence FeatureDictionary::featurize(const ConllSentence& sentence) const {
  FeaturizedSentence out;
  out.labels = sentence.labels;
  out.features.resize(sentence.size());
  for (std::size_t t = 0; t < sentence.size(); ++t) {
    for (const auto& feature : token_feature_strings(sentence, t)) {
      const auto found = ids_.find(feature);
      if (found != ids_.end()) out.features[t].push_back(found->second);
    }
    std::sort(out.features[t].begin(), out.features[t].end());
  }
  return out;
}

std::vector<FeaturizedSentence> FeatureDictionary::featurize(const std::vector<ConllSentence>& sentences) const {
  std::vector<FeaturizedSentence> out;
  out.reserve(sentences.size());
  for (const auto& sentence : sentences) out.push_back(featurize(sentence));
  return out;
}

}  // namespace mpg
