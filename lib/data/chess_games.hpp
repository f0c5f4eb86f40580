// Reader of chess game lists in the Kaggle "Chess ratings - Elo versus the Rest of the World"
// (2010) layout, the project's substitute for the Chessmetrics games of SVMcompare §5 (seed 004):
//     "Month #","White Player #","Black Player #","Score"      (optional header line)
//     <month>,<white id>,<black id>,<score>                     score 1 (white wins), 0.5, 0
// The authors' later files (primary_training_part*.csv) have the same four columns.
#pragma once

#include <string>
#include <vector>

namespace mpg {

struct ChessGame {
  int month = 0;   // time period, >= 1
  int white = 0;   // player ids, >= 0
  int black = 0;
  double score = 0.0;  // white's score: 1, 0.5 or 0
};

// Throws mpg::InputError "<path>:<line>: <what>" for a line without 4 fields, a non-integer month
// or id, a score other than 0, 0.5 or 1, a player against himself, or a file without games.
std::vector<ChessGame> read_chess_games(const std::string& path);

// The comparison label of a game as the pair (x, x') = (white, black) (the authors' code [C]):
// white wins -> -1 (x is better), draw -> 0, black wins -> 1.
int chess_label(double white_score);

}  // namespace mpg
