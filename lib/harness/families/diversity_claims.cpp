// The diversity family's claims (lib/harness/families/diversity.cpp has its methods, cells and spec keys).
#include "lib/harness/families/diversity.hpp"

namespace mpg::harness::diversity_impl {

std::string pct(double x) { return fixed(100.0 * x, 2); }
bool at_least(double a, double b) { return a >= b - kTie; }

// The values of `labels` at `at`; nullopt if any is missing.
std::optional<std::vector<double>> values_of(const Lookup& get, const At& at, const std::vector<std::string>& labels,
                                             const std::string& measure) {
  std::vector<double> out;
  for (const auto& label : labels) {
    const auto v = get(at, label, measure);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::string listing(const std::vector<std::string>& labels, const std::vector<double>& values) {
  std::string out;
  for (std::size_t i = 0; i < labels.size(); ++i) out += fmt::format("{}{} {}", i ? ", " : "", labels[i], pct(values[i]));
  return out;
}

// Conjunction over the table settings `ats` of `one(at)`; details joined.
std::optional<bool> over(const std::vector<At>& ats, std::string& detail,
                         const std::function<std::optional<bool>(const At&, std::string&)>& one) {
  bool all = true;
  for (const At& at : ats) {
    std::string d;
    const auto r = one(at, d);
    if (!r) return std::nullopt;
    all = all && *r;
    detail += fmt::format("{}{} top {}: {}", detail.empty() ? "" : "; ", at.population, at.k, d);
  }
  return all;
}

std::vector<At> all_users_tables() { return {{"cosine", "all", 10}, {"cosine", "all", 20}}; }

// max over `labels` other than `except`, with its label.
std::pair<double, std::string> best_other(const std::vector<std::string>& labels, const std::vector<double>& values,
                                          const std::string& except) {
  std::pair<double, std::string> best{-1e300, ""};
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] != except && values[i] > best.first) best = {values[i], labels[i]};
  return best;
}

std::optional<bool> monotone_in_lambda(const Lookup& get, const std::vector<std::string>& msd, std::string& detail) {
  return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
    const auto dcg = values_of(get, at, msd, "dcg");
    if (!dcg) return std::nullopt;
    d = fmt::format("DCG {}", listing(msd, *dcg));
    return at_least((*dcg)[1], (*dcg)[0]) && at_least((*dcg)[2], (*dcg)[1]);
  });
}

