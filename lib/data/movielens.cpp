// MovieLens 100K and 1M readers: one pass per file over its lines, fields split on the file's separator
// and parsed with std::from_chars; every rejection names the file and line.
#include "lib/data/movielens.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <string_view>
#include <system_error>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"

namespace mpg {
namespace {

// Calls visit(line_number, line) for every line of `text` that is not blank (a trailing '\r'
// is dropped).
template <class Visit>
void for_each_line(const std::string& text, Visit visit) {
  long line_number = 0;
  std::size_t position = 0;
  while (position < text.size()) {
    std::size_t end = text.find('\n', position);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + position, end - position);
    position = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    visit(line_number, line);
  }
}

std::vector<std::string_view> split(std::string_view line, char separator) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto at = line.find(separator);
    fields.push_back(line.substr(0, at));
    if (at == std::string_view::npos) return fields;
    line.remove_prefix(at + 1);
  }
}

// Fields separated by a multi-character separator ("::" in MovieLens 1M).
std::vector<std::string_view> split(std::string_view line, std::string_view separator) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto at = line.find(separator);
    fields.push_back(line.substr(0, at));
    if (at == std::string_view::npos) return fields;
    line.remove_prefix(at + separator.size());
  }
}

// A parser bound to one line of one file: its errors read "<path>:<line>: <what>".
struct LineParser {
  const std::string& path;
  long line;

  [[noreturn]] void fail(const std::string& what) const { throw InputError(path, line, what); }

  template <class Integer>
  Integer integer(std::string_view field, std::string_view what, Integer low, Integer high) const {
    Integer value{};
    const char* const end = field.data() + field.size();
    const auto [stop, error] = std::from_chars(field.data(), end, value);
    if (field.empty() || error == std::errc::invalid_argument || stop != end)
      fail(fmt::format("{} is not an integer: {}", what, excerpt(field)));
    if (error == std::errc::result_out_of_range || value < low || value > high)
      fail(fmt::format("{} is {}, outside {}..{}", what, field, low, high));
    return value;
  }

  void expect_fields(const std::vector<std::string_view>& fields, std::size_t count,
                     std::string_view layout) const {
    if (fields.size() != count)
      fail(fmt::format("expected {} fields ({}), got {}", count, layout, fields.size()));
  }
};

// Parses every non-blank line of the file with parse(LineParser, line) -> Record; returns the
// records and their line numbers. An empty file is an error ("no <what> in the file").
template <class Record, class Parse>
std::pair<std::vector<Record>, std::vector<long>> parse_records(const std::string& path, std::string_view what,
                                                                Parse parse) {
  const std::string text = read_file(path);
  std::pair<std::vector<Record>, std::vector<long>> out;
  for_each_line(text, [&](long line, std::string_view content) {
    out.first.push_back(parse(LineParser{path, line}, content));
    out.second.push_back(line);
  });
  if (out.first.empty()) throw InputError(path, fmt::format("no {} in the file", what));
  return out;
}

// ISO-8859-1 bytes to UTF-8 (every byte is its own code point).
std::string latin1_to_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out.push_back(c);
    } else {
      out.push_back(static_cast<char>(0xC0 | (byte >> 6)));
      out.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
    }
  }
  return out;
}

// Sorts records by id and checks that the ids are exactly 1..N; `lines[i]` is the line of
// records[i] (for the error message).
template <class Record>
void sort_and_check_ids(std::vector<Record>& records, std::vector<long>& lines, const std::string& path,
                        std::string_view what) {
  std::vector<std::size_t> order(records.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return records[a].id < records[b].id; });
  std::vector<Record> sorted;
  sorted.reserve(records.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const Record& record = records[order[rank]];
    if (record.id != static_cast<int>(rank) + 1) {
      if (rank > 0 && record.id == sorted.back().id)
        throw InputError(path, lines[order[rank]], fmt::format("{} id {} appears twice", what, record.id));
      throw InputError(path, fmt::format("{} ids must be 1..{} without gaps; {} is missing", what,
                                         records.size(), rank + 1));
    }
    sorted.push_back(record);
  }
  records = std::move(sorted);
}

