// The chess family's tables (lib/harness/families/chess.cpp has its methods, cells and spec keys).
#include "lib/harness/families/chess.hpp"

namespace mpg::harness::chess_impl {

// ---- Tables ------------------------------------------------------------------------------------

std::string with_interval(double value, const stats::Interval& i) {
  if (std::isnan(value)) return "-";
  if (std::isnan(i.low)) return fmt::format("{:.3f}", value);
  return fmt::format("{:.3f} ({:.2f}–{:.2f})", value, i.low, i.high);
}

// One protocol's numbers: per model and year the test AUC and its interval over the year's test
// matches, and per model the median over the years with its interval (every year's test matches
// resampled, the median retaken: the test-set noise of the median, not the spread of the years).
struct ProtocolResults {
  std::vector<std::vector<double>> auc;                  // [model][year]
  std::vector<std::vector<stats::Interval>> interval;    // [model][year]
  std::vector<double> median;                            // [model]
  std::vector<stats::Interval> median_interval;          // [model]
  std::vector<stats::PairStratum> strata;                // the scored years
  std::vector<std::vector<double>> resamples;            // of the medians: [resample][model]
  std::vector<std::size_t> counted;                      // years with a value, per model
  double draws_before = 0, draws_after = 0;              // draw shares (see tables())
};

Tables ChessRun::tables(const Outcome& outcome) const {
  Tables out;
  std::vector<std::string> methods;
  for (const auto& [method, m] : spec_["methods"].items()) methods.push_back(method);
  std::vector<std::string> models = methods;
  for (const char* b : kBaselines) models.push_back(b);
  auto model_index = [&](const std::string& m) {
    return static_cast<std::size_t>(std::find(models.begin(), models.end(), m) - models.begin());
  };
  std::map<std::pair<std::size_t, std::size_t>, std::map<std::string, const json*>> cell_of;  // (protocol, year) -> method
  std::string failures;
  double seconds = 0.0;
  int unusable = 0, unconverged = 0, fits = 0, skipped_splits = 0;
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const json& v = outcome.validation[i];
    seconds += v["seconds"].get<double>();
    unusable += v["unusable_fits"].get<int>();
    unconverged += v["unconverged_fits"].get<int>();
    fits += v["fits"].get<int>();
    skipped_splits += v.value("skipped_splits", 0);
    cell_of[{cells_[i].protocol, cells_[i].year}][cells_[i].method] = &v;
    const ChessYear& year = years_[cells_[i].protocol][cells_[i].year];
    if (!v["test_auc"].is_null() &&
        (!v.contains("test_differences") || v["test_differences"].size() != year.test.size()))
      throw Error(fmt::format("chess cell '{}': its cached result has no per-pair test differences for the {} test pairs "
                              "(written before intervals): delete it from the cache (or pass a fresh --cache) to recompute it",
                              plans_[i].description.substr(0, plans_[i].description.find_last_not_of(' ') + 1),
                              year.test.size()));
    if (v["test_auc"].is_null())
      failures += fmt::format("- {}: {}.\n", plans_[i].description, v["status"].get<std::string>());
  }

