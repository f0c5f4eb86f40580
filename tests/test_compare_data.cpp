// Data of the SVMcompare family: the sushi3 pair reader (lib/data/sushi) and the chess game reader
// (lib/data/chess_games) on fixtures written here, with their error messages; the Elo and Glicko
// updaters (lib/features/ratings) against hand computation and Glickman's (1999) worked example;
// the shared sushi3 and Kaggle chess files when the data directory is present.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <functional>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/sha256.hpp"
#include "lib/data/chess_games.hpp"
#include "lib/data/sushi.hpp"
#include "lib/features/chess_features.hpp"
#include "lib/features/ratings.hpp"
#include "lib/harness/experiment.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using Catch::Matchers::Contains;
using mpg::testing::TempDir;

namespace {

std::string input_error(const std::function<void()>& read) {
  try {
    read();
  } catch (const mpg::InputError& e) {
    return e.what();
  }
  return "";
}

// 100 items whose features are (id mod 2, 0, id mod 12, id / 10, 1.5, id / 100, 0.5).
std::string items_file() {
  std::string text = "#name style major-group minor-group heaviness frequence-eaten price frequence-sold\n\n";
  for (int id = 0; id < 100; ++id)
    text += std::to_string(id) + "\tname\t" + std::to_string(id % 2) + "\t0\t" + std::to_string(id % 12) + "\t" +
            std::to_string(id / 10) + "\t1.5\t" + std::to_string(id / 100.0) + "\t0.5\n";
  return text;
}

std::string score_row(const std::vector<std::pair<int, int>>& rated) {
  std::vector<int> scores(100, -1);
  for (const auto& [item, score] : rated) scores[static_cast<std::size_t>(item)] = score;
  std::string text;
  for (int s : scores) text += std::to_string(s) + " ";
  text.back() = '\n';
  return text;
}

}  // namespace

TEST_CASE("sushi pairs: pairing rule, features and labels on a fixture", "[compare_data]") {
  TempDir dir("sushi");
  const std::string items = dir.write("items", items_file());
  const std::string users = dir.write("users", "7\t1\t2\t300\t13\t3\t0\t47\t11\t1\t1\n8\t0\t0\t100\t0\t0\t0\t0\t0\t0\t0\n");
  // User 0 rates items 5 (3), 9 (1), 2 (3), 40 (0): sorted (0, 40) (1, 9) (3, 2) (3, 5) ->
  // pairs (40, 9) y = 1 and (2, 5) y = 0. User 1 rates 3 items: (7, 8) y = 1, item 1 left over.
  const std::string scores = dir.write("scores", score_row({{5, 3}, {9, 1}, {2, 3}, {40, 0}}) +
                                                     score_row({{7, 0}, {8, 2}, {1, 4}}));
  const mpg::SushiPairs s = mpg::read_sushi_pairs(scores, items, users);
  REQUIRE(s.pairs.size() == 3);
  CHECK(s.pairs.features() == 14);
  CHECK(s.first_item == std::vector<int>{40, 2, 7});
  CHECK(s.second_item == std::vector<int>{9, 5, 8});
  CHECK(s.pairs.labels == std::vector<int>{1, 0, 1});
  CHECK(s.user == std::vector<std::size_t>{0, 0, 1});
  // Item block of x for item 40: (0, 0, 4, 4, 1.5, 0.4, 0.5); user block: gender 1, age 2, time 300,
  // Tokyo (13) and foreign (47 -> mean of the capitals).
  CHECK(s.pairs.first(0, 2) == 4.0);
  CHECK(s.pairs.first(0, 5) == Approx(0.4));
  CHECK(s.pairs.first(0, 7) == 1.0);
  CHECK(s.pairs.first(0, 9) == 300.0);
  CHECK(s.pairs.first(0, 10) == Approx(35.69));
  CHECK(s.pairs.first(0, 11) == Approx(139.69));
  CHECK(s.pairs.first(0, 12) == Approx(mpg::sushi_prefecture_location(47).first));
  CHECK(s.pairs.second.row(0).tail(7) == s.pairs.first.row(0).tail(7));
  CHECK(s.pairs.first(2, 10) == Approx(43.06));  // Hokkaido

  CHECK_THAT(input_error([&] { mpg::read_sushi_pairs(dir.write("bad", score_row({{1, 5}})), items, users); }),
             Contains("bad:1: bad score \"5\""));
  CHECK_THAT(input_error([&] { mpg::read_sushi_pairs(dir.write("short", "1 2 3\n"), items, users); }),
             Contains("short:1: expected 100 scores, got 3"));
  CHECK_THAT(input_error([&] { mpg::read_sushi_pairs(scores, items, dir.write("u", "7\t1\t2\t300\t13\t3\t0\t48\t11\t1\t1\n")); }),
             Contains("u:1: bad prefecture \"48\""));
  CHECK_THAT(input_error([&] { mpg::read_sushi_pairs(scores, dir.write("i", "0\tx\t1\n"), users); }),
             Contains("i:1: expected 9 tab-separated fields"));
  CHECK_THAT(input_error([&] { mpg::read_sushi_pairs(scores, items, dir.write("one", "7\t1\t2\t300\t13\t3\t0\t47\t11\t1\t1\n")); }),
             Contains("more score rows than the 1 users"));
}