// Ratings sorted by (user, item); a repeated (user, item) pair is an error naming its line.
std::vector<MovieLensRating> sorted_ratings(const std::vector<MovieLensRating>& ratings, const std::vector<long>& lines,
                                            const std::string& path) {
  std::vector<std::size_t> order(ratings.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = ratings[a];
    const auto& y = ratings[b];
    return x.user != y.user ? x.user < y.user : x.item != y.item ? x.item < y.item : a < b;
  });
  std::vector<MovieLensRating> sorted;
  sorted.reserve(ratings.size());
  for (const std::size_t i : order) {
    if (!sorted.empty() && sorted.back().user == ratings[i].user && sorted.back().item == ratings[i].item)
      throw InputError(path, lines[i], fmt::format("user {} rates item {} twice", ratings[i].user, ratings[i].item));
    sorted.push_back(ratings[i]);
  }
  return sorted;
}

}  // namespace

std::vector<std::string> read_movielens_genres(const std::string& path) {
  const std::string text = read_file(path);
  std::vector<std::string> names;
  for_each_line(text, [&](long line, std::string_view content) {
    const LineParser parse{path, line};
    const auto fields = split(content, '|');
    parse.expect_fields(fields, 2, "name|index");
    if (fields[0].empty()) parse.fail("empty genre name");
    const int index = parse.integer(fields[1], "genre index", 0, std::numeric_limits<int>::max());
    if (index != static_cast<int>(names.size()))
      parse.fail(fmt::format("genre index {} out of order (expected {})", index, names.size()));
    names.emplace_back(fields[0]);
  });
  if (names.empty()) throw InputError(path, "no genres in the file");
  if (names.size() > 32) throw InputError(path, fmt::format("{} genres; at most 32 are supported", names.size()));
  return names;
}

std::vector<MovieLensItem> read_movielens_items(const std::string& path, std::size_t genre_count) {
  constexpr std::size_t kLeadingFields = 5;
  auto [items, lines] = parse_records<MovieLensItem>(path, "items", [&](const LineParser& parse, std::string_view content) {
    const auto fields = split(content, '|');
    parse.expect_fields(fields, kLeadingFields + genre_count,
                        fmt::format("id|title|release|video release|URL and {} genre flags", genre_count));
    MovieLensItem item;
    item.id = parse.integer(fields[0], "item id", 1, std::numeric_limits<int>::max());
    item.source_id = item.id;
    item.title = latin1_to_utf8(fields[1]);
    item.release_date = std::string(fields[2]);
    for (std::size_t g = 0; g < genre_count; ++g) {
      const int flag = parse.integer(fields[kLeadingFields + g], fmt::format("genre flag {}", g), 0, 1);
      if (flag == 1) item.genres |= std::uint32_t{1} << g;
    }
    return item;
  });
  sort_and_check_ids(items, lines, path, "item");
  return items;
}

std::vector<MovieLensUser> read_movielens_users(const std::string& path) {
  auto [users, lines] = parse_records<MovieLensUser>(path, "users", [](const LineParser& parse, std::string_view content) {
    const auto fields = split(content, '|');
    parse.expect_fields(fields, 5, "id|age|gender|occupation|zip");
    MovieLensUser user;
    user.id = parse.integer(fields[0], "user id", 1, std::numeric_limits<int>::max());
    user.age = parse.integer(fields[1], "age", 0, 150);
    if (fields[2] != "M" && fields[2] != "F") parse.fail(fmt::format("gender is {}, not M or F", excerpt(fields[2])));
    user.gender = fields[2].front();
    user.occupation = std::string(fields[3]);
    user.zip = std::string(fields[4]);
    return user;
  });
  sort_and_check_ids(users, lines, path, "user");
  return users;
}

std::vector<MovieLensRating> read_movielens_ratings(const std::string& path, int max_user, int max_item) {
  auto [ratings, lines] = parse_records<MovieLensRating>(path, "ratings", [&](const LineParser& parse, std::string_view content) {
    const auto fields = split(content, '\t');
    parse.expect_fields(fields, 4, "user, item, rating, timestamp separated by tabs");
    MovieLensRating rating;
    rating.user = parse.integer(fields[0], "user id", 1, max_user);
    rating.item = parse.integer(fields[1], "item id", 1, max_item);
    rating.rating = parse.integer(fields[2], "rating", 1, 5);
    rating.timestamp = parse.integer(fields[3], "timestamp", 0L, std::numeric_limits<long>::max());
    return rating;
  });
  return sorted_ratings(ratings, lines, path);
}

MovieLensData read_movielens(const MovieLensPaths& paths) {
  MovieLensData data;
  data.genre_names = read_movielens_genres(paths.genres);
  data.items = read_movielens_items(paths.items, data.genre_names.size());
  if (!paths.users.empty()) data.users = read_movielens_users(paths.users);
  // Ids beyond the item (user) list are rejected with the rating's line.
  data.ratings = read_movielens_ratings(
      paths.ratings, data.users.empty() ? std::numeric_limits<int>::max() : static_cast<int>(data.users.size()),
      static_cast<int>(data.items.size()));
  return data;
}

