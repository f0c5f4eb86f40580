// The row-major sparse matrix of the LIBSVM and optdigits readers, built from CSR arrays.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

namespace mpg {

// A rows x cols row-major sparse matrix from CSR arrays (row_starts has rows + 1 entries), in
// memory and time O(rows + non-zeros) whatever cols is (a huge feature index costs nothing).
Eigen::SparseMatrix<double, Eigen::RowMajor> csr_matrix(long rows, long cols, const std::vector<int>& row_starts,
                                                        const std::vector<int>& columns,
                                                        const std::vector<double>& values);

}  // namespace mpg