TEST_CASE("chess games: reader, labels and errors", "[compare_data]") {
  TempDir dir("chess");
  const std::string file = dir.write("games.csv", "\"Month #\",\"White Player #\",\"Black Player #\",\"Score\"\n1,73,1246,0.5\n2,5,6,1\r\n3,6,5,0\n");
  const auto games = mpg::read_chess_games(file);
  REQUIRE(games.size() == 3);
  CHECK(games[0].month == 1);
  CHECK(games[0].white == 73);
  CHECK(games[0].black == 1246);
  CHECK(games[0].score == 0.5);
  CHECK(mpg::chess_label(games[0].score) == 0);
  CHECK(mpg::chess_label(games[1].score) == -1);
  CHECK(mpg::chess_label(games[2].score) == 1);
  CHECK_THAT(input_error([&] { mpg::read_chess_games(dir.write("a", "1,2,3,0.7\n")); }), Contains("a:1: bad score \"0.7\""));
  CHECK_THAT(input_error([&] { mpg::read_chess_games(dir.write("b", "1,2,3,1\n1,2,2,1\n")); }), Contains("b:2: player 2 plays himself"));
  CHECK_THAT(input_error([&] { mpg::read_chess_games(dir.write("c", "1,2,3\n")); }), Contains("c:1: expected 4 comma-separated fields, got 3"));
  CHECK_THAT(input_error([&] { mpg::read_chess_games(dir.write("d", "1,2,3,1\nx,2,3,1\n")); }), Contains("d:2: bad month \"x\""));
  CHECK_THAT(input_error([&] { mpg::read_chess_games(dir.write("e", "\"Month #\",\"W\",\"B\",\"Score\"\n")); }), Contains("e: no games"));
}

TEST_CASE("Elo: FIDE K factors, period updates independent of game order", "[compare_data]") {
  mpg::EloRatings elo;
  CHECK(elo.expected_score(1, 2) == 0.5);
  elo.update({{1, 1, 2, 1.0}});
  CHECK(elo.rating(1) == Approx(1215.0));  // K = 30 for a new player
  CHECK(elo.rating(2) == Approx(1185.0));
  CHECK(elo.games(1) == 1);
  mpg::EloRatings experienced;
  experienced.set(1, 2000.0, 40);
  experienced.set(2, 2450.0, 100);  // elite: K = 10
  const double e = 1.0 / (1.0 + std::pow(10.0, 450.0 / 400.0));
  experienced.update({{1, 1, 2, 0.5}});
  CHECK(experienced.rating(1) == Approx(2000.0 + 15.0 * (0.5 - e)));
  CHECK(experienced.rating(2) == Approx(2450.0 - 10.0 * (0.5 - e)));
  // The same period in two orders.
  const std::vector<mpg::ChessGame> period = {{1, 1, 2, 1.0}, {1, 2, 3, 0.5}, {1, 3, 1, 0.0}, {1, 1, 2, 0.5}};
  std::vector<mpg::ChessGame> reversed(period.rbegin(), period.rend());
  mpg::EloRatings a, b;
  a.update(period);
  b.update(reversed);
  for (int p = 1; p <= 3; ++p) CHECK(a.rating(p) == b.rating(p));
}

