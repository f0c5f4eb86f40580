// Experiment type "sequence_labeling" (thesis §5.2, Tables IX and X): CoNLL-2003 subsets
// conll.N = the first N sentences of each of train, testa and testb ("-DOCSTART-" lines
// skipped). A spec with "table": "statistics" emits Table IX from the data; "table": "f1" trains
// the linear-chain CRF and one linear-chain F1 MPG per target class on each subset and emits
// Table X.
//
// Protocol (the thesis gives none): the validation set of conll.N is the round(f N) sentences of
// eng.train that follow the subset (never in its training part); every grid value is trained on
// the subset and scored on validation, testa and testb in one cached cell; per (subset, method,
// class) the value with the best validation token-level F1 of that class is selected (first in
// grid order among ties) and its testa/testb scores are reported. Only the validation score
// takes part in the choice.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "baselines/crf.hpp"
#include "lib/data/conll.hpp"
#include "lib/eval/sequence_measures.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/common.hpp"
#include "lib/harness/progress.hpp"
#include "lib/base/io.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

using nlohmann::json;

namespace {

const char* kParts[] = {"train", "testa", "testb"};
const char* kEvaluationSets[] = {"validation", "testa", "testb"};

// Version of the feature templates (lib/data/conll.cpp) in cache keys.
constexpr int kFeatureVersion = 1;

}  // namespace

void validate_sequence_labeling_spec(const json& spec, const std::string& path) {
  const SpecValidator v(path);
  v.keys(spec, "",
         {"task", "name", "title", "source", "table", "dataset", "subsets", "classes", "protocol", "compare_level",
          "methods", "published", "published_seconds", "tolerance", "quick", "notes"},
         {"name", "table", "dataset", "subsets"});
  v.string(spec, "name", "");
  const std::string table = v.string(spec, "table", "").get<std::string>();
  if (table != "statistics" && table != "f1") v.fail("table", "expected \"statistics\" or \"f1\", got \"" + table + "\"");
  v.descriptive_keys(spec);
  if (spec.contains("tolerance")) v.number(spec, "tolerance", "", 0.0, 1e9);

  v.keys(spec["dataset"], "dataset", {"registry", "variant"}, {"registry"});
  v.registry_dataset(spec["dataset"], "dataset");
  const json& registry = dataset_registry()[spec["dataset"]["registry"].get<std::string>()];
  if (registry.value("format", "") != "conll")
    v.fail("dataset.registry", "dataset '" + spec["dataset"]["registry"].get<std::string>() + "' is not in CoNLL format");

  const json& subsets = spec["subsets"];
  if (!subsets.is_object() || subsets.empty()) v.fail("subsets", "expected a non-empty object {name: sentences}");
  for (const auto& [name, n] : subsets.items())
    if (!n.is_number_unsigned() || n.get<std::size_t>() == 0)
      v.fail("subsets." + name, "expected a positive number of sentences");

  if (table == "statistics") {
    for (const char* key : {"classes", "protocol", "compare_level", "methods", "published_seconds"})
      if (spec.contains(key)) v.fail(key, "not used by a \"statistics\" table");
    if (spec.contains("published")) {
      const json& published = spec["published"];
      if (!published.is_object()) v.fail("published", "expected an object");
      for (const auto& [subset, row] : published.items()) {
        if (!subsets.contains(subset)) v.fail("published." + subset, "no such subset in subsets");
        v.keys(row, "published." + subset, {"train", "testa", "testb", "features"});
        if (row.contains("features") && !row["features"].is_number()) v.fail("published." + subset + ".features", "expected a number");
        for (const char* part : kParts) {
          if (!row.contains(part)) continue;
          const std::string where = "published." + subset + "." + part;
          v.keys(row[part], where, {"max_length", "avg_length", "PER", "LOC", "ORG", "MISC"});
          for (const auto& [key, value] : row[part].items())
            if (!value.is_number()) v.fail(where + "." + key, "expected a number");
        }
      }
    }
    return;
  }

  // table == "f1"
  for (const char* key : {"classes", "protocol", "methods"})
    if (!spec.contains(key)) v.fail("", std::string("missing required key '") + key + "' of an \"f1\" table");
  const json& classes = spec["classes"];
  if (!classes.is_array() || classes.empty()) v.fail("classes", "expected a non-empty array of class names");
  for (const auto& c : classes)
    if (!c.is_string() || conll_label_of_name(c.get<std::string>()) <= 0)
      v.fail("classes", "unknown class " + c.dump() + " (known: PER, LOC, ORG, MISC)");
  v.keys(spec["protocol"], "protocol", {"validation_fraction"}, {"validation_fraction"});
  v.number(spec["protocol"], "validation_fraction", "protocol", 0.0, 10.0, true);
  if (spec.contains("compare_level")) {
    const std::string level = v.string(spec, "compare_level", "").get<std::string>();
    if (level != "token" && level != "entity") v.fail("compare_level", "expected \"token\" or \"entity\"");
  }
  const json& methods = spec["methods"];
  if (!methods.is_object() || methods.empty()) v.fail("methods", "expected a non-empty object");
  for (const auto& [label, m] : methods.items()) {
    const std::string where = "methods." + label;
    v.keys(m, where, {"kind", "lambda", "max_iterations", "game_tolerance"}, {"kind", "lambda"});
    const std::string kind = v.string(m, "kind", where).get<std::string>();
    if (kind != "crf" && kind != "mpg") v.fail(where + ".kind", "unknown method kind '" + kind + "' (known: crf, mpg)");
    v.positive_grid(m, "lambda", where);
    if (m.contains("max_iterations") && (!m["max_iterations"].is_number_unsigned() || m["max_iterations"].get<int>() < 1))
      v.fail(where + ".max_iterations", "expected a positive integer");
    if (m.contains("game_tolerance")) {
      if (kind != "mpg") v.fail(where + ".game_tolerance", "only for kind mpg");
      v.number(m, "game_tolerance", where, 0.0, 1.0, true);
    }
  }
  if (spec.contains("published")) {
    const json& published = spec["published"];
    if (!published.is_object()) v.fail("published", "expected an object");
    for (const auto& [method, per_subset] : published.items()) {
      if (!methods.contains(method)) v.fail("published." + method, "no such method in methods");
      if (!per_subset.is_object()) v.fail("published." + method, "expected an object");
      for (const auto& [subset, sets] : per_subset.items()) {
        const std::string where = "published." + method + "." + subset;
        if (!subsets.contains(subset)) v.fail(where, "no such subset in subsets");
        v.keys(sets, where, {"testa", "testb"});
        for (const auto& [set, values] : sets.items()) {
          v.keys(values, where + "." + set, {"PER", "LOC", "ORG", "MISC"});
          for (const auto& [c, x] : values.items())
            if (!x.is_number()) v.fail(where + "." + set + "." + c, "expected a number");
        }
      }
    }
  }
  if (spec.contains("published_seconds") && !spec["published_seconds"].is_object())
    v.fail("published_seconds", "expected an object");
}

