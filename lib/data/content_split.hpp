// Random splits that do not depend on the order of the rows in a file: each example gets a
// 64-bit key hashed from its content (stored feature columns and values, its labels) and the
// seed, examples are ordered by key, and the first part of that order is held out. Permuting the
// rows of the file therefore gives the same parts in the same (key) order, so learners whose
// passes follow row order (dual coordinate descent) also give the same models. Identical rows
// have identical keys; they are interchangeable, so their relative order does not matter.
#pragma once

#include <Eigen/SparseCore>
#include <cstdint>
#include <utility>
#include <vector>

namespace mpg {

// Key of every row: hash(seed, row i's (column, value) pairs, label_columns[k][i] for every k).
std::vector<std::uint64_t> content_keys(const Eigen::SparseMatrix<double, Eigen::RowMajor>& features,
                                        const std::vector<std::vector<int>>& label_columns,
                                        std::uint64_t seed);

struct ContentSplit {
  std::vector<long> kept;      // rows in key order after the held-out ones
  std::vector<long> held_out;  // round(fraction * n) rows of smallest key, in key order
};

// `rows` (a subset of row indices, or every row when empty) split by their keys. Equal keys are
// ordered by row index (identical content, or a 2^-64 hash collision). Throws mpg::Error for a
// fraction outside [0, 1].
ContentSplit content_split(const std::vector<std::uint64_t>& keys, double fraction,
                           const std::vector<long>& rows = {});

// The rows `rows` of a matrix, in that order.
Eigen::SparseMatrix<double, Eigen::RowMajor> select_rows(
    const Eigen::SparseMatrix<double, Eigen::RowMajor>& features, const std::vector<long>& rows);
// The entries `rows` of a vector, in that order.
std::vector<int> select_entries(const std::vector<int>& values, const std::vector<long>& rows);

}  // namespace mpg
