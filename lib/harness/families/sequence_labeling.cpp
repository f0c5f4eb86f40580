// Family "sequence_labeling" (thesis §5.2, Tables IX and X): CoNLL-2003 subsets conll.N = the
// first N sentences of each of eng.train, eng.testa and eng.testb ("-DOCSTART-" lines skipped).
// A spec with "table": "statistics" has no cells: its tables (Table IX) come from the data. With
// "table": "f1" every (subset, method, λ) is a cell — for the MPG also per target class, one model
// per class — trained on the subset and scored on validation, testa and testb at once.
//
// Protocol (the thesis gives none): the validation set of conll.N is the round(f N) sentences of
// eng.train that follow the subset (never in its training part). Per (subset, method, class) the
// λ with the best validation token F1 of that class is selected (first in grid order among ties;
// a CRF cell competes for every class) and its testa/testb scores are reported: only the
// validation score takes part in the choice, so there is no separate test phase.
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
#include "lib/models/linear_chain_mpg.hpp"
#include "lib/harness/families/sequence_labeling.hpp"

namespace mpg::harness::sequence_labeling_impl {

std::string class_name(int label) { return conll_label_names()[static_cast<std::size_t>(label)]; }

const std::vector<MethodKind>& sequence_methods() {
  // The linear-chain MPG's defaults, declared once in its options struct.
  static const LinearChainMpgOptions kLinearChainDefaults;
  static const std::vector<MethodKind> kinds = {
      {"crf",
       "L2-regularized linear-chain CRF over the five labels (baselines/crf.hpp): one model scores every class. "
       "L-BFGS from θ = 0 with the Wolfe line search.",
       ParameterTable({kLambda, integer_parameter("max_iterations", 300, 1, 1000000000, "L-BFGS iterations")})},
      {"mpg",
       "Linear-chain F1 MPG (lib/models/linear_chain_mpg.hpp): one model per target class, a game per sentence on "
       "the token-level F1 of that class; a test sentence is labelled by the `decision` rule. "
       "`instance_planes` and `cutting_plane` train from θ = 0, `lbfgs` from a seeded N(0, 0.01²) θ (θ = 0 is a "
       "degenerate kink of the objective where its line search fails).",
       ParameterTable(
           {kLambda,
            choice_parameter("optimizer", kLinearChainDefaults.instance_planes ? "instance_planes" : to_string(kLinearChainDefaults.optimizer), {"instance_planes", "cutting_plane", "lbfgs"},
                             "training: `instance_planes` minimizes the objective (the thesis' MPG) with one "
                             "cutting-plane model per sentence (lib/learn/block_coordinate.hpp) and certifies it by a "
                             "lower bound, stopping at `objective_tolerance`; `cutting_plane` reaches the same "
                             "certificate with one model of the whole sum (the proximal bundle: slower and up to 16× "
                             "the memory where λ is large; needed by `lambda_path`); `lbfgs` (Armijo line search) "
                             "stops at `max_iterations` without a certificate (the earlier tables: 100 iterations; "
                             "the thesis states no optimizer or cap)"),
            integer_parameter("max_iterations", kLinearChainDefaults.max_iterations, 1, 1000000000,
                              "iterations of the optimizer: the L-BFGS cap, or a safety cap on the passes of "
                              "`instance_planes` or the iterations of `cutting_plane` (a training it stops is "
                              "reported as not converged)"),
            number_parameter("objective_tolerance", kLinearChainDefaults.objective_tolerance, 0.0, 1.0,
                             "`instance_planes`, `cutting_plane`: stop when the objective is certified within this × "
                             "max(1, objective magnitude)",
                             true),
            number_parameter("argument_tolerance", kLinearChainDefaults.argument_tolerance, 0.0, 1e9,
                             "`instance_planes`, `cutting_plane`: also stop only once θ is certified within this "
                             "distance of the minimizer, ‖θ − θ*‖ ≤ sqrt(2 gap / λ) (strong convexity); pins the "
                             "model where the relative `objective_tolerance` leaves the validation F1 to chance "
                             "(docs/methods.md). 0 = off; when set, both tests must hold"),
            number_parameter("game_tolerance", kLinearChainDefaults.game_tolerance, 0.0, 1.0,
                             "double-oracle gap of each sentence game, in training and prediction", true),
            choice_parameter("decision", "most_probable", {"most_probable", "maximin"},
                             "test-time rule: `most_probable` (the papers': the likeliest action of the predictor's "
                             "equilibrium strategy found by the double oracle; it can depend on which equilibrium "
                             "the solver lands on) or `maximin` (the action with the best guaranteed F1 minus "
                             "potential among the top-k candidates by the adversary's chain marginals: stated on "
                             "the game alone, no solver changes it; docs/methods.md)"),
            choice_parameter("protocol", to_string(kLinearChainDefaults.protocol), training_protocol_names(),
                             "how θ is found (lib/learn/protocol.hpp, issue 53): `certified` (the settings above: the "
                             "thesis' MPG, a certified minimum) or the authors' code's training: from θ = 0, "
                             "`authors_lbfgs` (L-BFGS, 5 corrections, 200 iterations) or `authors_adadelta` (AdaDelta "
                             "over mini-batches of `batch_size` sentences, 200 passes, the reference's two stop "
                             "tests), every sentence game stopped by the reference's rule (value repeated at 1e-8, "
                             "or 300 actions per player) in training and prediction; `optimizer`, `max_iterations`, "
                             "the tolerances and `lambda_path` do not apply"),
            integer_parameter("batch_size", kLinearChainDefaults.batch_size, 1, 1000000,
                              "`authors_adadelta`: sentences per mini-batch (the reference's thread-pool size, #cpus "
                              "+ 1 of an unstated machine; default: 8 threads)"),
            flag_parameter("lambda_path", false,
                           "`cutting_plane`: train the λ grid of each (subset, class) as one path, largest λ first, "
                           "each training warm-started from the previous one (its cuts of the λ-free part of the "
                           "objective, which bound it for every λ, its optimum and the games' supports): the same "
                           "certificate, far fewer iterations (needs `optimizer` = `cutting_plane`). A λ's result "
                           "then depends on the larger λ of the grid (they are in its cache key), not on threads "
                           "or scheduling. Off by default: at the "
                           "relative `objective_tolerance` the previous optimum is often already certified, so "
                           "cells of different λ hold one model (docs/methods.md)")})},
  };
  return kinds;
}

// Per class: token-level and conlleval entity-level F1 of a labelling of `gold`, with the counts.
json score_set(const std::vector<ConllSentence>& gold, const std::vector<std::vector<int>>& predicted,
               const std::vector<int>& classes) {
  json out = json::object();
  ChunkCounts chunks;
  std::vector<TokenCounts> tokens(classes.size());
  // Per sentence and class, (tp, fp, fn) at both levels: the units of the tables' intervals.
  std::vector<std::vector<std::vector<double>>> token_rows(classes.size()), entity_rows(classes.size());
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const ChunkCounts sentence = conlleval_counts(gold[i].tags, tags_of_labels(predicted[i]));
    chunks.add(sentence);
    for (std::size_t k = 0; k < classes.size(); ++k) {
      TokenCounts t;
      t.add(predicted[i], gold[i].labels, classes[k]);
      tokens[k].add(predicted[i], gold[i].labels, classes[k]);
      const auto c = static_cast<std::size_t>(classes[k]);
      auto tp_fp_fn = [](double tp, double guessed, double truth) { return std::vector<double>{tp, guessed - tp, truth - tp}; };
      token_rows[k].push_back(tp_fp_fn(double(t.true_positives), double(t.predicted), double(t.gold)));
      entity_rows[k].push_back(tp_fp_fn(double(sentence.correct[c]), double(sentence.guessed[c]), double(sentence.gold[c])));
    }
  }
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const auto c = static_cast<std::size_t>(classes[k]);
    out[class_name(classes[k])] = {
        {"token", tokens[k].f1()},
        {"entity", chunks.f1(classes[k])},
        {"token_counts", {tokens[k].true_positives, tokens[k].predicted, tokens[k].gold}},
        {"entity_counts", {chunks.correct[c], chunks.guessed[c], chunks.gold[c]}},
        // Stored merged (most sentences hold no entity of a class): thousands of sentences per cell.
        {"token_units", unit_sample_json(stats::per_unit("sentence", stats::UnitMeasure::f1, std::move(token_rows[k])).canonical())},
        {"entity_units", unit_sample_json(stats::per_unit("sentence", stats::UnitMeasure::f1, std::move(entity_rows[k])).canonical())}};
  }
  return out;
}