const std::vector<ClaimRule>& claim_rules() {
  static const std::vector<ClaimRule> all = {
      {"mmr_flat",
       "all users, top 10 and 20: MMR's DCG varies by < 1 point over λ, and λ = 0.1 has the highest Stratified Recall "
       "and Catalog Coverage of the three",
       [](const Lookup& get, std::string& detail) {
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           const auto dcg = values_of(get, at, kMmr, "dcg");
           const auto sr = values_of(get, at, kMmr, "stratified_recall");
           const auto cc = values_of(get, at, kMmr, "catalog_coverage");
           if (!dcg || !sr || !cc) return std::nullopt;
           const auto [lo, hi] = std::minmax_element(dcg->begin(), dcg->end());
           d = fmt::format("DCG range {}; SR {}; CC {}", pct(*hi - *lo), listing(kMmr, *sr), listing(kMmr, *cc));
           return *hi - *lo < 0.01 && (*sr)[0] >= std::max((*sr)[1], (*sr)[2]) && (*cc)[0] >= std::max((*cc)[1], (*cc)[2]);
         });
       }},
      {"msd_relevance", "all users, top 10 and 20: MSD's DCG does not fall as λ grows (0.1 ≤ 0.5 ≤ 0.8, ties within 0.1 point), sign of the objective",
       [](const Lookup& get, std::string& detail) { return monotone_in_lambda(get, kMsd, detail); }},
      {"msd_relevance_printed", "the same rule for MSD with the thesis's printed − sign (extra columns MSD_printed_*)",
       [](const Lookup& get, std::string& detail) { return monotone_in_lambda(get, kMsdPrinted, detail); }},
      {"mod_on_par", "all users, top 10 and 20: MOD's DCG within 1 point of the median DCG of the six MMR/MSD columns",
       [](const Lookup& get, std::string& detail) {
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           std::vector<std::string> labels = kMmr;
           labels.insert(labels.end(), kMsd.begin(), kMsd.end());
           const auto dcg = values_of(get, at, labels, "dcg");
           const auto mod = get(at, "MOD", "dcg");
           if (!dcg || !mod) return std::nullopt;
           const double med = median(*dcg);
           d = fmt::format("MOD {} vs median {}", pct(*mod), pct(med));
           return std::abs(*mod - med) <= 0.01;
         });
       }},
      {"sdr_gamma", "all users, top 10 and 20: DCG and Genre Coverage of SDR γ = 0.1 ≥ γ = 0.5 ≥ γ = 0.8 (ties within 0.1 point)",
       [](const Lookup& get, std::string& detail) {
         const std::vector<std::string> sdr = {"SDR_0.1", "SDR_0.5", "SDR_0.8"};
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           const auto dcg = values_of(get, at, sdr, "dcg");
           const auto gc = values_of(get, at, sdr, "genre_coverage");
           if (!dcg || !gc) return std::nullopt;
           d = fmt::format("DCG {}; GC {}", listing(sdr, *dcg), listing(sdr, *gc));
           return at_least((*dcg)[0], (*dcg)[1]) && at_least((*dcg)[1], (*dcg)[2]) && at_least((*gc)[0], (*gc)[1]) &&
                  at_least((*gc)[1], (*gc)[2]);
         });
       }},
      {"sdr_movielens_3pct",
       "all users, top 10 and 20: SDR γ = 0.1's DCG and Genre Coverage ≥ 1.02 × the best other column, and the "
       "highest Stratified Recall and Catalog Coverage",
       [](const Lookup& get, std::string& detail) {
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           bool ok = true;
           for (const char* measure : {"dcg", "genre_coverage", "stratified_recall", "catalog_coverage"}) {
             const auto v = values_of(get, at, kPublishedColumns, measure);
             const auto sdr = get(at, "SDR_0.1", measure);
             if (!v || !sdr) return std::nullopt;
             const auto [runner_up, who] = best_other(kPublishedColumns, *v, "SDR_0.1");
             const bool relative = std::string(measure) == "dcg" || std::string(measure) == "genre_coverage";
             ok = ok && (relative ? *sdr >= 1.02 * runner_up : *sdr >= runner_up);
             d += fmt::format("{}{} {} vs {} {} ({:+.1f} %)", d.empty() ? "" : ", ", measure, pct(*sdr), who,
                              pct(runner_up), 100.0 * (*sdr / runner_up - 1.0));
           }
           return ok;
         });
       }},
      {"sdr_limit_degrades", "all users, top 10 and 20: SDR γ → 0 has lower DCG and Genre Coverage than γ = 0.1",
       [](const Lookup& get, std::string& detail) {
         const std::vector<std::string> two = {"SDR_0", "SDR_0.1"};
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           const auto dcg = values_of(get, at, two, "dcg");
           const auto gc = values_of(get, at, two, "genre_coverage");
           if (!dcg || !gc) return std::nullopt;
           d = fmt::format("DCG {}; GC {}", listing(two, *dcg), listing(two, *gc));
           return (*dcg)[0] < (*dcg)[1] && (*gc)[0] < (*gc)[1];
         });
       }},
      {"conv_on_par", "all users, top 10 and 20: SDR conv γ = 0.5 within 1 point of greedy γ = 0.5 on DCG and Genre Coverage",
       [](const Lookup& get, std::string& detail) {
         const std::vector<std::string> two = {"SDR_conv_0.5", "SDR_0.5"};
         return over(all_users_tables(), detail, [&](const At& at, std::string& d) -> std::optional<bool> {
           const auto dcg = values_of(get, at, two, "dcg");
           const auto gc = values_of(get, at, two, "genre_coverage");
           if (!dcg || !gc) return std::nullopt;
           d = fmt::format("DCG {}; GC {}", listing(two, *dcg), listing(two, *gc));
           return std::abs((*dcg)[0] - (*dcg)[1]) <= 0.01 && std::abs((*gc)[0] - (*gc)[1]) <= 0.01;
         });
       }},
      {"eclectic", "eclectic users, top 10 and 20: SDR γ = 0.1 has the highest DCG and Genre Coverage of all columns",
       [](const Lookup& get, std::string& detail) {
         return over({{"cosine", "eclectic", 10}, {"cosine", "eclectic", 20}}, detail,
                     [&](const At& at, std::string& d) -> std::optional<bool> {
                       bool ok = true;
                       for (const char* measure : {"dcg", "genre_coverage"}) {
                         const auto v = values_of(get, at, kPublishedColumns, measure);
                         const auto sdr = get(at, "SDR_0.1", measure);
                         if (!v || !sdr) return std::nullopt;
                         const auto [runner_up, who] = best_other(kPublishedColumns, *v, "SDR_0.1");
                         ok = ok && *sdr >= runner_up;
                         d += fmt::format("{}{} SDR_0.1 {} vs {} {}", d.empty() ? "" : ", ", measure, pct(*sdr), who,
                                          pct(runner_up));
                       }
                       return ok;
                     });
       }},
      {"sdr_genre_best", "every MovieLens table (all and eclectic users, top 10 and 20): SDR γ = 0.1 has the highest Genre Coverage",
       [](const Lookup& get, std::string& detail) {
         return over({{"cosine", "all", 10}, {"cosine", "all", 20}, {"cosine", "eclectic", 10}, {"cosine", "eclectic", 20}},
                     detail, [&](const At& at, std::string& d) -> std::optional<bool> {
                       const auto v = values_of(get, at, kPublishedColumns, "genre_coverage");
                       const auto sdr = get(at, "SDR_0.1", "genre_coverage");
                       if (!v || !sdr) return std::nullopt;
                       const auto [runner_up, who] = best_other(kPublishedColumns, *v, "SDR_0.1");
                       d = fmt::format("SDR_0.1 {} vs {} {}", pct(*sdr), who, pct(runner_up));
                       return *sdr >= runner_up;
                     });
       }},
      {"als_worse",
       "all users, top 10: every column's DCG is lower with the ALS similarity than with cosine, and SDR γ = 0.1 (ALS) "
       "has a higher DCG than every MMR/MSD column (ALS)",
       [](const Lookup& get, std::string& detail) -> std::optional<bool> {
         const At cosine{"cosine", "all", 10}, als{"als", "all", 10};
         const auto c = values_of(get, cosine, kPublishedColumns, "dcg");
         const auto a = values_of(get, als, kPublishedColumns, "dcg");
         if (!c || !a) return std::nullopt;
         bool lower = true;
         for (std::size_t i = 0; i < c->size(); ++i) lower = lower && (*a)[i] < (*c)[i];
         std::vector<std::string> baselines = kMmr;
         baselines.insert(baselines.end(), kMsd.begin(), kMsd.end());
         const auto b = values_of(get, als, baselines, "dcg");
         const auto sdr = get(als, "SDR_0.1", "dcg");
         if (!b || !sdr) return std::nullopt;
         const auto [best, who] = best_other(baselines, *b, "");
         detail = fmt::format("ALS DCG {}; every column lower than with cosine: {}; SDR_0.1 {} vs {} {}",
                              listing(kPublishedColumns, *a), lower ? "yes" : "no", pct(*sdr), who, pct(best));
         return lower && *sdr > best;
       }},
  };
  return all;
}

}  // namespace mpg::harness::diversity_impl
