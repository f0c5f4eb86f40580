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

namespace mpg::harness {
namespace {

using nlohmann::json;

const char* const kParts[] = {"train", "testa", "testb"};
constexpr int kPathSlots = 64;  // launch priorities: classes x path positions per subset
const char* const kEvaluationSets[] = {"validation", "testa", "testb"};
const char* const kTableIxStatistics[] = {"max_length", "avg_length", "PER", "LOC", "ORG", "MISC"};

std::string class_name(int label) { return conll_label_names()[static_cast<std::size_t>(label)]; }

// ---- Methods -----------------------------------------------------------------------------------

const Parameter kLambda = grid_parameter(
    "lambda", 0.0, 1e9, "grid of the L2 weight λ in λ/2‖θ‖² on the summed (not averaged) objective (one cell per value)");

const std::vector<MethodKind>& sequence_methods() {
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
            choice_parameter("optimizer", "instance_planes", {"instance_planes", "cutting_plane", "lbfgs"},
                             "training: `instance_planes` minimizes the objective (the thesis' MPG) with one "
                             "cutting-plane model per sentence (lib/learn/block_coordinate.hpp) and certifies it by a "
                             "lower bound, stopping at `objective_tolerance`; `cutting_plane` reaches the same "
                             "certificate with one model of the whole sum (the proximal bundle: slower and up to 16× "
                             "the memory where λ is large; needed by `lambda_path`); `lbfgs` (Armijo line search) "
                             "stops at `max_iterations` without a certificate (the earlier tables: 100 iterations; "
                             "the thesis states no optimizer or cap)"),
            integer_parameter("max_iterations", 2000, 1, 1000000000,
                              "iterations of the optimizer: the L-BFGS cap, or a safety cap on the passes of "
                              "`instance_planes` or the iterations of `cutting_plane` (a training it stops is "
                              "reported as not converged)"),
            number_parameter("objective_tolerance", 1e-4, 0.0, 1.0,
                             "`instance_planes`, `cutting_plane`: stop when the objective is certified within this × "
                             "max(1, objective magnitude)",
                             true),
            number_parameter("argument_tolerance", 0.0, 0.0, 1e9,
                             "`instance_planes`, `cutting_plane`: also stop only once θ is certified within this "
                             "distance of the minimizer, ‖θ − θ*‖ ≤ sqrt(2 gap / λ) (strong convexity); pins the "
                             "model where the relative `objective_tolerance` leaves the validation F1 to chance "
                             "(docs/methods.md). 0 = off; when set, both tests must hold"),
            number_parameter("game_tolerance", 1e-6, 0.0, 1.0,
                             "double-oracle gap of each sentence game, in training and prediction", true),
            choice_parameter("decision", "most_probable", {"most_probable", "maximin"},
                             "test-time rule: `most_probable` (the papers': the likeliest action of the predictor's "
                             "equilibrium strategy found by the double oracle; it can depend on which equilibrium "
                             "the solver lands on) or `maximin` (the action with the best guaranteed F1 minus "
                             "potential among the top-k candidates by the adversary's chain marginals: stated on "
                             "the game alone, no solver changes it; docs/methods.md)"),
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
               const std::vector<int>& classes) {
  json out = json::object();
  ChunkCounts chunks;
  std::vector<TokenCounts> tokens(classes.size());
  for (std::size_t i = 0; i < gold.size(); ++i) {
    chunks.add(conlleval_counts(gold[i].tags, tags_of_labels(predicted[i])));
    for (std::size_t k = 0; k < classes.size(); ++k) tokens[k].add(predicted[i], gold[i].labels, classes[k]);
  }
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const auto c = static_cast<std::size_t>(classes[k]);
    out[class_name(classes[k])] = {
        {"token", tokens[k].f1()},
        {"entity", chunks.f1(classes[k])},
        {"token_counts", {tokens[k].true_positives, tokens[k].predicted, tokens[k].gold}},
        {"entity_counts", {chunks.correct[c], chunks.guessed[c], chunks.gold[c]}}};
  }
  return out;
}

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
      predicted[i] = predict_linear_chain_mpg(model, featurized[i], options.game_tolerance, &ok, decision);
      converged[i] = ok;
    });
    unconverged += static_cast<int>(std::count(converged.begin(), converged.end(), 0));
    result[set] = score_set(data.sets.at(set), predicted, {c.target});
  }
  result["decision"] = p.choice("decision");
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

std::string SequenceRun::data_lines() const {
  std::string md = fmt::format("- registry `{}`, variant `{}` ({})\n", choice_.dataset, choice_.variant, choice_.fidelity());
  for (const char* part : kParts)
    md += fmt::format("- {}: `{}` sha256 `{}`\n", part, files_.at(part).name, files_.at(part).sha256.substr(0, 16));
  return md;
}

