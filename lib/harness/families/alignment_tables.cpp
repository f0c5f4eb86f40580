// The alignment family's tables (lib/harness/families/alignment.cpp has its methods, cells and spec keys).
#include "lib/harness/families/alignment.hpp"

namespace mpg::harness::alignment_impl {

Tables AlignmentRun::tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  std::map<std::string, std::string> published_method;  // row -> the method compared with it
  for (const auto& [row, p] : published.items()) published_method[row] = p.value("method", row);
  auto chosen = [&](const std::string& method) -> std::optional<std::size_t> {
    const auto found = outcome.selected.find(method);
    if (found == outcome.selected.end()) return std::nullopt;
    return found->second;
  };
  // A cell's scores on a set (score_part's object).
  auto part_of = [&](std::size_t cell, const std::string& set) -> const json& {
    return set == "valid" ? outcome.validation[cell]["valid"] : outcome.test.at(cell)["test"];
  };
  auto ours = [&](const std::string& method, const std::string& set) -> std::optional<double> {
    const auto cell = chosen(method);
    if (!cell) return std::nullopt;
    return part_of(*cell, set)["aer"].get<double>();
  };
  // Its per-pair statistics, the units of intervals and paired tests.
  auto units_of = [&](std::size_t cell, const std::string& method, const std::string& set) {
    return unit_sample_from_json(part_of(cell, set).value("units", json()), method + " " + set + " result");
  };
  auto scored = [&](std::size_t cell, const std::string& set) {
    return without_unit_samples(part_of(cell, set));  // in the intervals, not in the table
  };
  auto grid_text = [&](std::size_t cell) {
    const ParameterValues& p = plans_[cell].parameters;
    const Parameter* grid = p.table().grid();
    return fmt::format("{} = {}", grid->name, p.number(grid->name));
  };

  Tables out;
  std::string& md = out.markdown;
  md += fmt::format(
      "Word alignment, English–French NAACL 2003 Hansards (`{}`, variant `{}`): train = the first {} labeled pairs, "
      "test = the other {}, validation = the {} trial pairs; association counts{} from the text of {} pairs (thesis: "
      "1,470,000). AER in per cent (corpus level, Och & Ney), lower is better; hyper-parameters chosen on the "
      "validation pairs.\n\n",
      choice_.dataset, choice_.variant, train_pairs_, labeled_.size() - train_pairs_, trial_.size(),
      aligner_used_ ? " and the IBM1/HMM aligner (GIZA++ stand-in)" : "", text_pairs_);

  // The selected cell's training: certified (its certified gap), stopped at a cap (the gap it was
  // certified to), or an authors' protocol (no certificate: its optimizer's own stop).
  auto training_text = [&](std::size_t cell) -> std::string {
    const json& s = outcome.validation[cell]["training"];
    std::string text = s.value("converged", false) ? "converged" : "**cap**";
    text += fmt::format(", {} it.", s.value("iterations", 0));
    if (s.contains("certified_gap"))
      text += fmt::format(", certified gap {:.2g} (objective {:.4g})", s["certified_gap"].get<double>(),
                          s["objective"].get<double>());
    else if (s.contains("objective"))
      text += fmt::format(", objective {:.4g}, no certificate", s["objective"].get<double>());
    return text;
  };
  md += "## Table XIII: AER, ours (published)\n\n| method | features | selected | valid | test | training (selected "
        "cell) |\n|---|---|---|---|---|---|\n";
  std::string csv = "method,set,aer,source\n";
  json rows = json::array();
  for (const auto& method : methods) {
    std::string published_row;
    for (const auto& [row, m] : published_method)
      if (m == method) published_row = row;
    const auto cell = chosen(method);
    md += fmt::format("| {} | {} | {} |", method, spec_["methods"][method].value("features", std::string("base")),
                      cell ? grid_text(*cell) : "-");
    for (const char* set : kSets) {
      const auto value = ours(method, set);
      md += value ? fmt::format(" {}", fixed(*value, 2)) : std::string(" -");
      if (!published_row.empty()) md += fmt::format(" ({})", fixed(published[published_row][set].get<double>(), 2));
      md += " |";
      if (value) csv += fmt::format("{},{},{:.6f},ours\n", method, set, *value);
    }
    md += cell ? fmt::format(" {} |\n", training_text(*cell)) : std::string(" - |\n");
    if (cell)
      rows.push_back({{"method", method},
                      {"selected", grid_text(*cell)},
                      {"valid", scored(*cell, "valid")},
                      {"test", scored(*cell, "test")},
                      {"training", outcome.validation[*cell].value("training", json::object())}});
  }
  for (const auto& [row, p] : published.items())
    for (const char* set : kSets) csv += fmt::format("{},{},{:.6f},published\n", row, set, p[set].get<double>());

  ComparisonTable comparison({{"row", "published row"}, {"method", "our method"}, {"set", "set"}}, {},
                             tolerance_of(spec_, 2.0), 2);
  for (const auto& [row, p] : published.items()) {
    const std::string& method = published_method[row];
    const bool aligner = spec_["methods"].contains(method) &&
                         spec_["methods"][method].value("features", std::string("base")) == "aligner";
    std::vector<std::string> rows_of = {method};
    for (const std::string& variant : protocol_variants(spec_, method)) rows_of.push_back(variant);
    for (const std::string& m : rows_of)
      for (const char* set : kSets) {
        auto& r = comparison.add({row, m, set}, ours(m, set), p[set].get<double>());
        if (const auto cell = chosen(m)) ComparisonTable::set_interval(r, units_of(*cell, m, set), 100.0);
        r.standing = standing_of({.papers_data = choice_.exact(), .papers_method = !aligner, .counted_protocol = m == method});
        if (!choice_.exact()) r.causes.push_back("data substitute (" + choice_.variant + ")");
        if (aligner) r.causes.push_back("aligner substitute (IBM1/HMM for GIZA++ Model 4)");
        if (const auto cell = chosen(m); cell && !outcome.validation[*cell]["training"].value("converged", true))
          r.causes.push_back("training stopped at a cap");
      }
  }
  md += published_section(spec_, comparison.markdown());
  out.tally = comparison.tally();

