// The parsing family's own header (private to lib/harness/families/parsing*.cpp): its run class and the
// types its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "baselines/pcfg.hpp"
#include "baselines/svm_cfg.hpp"
#include "lib/base/error.hpp"
#include "lib/data/ptb.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/harness/unit_samples.hpp"
#include "lib/models/cfg_mpg.hpp"

namespace mpg::harness::parsing_impl {

using nlohmann::json;

inline const char* const kTestSets[] = {"testa", "testb"};
inline const char* const kMeasures[] = {"one_minus_hamming", "evalb_f1"};
inline const std::map<std::string, std::string> kMeasureNames = {{"one_minus_hamming", "1 − Hamming"},
                                                          {"evalb_f1", "evalb F1"}};

// The split's options as JSON (the cache key and the result files).
json split_json(const PtbSplitOptions& o);

// How evalb F1 is counted (spec key `evalb`; docs/methods.md): the outer-bracket rule, and
// whether a sentence the method cannot parse is scored as its flat fallback tree (default) or
// left out of the counts, as evalb leaves out a sentence without a usable parse.
struct EvalbRules {
  EvalbOptions options;
  bool skip_unparsable = false;
};
EvalbRules evalb_rules_of(const json& spec);
json to_json(const EvalbRules& rules);

// One prediction of a sentence and, for MPG_cfg, its game.
struct Parsed {
  TreePrediction prediction;
  std::optional<DoubleOracleSummary> game;
};

class ParsingRun : public FamilyRun {
 public:
  explicit ParsingRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& v) const override {
    return {{plans_[cell].method, v["validation"][selection_].get<double>()}};
  }
  std::string validation_line(const json& v) const override {
    return fmt::format("validation {} {:.4f}  ({:.1f} s)", selection_, v["validation"][selection_].get<double>(),
                       v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  json test(std::size_t cell, const json& validation) const override;
  std::string test_line(const json& t) const override {
    return fmt::format("F1 testa {:.4f} testb {:.4f}", t["testa"]["evalb_f1"].get<double>(),
                       t["testb"]["evalb_f1"].get<double>());
  }
  Tables tables(const Outcome& outcome) const override;

 private:
  // The parser of a cell's model (its validation result holds the learned weights).
  std::function<Parsed(const PtbSentence&)> parser(std::size_t cell, const json& validation) const;

  json spec_;
  std::string selection_;
  EvalbRules evalb_;
  RegistryChoice choice_;
  VerifiedFile archive_;
  PtbSplitOptions split_options_;
  PtbSplit split_;
  bool grammar_from_all_lengths_ = true;
  std::vector<PtbTree> grammar_trees_;  // prepared, unbinarized: the PCFGs' treebank
  Grammar grammar_;                     // '@X' feature grammar
  std::string fallback_label_;
  std::vector<ParseExample> examples_;  // the short training sentences
  std::vector<CellPlan> plans_;
  std::vector<std::string> kinds_;  // per cell
};

}  // namespace mpg::harness::parsing_impl
