// The diversity family's tables (lib/harness/families/diversity.cpp has its methods, cells and spec keys).
#include "lib/harness/families/diversity.hpp"

namespace mpg::harness::diversity_impl {

std::optional<double> mean_value(const Values& values, const At& at, const std::string& label, const std::string& measure) {
  const auto s = values.find(at.similarity);
  if (s == values.end()) return std::nullopt;
  const auto p = s->second.find(at.population);
  if (p == s->second.end()) return std::nullopt;
  const auto k = p->second.find(at.k);
  if (k == p->second.end()) return std::nullopt;
  const auto l = k->second.find(label);
  if (l == k->second.end()) return std::nullopt;
  const auto m = l->second.find(measure);
  if (m == l->second.end() || m->second.empty()) return std::nullopt;
  double sum = 0.0;
  for (double v : m->second) sum += v;
  return sum / static_cast<double>(m->second.size());
}

namespace {

// A measure of one repetition's drawn users: positions[j] is the j-th unit of the stratum.
double measure_on_draw(const UserUnits& u, const std::string& measure, const std::vector<std::size_t>& positions,
                       const std::vector<long>& weights, std::size_t catalog_size, std::vector<char>& mark) {
  const auto weighted_ratio = [&](const std::vector<double>& num, const std::vector<double>* den) {
    double a = 0, b = 0;
    for (std::size_t j = 0; j < positions.size(); ++j) {
      const auto w = static_cast<double>(weights[j]);
      a += w * num[positions[j]];
      b += w * (den ? (*den)[positions[j]] : 1.0);
    }
    return b > 0 ? a / b : 0.0;
  };
  if (measure == "genre_coverage") return weighted_ratio(u.genre_coverage, &u.has_genres);
  if (measure == "intra_list_distance") return weighted_ratio(u.intra_list_distance, nullptr);
  if (measure == "dcg") return weighted_ratio(u.dcg, nullptr);
  if (measure == "precision") return weighted_ratio(u.precision, nullptr);
  if (measure == "stratified_recall") return weighted_ratio(u.recall_hit, &u.recall_all);
  // catalog_coverage: |∪ of the drawn users' hits| / |X|.
  mark.assign(catalog_size, 0);
  long distinct = 0;
  for (std::size_t j = 0; j < positions.size(); ++j)
    if (weights[j] > 0)
      for (int item : u.hits[positions[j]])
        if (item >= 0 && static_cast<std::size_t>(item) < catalog_size && !mark[static_cast<std::size_t>(item)]) {
          mark[static_cast<std::size_t>(item)] = 1;
          ++distinct;
        }
  return catalog_size > 0 ? static_cast<double>(distinct) / static_cast<double>(catalog_size) : 0.0;
}

}  // namespace

std::vector<stats::Interval> user_intervals(const Units& units, std::size_t catalog_size,
                                            const std::vector<IntervalRequest>& requests) {
  std::vector<stats::Interval> out(requests.size());
  // Requests of one (similarity, population) share their strata and so their resamples.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < requests.size(); ++i)
    groups[{requests[i].at.similarity, requests[i].at.population}].push_back(i);
  for (const auto& [group, members] : groups) {
    const auto& [similarity, population] = group;
    const auto by_rep = units.find(similarity);
    if (by_rep == units.end()) throw Error("diversity tables: no per-user statistics for similarity " + similarity);
    // A stratum per repetition: its users (of the population) in user-id order.
    std::vector<int> repetitions;
    std::vector<std::vector<int>> stratum_users;
    std::vector<long> sizes;
    for (const auto& [r, by_label] : by_rep->second) {
      const UserUnits& any = by_label.begin()->second.begin()->second;
      std::vector<int> who;
      for (std::size_t a = 0; a < any.users.size(); ++a)
        if (population == "all" || any.eclectic[a]) who.push_back(any.users[a]);
      std::sort(who.begin(), who.end());
      if (who.empty()) throw Error(fmt::format("diversity tables: repetition {} has no {} users", r, population));
      repetitions.push_back(r);
      sizes.push_back(static_cast<long>(who.size()));
      stratum_users.push_back(std::move(who));
    }
    // Per cell: the positions of the strata's users in it (shared by the cell's measures).
    std::map<const UserUnits*, std::vector<std::size_t>> positions_of;
    std::vector<stats::ResampledStatistic> statistics;
    std::vector<bool> centred;  // Catalog Coverage: a union over users, biased by resampling
    for (std::size_t i : members) {
      const IntervalRequest& q = requests[i];
      // Per stratum: the cell's units and the positions of the stratum's users in them.
      std::vector<const UserUnits*> cells;
      std::vector<const std::vector<std::size_t>*> positions;
      for (std::size_t s = 0; s < repetitions.size(); ++s) {
        const auto& by_label = by_rep->second.at(repetitions[s]);
        const auto l = by_label.find(q.label);
        const auto k = l == by_label.end() ? l->second.end() : l->second.find(q.at.k);
        if (l == by_label.end() || k == l->second.end())
          throw Error(fmt::format("diversity tables: no per-user statistics for {} at k = {} in repetition {}", q.label,
                                  q.at.k, repetitions[s]));
        const UserUnits& u = k->second;
        const auto [found, fresh] = positions_of.try_emplace(&u);
        if (fresh) {
          std::map<int, std::size_t> where;
          for (std::size_t a = 0; a < u.users.size(); ++a) where[u.users[a]] = a;
          for (int user : stratum_users[s]) {
            const auto w = where.find(user);
            if (w == where.end())
              throw Error(fmt::format("diversity tables: {} has no list for user {} in repetition {}", q.label, user,
                                      repetitions[s]));
            found->second.push_back(w->second);
          }
        }
        cells.push_back(&u);
        positions.push_back(&found->second);
      }
      centred.push_back(q.measure == "catalog_coverage");
      statistics.push_back([cells, positions, measure = q.measure, catalog_size](const std::vector<std::vector<long>>& w) {
        std::vector<char> mark;
        double total = 0;
        for (std::size_t s = 0; s < cells.size(); ++s)
          total += measure_on_draw(*cells[s], measure, *positions[s], w[s], catalog_size, mark);
        return total / static_cast<double>(cells.size());
      });
      // The units must give back the table's value (the mean over the repetitions).
      std::vector<std::vector<long>> ones;
      for (long n : sizes) ones.emplace_back(static_cast<std::size_t>(n), 1L);
      const double back = statistics.back()(ones);
      if (std::abs(back - q.value) > 1e-9 * std::max(1.0, std::abs(q.value)))
        throw Error(fmt::format("diversity tables: the per-user statistics of {} {} (k = {}, {} users) give {} where "
                                "the cell's value is {}",
                                q.label, q.measure, q.at.k, population, back, q.value));
    }
    const std::vector<stats::Interval> intervals = stats::stratified_bootstrap_intervals(sizes, statistics, {}, centred);
    for (std::size_t j = 0; j < members.size(); ++j) out[members[j]] = intervals[j];
  }
  return out;
}

std::vector<PublishedTable> published_tables(const json& spec) {
  std::vector<PublishedTable> out;
  const json tables = spec.value("published", json::object()).value("tables", json::object());
  for (const auto& [id, t] : tables.items()) {
    PublishedTable p;
    p.id = id;
    p.at = {t.value("similarity", std::string("cosine")), t["users"].get<std::string>(), t["k"].get<std::size_t>()};
    p.columns = t["columns"].get<std::vector<std::string>>();
    for (const auto& [measure, values] : t["rows"].items()) p.rows[measure] = values.get<std::vector<double>>();
    p.errata = t.value("errata", std::vector<std::string>{});
    out.push_back(std::move(p));
  }
  // In the thesis's order ("3.1+3.2" before "3.11+3.12"), not the object's alphabetical one.
  const auto number = [](const std::string& id) { return std::stoi(id.substr(id.find('.') + 1)); };
  std::stable_sort(out.begin(), out.end(),
                   [&](const PublishedTable& x, const PublishedTable& y) { return number(x.id) < number(y.id); });
  return out;
}

std::string argmax_label(const std::vector<std::string>& labels, const std::vector<double>& values) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i)
    if (values[i] > values[best]) best = i;
  return labels[best];
}

