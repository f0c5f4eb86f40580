// The parsing family's tables (lib/harness/families/parsing.cpp has its methods, cells and spec keys).
#include "lib/harness/families/parsing.hpp"

namespace mpg::harness::parsing_impl {

std::string percent(double x) { return fixed(100.0 * x, 2); }

Tables ParsingRun::tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  // The method each published row is compared with (its "method", else the row's own name).
  std::map<std::string, std::string> published_method;
  for (const auto& [row, p] : published.items()) published_method[row] = p.value("method", row);
  auto test_of = [&](const std::string& method) -> const json* {
    const auto found = outcome.selected.find(method);
    return found == outcome.selected.end() ? nullptr : &outcome.test.at(found->second);
  };
  auto ours = [&](const std::string& method, const std::string& measure, const std::string& set) -> std::optional<double> {
    const json* t = test_of(method);
    if (!t) return std::nullopt;
    return 100.0 * (*t)[set][measure].get<double>();
  };
  // A test result's per-sentence statistics of a measure on a set (intervals and paired tests).
  auto units_of = [&](const json& t, const std::string& method, const std::string& measure, const std::string& set) {
    return unit_sample_from_json(t[set].value("units", json::object()).value(measure, json()),
                                 fmt::format("{} {} {} test result", method, measure, set));
  };
  auto selected_text = [&](const std::string& method) -> std::string {
    const auto found = outcome.selected.find(method);
    if (found == outcome.selected.end()) return "-";
    const ParameterValues& p = plans_[found->second].parameters;
    const Parameter* grid = p.table().grid();
    return grid ? fmt::format("{} = {}", grid->name, p.number(grid->name)) : "-";
  };

  Tables out;
  std::string& md = out.markdown;
  md += fmt::format(
      "Parsing from POS tags, sentences of ≤ {} words (traces excluded, punctuation counted). Split of `{}` "
      "(variant `{}`) by WSJ file number mod {}: train {} / validation {} / testa {} / testb {} sentences (thesis: "
      "4,071 / none / 163 / 270); {} trees read, {} longer than {} words. Grammar rule set and PCFGs from {} trees "
      "({}); feature grammar: {} rules ({} binary, {} lexical, {} root), {} labels, {} tags. Hyper-parameters "
      "chosen on the validation documents by {}; values in per cent.\n\n",
      split_options_.max_length, choice_.dataset, choice_.variant, split_options_.modulus, split_.train.size(),
      split_.validation.size(), split_.testa.size(), split_.testb.size(), split_.trees, split_.too_long,
      split_options_.max_length, grammar_trees_.size(),
      grammar_from_all_lengths_ ? "every tree of the training documents" : "the short training sentences",
      grammar_.rule_count(), grammar_.binary_rule_count(), grammar_.lexical_rule_count(), grammar_.root_labels().size(),
      grammar_.label_count(), grammar_.tag_count(), selection_);

