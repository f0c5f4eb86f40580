// The F1 game's decision rule that no solver can change (issue 25, item 3; docs/methods.md,
// "The decision (F1)"): the pure prediction with the best guarantee,
//   a* = argmax_a  g(a),   g(a) = min_y F1(a, y) - psi(y)   (thesis Eq. 3.11's payoff),
// over all 2^n labellings a. It is a function of psi alone, so two exact solvers, or one solver
// with other settings, cannot disagree on it, unlike the likeliest action of "the" equilibrium
// strategy (the predictor's optimal strategies form a polytope whose vertices have different
// likeliest actions).
//
// Why a* is a top k by psi: if a holds j and not i with psi_i >= psi_j, a' = a - j + i guarantees
// at least as much. Against a' the adversary's y either holds both or neither of i, j (then a
// scores the same against y), holds i and not j (then a scores no more against y: one hit less),
// or holds j and not i (then a scores no more against y - j + i: the same hits, and psi(y - j + i)
// >= psi(y)). The same exchange shows the adversary's best reply to the top k is the top j of it
// and the top m of the rest, for some j, m.
//
// Ties, stated so that the rule is a function: sizes with equal guarantees go to the smaller k;
// examples are ranked by psi, descending, equal potentials by the smaller index. Examples with
// equal psi are exchangeable in the game (every a with the same potentials guarantees the same),
// so only which of them are named, never the guarantee, depends on that last tie-break.
#pragma once

#include <vector>

#include "lib/game/binary_action.hpp"

namespace mpg {

struct F1Decision {
  BinaryAction action;      // the top `size` examples by psi (indices, ascending)
  long size = 0;
  double guarantee = 0.0;   // g(action) = min_y F1(action, y) - psi(y), exact
  long sizes_evaluated = 0; // sizes whose guarantee was computed exactly (the rest were bounded)
};

// The guarantee of the top k by psi (ranked_psi sorted descending): the adversary's best reply
// over all y, through the top j of the action and the top m of the rest. O(n log n).
double f1_top_k_guarantee(const std::vector<double>& ranked_psi, long k);

// The rule above. Sizes are visited best upper bound first (bounds from the adversary's replies
// found so far, each O(1) per size), and evaluated exactly only while their bound can beat the
// best guarantee found: the result is exact. Throws mpg::Error for no examples or a non-finite
// potential.
F1Decision f1_maximin_decision(const std::vector<double>& psi);

}  // namespace mpg