json data_json(const std::map<std::string, VerifiedFile>& files) {
  json out;
  for (const auto& [part, f] : files) out[part] = {{"path", f.name}, {"sha256", f.sha256}};
  return out;
}

// The F1 level each method's published numbers are compared at: `compare_level` is one level for
// every method or {method: level}; a method it does not name is compared at entity level.
std::map<std::string, std::string> compare_levels(const json& spec) {
  const json given = spec.value("compare_level", json("entity"));
  std::map<std::string, std::string> levels;
  for (const auto& [method, m] : spec["methods"].items())
    levels[method] = given.is_string() ? given.get<std::string>() : given.value(method, std::string("entity"));
  return levels;
}

// The number at object[k1][k2]..., if there is one.
std::optional<double> number_at(const json& object, std::initializer_list<std::string> keys) {
  const json* node = &object;
  for (const auto& key : keys) {
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
  }
  if (!node->is_number()) return std::nullopt;
  return node->get<double>();
}

// ---- Table IX ----------------------------------------------------------------------------------

Tables SequenceRun::statistics_tables() const {
  const json published = published_of(spec_);
  const double tolerance = tolerance_of(spec_, 0.0);
  // Class token counts are reproduced exactly; lengths and feature counts differ by construction
  // (see the spec's notes), so they are a table of their own.
  ComparisonTable counts({{"subset", "subset"}, {"part", "part"}, {"statistic", "statistic"}}, {}, tolerance, 0);
  ComparisonTable other({{"subset", "subset"}, {"part", "part"}, {"statistic", "statistic"}}, {}, tolerance, 2);
  std::string header = "| |", rule = "|---|";
  std::map<std::string, std::string> wide;  // statistic -> cells of the thesis' layout
  std::vector<std::string> statistics(std::begin(kTableIxStatistics), std::end(kTableIxStatistics));
  statistics.push_back("features");
  std::vector<std::string> extra_rows = {"sentences", "tokens"};
  for (int c = 1; c < kConllLabelCount; ++c) extra_rows.push_back(class_name(c) + " entities");
  for (const auto& s : subsets_) {
    FeatureDictionary dictionary;
    dictionary.build(s->sets.at("train"));
    for (const char* part : kParts) {
      const ConllStatistics st = conll_statistics(s->sets.at(part));
      std::map<std::string, double> ours = {{"max_length", static_cast<double>(st.max_length)},
                                            {"avg_length", st.average_length},
                                            {"sentences", static_cast<double>(st.sentences)},
                                            {"tokens", static_cast<double>(st.tokens)}};
      for (int c = 1; c < kConllLabelCount; ++c) {
        ours[class_name(c)] = static_cast<double>(st.label_tokens[static_cast<std::size_t>(c)]);
        ours[class_name(c) + " entities"] = static_cast<double>(st.label_entities[static_cast<std::size_t>(c)]);
      }
      if (std::string(part) == "train") ours["features"] = static_cast<double>(dictionary.size());
      header += fmt::format(" {} {} |", s->name, part);
      rule += "---|";
      for (const auto& statistic : statistics) {
        if (!ours.count(statistic)) {
          wide[statistic] += " |";
          continue;
        }
        const std::optional<double> pub = statistic == "features" ? number_at(published, {s->name, "features"})
                                                                   : number_at(published, {s->name, part, statistic});
        const bool count = conll_label_of_name(statistic) > 0;
        (count ? counts : other).add({s->name, part, statistic}, ours[statistic], pub);
        wide[statistic] += fmt::format(" {}{} |", statistic == "avg_length" ? fixed(ours[statistic], 2)
                                                                           : fmt::format("{:.0f}", ours[statistic]),
                                       pub ? fmt::format(" ({:g})", *pub) : "");
      }
      for (const auto& extra : extra_rows) wide["~" + extra] += fmt::format(" {:.0f} |", ours[extra]);
    }
  }
  Tables out;
  std::string& md = out.markdown;
  md += "Cells read `ours (published)`; class rows count **tokens** of the class (B-/I- collapsed); the rows after "
        "`features` are ours only.\n\n" + header + "\n" + rule + "\n";
  for (const auto& statistic : statistics) md += "| " + statistic + " |" + wide[statistic] + "\n";
  for (const auto& extra : extra_rows) md += "| " + extra + " |" + wide["~" + extra] + "\n";
  md += "\n## Class token counts: ours vs published\n\n" + counts.markdown();
  md += "\n## Lengths and feature counts: ours vs published (different by construction; see the notes)\n\n" +
        other.markdown();
  md += "\n## Data\n\n" + data_lines() + "\n## Notes\n\n";
  md += notes_markdown(spec_);
  const std::string other_csv = other.csv();
  out.csv = counts.csv() + other_csv.substr(other_csv.find('\n') + 1);
  json rows = counts.rows_json();
  for (auto& row : other.rows_json()) rows.push_back(std::move(row));
  out.fields = {{"tolerance", tolerance}, {"rows", rows}, {"data", data_json(files_)}};
  out.tally = counts.tally();
  const Tally known = other.tally();
  out.tally.published_cells += known.published_cells;
  out.tally.within_tolerance += known.within_tolerance;
  if (!known.outside.empty())
    out.tally.outside.push_back(fmt::format("{} length and feature counts differ from the published ones by "
                                            "construction (see the table's notes)",
                                            known.outside.size()));
  return out;
}

