// Chess comparison pairs for SVMcompare §5 (seed 004) from a game list (lib/data/chess_games):
// yearly data sets (train = the first `train_months` months of a 12-month block, test = the rest),
// 16 features per player computed from earlier games only, and the Elo / Glicko baselines' rank
// differences for every pair.
// Features of a player before a game (the authors' 16 columns [C]; definitions of the unnamed
// ones reconstructed [R]): 0 Elo, 1 wins over higher-Elo opponents, 2 losses to lower-Elo
// opponents, 3-4 the same as fractions of games, 5 games, 6 wins, 7 draws, 8 losses, 9 months since
// the previous game, 10 elite (Elo ever >= 2400), 11 net score (wins - losses) against this
// opponent so far, 12 mean Elo difference to past opponents (own - opponent), 13 Glicko rating,
// 14 has the first move (1 for white), 15 (wins + draws) / games. Missing values are 0 [C].
// Pairs are (x, x') = (white, black) with y = chess_label(score) (white wins -> -1).
//
// The yearly data sets (§5.1 [S]; ChessYearOptions): train = months [f, f + train_months) of the
// block starting at month f, test = the rest of its 12 months. The paper's protocol, the default:
// a player is kept when he has >= min_games games in the train window; the year's games between
// kept players are walked in time order from an empty state (Elo and Glicko at 1200, no counts:
// "ELO scores were initially set at 1200 for all players"), the features of a game read the state
// before it, and the state is updated after every game ("updated after every match"); a train game
// in which a player has no earlier game of the walk (his first train game) is dropped. Within a month
// the data have no order: games are walked in the canonical order (month, white, black, score),
// which is the order of the Kaggle file itself, so a permuted file gives the same data sets.
// Alternatives (the project's earlier protocol, kept as spec options): the state walks every game
// of the file from month 1 (`ChessHistory::all`), games are counted over that whole history
// (`ChessGameCount::history`), and ratings and counts are updated once per month from the state
// at its start (`RatingUpdates::month`; then nothing depends on the order within a month); under
// ChessHistory::all a test game of a player without any earlier game is dropped too.
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
// against other players in the train set"): the year's train window (the paper), or every game of
// the file up to the end of the train window.
enum class ChessGameCount { train_window, history };
// Which games the features and ratings are computed from: the year's kept games from its first
// month (the paper's per-year data sets), or every game of the file from month 1.
enum class ChessHistory { year, all };
// When ratings and counts change: after every game (the paper), or once per month.
enum class RatingUpdates { match, month };

struct ChessYearOptions {
  int first_month = 1;        // month of the first year's January
  int months_per_year = 12;
  int train_months = 4;       // Jan-Apr train, May-Dec test (§5.1)
  int min_games = 10;
  ChessGameCount count = ChessGameCount::train_window;
  ChessHistory history = ChessHistory::year;
  RatingUpdates updates = RatingUpdates::match;
  bool drop_first_games = true;  // drop train games where a player has no earlier game of the walk (§5.1)
  EloOptions elo;
  GlickoOptions glicko;
};

struct ChessYear {
  int year = 0;            // 0-based block index
  int first_month = 0;
  PairData train, test;
  std::vector<int> train_months, test_months;  // month of each pair
  // Baseline rank differences r(x') - r(x) = 2 E(black beats white) - 1 (the authors' ELO
  // baseline [C]) from the ratings before the game (before its month under RatingUpdates::month).
  std::vector<double> train_elo, test_elo, train_glicko, test_glicko;
  std::size_t games_before_filter = 0;  // games of the year's 12 months
  std::size_t draws_before_filter = 0;  // draws among them
  std::size_t kept_players = 0;          // players with >= min_games counted games
};

// Splits for `years` consecutive 12-month blocks from options.first_month. Throws mpg::Error for
// impossible options; a year may be left with few or no train or test pairs by the filters (the
// caller decides what it can score).
std::vector<ChessYear> chess_year_splits(const std::vector<ChessGame>& games, int years,
                                         const ChessYearOptions& options = {});

}  // namespace mpg