  std::vector<ProtocolResults> results(protocols_.size());
  for (std::size_t p = 0; p < protocols_.size(); ++p) {
    ProtocolResults& r = results[p];
    const auto& years = years_[p];
    r.auc.assign(models.size(), std::vector<double>(years.size(), kNaN));
    r.interval.assign(models.size(), std::vector<stats::Interval>(years.size(), {kNaN, kNaN}));
    std::vector<double> draw_share;
    std::size_t before = 0, before_draws = 0;
    for (std::size_t y = 0; y < years.size(); ++y) {
      const ChessYear& year = years[y];
      const std::size_t pairs = year.train.size() + year.test.size();
      if (pairs) draw_share.push_back(static_cast<double>(year.train.count(0) + year.test.count(0)) / static_cast<double>(pairs));
      before += year.games_before_filter;
      before_draws += year.draws_before_filter;
      if (!both_kinds(year.test)) continue;  // no AUC on this year's test set
      stats::PairStratum stratum{year.test.labels, {}};
      for (const auto& m : models) {
        std::optional<stats::PairSeries> series;
        if (m == "ELO") series = stats::PairSeries{stats::PairMeasure::auc, year.test_elo};
        else if (m == "Glicko") series = stats::PairSeries{stats::PairMeasure::auc, year.test_glicko};
        else if (m == "Baseline") series = stats::PairSeries{stats::PairMeasure::trivial_auc, {}};
        else if (const json* v = cell_of[{p, y}][m]; v && !(*v)["test_auc"].is_null())
          series = stats::PairSeries{stats::PairMeasure::auc, (*v)["test_differences"].get<std::vector<double>>()};
        stratum.series.push_back(std::move(series));
      }
      const auto point = stats::aggregate_pairs({stratum}, stats::Aggregate::mean);
      const auto resampled = stats::pair_resamples({stratum}, stats::Aggregate::mean);
      for (std::size_t k = 0; k < models.size(); ++k) {
        r.auc[k][y] = point[k];
        if (!std::isnan(point[k])) r.interval[k][y] = stats::pair_interval(resampled, k);
      }
      r.strata.push_back(std::move(stratum));
    }
    r.draws_before = before ? static_cast<double>(before_draws) / static_cast<double>(before) : kNaN;
    r.draws_after = draw_share.empty() ? kNaN : median(draw_share);
    r.median = stats::aggregate_pairs(r.strata, stats::Aggregate::median);
    if (!r.strata.empty()) r.resamples = stats::pair_resamples(r.strata, stats::Aggregate::median);
    for (std::size_t k = 0; k < models.size(); ++k) {
      r.median_interval.push_back(r.resamples.empty() ? stats::Interval{kNaN, kNaN} : stats::pair_interval(r.resamples, k));
      std::size_t n = 0;
      for (double v : r.auc[k]) n += !std::isnan(v);
      r.counted.push_back(n);
    }
  }

  const json published = published_of(spec_);
  const json published_rows = published.value("rows", json::object());
  const auto columns = published.value("columns", std::vector<std::string>{});
  std::map<std::string, std::vector<double>> theirs;
  for (const auto& [set, values] : published_rows.items())
    for (std::size_t c = 0; c < columns.size() && c < values.size(); ++c) theirs[columns[c]].push_back(values[c].get<double>());

  std::string md = fmt::format(
      "**Substitute data**: the Kaggle 2010 'Elo vs the Rest of the World' games (registry `{}`, {}), not the paper's "
      "Chessmetrics games; years are 12-month blocks of its 100 anonymous months, so our 'year' k is not the paper's "
      "set k. Test AUC of the comparison ROC (Table 3: an inversion is not a true positive), per year, with its 95 % "
      "bootstrap interval over the year's test matches (1,000 resamples); the published values are the authors' "
      "plotted ones (digest B.9 [C]), on other data.\n\n## Protocols\n\n",
      choice_.dataset, choice_.fidelity());
  const json draws = published.value("draw_shares", json::object());
  const std::string theirs_draws =
      draws.contains("before_filter") && draws.contains("median_after_filter")
          ? fmt::format(" (the paper: {:.1f} % and {:.1f} %)", 100 * draws["before_filter"].get<double>(),
                        100 * draws["median_after_filter"].get<double>())
          : std::string();
  for (std::size_t p = 0; p < protocols_.size(); ++p)
    md += fmt::format("- **{}**{}: {}. Draws: {:.1f} % of the years' games before filtering, median {:.1f} % of a year's "
                      "kept pairs (train and test) after{}.\n",
                      protocols_[p].label, p == 0 ? " (the paper's protocol, counted)" : " (variant)", protocols_[p].description,
                      100 * results[p].draws_before, 100 * results[p].draws_after, theirs_draws);
  for (std::size_t p = 0; p < protocols_.size(); ++p) {
    const ProtocolResults& r = results[p];
    md += fmt::format("\n## Test AUC per year, {} (95 % interval over the year's test matches)\n\n| year | train / test pairs "
                      "| players kept | draws (kept pairs) |",
                      protocols_[p].label);
    for (const auto& m : models) md += fmt::format(" {} |", m);
    md += fmt::format("\n|---|---|---|---|{}\n", fmt::join(std::vector<std::string>(models.size(), "---|"), ""));
    for (std::size_t y = 0; y < years_[p].size(); ++y) {
      const ChessYear& year = years_[p][y];
      const std::size_t pairs = year.train.size() + year.test.size();
      md += fmt::format("| {} | {} / {} | {} | {} |", year.year, year.train.size(), year.test.size(), year.kept_players,
                        pairs ? fmt::format("{:.3f}", static_cast<double>(year.train.count(0) + year.test.count(0)) /
                                                          static_cast<double>(pairs))
                              : std::string("-"));
      for (std::size_t k = 0; k < models.size(); ++k) md += fmt::format(" {} |", with_interval(r.auc[k][y], r.interval[k][y]));
      md += "\n";
    }
  }

