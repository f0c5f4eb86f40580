// The diversity family's own header (private to lib/harness/families/diversity*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "lib/base/error.hpp"
#include "lib/data/movielens.hpp"
#include "lib/diversity/recommend.hpp"
#include "lib/diversity/recommendation.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/stats/rank_tests.hpp"

namespace mpg::harness::diversity_impl {

using nlohmann::json;
namespace dv = mpg::diversity;

// The six measures of the thesis's tables, in their row order, and how the tables name them.
const std::vector<std::pair<std::string, std::string>> kMeasures = {
    {"genre_coverage", "Genre Coverage"},       {"intra_list_distance", "ILD"}, {"catalog_coverage", "Catalog Coverage"},
    {"stratified_recall", "Stratified Recall"}, {"dcg", "DCG"},                 {"precision", "Precision@k"}};
const char* const kPopulations[] = {"all", "eclectic"};
// What the tables say of the data: the thesis's MovieLens 1M, or MovieLens 100K in its place.
std::string data_note(const std::string& name, bool thesis_data);
// "MovieLens 1M" or "MovieLens 100K" (by the registry format).
std::string data_name(const RegistryChoice& choice);

json scores_json(const dv::RecommendationScores& s);

// A cell's per-user pieces of the measures at one k (dv::UserScores, one entry per evaluated
// user in the cell's user order): what the tables' bootstrap intervals resample.
struct UserUnits {
  std::vector<int> users;
  std::vector<char> eclectic;
  std::vector<double> has_genres, genre_coverage, intra_list_distance, dcg, precision, recall_hit, recall_all;
  std::vector<std::vector<int>> hits;
};
json user_units_json(const std::vector<int>& users, const std::vector<dv::UserScores>& scores,
                     const std::vector<char>& eclectic_user);
// Throws mpg::Error naming `where` when the entry has none (a cell cached before they existed).
UserUnits user_units_from_json(const json& value, const std::string& where);

// ---- Methods and protocol parameters -----------------------------------------------------------

Parameter required(Parameter p);

const Parameter kRelevance = choice_parameter(
    "relevance", "raw", {"raw", "normalized"},
    "relevance r(i) of the re-ranking step: `raw` Σ_κ v W_κi (the printed steps) or `normalized`, Sarwar's weighted "
    "average Σ v W / Σ \\|W\\| (ranks obscure one-neighbour items first: DCG near 0 on MovieLens)");

const std::vector<MethodKind>& diversity_methods();

Parameter with_default(Parameter p, json value);

// The protocol, the eclectic users and the ALS variant: declared once here, with their defaults.
const ParameterTable& protocol_table();

const ParameterTable& eclectic_table();

const ParameterTable& als_table();

std::vector<std::size_t> sizes_of(const std::vector<double>& values);

// ---- The run -----------------------------------------------------------------------------------

// One repetition's split and what its cells share (built on first use, then kept).
struct Repetition {
  dv::DiversitySplit split;
  dv::RecommendationTruth truth;
  std::vector<int> users;           // test users with >= 1 relevant test rating
  std::vector<char> eclectic_user;  // by user
  int eclectic_users = 0;           // eclectic among `users`
};

// A repetition's data (items x items W and more: ~110 MB on MovieLens 1M), prepared by its first
// cell and released after the last of its `cells` (the run's peak memory is then that of the
// repetitions in progress, not of all of them).
struct LazyRepetition {
  std::mutex mutex;
  std::shared_ptr<const Repetition> data;
  int cells = 0;     // cells of the run that use it
  int finished = 0;  // of them, computed
};

struct Cell {
  std::string similarity;  // "cosine" or "als"
  int repetition = 0;
  std::string kind;
};

class DiversityRun : public FamilyRun {
 public:
  explicit DiversityRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t, const json&) const override { return {}; }
  std::string validation_line(const json& v) const override {
    const json& all = v["scores"]["all"];
    const std::string k = all.contains("10") ? "10" : all.begin().key();
    return fmt::format("DCG@{} {:.4f}  genre coverage {:.4f}  ({:.1f} s)", k, all[k]["dcg"].get<double>(),
                       all[k]["genre_coverage"].get<double>(), v["seconds"].get<double>());
  }
  bool has_test_phase() const override { return false; }
  Tables tables(const Outcome& outcome) const override;

 private:
  std::shared_ptr<const Repetition> repetition(const std::string& similarity, int r) const;
  // One of the repetition's cells is computed: the last releases its data.
  void finished(const std::string& similarity, int r) const;
  std::vector<std::size_t> ks_of(const std::string& similarity) const {
    return similarity == "als" ? als_ks_ : ks_;
  }

