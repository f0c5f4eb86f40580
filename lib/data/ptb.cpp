// Penn Treebank reader, evalb-style tree preparation and the split of the NLTK sample.
#include "lib/data/ptb.hpp"

#include <fmt/format.h>
#include <zip.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {
namespace {

// Tokens of bracketed text: "(", ")" or an atom, with the line each starts on.
struct Token {
  std::string text;
  long line = 0;
};

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  long line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.push_back({std::string(1, c), line});
      ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && text[j] != '(' && text[j] != ')' &&
             !std::isspace(static_cast<unsigned char>(text[j])))
        ++j;
      tokens.push_back({text.substr(i, j - i), line});
      i = j;
    }
  }
  return tokens;
}

class TreeParser {
 public:
  TreeParser(const std::vector<Token>& tokens, const std::string& name) : tokens_(tokens), name_(name) {}

  bool done() const { return next_ >= tokens_.size(); }
  long line() const { return tokens_[next_].line; }

  // node := "(" [label] (word | node+) ")"
  PtbTree node() {
    const Token& open = tokens_[next_];
    if (open.text != "(") throw InputError(name_, open.line, "expected '(', found " + excerpt(open.text) + " outside a bracket");
    ++next_;
    PtbTree tree;
    if (!done() && !is_bracket(tokens_[next_].text)) tree.label = tokens_[next_++].text;
    std::vector<std::string> words;
    while (!done() && tokens_[next_].text != ")") {
      if (tokens_[next_].text == "(") {
        tree.children.push_back(node());
      } else {
        words.push_back(tokens_[next_++].text);
      }
    }
    if (done()) throw InputError(name_, open.line, "unbalanced brackets: this '(' is never closed");
    ++next_;  // ")"
    if (!words.empty()) {
      if (!tree.children.empty() || words.size() > 1)
        throw InputError(name_, open.line,
                         "a preterminal has exactly one word and no sub-brackets (" + excerpt(tree.label) + " has " +
                             std::to_string(words.size()) + " word(s) and " + std::to_string(tree.children.size()) +
                             " bracket(s))");
      if (tree.label.empty()) throw InputError(name_, open.line, "word " + excerpt(words[0]) + " has no POS tag");
      tree.word = words[0];
    } else if (tree.children.empty()) {
      throw InputError(name_, open.line, "empty bracket '(" + tree.label + ")'");
    }
    return tree;
  }

 private:
  static bool is_bracket(const std::string& t) { return t == "(" || t == ")"; }
  const std::vector<Token>& tokens_;
  const std::string& name_;
  std::size_t next_ = 0;
};

void append_bracketed(const PtbTree& tree, std::string& out) {
  out += '(';
  out += tree.label;
  if (tree.is_preterminal()) {
    out += ' ';
    out += tree.word;
  }
  for (const PtbTree& child : tree.children) {
    out += ' ';
    append_bracketed(child, out);
  }
  out += ')';
}

// Removes traces; false if nothing of the tree is left.
bool remove_traces(PtbTree& tree) {
  if (tree.is_preterminal()) return tree.label != "-NONE-";
  std::vector<PtbTree> kept;
  for (PtbTree& child : tree.children)
    if (remove_traces(child)) kept.push_back(std::move(child));
  tree.children = std::move(kept);
  return !tree.children.empty();
}

void strip_labels(PtbTree& tree) {
  if (tree.is_preterminal()) return;
  tree.label = strip_function_tags(tree.label);
  for (PtbTree& child : tree.children) strip_labels(child);
}

void collect(const PtbTree& tree, bool tags, std::vector<std::string>& out) {
  if (tree.is_preterminal()) {
    out.push_back(tags ? tree.label : tree.word);
    return;
  }
  for (const PtbTree& child : tree.children) collect(child, tags, out);
}

struct ZipCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

}  // namespace

PtbDocument parse_ptb(const std::string& text, const std::string& name) {
  const std::vector<Token> tokens = tokenize(text);
  TreeParser parser(tokens, name);
  PtbDocument document;
  document.name = name;
  while (!parser.done()) {
    const long line = parser.line();
    document.trees.push_back(parser.node());
    document.lines.push_back(line);
  }
  return document;
}

PtbDocument read_ptb_file(const std::string& path) { return parse_ptb(read_file(path), path); }

std::vector<PtbDocument> read_ptb_archive(const std::string& zip_path, const std::string& prefix,
                                          const std::string& suffix) {
  int error_code = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(zip_open(zip_path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &error_code));
  if (!archive) {
    zip_error_t error;
    zip_error_init_with_code(&error, error_code);
    const std::string what = zip_error_strerror(&error);
    zip_error_fini(&error);
    throw InputError(zip_path, "cannot open zip archive: " + what);
  }
  std::vector<std::pair<std::string, zip_uint64_t>> members;
  const zip_int64_t entries = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < entries; ++i) {
    const char* name = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), 0);
    if (name == nullptr) continue;
    const std::string member = name;
    if (member.starts_with(prefix) && member.ends_with(suffix) && member.size() > prefix.size() + suffix.size())
      members.emplace_back(member, static_cast<zip_uint64_t>(i));
  }
  if (members.empty())
    throw InputError(zip_path, "no member '" + prefix + "*" + suffix + "' in the zip archive");
  std::sort(members.begin(), members.end());
  std::vector<PtbDocument> documents;
  for (const auto& [member, index] : members) {
    const std::string name = zip_path + "!" + member;
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive.get(), index, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE))
      throw InputError(name, "cannot read the member's size");
    std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(archive.get(), index, 0));
    if (!file) throw InputError(name, std::string("cannot open member: ") + zip_strerror(archive.get()));
    std::string text(stat.size, '\0');
    zip_uint64_t used = 0;
    while (used < stat.size) {
      const zip_int64_t got = zip_fread(file.get(), text.data() + used, stat.size - used);
      if (got < 0) throw InputError(name, std::string("corrupt member: ") + zip_file_strerror(file.get()));
      if (got == 0) break;
      used += static_cast<zip_uint64_t>(got);
    }
    if (used != stat.size) throw InputError(name, "member is shorter than the archive says (truncated archive?)");
    documents.push_back(parse_ptb(text, name));
  }
  return documents;
}