TEST_CASE("Elo after every match: a hand-worked sequence with FIDE's K = 30 / 15 / 10", "[compare_data]") {
  // Game 1 (new players at 1200, K = 30): E = 1 / (1 + 10^0) = 0.5; player 1 wins:
  //   R1 = 1200 + 30 (1 - 0.5) = 1215, R2 = 1200 + 30 (0 - 0.5) = 1185.
  // Game 2 (player 2 white, a draw): E2 = 1 / (1 + 10^((1215 - 1185) / 400)) = 1 / (1 + 10^0.075)
  //   = 1 / 2.1885022274 = 0.4569335080; R2 = 1185 + 30 (0.5 - 0.4569335080) = 1186.2919947607,
  //   R1 = 1215 - 1.2919947607 = 1213.7080052393.
  mpg::EloRatings elo;
  elo.update({{1, 1, 2, 1.0}});
  CHECK(elo.rating(1) == Approx(1215.0).epsilon(1e-12));
  CHECK(elo.rating(2) == Approx(1185.0).epsilon(1e-12));
  elo.update({{1, 2, 1, 0.5}});
  CHECK(elo.rating(2) == Approx(1186.2919947607).epsilon(1e-11));
  CHECK(elo.rating(1) == Approx(1213.7080052393).epsilon(1e-11));
  CHECK(elo.games(1) == 2);
  // The same two games as one monthly period both read 1200 - 1200: the draw moves nothing.
  mpg::EloRatings monthly;
  monthly.update({{1, 1, 2, 1.0}, {1, 2, 1, 0.5}});
  CHECK(monthly.rating(1) == Approx(1215.0).epsilon(1e-12));
  CHECK(monthly.rating(2) == Approx(1185.0).epsilon(1e-12));
  // K = 25 for new players (FIDE before 2011): 1200 + 25 / 2 = 1212.5.
  mpg::EloOptions old_rule;
  old_rule.k_new = 25.0;
  mpg::EloRatings before_2011(old_rule);
  before_2011.update({{1, 1, 2, 1.0}});
  CHECK(before_2011.rating(1) == Approx(1212.5).epsilon(1e-12));
  // K = 15 once 30 games are played: player 1 has 29, so this game is still K = 30, the next K = 15.
  mpg::EloRatings thirty;
  thirty.set(1, 1500.0, 29);
  thirty.set(2, 1500.0, 100);
  thirty.update({{1, 1, 2, 1.0}});
  CHECK(thirty.rating(1) == Approx(1515.0).epsilon(1e-12));  // 1500 + 30 * 0.5
  CHECK(thirty.rating(2) == Approx(1492.5).epsilon(1e-12));  // 1500 - 15 * 0.5
  // Elite, K = 10 "for players who have reached 2400", also after falling below it:
  //   A = B = 2395, 40 games (K = 15); A wins: A = 2402.5 (elite), B = 2387.5.
  //   A loses: E_A = 1 / (1 + 10^(-15 / 400)) = 0.5215733331; A = 2402.5 - 10 E_A = 2397.2842666695,
  //   B = 2387.5 + 15 E_A = 2395.3236000. A draws: E_A = 1 / (1 + 10^((2395.3236 - 2397.2842667) / 400))
  //   = 0.5028215962; A = 2397.2842666695 + 10 (0.5 - E_A) = 2397.2560507074 (K = 10 below 2400).
  mpg::EloRatings elite;
  elite.set(1, 2395.0, 40);
  elite.set(2, 2395.0, 40);
  elite.update({{1, 1, 2, 1.0}});
  CHECK(elite.rating(1) == Approx(2402.5).epsilon(1e-12));
  elite.update({{2, 1, 2, 0.0}});
  CHECK(elite.rating(1) == Approx(2397.2842666695).epsilon(1e-11));
  CHECK(elite.rating(2) == Approx(2395.3236000).epsilon(1e-10));
  elite.update({{3, 1, 2, 0.5}});
  CHECK(elite.rating(1) == Approx(2397.2560507074).epsilon(1e-11));
  CHECK(elite.rating(2) == Approx(2395.3659239389).epsilon(1e-11));  // K = 15: + 15 (0.5 - 0.4971784038)
}