namespace {

struct ConllFile {
  std::string path;
  std::string sha256;
  std::string text;
};

ConllFile load_conll_file(const std::string& dataset, const std::string& variant, const std::string& part) {
  const json& file = dataset_registry().at(dataset).at("variants").at(variant).at(part);
  ConllFile out;
  out.path = (std::filesystem::path(data_directory()) / file.at("file").get<std::string>()).string();
  if (!std::filesystem::exists(out.path))
    throw InputError(out.path, "missing data file of dataset '" + dataset + "' (" + variant + ", " + part +
                                   "); set MPG_DATA_DIR or run scripts/fetch_data.sh");
  out.text = read_file(out.path);  // decompressed; the registry hash is of the content
  out.sha256 = sha256_hex(out.text);
  const std::string expected = file.at("sha256").get<std::string>();
  if (out.sha256 != expected)
    throw InputError(out.path, "sha256 mismatch: expected " + expected + ", got " + out.sha256 +
                                   " (wrong or corrupt file for dataset '" + dataset + "' " + variant + " " + part + ")");
  return out;
}

std::string fixed(double x, int digits) { return fmt::format("{:.{}f}", x, digits); }
std::string signed_fixed(double x, int digits) { return fmt::format("{:+.{}f}", x, digits); }

class SequenceExperiment {
 public:
  SequenceExperiment(json spec, std::string path, const RunOptions& options)
      : spec_(std::move(spec)), path_(std::move(path)), options_(options) {
    name_ = spec_["name"].get<std::string>();
    registry_ = spec_["dataset"]["registry"].get<std::string>();
    const json& entry = dataset_registry()[registry_];
    variant_ = spec_["dataset"].value("variant", entry.value("default_variant", std::string()));
    revision_ = source_revision();
    results_dir_ = results_directory(options);
    cache_ = CellCache(cache_directory(options, name_));
    for (const auto& [name, n] : spec_["subsets"].items()) subsets_.emplace_back(name, n.get<std::size_t>());
    std::sort(subsets_.begin(), subsets_.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const char* part : kParts) files_[part] = load_conll_file(registry_, variant_, part);
  }

