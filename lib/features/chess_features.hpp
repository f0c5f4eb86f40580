// Chess comparison pairs for SVMcompare §5 (seed 004) from a game list (lib/data/chess_games):
// yearly data sets (train = the first `train_months` months of a 12-month block, test = the rest),
// 16 features per player computed from the games of earlier months only, and the Elo / Glicko
// baselines' rank differences for every pair.
// Features of a player before a game (the authors' 16 columns [C]; definitions of the unnamed
// ones reconstructed [R]): 0 Elo, 1 wins over higher-Elo opponents, 2 losses to lower-Elo
// opponents, 3-4 the same as fractions of games, 5 games, 6 wins, 7 draws, 8 losses, 9 months since
// the previous game, 10 elite (Elo ever >= 2400), 11 net score (wins - losses) against this
// opponent so far, 12 mean Elo difference to past opponents (own - opponent), 13 Glicko rating,
// 14 has the first move (1 for white), 15 (wins + draws) / games. Missing values are 0 [C].
// Pairs are (x, x') = (white, black) with y = chess_label(score) (white wins -> -1).
// Ratings and counts are updated once per month from all its games, so nothing depends on the
// order of games within a month.
#pragma once

#include <string>
#include <vector>

#include "lib/data/chess_games.hpp"
#include "lib/data/pairs.hpp"
#include "lib/features/ratings.hpp"

namespace mpg {

const std::vector<std::string>& chess_feature_names();  // the 16 names above
constexpr long kChessEloFeature = 0, kChessGlickoFeature = 13;

// Which games count towards the minimum of `min_games` per player (§5.1: "less than 10 matches
// against other players in the train set"). train_window is the paper's literal rule; on the
// Kaggle substitute it leaves 1-87 test games a year, so `history` (all games up to the end of
// the train window) is the default there.
enum class ChessGameCount { train_window, history };

struct ChessYearOptions {
  int first_month = 1;        // month of the first year's January
  int months_per_year = 12;
  int train_months = 4;       // Jan-Apr train, May-Dec test (§5.1)
  int min_games = 10;
  ChessGameCount count = ChessGameCount::history;
  bool drop_first_games = true;  // drop games where a player has no earlier game (§5.1)
  EloOptions elo;
  GlickoOptions glicko;
};

struct ChessYear {
  int year = 0;            // 0-based block index
  int first_month = 0;
  PairData train, test;
  std::vector<int> train_months, test_months;  // month of each pair
  // Baseline rank differences r(x') - r(x) = 2 E(black beats white) - 1 (the authors' ELO
  // baseline [C]) from the ratings at the start of the game's month.
  std::vector<double> train_elo, test_elo, train_glicko, test_glicko;
  std::size_t games_before_filter = 0;
};

// Splits for `years` consecutive 12-month blocks from options.first_month. Throws mpg::Error for
// impossible options or a year without train or test pairs after filtering.
std::vector<ChessYear> chess_year_splits(const std::vector<ChessGame>& games, int years,
                                         const ChessYearOptions& options = {});

}  // namespace mpg
