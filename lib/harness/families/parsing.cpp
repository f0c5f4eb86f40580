// Family "parsing" (thesis §5.5, Table XIV): constituency parsing from POS tags on the Penn
// Treebank, sentences of <= 10 words, scored by 1 - Hamming over labeled constituents and evalb
// labeled-bracket F1 on two test sets (testa, testb).
//
// Data: a PTB archive of the registry (format `ptb_zip`, part `archive`) split by WSJ file number
// into train / validation / testa / testb documents (lib/data/ptb.hpp). The rule set of the
// feature grammar ('@X' binarization, rule counts: lib/structures/cfg.hpp) and the PCFGs are read from
// every tree of the training documents (or only their short sentences); the SSVM and the MPG
// train on the short training sentences. Every (method, grid value) is a validation cell; the best
// grid value per method (spec `selection_metric` on the validation documents, first in grid order
// among ties) is scored on testa and testb. A sentence the feature grammar cannot parse gets the
// flat fallback tree (counted in the tables).
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
#include "lib/models/cfg_mpg.hpp"
#include "lib/harness/families/parsing.hpp"

namespace mpg::harness::parsing_impl {

// ---- Methods -----------------------------------------------------------------------------------

const std::vector<MethodKind>& parsing_methods() {
  static const std::vector<MethodKind> kinds = {
      {"mpg_cfg",
       "MPG_cfg (thesis Algorithm 6; lib/models/cfg_mpg.hpp): one game per training sentence between a predictor and "
       "an adversary over binary parses, the adversary's potential θ·Φ over rule counts; the objective is the "
       "negated dual summed over sentences plus λ/2‖θ‖², minimized from θ = 0. A test sentence gets its game's most "
       "probable predictor parse.",
       ParameterTable({
           grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ (one cell per value; the thesis states none)"),
           choice_parameter("score", "hamming", {"hamming", "shared"},
                            "game score: `hamming` = minus the number of constituents in C(ŷ) Δ C(y̌) (the Hamming loss the "
                            "thesis says is optimized) or `shared` = the number in C(ŷ) ∩ C(y̌) (Algorithm 6 as "
                            "printed)"),
           choice_parameter("optimizer", "cutting_plane", {"cutting_plane", "lbfgs"},
                            "training optimizer; `cutting_plane` certifies the objective within "
                            "`objective_tolerance` × max(1, objective); unstated in the thesis"),
           integer_parameter("max_iterations", 300, 1, 1000000000, "optimizer iterations (a cap; unstated)"),
           number_parameter("objective_tolerance", 1e-3, 0.0, 1.0,
                            "`cutting_plane`: certified relative gap; `lbfgs`: gradient tolerance (unstated)", true),
           number_parameter("game_tolerance", 1e-6, 0.0, 1.0,
                            "double-oracle gap of each sentence game, in training and prediction", true),
           number_parameter("max_seconds", 0.0, 0.0, 1e9, "wall-clock cap of a training (0 = none)"),
           choice_parameter("protocol", "certified", training_protocol_names(),
                            "how θ is found (lib/learn/protocol.hpp): `certified` by `optimizer` to a certified "
                            "objective; `authors_lbfgs` (L-BFGS, 5 corrections, gradient tolerance 1e-6) or "
                            "`authors_adadelta` (ρ 0.95, ε e⁻⁶, both stop tests, full batch) as the authors' code, from "
                            "θ = 0, every game stopped by the reference's rule (LP value repeats to 1e-8, or 300 actions "
                            "per player) and decided by its likeliest pure action; `optimizer`, `objective_tolerance` "
                            "and `game_tolerance` then unused"),
           integer_parameter("authors_max_iterations", 200, 1, 1000000000,
                             "authors' protocols: optimizer iterations (the reference's 200 L-BFGS evaluations or "
                             "AdaDelta passes; lower only to shorten a smoke run)"),
       })},
      {"svm_cfg",
       "SSVM with the Hamming loss over labeled constituents (SVM^struct's svm_cfg; baselines/svm_cfg.hpp): 1-slack "
       "cutting plane with exact loss-augmented CYK, rule-count features, from w = 0; a test sentence gets the CYK "
       "parse of largest w·Φ.",
       ParameterTable({grid_parameter("C", 0.0, 1e9,
                                      "grid of C as in `svm_struct_learn -c` (one cell per value; the thesis states "
                                      "none)"),
                       number_parameter("epsilon", 0.1, 0.0, 1e9,
                                        "stop at primal − dual ≤ C ε (SVM^struct's default -e 0.1)", true),
                       integer_parameter("max_iterations", 1000, 1, 1000000000, "cutting-plane iterations (a cap)")})},
      {"pcfg",
       "STAND-IN for the Stanford parser (not available): a maximum-likelihood PCFG of the grammar's trees, Viterbi "
       "CYK over the tags, backed off to the '@X' PCFG for a sentence it cannot parse (baselines/pcfg.hpp).",
       ParameterTable({choice_parameter("preset", "markovized", {"markovized", "treebank"},
                                        "`markovized`: parent annotation and h = 2 Markovization (Klein & Manning "
                                        "2003's basic setting); `treebank`: the plain treebank grammar")})},
  };
  return kinds;
}

// ---- Scores ------------------------------------------------------------------------------------

EvalbRules evalb_rules_of(const json& spec) {
  const json e = spec.value("evalb", json::object());
  EvalbRules rules;
  rules.options.outer_bracket = parse_outer_bracket(e.value("outer_bracket", std::string("delete")));
  rules.skip_unparsable = e.value("unparsable", std::string("fallback")) == "skip";
  return rules;
}

json to_json(const EvalbRules& rules) {
  return {{"outer_bracket", to_string(rules.options.outer_bracket)},
          {"unparsable", rules.skip_unparsable ? "skip" : "fallback"}};
}

// 1 - Hamming averaged over sentences (macro; the reported form) and from summed counts (micro),
// evalb F1 from summed counts under `rules` (and under each of evalb's other conventions, for the
// tables' notes), fallbacks, and the test games of MPG_cfg.
json score_part(const std::vector<PtbSentence>& part, const std::function<Parsed(const PtbSentence&)>& parse,
                const EvalbRules& rules) {
  std::vector<Parsed> parsed(part.size());
  tbb::parallel_for(std::size_t{0}, part.size(), [&](std::size_t i) { parsed[i] = parse(part[i]); });
  HammingCounts hamming;
  // evalb counts by [outer bracket kept][unparsable sentence skipped].
  EvalbCounts conventions[2][2];
  double macro = 0.0, macro_dice = 0.0;
  int fallbacks = 0, games = 0, unconverged = 0;
  std::vector<double> game_seconds;
  // Per sentence: 1 − Hamming and the used convention's evalb counts (the intervals' units).
  std::vector<std::vector<double>> hamming_rows, evalb_rows;
  for (std::size_t i = 0; i < part.size(); ++i) {  // in sentence order: the same sums with any thread count
    const HammingCounts h = hamming_counts(parsed[i].prediction.tree, part[i].tree);
    hamming_rows.push_back({h.one_minus_hamming()});
    if (!(rules.skip_unparsable && parsed[i].prediction.fallback)) {
      const EvalbCounts e = evalb_counts(part[i].tree, parsed[i].prediction.tree, rules.options);
      evalb_rows.push_back({e.matched, e.test - e.matched, e.gold - e.matched});
    }
    macro += h.one_minus_hamming();
    macro_dice += h.dice();
    hamming.add(h);
    for (const OuterBracket outer : {OuterBracket::deleted, OuterBracket::kept}) {
      const EvalbCounts e = evalb_counts(part[i].tree, parsed[i].prediction.tree, {outer});
      conventions[outer == OuterBracket::kept][0].add(e);
      if (!parsed[i].prediction.fallback) conventions[outer == OuterBracket::kept][1].add(e);
    }
    fallbacks += parsed[i].prediction.fallback;
    if (!parsed[i].game) continue;
    ++games;
    unconverged += !parsed[i].game->converged();
    game_seconds.push_back(parsed[i].game->seconds);
  }
  const EvalbCounts& evalb = conventions[rules.options.outer_bracket == OuterBracket::kept][rules.skip_unparsable];
  json by_convention = json::object();  // "<outer bracket>/<unparsable>" -> F1
  for (int kept = 0; kept < 2; ++kept)
    for (int skip = 0; skip < 2; ++skip)
      by_convention[fmt::format("{}/{}", kept ? "keep" : "delete", skip ? "skip" : "fallback")] =
          conventions[kept][skip].f1();
  json out = {{"sentences", part.size()},
              {"one_minus_hamming", part.empty() ? 0.0 : macro / static_cast<double>(part.size())},
              {"one_minus_hamming_micro", hamming.one_minus_hamming()},
              {"dice_diagnostic", part.empty() ? 0.0 : macro_dice / static_cast<double>(part.size())},
              {"evalb_f1", evalb.f1()},
              {"evalb_precision", evalb.precision()},
              {"evalb_recall", evalb.recall()},
              {"evalb_sentences", evalb.sentences},
              {"evalb_f1_by_convention", by_convention},
              {"fallbacks", fallbacks}};
  if (!hamming_rows.empty())
    out["units"] = {{"one_minus_hamming", unit_sample_json(stats::per_unit("sentence", stats::UnitMeasure::mean, std::move(hamming_rows)))},
                    {"evalb_f1", unit_sample_json(stats::per_unit("sentence", stats::UnitMeasure::f1, std::move(evalb_rows)))}};
  if (games > 0)
    out["games"] = {{"games", games},
                    {"unconverged", unconverged},
                    {"median_seconds", median(game_seconds)},
                    {"max_seconds", *std::max_element(game_seconds.begin(), game_seconds.end())}};
  return out;
}

// ---- The experiment ----------------------------------------------------------------------------

PtbSplitOptions split_options(const json& spec) {
  const json s = spec.value("split", json::object());
  PtbSplitOptions o;
  o.modulus = s.value("modulus", 10);
  o.testa_residues = s.value("testa", std::vector<int>{8});
  o.testb_residues = s.value("testb", std::vector<int>{9, 0});
  o.validation_residues = s.value("validation", std::vector<int>{7});
  o.max_length = s.value("max_length", std::size_t{10});
  return o;
}

json split_json(const PtbSplitOptions& o) {
  return {{"modulus", o.modulus},
          {"testa", o.testa_residues},
          {"testb", o.testb_residues},
          {"validation", o.validation_residues},
          {"max_length", o.max_length}};
}

std::vector<PtbTree> trees_of(const std::vector<PtbSentence>& sentences) {
  std::vector<PtbTree> trees;
  for (const auto& s : sentences) trees.push_back(s.tree);
  return trees;
}

ParsingRun::ParsingRun(json spec) : spec_(std::move(spec)) {
  selection_ = spec_.value("selection_metric", std::string("evalb_f1"));
  evalb_ = evalb_rules_of(spec_);
  choice_ = registry_choice(spec_["dataset"]);
  archive_ = choice_.read("archive");
  archive_.content.clear();  // read below as a zip archive; the hash is what was needed
  split_options_ = split_options(spec_);
  split_ = split_ptb_sample(read_ptb_archive(archive_.path), split_options_);
  if (split_.train.empty()) throw InputError(archive_.path, "the split leaves no training sentence");
  if (split_.validation.empty())
    throw InputError(archive_.path, "the split leaves no validation sentence to choose hyper-parameters on");
  grammar_from_all_lengths_ = spec_.value("grammar", std::string("training_documents")) == "training_documents";
  grammar_trees_ = trees_of(grammar_from_all_lengths_ ? split_.train_all_lengths : split_.train);
  std::vector<PtbTree> cnf;
  for (const auto& t : grammar_trees_) cnf.push_back(to_cnf(t));
  grammar_ = Grammar::from_cnf_trees(cnf);
  fallback_label_ = most_frequent_root(cnf);
  for (const auto& s : split_.train) {
    const PtbTree t = to_cnf(s.tree);
    examples_.push_back({grammar_.tag_ids(cnf_tags(t)), encode_parse(grammar_, t)});
  }
  const json data_key = {{"data", {choice_.dataset, choice_.variant, archive_.sha256}},
                         {"split", split_json(split_options_)},
                         {"grammar", grammar_from_all_lengths_ ? "training_documents" : "short_sentences"},
                         {"evalb", to_json(evalb_)}};
  for (const auto& [method, m] : spec_["methods"].items()) {
    const MethodKind& kind = family_named("parsing").method(m["kind"].get<std::string>());
    const ParameterValues values(kind.parameters, m);
    const Parameter* grid = kind.parameters.grid();  // none: one cell
    for (const auto& value : grid ? m[grid->name] : json::array({nullptr})) {
      kinds_.push_back(kind.kind);
      plans_.push_back({method,
                        fmt::format("{:<38} {}", method, grid ? fmt::format("{}={}", grid->name, value.get<double>()) : ""),
                        data_key, grid ? values.with(grid->name, value) : values,
                        kind.kind == "mpg_cfg" ? 2 : kind.kind == "svm_cfg" ? 1 : 0});  // long cells first
    }
  }
}

CfgMpgOptions mpg_options_of(const ParameterValues& p) {
  CfgMpgOptions o;
  o.lambda = p.number("lambda");
  o.score = parse_parse_score(p.choice("score"));
  o.optimizer = p.choice("optimizer") == "lbfgs" ? OptimizerKind::lbfgs : OptimizerKind::cutting_plane;
  o.max_iterations = static_cast<int>(p.integer("max_iterations"));
  o.objective_tolerance = p.number("objective_tolerance");
  o.game_tolerance = p.number("game_tolerance");
  o.max_seconds = p.number("max_seconds");
  o.protocol = parse_training_protocol(p.choice("protocol"), "protocol");
  o.authors_max_iterations = static_cast<int>(p.integer("authors_max_iterations"));
  return o;
}

std::function<Parsed(const PtbSentence&)> ParsingRun::parser(std::size_t cell, const json& validation) const {
  const ParameterValues& p = plans_[cell].parameters;
  const std::string& kind = kinds_[cell];
  if (kind == "pcfg") {
    auto pcfg = std::make_shared<const Pcfg>(train_pcfg(grammar_trees_, pcfg_preset(p.choice("preset"))));
    return [pcfg](const PtbSentence& s) { return Parsed{pcfg_parse(*pcfg, tags_of(s.tree), words_of(s.tree)), {}}; };
  }
  if (kind == "svm_cfg") {
    auto w = std::make_shared<const std::vector<double>>(validation["weights"].get<std::vector<double>>());
    return [this, w](const PtbSentence& s) {
      return Parsed{predict_tree(grammar_, tags_of(s.tree), words_of(s.tree), *w, fallback_label_), {}};
    };
  }
  auto model = std::make_shared<CfgMpgModel>();
  model->theta = validation["weights"].get<std::vector<double>>();
  model->score = parse_parse_score(p.choice("score"));
  const CfgMpgOptions options = mpg_options_of(p);
  model->protocol = options.protocol;
  model->authors_game = options.authors_game;
  const double tolerance = p.number("game_tolerance");
  return [this, model, tolerance](const PtbSentence& s) {
    DoubleOracleSummary game;
    Parsed out{predict_cfg_mpg(grammar_, *model, tags_of(s.tree), words_of(s.tree), fallback_label_, tolerance, &game), {}};
    if (!out.prediction.fallback) out.game = game;
    return out;
  };
}

json ParsingRun::validate(std::size_t cell) const {
  const ParameterValues& p = plans_[cell].parameters;
  const std::string& kind = kinds_[cell];
  json result = json::object();
  const auto start = clock_type::now();
  if (kind == "svm_cfg") {
    SvmCfgOptions o;
    o.C = p.number("C");
    o.epsilon = p.number("epsilon");
    o.max_iterations = static_cast<int>(p.integer("max_iterations"));
    SvmCfgSummary summary;
    result["weights"] = train_svm_cfg(grammar_, examples_, o, &summary);
    result["training"] = summary.to_json();
  } else if (kind == "mpg_cfg") {
    const CfgMpgModel model = train_cfg_mpg(grammar_, examples_, mpg_options_of(p));
    result["weights"] = model.theta;
    result["training"] = model.summary.to_json();
  }
  result["train_seconds"] = seconds_since(start);
  const auto scored = clock_type::now();
  result["validation"] = score_part(split_.validation, parser(cell, result), evalb_);
  result["validation_seconds"] = seconds_since(scored);
  return result;
}

json ParsingRun::test(std::size_t cell, const json& validation) const {
  const auto start = clock_type::now();
  const auto parse = parser(cell, validation);
  json result = {{"testa", score_part(split_.testa, parse, evalb_)}, {"testb", score_part(split_.testb, parse, evalb_)}};
  result["test_seconds"] = seconds_since(start);
  return result;
}

// ---- The family --------------------------------------------------------------------------------

class ParsingFamily : public Family {
 public:
  std::string name() const override { return "parsing"; }
  std::string summary() const override {
    return "Constituency parsing from POS tags (thesis §5.5, Table XIV): a Penn Treebank archive (registry format "
           "`ptb_zip`, part `archive`) split by WSJ file number into train / validation / testa / testb documents, "
           "sentences of ≤ `split.max_length` words (traces excluded, punctuation counted: evalb's rule). Every "
           "(method, grid value) is a cell trained on the short training sentences and scored on the validation "
           "sentences; the best grid value per method by `selection_metric` (first in grid order among ties) is "
           "scored on testa and testb by 1 − Hamming over labeled constituents (|pred ∩ gold| / |pred ∪ gold| per "
           "sentence, averaged: thesis §4.2.6) and evalb F1 (COLLINS.prm, corpus level).";
  }
  std::vector<SpecKey> keys() const override {
    return {{"dataset", true, "`{registry, variant}`: a PTB archive of the registry (format `ptb_zip`)"},
            {"split", false,
             "`{modulus, testa, testb, validation, max_length}`: a document goes to testa / testb / validation when "
             "its WSJ file number mod `modulus` is in that list, else to train (default 10, [8], [9, 0], [7], 10)"},
            {"grammar", false,
             "trees the rule set and the PCFGs are read from: `training_documents` (default: every tree of the "
             "training documents, any length) or `short_sentences` (the training sentences only)"},
            {"selection_metric", false, "validation score that selects grid values: `evalb_f1` (default) or "
                                        "`one_minus_hamming`"},
            {"evalb", false,
             "`{outer_bracket, unparsable}`: evalb's choices left open by COLLINS.prm. `outer_bracket`: `delete` "
             "(default; the PTB's unlabeled outer bracket is not a bracket) or `keep` (both trees scored inside it, "
             "and it counts as a bracket labelled \"\", as evalb on PTB files); `unparsable`: `fallback` (default; "
             "a sentence the method cannot parse is scored as its flat fallback tree) or `skip` (left out of the "
             "evalb counts, as evalb skips a sentence without a usable parse). 1 − Hamming is not affected"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"published", false,
             "`{row: {method, one_minus_hamming: {testa, testb}, evalb_f1: {testa, testb}}}` in per cent; `method` "
             "names the spec method compared with the row (default: the row's name)"},
            {"claims", false, "`[{above, below}]`: methods the paper says are ordered so on both measures and test sets"},
            {"tolerance", false, "a published number is matched when \\|ours − published\\| ≤ this, in points (default 2)"}};
  }
  const std::vector<MethodKind>& methods() const override { return parsing_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<ParsingRun>(spec); }
};

void ParsingFamily::validate(const json& spec, const SpecValidator& v) const {
  v.keys(spec["dataset"], "dataset", {"registry", "variant"}, {"registry"});
  v.registry_dataset(spec["dataset"], "dataset", {"ptb_zip"});
  if (spec.contains("split")) {
    const json& s = spec["split"];
    v.keys(s, "split", {"modulus", "testa", "testb", "validation", "max_length"});
    int modulus = 10;
    if (s.contains("modulus")) {
      if (!s["modulus"].is_number_integer() || s["modulus"].get<int>() < 2)
        v.fail("split.modulus", "expected a whole number >= 2, got " + s["modulus"].dump());
      modulus = s["modulus"].get<int>();
    }
    if (s.contains("max_length") && (!s["max_length"].is_number_integer() || s["max_length"].get<int>() < 1))
      v.fail("split.max_length", "expected a whole number >= 1, got " + s["max_length"].dump());
    std::map<int, std::string> owner;
    for (const char* part : {"testa", "testb", "validation"}) {
      if (!s.contains(part)) continue;
      const std::string where = std::string("split.") + part;
      if (!s[part].is_array()) v.fail(where, "expected an array of residues");
      for (const auto& r : s[part]) {
        if (!r.is_number_integer() || r.get<int>() < 0 || r.get<int>() >= modulus)
          v.fail(where, fmt::format("every residue must be a whole number in 0..{}, got {}", modulus - 1, r.dump()));
        if (const auto [it, fresh] = owner.emplace(r.get<int>(), part); !fresh)
          v.fail(where, fmt::format("residue {} is already in split.{}", r.get<int>(), it->second));
      }
    }
    if (s.contains("validation") && s["validation"].empty())
      v.fail("split.validation", "expected at least one residue: hyper-parameters are chosen on it");
  }
  if (spec.contains("grammar")) {
    const std::string g = v.string(spec, "grammar", "").get<std::string>();
    if (g != "training_documents" && g != "short_sentences")
      v.fail("grammar", "expected 'training_documents' or 'short_sentences', got '" + g + "'");
  }
  if (spec.contains("evalb")) {
    v.keys(spec["evalb"], "evalb", {"outer_bracket", "unparsable"}, {});
    const json& e = spec["evalb"];
    if (e.contains("outer_bracket")) {
      const std::string o = v.string(e, "outer_bracket", "evalb").get<std::string>();
      if (o != "delete" && o != "keep") v.fail("evalb.outer_bracket", "expected 'delete' or 'keep', got '" + o + "'");
    }
    if (e.contains("unparsable")) {
      const std::string u = v.string(e, "unparsable", "evalb").get<std::string>();
      if (u != "fallback" && u != "skip") v.fail("evalb.unparsable", "expected 'fallback' or 'skip', got '" + u + "'");
    }
  }
  if (spec.contains("selection_metric")) {
    const std::string s = v.string(spec, "selection_metric", "").get<std::string>();
    if (!kMeasureNames.count(s)) v.fail("selection_metric", "expected 'evalb_f1' or 'one_minus_hamming', got '" + s + "'");
  }
  validate_tolerance(spec, v, 100.0);
  if (!spec["methods"].is_object() || spec["methods"].empty()) v.fail("methods", "expected a non-empty object");
  if (spec.contains("published")) {
    const json& p = spec["published"];
    if (!p.is_object()) v.fail("published", "expected an object of rows");
    for (const auto& [row, values] : p.items()) {
      const std::string where = "published." + row;
      v.keys(values, where, {"method", "one_minus_hamming", "evalb_f1"}, {"one_minus_hamming", "evalb_f1"});
      const std::string method = values.contains("method") ? v.string(values, "method", where).get<std::string>() : row;
      if (!spec["methods"].contains(method))
        v.fail(values.contains("method") ? where + ".method" : where, "no method '" + method + "' in methods");
      for (const char* measure : kMeasures) {
        v.keys(values[measure], where + "." + measure, {"testa", "testb"}, {"testa", "testb"});
        for (const char* set : kTestSets) v.number(values[measure], set, where + "." + measure, 0.0, 100.0);
      }
    }
  }
  if (spec.contains("claims")) {
    if (!spec["claims"].is_array()) v.fail("claims", "expected an array of {above, below}");
    for (std::size_t i = 0; i < spec["claims"].size(); ++i) {
      const json& c = spec["claims"][i];
      const std::string where = fmt::format("claims[{}]", i);
      v.keys(c, where, {"above", "below"}, {"above", "below"});
      for (const char* side : {"above", "below"})
        if (!spec["methods"].contains(v.string(c, side, where).get<std::string>()))
          v.fail(where + "." + side, "no method '" + c[side].get<std::string>() + "' in methods");
    }
  }
}

}  // namespace mpg::harness::parsing_impl

namespace mpg::harness {

const Family& parsing_family() {
  static const parsing_impl::ParsingFamily family;
  return family;
}

}  // namespace mpg::harness