SequenceRun::SequenceRun(json spec) : spec_(std::move(spec)), choice_(registry_choice(spec_["dataset"])) {
  for (const char* part : kParts) files_[part] = choice_.read(part);
  auto sentences = [&](const char* part, std::size_t first, std::size_t count) {
    return parse_conll(files_.at(part).content, files_.at(part).path, first, count);
  };
  const bool f1 = spec_["table"] == "f1";
  for (const auto& c : spec_.value("classes", json::array())) classes_.push_back(conll_label_of_name(c.get<std::string>()));
  for (const auto& [name, n] : spec_["subsets"].items()) {
    auto s = std::make_unique<Subset>();
    s->name = name;
    s->size = n.get<std::size_t>();
    for (const char* part : kParts) {
      s->sets[part] = sentences(part, 0, s->size);
      if (s->sets[part].size() < s->size)
        throw InputError(files_.at(part).path, fmt::format("has {} sentences, fewer than subset {} needs ({})",
                                                           s->sets[part].size(), name, s->size));
    }
    if (f1) {
      const double fraction = spec_["protocol"]["validation_fraction"].get<double>();
      const auto wanted = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(s->size)));
      s->sets["validation"] = sentences("train", s->size, wanted);
      if (s->sets["validation"].size() < wanted)
        throw InputError(files_.at("train").path,
                         fmt::format("has too few sentences for {} plus {} validation sentences", name, wanted));
      FeatureDictionary dictionary;
      dictionary.build(s->sets["train"]);
      s->feature_count = dictionary.size();
      for (const auto& [set, sentences_of_set] : s->sets) s->featurized[set] = dictionary.featurize(sentences_of_set);
    }
    subsets_.push_back(std::move(s));
  }
  std::stable_sort(subsets_.begin(), subsets_.end(), [](const auto& a, const auto& b) { return a->size < b->size; });
  for (auto& [part, file] : files_) file.content.clear();  // parsed; the hashes are what the tables need
  if (!f1) return;  // Table IX: no cells

  json class_names = json::array();
  for (int c : classes_) class_names.push_back(class_name(c));
  for (const auto& s : subsets_)
    for (const auto& [method, m] : spec_["methods"].items()) {
      const std::string kind = m["kind"].get<std::string>();
      const ParameterValues values(family_named("sequence_labeling").method(kind).parameters, m);
      const std::size_t first_cell = cells_.size();
      for (const auto& lambda : m["lambda"]) {
        const std::vector<int> targets = kind == "mpg" ? classes_ : std::vector<int>{0};
        for (int target : targets) {
          cells_.push_back({s.get(), kind, target});
          const std::string shown = kind == "mpg" ? class_name(target) : "all";
          plans_.push_back(
              {method,
               fmt::format("{:<10} {:<4} {:<4} lambda={}", s->name, method, shown, lambda.get<double>()),
               {{"data", {choice_.dataset, choice_.variant, files_["train"].sha256, files_["testa"].sha256,
                          files_["testb"].sha256}},
                {"subset", s->size},
                {"validation_sentences", s->sets["validation"].size()},
                {"target", kind == "mpg" ? json(shown) : json(class_names)}},
               values.with("lambda", lambda),
               // Smaller subsets first (an interrupted run leaves whole subsets in the cache), the
               // long MPG cells first within a subset; the cells of a lambda path one path after the
               // other, in path order (below).
               (-2 * static_cast<int>(s->size) + (kind == "mpg" ? 1 : 0)) * kPathSlots * kPathSlots});
        }
      }
      // lambda_path: per class, the grid largest first becomes one path; each cell's key names the
      // lambdas trained before it, its result's only other dependence.
      if (kind != "mpg" || !values.flag("lambda_path")) continue;  // (the spec check: cutting_plane only)
      for (std::size_t t = 0; t < classes_.size(); ++t) {
        auto path = std::make_unique<LambdaPath>();
        for (std::size_t i = first_cell; i < cells_.size(); ++i)
          if (cells_[i].target == classes_[t]) path->cells.push_back(i);
        std::stable_sort(path->cells.begin(), path->cells.end(), [&](std::size_t a, std::size_t b) {
          return plans_[a].parameters.number("lambda") > plans_[b].parameters.number("lambda");
        });
        json before = json::array();
        for (std::size_t k = 0; k < path->cells.size(); ++k) {
          const std::size_t i = path->cells[k];
          cells_[i].path = paths_.size();
          cells_[i].position = k;
          plans_[i].key["lambda_path"] = before;
          plans_[i].priority -= std::min(static_cast<int>(t), kPathSlots - 1) * kPathSlots +
                                std::min(static_cast<int>(k), kPathSlots - 1);
          before.push_back(plans_[i].parameters.number("lambda"));
        }
        paths_.push_back(std::move(path));
      }
    }
}

