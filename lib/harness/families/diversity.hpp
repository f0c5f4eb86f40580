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
const char* const kDataNote =
    "MovieLens 100K (the thesis uses MovieLens 1M and Yahoo! Movies, neither available here); the thesis's DCG and "
    "Precision tables are mutually inconsistent (digest §3.9): compare orderings and claims, not values.";

json scores_json(const dv::RecommendationScores& s);

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

struct LazyRepetition {
  std::once_flag once;
  std::unique_ptr<Repetition> data;
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
  const Repetition& repetition(const std::string& similarity, int r) const;
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
