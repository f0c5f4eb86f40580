// The sequence_labeling family's own header (private to lib/harness/families/sequence_labeling*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "baselines/crf.hpp"
#include "lib/base/error.hpp"
#include "lib/data/conll.hpp"
#include "lib/eval/sequence_measures.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/harness/unit_samples.hpp"
#include "lib/models/linear_chain_mpg.hpp"

namespace mpg::harness::sequence_labeling_impl {

using nlohmann::json;

const char* const kParts[] = {"train", "testa", "testb"};
constexpr int kPathSlots = 64;  // launch priorities: classes x path positions per subset
const char* const kEvaluationSets[] = {"validation", "testa", "testb"};
const char* const kTableIxStatistics[] = {"max_length", "avg_length", "PER", "LOC", "ORG", "MISC"};

std::string class_name(int label);

// ---- Methods -----------------------------------------------------------------------------------

const Parameter kLambda = grid_parameter(
    "lambda", 0.0, 1e9, "grid of the L2 weight λ in λ/2‖θ‖² on the summed (not averaged) objective (one cell per value)");

const std::vector<MethodKind>& sequence_methods();

// ---- Data --------------------------------------------------------------------------------------

// One subset conll.N: its sentences per set (validation only for Table X) and, for Table X, their
// features from the dictionary of its training part.
struct Subset {
  std::string name;
  std::size_t size = 0;
  std::size_t feature_count = 0;
  std::map<std::string, std::vector<ConllSentence>> sets;  // train, testa, testb, validation
  std::map<std::string, std::vector<FeaturizedSentence>> featurized;
};

// Per class: token-level and conlleval entity-level F1 of a labelling of `gold`, with the counts.
json score_set(const std::vector<ConllSentence>& gold, const std::vector<std::vector<int>>& predicted,
               const std::vector<int>& classes);

struct Cell {
  const Subset* subset;
  std::string kind;
  int target;  // MPG: the class; CRF: 0 (one model for every class)
  std::size_t path = kNoPath;  // MPG with lambda_path: its path (SequenceRun::paths_)
  std::size_t position = 0;    // its place on the path (0 = largest lambda)
  static constexpr std::size_t kNoPath = static_cast<std::size_t>(-1);
};

// The MPG cells of one (subset, method, class) under lambda_path: one trainer walks the lambdas
// largest first; a cell asking for lambda k trains the path up to k (if no one has yet) and keeps
// the results of the cells on the way for their own requests. A cell served from the cache does
// not advance the path: a later cell then retrains from the start (same results: the path is
// deterministic).
struct LambdaPath {
  std::mutex mutex;
  std::vector<std::size_t> cells;  // in path order
  std::unique_ptr<LinearChainMpgPath> trainer;
  std::size_t next = 0;  // position the trainer trains next
  std::map<std::size_t, json> results;  // by position, until their cell asks
};

// ---- The experiment ----------------------------------------------------------------------------

class SequenceRun : public FamilyRun {
 public:
  explicit SequenceRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& validation) const override;
  std::string validation_line(const json& v) const override {
    std::string scores;
    for (const auto& [name, s] : v["validation"].items()) scores += fmt::format(" {} {:.3f}", name, s["token"].get<double>());
    return fmt::format("validation token F1{}  ({:.1f} s)", scores, v["seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override {
    return spec_["table"] == "statistics" ? statistics_tables() : f1_tables(outcome);
  }

 private:
  std::string group(const Subset& subset, const std::string& method, int label) const {
    return subset.name + "\n" + method + "\n" + class_name(label);
  }
  Tables statistics_tables() const;
  Tables f1_tables(const Outcome& outcome) const;
  std::string data_lines() const;

  json spec_;
  RegistryChoice choice_;
  std::map<std::string, VerifiedFile> files_;  // by part
  std::vector<int> classes_;
  std::vector<std::unique_ptr<Subset>> subsets_;  // by size
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
  mutable std::vector<std::unique_ptr<LambdaPath>> paths_;

  json train_mpg(const Cell& c, const ParameterValues& p, LambdaPath* path) const;
  json path_result(std::size_t cell) const;
};

json data_json(const std::map<std::string, VerifiedFile>& files);

// The F1 level each method's published numbers are compared at: `compare_level` is one level for
// every method or {method: level}; a method it does not name is compared at entity level.
std::map<std::string, std::string> compare_levels(const json& spec);

// The number at object[k1][k2]..., if there is one.
std::optional<double> number_at(const json& object, std::initializer_list<std::string> keys);

}  // namespace mpg::harness::sequence_labeling_impl
