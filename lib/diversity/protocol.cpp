#include "lib/diversity/protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "lib/base/error.hpp"

namespace mpg::diversity {
namespace {

bool by_user_then_item(const Rating& a, const Rating& b) {
  return a.user != b.user ? a.user < b.user : a.item < b.item;
}

// A uniform draw from {0, ..., bound - 1} (bound >= 1): Lemire's multiply-and-reject, so the
// stream is the same with every standard library (std::uniform_int_distribution is not).
std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound) {
  __extension__ using Wide = unsigned __int128;
  for (;;) {
    const Wide product = static_cast<Wide>(engine()) * bound;
    const auto low = static_cast<std::uint64_t>(product);
    if (low >= bound || low >= (0 - bound) % bound) return static_cast<std::uint64_t>(product >> 64);
  }
}

// Marks `count` positions drawn uniformly without replacement from [first, last) (partial
// Fisher-Yates over the positions).
void draw_positions(std::size_t first, std::size_t last, std::size_t count, std::mt19937_64& engine,
                    std::vector<bool>& drawn) {
  std::vector<std::size_t> positions(last - first);
  for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = first + i;
  for (std::size_t i = 0; i < count && i < positions.size(); ++i) {
    const std::size_t j = i + static_cast<std::size_t>(uniform_below(engine, positions.size() - i));
    std::swap(positions[i], positions[j]);
    drawn[positions[i]] = true;
  }
}

}  // namespace

RatingTable::RatingTable(int user_count, int item_count, const std::vector<Rating>& ratings)
    : users(user_count), items(item_count), by_user(static_cast<std::size_t>(user_count)) {
  for (const Rating& r : ratings) {
    if (r.user < 0 || r.user >= users || r.item < 0 || r.item >= items)
      throw Error(fmt::format("rating (user {}, item {}) outside the {} x {} table", r.user, r.item, users, items));
    by_user[static_cast<std::size_t>(r.user)].emplace_back(r.item, r.value);
  }
  for (auto& row : by_user) {
    std::sort(row.begin(), row.end());
    for (std::size_t i = 1; i < row.size(); ++i)
      if (row[i].first == row[i - 1].first) throw Error(fmt::format("item {} rated twice by one user", row[i].first));
  }
}

std::size_t RatingTable::size() const {
  std::size_t n = 0;
  for (const auto& row : by_user) n += row.size();
  return n;
}

std::vector<Rating> RatingTable::ratings() const {
  std::vector<Rating> all;
  all.reserve(size());
  for (int u = 0; u < users; ++u)
    for (const auto& [item, value] : by_user[static_cast<std::size_t>(u)]) all.push_back({u, item, value});
  return all;
}

std::vector<Rating> to_ratings(const MovieLensData& data) {
  std::vector<Rating> ratings;
  ratings.reserve(data.ratings.size());
  for (const MovieLensRating& r : data.ratings) ratings.push_back({r.user - 1, r.item - 1, r.rating});
  std::sort(ratings.begin(), ratings.end(), by_user_then_item);
  return ratings;
}

GenreSets item_genres(const MovieLensData& data, bool drop_unknown) {
  GenreSets sets;
  std::vector<int> new_bit(data.genre_names.size(), -1);
  for (std::size_t g = 0; g < data.genre_names.size(); ++g) {
    if (drop_unknown && data.genre_names[g] == "unknown") continue;
    new_bit[g] = static_cast<int>(sets.names.size());
    sets.names.push_back(data.genre_names[g]);
  }
  for (const MovieLensItem& item : data.items) {
    std::uint32_t mask = 0;
    for (std::size_t g = 0; g < new_bit.size(); ++g)
      if (new_bit[g] >= 0 && (item.genres >> g & 1u)) mask |= std::uint32_t{1} << new_bit[g];
    sets.of_item.push_back(mask);
  }
  return sets;
}

HoldoutSplit holdout_split(std::vector<Rating> ratings, const HoldoutOptions& options) {
  if (!(options.test_fraction >= 0.0 && options.test_fraction < 1.0))
    throw Error(fmt::format("hold-out fraction {} is not in [0, 1)", options.test_fraction));
  std::sort(ratings.begin(), ratings.end(), by_user_then_item);
  std::mt19937_64 engine(options.seed);
  std::vector<bool> is_test(ratings.size(), false);
  auto draw = [&](std::size_t first, std::size_t last) {
    const auto count = static_cast<std::size_t>(std::llround(options.test_fraction * static_cast<double>(last - first)));
    draw_positions(first, last, count, engine, is_test);
  };
  if (options.per_user) {
    for (std::size_t first = 0; first < ratings.size();) {
      std::size_t last = first;
      while (last < ratings.size() && ratings[last].user == ratings[first].user) ++last;
      draw(first, last);
      first = last;
    }
  } else {
    draw(0, ratings.size());
  }
  HoldoutSplit split;
  for (std::size_t i = 0; i < ratings.size(); ++i) (is_test[i] ? split.test : split.train).push_back(ratings[i]);
  return split;
}

