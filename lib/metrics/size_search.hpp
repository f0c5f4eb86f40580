// Exact maximization over action sizes k in [1, n] by branch and bound.
//
// Size-dependent best responses (F1's GFM, thesis Alg. 2) have the form
//     V(k) = best sum of k entries of a column F(., k),
// and evaluating one column costs O(n) or more, so all n columns cost O(n^2). The columns are
// monotone in k (F(i, k) = sum_s w_is / (s + k) decreases in k), which gives bounds on V over a
// whole interval of sizes from the column at one of its ends. Intervals whose bound cannot beat
// the best size found so far are discarded unevaluated; the rest are bisected. The result is
// exact: every size is either evaluated or proven no better.
#pragma once

#include <cstddef>
#include <limits>

namespace mpg {

struct SizeSearchResult {
  std::size_t size = 0;
  double value = -std::numeric_limits<double>::infinity();
  int columns_evaluated = 0;
};

// MakeColumn(k) returns a Column with
//   double value() const                       V(k)
//   double bound_after(std::size_t hi) const   >= V(k') for all k < k' < hi  (or +inf)
//   double bound_before(std::size_t lo) const  >= V(k') for all lo < k' < k  (or +inf)
// `best` starts as the incumbent (e.g. the value of the empty action, size 0); a size replaces
// it only if strictly better.
template <class MakeColumn>
SizeSearchResult maximize_over_sizes(std::size_t n, SizeSearchResult best,
                                     const MakeColumn& make_column) {
  auto consider = [&](std::size_t k, const auto& column) {
    ++best.columns_evaluated;
    const double v = column.value();
    if (v > best.value) {
      best.value = v;
      best.size = k;
    }
  };
  // Searches the sizes strictly between a and b, whose columns are given.
  auto search = [&](auto& self, std::size_t a, const auto& column_a, std::size_t b,
                    const auto& column_b) -> void {
    if (b - a < 2) return;
    const double bound = std::min(column_a.bound_after(b), column_b.bound_before(a));
    if (bound <= best.value) return;
    const std::size_t middle = a + (b - a) / 2;
    const auto column_middle = make_column(middle);
    consider(middle, column_middle);
    self(self, a, column_a, middle, column_middle);
    self(self, middle, column_middle, b, column_b);
  };
  const auto first = make_column(1);
  consider(1, first);
  if (n == 1) return best;
  const auto last = make_column(n);
  consider(n, last);
  search(search, 1, first, n, last);
  return best;
}

}  // namespace mpg