TEST_CASE("Glicko after every match: a hand-worked sequence, RD inflated per month", "[compare_data]") {
  // q = ln 10 / 400 = 0.0057564627; g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2); g(300) = 0.7242354637.
  // Match 1, month 1 (both new: 1200, RD 300), player 1 beats player 2: E = 0.5,
  //   1/d^2 = q^2 g^2 E (1 - E) = 4.34523e-6, 1/RD'^2 = 1/300^2 + 1/d^2 -> RD' = 254.3588805439,
  //   r1' = 1200 + q RD'^2 g (1 - 0.5) = 1334.8650130551, r2' = 1065.1349869449.
  mpg::GlickoRatings glicko;
  glicko.update(1, {{1, 1, 2, 1.0}});
  CHECK(glicko.rating(1) == Approx(1334.8650130551).epsilon(1e-11));
  CHECK(glicko.rating(2) == Approx(1065.1349869449).epsilon(1e-11));
  CHECK(glicko.deviation(1) == Approx(254.3588805439).epsilon(1e-11));
  // Match 2, same month (no inflation: t = 0), player 2 white draws: g(254.36) = 0.7781056339,
  //   E_2 = 1 / (1 + 10^(-g (1065.135 - 1334.865) / 400)) -> r2 = 1128.7469238265,
  //   r1 = 1271.2530761735, both RD 229.3571031774.
  glicko.update(1, {{1, 2, 1, 0.5}});
  CHECK(glicko.rating(1) == Approx(1271.2530761735).epsilon(1e-11));
  CHECK(glicko.rating(2) == Approx(1128.7469238265).epsilon(1e-11));
  CHECK(glicko.deviation(2) == Approx(229.3571031774).epsilon(1e-11));
  // Match 3, month 3 (two months later): RD = sqrt(229.357^2 + 15^2 * 2) = 230.3360171096 first;
  //   player 2 white wins: r1 = 1141.8639661753, r2 = 1258.1360338247, RD 205.4281641185.
  glicko.update(3, {{3, 2, 1, 1.0}});
  CHECK(glicko.rating(1) == Approx(1141.8639661753).epsilon(1e-11));
  CHECK(glicko.rating(2) == Approx(1258.1360338247).epsilon(1e-11));
  CHECK(glicko.deviation(1) == Approx(205.4281641185).epsilon(1e-11));
}