  // Medians over the years, ours vs the authors' (different data: a tolerance, not a match).
  ComparisonTable table({{"model", "model"}, {"protocol", "protocol"}}, {{"years", "years (ours)", 0}}, tolerance_of(spec_, 0.03), 3);
  for (std::size_t p = 0; p < protocols_.size(); ++p)
    for (std::size_t k = 0; k < models.size(); ++k) {
      const std::string& m = models[k];
      std::optional<double> theirs_median;
      if (theirs.count(m)) theirs_median = median(theirs[m]);
      auto& row = table.add({m, protocols_[p].label}, std::isnan(results[p].median[k]) ? std::optional<double>() : results[p].median[k],
                            theirs_median);
      row.extra = {{"years", std::to_string(results[p].counted[k])}};
      if (!std::isnan(results[p].median_interval[k].low)) {
        row.interval = results[p].median_interval[k];
        row.interval_unit = "test game";
      }
      row.standing = standing_of({.papers_data = choice_.exact(), .papers_method = true, .counted_protocol = p == 0});
      if (!choice_.exact()) row.causes.push_back("substitute data (Kaggle 2010 games, not Chessmetrics)");
      if (p > 0) row.causes.push_back("protocol variant: " + protocols_[p].label);
      if (choice_.exact() && p == 0 && (m == "ELO" || m == "Glicko")) row.standing = Standing::no_learning;
    }
  md += "\n## Median test AUC over the years: ours vs the authors' plotted values\n\nThe interval of a median: every year's "
        "test matches resampled (1,000 times), each year's AUC and the median over the years recomputed; it is the noise "
        "of the test sets, not the spread of the years.\n\n" +
        table.markdown();
  out.tally = table.tally();