// ---- Table X -----------------------------------------------------------------------------------

Tables SequenceRun::f1_tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  const double tolerance = tolerance_of(spec_, 0.02);
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  const std::map<std::string, std::string> levels = compare_levels(spec_);
  std::string compared;  // "CRF entity-level F1, MPG token-level F1"
  for (const auto& method : methods)
    compared += (compared.empty() ? "" : ", ") + method + " " + levels.at(method) + "-level F1";
  ComparisonTable table({{"subset", "subset"}, {"class", "tag"}, {"set", "set"}, {"method", "method"}},
                        {{"compared", "compared level"},
                         {"lambda", "λ", 6},
                         {"validation_token_f1", "validation token F1", 2, 100},
                         {"token_f1", "token F1", 2, 100},
                         {"entity_f1", "entity F1", 2, 100},
                         {"train_seconds", "training (s)", 1}},
                        tolerance, 2, 100);
  // The thesis' layout: one row per subset and class, ours (the other level) | published | Δ.
  std::string wide = "| subset | tag |", rule = "|---|---|";
  for (const char* set : {"testa", "testb"})
    for (const auto& method : methods) {
      wide += fmt::format(" {} {} ours | published | Δ |", set, method);
      rule += "---|---|---|";
    }
  wide += "\n" + rule + "\n";
  for (const auto& s : subsets_)
    for (int c : classes_) {
      const std::string name = class_name(c);
      wide += fmt::format("| {} | {} |", s->name, name);
      for (const char* set : {"testa", "testb"})
        for (const auto& method : methods) {
          const auto found = outcome.selected.find(group(*s, method, c));
          if (found == outcome.selected.end()) {
            wide += " | | |";
            continue;
          }
          const json& r = outcome.validation[found->second];
          const json& scores = r[set][name];
          const std::string& level = levels.at(method);
          const std::string other_level = level == "entity" ? "token" : "entity";
          const std::optional<double> pub = number_at(published, {method, s->name, set, name});
          auto& row = table.add({s->name, name, set, method}, scores[level].get<double>(), pub);
          row.extra = {{"lambda", plans_[found->second].parameters.number("lambda")},
                       {"validation_token_f1", r["validation"][name]["token"]},
                       {"token_f1", scores["token"]},
                       {"entity_f1", scores["entity"]},
                       {"compared", level},
                       {"train_seconds", r["train_seconds"]}};
          // What the selected model's run recorded that can explain a miss: its caps.
          if (!r.value("converged", true))
            row.causes.push_back("training not converged (" + r.value("optimizer", std::string("optimizer cap")) + ")");
          if (r.value("unconverged_training_games", 0) > 0)
            row.causes.push_back(fmt::format("{} training games not converged", r["unconverged_training_games"].get<long>()));
          if (r.value("unconverged_test_games", 0) > 0)
            row.causes.push_back(fmt::format("{} testa/testb games not converged", r["unconverged_test_games"].get<long>()));
          wide += fmt::format(" {} ({}) | {} | {} |", fixed(100 * scores[level].get<double>(), 2),
                            fixed(100 * scores[other_level].get<double>(), 2), pub ? fixed(100 * *pub, 2) : "",
                            pub ? fixed(100 * (scores[level].get<double>() - *pub), 2, true) : "");
        }
      wide += "\n";
    }

  Tables out;
  out.markdown = fmt::format("F1 in %; **compared with the published values: {}** (`compare_level`; the other level "
                             "is shown beside it). Tolerance ±{} points.\n\n{}\nCells read `ours at the compared level "
                             "(the other level in parentheses)`, in %.\n\n## Selected models: ours (at the compared "
                             "level) vs published\n\n{}",
                             compared, 100 * tolerance, wide, table.markdown());
  // Training time per subset and method, over every grid point.
  std::string& text = out.markdown;
  text += "\n## Training time\n\nMean over the grid of one training (MPG: one class model; the four classes are four "
          "trainings), on a shared 2-core machine with cells run in parallel, so per-cell times include contention.\n\n"
          "| subset | method | trainings | mean training (s) | max training (s) | mean optimizer iterations | not "
          "converged (optimizer) | largest certified gap (relative) |\n|---|---|---|---|---|---|---|---|\n";
  json timing = json::array();
  std::vector<std::string> notes;
  for (const auto& s : subsets_)
    for (const auto& method : methods) {
      double total = 0.0, longest = 0.0, iterations = 0.0;
      std::optional<double> largest_gap;  // (objective - certified lower bound) / max(1, |objective|)
      int count = 0, unconverged = 0;
      long unconverged_games = 0;
      for (std::size_t i = 0; i < cells_.size(); ++i) {
        if (cells_[i].subset != s.get() || plans_[i].method != method) continue;
        const json& r = outcome.validation[i];
        total += r["train_seconds"].get<double>();
        longest = std::max(longest, r["train_seconds"].get<double>());
        iterations += r["iterations"].get<double>();
        unconverged += r["converged"].get<bool>() ? 0 : 1;
        if (r.contains("training") && r["training"].contains("certified_gap")) {
          const double objective = r["training"]["objective"].get<double>();
          const double gap = r["training"]["certified_gap"].get<double>() / std::max(1.0, std::abs(objective));
          largest_gap = std::max(largest_gap.value_or(gap), gap);
        }
        unconverged_games += r.value("unconverged_training_games", 0L) + r.value("unconverged_test_games", 0L);
        ++count;
      }
      if (count == 0) continue;
      text += fmt::format("| {} | {} | {} | {:.1f} | {:.1f} | {:.0f} | {} | {} |\n", s->name, method, count,
                          total / count, longest, iterations / count, unconverged,
                          largest_gap ? fmt::format("{:.1e}", *largest_gap) : "—");
      timing.push_back({{"subset", s->name}, {"method", method}, {"trainings", count},
                        {"mean_train_seconds", total / count}, {"max_train_seconds", longest},
                        {"mean_iterations", iterations / count}, {"optimizer_not_converged", unconverged},
                        {"largest_certified_gap", largest_gap ? json(*largest_gap) : json(nullptr)}});
      if (unconverged > 0)
        notes.push_back(fmt::format("{} {}: {} of {} trainings stopped at the iteration cap or on a failed line search "
                                    "(non-smooth objective), not at their tolerance.",
                                    s->name, method, unconverged, count));
      if (unconverged_games > 0)
        notes.push_back(fmt::format("{} {}: {} sentence games stopped before the double-oracle tolerance.", s->name,
                                    method, unconverged_games));
    }
  text += "\n## Data\n\n" + data_lines();
  for (const auto& s : subsets_)
    text += fmt::format("- {}: {} train / {} validation (eng.train sentences {}..{}) / {} testa / {} testb sentences; {} "
                        "observation features (x {} labels + {} label bigrams = {} weights)\n",
                        s->name, s->sets.at("train").size(), s->sets.at("validation").size(), s->size + 1,
                        s->size + s->sets.at("validation").size(), s->sets.at("testa").size(),
                        s->sets.at("testb").size(), s->feature_count, kConllLabelCount,
                        (kConllLabelCount + 1) * kConllLabelCount, ChainLayout{s->feature_count, kConllLabelCount}.size());
  text += "\n## Notes\n\n";
  text += notes_markdown(spec_, notes);

  json cells = json::array();
  for (std::size_t i = 0; i < cells_.size(); ++i)
    cells.push_back({{"subset", cells_[i].subset->name},
                     {"method", plans_[i].method},
                     {"lambda", plans_[i].parameters.number("lambda")},
                     {"target", cells_[i].kind == "mpg" ? class_name(cells_[i].target) : "all"},
                     {"result", outcome.validation[i]}});
  out.csv = table.csv();
  out.fields = {{"compare_level", levels}, {"tolerance", tolerance}, {"rows", table.rows_json()}, {"timing", timing},
                {"notes", notes}, {"cells", cells}, {"data", data_json(files_)}};
  out.tally = table.tally();
  return out;
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
    for (const char* key : {"classes", "protocol", "compare_level", "methods"})
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
    if (m.is_object() && m.value("kind", "") == "mpg" && m.value("lambda_path", false) &&
        m.value("optimizer", std::string("instance_planes")) != "cutting_plane")
      v.fail("methods." + method + ".lambda_path",
             "a lambda path needs optimizer cutting_plane (set methods." + method +
                 ".optimizer=cutting_plane; the default is instance_planes)");
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

}  // namespace

const Family& sequence_labeling_family() {
  static const SequenceLabelingFamily family;
  return family;
}

}  // namespace mpg::harness