std::string to_bracketed(const PtbTree& tree) {
  std::string out;
  append_bracketed(tree, out);
  return out;
}

std::string strip_function_tags(const std::string& label) {
  if (label.empty() || label[0] == '-') return label;
  std::string core = label;  // evalb cuts only at '-' and '=': "ADVP|PRT" stays whole
  const std::size_t cut = core.find_first_of("-=", 1);
  if (cut != std::string::npos) core.resize(cut);
  return core;
}

PtbTree prepare_tree(const PtbTree& tree) {
  PtbTree prepared = tree.label.empty() && tree.children.size() == 1 ? tree.children[0] : tree;
  if (prepared.is_preterminal()) {
    // A one-word sentence without a phrase above its tag stays a lone preterminal.
    if (prepared.label == "-NONE-") return {};
    return prepared;
  }
  strip_labels(prepared);
  if (!remove_traces(prepared)) return {};
  return prepared;
}

std::vector<std::string> tags_of(const PtbTree& tree) {
  std::vector<std::string> out;
  collect(tree, true, out);
  return out;
}

std::vector<std::string> words_of(const PtbTree& tree) {
  std::vector<std::string> out;
  collect(tree, false, out);
  return out;
}

std::size_t sentence_length(const PtbTree& tree) {
  if (tree.is_preterminal()) return tree.label.empty() || tree.label == "-NONE-" ? 0 : 1;
  std::size_t length = 0;
  for (const PtbTree& child : tree.children) length += sentence_length(child);
  return length;
}

std::string to_string(PtbPart part) {
  switch (part) {
    case PtbPart::train: return "train";
    case PtbPart::validation: return "validation";
    case PtbPart::testa: return "testa";
    case PtbPart::testb: return "testb";
  }
  return "unknown";
}

int wsj_file_number(const std::string& document_name) {
  const std::size_t slash = document_name.find_last_of("/!");
  const std::string base = slash == std::string::npos ? document_name : document_name.substr(slash + 1);
  if (base.size() != 12 || !base.starts_with("wsj_") || !base.ends_with(".mrg") ||
      !std::all_of(base.begin() + 4, base.begin() + 8, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    throw Error("PTB split: " + excerpt(document_name) + " is not named wsj_NNNN.mrg");
  return std::stoi(base.substr(4, 4));
}

PtbPart ptb_part_of(int file_number, const PtbSplitOptions& options) {
  const int residue = file_number % options.modulus;
  auto has = [residue](const std::vector<int>& residues) {
    return std::find(residues.begin(), residues.end(), residue) != residues.end();
  };
  if (has(options.testa_residues)) return PtbPart::testa;
  if (has(options.testb_residues)) return PtbPart::testb;
  if (has(options.validation_residues)) return PtbPart::validation;
  return PtbPart::train;
}

PtbSplit split_ptb_sample(const std::vector<PtbDocument>& documents, const PtbSplitOptions& options) {
  if (options.modulus < 1) throw Error(fmt::format("PTB split: modulus must be >= 1; got {}", options.modulus));
  const std::vector<std::pair<const char*, const std::vector<int>*>> parts = {
      {"testa", &options.testa_residues}, {"testb", &options.testb_residues}, {"validation", &options.validation_residues}};
  for (const auto& [name, residues] : parts)
    for (int r : *residues)
      if (r < 0 || r >= options.modulus)
        throw Error(fmt::format("PTB split: residue {} is outside 0..{}", r, options.modulus - 1));
  for (std::size_t a = 0; a < parts.size(); ++a)
    for (std::size_t b = a + 1; b < parts.size(); ++b)
      for (int r : *parts[a].second)
        if (std::find(parts[b].second->begin(), parts[b].second->end(), r) != parts[b].second->end())
          throw Error(fmt::format("PTB split: residue {} is in both {} and {}", r, parts[a].first, parts[b].first));
  std::vector<const PtbDocument*> ordered;
  for (const PtbDocument& d : documents) ordered.push_back(&d);
  std::sort(ordered.begin(), ordered.end(), [](const PtbDocument* a, const PtbDocument* b) { return a->name < b->name; });
  PtbSplit split;
  for (const PtbDocument* document : ordered) {
    const PtbPart part = ptb_part_of(wsj_file_number(document->name), options);
    auto& target = part == PtbPart::train        ? split.train
                   : part == PtbPart::validation ? split.validation
                   : part == PtbPart::testa      ? split.testa
                                                 : split.testb;
    for (std::size_t t = 0; t < document->trees.size(); ++t) {
      ++split.trees;
      PtbTree prepared = prepare_tree(document->trees[t]);
      const std::size_t length = sentence_length(prepared);
      if (part == PtbPart::train && length > 0) split.train_all_lengths.push_back({prepared, document->name, document->lines[t]});
      if (length == 0 || length > options.max_length) {
        ++split.too_long;
        continue;
      }
      target.push_back({std::move(prepared), document->name, document->lines[t]});
    }
  }
  return split;
}

}  // namespace mpg