  // The paper's claims, on the medians of the paper's protocol. An ordering "A above B" holds when
  // A's median is above B's; its margin (A − B) is given with a paired 95 % interval over the test
  // matches (both medians from the same resampled matches) and whether it excludes 0.
  Claims claims;
  const ProtocolResults& main = results.front();
  auto present = [&](const std::string& m) {
    const std::size_t k = model_index(m);
    return k < models.size() && !std::isnan(main.median[k]);
  };
  auto ordering = [&](const std::string& text, const std::vector<std::pair<std::string, std::string>>& above) {
    bool holds = true;
    std::vector<std::string> parts;
    json margins = json::array();
    for (const auto& [a, b] : above) {
      if (!present(a) || !present(b)) return;
      const auto d = stats::paired_pair_comparison(main.strata, stats::Aggregate::median, main.resamples, model_index(a), model_index(b));
      holds = holds && d.difference > 0;
      parts.push_back(fmt::format("{} {:.3f} − {} {:.3f} = {:+.3f} [{:+.3f}, {:+.3f}] {}", a, main.median[model_index(a)], b,
                                  main.median[model_index(b)], d.difference, d.interval.low, d.interval.high,
                                  d.significant() ? "significant" : "not significant"));
      margins.push_back({{"above", a}, {"below", b}, {"margin", d.difference}, {"interval", {d.interval.low, d.interval.high}},
                         {"significant", d.significant()}, {"p_value", d.p_value}});
    }
    claims.add(text, holds,
               fmt::format("medians, margin [paired 95 % interval over the test matches], 5 % level: {}", fmt::join(parts, "; ")),
               {{"margins", margins}})
        .standing = choice_.exact() ? Standing::exact : Standing::substitute;
  };
  ordering("linear and polynomial SVMs (16 features) have a higher test AUC than ELO and Glicko",
           {{"Lin-16", "ELO"}, {"Lin-16", "Glicko"}, {"Poly-16", "ELO"}, {"Poly-16", "Glicko"}});
  ordering("Lin-2 (Elo and Glicko features only) is worse than Lin-16", {{"Lin-16", "Lin-2"}});
  ordering("Poly-2 (Elo and Glicko features only) is worse than Poly-16", {{"Poly-16", "Poly-2"}});
  ordering("the Gaussian kernel is below linear and polynomial", {{"Lin-16", "Gauss-16"}, {"Poly-16", "Gauss-16"}});
  // "2-feature SVMs ... sit roughly at the median between ELO and Glicko" (Fig. 6 text): each
  // 2-feature model's median lies between the two ratings' medians (both margins > 0).
  for (const std::string model : {"Lin-2", "Poly-2"}) {
    if (!present(model) || !present("ELO") || !present("Glicko")) continue;
    const bool elo_higher = main.median[model_index("ELO")] >= main.median[model_index("Glicko")];
    const std::string high = elo_higher ? "ELO" : "Glicko", low = elo_higher ? "Glicko" : "ELO";
    ordering(model + " (Elo and Glicko features only) lies between ELO and Glicko", {{high, model}, {model, low}});
  }
  md += "\n## The paper's claims (on the medians of the paper's protocol)\n\nAn ordering holds when the medians are in "
        "order; each margin carries a paired bootstrap interval over the test matches, and \"significant\" when it excludes "
        "0.\n\n" +
        claims.markdown();