Eigen::MatrixXd cosine_item_similarity(const RatingTable& table) {
  const Eigen::Index n = table.items;
  Eigen::MatrixXd dot = Eigen::MatrixXd::Zero(n, n);
  // <r_i, r_j> accumulated user by user over the pairs of the user's items (upper triangle).
  for (const auto& row : table.by_user)
    for (std::size_t a = 0; a < row.size(); ++a) {
      const double ra = row[a].second;
      for (std::size_t b = a; b < row.size(); ++b) dot(row[a].first, row[b].first) += ra * row[b].second;
    }
  Eigen::VectorXd norm = dot.diagonal().cwiseSqrt();
  Eigen::MatrixXd similarity = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i <= j; ++i) {
      if (norm(i) == 0.0 || norm(j) == 0.0) continue;
      const double w = i == j ? 1.0 : std::min(1.0, dot(i, j) / (norm(i) * norm(j)));
      similarity(i, j) = w;
      similarity(j, i) = w;
    }
  return similarity;
}

Eigen::MatrixXd latent_item_similarity(const Eigen::MatrixXd& item_factors) {
  const Eigen::VectorXd norm = item_factors.rowwise().norm();
  Eigen::MatrixXd unit = item_factors;
  for (Eigen::Index i = 0; i < unit.rows(); ++i)
    if (norm(i) > 0.0) unit.row(i) /= norm(i);
  Eigen::MatrixXd similarity = (unit * unit.transpose()).cwiseMax(0.0).cwiseMin(1.0);
  // The product's two triangles may differ in the last bit: keep the upper one.
  for (Eigen::Index j = 0; j < similarity.cols(); ++j)
    for (Eigen::Index i = j + 1; i < similarity.rows(); ++i) similarity(i, j) = similarity(j, i);
  for (Eigen::Index i = 0; i < unit.rows(); ++i) similarity(i, i) = norm(i) > 0.0 ? 1.0 : 0.0;
  return similarity;
}

void require_symmetric(const Eigen::MatrixXd& similarity, const char* who) {
  if (similarity.rows() != similarity.cols())
    throw Error(fmt::format("{}: the similarity matrix is {} x {}, not square", who, similarity.rows(), similarity.cols()));
  for (Eigen::Index j = 0; j < similarity.cols(); ++j)
    for (Eigen::Index i = 0; i < j; ++i)
      if (similarity(i, j) != similarity(j, i))
        throw Error(fmt::format("{}: the similarity matrix is not symmetric (W({}, {}) != W({}, {}))", who, i, j, j, i));
}

std::vector<EclecticUser> user_eclecticism(const RatingTable& table, const Eigen::MatrixXd& similarity,
                                           const EclecticOptions& options) {
  std::vector<EclecticUser> users;
  for (int u = 0; u < table.users; ++u) {
    EclecticUser user;
    user.user = u;
    std::vector<int> items;
    for (const auto& [item, value] : table.by_user[static_cast<std::size_t>(u)]) {
      const bool relevant = value >= options.relevant_rating;
      user.relevant += relevant;
      if (relevant || !options.over_relevant_only) items.push_back(item);
    }
    double sum = 0.0;
    for (std::size_t a = 0; a < items.size(); ++a)
      for (std::size_t b = a + 1; b < items.size(); ++b) sum += similarity(items[a], items[b]);
    const double pairs = 0.5 * static_cast<double>(items.size()) * static_cast<double>(items.size() - 1);
    user.mean_similarity = items.size() >= 2 ? sum / pairs : 0.0;
    users.push_back(user);
  }
  return users;
}

std::vector<int> eclectic_users(const RatingTable& table, const Eigen::MatrixXd& similarity,
                                const EclecticOptions& options) {
  std::vector<int> selected;
  for (const EclecticUser& user : user_eclecticism(table, similarity, options))
    if (user.relevant >= options.min_relevant && user.mean_similarity < options.max_mean_similarity)
      selected.push_back(user.user);
  return selected;
}

}  // namespace mpg::diversity
