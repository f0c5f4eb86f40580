// Hungarian algorithm (lib/game/bipartite_matching.hpp).
#include "lib/game/bipartite_matching.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lib/base/error.hpp"

namespace mpg {

std::size_t BipartiteMatching::size() const {
  return static_cast<std::size_t>(std::count_if(column_of_row.begin(), column_of_row.end(), [](int c) { return c >= 0; }));
}

namespace {

// Minimum-cost assignment of every row of an r x c cost matrix (r <= c) to a distinct column.
// Rows are inserted one at a time; each insertion grows a shortest-path tree over the columns in
// reduced costs cost(i, j) - row_potential[i] - column_potential[j] >= 0 (Dijkstra on a dense
// graph, O(r c) per row) until it reaches a free column, then flips the path. Returns the row
// assigned to each column (-1 if none).
std::vector<int> min_cost_assignment(const Eigen::MatrixXd& cost) {
  const auto rows = static_cast<int>(cost.rows());
  const auto columns = static_cast<int>(cost.cols());
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  // Column index `columns` is a virtual start column holding the row being inserted.
  std::vector<double> row_potential(static_cast<std::size_t>(rows), 0.0);
  std::vector<double> column_potential(static_cast<std::size_t>(columns) + 1, 0.0);
  std::vector<int> row_of_column(static_cast<std::size_t>(columns) + 1, -1);
  std::vector<int> previous_column(static_cast<std::size_t>(columns) + 1, -1);
  std::vector<double> distance(static_cast<std::size_t>(columns) + 1);
  std::vector<char> in_tree(static_cast<std::size_t>(columns) + 1);
  const auto at = [](auto& v, int i) -> auto& { return v[static_cast<std::size_t>(i)]; };

  for (int row = 0; row < rows; ++row) {
    const int start = columns;
    at(row_of_column, start) = row;
    std::fill(distance.begin(), distance.end(), kInfinity);
    std::fill(in_tree.begin(), in_tree.end(), 0);
    int column = start;
    do {
      at(in_tree, column) = 1;
      const int tree_row = at(row_of_column, column);
      double step = kInfinity;
      int next = -1;
      for (int j = 0; j < columns; ++j) {
        if (at(in_tree, j)) continue;
        const double reduced = cost(tree_row, j) - at(row_potential, tree_row) - at(column_potential, j);
        if (reduced < at(distance, j)) {
          at(distance, j) = reduced;
          at(previous_column, j) = column;
        }
        if (at(distance, j) < step) {
          step = at(distance, j);
          next = j;
        }
      }
      // Shift the potentials so the tree's edges stay tight and `next` joins it at reduced cost 0.
      for (int j = 0; j <= columns; ++j) {
        if (at(in_tree, j)) {
          at(row_potential, at(row_of_column, j)) += step;
          at(column_potential, j) -= step;
        } else {
          at(distance, j) -= step;
        }
      }
      column = next;
    } while (at(row_of_column, column) != -1);
    // Augment: walk back to the start column, moving each row one column along the path.
    while (column != start) {
      const int back = at(previous_column, column);
      at(row_of_column, column) = at(row_of_column, back);
      column = back;
    }
  }
  row_of_column.pop_back();
  return row_of_column;
}

}  // namespace

BipartiteMatching max_weight_matching(const Eigen::MatrixXd& weights) {
  if (!weights.allFinite()) throw Error("max_weight_matching: non-finite edge weight");
  BipartiteMatching result;
  result.column_of_row.assign(static_cast<std::size_t>(weights.rows()), -1);
  if (weights.rows() == 0 || weights.cols() == 0) return result;
  const bool transpose = weights.rows() > weights.cols();
  // Costs -max(w, 0) on the shorter side as rows.
  const Eigen::MatrixXd cost = transpose ? Eigen::MatrixXd(-weights.transpose().cwiseMax(0.0))
                                         : Eigen::MatrixXd(-weights.cwiseMax(0.0));
  const std::vector<int> row_of_column = min_cost_assignment(cost);
  for (std::size_t c = 0; c < row_of_column.size(); ++c) {
    const int r = row_of_column[c];
    if (r < 0) continue;
    const int row = transpose ? static_cast<int>(c) : r;
    const int column = transpose ? r : static_cast<int>(c);
    const double w = weights(row, column);
    if (w <= 0.0) continue;
    result.column_of_row[static_cast<std::size_t>(row)] = column;
    result.weight += w;
  }
  return result;
}

AlignmentAction max_weight_matching_links(std::size_t english_length, std::size_t french_length,
                                          const std::vector<double>& weights, double* weight) {
  if (weights.size() != english_length * french_length)
    throw Error("max_weight_matching_links: " + std::to_string(weights.size()) + " weights for a " +
                std::to_string(english_length) + " x " + std::to_string(french_length) + " grid");
  const Eigen::MatrixXd matrix =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          weights.data(), static_cast<Eigen::Index>(english_length), static_cast<Eigen::Index>(french_length));
  const BipartiteMatching matching = max_weight_matching(matrix);
  AlignmentAction links;
  for (std::size_t e = 0; e < english_length; ++e) {
    const int f = matching.column_of_row[e];
    if (f >= 0) links.push_back(link_code(static_cast<std::uint32_t>(e * french_length + static_cast<std::size_t>(f))));
  }
  if (weight) *weight = matching.weight;
  return links;
}

}  // namespace mpg