json SequenceRun::validate(std::size_t cell) const {
  const Cell& c = cells_[cell];
  const ParameterValues& p = plans_[cell].parameters;
  const Subset& data = *c.subset;
  const ChainLayout layout{data.feature_count, kConllLabelCount};
  json result;
  const auto start = clock_type::now();
  auto record = [&](const OptimizerSummary& summary) {
    result["train_seconds"] = seconds_since(start);
    result["iterations"] = summary.iterations;
    result["converged"] = summary.converged();
    result["optimizer"] = summary.message;
  };
  if (c.kind == "crf") {
    CrfOptions options;
    options.lambda = p.number("lambda");
    options.max_iterations = static_cast<int>(p.integer("max_iterations"));
    const CrfModel model = train_crf(data.featurized.at("train"), layout, options);
    record(model.summary);
    for (const char* set : kEvaluationSets) {
      std::vector<std::vector<int>> predicted;
      for (const auto& s : data.featurized.at(set)) predicted.push_back(model.predict(s));
      result[set] = score_set(data.sets.at(set), predicted, classes_);
    }
    result["seconds"] = seconds_since(start);
    return result;
  }
  return c.path == Cell::kNoPath ? train_mpg(c, p, nullptr) : path_result(cell);
}

// Trains the MPG model of the cell (from scratch, or as the next model of `path`) and scores it.
json SequenceRun::train_mpg(const Cell& c, const ParameterValues& p, LambdaPath* path) const {
  const Subset& data = *c.subset;
  const ChainLayout layout{data.feature_count, kConllLabelCount};
  const auto start = clock_type::now();
  LinearChainMpgOptions options;
  options.target = c.target;
  options.lambda = p.number("lambda");
  options.instance_planes = p.choice("optimizer") == "instance_planes";
  options.optimizer = options.instance_planes ? OptimizerKind::cutting_plane : parse_optimizer_kind(p.choice("optimizer"));
  options.max_iterations = static_cast<int>(p.integer("max_iterations"));
  options.objective_tolerance = p.number("objective_tolerance");
  options.argument_tolerance = p.number("argument_tolerance");
  options.game_tolerance = p.number("game_tolerance");
  options.protocol = parse_training_protocol(p.choice("protocol"), "linear-chain MPG");
  options.batch_size = static_cast<int>(p.integer("batch_size"));
  LinearChainMpgModel model;
  if (path) {
    if (!path->trainer) path->trainer = std::make_unique<LinearChainMpgPath>(data.featurized.at("train"), layout, options);
    model = path->trainer->train(options.lambda);
  } else {
    model = train_linear_chain_mpg(data.featurized.at("train"), layout, options);
  }
  json result;
  result["train_seconds"] = seconds_since(start);
  result["iterations"] = model.summary.optimizer.iterations;
  result["converged"] = model.summary.optimizer.converged();
  result["optimizer"] = model.summary.optimizer.message;
  result["training"] = model.summary.to_json();
  result["unconverged_training_games"] = model.summary.last_unconverged_games;
  const ChainDecisionRule decision =
      p.choice("decision") == "maximin" ? ChainDecisionRule::maximin : ChainDecisionRule::most_probable;
  int unconverged = 0;
  for (const char* set : kEvaluationSets) {
    const auto& featurized = data.featurized.at(set);
    std::vector<std::vector<int>> predicted(featurized.size());
    std::vector<char> converged(featurized.size(), 1);
    tbb::parallel_for(std::size_t{0}, featurized.size(), [&](std::size_t i) {
      bool ok = true;
      predicted[i] = predict_linear_chain_mpg(model, featurized[i], chain_game_options(options), &ok, decision);
      converged[i] = ok;
    });
    unconverged += static_cast<int>(std::count(converged.begin(), converged.end(), 0));
    result[set] = score_set(data.sets.at(set), predicted, {c.target});
  }
  result["decision"] = p.choice("decision");
  result["protocol"] = p.choice("protocol");
  result["unconverged_test_games"] = unconverged;
  result["seconds"] = seconds_since(start);
  return result;
}