// "---|" n times: the rest of a Markdown rule line.
std::string rule(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += "---|";
  return out;
}

std::string ranks_text(const std::vector<double>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size(); ++i) out += fmt::format("{}{:.1f}", i ? ", " : "", ranks[i]);
  return out;
}

std::string format_p(double p) { return p < 0.001 ? fmt::format("{:.1e}", p) : fmt::format("{:.4f}", p); }

Tables DiversityRun::tables(const Outcome& outcome) const {
  Values values;
  Units units;
  std::size_t catalog_size = 0;
  std::map<std::string, std::map<std::string, double>> cpu;  // similarity -> label -> summed cell seconds
  std::map<std::string, std::vector<double>> user_median, user_max;  // "similarity label" -> per run
  std::map<std::string, int> not_converged;
  json split_info = json::object();
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const json& v = outcome.validation[i];
    const Cell& c = cells_[i];
    const std::string& label = plans_[i].method;
    for (const auto& [population, by_k] : v["scores"].items())
      for (const auto& [k, s] : by_k.items())
        for (const auto& [measure, _] : kMeasures)
          values[c.similarity][population][std::stoul(k)][label][measure].push_back(s[measure].get<double>());
    for (const auto& run : v["runs"]) {
      cpu[c.similarity][label] += run["seconds"].get<double>();
      user_median[c.similarity + " " + label].push_back(run["median_user_seconds"].get<double>());
      user_max[c.similarity + " " + label].push_back(run["max_user_seconds"].get<double>());
      if (run.contains("relaxation")) not_converged[c.similarity + " " + label] += run["relaxation"]["not_converged"].get<int>();
    }
    split_info[c.similarity][std::to_string(c.repetition)] = v["split"];
    if (!v.contains("units") || !v.contains("catalog_size"))
      throw Error(fmt::format("diversity cell '{}': its cached result has no per-user statistics; it must be "
                              "recomputed", plans_[i].description));
    for (const auto& [k, u] : v["units"].items())
      units[c.similarity][c.repetition][label][std::stoul(k)] =
          user_units_from_json(u, fmt::format("diversity cell '{}' k = {}", plans_[i].description, k));
    catalog_size = v["catalog_size"].get<std::size_t>();
  }
  const Lookup ours = [&](const At& at, const std::string& label, const std::string& measure) {
    return mean_value(values, at, label, measure);
  };
  const std::vector<PublishedTable> published = published_tables(spec_);
  const Lookup theirs = [&](const At& at, const std::string& label, const std::string& measure) -> std::optional<double> {
    for (const auto& t : published)
      if (t.at.similarity == at.similarity && t.at.population == at.population && t.at.k == at.k && t.rows.count(measure)) {
        const auto col = std::find(t.columns.begin(), t.columns.end(), label);
        if (col == t.columns.end()) return std::nullopt;
        return t.rows.at(measure)[static_cast<std::size_t>(col - t.columns.begin())] / 100.0;
      }
    return std::nullopt;
  };
  std::vector<std::string> labels;
  for (const auto& [label, m] : spec_["methods"].items()) labels.push_back(label);
  // Method columns in the thesis's order, then the others (e.g. MSD with the printed sign).
  std::vector<std::string> shown;
  for (const auto& l : kPublishedColumns)
    if (spec_["methods"].contains(l)) shown.push_back(l);
  for (const auto& l : labels)
    if (std::find(shown.begin(), shown.end(), l) == shown.end()) shown.push_back(l);

  const double tolerance = tolerance_of(spec_, 0.02);
  const double alpha = protocol_.number("alpha");
  const int repetitions = static_cast<int>(protocol_.integer("repetitions"));
  Tables out;
  Tally& tally = out.tally;
  std::string& md = out.markdown;
  const json& split0 = split_info["cosine"]["0"];
  md += fmt::format(
      "**Data: {}**\n\n{} repetition(s) of a random {} % hold-out ({}; seeds {}..{}), relevant = rating >= 4, W = cosine "
      "of the training rating columns{}; the evaluated users are the test users with >= 1 relevant test rating ({} in "
      "repetition 0) and, for the eclectic tables, the {} eclectic users among them ({} on all ratings: >= {} relevant "
      "ratings and mean similarity between rated items < {}). Values x 100, means over the repetitions; the 95 % interval of a compared value is the bootstrap over users "
      "(1,000 resamples; each repetition's evaluated users redrawn within it, the measure recomputed, the "
      "repetitions averaged).\n\n",
      data_note(data_name_, choice_.exact()), repetitions, 100.0 * protocol_.number("test_fraction"),
      protocol_.flag("per_user") ? "per user" : "over all ratings, as the thesis", protocol_.integer("seed"),
      protocol_.integer("seed") + repetitions - 1,
      als_ ? fmt::format(" (Tables 3.21–3.22: cosine of rank-{} weighted-ALS item factors, λ = {})", als_->integer("rank"),
                         als_->number("lambda"))
           : "",
      split0.value("test_users", 0), split0.value("eclectic_test_users", 0), eclectic_users_.size(),
      eclectic_options_.integer("min_relevant"), eclectic_options_.number("max_mean_similarity"));

  const std::size_t summary_at = md.size();  // the summary of the comparison goes here, once known
  // The claims first: they are what the thesis's chapter argues.
  const std::vector<std::string> wanted = spec_.value("claims", std::vector<std::string>{});
  md += "## The thesis's claims (§3.11) checked on our numbers and on its own\n\n"
        "| claim | rule | ours | holds (ours) | holds (published numbers) |\n|---|---|---|---|---|\n";
  Claims claims;
  for (const ClaimRule& claim : claim_rules()) {
    if (std::find(wanted.begin(), wanted.end(), claim.id) == wanted.end()) continue;
    std::string detail, published_detail;
    const auto on_ours = claim.check(ours, detail);
    const auto on_published = claim.check(theirs, published_detail);
    auto verdict = [](const std::optional<bool>& r) { return r ? (*r ? "yes" : "**no**") : "n/a"; };
    md += fmt::format("| `{}` | {} | {} | {} | {} |\n", claim.id, claim.rule, on_ours ? detail : "(not run)",
                      verdict(on_ours), verdict(on_published));
    claims.add(claim.id, on_ours, detail,
               {{"rule", claim.rule}, {"holds_on_published", on_published ? json(*on_published) : json()}});
  }
  claims.count(tally);
  int claims_checked = 0, claims_hold = 0;
  for (const Claim& c : claims.list())
    if (c.holds) {
      ++claims_checked;
      claims_hold += *c.holds;
    }
  md += fmt::format("\n{} of {} claims hold on our numbers. \"n/a\" on the published side: a rule needs a table the "
                    "thesis does not print (ALS on cosine's columns, MSD with the printed sign).\n\n",
                    claims_hold, claims_checked);

  // Intervals of every published cell we have (users resampled within each repetition).
  std::vector<IntervalRequest> requests;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> request_of;  // (table, label, measure)
  for (const PublishedTable& t : published)
    for (const auto& label : shown)
      for (const auto& [measure, name] : kMeasures)
        if (const auto o = ours(t.at, label, measure); o && theirs(t.at, label, measure)) {
          request_of[{t.id, label, measure}] = requests.size();
          requests.push_back({t.at, label, measure, *o});
        }
  const std::vector<stats::Interval> intervals = user_intervals(units, catalog_size, requests);

  // The table pairs: ours / published (Δ) per cell; orderings per measure.
  ComparisonTable comparison({{"table", "table"}, {"method", "method"}, {"measure", "measure"}}, {}, tolerance, 2, 100);
  json ordering_json = json::array();
  int best_same = 0, best_rows = 0, values_within = 0, values_total = 0;
  std::string csv = "table,similarity,users,k,method,measure,ours,published\n";
  for (const PublishedTable& t : published) {
    md += fmt::format("## Tables {} ({} users, top {}, {} similarity)\n\nCells: ours / published (Δ = ours − published), "
                      "x 100; ours with its 95 % interval over users. Published: MovieLens 1M; ours: {}.\n\n| method |",
                      t.id, t.at.population, t.at.k, t.at.similarity, data_name_);
    for (const auto& [measure, name] : kMeasures) md += " " + name + " |";
    md += "\n|---|---|---|---|---|---|---|\n";
    for (const auto& label : shown) {
      if (!ours(t.at, label, "dcg")) continue;
      md += "| " + label + " |";
      for (const auto& [measure, name] : kMeasures) {
        const auto o = ours(t.at, label, measure);
        const auto p = theirs(t.at, label, measure);
        md += fmt::format(" {}", o ? pct(*o) : std::string("–"));
        if (p) {
          ComparisonTable::Row& row = comparison.add({t.id, label, measure}, o, p);
          if (const auto r = request_of.find({t.id, label, measure}); r != request_of.end()) {
            row.interval = intervals[r->second];
            row.interval_unit = "user";
            md += fmt::format(" [{}–{}]", pct(row.interval->low), pct(row.interval->high));
          }
          md += fmt::format(" / {} ({:+.2f})", pct(*p), 100.0 * (*o - *p));
          ++values_total;
          values_within += std::abs(*o - *p) <= tolerance;
        }
        md += " |";
        csv += fmt::format("{},{},{},{},{},{},{:.6f},{}\n", t.id, t.at.similarity, t.at.population, t.at.k, label,
                           measure, o ? 100.0 * *o : std::nan(""), p ? fmt::format("{:.2f}", 100.0 * *p) : "");
      }
      md += "\n";
    }
    md += "\n| measure | best column (ours) | best column (published) | same | Kendall τ (ours vs published, 12 columns) |\n"
          "|---|---|---|---|---|\n";
    for (const auto& [measure, name] : kMeasures) {
      const auto o = values_of(ours, t.at, t.columns, measure);
      const auto p = values_of(theirs, t.at, t.columns, measure);
      if (!o || !p) continue;
      const std::string ob = argmax_label(t.columns, *o), pb = argmax_label(t.columns, *p);
      const double tau = stats::kendall_tau_b(*o, *p);
      md += fmt::format("| {} | {} | {} | {} | {:.2f} |\n", name, ob, pb, ob == pb ? "yes" : "**no**", tau);
      ++best_rows;
      ++tally.published_cells;
      if (ob == pb) {
        ++best_same;
        ++tally.within_tolerance;
      } else {
        tally.outside.push_back(fmt::format("Tables {} {}: best column {} (ours) vs {} (published)", t.id, name, ob, pb));
      }
      ordering_json.push_back({{"table", t.id}, {"measure", measure}, {"best_ours", ob}, {"best_published", pb},
                               {"kendall_tau", tau}});
    }
    for (const auto& e : t.errata) md += "\nErratum: " + e + "\n";
    md += "\n";
  }

  // Friedman and Nemenyi (Tables 3.17–3.19) over the repetitions.
  const json significance = published_of(spec_).value("significance", json::object());
  json significance_json = json::object();
  int decisions = 0, decisions_same = 0;
  if (!significance.empty() && repetitions >= 2) {
    const At base{"cosine", "all", significance.value("k", std::size_t{10})};
    const auto treatments = significance["treatments"];
    const auto metrics = significance["metrics"].get<std::vector<std::string>>();
    md += fmt::format("## Tables 3.17–3.19: Friedman and Nemenyi tests over the {} repetitions (top {})\n\n"
                      "Treatments: ",
                      repetitions, base.k);
    std::vector<std::string> names;
    for (const auto& t : treatments) names.push_back(t["name"].get<std::string>());
    std::string friedman_md = fmt::format(
        "| users | measure | χ²_F | p (ours) | p (published) | same decision at α = {} | mean ranks ({}) |\n"
        "|---|---|---|---|---|---|---|\n",
        alpha, fmt::join(names, ", "));
    std::string nemenyi_md;
    bool described = false;
    for (const char* population : kPopulations) {
      At at = base;
      at.population = population;
      // Each treatment's column: its candidate with the largest mean DCG + Genre Coverage (the thesis:
      // "the best λ on DCG and Genre Coverage").
      std::vector<std::string> chosen;
      for (const auto& t : treatments) {
        std::string best;
        double best_score = -1e300;
        for (const auto& candidate : t["candidates"]) {
          const std::string l = candidate.get<std::string>();
          const auto d = ours(at, l, "dcg");
          const auto g = ours(at, l, "genre_coverage");
          if (d && g && *d + *g > best_score) best = l, best_score = *d + *g;
        }
        chosen.push_back(best);
      }
      if (std::find(chosen.begin(), chosen.end(), "") != chosen.end()) continue;
      md += fmt::format("{}{} users: {}", described ? "; " : "", population, fmt::join(chosen, ", "));
      described = true;
      const json pub_f = significance["friedman"].value(population, json());
      const json pub_n = significance["nemenyi"].value(population, json());
      nemenyi_md += fmt::format("\n### Nemenyi p-values, {} users (ours / published)\n\n| pair |", population);
      for (const auto& m : metrics) nemenyi_md += " " + m + " |";
      nemenyi_md += fmt::format("\n|---|{}\n", rule(metrics.size()));
      std::vector<std::string> pair_rows;
      for (std::size_t i = 1; i < names.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) pair_rows.push_back(fmt::format("| {} vs {} |", names[i], names[j]));
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        Eigen::MatrixXd block(repetitions, static_cast<Eigen::Index>(chosen.size()));
        for (std::size_t j = 0; j < chosen.size(); ++j) {
          const auto& series = values[at.similarity][at.population][at.k][chosen[j]][metrics[m]];
          for (int r = 0; r < repetitions; ++r) block(r, static_cast<Eigen::Index>(j)) = series[static_cast<std::size_t>(r)];
        }
        const stats::FriedmanResult f = stats::friedman_test(block);
        const Eigen::MatrixXd p = stats::nemenyi_p_values(f.mean_ranks, f.blocks);
        std::optional<double> published_p;
        if (pub_f.is_array()) published_p = pub_f[m].get<double>();
        const bool same = published_p && (f.p_value < alpha) == (*published_p < alpha);
        friedman_md += fmt::format("| {} | {} | {:.2f} | {} | {} | {} | {} |\n", population, metrics[m], f.statistic,
                                   format_p(f.p_value), published_p ? format_p(*published_p) : "–",
                                   published_p ? (same ? "yes" : "**no**") : "–", ranks_text(f.mean_ranks));
        json nem = json::array();
        std::size_t row = 0;
        for (std::size_t i = 1; i < names.size(); ++i)
          for (std::size_t j = 0; j < i; ++j, ++row) {
            const double ours_p = p(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
            std::optional<double> theirs_p;
            if (pub_n.is_object() && pub_n.contains(metrics[m])) theirs_p = pub_n[metrics[m]][row].get<double>();
            const bool same_n = theirs_p && (ours_p < alpha) == (*theirs_p < alpha);
            pair_rows[row] += fmt::format(" {} / {}{} |", format_p(ours_p), theirs_p ? format_p(*theirs_p) : "–",
                                          theirs_p && !same_n ? " ✗" : "");
            nem.push_back({{"pair", fmt::format("{} vs {}", names[i], names[j])}, {"p", ours_p},
                           {"published", theirs_p ? json(*theirs_p) : json()}});
            if (theirs_p) {
              ++decisions;
              ++tally.published_cells;
              if (same_n) {
                ++decisions_same;
                ++tally.within_tolerance;
              } else {
                tally.outside.push_back(fmt::format("Nemenyi {} users {} {} vs {}: p {} (ours) vs {} (published)",
                                                    population, metrics[m], names[i], names[j], format_p(ours_p),
                                                    format_p(*theirs_p)));
              }
            }
          }
        if (published_p) {
          ++decisions;
          ++tally.published_cells;
          if (same) {
            ++decisions_same;
            ++tally.within_tolerance;
          } else {
            tally.outside.push_back(fmt::format("Friedman {} users {}: p {} (ours) vs {} (published)", population,
                                                metrics[m], format_p(f.p_value), format_p(*published_p)));
          }
        }
        significance_json[population][metrics[m]] = {{"treatments", chosen}, {"statistic", f.statistic},
                                                      {"p", f.p_value},      {"mean_ranks", f.mean_ranks},
                                                      {"nemenyi", nem},      {"published_p", published_p ? json(*published_p) : json()}};
      }
      for (const auto& r : pair_rows) nemenyi_md += r + "\n";
    }
    md += fmt::format(" (each MMR/MSD at the λ with the largest mean DCG + Genre Coverage).\n\n{}{}\n✗: a different "
                      "decision at α = {}. With {} blocks and {} treatments the smallest attainable Friedman p is "
                      "that of a perfectly concordant ranking.\n",
                      friedman_md, nemenyi_md, alpha, repetitions, names.size());
    if (significance.contains("errata"))
      for (const auto& e : significance["errata"]) md += "\nErratum: " + e.get<std::string>() + "\n";
    md += "\n";
  } else if (!significance.empty()) {
    md += "## Tables 3.17–3.19\n\nNot computed: the Friedman test needs at least 2 repetitions.\n\n";
  }

  // Relevance–diversity curves (Figures 3.2 and 3.4): DCG, Genre Coverage and ILD against k.
  std::string curves = "similarity,users,method,k,dcg,genre_coverage,intra_list_distance\n";
  md += "## Relevance–diversity curves (Figures 3.2 and 3.4, cosine W): DCG / Genre Coverage / ILD x 100 against k\n\n"
        "Plotted in `" + spec_["name"].get<std::string>() + "[.quick].curves.png` (gnuplot script `.curves.gp` beside "
        "it, from `.curves.csv`); the thesis prints no numbers for its figures.\n\n";
  for (const char* population : kPopulations) {
    md += fmt::format("**{} users**\n\n| method |", population);
    for (std::size_t k : ks_) md += fmt::format(" k = {} |", k);
    md += fmt::format("\n|---|{}\n", rule(ks_.size()));
    for (const auto& label : shown) {
      if (spec_["methods"][label]["kind"] == "sdr_conv") continue;  // no prefix lists: not at every k
      std::string row = "| " + label + " |";
      bool any = false;
      for (std::size_t k : ks_) {
        const At at{"cosine", population, k};
        const auto d = ours(at, label, "dcg"), g = ours(at, label, "genre_coverage"), i = ours(at, label, "intra_list_distance");
        if (!d) {
          row += " – |";
          continue;
        }
        any = true;
        row += fmt::format(" {:.1f} / {:.1f} / {:.1f} |", 100 * *d, 100 * *g, 100 * *i);
        curves += fmt::format("cosine,{},{},{},{:.4f},{:.4f},{:.4f}\n", population, label, k, 100 * *d, 100 * *g, 100 * *i);
      }
      if (any) md += row + "\n";
    }
    md += "\n";
  }
  // The figure: rows = populations, columns = DCG, Genre Coverage, ILD; SDR solid, the others dashed.
  std::string gp =
      "# Relevance-diversity curves (Parambath thesis Figures 3.2 and 3.4 on " + data_name_ + "), written by mpg run:\n"
      "# run from results/ (`gnuplot <this file>`); reads the CSV beside it and writes the PNG of the same stem.\n"
      "stem = ARG0[1:strlen(ARG0) - 3]\n"
      "set datafile separator ','\n"
      "set terminal pngcairo size 1500,900 font 'Sans,9' noenhanced\n"
      "set output stem . '.png'\n"
      "set multiplot layout 2,3 title 'Relevance-diversity against k (" + data_name_ + ", cosine W; mean of the repetitions)'\n"
      "set grid; set key outside right font ',8'; set xlabel 'k'; set logscale x 2\n";
  const char* const titles[] = {"DCG x 100", "Genre Coverage x 100", "ILD x 100"};
  for (const char* population : kPopulations)
    for (int m = 0; m < 3; ++m) {
      gp += fmt::format("set title '{} ({} users)'; set ylabel '{}'\n", titles[m], population, titles[m]);
      std::vector<std::string> plots;
      int colour = 0;
      for (const auto& label : shown) {
        if (spec_["methods"][label]["kind"] == "sdr_conv") continue;
        ++colour;
        const bool sdr = spec_["methods"][label]["kind"] == "sdr";
        plots.push_back(fmt::format("csv using (strcol(2) eq '{}' && strcol(3) eq '{}' ? $4 : 1/0):(${}) with linespoints "
                                    "lt {} dt {} lw {} pt {} title '{}'",
                                    population, label, 5 + m, colour, sdr ? 1 : 2, sdr ? 2 : 1, colour, label));
      }
      gp += fmt::format("csv = stem . '.csv'\nplot {}\n", fmt::join(plots, ", \\\n     "));
    }
  gp += "unset multiplot\n";

  // Run times.
  md += "## Times\n\n| similarity | method | wall seconds, all repetitions (threads shared) | per-user CPU seconds: median | max |\n"
        "|---|---|---|---|---|\n";
  for (const auto& similarity : similarities_)
    for (const auto& label : shown) {
      const std::string key = similarity + " " + label;
      if (!user_median.count(key)) continue;
      md += fmt::format("| {} | {} | {:.1f} | {:.5f} | {:.4f} |\n", similarity, label, cpu[similarity][label],
                        median(user_median[key]), *std::max_element(user_max[key].begin(), user_max[key].end()));
    }
  std::string convergence;
  for (const auto& [key, n] : not_converged)
    convergence += fmt::format("{}{}: {} user solves not converged", convergence.empty() ? "" : "; ", key, n);
  md += fmt::format("\nSDR conv: {} (tolerance: the method's `tolerance`).\n",
                    convergence.empty() ? std::string("no SDR conv cell") : convergence);
  if (als_) {
    md += "\nWeighted ALS per repetition:";
    for (const auto& [r, s] : split_info["als"].items())
      if (s.contains("als"))
        md += fmt::format(" rep {}: {} sweeps, training RMSE {:.3f}{};", r, s["als"]["iterations"].get<int>(),
                          s["als"]["rmse"].get<double>(), s["als"]["converged"].get<bool>() ? "" : " (sweep cap)");
    md += "\n";
  }

  md.insert(summary_at, fmt::format("## Summary of the comparison\n\n- Orderings: the best column of {} of {} published rows is ours "
                    "too.\n- Significance: {} of {} Friedman/Nemenyi decisions at α = {} agree.\n- Claims: {} of {} "
                    "hold.\n- Values{}: {} of {} cells within {} points, {} more within noise (the published value "
                    "inside our 95 % interval over users).\n\n",
                    best_same, best_rows, decisions_same, decisions, alpha, claims_hold, claims_checked,
                    choice_.exact() ? "" : " (another data set: counted apart)", values_within, values_total,
                    100.0 * tolerance, comparison.tally().within_noise));
  md += "\n## Data\n\n";
  md += fmt::format("- registry `{}`, variant `{}` ({}); {} ratings, {} users, {} items, {} genres ({})\n", choice_.dataset,
                    choice_.variant, choice_.fidelity(), ratings_.size(), users_, items_, genres_.names.size(),
                    fmt::join(genres_.names, ", "));
  for (const auto& f : files_) md += fmt::format("- `{}` sha256 `{}`\n", f.name, f.sha256.substr(0, 16));
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);

  out.csv = csv;
  out.extra_files = {{".curves.csv", curves}, {".curves.gp", gp}};
  out.fields = {{"data_note", data_note(data_name_, choice_.exact())},
                {"eclectic_users", eclectic_users_},
                {"splits", split_info},
                {"claims", claims.to_json()},
                {"orderings", ordering_json},
                {"significance", significance_json},
                {"comparison", comparison.rows_json()},
                {"published", published_of(spec_)}};
  // Each published value counts as a cell (within tolerance, within noise or a miss); on another data
  // set than the thesis' (MovieLens 100K for 1M) every check is counted apart.
  out.tally.add(comparison.tally());
  if (!choice_.exact()) out.tally.relabel(Standing::substitute);
  return out;
}

}  // namespace mpg::harness::diversity_impl