  RunSummary run_statistics();
  RunSummary run_f1();

 private:
  std::vector<ConllSentence> sentences(const std::string& part, std::size_t first, std::size_t count) const {
    const ConllFile& f = files_.at(part);
    return parse_conll(f.text, f.path, first, count);
  }
  std::string data_lines() const;

  json spec_;
  std::string path_;
  RunOptions options_;
  std::string name_, registry_, variant_, revision_, results_dir_;
  CellCache cache_{""};
  std::vector<std::pair<std::string, std::size_t>> subsets_;
  std::map<std::string, ConllFile> files_;
};

std::string SequenceExperiment::data_lines() const {
  std::string md;
  const json& variant = dataset_registry()[registry_]["variants"][variant_];
  md += fmt::format("- registry `{}`, variant `{}` ({})\n", registry_, variant_, variant.value("matches", ""));
  for (const char* part : kParts)
    md += fmt::format("- {}: `{}` sha256 `{}`\n", part, files_.at(part).path, files_.at(part).sha256.substr(0, 16));
  return md;
}

// ---- Table IX -------------------------------------------------------------------------------

RunSummary SequenceExperiment::run_statistics() {
  const auto start = clock_type::now();
  RunSummary summary;
  summary.name = name_;
  const json published = spec_.value("published", json::object());
  const double tolerance = spec_.value("tolerance", 0.0);
  json rows = json::array();
  std::string csv = "subset,part,statistic,ours,published,delta,matches\n";
  std::string wide_header = "| | ";
  std::string wide_rule = "|---|";
  std::map<std::string, std::string> wide_rows;
  const std::vector<std::string> statistics = {"max_length", "avg_length", "PER", "LOC", "ORG", "MISC", "features"};
  for (const auto& [subset, n] : subsets_) {
    std::map<std::string, std::map<std::string, double>> ours;
    for (const char* part : kParts) {
      const ConllStatistics s = conll_statistics(sentences(part, 0, n));
      ours[part]["sentences"] = static_cast<double>(s.sentences);
      ours[part]["tokens"] = static_cast<double>(s.tokens);
      ours[part]["max_length"] = static_cast<double>(s.max_length);
      ours[part]["avg_length"] = s.average_length;
      for (int c = 1; c < kConllLabelCount; ++c) {
        ours[part][conll_label_names()[static_cast<std::size_t>(c)]] = static_cast<double>(s.label_tokens[static_cast<std::size_t>(c)]);
        ours[part][conll_label_names()[static_cast<std::size_t>(c)] + "_entities"] =
            static_cast<double>(s.label_entities[static_cast<std::size_t>(c)]);
      }
    }
    FeatureDictionary dictionary;
    dictionary.build(sentences("train", 0, n));
    const double features = static_cast<double>(dictionary.size());
    for (const char* part : kParts) {
      wide_header += fmt::format("{} {} | ", subset, part);
      wide_rule += "---|";
      for (const auto& statistic : statistics) {
        if (statistic == "features" && std::string(part) != "train") {
          wide_rows[statistic] += " |";
          continue;
        }
        const double mine = statistic == "features" ? features : ours[part][statistic];
        json pub;
        if (published.contains(subset)) {
          if (statistic == "features") pub = published[subset].value("features", json());
          else if (published[subset].contains(part)) pub = published[subset][part].value(statistic, json());
        }
        const bool integral = statistic != "avg_length";
        std::string cell = integral ? fmt::format("{:.0f}", mine) : fixed(mine, 2);
        json row = {{"subset", subset}, {"part", part}, {"statistic", statistic}, {"ours", mine}};
        std::string pub_text, delta_text, match_text;
        if (pub.is_number()) {
          const double p = pub.get<double>();
          const double delta = mine - p;
          const bool matches = std::abs(delta) <= tolerance + 1e-9;
          ++summary.published_cells;
          summary.within_tolerance += matches;
          if (!matches && statistic != "features" && statistic != "max_length" && statistic != "avg_length")
            summary.outside.push_back(fmt::format("{} {} {}: {} vs {}", subset, part, statistic, mine, p));
          row["published"] = p;
          row["delta"] = delta;
          row["matches"] = matches;
          pub_text = fmt::format("{:g}", p);
          delta_text = integral ? fmt::format("{:+.0f}", delta) : signed_fixed(delta, 2);
          match_text = matches ? "yes" : "no";
          cell += fmt::format(" ({:g})", p);
        }
        csv += fmt::format("{},{},{},{},{},{},{}\n", subset, part, statistic, mine, pub_text, delta_text, match_text);
        rows.push_back(row);
        wide_rows[statistic] += " " + cell + " |";
      }
      // Extra rows: sentences, tokens, entity counts (not in the thesis table).
      for (const std::string extra : {"sentences", "tokens"})
        wide_rows["~" + extra] += fmt::format(" {:.0f} |", ours[part][extra]);
      for (int c = 1; c < kConllLabelCount; ++c) {
        const std::string label = conll_label_names()[static_cast<std::size_t>(c)];
        wide_rows["~" + label + " entities"] += fmt::format(" {:.0f} |", ours[part][label + "_entities"]);
      }
    }
  }
  std::string md = fmt::format("# {}\n\n", spec_.value("title", name_));
  md += fmt::format(
      "Generated by `mpg run experiments/{}.json{}` with the code of revision `{}`{}. Cells read `ours (published)`; "
      "class rows count **tokens** of the class (B-/I- collapsed). Rows marked ~ are ours only.\n\n",
      name_, overrides_text(options_), revision_, options_.quick ? " with --quick" : "");
  md += wide_header + "\n" + wide_rule + "\n";
  for (const auto& statistic : statistics) md += "| " + statistic + " |" + wide_rows[statistic] + "\n";
  for (const auto& [key, line] : wide_rows)
    if (key[0] == '~') md += "| " + key.substr(1) + " |" + line + "\n";
  md += "\n## Ours vs published\n\n| subset | part | statistic | ours | published | delta | matches |\n|---|---|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    if (!row.contains("published")) continue;
    const bool integral = row["statistic"] != "avg_length";
    md += fmt::format("| {} | {} | {} | {} | {:g} | {} | {} |\n", row["subset"].get<std::string>(), row["part"].get<std::string>(),
                      row["statistic"].get<std::string>(),
                      integral ? fmt::format("{:.0f}", row["ours"].get<double>()) : fixed(row["ours"].get<double>(), 2),
                      row["published"].get<double>(),
                      integral ? fmt::format("{:+.0f}", row["delta"].get<double>()) : signed_fixed(row["delta"].get<double>(), 2),
                      row["matches"].get<bool>() ? "yes" : "**no**");
  }
  md += "\n## Data\n\n" + data_lines();
  md += "\n## Notes\n\n";
  for (const auto& note : spec_.value("notes", json::array())) md += "- " + note.get<std::string>() + "\n";
  const double seconds = seconds_since(start);
  json out = {{"name", name_}, {"title", spec_.value("title", name_)}, {"revision", revision_},
              {"quick", options_.quick}, {"overrides", options_.overrides}, {"seconds", seconds}, {"rows", rows}};
  for (const char* part : kParts) out["data"][part] = {{"path", files_.at(part).path}, {"sha256", files_.at(part).sha256}};
  summary.result_files = write_result_files(results_dir_, name_, options_.quick, md, csv, out);
  return summary;
}