// The result of a lambda-path cell: trains the path up to the cell's position unless an earlier
// request did. One request at a time per path; the thread that trains runs its nested parallel
// loops in isolation, so that it never picks up another cell of the same path meanwhile.
json SequenceRun::path_result(std::size_t cell) const {
  const Cell& c = cells_[cell];
  LambdaPath& path = *paths_[c.path];
  std::lock_guard<std::mutex> lock(path.mutex);
  return tbb::this_task_arena::isolate([&] {
    if (const auto found = path.results.find(c.position); found != path.results.end()) {
      json result = std::move(found->second);
      path.results.erase(found);
      return result;
    }
    if (path.next > c.position) {  // asked again after its result was handed out: start over
      path.trainer.reset();
      path.next = 0;
    }
    for (; path.next <= c.position; ++path.next) {
      const std::size_t i = path.cells[path.next];
      path.results[path.next] = train_mpg(cells_[i], plans_[i].parameters, &path);
    }
    if (path.next == path.cells.size()) path.trainer.reset();  // the path is done: free its cuts
    json result = std::move(path.results.at(c.position));
    path.results.erase(c.position);
    return result;
  });
}

std::vector<std::pair<std::string, double>> SequenceRun::selection(std::size_t cell, const json& validation) const {
  const Cell& c = cells_[cell];
  std::vector<std::pair<std::string, double>> groups;
  for (int label : c.kind == "mpg" ? std::vector<int>{c.target} : classes_)
    groups.emplace_back(group(*c.subset, plans_[cell].method, label),
                        validation["validation"][class_name(label)]["token"].get<double>());
  return groups;
}

