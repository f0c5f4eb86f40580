// Internals of the GLPK backend (lib/game/glpk_backend.cpp), exposed for its tests.
#pragma once

#include <iosfwd>

namespace mpg::detail {

struct GameLpReport {
  bool optimal = false;
  double objective = 0.0;
  int pivots = 0;  // over all attempts
};

// Builds a maximization LP and its starting basis from text and solves it as every
// restricted-game LP is solved (capped simplex calls with fallbacks, see the .cpp).
// Format: "rows columns", then per row "row type lower upper status length (index value)*",
// then per column "column type lower upper objective status" (GLPK's codes, 1-based indices).
GameLpReport solve_game_lp_text(std::istream& text);

}  // namespace mpg::detail