const std::vector<std::string> kMovieLens1mGenres = {
    "Action", "Adventure", "Animation", "Children's", "Comedy",   "Crime",   "Documentary", "Drama",   "Fantasy",
    "Film-Noir", "Horror", "Musical", "Mystery", "Romance", "Sci-Fi", "Thriller", "War",          "Western"};

MovieLensData read_movielens_1m(const MovieLens1mPaths& paths) {
  MovieLensData data;
  data.genre_names = kMovieLens1mGenres;
  auto [movies, movie_lines] =
      parse_records<MovieLensItem>(paths.movies, "movies", [&](const LineParser& parse, std::string_view content) {
        const auto fields = split(content, std::string_view("::"));
        parse.expect_fields(fields, 3, "MovieID::Title::Genres");
        MovieLensItem item;
        item.id = item.source_id = parse.integer(fields[0], "movie id", 1, std::numeric_limits<int>::max());
        item.title = latin1_to_utf8(fields[1]);
        for (const std::string_view name : split(fields[2], '|')) {
          const auto g = std::find(kMovieLens1mGenres.begin(), kMovieLens1mGenres.end(), name);
          if (g == kMovieLens1mGenres.end()) parse.fail(fmt::format("unknown genre {}", excerpt(name)));
          item.genres |= std::uint32_t{1} << (g - kMovieLens1mGenres.begin());
        }
        return item;
      });
  std::map<int, std::size_t> movie_of;  // MovieID -> position in `movies`
  for (std::size_t i = 0; i < movies.size(); ++i)
    if (!movie_of.emplace(movies[i].id, i).second)
      throw InputError(paths.movies, movie_lines[i], fmt::format("movie id {} appears twice", movies[i].id));
  if (!paths.users.empty()) {
    auto [users, user_lines] =
        parse_records<MovieLensUser>(paths.users, "users", [](const LineParser& parse, std::string_view content) {
          const auto fields = split(content, std::string_view("::"));
          parse.expect_fields(fields, 5, "UserID::Gender::Age::Occupation::Zip-code");
          MovieLensUser user;
          user.id = parse.integer(fields[0], "user id", 1, std::numeric_limits<int>::max());
          if (fields[1] != "M" && fields[1] != "F") parse.fail(fmt::format("gender is {}, not M or F", excerpt(fields[1])));
          user.gender = fields[1].front();
          user.age = parse.integer(fields[2], "age", 0, 150);
          user.occupation = std::to_string(parse.integer(fields[3], "occupation", 0, 1000));
          user.zip = std::string(fields[4]);
          return user;
        });
    sort_and_check_ids(users, user_lines, paths.users, "user");
    data.users = std::move(users);
  }
  const int max_user = data.users.empty() ? std::numeric_limits<int>::max() : static_cast<int>(data.users.size());
  auto [ratings, lines] =
      parse_records<MovieLensRating>(paths.ratings, "ratings", [&](const LineParser& parse, std::string_view content) {
        const auto fields = split(content, std::string_view("::"));
        if (fields.size() != 3 && fields.size() != 4)
          parse.fail(fmt::format("expected 3 or 4 fields (UserID::MovieID::Rating[::Timestamp]), got {}", fields.size()));
        MovieLensRating rating;
        rating.user = parse.integer(fields[0], "user id", 1, max_user);
        rating.item = parse.integer(fields[1], "movie id", 1, std::numeric_limits<int>::max());
        if (!movie_of.count(rating.item)) parse.fail(fmt::format("movie id {} is not in {}", rating.item, paths.movies));
        rating.rating = parse.integer(fields[2], "rating", 1, 5);
        if (fields.size() == 4) rating.timestamp = parse.integer(fields[3], "timestamp", 0L, std::numeric_limits<long>::max());
        return rating;
      });
  // The catalog: the rated movies, renumbered 1..N in MovieID order.
  std::map<int, int> item_of;
  for (const MovieLensRating& r : ratings) item_of.emplace(r.item, 0);
  for (auto& [movie, item] : item_of) {
    item = static_cast<int>(data.items.size()) + 1;
    data.items.push_back(movies[movie_of.at(movie)]);
    data.items.back().id = item;
  }
  // Sorted (and checked for repeats) on MovieIDs; the renumbering keeps their order.
  data.ratings = sorted_ratings(ratings, lines, paths.ratings);
  for (MovieLensRating& r : data.ratings) r.item = item_of.at(r.item);
  return data;
}

}  // namespace mpg
