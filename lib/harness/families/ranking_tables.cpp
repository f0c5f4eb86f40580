// The ranking family's tables (lib/harness/families/ranking.cpp has its methods, cells and spec keys).
#include "lib/harness/families/ranking.hpp"

namespace mpg::harness::ranking_impl {

std::string number(double x, int digits) { return fixed(x, digits); }

Tables RankingRun::tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  const std::string published_dataset = published.value("dataset", std::string());
  const bool published_is_ours = spec_["datasets"].contains(published_dataset);
  const json published_mean = published.value("mean_ndcg", json::object());
  const json published_at = published.value("ndcg_at", json::object());
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  std::map<std::string, std::map<std::string, MethodRow>> rows;  // dataset -> method -> row
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    MethodRow& row = rows[cells_[i].dataset->label][plans_[i].method];
    const json& v = outcome.validation[i];
    row.train_seconds += v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0);
    if (v.contains("training") && !v["training"].value("converged", true)) ++row.unconverged_trainings;
  }
  // MPG's other rankings of its test games (kMpgRules) become rows of their own; they and the
  // diagnostic kinds are `secondary`: not baselines in the ordering checks, not in Figure 8 unless
  // a rule of MPG's.
  std::vector<std::string> rule_rows;
  std::set<std::string> secondary, off_figure;
  for (const auto& method : methods)
    if (diagnostic_kind(spec_["methods"][method]["kind"].get<std::string>())) {
      secondary.insert(method);
      off_figure.insert(method);
    }
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      MethodRow& row = rows[d->label][method];
      std::vector<QueryMetrics> folds, folds_with_relevant;
      std::map<std::string, std::vector<QueryMetrics>> rule_folds, rule_folds_with_relevant;
      for (int fold : folds_) {
        const auto found = outcome.selected.find(group(*d, fold, method));
        if (found == outcome.selected.end()) continue;
        const std::size_t i = found->second;
        const json& r = outcome.test.at(i);
        folds.push_back(as_entry(r["test"].get<RankingMetrics>()));
        folds_with_relevant.push_back(as_entry(r["test_with_relevant"].get<RankingMetrics>()));
        row.fold_mean_ndcg.push_back(folds.back().mean_ndcg);
        if (!r.contains("test_query_mean_ndcg"))
          throw Error(fmt::format("{} fold {} {} test result: no per-query NDCG (a result cached before paired tests "
                                  "existed: rerun without its cache entry)",
                                  d->label, fold, method));
        for (double v : r["test_query_mean_ndcg"].get<std::vector<double>>()) row.query_mean_ndcg.push_back({v});
        row.test_seconds += r.value("test_seconds", 0.0);
        const Parameter* grid = plans_[i].parameters.table().grid();
        std::string choice = grid ? fmt::format("{} = {}", grid->name, plans_[i].parameters.number(grid->name)) : "";
        if (outcome.validation[i].contains("rounds_used"))
          choice += fmt::format("{}rounds = {}", choice.empty() ? "" : ", ", outcome.validation[i]["rounds_used"].get<int>());
        if (outcome.validation[i].contains("feature"))
          choice += fmt::format("{}{}", choice.empty() ? "" : ", ", outcome.validation[i]["feature"].get<std::string>());
        row.selected.push_back(fmt::format("fold {}: {}", fold, choice));
        if (!r.contains("games")) continue;
        for (const auto& s : r["games"]["seconds"]) row.game_seconds.push_back(s.get<double>());
        for (const auto& n : r["games"]["documents"]) row.game_documents.push_back(n.get<int>());
        row.unconverged_games += r["games"]["unconverged"].get<int>();
        for (const auto& [key, rule] : kMpgRules) {
          if (!r.contains("rules") || !r["rules"].contains(key)) continue;
          rule_folds[key].push_back(as_entry(r["rules"][key]["all"].get<RankingMetrics>()));
          rule_folds_with_relevant[key].push_back(as_entry(r["rules"][key]["with_relevant"].get<RankingMetrics>()));
          rows[d->label][fmt::format("{} ({})", method, rule)].fold_mean_ndcg.push_back(rule_folds[key].back().mean_ndcg);
        }
      }
      row.metrics = average(folds);
      row.with_relevant = average(folds_with_relevant);
      for (const auto& [key, rule] : kMpgRules) {
        if (!rule_folds.contains(key)) continue;
        const std::string label = fmt::format("{} ({})", method, rule);
        rows[d->label][label].metrics = average(rule_folds[key]);
        rows[d->label][label].with_relevant = average(rule_folds_with_relevant[key]);
        secondary.insert(label);
        if (key == "score_sort") off_figure.insert(label);
        if (std::find(rule_rows.begin(), rule_rows.end(), label) == rule_rows.end()) rule_rows.push_back(label);
      }
    }
  methods.insert(methods.end(), rule_rows.begin(), rule_rows.end());
  auto row_of = [&](const Dataset& d, const std::string& method) -> const MethodRow& { return rows[d.label][method]; };

  Tables out;
  std::string& md = out.markdown;
  md += fmt::format("Test metrics averaged over LETOR folds {} (each fold: mean over its test queries), DCG discount "
                    "`{}`{}, NDCG@k of a query shorter than k: `{}` ({}); hyper-parameters and boosting rounds chosen "
                    "on each fold's validation subset by {}.\n\n",
                    fmt::join(folds_, ", "), to_string(scoring_.discount),
                    scoring_.discount == DcgDiscount::letor ? " (DCG'': gain 2^rel - 1, positions 1 and 2 undiscounted, then 1/log2(r))" : "",
                    to_string(scoring_.past_end),
                    scoring_.past_end == NdcgPastEnd::zero ? "0, as LETOR's Eval-Score scripts" : "NDCG@n carried forward",
                    selection_);
  // Table XII in the thesis' layout: methods x data sets, the published column beside ours.
  md += "## Table XII: Mean NDCG\n\n| method |";
  for (const auto& d : datasets_) md += fmt::format(" {} (ours) |", d->label);
  if (!published_mean.empty())
    md += fmt::format(" {} (published{}) |", published_dataset, published_is_ours ? "" : "; a different data set");
  md += "\n|---|";
  for (std::size_t i = 0; i < datasets_.size() + (published_mean.empty() ? 0 : 1); ++i) md += "---|";
  md += "\n";
  std::string csv = "dataset,method,measure,value,source\n";
  std::string figure = "dataset,method,k,ndcg,source\n";  // Figure 8: NDCG@k per data set and method
  json out_rows = json::array();
  for (const auto& method : methods) {
    md += fmt::format("| {} |", method);
    for (const auto& d : datasets_) {
      const MethodRow& row = row_of(*d, method);
      const RankingMetrics& m = row.metrics;
      md += row.ran() ? fmt::format(" {} (± {}) |", number(m.mean_ndcg), number(row.fold_sd(), 3)) : " - |";
      if (!row.ran()) continue;
      csv += fmt::format("{},{},mean_ndcg,{:.6f},ours\n{},{},map,{:.6f},ours\n", d->label, method, m.mean_ndcg, d->label,
                         method, m.map);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},ndcg@{},{:.6f},ours\n", d->label, method, k + 1, m.ndcg_at[k]);
      for (std::size_t k = 0; k < kMaxK; ++k) csv += fmt::format("{},{},p@{},{:.6f},ours\n", d->label, method, k + 1, m.precision_at[k]);
      csv += fmt::format("{},{},mean_ndcg_with_relevant,{:.6f},ours\n{},{},map_with_relevant,{:.6f},ours\n", d->label,
                         method, row.with_relevant.mean_ndcg, d->label, method, row.with_relevant.map);
      out_rows.push_back({{"dataset", d->label}, {"method", method}, {"mean_ndcg", m.mean_ndcg},
                          {"mean_ndcg_fold_sd", row.fold_sd()}, {"map", m.map}, {"ndcg_at", m.ndcg_at},
                          {"precision_at", m.precision_at}, {"folds", m.queries},
                          {"with_relevant", row.with_relevant},
                          {"seconds", row.train_seconds + row.test_seconds}, {"selected", row.selected}});
    }
    if (!published_mean.empty())
      md += published_mean.contains(method) ? fmt::format(" {} |", number(published_mean[method].get<double>())) : " |";
    md += "\n";
  }
  md += "\n(± the standard deviation over folds.)\n\n";
  // The evaluation variant: only the queries that have a relevant document (LETOR's averages keep
  // the others, which score 0 whatever the ranking).
  md += "## Evaluation variant (not the LETOR convention): Mean NDCG and MAP over the test queries with at least one "
        "relevant document\n\n| method |";
  for (const auto& d : datasets_) {
    std::size_t kept = 0, total = 0;
    for (int fold : folds_)
      for (const auto& q : d->subsets[static_cast<std::size_t>(fold_parts(fold).test)]) {
        kept += has_relevant(q) ? 1 : 0;
        ++total;
      }
    md += fmt::format(" {} Mean NDCG ({} of {} test queries) | {} MAP |", d->label, kept, total, d->label);
  }
  md += fmt::format("\n|---|{}\n", fmt::join(std::vector<std::string>(2 * datasets_.size(), "---|"), ""));
  for (const auto& method : methods) {
    md += fmt::format("| {} |", method);
    for (const auto& d : datasets_) {
      const MethodRow& row = row_of(*d, method);
      md += row.ran() ? fmt::format(" {} | {} |", number(row.with_relevant.mean_ndcg), number(row.with_relevant.map))
                      : " - | - |";
    }
    md += "\n";
  }
  md += "\n";
  for (const auto& d : datasets_) {
    md += fmt::format("## NDCG@k on {} (Figure 8)\n\n| method |", d->label);
    for (std::size_t k = 1; k <= kMaxK; ++k) md += fmt::format(" @{} |", k);
    md += fmt::format(" MAP |\n|---|{}\n", fmt::join(std::vector<std::string>(kMaxK + 1, "---|"), ""));
    for (const auto& method : methods) {
      const RankingMetrics& m = row_of(*d, method).metrics;
      if (!row_of(*d, method).ran()) continue;
      md += fmt::format("| {} |", method);
      for (std::size_t k = 0; k < kMaxK; ++k) {
        md += fmt::format(" {} |", number(m.ndcg_at[k]));
        if (!off_figure.contains(method))
          figure += fmt::format("{},{},{},{:.6f},ours\n", d->label, method, k + 1, m.ndcg_at[k]);
      }
      md += fmt::format(" {} |\n", number(m.map));
    }
    md += "\n";
  }
  // Every published number beside ours on the data set it was measured on (when the spec runs it).
  ComparisonTable comparison({{"dataset", "dataset"}, {"method", "method"}, {"measure", "measure"}}, {},
                             tolerance_of(spec_, 0.01), 4);
  auto ours = [&](const std::string& method, auto value_of) -> std::optional<double> {
    for (const auto& d : datasets_)
      if (d->label == published_dataset && row_of(*d, method).ran()) return value_of(row_of(*d, method).metrics);
    return std::nullopt;
  };
  for (const auto& [method, value] : published_mean.items()) {
    comparison.add({published_dataset, method, "mean_ndcg"},
                   ours(method, [](const RankingMetrics& m) { return m.mean_ndcg; }), value.get<double>());
    csv += fmt::format("{},{},mean_ndcg,{:.6f},published\n", published_dataset, method, value.get<double>());
  }
  for (const auto& [method, values] : published_at.items())
    for (std::size_t k = 1; k <= kMaxK; ++k)
      if (values.contains(std::to_string(k))) {
        const double value = values[std::to_string(k)].get<double>();
        comparison.add({published_dataset, method, fmt::format("ndcg@{}", k)},
                       ours(method, [&](const RankingMetrics& m) { return m.ndcg_at[k - 1]; }), value);
        csv += fmt::format("{},{},ndcg@{},{:.6f},published\n", published_dataset, method, k, value);
        figure += fmt::format("{} (published),{},{},{:.6f},published\n", published_dataset, method, k, value);
      }
  if (!comparison.rows().empty())
    md += fmt::format("## Published numbers on {} ({}{})\n\n{}\n", published_dataset,
                      published_is_ours ? "" : "a different data set, not run here: nothing is compared; ",
                      published.value("source", std::string("see the spec")), comparison.markdown());
  out.tally = comparison.tally();

  // The claims of the thesis to check: MPG best in Mean NDCG, weaker than the best baseline at k = 1, 2.
  md += "## Ordering checks (the thesis' claims on MQ2007)\n\n";
  const std::string mpg = spec_["methods"].contains("MPG") ? "MPG" : methods.front();
  // Other MPG rows (other training protocols) are not baselines of the claim; each gets a line.
  std::vector<std::string> other_mpgs;
  for (const auto& [method, m] : spec_["methods"].items())
    if (method != mpg && m["kind"] == "mpg") {
      secondary.insert(method);
      other_mpgs.push_back(method);
    }
  for (const auto& d : datasets_) {
    const RankingMetrics& ours_m = row_of(*d, mpg).metrics;
    // The best baseline (not MPG, its other rules or a diagnostic) by value_of: {value, method}, {-1, ""} if none.
    auto best_baseline = [&](auto value_of) {
      std::pair<double, std::string> best{-1.0, ""};
      for (const auto& method : methods)
        if (method != mpg && !secondary.contains(method) && row_of(*d, method).ran() &&
            value_of(row_of(*d, method).metrics) > best.first)
          best = {value_of(row_of(*d, method).metrics), method};
      return best;
    };
    std::vector<std::pair<double, std::string>> order;
    for (const auto& method : methods)
      if (row_of(*d, method).ran()) order.push_back({row_of(*d, method).metrics.mean_ndcg, method});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string ranking;
    for (const auto& [v, method] : order) ranking += (ranking.empty() ? "" : " > ") + fmt::format("{} {}", method, number(v));
    const bool best = row_of(*d, mpg).ran() &&
                      best_baseline([](const RankingMetrics& m) { return m.mean_ndcg; }).first <= ours_m.mean_ndcg;
    md += fmt::format("- {}: Mean NDCG order {}. {} best in Mean NDCG: **{}**.", d->label, ranking, mpg, best ? "yes" : "no");
    // Is the gap to the best baseline larger than the noise of the test queries? A paired bootstrap
    // over every fold's test queries (each query once), per-query Mean NDCG.
    if (row_of(*d, mpg).ran()) {
      const auto [value, baseline] = best_baseline([](const RankingMetrics& m) { return m.mean_ndcg; });
      if (value >= 0.0) {
        const auto units = [&](const std::string& m) {
          return stats::per_unit("query", stats::UnitMeasure::mean, row_of(*d, m).query_mean_ndcg);
        };
        if (const auto e = paired_evidence(units(mpg), units(baseline), 100.0))
          md += fmt::format(" Paired bootstrap over the {} test queries ({} − {}, per-query Mean NDCG in points, 95 % "
                            "interval): {}.",
                            row_of(*d, mpg).query_mean_ndcg.size(), mpg, baseline, e->text);
      }
    }
    if (row_of(*d, mpg).ran()) {
      for (std::size_t k : {std::size_t{1}, std::size_t{2}}) {
        const auto [value, name] = best_baseline([&](const RankingMetrics& m) { return m.ndcg_at[k - 1]; });
        if (value >= 0.0)
          md += fmt::format(" NDCG@{}: {} {} vs best baseline {} {} ({}).", k, mpg, number(ours_m.ndcg_at[k - 1]), name,
                            number(value), ours_m.ndcg_at[k - 1] < value ? "weaker, as the thesis reports" : "not weaker");
      }
      if (!best) out.tally.outside.push_back(fmt::format("{}: {} is not best in Mean NDCG ({})", d->label, mpg, ranking));
    }
    md += "\n";
    for (const auto& other : other_mpgs) {
      if (!row_of(*d, other).ran()) continue;
      const auto [value, name] = best_baseline([](const RankingMetrics& m) { return m.mean_ndcg; });
      const double v = row_of(*d, other).metrics.mean_ndcg;
      md += fmt::format("  - {} (another training of the same model; not counted): Mean NDCG {} vs best baseline {} {}: "
                        "best **{}**.\n", other, number(v), name, number(value), value <= v ? "yes" : "no");
    }
  }
  md += "\n## Selected hyper-parameters and times\n\n| data set | method | selected on validation | training + validation, "
        "all grid points and folds (s) | test (s) |\n|---|---|---|---|---|\n";
  std::string notes;
  for (const auto& d : datasets_)
    for (const auto& method : methods) {
      const MethodRow& row = row_of(*d, method);
      if (row.selected.empty()) continue;  // a second decision rule: MPG's row has its times
      md += fmt::format("| {} | {} | {} | {:.1f} | {:.2f} |\n", d->label, method, fmt::join(row.selected, "; "),
                        row.train_seconds, row.test_seconds);
      if (row.unconverged_trainings > 0)
        notes += fmt::format("- {} {}: {} of its trainings stopped before the optimizer's tolerance (iteration or time "
                             "cap).\n", d->label, method, row.unconverged_trainings);
      if (row.game_seconds.empty()) continue;
      const auto longest = static_cast<std::size_t>(
          std::max_element(row.game_seconds.begin(), row.game_seconds.end()) - row.game_seconds.begin());
      notes += fmt::format("- {} {} test games (one per query, {} queries): median {:.4f} s, max {:.4f} s (a query of "
                           "{} documents); {} not converged (time cap).\n",
                           d->label, method, row.game_seconds.size(), median(row.game_seconds),
                           row.game_seconds[longest], row.game_documents[longest], row.unconverged_games);
    }
  md += "\n## Data\n\n";
  for (const auto& d : datasets_) {
    std::size_t queries = 0, documents = 0;
    for (const auto& s : d->subsets) {
      queries += s.size();
      for (const auto& q : s) documents += q.relevance.size();
    }
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}); {} queries, {} documents, {} features, relevance 0..{}.",
                      d->label, d->choice.dataset, d->choice.variant, d->choice.fidelity(), queries, documents,
                      d->features, d->levels - 1);
    for (const auto& f : d->files) md += fmt::format(" `{}` sha256 `{}`;", f.name, f.sha256.substr(0, 16));
    md += "\n";
  }
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);
  md += notes;
  out.csv = csv;
  out.extra_files = {{".figure8.csv", figure}};
  out.fields = {{"discount", to_string(scoring_.discount)}, {"ndcg_past_end", to_string(scoring_.past_end)},
                {"folds", folds_},         {"selection", selection_},
                {"rows", out_rows},                  {"published", published}, {"comparison", comparison.rows_json()}};
  return out;
}

}  // namespace mpg::harness::ranking_impl