// ---- The family --------------------------------------------------------------------------------

class SequenceLabelingFamily : public Family {
 public:
  std::string name() const override { return "sequence_labeling"; }
  std::string summary() const override {
    return "CoNLL-2003 named-entity tables (thesis Tables IX and X). conll.N = the first N sentences of each of "
           "eng.train, eng.testa and eng.testb (`-DOCSTART-` lines skipped). `\"table\": \"statistics\"` (Table IX) "
           "has no cells: its numbers come from the data. `\"table\": \"f1\"` (Table X): every (subset, method, λ), "
           "and for `mpg` every target class, is one cell trained on conll.N and scored on validation, testa and "
           "testb (token-level and conlleval entity-level F1 per class); per (subset, method, class) the λ with the "
           "best validation token F1 of that class (first in grid order among ties) is selected and only its "
           "testa/testb scores are reported. Token features: lib/data/conll.hpp.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"table", true, "`statistics` (Table IX, from the data only) or `f1` (Table X: train and score models)"},
            {"dataset", true, "`{registry, variant}`: a registry dataset of format `conll` with `train`, `testa`, `testb` files"},
            {"subsets", true, "`{name: N}`: conll.N = the first N sentences of each of train, testa and testb"},
            {"classes", false, "`f1` (required): target classes among `PER`, `LOC`, `ORG`, `MISC`"},
            {"protocol", false,
             "`f1` (required): `validation_fraction` f in (0, 10]: the validation set of conll.N is the round(f N) "
             "eng.train sentences after the subset"},
            {"compare_level", false,
             "which F1 is compared with `published`: `entity` (default; conlleval chunks) or `token` for every method, "
             "or `{method: level}` per method (a method not named: `entity`)"},
            {"diagnostic_level", false,
             "`f1`: also compare every method at this level (`token` or `entity`) in a table of its own, labelled a "
             "diagnostic and not counted as a reproduction"},
            {"compare_with", false,
             "`f1`: `{method: published method}`: compare a method without published numbers of its own with "
             "another's (e.g. an MPG trained under another protocol with the published MPG)"},
            {"methods", false, "`f1` (required): `{label: {kind, parameters}}`, kinds below"},
            {"published", false,
             "statistics: `{subset: {train/testa/testb: {max_length, avg_length, PER, LOC, ORG, MISC}, features}}`; "
             "f1: `{method: {subset: {testa/testb: {PER, LOC, ORG, MISC}}}}` as fractions"},
            {"tolerance", false,
             "a cell is within tolerance when \\|ours − published\\| ≤ this (default 0.02 for `f1`, 0 for `statistics`)"}};
  }
  const std::vector<MethodKind>& methods() const override { return sequence_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<SequenceRun>(spec); }
};