TEST_CASE("Glicko reproduces Glickman's (1999) worked example", "[compare_data]") {
  mpg::GlickoRatings glicko;
  glicko.set(1, 1500.0, 200.0, 1);
  glicko.set(2, 1400.0, 30.0, 1);
  glicko.set(3, 1550.0, 100.0, 1);
  glicko.set(4, 1700.0, 300.0, 1);
  glicko.update(1, {{1, 1, 2, 1.0}, {1, 1, 3, 0.0}, {1, 4, 1, 1.0}});
  CHECK(glicko.rating(1) == Approx(1464.0).margin(0.5));
  CHECK(glicko.deviation(1) == Approx(151.4).margin(0.5));
  // RD grows with c^2 per idle period up to the cap.
  mpg::GlickoRatings idle;
  idle.set(1, 1500.0, 50.0, 1);
  idle.set(2, 1500.0, 50.0, 1);
  CHECK(idle.expected_score(1, 2) == Approx(0.5));
  idle.update(101, {{101, 1, 2, 0.5}});
  CHECK(idle.deviation(1) < std::sqrt(50.0 * 50.0 + 15.0 * 15.0 * 100.0));
  CHECK(idle.deviation(1) > 50.0);
}

TEST_CASE("chess yearly splits, earlier protocol: month-start features, filters, order independence", "[compare_data]") {
  // Players 1-3 meet every month; player 9 appears once in month 6. Year = 6 months, train = 2.
  std::vector<mpg::ChessGame> games;
  for (int month = 1; month <= 12; ++month) {
    games.push_back({month, 1, 2, 1.0});
    games.push_back({month, 2, 3, 0.5});
    games.push_back({month, 3, 1, month % 2 ? 0.0 : 0.5});
  }
  games.push_back({6, 9, 1, 1.0});
  mpg::ChessYearOptions options;
  options.months_per_year = 6;
  options.train_months = 2;
  options.min_games = 4;
  options.history = mpg::ChessHistory::all;
  options.count = mpg::ChessGameCount::history;
  options.updates = mpg::RatingUpdates::month;
  const auto years = mpg::chess_year_splits(games, 2, options);
  REQUIRE(years.size() == 2);
  // Year 0: month 1 games are everyone's first game (dropped); month 2 trains; months 3-6 test,
  // where player 9 (1 game) is filtered out.
  CHECK(years[0].train.size() == 3);
  CHECK(years[0].test.size() == 12);
  CHECK(years[0].games_before_filter == 19);
  CHECK(years[1].train.size() == 6);
  const mpg::PairData& train = years[0].train;
  // First pair of month 2: white 1 vs black 2 after one month in which 1 beat 2 and won vs 3.
  CHECK(train.labels[0] == -1);
  CHECK(train.first(0, 5) == 2.0);   // games of player 1 so far
  CHECK(train.first(0, 6) == 2.0);   // wins
  CHECK(train.first(0, 11) == 1.0);  // net score against player 2
  CHECK(train.second(0, 11) == -1.0);
  CHECK(train.first(0, 14) == 1.0);  // white moves first
  CHECK(train.second(0, 14) == 0.0);
  CHECK(train.first(0, 0) > 1200.0);
  CHECK(years[0].train_elo[0] < 0.0);  // black (2) is rated below white (1)
  // The order of the games in the input does not matter.
  std::vector<mpg::ChessGame> reversed(games.rbegin(), games.rend());
  const auto again = mpg::chess_year_splits(reversed, 2, options);
  CHECK(again[0].test.first == years[0].test.first);
  CHECK(again[1].train.second == years[1].train.second);
  CHECK(mpg::chess_year_splits(games, 3, options)[2].test.size() == 0);  // months 13-18: no games
  CHECK(mpg::chess_feature_names().size() == 16);
}