  // Table XIV in the thesis' layout: ours (published).
  md += "## Table XIV: 1 − Hamming and evalb F1, ours (published)\n\n"
        "| method | selected | 1−Ham testa | 1−Ham testb | F1 testa | F1 testb | fallbacks testa / testb |\n"
        "|---|---|---|---|---|---|---|\n";
  std::string csv = "method,measure,set,value,source\n";
  json rows = json::array();
  for (const auto& method : methods) {
    const json* t = test_of(method);
    std::string published_row;
    for (const auto& [row, m] : published_method)
      if (m == method) published_row = row;
    md += fmt::format("| {} | {} |", method, selected_text(method));
    for (const char* measure : kMeasures)
      for (const char* set : kTestSets) {
        const auto value = ours(method, measure, set);
        md += value ? fmt::format(" {}", fixed(*value, 2)) : std::string(" -");
        if (!published_row.empty())
          md += fmt::format(" ({})", fixed(published[published_row][measure][set].get<double>(), 2));
        md += " |";
        if (value) csv += fmt::format("{},{},{},{:.6f},ours\n", method, measure, set, *value);
      }
    md += t ? fmt::format(" {} / {} |\n", (*t)["testa"]["fallbacks"].get<int>(), (*t)["testb"]["fallbacks"].get<int>())
            : " - |\n";
    if (t)
      rows.push_back({{"method", method},
                      {"selected", selected_text(method)},
                      {"testa", without_unit_samples((*t)["testa"])},
                      {"testb", without_unit_samples((*t)["testb"])},
                      {"test_seconds", t->value("test_seconds", 0.0)}});
  }
  md += "\nFallbacks: sentences the feature grammar cannot parse, given a flat tree (SSVM, MPG_cfg); for a PCFG row, "
        "sentences its grammar cannot parse, backed off to the '@X' PCFG (or given a flat tree).\n";
  // evalb F1 of the same parses under each of evalb's choices (spec key `evalb`).
  static const char* const kConventions[] = {"delete/fallback", "keep/fallback", "delete/skip", "keep/skip"};
  md += fmt::format("\n## evalb F1 under evalb's conventions (testa / testb)\n\nThe table above counts with outer "
                    "bracket `{}` and unparsable sentences `{}` (spec key `evalb`). `keep`: both trees scored inside the "
                    "PTB's unlabeled outer bracket, a bracket labelled \"\" (evalb on PTB files); `skip`: the "
                    "fallback sentences left out of the counts.\n\n| method |",
                    to_string(evalb_.options.outer_bracket), evalb_.skip_unparsable ? "skip" : "fallback");
  for (const char* c : kConventions) md += fmt::format(" {} |", c);
  md += "\n|---|---|---|---|---|\n";
  for (const auto& method : methods) {
    const json* t = test_of(method);
    if (!t) continue;
    md += fmt::format("| {} |", method);
    for (const char* c : kConventions)
      md += fmt::format(" {} / {} |", percent((*t)["testa"]["evalb_f1_by_convention"][c].get<double>()),
                        percent((*t)["testb"]["evalb_f1_by_convention"][c].get<double>()));
    md += "\n";
  }
  for (const auto& [row, p] : published.items())
    for (const char* measure : kMeasures)
      for (const char* set : kTestSets)
        csv += fmt::format("{},{},{},{:.6f},published\n", row, measure, set, p[measure][set].get<double>());

  // Every published number beside ours.
  ComparisonTable comparison({{"row", "published row"}, {"method", "our method"}, {"measure", "measure"}, {"set", "test set"}},
                             {}, tolerance_of(spec_, 2.0), 2);
  for (const auto& [row, p] : published.items()) {
    const std::string& method = published_method[row];
    const bool pcfg = spec_["methods"].contains(method) && spec_["methods"][method]["kind"] == "pcfg";
    std::vector<std::string> rows_of = {method};
    for (const std::string& variant : protocol_variants(spec_, method)) rows_of.push_back(variant);
    for (const std::string& m : rows_of)
      for (const char* measure : kMeasures)
        for (const char* set : kTestSets) {
          auto& r = comparison.add({row, m, kMeasureNames.at(measure), set}, ours(m, measure, set),
                                   p[measure][set].get<double>());
          r.standing = standing_of({.papers_data = choice_.exact(), .papers_method = !pcfg, .counted_protocol = m == method});
          if (const json* t = test_of(m)) ComparisonTable::set_interval(r, units_of(*t, m, measure, set), 100.0);
          if (!choice_.exact()) r.causes.push_back("data substitute (" + choice_.variant + ")");
          if (pcfg) r.causes.push_back("parser substitute (PCFG stand-in)");
        }
  }
  md += published_section(spec_, comparison.markdown());
  out.tally = comparison.tally();

  // The thesis' claims: each "above" method above each "below" method on both measures and test sets.
  md += "## The thesis' claims\n\n";
  Claims claims;
  for (const auto& claim : spec_.value("claims", json::array())) {
    const std::string above = claim["above"].get<std::string>(), below = claim["below"].get<std::string>();
    OrderingClaim order;
    for (const char* measure : kMeasures)
      for (const char* set : kTestSets)
        order.compare(fmt::format("{} {}", kMeasureNames.at(measure), set), ours(above, measure, set),
                      ours(below, measure, set));
    // Is each difference larger than the noise of the 82-odd test sentences? A paired bootstrap
    // over the sentences both methods parsed (lib/stats/bootstrap.hpp).
    std::vector<std::string> paired_text;
    json paired = json::array();
    const json *ta = test_of(above), *tb = test_of(below);
    for (const char* measure : kMeasures)
      for (const char* set : kTestSets) {
        if (!ta || !tb) continue;
        const auto d = paired_evidence(units_of(*ta, above, measure, set), units_of(*tb, below, measure, set), 100.0);
        if (!d) continue;  // evalb skipping different sentences: not paired
        json entry = d->json;
        entry["measure"] = measure;
        entry["set"] = set;
        paired.push_back(std::move(entry));
        paired_text.push_back(fmt::format("{} {} {}", kMeasureNames.at(measure), set, d->text));
      }
    const auto holds = order.holds();
    if (holds && !*holds)
      out.tally.outside.push_back(fmt::format("claim {} above {}: not above in {}", above, below, fmt::join(order.failed, "; ")));
    std::string evidence = order.evidence("Above", "Not above");
    if (!paired_text.empty())
      evidence += fmt::format(" Paired bootstrap over sentences ({} − {}, points, 95 % interval, 5 % level): {}.", above,
                              below, fmt::join(paired_text, "; "));
    claims.add(fmt::format("{} above {} on both measures and both test sets", above, below), holds, evidence,
               {{"above", above}, {"below", below}, {"not_above", order.failed}, {"paired_bootstrap", paired}});
  }
  md += claims.bullets();

