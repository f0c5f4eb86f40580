// A growing matrix game solved over a working set of its actions (an exact decorator of any LP
// backend). Double-oracle sub-games grow to hundreds of actions per player (the reference's
// 300-action stop) while their equilibria mix over a few dozen, and a warm simplex pivot costs
// in proportion to the whole LP: on Table XIII's Hansards games ~155 us per pivot at 250 x 250.
// So the LP holds only the active actions; each solve
//   1. solves the LP over the active rows R' and columns C' (strategies p, q, value v),
//   2. prices every inactive action against them: a row i with (A q)_i > v + tol, a column j with
//      (p^T A)_j < v - tol, A = S - 1 c^T, and activates the most violating (up to 16 per player);
//      repeats until none violates,
// so (p, q) is an equilibrium of the whole game within tol (1e-9 (1 + |v|)): the same value, and
// optimal strategies of the whole LP, though where that LP is degenerate not necessarily the
// vertex a solve over every action returns. Then an action strictly worse than the value by
// 1e-7 (1 + |v|) (a row's LP variable nonbasic, a column's slack basic: removing it leaves the
// rest of the basis warm) for its patience of solves in a row leaves the LP, as long as more than
// `min_active` and more than twice its player's support stay; the patience is `idle_solves`,
// doubled each time the action has come back. Games with at most min_active actions per player
// are solved exactly as by the inner backend.
#pragma once

#include <memory>

#include "lib/game/matrix_game.hpp"

namespace mpg {

struct WorkingSetOptions {
  int min_active = 32;   // per player; games this small keep every action in the LP
  // Solves strictly worse than the value before an action leaves the LP (Hansards game 41 of
  // Table XIII at the authors'-L-BFGS theta, 300-action stop: 3 -> 1.39 s, 10 -> 1.08 s,
  // 30 -> 0.96 s, never -> 1.33 s; 100 games: 21.4 -> 14.8 s at 30, with the support rule).
  int idle_solves = 30;
  int max_activated = 16;  // per player and pricing round
  // Actions leave only while more than this many times the player's support stay (bench_matrix_game:
  // where the equilibrium mixes over ~2/3 of the actions, retiring made the LPs 1.4x slower).
  int support_multiple = 2;
};

// The backend `inner` (e.g. make_glpk_backend()) over working sets; its name is inner's.
std::unique_ptr<LpBackend> make_working_set_backend(std::unique_ptr<LpBackend> inner,
                                                    const WorkingSetOptions& options = {});

}  // namespace mpg