  // The thesis' claims: `lower` has a lower AER than each of `than`, on valid and test.
  md += "## The thesis' claims\n\n";
  Claims claims;
  for (const auto& claim : spec_.value("claims", json::array())) {
    const std::string lower = claim["lower"].get<std::string>();
    OrderingClaim order;
    order.higher_is_better = false;
    for (const auto& other : claim["than"])
      for (const char* set : kSets)
        order.compare(other.get<std::string>() + " " + set, ours(lower, set), ours(other.get<std::string>(), set));
    // Larger than the noise of the test pairs? A paired bootstrap of the AER differences over pairs.
    json paired = json::array();
    std::vector<std::string> paired_text;
    for (const auto& other : claim["than"])
      for (const char* set : kSets) {
        const std::string than = other.get<std::string>();
        const auto a = chosen(lower), b = chosen(than);
        if (!a || !b) continue;
        const auto d = paired_evidence(units_of(*a, lower, set), units_of(*b, than, set), 100.0);
        if (!d) continue;
        json entry = d->json;
        entry["than"] = than;
        entry["set"] = set;
        paired.push_back(std::move(entry));
        paired_text.push_back(fmt::format("{} {} {}", than, set, d->text));
      }
    const auto holds = order.holds();
    if (holds && !*holds)
      out.tally.outside.push_back(fmt::format("claim '{}': not lower than {}", claim.value("text", lower),
                                              fmt::join(order.failed, "; ")));
    std::string evidence = order.evidence("Lower than", "Not lower than");
    if (!paired_text.empty())
      evidence += fmt::format(" Paired bootstrap over sentence pairs ({} − each, AER points, 95 % interval, 5 % level): "
                              "{}.", lower, fmt::join(paired_text, "; "));
    claims.add(claim.value("text", lower + " lowest"), holds, evidence,
               {{"lower", lower}, {"not_lower", order.failed}, {"paired_bootstrap", paired}});
  }
  md += claims.bullets();

  // Every validation cell.
  md += fmt::format("\n## Validation cells ({} pairs)\n\n| method | value | valid AER | selected | training | "
                    "seconds |\n|---|---|---|---|---|---|\n",
                    trial_.size());
  std::string notes;
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const json& v = outcome.validation[i];
    const json& s = v["training"];
    const bool selected = chosen(plans_[i].method) == i;
    std::string training = fmt::format("{}, {} iterations", s.value("converged", false) ? "converged" : "**cap**",
                                       s.value("iterations", 0));
    if (s.contains("certified_gap"))
      training += fmt::format(", certified gap {:.2g}", s["certified_gap"].get<double>());
    if (s.contains("games"))
      training += fmt::format(", {} games ({} not converged, max gap {:.1e})", s["games"].get<long>(),
                              s["unconverged_games"].get<long>(), s["max_gap"].get<double>());
    if (!s.value("converged", true) && selected)
      notes += fmt::format("- {} {}: its training stopped at a cap ({}).\n", plans_[i].method, grid_text(i),
                           s.value("status", std::string("?")));
    md += fmt::format("| {} | {} | {} | {} | {} | {:.1f} |\n", plans_[i].method, grid_text(i),
                      fixed(v["valid"]["aer"].get<double>(), 2), selected ? "**yes**" : "", training,
                      v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  for (const auto& method : methods) {
    const auto cell = chosen(method);
    if (!cell || !outcome.test.at(*cell)["test"].contains("games")) continue;
    const json& g = outcome.test.at(*cell)["test"]["games"];
    notes += fmt::format("- {} test games (one per pair): {}, median {:.4f} s, max {:.4f} s, {} not converged, max gap "
                         "{:.1e}.\n",
                         method, g["games"].get<int>(), g["median_seconds"].get<double>(),
                         g["max_seconds"].get<double>(), g["unconverged"].get<int>(), g["max_gap"].get<double>());
  }
  if (aligner_used_)
    notes += fmt::format(
        "- The IBM1/HMM aligner alone (Model 1 ×{} then HMM ×{}, both directions, {:.1f} s wall, trained once per "
        "run): AER valid / test {} / {} (intersection), {} / {} (grow-diag-final).\n",
        aligner_options_.model1_iterations, aligner_options_.hmm_iterations, aligner_seconds_,
        fixed(aligner_alone_["intersection"]["valid"].get<double>(), 2),
        fixed(aligner_alone_["intersection"]["test"].get<double>(), 2),
        fixed(aligner_alone_["grow_diag_final"]["valid"].get<double>(), 2),
        fixed(aligner_alone_["grow_diag_final"]["test"].get<double>(), 2));
  md += fmt::format("\n## Data\n\n- `{}` variant `{}`: {}.\n", choice_.dataset, choice_.variant, choice_.fidelity());
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_) + notes;
  out.csv = csv;
  out.fields = {{"split",
                 {{"train", train_pairs_},
                  {"test", labeled_.size() - train_pairs_},
                  {"valid", trial_.size()},
                  {"text_pairs", text_pairs_}}},
                {"aligner_alone", aligner_alone_},
                {"rows", rows},
                {"claims", claims.to_json()},
                {"published", published},
                {"comparison", comparison.rows_json()}};
  return out;
}

}  // namespace mpg::harness::alignment_impl
