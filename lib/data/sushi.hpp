// Reader of the SUSHI preference data (Kamishima 2003; sushi3) as labeled comparison pairs for
// SVMcompare §4.2 (seed 004): sushi3b.5000.10.score (5,000 users x 100 items, scores 0..4, -1 =
// not rated), sushi3.idata (item features) and sushi3.udata (user features).
// Pairing rule (the authors' code [C]): for each user, order the rated items by (score, item id)
// ascending and pair them off from the lowest, (x, x') = (item 2k, item 2k + 1), so each user's 10
// rated items give 5 disjoint pairs with y = sign(score' - score) in {0, 1}; all 5,000 users give
// 25,000 pairs, 17,832 of them with y = 0. A user with an odd number of rated items loses the last.
// Features (p = 14): the item's style, major group, minor group, oiliness, eating frequency,
// normalized price and selling frequency (idata columns 3-9), then the user's gender, age, time
// to fill the form, and latitude / longitude of the prefecture lived in until 15 and of the
// current one (prefecture capitals; "foreign countries", id 47, gets the mean of the 47
// capitals). The user block is the same in x and x'.
#pragma once

#include <string>
#include <vector>

#include "lib/data/pairs.hpp"

namespace mpg {

struct SushiPairs {
  PairData pairs;
  std::vector<std::size_t> user;           // row of the user in the score file, per pair
  std::vector<int> first_item, second_item;  // item ids (0..99)
};

// Throws mpg::InputError "<path>:<line>: <what>" for a malformed line (wrong number of fields, a
// score outside -1..4, an unknown item or prefecture id) or files that do not match (score rows
// vs users, 100 items).
SushiPairs read_sushi_pairs(const std::string& scores_path, const std::string& items_path,
                            const std::string& users_path);

// Latitude and longitude (degrees) of the capital of sushi3's prefecture id 0..46; 47 (foreign
// countries) gives the mean of the 47. Throws mpg::Error for another id.
std::pair<double, double> sushi_prefecture_location(int prefecture);

}  // namespace mpg
