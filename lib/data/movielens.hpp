// Readers of the MovieLens 100K and 1M files (GroupLens ml-100k; Harper and Konstan 2015):
//     u.data   user <tab> item <tab> rating <tab> timestamp          (ratings 1..5)
//     u.item   id|title|release date|video release date|IMDb URL|g_0|...|g_{G-1}   (ISO-8859-1)
//     u.genre  name|index                                             (index 0..G-1 in order)
//     u.user   id|age|gender|occupation|zip
// Compressed copies (.gz, .xz) are read through read_file. Every malformed line is an
// mpg::InputError "<path>:<line>: <what>". Ids are 1-based and must cover 1..N without gaps
// (in any line order); ratings are returned sorted by (user, item), so nothing downstream
// depends on the order of the lines of a file.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mpg {

struct MovieLensRating {
  int user = 0;    // 1-based id, as in the file
  int item = 0;    // 1-based id
  int rating = 0;  // 1..5
  long timestamp = 0;
};

struct MovieLensItem {
  int id = 0;
  std::string title;         // converted from ISO-8859-1 to UTF-8
  std::string release_date;  // as printed (may be empty)
  std::uint32_t genres = 0;  // bit g set <=> the item has genre g of the genre list
  int source_id = 0;         // the id in the file (MovieLens 1M renumbers its rated movies 1..N)
};

struct MovieLensUser {
  int id = 0;
  int age = 0;
  char gender = 'M';  // 'M' or 'F'
  std::string occupation;
  std::string zip;
};

struct MovieLensData {
  std::vector<std::string> genre_names;  // index g = bit g of MovieLensItem::genres
  std::vector<MovieLensItem> items;      // items[i].id == i + 1
  std::vector<MovieLensUser> users;      // users[u].id == u + 1 (empty if no u.user was read)
  std::vector<MovieLensRating> ratings;  // sorted by (user, item), no (user, item) twice
};

// u.genre: lines "name|index" with indices 0, 1, 2, ... in order; blank lines are skipped.
std::vector<std::string> read_movielens_genres(const std::string& path);

// u.item with `genre_count` genre flags (0 or 1) per line; returns the items sorted by id.
std::vector<MovieLensItem> read_movielens_items(const std::string& path, std::size_t genre_count);

// u.user; returns the users sorted by id.
std::vector<MovieLensUser> read_movielens_users(const std::string& path);

// u.data; returns the ratings sorted by (user, item). A repeated (user, item) pair is an error,
// and so is a user id above max_user or an item id above max_item.
std::vector<MovieLensRating> read_movielens_ratings(const std::string& path,
                                                    int max_user = std::numeric_limits<int>::max(),
                                                    int max_item = std::numeric_limits<int>::max());

struct MovieLensPaths {
  std::string ratings;  // u.data (or u.data.xz)
  std::string items;    // u.item
  std::string genres;   // u.genre
  std::string users;    // u.user; empty: not read
};

// Reads the files and checks that they agree: every rating names a listed item (and, with
// u.user, a listed user). Throws mpg::InputError naming the file and line otherwise.
MovieLensData read_movielens(const MovieLensPaths& paths);

// MovieLens 1M (GroupLens ml-1m), fields separated by "::":
//     ratings.dat  UserID::MovieID::Rating[::Timestamp]   (the copy without timestamps has 3 fields)
//     movies.dat   MovieID::Title::Genre|Genre|...         (ISO-8859-1; genres named as in kMovieLens1mGenres)
//     users.dat    UserID::Gender::Age::Occupation::Zip-code
// The catalog is the rated movies (ml-1m lists 3,883 movies, 3,706 of them rated; the thesis counts
// 3,706): items are the movies with at least one rating, renumbered 1..N in MovieID order
// (source_id keeps the MovieID). Users must be 1..N without gaps. A rating of a movie or user the
// other files do not list, a repeated (user, movie) pair, a rating outside 1..5 or an id that is not
// a positive integer is an mpg::InputError naming the file and line.
extern const std::vector<std::string> kMovieLens1mGenres;  // the 18 genres of the ml-1m README, in its order

struct MovieLens1mPaths {
  std::string ratings;  // ratings.dat (or a .xz / .gz copy)
  std::string movies;   // movies.dat
  std::string users;    // users.dat; empty: not read
};
MovieLensData read_movielens_1m(const MovieLens1mPaths& paths);

}  // namespace mpg