// `object` is {name: number} with names among `allowed`.
void number_object(const SpecValidator& v, const json& object, const std::string& where,
                   const std::set<std::string>& allowed) {
  v.keys(object, where, allowed);
  v.number_table(object, where, 1);
}

void SequenceLabelingFamily::validate(const json& spec, const SpecValidator& v) const {
  const std::string table = v.string(spec, "table", "").get<std::string>();
  if (table != "statistics" && table != "f1") v.fail("table", "expected \"statistics\" or \"f1\", got \"" + table + "\"");
  validate_tolerance(spec, v, 1e9);
  v.keys(spec["dataset"], "dataset", {"registry", "variant"}, {"registry"});
  v.registry_dataset(spec["dataset"], "dataset", {"conll"});
  const json& subsets = spec["subsets"];
  if (!subsets.is_object() || subsets.empty()) v.fail("subsets", "expected a non-empty object {name: sentences}");
  for (const auto& [name, n] : subsets.items())
    if (!n.is_number_unsigned() || n.get<std::size_t>() == 0)
      v.fail("subsets." + name, "expected a positive number of sentences");
  const std::set<std::string> classes = {"PER", "LOC", "ORG", "MISC"};
  const json published = spec.value("published", json::object());
  if (!published.is_object()) v.fail("published", "expected an object");

  if (table == "statistics") {
    for (const char* key : {"classes", "protocol", "compare_level", "diagnostic_level", "compare_with", "methods"})
      if (spec.contains(key)) v.fail(key, "not used by a \"statistics\" table");
    for (const auto& [subset, row] : published.items()) {
      const std::string where = "published." + subset;
      if (!subsets.contains(subset)) v.fail(where, "no such subset in subsets");
      v.keys(row, where, {"train", "testa", "testb", "features"});
      if (row.contains("features") && !row["features"].is_number()) v.fail(where + ".features", "expected a number");
      for (const char* part : kParts)
        if (row.contains(part))
          number_object(v, row[part], where + "." + part,
                        std::set<std::string>(std::begin(kTableIxStatistics), std::end(kTableIxStatistics)));
    }
    return;
  }
  for (const char* key : {"classes", "protocol", "methods"})
    if (!spec.contains(key)) v.fail("", std::string("missing required key '") + key + "' of an \"f1\" table");
  if (!spec["classes"].is_array() || spec["classes"].empty()) v.fail("classes", "expected a non-empty array of class names");
  for (const auto& c : spec["classes"])
    if (!c.is_string() || !classes.count(c.get<std::string>()))
      v.fail("classes", "unknown class " + c.dump() + " (known: PER, LOC, ORG, MISC)");
  v.keys(spec["protocol"], "protocol", {"validation_fraction"}, {"validation_fraction"});
  v.number(spec["protocol"], "validation_fraction", "protocol", 0.0, 10.0, true);
  for (const auto& [method, m] : spec["methods"].items())
    if (m.is_object() && m.value("kind", "") == "mpg" && m.value("lambda_path", false)) {
      if (m.value("optimizer", std::string("instance_planes")) != "cutting_plane")
        v.fail("methods." + method + ".lambda_path",
               "a lambda path needs optimizer cutting_plane (set methods." + method +
                   ".optimizer=cutting_plane; the default is instance_planes)");
      if (m.value("protocol", std::string("certified")) != "certified")
        v.fail("methods." + method + ".lambda_path", "a lambda path needs protocol certified");
    }
  if (spec.contains("compare_level")) {
    const json& given = spec["compare_level"];
    auto check_level = [&](const json& level, const std::string& where) {
      if (!level.is_string() || (level != "token" && level != "entity"))
        v.fail(where, "expected \"token\" or \"entity\", got " + level.dump());
    };
    if (given.is_object()) {
      for (const auto& [method, level] : given.items()) {
        if (!spec["methods"].contains(method)) v.fail("compare_level." + method, "no such method in methods");
        check_level(level, "compare_level." + method);
      }
    } else {
      check_level(given, "compare_level");
    }
  }
  if (spec.contains("diagnostic_level")) {
    const json& level = spec["diagnostic_level"];
    if (!level.is_string() || (level != "token" && level != "entity"))
      v.fail("diagnostic_level", "expected \"token\" or \"entity\", got " + level.dump());
  }
  if (spec.contains("compare_with")) {
    const json& with = spec["compare_with"];
    if (!with.is_object()) v.fail("compare_with", "expected an object {method: published method}");
    for (const auto& [method, target] : with.items()) {
      if (!spec["methods"].contains(method)) v.fail("compare_with." + method, "no such method in methods");
      if (!target.is_string() || !published.contains(target.get<std::string>()))
        v.fail("compare_with." + method, "expected the name of a method in published, got " + target.dump());
      if (published.contains(method))
        v.fail("compare_with." + method, "the method has published numbers of its own");
    }
  }
  for (const auto& [method, per_subset] : published.items()) {
    const std::string where = "published." + method;
    if (!spec["methods"].contains(method)) v.fail(where, "no such method in methods");
    if (!per_subset.is_object()) v.fail(where, "expected an object");
    for (const auto& [subset, sets] : per_subset.items()) {
      if (!subsets.contains(subset)) v.fail(where + "." + subset, "no such subset in subsets");
      v.keys(sets, where + "." + subset, {"testa", "testb"});
      for (const auto& [set, values] : sets.items()) number_object(v, values, where + "." + subset + "." + set, classes);
    }
  }
}

}  // namespace mpg::harness::sequence_labeling_impl

namespace mpg::harness {
const Family& sequence_labeling_family() {
  static const sequence_labeling_impl::SequenceLabelingFamily family;
  return family;
}

}  // namespace mpg::harness
