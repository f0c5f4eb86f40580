// A registry of the test's own (MPG_REGISTRY) with tiny synthetic data (MPG_DATA_DIR), for running
// `mpg run` end to end in a temp dir: "syn_rank", five LETOR subsets of 3 queries x 5 documents
// (relevance follows feature 1), and "syn_conll", CoNLL train/testa/testb files of 2 sentences.
// Each file's registry entry holds its sha256; `corrupt` replaces the text of one file (by its
// name under the data directory) after hashing the original, or with `rehash` before hashing.
#pragma once

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "tests/temp_dir.hpp"

namespace mpg::testing {

class SyntheticRegistry {
 public:
  // `replaced`: file name -> text written instead of the synthetic one; `rehash`: whether the
  // registry's sha256 is of the replaced text (else of the original, a mismatch).
  explicit SyntheticRegistry(const TempDir& dir, const std::map<std::string, std::string>& replaced = {},
                             bool rehash = true)
      : data_((dir.path() / "data").string()), registry_((dir.path() / "registry.json").string()) {
    nlohmann::json subsets = nlohmann::json::array();
    for (int s = 1; s <= 5; ++s) {
      std::string text;
      for (int q = 0; q < 3; ++q)
        for (int d = 0; d < 5; ++d) {
          // A fixed pseudo-random pattern: documents differ, relevance rises with feature 1.
          const int x = (7 * s + 11 * q + 13 * d) % 17;
          text += fmt::format("{} qid:{} 1:{:.4f} 2:{:.4f} 3:{:.4f}\n", x > 11 ? 2 : x > 6 ? 1 : 0, 100 * s + q, x / 17.0,
                              ((5 * x + 3) % 17) / 17.0, ((3 * x + d) % 7) / 7.0);
        }
      subsets.push_back(entry(fmt::format("rank/S{}.txt", s), text, replaced, rehash));
    }
    const std::string sentences = "EU NNP I-NP I-ORG\nrejects VBZ I-VP O\nGerman JJ I-NP I-MISC\n\n"
                                  "Peter NNP I-NP I-PER\nBlackburn NNP I-NP I-PER\n";
    nlohmann::json conll = {{"matches", "exact (synthetic)"}};
    for (const char* part : {"train", "testa", "testb"})
      conll[part] = entry(std::string("conll/") + part + ".txt", sentences, replaced, rehash);
    const nlohmann::json registry = {
        {"syn_rank",
         {{"format", "letor"}, {"features", 3}, {"levels", 3}, {"default_variant", "v1"},
          {"variants", {{"v1", {{"matches", "exact (synthetic)"}, {"subsets", subsets}}}}}}},
        {"syn_conll", {{"format", "conll"}, {"default_variant", "v1"}, {"variants", {{"v1", conll}}}}}};
    write_file_atomically(registry_, registry.dump(2));
    setenv("MPG_DATA_DIR", data_.c_str(), 1);
    setenv("MPG_REGISTRY", registry_.c_str(), 1);
  }
  ~SyntheticRegistry() {
    unsetenv("MPG_DATA_DIR");
    unsetenv("MPG_REGISTRY");
  }
  SyntheticRegistry(const SyntheticRegistry&) = delete;
  SyntheticRegistry& operator=(const SyntheticRegistry&) = delete;
  // The path of a data file, e.g. file("rank/S3.txt").
  std::string file(const std::string& name) const { return data_ + "/" + name; }

  // A ranking spec on syn_rank: fold 1, RankSVM over two C values (3 cells: 2 validation, 1 test).
  static nlohmann::json ranking_spec(const std::string& name) {
    return {{"task", "ranking"},
            {"name", name},
            {"datasets", {{"SYN", {{"registry", "syn_rank"}}}}},
            {"folds", nlohmann::json::array({1})},
            {"methods", {{"RankSVM", {{"kind", "ranksvm"}, {"C", {0.1, 1}}}}}},
            {"published", {{"dataset", "SYN"}, {"mean_ndcg", {{"RankSVM", 0.5}}}}},
            {"tolerance", 1}};
  }
  // A Table IX spec (statistics of the data, no cells) on syn_conll with one subset of n sentences.
  static nlohmann::json statistics_spec(const std::string& name, int n) {
    return {{"task", "sequence_labeling"},
            {"table", "statistics"},
            {"name", name},
            {"dataset", {{"registry", "syn_conll"}}},
            {"subsets", {{"conll." + std::to_string(n), n}}}};
  }

 private:
  nlohmann::json entry(const std::string& name, const std::string& text,
                       const std::map<std::string, std::string>& replaced, bool rehash) const {
    const auto found = replaced.find(name);
    const std::string written = found == replaced.end() ? text : found->second;
    std::filesystem::create_directories(std::filesystem::path(data_ + "/" + name).parent_path());
    write_file_atomically(data_ + "/" + name, written);
    return {{"file", name}, {"sha256", sha256_hex(rehash ? written : text)}};
  }

  std::string data_, registry_;
};

}  // namespace mpg::testing
