// Reader of LETOR learning-to-rank files (LETOR 3.0 and 4.0 share the format):
//     <relevance> qid:<id> 1:<v> 2:<v> ... [# comment, e.g. docid = ...]
// one document per line, the documents of a query on consecutive lines. Compressed files
// (.gz, .xz) are read through read_file.
#pragma once

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <vector>

namespace mpg {

// The documents of one query: a dense n x d feature matrix and graded relevance labels.
struct LetorQuery {
  std::string id;
  Eigen::MatrixXd features;  // row j = document j, in file order
  std::vector<int> relevance;
  int relevant_documents() const;  // documents with relevance > 0
};

struct LetorData {
  std::string path;
  long features = 0;  // d: the largest feature index seen (or min_features)
  std::vector<LetorQuery> queries;  // in file order
  std::size_t documents() const;
};

// Reads a LETOR file. Feature indices are 1-based and strictly increasing on a line; absent
// features are 0. Throws mpg::InputError "<path>:<line>: <what>" for a malformed line (bad
// label, missing qid, bad index or value), a query whose lines are not consecutive, or an
// empty file, a feature index above 100000, or more than 2^28 dense feature values in all.
// Every query gets max(min_features, largest index in the file) columns.
LetorData read_letor(const std::string& path, long min_features = 0);
// The same from text already in memory (`path` only names it in messages).
LetorData parse_letor(std::string_view text, const std::string& path, long min_features = 0);

}  // namespace mpg