TEST_CASE("chess yearly splits, the paper's protocol: the training-window player filter", "[compare_data]") {
  // Years of 6 months, train = the first 2, a player needs 2 games in the train window.
  const std::vector<mpg::ChessGame> games = {
      {1, 1, 2, 1.0}, {1, 2, 3, 0.5}, {1, 4, 1, 1.0},      // year 0, train
      {2, 1, 2, 0.5}, {2, 3, 1, 0.0},                      // year 0, train
      {3, 2, 1, 0.5}, {3, 5, 1, 1.0}, {4, 3, 2, 1.0},      // year 0, test
      {5, 6, 2, 0.5}, {6, 6, 3, 0.0},                      // year 0, test
      {7, 1, 2, 1.0}, {7, 2, 3, 0.5}, {7, 6, 1, 1.0},      // year 1, train
      {8, 1, 3, 0.5}, {8, 2, 1, 0.0},                      // year 1, train
      {9, 6, 2, 1.0}, {9, 1, 2, 0.5}};                     // year 1, test
  mpg::ChessYearOptions options;
  options.months_per_year = 6;
  options.train_months = 2;
  options.min_games = 2;
  const auto years = mpg::chess_year_splits(games, 2, options);
  // Year 0: train-window games 1: 4, 2: 3, 3: 2, 4: 1 -> players 1-3 kept, the games of 4, 5, 6
  // dropped. Month 1's games hold everyone's first game of the walk: dropped from train.
  CHECK(years[0].games_before_filter == 10);
  CHECK(years[0].kept_players == 3);
  REQUIRE(years[0].train.size() == 2);  // (1, 2, draw) and (3, 1, 0) of month 2
  REQUIRE(years[0].test.size() == 2);   // (2, 1, draw) and (3, 2, 1)
  CHECK(years[0].test.labels == std::vector<int>{0, -1});
  // The walk starts at 1200 and sees only kept games (not 4 beating 1), updated after every game:
  // 1 beat 2 (1215 / 1185), then 2 drew 3 at 1185 vs 1200: E = 1 / (1 + 10^(15/400)) = 0.4784266669,
  // R2 = 1185 + 30 (0.5 - E) = 1185.6471999915.
  CHECK(years[0].train.first(0, 0) == Approx(1215.0).epsilon(1e-12));
  CHECK(years[0].train.second(0, 0) == Approx(1185.6471999915).epsilon(1e-11));
  CHECK(years[0].train.first(0, 5) == 1.0);  // player 1's games so far in the walk
  CHECK(years[0].train_elo[0] < 0.0);
  // Year 1: player 6 has 1 game in its train window (3 up to its end): filtered out.
  CHECK(years[1].kept_players == 3);
  CHECK(years[1].train.size() == 2);
  CHECK(years[1].test.size() == 1);
  // Counting games over the whole history keeps 6 (his first game of the walk is dropped).
  mpg::ChessYearOptions history_count = options;
  history_count.count = mpg::ChessGameCount::history;
  const auto counted = mpg::chess_year_splits(games, 2, history_count);
  CHECK(counted[1].train.size() == 2);
  CHECK(counted[1].test.size() == 2);
  // Monthly updates: both month-1 games read 1200, so 2 stands at 1185 in month 2.
  mpg::ChessYearOptions monthly = options;
  monthly.updates = mpg::RatingUpdates::month;
  CHECK(mpg::chess_year_splits(games, 1, monthly)[0].train.second(0, 0) == Approx(1185.0).epsilon(1e-12));
  // The whole file's history: player 4's win over 1 lowers 1 below 1215.
  mpg::ChessYearOptions all = options;
  all.history = mpg::ChessHistory::all;
  CHECK(mpg::chess_year_splits(games, 1, all)[0].train.first(0, 0) < 1215.0);
  // The 3/9 split of the authors' readme: month 3 trains.
  mpg::ChessYearOptions three = options;
  three.train_months = 3;
  const auto three_nine = mpg::chess_year_splits(games, 1, three);
  CHECK(three_nine[0].train_months.back() == 3);
  CHECK(three_nine[0].test_months.front() == 4);
  // A permuted file gives the same data sets.
  std::vector<mpg::ChessGame> reversed(games.rbegin(), games.rend());
  const auto again = mpg::chess_year_splits(reversed, 2, options);
  CHECK(again[0].train.first == years[0].train.first);
  CHECK(again[1].test.second == years[1].test.second);
}

