// NAACL 2003 word-alignment reader (lib/data/naacl_alignment.hpp).
#include "lib/data/naacl_alignment.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {

namespace {

// The lines of a text, without their '\n' and a trailing '\r'. A final newline does not start
// another line.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream fields(line);
  for (std::string token; fields >> token;) tokens.push_back(std::move(token));
  return tokens;
}

bool parse_index(std::string_view text, std::uint32_t& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

bool link_less(const WordLink& a, const WordLink& b) {
  return a.english != b.english ? a.english < b.english : a.french < b.french;
}

}  // namespace

std::size_t SentencePair::sure_links() const {
  return static_cast<std::size_t>(std::count_if(links.begin(), links.end(), [](const WordLink& l) { return l.sure; }));
}

std::size_t SentencePair::possible_only_links() const { return links.size() - sure_links(); }

std::vector<NumberedSentence> parse_naacl_sentences(const std::string& text, const std::string& path) {
  std::vector<NumberedSentence> sentences;
  std::set<std::string> ids;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const long line_number = static_cast<long>(k) + 1;
    std::vector<std::string> tokens = tokens_of(lines[k]);
    if (tokens.empty()) {
      if (k + 1 == lines.size()) break;  // a trailing blank line
      throw InputError(path, line_number, "empty line (expected '<s snum=ID> ... </s>')");
    }
    if (tokens.size() < 3 || tokens[0] != "<s" || tokens[1].rfind("snum=", 0) != 0 || tokens[1].back() != '>' ||
        tokens.back() != "</s>") {
      throw InputError(path, line_number, "expected '<s snum=ID> tokens ... </s>'");
    }
    NumberedSentence sentence;
    sentence.id = tokens[1].substr(5, tokens[1].size() - 6);
    if (sentence.id.empty()) throw InputError(path, line_number, "empty snum id");
    if (!ids.insert(sentence.id).second)
      throw InputError(path, line_number, "snum id " + excerpt(sentence.id) + " appears twice");
    sentence.tokens.assign(std::make_move_iterator(tokens.begin() + 2), std::make_move_iterator(tokens.end() - 1));
    sentences.push_back(std::move(sentence));
  }
  if (sentences.empty()) throw InputError(path, "no sentences");
  return sentences;
}

std::vector<NumberedSentence> read_naacl_sentences(const std::string& path) {
  return parse_naacl_sentences(read_file(path), path);
}

std::vector<std::vector<WordLink>> parse_naacl_alignments(const std::string& text, const std::string& path) {
  std::vector<std::vector<WordLink>> alignments;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const long line_number = static_cast<long>(k) + 1;
    std::vector<WordLink> links;
    for (const std::string& token : tokens_of(lines[k])) {
      // "F-E" or "F-E-P".
      const std::size_t first = token.find('-');
      const std::size_t second = first == std::string::npos ? std::string::npos : token.find('-', first + 1);
      const std::string_view view = token;
      WordLink link;
      const bool well_formed =
          first != std::string::npos && parse_index(view.substr(0, first), link.french) &&
          (second == std::string::npos ? parse_index(view.substr(first + 1), link.english)
                                       : parse_index(view.substr(first + 1, second - first - 1), link.english) &&
                                             view.substr(second + 1) == "P");
      if (!well_formed)
        throw InputError(path, line_number,
                         "bad link " + excerpt(token) + " (expected F-E or F-E-P with 0-based word indices)");
      link.sure = second == std::string::npos;
      links.push_back(link);
    }
    std::sort(links.begin(), links.end(), link_less);
    for (std::size_t i = 1; i < links.size(); ++i) {
      if (links[i].english == links[i - 1].english && links[i].french == links[i - 1].french)
        throw InputError(path, line_number,
                         "link " + std::to_string(links[i].french) + "-" + std::to_string(links[i].english) +
                             " (French-English) listed twice");
    }
    alignments.push_back(std::move(links));
  }
  return alignments;
}

std::vector<std::vector<WordLink>> read_naacl_alignments(const std::string& path) {
  return parse_naacl_alignments(read_file(path), path);
}

std::vector<SentencePair> read_naacl_labeled(const std::string& english_path, const std::string& french_path,
                                             const std::string& alignment_path) {
  const std::vector<NumberedSentence> english = read_naacl_sentences(english_path);
  const std::vector<NumberedSentence> french = read_naacl_sentences(french_path);
  std::vector<std::vector<WordLink>> alignments = read_naacl_alignments(alignment_path);
  // Blank lines after the last sentence's line are not sentences.
  while (alignments.size() > english.size() && alignments.back().empty()) alignments.pop_back();
  if (french.size() != english.size())
    throw InputError(french_path, std::to_string(french.size()) + " sentences, but " + english_path + " has " +
                                      std::to_string(english.size()));
  if (alignments.size() != english.size())
    throw InputError(alignment_path, std::to_string(alignments.size()) + " alignment lines, but " + english_path +
                                         " has " + std::to_string(english.size()) + " sentences");
  std::vector<SentencePair> pairs(english.size());
  for (std::size_t k = 0; k < english.size(); ++k) {
    const long line_number = static_cast<long>(k) + 1;
    if (french[k].id != english[k].id)
      throw InputError(french_path, line_number,
                       "snum " + excerpt(french[k].id) + " where " + english_path + " has " + excerpt(english[k].id));
    SentencePair& pair = pairs[k];
    pair.id = english[k].id;
    pair.english = english[k].tokens;
    pair.french = french[k].tokens;
    for (const WordLink& link : alignments[k]) {
      if (link.english >= pair.english.size() || link.french >= pair.french.size())
        throw InputError(alignment_path, line_number,
                         "link " + std::to_string(link.french) + "-" + std::to_string(link.english) +
                             " (French-English) outside sentence " + pair.id + " of " +
                             std::to_string(pair.french.size()) + " French and " +
                             std::to_string(pair.english.size()) + " English words");
    }
    pair.links = alignments[k];
  }
  return pairs;
}

std::vector<SentencePair> read_parallel_text(const std::string& english_path, const std::string& french_path) {
  std::vector<std::string> english = lines_of(read_file(english_path));
  std::vector<std::string> french = lines_of(read_file(french_path));
  if (english.size() != french.size())
    throw InputError(french_path, std::to_string(french.size()) + " lines, but " + english_path + " has " +
                                      std::to_string(english.size()) + " (the files must be line-aligned)");
  std::vector<SentencePair> pairs(english.size());
  for (std::size_t k = 0; k < english.size(); ++k) {
    const long line_number = static_cast<long>(k) + 1;
    pairs[k].english = tokens_of(english[k]);
    pairs[k].french = tokens_of(french[k]);
    if (pairs[k].english.empty()) throw InputError(english_path, line_number, "empty sentence");
    if (pairs[k].french.empty()) throw InputError(french_path, line_number, "empty sentence");
  }
  if (pairs.empty()) throw InputError(english_path, "no sentences");
  return pairs;
}

std::vector<std::uint8_t> gold_tag_grid(const SentencePair& pair) {
  std::vector<std::uint8_t> tags(pair.english.size() * pair.french.size(), 0);
  for (const WordLink& link : pair.links)
    tags[static_cast<std::size_t>(link.english) * pair.french.size() + link.french] = link.sure ? 1 : 2;
  return tags;
}

}  // namespace mpg
