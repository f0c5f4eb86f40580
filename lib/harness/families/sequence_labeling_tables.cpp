// The sequence_labeling family's tables (lib/harness/families/sequence_labeling.cpp has its methods, cells and spec keys).
#include "lib/harness/families/sequence_labeling.hpp"

namespace mpg::harness::sequence_labeling_impl {

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
  const std::vector<TableColumn> extras = {{"compared", "compared level"},
                                                      {"lambda", "λ", 6},
                                                      {"validation_token_f1", "validation token F1", 2, 100},
                                                      {"token_f1", "token F1", 2, 100},
                                                      {"entity_f1", "entity F1", 2, 100},
                                                      {"train_seconds", "training (s)", 1}};
  const std::vector<TableColumn> keys = {{"subset", "subset"}, {"class", "tag"}, {"set", "set"}, {"method", "method"}};
  ComparisonTable table(keys, extras, tolerance, 2, 100);
  // diagnostic_level: every method once more at that level, in a table outside the tally.
  const std::string diagnostic_level = spec_.value("diagnostic_level", std::string());
  ComparisonTable diagnostic(keys, extras, tolerance, 2, 100);
  const json compare_with = spec_.value("compare_with", json::object());
  auto published_name = [&](const std::string& method) { return compare_with.value(method, method); };
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
          const std::optional<double> pub = number_at(published, {published_name(method), s->name, set, name});
          auto& row = table.add({s->name, name, set, method}, scores[level].get<double>(), pub);
          ComparisonTable::set_interval(
              row, unit_sample_from_json(scores.value(level + "_units", json()),
                                         fmt::format("{} {} {} {} result", s->name, method, set, name)));
          // The one counting rule: a row compared with another method's number (the authors'
          // protocols beside the certified MPG) is a protocol variant, counted apart.
          if (published_name(method) != method) row.standing = Standing::variant;
          row.extra = {{"lambda", plans_[found->second].parameters.number("lambda")},
                       {"validation_token_f1", r["validation"][name]["token"]},
                       {"token_f1", scores["token"]},
                       {"entity_f1", scores["entity"]},
                       {"compared", level},
                       {"train_seconds", r["train_seconds"]}};
          if (!diagnostic_level.empty()) {
            auto& d = diagnostic.add({s->name, name, set, method}, scores[diagnostic_level].get<double>(), pub);
            ComparisonTable::set_interval(
                d, unit_sample_from_json(scores.value(diagnostic_level + "_units", json()),
                                         fmt::format("{} {} {} {} result", s->name, method, set, name)));
            d.extra = row.extra;
            d.extra["compared"] = diagnostic_level;
            d.standing = Standing::diagnostic;
          }
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
  if (!diagnostic_level.empty())
    out.markdown += fmt::format("\n## Diagnostic, not a reproduction: every method at {} level vs published\n\n"
                                "The same selected models scored at the level the table does not compare; these rows "
                                "are not counted in the table's tally.\n\n{}",
                                diagnostic_level, diagnostic.markdown());
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
                     {"result", without_unit_samples(outcome.validation[i])}});
  out.csv = table.csv();
  out.fields = {{"compare_level", levels}, {"tolerance", tolerance}, {"rows", table.rows_json()}, {"timing", timing},
                {"notes", notes}, {"cells", cells}, {"data", data_json(files_)}};
  if (!diagnostic_level.empty())
    out.fields["diagnostic"] = {{"level", diagnostic_level}, {"rows", diagnostic.rows_json()}};
  out.tally = table.tally();
  out.tally.add(diagnostic.tally());  // all Standing::diagnostic: counted apart
  return out;
}

}  // namespace mpg::harness::sequence_labeling_impl