  json spec_;
  RegistryChoice choice_;
  std::vector<VerifiedFile> files_;  // ratings, items, genres, users (content dropped)
  ParameterValues protocol_, eclectic_options_;
  std::optional<ParameterValues> als_;
  std::vector<dv::Rating> ratings_;
  int users_ = 0, items_ = 0;
  dv::GenreSets genres_;
  std::vector<int> eclectic_users_;  // on all ratings: the same users in every repetition
  std::vector<std::size_t> ks_, conv_ks_, als_ks_;
  std::vector<std::string> similarities_;
  std::string data_name_;  // "MovieLens 1M" or "MovieLens 100K"
  mutable std::map<std::string, std::vector<std::unique_ptr<LazyRepetition>>> repetitions_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

// ---- Tables ------------------------------------------------------------------------------------

// Where one number of a table lives: similarity, population, k, method label, measure.
struct At {
  std::string similarity = "cosine", population = "all";
  std::size_t k = 10;
};

// Every measured value over the repetitions: [similarity][population][k][label][measure].
using Values =
    std::map<std::string, std::map<std::string, std::map<std::size_t, std::map<std::string, std::map<std::string, std::vector<double>>>>>>;

// Looks a number up (ours or published); nullopt where it does not exist.
using Lookup = std::function<std::optional<double>(const At&, const std::string& label, const std::string& measure)>;

std::optional<double> mean_value(const Values& values, const At& at, const std::string& label, const std::string& measure);

// Every cell's per-user statistics: [similarity][repetition][label][k].
using Units = std::map<std::string, std::map<int, std::map<std::string, std::map<std::size_t, UserUnits>>>>;

// One published cell whose value gets an interval: where it is, whose column, which measure.
struct IntervalRequest {
  At at;
  std::string label, measure;
  double value = 0;  // ours: the mean over the repetitions (the units must give it back)
};
// The 95 % bootstrap intervals of the requested values: each is a mean over the repetitions of a
// measure of the evaluated users, so every repetition's users are resampled within it (its own
// stratum) and the measure recomputed — Genre Coverage as Σ coverage / Σ users with genres,
// Stratified Recall as Σ hit terms / Σ all terms, Catalog Coverage from the union of the drawn
// users' relevant hits (its interval centred on the value: a resample holds about 63 % of the
// distinct users, so its unions are smaller). Throws mpg::Error where the units do not give back
// a value.
std::vector<stats::Interval> user_intervals(const Units& units, std::size_t catalog_size,
                                            const std::vector<IntervalRequest>& requests);

// A claim of the thesis (§3.11) as a rule over a table's numbers: true/false, or nullopt when a
// number it needs is missing; `detail` receives the numbers it looked at.
struct ClaimRule {
  std::string id;
  std::string rule;
  std::function<std::optional<bool>(const Lookup&, std::string& detail)> check;
};

std::string pct(double x);

// Orders inside one method family (MSD over λ, SDR over γ) count values within 0.1 point (x 100)
// as equal: those differences are far below the spread of the repetitions.
constexpr double kTie = 0.001;

bool at_least(double a, double b);

const std::vector<std::string> kMmr = {"MMR_0.1", "MMR_0.5", "MMR_0.8"};
const std::vector<std::string> kMsd = {"MSD_0.1", "MSD_0.5", "MSD_0.8"};
const std::vector<std::string> kMsdPrinted = {"MSD_printed_0.1", "MSD_printed_0.5", "MSD_printed_0.8"};
const std::vector<std::string> kPublishedColumns = {"MMR_0.1", "MMR_0.5", "MMR_0.8", "MSD_0.1", "MSD_0.5",  "MSD_0.8",
                                                    "MOD",     "SDR_0.8", "SDR_0.5", "SDR_0.1", "SDR_0", "SDR_conv_0.5"};

// The values of `labels` at `at`; nullopt if any is missing.
std::optional<std::vector<double>> values_of(const Lookup& get, const At& at, const std::vector<std::string>& labels,
                                             const std::string& measure);

std::string listing(const std::vector<std::string>& labels, const std::vector<double>& values);

// Conjunction over the table settings `ats` of `one(at)`; details joined.
std::optional<bool> over(const std::vector<At>& ats, std::string& detail,
                         const std::function<std::optional<bool>(const At&, std::string&)>& one);

std::vector<At> all_users_tables();

// max over `labels` other than `except`, with its label.
std::pair<double, std::string> best_other(const std::vector<std::string>& labels, const std::vector<double>& values,
                                          const std::string& except);

std::optional<bool> monotone_in_lambda(const Lookup& get, const std::vector<std::string>& msd, std::string& detail);

const std::vector<ClaimRule>& claim_rules();

// The published numbers of one thesis table pair.
struct PublishedTable {
  std::string id;  // "3.1+3.2"
  At at;
  std::vector<std::string> columns;
  std::map<std::string, std::vector<double>> rows;  // measure -> values by column
  std::vector<std::string> errata;
};

std::vector<PublishedTable> published_tables(const json& spec);

std::string argmax_label(const std::vector<std::string>& labels, const std::vector<double>& values);

// "---|" n times: the rest of a Markdown rule line.
std::string rule(std::size_t n);

std::string ranks_text(const std::vector<double>& ranks);

std::string format_p(double p);

}  // namespace mpg::harness::diversity_impl
