// Word-alignment actions (lib/game/alignment_action.hpp).
#include "lib/game/alignment_action.hpp"

namespace mpg {

bool is_alignment_action(const AlignmentAction& action, std::size_t n, bool untagged_only) {
  for (std::size_t k = 0; k < action.size(); ++k) {
    const std::uint32_t position = link_position(action[k]);
    if (position >= n) return false;
    if (untagged_only && link_is_possible_only(action[k])) return false;
    if (k > 0 && position <= link_position(action[k - 1])) return false;
  }
  return true;
}

std::vector<double> position_marginals(const MixedStrategy<AlignmentAction>& strategy, std::size_t n) {
  std::vector<double> marginals(n, 0.0);
  for (std::size_t j = 0; j < strategy.size(); ++j)
    for (std::uint32_t code : strategy.actions[j]) marginals[link_position(code)] += strategy.probabilities[j];
  return marginals;
}

}  // namespace mpg