// ---- Table X --------------------------------------------------------------------------------

struct SubsetData {
  std::string name;
  std::size_t size = 0;
  std::size_t feature_count = 0;
  std::map<std::string, std::vector<ConllSentence>> sets;       // train, validation, testa, testb
  std::map<std::string, std::vector<FeaturizedSentence>> featurized;
};

struct Cell {
  const SubsetData* subset;
  std::string method;
  std::string kind;
  double lambda;
  int grid_index;
  int target;  // MPG: the class; CRF: 0 (all classes from one model)
  int max_iterations;
  double game_tolerance;
};

// Scores of one labelling set: per class token-level and entity-level F1.
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
    const int c = classes[k];
    out[conll_label_names()[static_cast<std::size_t>(c)]] = {
        {"token", tokens[k].f1()},
        {"entity", chunks.f1(c)},
        {"token_counts", {tokens[k].true_positives, tokens[k].predicted, tokens[k].gold}},
        {"entity_counts", {chunks.correct[static_cast<std::size_t>(c)], chunks.guessed[static_cast<std::size_t>(c)],
                           chunks.gold[static_cast<std::size_t>(c)]}}};
  }
  return out;
}

json run_cell(const Cell& cell, const std::vector<int>& all_classes) {
  const SubsetData& data = *cell.subset;
  const ChainLayout layout{data.feature_count, kConllLabelCount};
  json result;
  const auto start = clock_type::now();
  if (cell.kind == "crf") {
    CrfOptions options;
    options.lambda = cell.lambda;
    options.max_iterations = cell.max_iterations;
    const CrfModel model = train_crf(data.featurized.at("train"), layout, options);
    result["train_seconds"] = seconds_since(start);
    result["iterations"] = model.summary.iterations;
    result["converged"] = model.summary.converged();
    result["optimizer"] = model.summary.message;
    for (const char* set : kEvaluationSets) {
      std::vector<std::vector<int>> predicted;
      for (const auto& s : data.featurized.at(set)) predicted.push_back(model.predict(s));
      result[set] = score_set(data.sets.at(set), predicted, all_classes);
    }
  } else {
    LinearChainMpgOptions options;
    options.target = cell.target;
    options.lambda = cell.lambda;
    options.max_iterations = cell.max_iterations;
    options.game_tolerance = cell.game_tolerance;
    const LinearChainMpgModel model = train_linear_chain_mpg(data.featurized.at("train"), layout, options);
    result["train_seconds"] = seconds_since(start);
    result["iterations"] = model.summary.optimizer.iterations;
    result["converged"] = model.summary.converged();
    result["optimizer"] = model.summary.optimizer.message;
    result["unconverged_training_games"] = model.summary.last_unconverged_games;
    int unconverged = 0;
    for (const char* set : kEvaluationSets) {
      const auto& featurized = data.featurized.at(set);
      std::vector<std::vector<int>> predicted(featurized.size());
      std::vector<char> converged(featurized.size(), 1);
      tbb::parallel_for(std::size_t{0}, featurized.size(), [&](std::size_t i) {
        bool ok = true;
        predicted[i] = predict_linear_chain_mpg(model, featurized[i], cell.game_tolerance, &ok);
        converged[i] = ok;
      });
      for (char ok : converged) unconverged += ok ? 0 : 1;
      result[set] = score_set(data.sets.at(set), predicted, {cell.target});
    }
    result["unconverged_test_games"] = unconverged;
  }
  result["seconds"] = seconds_since(start);
  return result;
}