  // Every validation cell: the grid, the selection, the training.
  md += fmt::format("\n## Validation cells ({} sentences; {} selects)\n\n| method | value | 1−Ham | F1 | fallbacks | "
                    "selected | training | seconds |\n|---|---|---|---|---|---|---|---|\n",
                    split_.validation.size(), selection_);
  std::string notes;
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const json& v = outcome.validation[i];
    const Parameter* grid = plans_[i].parameters.table().grid();
    const bool chosen = outcome.selected.count(plans_[i].method) && outcome.selected.at(plans_[i].method) == i;
    std::string training = "-";
    if (v.contains("training")) {
      const json& s = v["training"];
      training = fmt::format("{}, {} iterations", s.value("converged", false) ? "converged" : "**cap**",
                             s.value("iterations", 0));
      if (s.contains("certified_gap"))
        training += fmt::format(", objective {:.6g}, certified gap {:.2g}", s["objective"].get<double>(),
                                s["certified_gap"].get<double>());
      else if (s.contains("gap"))
        training += fmt::format(", gap {:.2g}", s["gap"].get<double>());
      if (s.contains("games"))
        training += fmt::format(", {} games ({} not converged, max gap {:.1e})", s["games"].get<long>(),
                                s["unconverged_games"].get<long>(), s["max_gap"].get<double>());
      if (!s.value("converged", true) && chosen)
        notes += fmt::format("- {} {}: its training stopped at a cap ({}).\n", plans_[i].method,
                             grid ? fmt::format("{} = {}", grid->name, plans_[i].parameters.number(grid->name)) : "",
                             s.value("status", std::string("?")));
    }
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {:.1f} |\n", plans_[i].method,
                      grid ? fmt::format("{} = {}", grid->name, plans_[i].parameters.number(grid->name)) : "-",
                      percent(v["validation"]["one_minus_hamming"].get<double>()),
                      percent(v["validation"]["evalb_f1"].get<double>()), v["validation"]["fallbacks"].get<int>(),
                      chosen ? "**yes**" : "", training,
                      v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  for (const auto& method : methods) {
    const json* t = test_of(method);
    if (!t || !(*t)["testa"].contains("games")) continue;
    for (const char* set : kTestSets) {
      const json& g = (*t)[set]["games"];
      notes += fmt::format("- {} {} games (one per parsable sentence): {}, median {:.4f} s, max {:.4f} s, {} not "
                           "converged.\n",
                           method, set, g["games"].get<int>(), g["median_seconds"].get<double>(),
                           g["max_seconds"].get<double>(), g["unconverged"].get<int>());
    }
  }
  md += fmt::format("\n## Data\n\n- `{}` sha256 `{}` ({}).\n", archive_.name, archive_.sha256.substr(0, 16),
                    choice_.fidelity());
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_) + notes;
  out.csv = csv;
  out.fields = {{"split",
                 {{"options", split_json(split_options_)},
                  {"train", split_.train.size()},
                  {"validation", split_.validation.size()},
                  {"testa", split_.testa.size()},
                  {"testb", split_.testb.size()},
                  {"grammar_trees", grammar_trees_.size()}}},
                {"grammar",
                 {{"rules", grammar_.rule_count()}, {"labels", grammar_.label_count()}, {"tags", grammar_.tag_count()}}},
                {"selection", selection_},
                {"evalb", to_json(evalb_)},
                {"rows", rows},
                {"claims", claims.to_json()},
                {"published", published},
                {"comparison", comparison.rows_json()}};
  return out;
}

}  // namespace mpg::harness::parsing_impl