TEST_CASE("shared sushi3 and Kaggle chess files", "[compare_data_shared]") {
  const std::string dir = mpg::harness::data_directory();
  if (!std::filesystem::exists(dir + "/sushi3/sushi3b.5000.10.score.gz")) {
    MPG_SKIP("sushi3 not found under " << dir);
  }
  const mpg::SushiPairs s = mpg::read_sushi_pairs(dir + "/sushi3/sushi3b.5000.10.score.gz", dir + "/sushi3/sushi3.idata",
                                                  dir + "/sushi3/sushi3.udata");
  CHECK(s.pairs.size() == 25000);  // §4.2: 17,832 equality + 7,168 inequality pairs
  CHECK(s.pairs.count(0) == 17832);
  CHECK(s.pairs.count(1) == 7168);
  CHECK(s.pairs.features() == 14);
  const auto games = mpg::read_chess_games(dir + "/chess_kaggle_elo2010/training_data.csv");
  CHECK(games.size() == 65053);
  std::size_t draws = 0;
  for (const auto& g : games) draws += g.score == 0.5;
  CHECK(draws == 28666);
  // The paper's protocol on eight yearly sets (months 1-96): the training-window filter leaves
  // few pairs (counted independently of this code from the file).
  const auto years = mpg::chess_year_splits(games, 8);
  REQUIRE(years.size() == 8);
  const std::size_t train[] = {211, 28, 43, 79, 87, 56, 95, 109}, test[] = {72, 10, 1, 60, 44, 36, 40, 87};
  for (std::size_t y = 0; y < years.size(); ++y) {
    INFO("year " << y);
    CHECK(years[y].train.size() == train[y]);
    CHECK(years[y].test.size() == test[y]);
  }
  // The earlier protocol (all history, monthly updates): hundreds to thousands of pairs a year.
  mpg::ChessYearOptions earlier;
  earlier.history = mpg::ChessHistory::all;
  earlier.count = mpg::ChessGameCount::history;
  earlier.updates = mpg::RatingUpdates::month;
  for (const auto& year : mpg::chess_year_splits(games, 8, earlier)) {
    INFO("year " << year.year << ": " << year.train.size() << " train, " << year.test.size() << " test pairs");
    CHECK(year.train.size() > 100);
    CHECK(year.test.size() > 50);
    CHECK(year.train.count(0) > 0);
  }
}

TEST_CASE("registry entries of the comparison and AUC data have a size, sha256 and url", "[compare_data]") {
  const auto& registry = mpg::harness::dataset_registry();
  for (const char* name : {"sushi3", "chess_kaggle_elo2010", "multilabel_mulan"}) {
    REQUIRE(registry.contains(name));
    for (const auto& [variant, parts] : registry[name]["variants"].items())
      for (const auto& [part, file] : parts.items()) {
        if (!file.is_object() || !file.contains("file")) continue;
        INFO(name << " " << variant << " " << part);
        CHECK(file["sha256"].get<std::string>().size() == 64);
        CHECK(file.contains("url"));
        CHECK(file.contains("bytes"));
      }
  }
}

TEST_CASE("registry entries of the comparison and AUC data verify against the shared files",
          "[compare_data_shared]") {
  const std::string dir = mpg::harness::data_directory();
  const auto& registry = mpg::harness::dataset_registry();
  std::size_t checked = 0;
  for (const char* name : {"sushi3", "chess_kaggle_elo2010", "multilabel_mulan"})
    for (const auto& [variant, parts] : registry[name]["variants"].items())
      for (const auto& [part, file] : parts.items()) {
        if (!file.is_object() || !file.contains("file")) continue;
        const std::string path = dir + "/" + file["file"].get<std::string>();
        if (!std::filesystem::exists(path)) continue;
        INFO(path);
        CHECK(std::filesystem::file_size(path) == file["bytes"].get<std::uintmax_t>());
        CHECK(mpg::sha256_hex(mpg::read_file(path)) == file["sha256"].get<std::string>());
        ++checked;
      }
  if (checked == 0) MPG_SKIP("none of their files is under " << dir);
}
