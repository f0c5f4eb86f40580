#include "lib/data/content_split.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// SplitMix64 finalizer: a bijective 64-bit mix.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t combine(std::uint64_t state, std::uint64_t value) { return mix(state ^ mix(value)); }

}  // namespace

std::vector<std::uint64_t> content_keys(const Eigen::SparseMatrix<double, Eigen::RowMajor>& features,
                                        const std::vector<std::vector<int>>& label_columns,
                                        std::uint64_t seed) {
  for (const auto& column : label_columns) {
    if (static_cast<long>(column.size()) != features.rows()) {
      throw Error(fmt::format("content keys: a label column has {} entries for {} rows",
                              column.size(), features.rows()));
    }
  }
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(features.rows()));
  for (long i = 0; i < features.rows(); ++i) {
    std::uint64_t h = mix(seed);
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(features, i); it; ++it) {
      if (it.value() == 0.0) continue;  // stored zeros are not content
      h = combine(h, static_cast<std::uint64_t>(it.col()));
      h = combine(h, std::bit_cast<std::uint64_t>(it.value()));
    }
    for (const auto& column : label_columns) {
      h = combine(h, static_cast<std::uint64_t>(column[static_cast<std::size_t>(i)]) + 0x51ULL);
    }
    keys[static_cast<std::size_t>(i)] = h;
  }
  return keys;
}

ContentSplit content_split(const std::vector<std::uint64_t>& keys, double fraction,
                           const std::vector<long>& rows) {
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    throw Error(fmt::format("split: the held-out fraction must be in [0, 1], got {}", fraction));
  }
  std::vector<long> order = rows;
  if (order.empty()) {
    order.resize(keys.size());
    std::iota(order.begin(), order.end(), 0L);
  }
  for (const long r : order) {
    if (r < 0 || static_cast<std::size_t>(r) >= keys.size()) {
      throw Error(fmt::format("split: row {} outside 0..{}", r, keys.size()));
    }
  }
  std::sort(order.begin(), order.end(), [&keys](long a, long b) {
    const std::uint64_t ka = keys[static_cast<std::size_t>(a)];
    const std::uint64_t kb = keys[static_cast<std::size_t>(b)];
    return ka != kb ? ka < kb : a < b;
  });
  const auto held = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(order.size())));
  ContentSplit split;
  split.held_out.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(held));
  split.kept.assign(order.begin() + static_cast<std::ptrdiff_t>(held), order.end());
  return split;
}

Eigen::SparseMatrix<double, Eigen::RowMajor> select_rows(
    const Eigen::SparseMatrix<double, Eigen::RowMajor>& features, const std::vector<long>& rows) {
  Eigen::SparseMatrix<double, Eigen::RowMajor> out(static_cast<Eigen::Index>(rows.size()), features.cols());
  Eigen::VectorXi sizes(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] < 0 || rows[r] >= features.rows()) {
      throw Error(fmt::format("select_rows: row {} outside 0..{}", rows[r], features.rows()));
    }
    sizes[static_cast<Eigen::Index>(r)] = static_cast<int>(features.outerIndexPtr()[rows[r] + 1] -
                                                           features.outerIndexPtr()[rows[r]]);
  }
  out.reserve(sizes);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(features, rows[r]); it; ++it) {
      out.insert(static_cast<Eigen::Index>(r), it.col()) = it.value();
    }
  }
  out.makeCompressed();
  return out;
}

std::vector<int> select_entries(const std::vector<int>& values, const std::vector<long>& rows) {
  std::vector<int> out;
  out.reserve(rows.size());
  for (const long r : rows) out.push_back(values.at(static_cast<std::size_t>(r)));
  return out;
}

}  // namespace mpg