RunSummary SequenceExperiment::run_f1() {
  const auto start = clock_type::now();
  const double fraction = spec_["protocol"]["validation_fraction"].get<double>();
  std::vector<int> classes;
  for (const auto& c : spec_["classes"]) classes.push_back(conll_label_of_name(c.get<std::string>()));
  const std::string compare_level = spec_.value("compare_level", "entity");
  const double tolerance = spec_.value("tolerance", 0.02);

  // Data per subset.
  std::vector<std::unique_ptr<SubsetData>> data;
  for (const auto& [name, n] : subsets_) {
    auto d = std::make_unique<SubsetData>();
    d->name = name;
    d->size = n;
    d->sets["train"] = sentences("train", 0, n);
    const auto validation_size = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
    d->sets["validation"] = sentences("train", n, validation_size);
    d->sets["testa"] = sentences("testa", 0, n);
    d->sets["testb"] = sentences("testb", 0, n);
    if (d->sets["validation"].size() < validation_size)
      throw InputError(files_.at("train").path, fmt::format("has too few sentences for conll.{} plus {} validation sentences", n, validation_size));
    FeatureDictionary dictionary;
    dictionary.build(d->sets["train"]);
    d->feature_count = dictionary.size();
    for (const auto& [set, s] : d->sets) d->featurized[set] = dictionary.featurize(s);
    data.push_back(std::move(d));
  }

  // Cells: subset x method x lambda (x class for MPG).
  std::vector<Cell> cells;
  for (const auto& d : data)
    for (const auto& [method, m] : spec_["methods"].items()) {
      const std::string kind = m["kind"].get<std::string>();
      int index = 0;
      for (const auto& lambda : m["lambda"]) {
        Cell cell{d.get(), method, kind, lambda.get<double>(), index++, 0,
                  m.value("max_iterations", kind == "crf" ? 300 : 100), m.value("game_tolerance", 1e-6)};
        if (kind == "crf") {
          cells.push_back(cell);
        } else {
          for (int c : classes) {
            cell.target = c;
            cells.push_back(cell);
          }
        }
      }
    }
  auto key_of = [&](const Cell& c) {
    json key = {{"experiment", "sequence_labeling/f1"}, {"kind", c.kind}, {"subset", c.subset->size},
                {"validation_sentences", c.subset->sets.at("validation").size()}, {"lambda", c.lambda},
                {"max_iterations", c.max_iterations}, {"features", kFeatureVersion}, {"revision", revision_}};
    for (const char* part : kParts) key["sha256"][part] = files_.at(part).sha256;
    if (c.kind == "mpg") {
      key["target"] = conll_label_names()[static_cast<std::size_t>(c.target)];
      key["game_tolerance"] = c.game_tolerance;
    } else {
      json names = json::array();
      for (int k : classes) names.push_back(conll_label_names()[static_cast<std::size_t>(k)]);
      key["classes"] = names;
    }
    return key;
  };
  auto describe = [](const Cell& c) {
    return fmt::format("{:<10} {:<4} {:<4} lambda={}", c.subset->name, c.method,
                       c.kind == "mpg" ? conll_label_names()[static_cast<std::size_t>(c.target)] : "all", c.lambda);
  };

  RunSummary summary;
  summary.name = name_;
  summary.cells = static_cast<int>(cells.size());
  std::vector<json> results(cells.size());
  std::atomic<int> cached{0};
  CellProgress progress(name_, options_.progress, options_.heartbeat_seconds);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, cell_threads(options_));
  // Smaller subsets first (an interrupted full run leaves whole subsets in the cache), the long
  // MPG cells first within a subset.
  std::vector<std::size_t> order(cells.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (cells[a].subset->size != cells[b].subset->size) return cells[a].subset->size < cells[b].subset->size;
    return cells[a].kind == "mpg" && cells[b].kind != "mpg";
  });
  progress.start_phase(static_cast<int>(cells.size()));
  tbb::parallel_for(std::size_t{0}, order.size(), [&](std::size_t j) {
    const std::size_t i = order[j];
    const long token = progress.begin(describe(cells[i]));
    auto [result, was_cached] = cache_.get_or_compute(key_of(cells[i]), [&] { return run_cell(cells[i], classes); });
    cached += was_cached;
    std::string scores;
    const std::vector<int> shown = cells[i].kind == "mpg" ? std::vector<int>{cells[i].target} : classes;
    for (int c : shown) {
      const std::string name = conll_label_names()[static_cast<std::size_t>(c)];
      scores += fmt::format(" {} {:.3f}", name, result["validation"][name]["token"].get<double>());
    }
    progress.finish(token,
                    fmt::format("{}  validation token F1{}  ({:.1f} s)", describe(cells[i]), scores,
                                result["seconds"].get<double>()),
                    was_cached);
    results[i] = std::move(result);
  });
  summary.cached_cells = cached;

  // Selection per (subset, method, class) on validation token F1, first in grid order among ties.
  struct Choice {
    std::size_t cell;
    double validation;
  };
  std::map<std::tuple<std::string, std::string, int>, Choice> chosen;
  for (std::size_t i = 0; i < cells.size(); ++i)
    for (int c : classes) {
      if (cells[i].kind == "mpg" && cells[i].target != c) continue;
      const std::string name = conll_label_names()[static_cast<std::size_t>(c)];
      const double v = results[i]["validation"][name]["token"].get<double>();
      const auto key = std::make_tuple(cells[i].subset->name, cells[i].method, c);
      const auto found = chosen.find(key);
      if (found == chosen.end() || v > found->second.validation ||
          (v == found->second.validation && cells[i].grid_index < cells[found->second.cell].grid_index))
        chosen[key] = {i, v};
    }

  const json published = spec_.value("published", json::object());
  json rows = json::array();
  std::string csv =
      "subset,class,set,method,lambda,validation_token_f1,token_f1,entity_f1,published,compared,delta,within_tolerance,train_seconds\n";
  std::string md = fmt::format("# {}\n\n", spec_.value("title", name_));
  md += fmt::format(
      "Generated by `mpg run experiments/{}.json{}` with the code of revision `{}`{}. F1 in %; **compared with the published "
      "values: {}-level F1** (the other level is shown beside it). Tolerance ±{} points.\n\n",
      name_, overrides_text(options_), revision_, options_.quick ? " with --quick (reduced grid)" : "", compare_level,
      tolerance * 100);
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  // Wide table in the thesis' layout.
  md += "| subset | tag |";
  std::string rule = "|---|---|";
  for (const char* set : {"testa", "testb"})
    for (const auto& method : methods) {
      md += fmt::format(" {} {} ours | published | Δ |", set, method);
      rule += "---|---|---|";
    }
  md += "\n" + rule + "\n";
  std::string long_md =
      "| subset | tag | set | method | λ | validation token F1 | token F1 | entity F1 | published | Δ | within tol. |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& d : data)
    for (int c : classes) {
      const std::string name = conll_label_names()[static_cast<std::size_t>(c)];
      md += fmt::format("| {} | {} |", d->name, name);
      for (const char* set : {"testa", "testb"})
        for (const auto& method : methods) {
          const auto found = chosen.find(std::make_tuple(d->name, method, c));
          if (found == chosen.end()) {
            md += " | | |";
            continue;
          }
          const json& r = results[found->second.cell];
          const double token = r[set][name]["token"].get<double>();
          const double entity = r[set][name]["entity"].get<double>();
          const double compared = compare_level == "entity" ? entity : token;
          json pub;
          if (published.contains(method) && published[method].contains(d->name) &&
              published[method][d->name].contains(set))
            pub = published[method][d->name][set].value(name, json());
          json row = {{"subset", d->name}, {"class", name}, {"set", set}, {"method", method},
                      {"lambda", cells[found->second.cell].lambda}, {"validation_token_f1", found->second.validation},
                      {"token_f1", token}, {"entity_f1", entity}, {"compared", compare_level},
                      {"train_seconds", r["train_seconds"]}};
          std::string pub_text, delta_text, within_text;
          if (pub.is_number()) {
            const double p = pub.get<double>();
            const double delta = compared - p;
            const bool within = std::abs(delta) <= tolerance;
            ++summary.published_cells;
            summary.within_tolerance += within;
            // What the selected model's run recorded that can explain a miss: its caps.
            std::vector<std::string> causes;
            if (!r.value("converged", true))
              causes.push_back("training not converged (" + r.value("optimizer", std::string("optimizer cap")) + ")");
            if (r.value("unconverged_training_games", 0) > 0)
              causes.push_back(fmt::format("{} training games not converged", r["unconverged_training_games"].get<long>()));
            if (r.value("unconverged_test_games", 0) > 0)
              causes.push_back(fmt::format("{} testa/testb games not converged", r["unconverged_test_games"].get<long>()));
            row["recorded_causes"] = causes;
            if (!within)
              summary.outside.push_back(fmt::format("{} {} {} {}: {:.2f} vs {:.2f} ({:+.2f}); {}", d->name, name, set, method,
                                                    100 * compared, 100 * p, 100 * delta,
                                                    causes.empty() ? std::string("no cap recorded (see the table's notes)")
                                                                   : fmt::format("{}", fmt::join(causes, "; "))));
            row["published"] = p;
            row["delta"] = delta;
            row["within_tolerance"] = within;
            pub_text = fixed(100 * p, 2);
            delta_text = signed_fixed(100 * delta, 2);
            within_text = within ? "yes" : "**no**";
          }
          md += fmt::format(" {} ({}) | {} | {} |", fixed(100 * compared, 2),
                            fixed(100 * (compare_level == "entity" ? token : entity), 2), pub_text, delta_text);
          long_md += fmt::format("| {} | {} | {} | {} | {:g} | {} | {} | {} | {} | {} | {} |\n", d->name, name, set, method,
                                 cells[found->second.cell].lambda, fixed(100 * found->second.validation, 2),
                                 fixed(100 * token, 2), fixed(100 * entity, 2), pub_text, delta_text, within_text);
          csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", d->name, name, set, method,
                             cells[found->second.cell].lambda, found->second.validation, token, entity,
                             pub.is_number() ? fmt::format("{}", pub.get<double>()) : "", compare_level,
                             row.contains("delta") ? fmt::format("{}", row["delta"].get<double>()) : "",
                             row.contains("within_tolerance") ? (row["within_tolerance"].get<bool>() ? "yes" : "no") : "",
                             r["train_seconds"].get<double>());
          rows.push_back(row);
        }
      md += "\n";
    }
  md += fmt::format("\nCells read `ours {} ({} in parentheses)`, in %.\n\n## Selected models\n\n", compare_level,
                    compare_level == "entity" ? "token" : "entity");
  md += long_md;

  // Training time per subset and method (every grid point).
  md += "\n## Training time\n\nMean over the grid of one training (MPG: one class model; the four classes are four "
        "trainings), on a shared 2-core machine with cells run in parallel, so per-cell times include contention.\n\n"
        "| subset | method | trainings | mean training (s) | max training (s) | mean L-BFGS iterations | not converged (optimizer) |\n"
        "|---|---|---|---|---|---|---|\n";
  json timing = json::array();
  std::vector<std::string> notes;
  for (const auto& d : data)
    for (const auto& method : methods) {
      double total = 0.0, longest = 0.0, iterations = 0.0;
      int count = 0, unconverged = 0;
      long unconverged_games = 0;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].subset != d.get() || cells[i].method != method) continue;
        const double s = results[i]["train_seconds"].get<double>();
        total += s;
        longest = std::max(longest, s);
        iterations += results[i]["iterations"].get<double>();
        unconverged += results[i]["converged"].get<bool>() ? 0 : 1;
        unconverged_games += results[i].value("unconverged_training_games", 0) + results[i].value("unconverged_test_games", 0);
        ++count;
      }
      if (count == 0) continue;
      md += fmt::format("| {} | {} | {} | {:.1f} | {:.1f} | {:.0f} | {} |\n", d->name, method, count, total / count, longest,
                        iterations / count, unconverged);
      timing.push_back({{"subset", d->name}, {"method", method}, {"trainings", count}, {"mean_train_seconds", total / count},
                        {"max_train_seconds", longest}, {"mean_iterations", iterations / count},
                        {"optimizer_not_converged", unconverged}});
      if (unconverged > 0)
        notes.push_back(fmt::format("{} {}: {} of {} trainings stopped at the iteration cap or on a failed line search "
                                    "(non-smooth objective), not at the gradient tolerance.",
                                    d->name, method, unconverged, count));
      if (unconverged_games > 0)
        notes.push_back(fmt::format("{} {}: {} sentence games stopped before the double-oracle tolerance.", d->name,
                                    method, unconverged_games));
    }
  md += "\n## Data\n\n" + data_lines();
  for (const auto& d : data)
    md += fmt::format("- {}: {} train / {} validation (eng.train sentences {}..{}) / {} testa / {} testb sentences; {} "
                      "observation features (x {} labels + {} label bigrams = {} weights)\n",
                      d->name, d->sets["train"].size(), d->sets["validation"].size(), d->size + 1,
                      d->size + d->sets["validation"].size(), d->sets["testa"].size(), d->sets["testb"].size(),
                      d->feature_count, kConllLabelCount, (kConllLabelCount + 1) * kConllLabelCount,
                      ChainLayout{d->feature_count, kConllLabelCount}.size());
  md += "\n## Notes\n\n";
  for (const auto& note : spec_.value("notes", json::array())) md += "- " + note.get<std::string>() + "\n";
  for (const auto& note : notes) md += "- " + note + "\n";
  const double seconds = seconds_since(start);
  json out = {{"name", name_}, {"title", spec_.value("title", name_)}, {"revision", revision_},
              {"quick", options_.quick}, {"overrides", options_.overrides}, {"seconds", seconds}, {"compare_level", compare_level},
              {"rows", rows}, {"timing", timing}, {"notes", notes}};
  json all_cells = json::array();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    json key = key_of(cells[i]);
    all_cells.push_back({{"subset", cells[i].subset->name}, {"method", cells[i].method}, {"lambda", cells[i].lambda},
                         {"target", key.value("target", "all")}, {"result", results[i]}});
  }
  out["cells"] = all_cells;
  for (const char* part : kParts) out["data"][part] = {{"path", files_.at(part).path}, {"sha256", files_.at(part).sha256}};
  summary.result_files = write_result_files(results_dir_, name_, options_.quick, md, csv, out);
  return summary;
}

}  // namespace

RunSummary run_sequence_labeling_experiment(json spec, const std::string& path, const RunOptions& options) {
  const bool statistics = spec["table"].get<std::string>() == "statistics";
  SequenceExperiment experiment(std::move(spec), path, options);
  return statistics ? experiment.run_statistics() : experiment.run_f1();
}

}  // namespace mpg::harness