  md += "\n## Selected hyper-parameters\n\n| protocol | year | method | C | kernel parameter | mean validation AUC |\n|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const json& s = outcome.validation[i]["selected"];
    if (s.is_null()) continue;
    md += fmt::format("| {} | {} | {} | {:g} | {:g} | {:.4f} |\n", protocols_[cells_[i].protocol].label,
                      years_[cells_[i].protocol][cells_[i].year].year, cells_[i].method, s["C"].get<double>(),
                      s["parameter"].get<double>(), s["validation_auc"].get<double>());
  }
  md += fmt::format("\n{} libsvm fits in {:.0f} s (sum over cells); {} had a nonnegative bias (skipped, Lemma 3.1); {} "
                    "stopped at libsvm's iteration cap; {} validation splits lacked draws or decisive games (skipped).\n",
                    fits, seconds, unusable, unconverged, skipped_splits);
  if (!failures.empty()) md += "\nCells without a test AUC:\n\n" + failures;
  md += fmt::format("\n## Data\n\n- `{}` sha256 `{}`; years are 0-based 12-month blocks of its months.\n", file_.name,
                    file_.sha256.substr(0, 16));
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);

  // Figure 6 (the paper's protocol): boxplots of the test AUC over the years per model, ours and the
  // authors' (wide CSVs: a row per year, a column per model; an empty field where a year has none).
  std::string figure = "year";
  for (const auto& m : models) figure += "," + m;
  figure += "\n";
  for (std::size_t y = 0; y < years_.front().size(); ++y) {
    figure += std::to_string(years_.front()[y].year);
    for (std::size_t k = 0; k < models.size(); ++k)
      figure += std::isnan(main.auc[k][y]) ? std::string(",") : fmt::format(",{:.6f}", main.auc[k][y]);
    figure += "\n";
  }
  std::string figure_published = "set," + fmt::format("{}", fmt::join(columns, ",")) + "\n";
  for (const auto& [set, values] : published_rows.items()) {
    figure_published += set;
    for (const auto& x : values) figure_published += fmt::format(",{:.6f}", x.get<double>());
    figure_published += "\n";
  }
  std::string gp =
      "# Generated by mpg run (lib/harness/families/chess.cpp); run from results/ (./run_all.sh does).\n"
      "stem = ARG0[1:strstrt(ARG0, '.figure6.gp') - 1]\n"
      "set datafile separator ','\nset terminal pngcairo size 1200,480 font ',10'\nset output stem.'.figure6.png'\n"
      "set style fill solid 0.25 border -1\nset style boxplot nooutliers\nset boxwidth 0.5\n"
      "set grid ytics\nunset key\nset ylabel 'test AUC'\nset yrange [0.0:0.6]\nset xtics rotate by -30\n"
      "set multiplot layout 1,2 title 'SVMcompare Fig. 6: chess test AUC over the years (boxplots; our years as dots)'\n";
  std::string xtics;
  for (std::size_t i = 0; i < models.size(); ++i) xtics += fmt::format("{}'{}' {}", i ? ", " : "", models[i], i + 1);
  gp += fmt::format("set xtics ({})\nset xrange [0.5:{}.5]\n", xtics, models.size());
  gp += "set title \"ours (Kaggle 2010 games, a substitute; the paper's protocol)\"\nplot ";
  for (std::size_t i = 0; i < models.size(); ++i)
    gp += fmt::format("{0}stem.'.figure6.csv' using ({1}):{2} skip 1 with boxplot lt {3}, stem.'.figure6.csv' using ({1}):{2} "
                      "skip 1 with points pt 7 ps 0.6 lc rgb '#555555'",
                      i ? ", " : "", i + 1, i + 2, i + 1);
  gp += "\nset title \"the authors' plotted values (Chessmetrics)\"\nplot ";
  bool first = true;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const auto at = std::find(columns.begin(), columns.end(), models[i]);
    if (at == columns.end()) continue;
    gp += fmt::format("{}stem.'.figure6_published.csv' using ({}):{} skip 1 with boxplot lt {}", first ? "" : ", ", i + 1,
                      at - columns.begin() + 2, i + 1);
    first = false;
  }
  if (first) gp += "NaN notitle";
  gp += "\nunset multiplot\n";
  out.extra_files = {{".figure6.csv", figure}, {".figure6_published.csv", figure_published}, {".figure6.gp", gp}};
  out.markdown = md;
  out.csv = table.csv();
  json per_year = json::array(), protocols = json::array();
  for (std::size_t p = 0; p < protocols_.size(); ++p) {
    protocols.push_back({{"label", protocols_[p].label}, {"description", protocols_[p].description},
                         {"draws_before_filter", results[p].draws_before}, {"median_draws_after_filter", results[p].draws_after},
                         {"pairs", [&] {
                            json a = json::array();
                            for (const auto& y : years_[p]) a.push_back({{"year", y.year}, {"train", y.train.size()}, {"test", y.test.size()}});
                            return a;
                          }()}});
    for (std::size_t k = 0; k < models.size(); ++k)
      for (std::size_t y = 0; y < years_[p].size(); ++y) {
        const double v = results[p].auc[k][y];
        json row = {{"model", models[k]}, {"protocol", protocols_[p].label}, {"year", std::to_string(years_[p][y].year)},
                    {"auc", std::isnan(v) ? json(nullptr) : json(v)}};
        if (!std::isnan(results[p].interval[k][y].low))
          row["interval"] = {results[p].interval[k][y].low, results[p].interval[k][y].high};
        per_year.push_back(std::move(row));
      }
  }
  out.fields = {{"comparison", table.rows_json()}, {"per_year", per_year}, {"protocols", protocols},
                {"claims", claims.to_json()}, {"published", published}};
  return out;
}

}  // namespace mpg::harness::chess_impl
