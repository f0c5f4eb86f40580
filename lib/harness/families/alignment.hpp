// The alignment family's own header (private to lib/harness/families/alignment*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>

#include "baselines/matching_ssvm.hpp"
#include "lib/harness/unit_samples.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/naacl_alignment.hpp"
#include "lib/features/hmm_aligner.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/models/alignment_mpg.hpp"

namespace mpg::harness::alignment_impl {

using nlohmann::json;

const char* const kSets[] = {"valid", "test"};

// ---- Methods -----------------------------------------------------------------------------------

Parameter features_parameter();
// `protocol` (lib/learn/protocol.hpp) and the authors' protocols' iteration cap.
Parameter protocol_parameter();
Parameter authors_max_iterations_parameter();

// The parameters MPG_bip and MPG_aer share (the learner and the games' caps).
// The default optimizer differs: MPG_aer's objective is below f(0) = 0 only within about
// 1 / ||Phi(gold)|| of theta = 0, where plain BMRM's first step (Phi(gold) / lambda) never returns.
std::vector<Parameter> mpg_parameters(const char* default_optimizer);

const std::vector<MethodKind>& alignment_methods();

// ---- Scores ------------------------------------------------------------------------------------

// Corpus AER of predictions (counts summed over pairs in pair order), in per cent, the per-pair
// counts ("units", the interval's units) and the prediction games' statistics when there were games.
json score_part(const std::vector<AlignmentInstance>& part,
                const std::function<AlignmentPrediction(const AlignmentInstance&)>& predict, bool games);

// ---- The experiment ----------------------------------------------------------------------------

// The registry parts `unlabeled_<k>_english` that have a `unlabeled_<k>_french` partner, in order.
std::vector<std::string> unlabeled_stems(const json& variant);

class AlignmentRun : public FamilyRun {
 public:
  explicit AlignmentRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& v) const override {
    return {{plans_[cell].method, -v["valid"]["aer"].get<double>()}};
  }
  std::string validation_line(const json& v) const override {
    return fmt::format("validation AER {:.2f}  ({:.1f} s)", v["valid"]["aer"].get<double>(),
                       v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  json test(std::size_t cell, const json& validation) const override;
  std::string test_line(const json& t) const override {
    return fmt::format("test AER {:.2f}", t["test"]["aer"].get<double>());
  }
  Tables tables(const Outcome& outcome) const override;

 private:
  struct Parts {
    std::vector<AlignmentInstance> train, valid, test;
  };
  const Parts& parts(const std::string& features) const { return features == "aligner" ? with_aligner_ : base_; }
  std::function<AlignmentPrediction(const AlignmentInstance&)> predictor(std::size_t cell, const json& validation) const;

  json spec_;
  RegistryChoice choice_;
  std::size_t train_pairs_ = 100;
  HmmAlignerOptions aligner_options_;
  std::vector<SentencePair> labeled_, trial_;
  std::size_t text_pairs_ = 0;
  bool aligner_used_ = false;
  double aligner_seconds_ = 0.0;
  json aligner_alone_ = json::object();  // AER of the aligner's own links, valid and test
  Parts base_, with_aligner_;
  std::vector<CellPlan> plans_;
  std::vector<std::string> kinds_;  // per cell
};

}  // namespace mpg::harness::alignment_impl
