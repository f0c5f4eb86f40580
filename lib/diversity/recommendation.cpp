#include "lib/diversity/recommendation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "lib/base/error.hpp"

namespace mpg::diversity {
namespace {

// The rating of `item` among the user's relevant test items, or 0 if it is not one of them.
int relevant_rating_of(const std::vector<std::pair<int, int>>& relevant_test, int item) {
  const auto at = std::lower_bound(relevant_test.begin(), relevant_test.end(), std::pair<int, int>(item, 0));
  return at != relevant_test.end() && at->first == item ? at->second : 0;
}

std::uint32_t genres_of(const std::vector<int>& items, const std::vector<std::uint32_t>& item_genres) {
  std::uint32_t mask = 0;
  for (const int item : items) mask |= item_genres[static_cast<std::size_t>(item)];
  return mask;
}

}  // namespace

RecommendationTruth make_recommendation_truth(int users, int items, const std::vector<Rating>& train,
                                              const std::vector<Rating>& test,
                                              std::vector<std::uint32_t> item_genres, int genre_count,
                                              std::size_t catalog_size, int relevant_rating) {
  if (static_cast<int>(item_genres.size()) != items)
    throw Error(fmt::format("recommendation truth: {} genre sets for {} items", item_genres.size(), items));
  RecommendationTruth truth;
  truth.genre_count = genre_count;
  truth.item_genres = std::move(item_genres);
  truth.catalog_size = catalog_size;
  truth.liked_train.resize(static_cast<std::size_t>(users));
  truth.relevant_test.resize(static_cast<std::size_t>(users));
  truth.relevant_test_count.assign(static_cast<std::size_t>(items), 0);
  auto check = [&](const Rating& r) {
    if (r.user < 0 || r.user >= users || r.item < 0 || r.item >= items)
      throw Error(fmt::format("recommendation truth: rating (user {}, item {}) outside {} x {}", r.user, r.item, users, items));
  };
  for (const Rating& r : train) {
    check(r);
    if (r.value >= relevant_rating) truth.liked_train[static_cast<std::size_t>(r.user)].push_back(r.item);
  }
  for (const Rating& r : test) {
    check(r);
    if (r.value < relevant_rating) continue;
    truth.relevant_test[static_cast<std::size_t>(r.user)].emplace_back(r.item, r.value);
    ++truth.relevant_test_count[static_cast<std::size_t>(r.item)];
  }
  for (auto& liked : truth.liked_train) std::sort(liked.begin(), liked.end());
  for (auto& relevant : truth.relevant_test) std::sort(relevant.begin(), relevant.end());
  return truth;
}

std::optional<double> genre_coverage(const std::vector<int>& list, const std::vector<int>& liked,
                                     const std::vector<std::uint32_t>& item_genres) {
  const std::uint32_t wanted = genres_of(liked, item_genres);
  if (wanted == 0) return std::nullopt;
  return static_cast<double>(std::popcount(genres_of(list, item_genres) & wanted)) / std::popcount(wanted);
}

double intra_list_distance(const std::vector<int>& list, const std::vector<std::uint32_t>& item_genres) {
  const std::size_t n = list.size();
  if (n < 2) return 0.0;
  long distance = 0;  // over unordered pairs; the ordered-pair sum is twice this
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      distance += std::popcount(item_genres[static_cast<std::size_t>(list[a])] ^ item_genres[static_cast<std::size_t>(list[b])]);
  return 2.0 * static_cast<double>(distance) / (static_cast<double>(n) * static_cast<double>(n - 1));
}

double list_dcg(const std::vector<int>& list, const std::vector<std::pair<int, int>>& relevant_test, DcgGain gain) {
  double total = 0.0;
  for (std::size_t r = 0; r < list.size(); ++r) {
    const int rating = relevant_rating_of(relevant_test, list[r]);
    if (rating == 0) continue;
    const double g = gain == DcgGain::binary ? 1.0 : std::ldexp(1.0, rating) - 1.0;
    total += g / std::log2(static_cast<double>(r) + 2.0);
  }
  return total;
}

std::vector<UserScores> score_users(const std::vector<int>& users, const std::vector<std::vector<int>>& lists,
                                    const RecommendationTruth& truth, std::size_t k,
                                    const RecommendationMetricOptions& options) {
  if (users.size() != lists.size())
    throw Error(fmt::format("recommendation scores: {} users but {} lists", users.size(), lists.size()));
  if (k == 0) throw Error("recommendation scores: k must be >= 1");
  auto popularity_weight = [&](int item) {
    return std::pow(1.0 / truth.relevant_test_count[static_cast<std::size_t>(item)], options.beta);
  };
  std::vector<UserScores> out(users.size());
  for (std::size_t a = 0; a < users.size(); ++a) {
    const auto u = static_cast<std::size_t>(users[a]);
    if (u >= truth.relevant_test.size()) throw Error(fmt::format("recommendation scores: unknown user {}", users[a]));
    const std::vector<int> list(lists[a].begin(), lists[a].begin() + static_cast<std::ptrdiff_t>(std::min(k, lists[a].size())));
    const auto& relevant = truth.relevant_test[u];
    UserScores& s = out[a];
    s.genre_coverage = genre_coverage(list, truth.liked_train[u], truth.item_genres);
    s.intra_list_distance = intra_list_distance(list, truth.item_genres) / (options.ild_per_genre ? truth.genre_count : 1);
    s.dcg = list_dcg(list, relevant, options.dcg_gain);
    for (const int item : list) {
      if (relevant_rating_of(relevant, item) == 0) continue;
      s.hits.push_back(item);
      s.recall_hit += popularity_weight(item);
    }
    std::sort(s.hits.begin(), s.hits.end());
    for (const auto& [item, rating] : relevant) s.recall_all += popularity_weight(item);
    s.precision = static_cast<double>(s.hits.size()) / static_cast<double>(k);
  }
  return out;
}

RecommendationScores aggregate_scores(const std::vector<UserScores>& users, std::size_t catalog_size) {
  RecommendationScores scores;
  scores.users = static_cast<int>(users.size());
  double coverage_sum = 0.0, ild_sum = 0.0, dcg_sum = 0.0, precision_sum = 0.0, recall_hit = 0.0, recall_all = 0.0;
  std::vector<int> recommended_hit;
  for (const UserScores& s : users) {
    if (s.genre_coverage)
      coverage_sum += *s.genre_coverage;
    else
      ++scores.users_without_genres;
    ild_sum += s.intra_list_distance;
    dcg_sum += s.dcg;
    precision_sum += s.precision;
    recall_hit += s.recall_hit;
    recall_all += s.recall_all;
    recommended_hit.insert(recommended_hit.end(), s.hits.begin(), s.hits.end());
  }
  std::sort(recommended_hit.begin(), recommended_hit.end());
  const auto distinct = std::unique(recommended_hit.begin(), recommended_hit.end()) - recommended_hit.begin();
  const double n = std::max(1, scores.users);
  const int with_genres = scores.users - scores.users_without_genres;
  scores.genre_coverage = with_genres > 0 ? coverage_sum / with_genres : 0.0;
  scores.intra_list_distance = ild_sum / n;
  scores.dcg = dcg_sum / n;
  scores.precision = precision_sum / n;
  scores.stratified_recall = recall_all > 0.0 ? recall_hit / recall_all : 0.0;
  if (catalog_size > 0) scores.catalog_coverage = static_cast<double>(distinct) / static_cast<double>(catalog_size);
  return scores;
}

RecommendationScores score_recommendations(const std::vector<int>& users, const std::vector<std::vector<int>>& lists,
                                           const RecommendationTruth& truth, std::size_t k,
                                           const RecommendationMetricOptions& options) {
  return aggregate_scores(score_users(users, lists, truth, k, options), truth.catalog_size);
}

}  // namespace mpg::diversity
