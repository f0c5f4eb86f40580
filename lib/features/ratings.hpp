// Rating systems for the chess baselines of SVMcompare §5 (seed 004), updated once per time
// period from all games of the period with the ratings at its start, as R's PlayerRatings
// (Stephenson and Sonas) does; within a period the order of the games does not matter. The
// paper's "updated after every match" is a period of one game (update({game})), as the authors'
// code calls PlayerRatings' fide() and glicko() with one game at a time [C].
//   Elo with FIDE's K factors (PlayerRatings `fide` with `kfide`): K = 10 for a player who has
//   ever been rated >= 2400, 15 for >= 30 games played before the period, 30 otherwise (kfide's
//   default, FIDE's rule since 2011; 25 before, the rule of the paper's 1999-2006 games: k_new);
//   E = 1 / (1 + 10^((R_b - R_a) / 400)), R_a += K sum_games (S - E).
//   Glicko (Glickman 1999): before a period RD = min(sqrt(RD^2 + c^2 t), RD_max) for t periods
//   since the last update; then with q = ln 10 / 400, g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2),
//   E_j = 1 / (1 + 10^(-g(RD_j)(r - r_j) / 400)), d^2 = 1 / (q^2 sum g_j^2 E_j (1 - E_j)):
//   r += q / (1 / RD^2 + 1 / d^2) sum g_j (s_j - E_j), RD = 1 / sqrt(1 / RD^2 + 1 / d^2).
// The paper starts Elo at 1200 ("FIDE rules"); Glicko starts at the same rating with
// PlayerRatings' RD 300, c = 15 and RD_max = 350.
#pragma once

#include <unordered_map>
#include <vector>

#include "lib/data/chess_games.hpp"

namespace mpg {

struct EloOptions {
  double initial = 1200.0;
  double k_elite = 10.0, k_experienced = 15.0, k_new = 30.0;
  double elite_rating = 2400.0;
  int experienced_games = 30;
};

class EloRatings {
 public:
  explicit EloRatings(EloOptions options = {}) : options_(options) {}
  double rating(int player) const;
  int games(int player) const;  // games rated so far
  // Expected score of a against b, 1 / (1 + 10^((R_b - R_a) / 400)).
  double expected_score(int a, int b) const;
  // One rating period: every game of `period` uses the ratings at the start of the period.
  void update(const std::vector<ChessGame>& period);
  // Sets a player's state (e.g. a known starting rating).
  void set(int player, double rating, int games, bool elite = false);

 private:
  struct Player {
    double rating = 0.0;
    int games = 0;
    bool elite = false;
  };
  EloOptions options_;
  std::unordered_map<int, Player> players_;
};

struct GlickoOptions {
  double initial_rating = 1200.0;
  double initial_deviation = 300.0;
  double c = 15.0;              // RD inflation per period without games
  double max_deviation = 350.0;
};

class GlickoRatings {
 public:
  explicit GlickoRatings(GlickoOptions options = {}) : options_(options) {}
  double rating(int player) const;
  double deviation(int player) const;  // RD as of the last update (no inflation applied)
  // Expected score of a against b with the combined deviation sqrt(RD_a^2 + RD_b^2)
  // (Glickman 1999, Eq. 16).
  double expected_score(int a, int b) const;
  // One rating period numbered `period` (increasing; gaps inflate RD by c^2 per period).
  void update(int period, const std::vector<ChessGame>& games);
  // Sets a player's state as of the end of `period`.
  void set(int player, double rating, double deviation, int period);

 private:
  struct Player {
    double rating = 0.0;
    double deviation = 0.0;
    int last_period = 0;
  };
  GlickoOptions options_;
  std::unordered_map<int, Player> players_;
};

}  // namespace mpg
