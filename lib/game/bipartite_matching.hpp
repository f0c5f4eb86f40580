// Maximum-weight bipartite matching by the Hungarian algorithm (Kuhn 1955; Munkres 1957), in the
// shortest-augmenting-path form with vertex potentials (Jonker & Volgenant 1987; Edmonds & Karp
// 1972): O(r^2 c) for an r x c weight matrix with r <= c (the matrix is transposed otherwise),
// i.e. O(n^3). Used for word alignment as matching (Taskar, Lacoste-Julien & Klein 2005): the
// matching game's best responses (lib/metrics/bipartite_matching_game.hpp) and the max-margin
// matching baseline's inference (baselines/matching_ssvm.hpp).
//
// The matching need not be perfect: it maximizes sum_{(i,j) in M} w_ij over all sets M of
// vertex-disjoint edges, so an edge of weight <= 0 is never chosen. Equivalently the assignment
// of the smaller side maximizing sum max(w_ij, 0), its non-positive edges dropped: every partial
// matching extends to an assignment of at least its weight under max(w, 0), and every assignment
// with its non-positive edges dropped is a matching of the same clipped weight.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "lib/game/alignment_action.hpp"

namespace mpg {

struct BipartiteMatching {
  std::vector<int> column_of_row;  // matched column of each row, -1 if unmatched
  double weight = 0.0;             // sum of the matched edges' weights (all > 0)

  std::size_t size() const;        // number of matched edges
};

// Throws mpg::Error for a non-finite weight. An empty matrix (0 rows or 0 columns) gives the
// empty matching. Among several optimal matchings the result is a deterministic function of the
// matrix (no randomness, no dependence on anything but the entries and their positions).
BipartiteMatching max_weight_matching(const Eigen::MatrixXd& weights);

// The same for a word-alignment grid: row-major weights of the english_length x french_length
// word pairs (position english * french_length + french); returns the matching as an action
// (lib/game/alignment_action.hpp) and, if `weight` is given, its weight. Throws mpg::Error if the
// number of weights is not english_length * french_length.
AlignmentAction max_weight_matching_links(std::size_t english_length, std::size_t french_length,
                                          const std::vector<double>& weights, double* weight = nullptr);

}  // namespace mpg
