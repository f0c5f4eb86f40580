// Actions of the word-alignment games (thesis §4.2.5 and §5.4): a set of tagged word pairs of one
// sentence pair with |e| English and |f| French words. A word pair is a position
// p = english * |f| + french in [0, n), n = |e| |f|; an action stores its tagged positions as
// sorted codes 2 p + r:
//   - predictor actions of the AER game ("A" tags) and matchings have r = 0;
//   - the AER game's adversary tags a position sure (S, r = 0) or possible only (R = P \ S, r = 1);
//     untagged positions are N.
// Storage is O(links), not O(n).
#pragma once

#include <cstdint>
#include <vector>

#include "lib/game/game.hpp"

namespace mpg {

using AlignmentAction = std::vector<std::uint32_t>;  // sorted codes 2 p + r, positions distinct

inline std::uint32_t link_code(std::uint32_t position, bool possible_only = false) {
  return 2 * position + (possible_only ? 1u : 0u);
}
inline std::uint32_t link_position(std::uint32_t code) { return code >> 1; }
inline bool link_is_possible_only(std::uint32_t code) { return (code & 1u) != 0; }

// True if the codes increase strictly by position (no position twice) and every position is < n;
// with `untagged_only`, also no r = 1 code.
bool is_alignment_action(const AlignmentAction& action, std::size_t n, bool untagged_only);

// Sum over a mixed strategy of q_j [position p in action j] for every p (tags ignored): the
// per-position marginals, length n.
std::vector<double> position_marginals(const MixedStrategy<AlignmentAction>& strategy, std::size_t n);

}  // namespace mpg
