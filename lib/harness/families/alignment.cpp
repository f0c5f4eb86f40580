// Family "alignment" (thesis §5.4, Table XIII): English-French word alignment on the NAACL 2003
// Hansards data scored by corpus-level AER (Och & Ney, sure/possible gold; lower is better).
//
// Data: the registry's labeled pairs `test_*` (the first `split.train_pairs` in file order train,
// the rest test) and `trial_*` (validation), and every `unlabeled_<k>_{english,french}` pair of
// files. The association counts and the unsupervised aligner (IBM Model 1 then HMM, both
// directions: lib/features/hmm_aligner.hpp, the GIZA++ stand-in) read the text of all pairs, never a
// gold link; the aligner is trained once per run, when some method uses its features. Every
// (method, grid value) is a validation cell; the best grid value per method (lowest validation
// AER, first in grid order among ties) is scored on the test pairs.
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
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/naacl_alignment.hpp"
#include "lib/features/hmm_aligner.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/models/alignment_mpg.hpp"
#include "lib/harness/families/alignment.hpp"

namespace mpg::harness::alignment_impl {

// ---- Methods -----------------------------------------------------------------------------------

Parameter features_parameter() {
  return choice_parameter("features", "base", {"base", "aligner"},
                          "`base`: the 13 association / position / orthographic features "
                          "(lib/features/alignment_features.hpp; the thesis lists none); `aligner`: also the IBM1/HMM "
                          "aligner's intersection and grow-diag-final links (the GIZA++ stand-in)");
}

Parameter protocol_parameter() {
  return choice_parameter(
      "protocol", "certified", training_protocol_names(),
      "how θ is found (lib/learn/protocol.hpp): `certified` by `optimizer` to a certified objective; `authors_lbfgs` "
      "(L-BFGS, 5 corrections, gradient tolerance 1e-6) or `authors_adadelta` (ρ 0.95, ε e⁻⁶, both stop tests, full "
      "batch) as the authors' code, from θ = 0, every game stopped by the reference's rule (LP value repeats to 1e-8, "
      "or 300 actions per player) and decided by its likeliest pure action; `optimizer`, `objective_tolerance`, "
      "the game caps and `warm_actions` then unused");
}

Parameter authors_max_iterations_parameter() {
  return integer_parameter("authors_max_iterations", 200, 1, 1000000000,
                           "authors' protocols: optimizer iterations (the reference's 200 L-BFGS evaluations or "
                           "AdaDelta passes; lower only to shorten a smoke run)");
}

// The parameters MPG_bip and MPG_aer share (the learner and the games' caps).
// The default optimizer differs: MPG_aer's objective is below f(0) = 0 only within about
// 1 / ||Phi(gold)|| of theta = 0, where plain BMRM's first step (Phi(gold) / lambda) never returns.
std::vector<Parameter> mpg_parameters(const char* default_optimizer) {
  return {
      grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ (one cell per value; the thesis states none)"),
      features_parameter(),
      choice_parameter("optimizer", default_optimizer, {"cutting_plane", "proximal_bundle", "lbfgs"},
                       "training optimizer; `cutting_plane` (BMRM) and `proximal_bundle` (its first step of length "
                       "1/‖∇f(0)‖) certify the objective within `objective_tolerance` × max(1, objective) (unstated "
                       "in the thesis, which names L-BFGS)"),
      integer_parameter("max_iterations", 300, 1, 1000000000, "optimizer iterations (a cap; unstated)"),
      number_parameter("objective_tolerance", 1e-4, 0.0, 1.0,
                       "`cutting_plane`: certified relative gap; `lbfgs`: gradient tolerance (unstated)", true),
      number_parameter("game_tolerance", 1e-6, 0.0, 1.0, "double-oracle gap of each pair's game, in training and "
                                                         "prediction", true),
      integer_parameter("max_game_actions", 0, 0, 1000000000,
                        "actions per player and training game (0 = no cap; a capped game reports its gap)"),
      integer_parameter("max_game_iterations", 10000, 0, 1000000000,
                        "double-oracle iterations per game, in training and prediction (0 = no cap; a capped game reports its gap)"),
      integer_parameter("warm_actions", 50, 0, 1000000,
                        "most probable actions of a pair's last equilibrium that seed its next game (0 = none)"),
      number_parameter("max_seconds", 0.0, 0.0, 1e9, "wall-clock cap of a training (0 = none)"),
      protocol_parameter(),
      authors_max_iterations_parameter(),
  };
}

const std::vector<MethodKind>& alignment_methods() {
  static const std::vector<MethodKind> kinds = [] {
    std::vector<Parameter> bip = mpg_parameters("cutting_plane");
    bip.push_back(number_parameter("false_negative_cost", 1.0, 0.0, 1e9,
                                   "score: minus c_fn per link of the adversary's matching the prediction misses"));
    bip.push_back(number_parameter("false_positive_cost", 1.0, 0.0, 1e9,
                                   "score: minus c_fp per predicted link not in the adversary's matching (unstated; 0 "
                                   "is the reading 'shared links')"));
    std::vector<Parameter> aer = mpg_parameters("proximal_bundle");
    aer.push_back(number_parameter("empty_score", 0.0, 0.0, 1.0,
                                   "c = 1 − AER when the proposal and the sure set are both empty: 0 as Algorithm 5 "
                                   "is printed, 1 the F1 convention (unstated)"));
    return std::vector<MethodKind>{
        {"matching_ssvm",
         "SSVM: max-margin bipartite matching (Taskar et al. 2005; baselines/matching_ssvm.hpp), 1-slack cutting "
         "plane with loss-augmented Hungarian matching, loss c_fn |S \\ y| + c_fp |y \\ P|, target = the gold's best "
         "matching; a test pair gets the maximum-weight matching of w·φ (links of score ≤ 0 never proposed).",
         ParameterTable({grid_parameter("C", 0.0, 1e9, "grid of C (one cell per value; the thesis states none)"),
                         features_parameter(),
                         number_parameter("false_negative_cost", 1.0, 0.0, 1e9, "loss per missed sure link (unstated)"),
                         number_parameter("false_positive_cost", 1.0, 0.0, 1e9,
                                          "loss per proposed link outside P (unstated)"),
                         number_parameter("epsilon", 1e-3, 0.0, 1e9, "stop at primal − dual ≤ C ε (links per pair)",
                                          true),
                         integer_parameter("max_iterations", 1000, 1, 1000000000, "cutting-plane iterations (a cap)")})},
        {"mpg_bip",
         "MPG_bip (thesis §5.4): both players choose matchings; score = −(c_fn missed + c_fp extra links), the "
         "adversary's potential θ·φ summed over its links, gold = the target matching; one game per training pair "
         "(lib/models/alignment_mpg.hpp), the negated dual summed over pairs plus λ/2‖θ‖² minimized from θ = 0. A "
         "test pair gets its game's most probable predictor matching.",
         ParameterTable(bip)},
        {"mpg_aer",
         "MPG_aer (thesis §4.2.5, Algorithm 5): the predictor proposes any link set, the adversary tags word pairs "
         "S / P-only / N with potentials θ_S·φ and θ_R·φ; score 1 − AER; one game per training pair "
         "(lib/metrics/aer.hpp, lib/models/alignment_mpg.hpp), learned as MPG_bip. A test pair gets its game's most "
         "probable predictor link set.",
         ParameterTable(aer)},
    };
  }();
  return kinds;
}

// ---- Scores ------------------------------------------------------------------------------------

// Corpus AER of predictions (counts summed over pairs in pair order), in per cent, and the
// prediction games' statistics when there were games.
json score_part(const std::vector<AlignmentInstance>& part,
                const std::function<AlignmentPrediction(const AlignmentInstance&)>& predict, bool games) {
  std::vector<AlignmentPrediction> predicted(part.size());
  tbb::parallel_for(std::size_t{0}, part.size(), [&](std::size_t i) { predicted[i] = predict(part[i]); });
  AerCounts total;
  std::vector<double> seconds;
  std::vector<std::vector<double>> unit_rows;
  int unconverged = 0;
  double max_gap = 0.0;
  for (std::size_t i = 0; i < part.size(); ++i) {
    const AerCounts c = aer_counts(predicted[i].links, part[i].gold);
    unit_rows.push_back({c.proposed_sure, c.proposed_possible, c.proposed, c.sure});
    total.add(c);
    seconds.push_back(predicted[i].game.seconds);
    unconverged += games && !predicted[i].game.converged();
    max_gap = std::max(max_gap, predicted[i].game.gap);
  }
  json out = {{"pairs", part.size()},
              {"aer", 100.0 * aer_of_counts(total)},
              {"proposed", total.proposed},
              {"sure", total.sure},
              {"proposed_sure", total.proposed_sure},
              {"proposed_possible", total.proposed_possible}};
  if (!unit_rows.empty())
    out["units"] = unit_sample_json(stats::per_unit("pair", stats::UnitMeasure::aer, std::move(unit_rows)));
  if (games && !seconds.empty())
    out["games"] = {{"games", part.size()},
                    {"unconverged", unconverged},
                    {"max_gap", max_gap},
                    {"median_seconds", median(seconds)},
                    {"max_seconds", *std::max_element(seconds.begin(), seconds.end())}};
  return out;
}

// ---- The experiment ----------------------------------------------------------------------------

// The registry parts `unlabeled_<k>_english` that have a `unlabeled_<k>_french` partner, in order.
std::vector<std::string> unlabeled_stems(const json& variant) {
  static const std::regex pattern("unlabeled_(.+)_english");
  std::vector<std::string> stems;
  for (const auto& [part, entry] : variant.items()) {
    std::smatch m;
    if (std::regex_match(part, m, pattern) && variant.contains("unlabeled_" + m[1].str() + "_french"))
      stems.push_back("unlabeled_" + m[1].str());
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

AlignmentRun::AlignmentRun(json spec) : spec_(std::move(spec)) {
  choice_ = registry_choice(spec_["dataset"]);
  const json split = spec_.value("split", json::object());
  train_pairs_ = split.value("train_pairs", std::size_t{100});
  const json aligner = spec_.value("aligner", json::object());
  aligner_options_.model1_iterations = aligner.value("model1_iterations", aligner_options_.model1_iterations);
  aligner_options_.hmm_iterations = aligner.value("hmm_iterations", aligner_options_.hmm_iterations);

  // Every file verified against its sha256 before it is parsed.
  json hashes = json::object();
  auto verified = [&](const std::string& part) {
    VerifiedFile f = choice_.read(part);
    hashes[part] = f.sha256;
    return f.path;
  };
  const std::string test_e = verified("test_english"), test_f = verified("test_french"),
                    test_a = verified("test_alignment");
  const std::string trial_e = verified("trial_english"), trial_f = verified("trial_french"),
                    trial_a = verified("trial_alignment");
  labeled_ = read_naacl_labeled(test_e, test_f, test_a);
  trial_ = read_naacl_labeled(trial_e, trial_f, trial_a);
  if (labeled_.size() <= train_pairs_)
    throw InputError(test_a, fmt::format("{} labeled pairs leave none for testing after the first {} (split.train_pairs)",
                                         labeled_.size(), train_pairs_));
  std::vector<SentencePair> text = labeled_;
  text.insert(text.end(), trial_.begin(), trial_.end());
  for (const std::string& stem : unlabeled_stems(choice_.variant_entry())) {
    const std::string e = verified(stem + "_english"), f = verified(stem + "_french");
    const std::vector<SentencePair> more = read_parallel_text(e, f);
    text.insert(text.end(), more.begin(), more.end());
  }
  text_pairs_ = text.size();

  for (const auto& [method, m] : spec_["methods"].items())
    aligner_used_ = aligner_used_ || m.value("features", std::string("base")) == "aligner";
  const AssociationStatistics statistics(text);
  std::unique_ptr<BidirectionalAligner> trained;
  if (aligner_used_) {
    const auto start = clock_type::now();
    trained = std::make_unique<BidirectionalAligner>(BidirectionalAligner::train(text, aligner_options_));
    aligner_seconds_ = seconds_since(start);
    // The aligner alone, for the notes: its symmetrized links scored as a proposal.
    const std::vector<SentencePair> test_part(labeled_.begin() + static_cast<std::ptrdiff_t>(train_pairs_), labeled_.end());
    for (const auto& [name, method] : std::vector<std::pair<std::string, Symmetrization>>{
             {"intersection", Symmetrization::intersection}, {"grow_diag_final", Symmetrization::grow_diag_final}})
      for (const auto& [set, pairs] : std::vector<std::pair<std::string, const std::vector<SentencePair>*>>{
               {"valid", &trial_}, {"test", &test_part}}) {
        AerCounts total;
        for (const SentencePair& p : *pairs) {
          SentencePair proposal = p;
          proposal.links = trained->align(p, method);
          total.add(aer_counts(gold_action(proposal), gold_action(p)));
        }
        aligner_alone_[name][set] = 100.0 * aer_of_counts(total);
      }
  }
  auto featurize = [&](bool with_aligner, Parts& out) {
    AlignmentFeatureOptions o;
    o.aligner = with_aligner;
    const std::vector<SentencePair> train(labeled_.begin(), labeled_.begin() + static_cast<std::ptrdiff_t>(train_pairs_));
    const std::vector<SentencePair> test(labeled_.begin() + static_cast<std::ptrdiff_t>(train_pairs_), labeled_.end());
    out.train = featurize_pairs(train, statistics, trained.get(), o);
    out.valid = featurize_pairs(trial_, statistics, trained.get(), o);
    out.test = featurize_pairs(test, statistics, trained.get(), o);
  };
  featurize(false, base_);
  if (aligner_used_) featurize(true, with_aligner_);

  const json aligner_key = {{"model1_iterations", aligner_options_.model1_iterations},
                            {"hmm_iterations", aligner_options_.hmm_iterations}};
  for (const auto& [method, m] : spec_["methods"].items()) {
    const MethodKind& kind = family_named("alignment").method(m["kind"].get<std::string>());
    const ParameterValues values(kind.parameters, m);
    const Parameter* grid = kind.parameters.grid();
    const json key = {{"data", {choice_.dataset, choice_.variant, hashes}},
                      {"train_pairs", train_pairs_},
                      {"aligner", values.choice("features") == "aligner" ? aligner_key : json(nullptr)}};
    for (const auto& value : m[grid->name]) {
      kinds_.push_back(kind.kind);
      plans_.push_back({method, fmt::format("{:<36} {}={}", method, grid->name, value.get<double>()), key,
                        values.with(grid->name, value),
                        kind.kind == "mpg_aer" ? 2 : kind.kind == "mpg_bip" ? 1 : 0});  // long cells first
    }
  }
}

AlignmentMpgOptions mpg_options_of(const ParameterValues& p, const std::string& kind) {
  AlignmentMpgOptions o;
  o.kind = kind == "mpg_bip" ? AlignmentMpgKind::matching : AlignmentMpgKind::aer;
  o.lambda = p.number("lambda");
  if (kind == "mpg_bip") {
    o.matching.false_negative_cost = p.number("false_negative_cost");
    o.matching.false_positive_cost = p.number("false_positive_cost");
  } else {
    o.aer.empty_score = p.number("empty_score");
  }
  o.optimizer = p.choice("optimizer") == "lbfgs" ? OptimizerKind::lbfgs : OptimizerKind::cutting_plane;
  o.proximal = p.choice("optimizer") == "proximal_bundle";
  o.max_iterations = static_cast<int>(p.integer("max_iterations"));
  o.objective_tolerance = p.number("objective_tolerance");
  o.game_tolerance = p.number("game_tolerance");
  o.max_game_actions = static_cast<int>(p.integer("max_game_actions"));
  o.max_game_iterations = static_cast<int>(p.integer("max_game_iterations"));
  o.warm_actions = static_cast<int>(p.integer("warm_actions"));
  o.max_seconds = p.number("max_seconds");
  o.protocol = parse_training_protocol(p.choice("protocol"), "protocol");
  o.authors_max_iterations = static_cast<int>(p.integer("authors_max_iterations"));
  return o;
}

std::function<AlignmentPrediction(const AlignmentInstance&)> AlignmentRun::predictor(std::size_t cell,
                                                                                     const json& validation) const {
  const ParameterValues& p = plans_[cell].parameters;
  const std::vector<double> w = validation["weights"].get<std::vector<double>>();
  if (kinds_[cell] == "matching_ssvm") {
    auto model = std::make_shared<LinearAlignmentModel>();
    model->weights = Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
    return [model](const AlignmentInstance& x) { return AlignmentPrediction{predict_matching(*model, x), {}}; };
  }
  const AlignmentMpgOptions options = mpg_options_of(p, kinds_[cell]);
  auto model = std::make_shared<AlignmentMpgModel>();
  model->kind = options.kind;
  model->matching = options.matching;
  model->aer = options.aer;
  model->protocol = options.protocol;
  model->authors_game = options.authors_game;
  model->theta = Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
  const double tolerance = options.game_tolerance;
  const int iterations = options.max_game_iterations;
  return [model, tolerance, iterations](const AlignmentInstance& x) {
    return predict_alignment_mpg(*model, x, tolerance, iterations);
  };
}

json AlignmentRun::validate(std::size_t cell) const {
  const ParameterValues& p = plans_[cell].parameters;
  const std::string& kind = kinds_[cell];
  const Parts& data = parts(p.choice("features"));
  json result = json::object();
  const auto start = clock_type::now();
  if (kind == "matching_ssvm") {
    MatchingSsvmOptions o;
    o.C = p.number("C");
    o.costs = {p.number("false_negative_cost"), p.number("false_positive_cost")};
    o.epsilon = p.number("epsilon");
    o.max_iterations = static_cast<int>(p.integer("max_iterations"));
    MatchingSsvmSummary summary;
    const LinearAlignmentModel model = train_matching_ssvm(data.train, o, &summary);
    result["weights"] = to_std_vector(model.weights);
    result["training"] = summary.to_json();
    result["training"]["training_loss"] = summary.training_loss;
    result["training"]["message"] = summary.message;
  } else {
    const AlignmentMpgModel model = train_alignment_mpg(data.train, mpg_options_of(p, kind));
    result["weights"] = to_std_vector(model.theta);
    result["training"] = model.summary.to_json();
  }
  result["train_seconds"] = seconds_since(start);
  const auto scored = clock_type::now();
  result["valid"] = score_part(data.valid, predictor(cell, result), kind != "matching_ssvm");
  result["validation_seconds"] = seconds_since(scored);
  return result;
}

json AlignmentRun::test(std::size_t cell, const json& validation) const {
  const auto start = clock_type::now();
  const Parts& data = parts(plans_[cell].parameters.choice("features"));
  json result = {{"test", score_part(data.test, predictor(cell, validation), kinds_[cell] != "matching_ssvm")}};
  result["test_seconds"] = seconds_since(start);
  return result;
}

// ---- The family --------------------------------------------------------------------------------

class AlignmentFamily : public Family {
 public:
  std::string name() const override { return "alignment"; }
  std::string summary() const override {
    return "Word alignment (thesis §5.4, Table XIII): NAACL 2003 English–French pairs (registry format "
           "`naacl_alignment`: parts `test_{english,french,alignment}`, `trial_{...}` and any "
           "`unlabeled_<k>_{english,french}`). The first `split.train_pairs` labeled pairs train, the other labeled "
           "pairs test, the trial pairs validate; association counts and the IBM1/HMM aligner (trained once per "
           "run) read the text of every pair, never a gold link. Every (method, grid value) is a cell scored by "
           "corpus AER on the validation pairs; the lowest per method (first in grid order among ties) is scored "
           "on the test pairs.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"dataset", true, "`{registry, variant}`: a dataset of the registry (format `naacl_alignment`)"},
            {"split", false, "`{train_pairs}`: the first this many labeled pairs (file order) train (default 100)"},
            {"aligner", false,
             "`{model1_iterations, hmm_iterations}` of the IBM1/HMM aligner (default 5, 5: the 1⁵H⁵ of GIZA++'s "
             "1⁵H⁵3³4³)"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"published", false,
             "`{row: {method, valid, test}}`: AER in per cent; `method` names the spec method compared with the row "
             "(default: the row's name)"},
            {"claims", false,
             "`[{text, lower, than: [methods]}]`: the paper says `lower` has a lower AER than each of `than` (valid "
             "and test)"},
            {"tolerance", false, "a published number is matched when \\|ours − published\\| ≤ this, in points (default 2)"}};
  }
  const std::vector<MethodKind>& methods() const override { return alignment_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<AlignmentRun>(spec); }
};

void AlignmentFamily::validate(const json& spec, const SpecValidator& v) const {
  v.keys(spec["dataset"], "dataset", {"registry", "variant"}, {"registry"});
  v.registry_dataset(spec["dataset"], "dataset", {"naacl_alignment"});
  if (spec.contains("split")) {
    v.keys(spec["split"], "split", {"train_pairs"});
    const json& n = spec["split"].value("train_pairs", json(100));
    if (!n.is_number_integer() || n.get<long>() < 1)
      v.fail("split.train_pairs", "expected a whole number >= 1, got " + n.dump());
  }
  if (spec.contains("aligner")) {
    v.keys(spec["aligner"], "aligner", {"model1_iterations", "hmm_iterations"});
    for (const char* key : {"model1_iterations", "hmm_iterations"}) {
      if (!spec["aligner"].contains(key)) continue;
      const json& n = spec["aligner"][key];
      if (!n.is_number_integer() || n.get<long>() < 0 || n.get<long>() > 100)
        v.fail(std::string("aligner.") + key, "expected a whole number in 0..100, got " + n.dump());
    }
  }
  validate_tolerance(spec, v, 100.0);
  if (!spec["methods"].is_object() || spec["methods"].empty()) v.fail("methods", "expected a non-empty object");
  if (spec.contains("published")) {
    const json& p = spec["published"];
    if (!p.is_object()) v.fail("published", "expected an object of rows");
    for (const auto& [row, values] : p.items()) {
      const std::string where = "published." + row;
      v.keys(values, where, {"method", "valid", "test"}, {"valid", "test"});
      const std::string method = values.contains("method") ? v.string(values, "method", where).get<std::string>() : row;
      if (!spec["methods"].contains(method))
        v.fail(values.contains("method") ? where + ".method" : where, "no method '" + method + "' in methods");
      for (const char* set : kSets) v.number(values, set, where, 0.0, 100.0);
    }
  }
  if (spec.contains("claims")) {
    if (!spec["claims"].is_array()) v.fail("claims", "expected an array of {text, lower, than}");
    for (std::size_t i = 0; i < spec["claims"].size(); ++i) {
      const json& c = spec["claims"][i];
      const std::string where = fmt::format("claims[{}]", i);
      v.keys(c, where, {"text", "lower", "than"}, {"lower", "than"});
      if (c.contains("text")) v.string(c, "text", where);
      if (!spec["methods"].contains(v.string(c, "lower", where).get<std::string>()))
        v.fail(where + ".lower", "no method '" + c["lower"].get<std::string>() + "' in methods");
      if (!c["than"].is_array() || c["than"].empty()) v.fail(where + ".than", "expected a non-empty array of methods");
      for (const auto& other : c["than"])
        if (!other.is_string() || !spec["methods"].contains(other.get<std::string>()))
          v.fail(where + ".than", "no method " + other.dump() + " in methods");
    }
  }
}

}  // namespace mpg::harness::alignment_impl

namespace mpg::harness {
const Family& alignment_family() {
  static const alignment_impl::AlignmentFamily family;
  return family;
}

}  // namespace mpg::harness
