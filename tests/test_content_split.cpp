// Content-keyed splits (lib/data/content_split): sizes, disjoint parts, and the same parts in the
// same order when the rows of the data are permuted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "lib/base/error.hpp"
#include "lib/data/content_split.hpp"

using namespace mpg;

namespace {

using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

Matrix random_rows(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(0, 3);
  Matrix m(n, 4);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j)
      if (const int v = value(rng); v != 0) m.insert(i, j) = v;
  m.makeCompressed();
  return m;
}

}  // namespace

TEST_CASE("content_split holds out round(fraction n) rows, disjoint from the rest", "[content_split]") {
  const Matrix x = random_rows(100, 1);
  std::vector<int> y(100);
  for (int i = 0; i < 100; ++i) y[static_cast<std::size_t>(i)] = i % 3 == 0;
  const std::vector<std::uint64_t> keys = content_keys(x, {y}, 7);
  const ContentSplit split = content_split(keys, 1.0 / 3.0);
  CHECK(split.held_out.size() == 33);
  CHECK(split.kept.size() == 67);
  std::set<long> all(split.held_out.begin(), split.held_out.end());
  all.insert(split.kept.begin(), split.kept.end());
  CHECK(all.size() == 100);
  // Another seed, another split; a subset of rows splits only those rows.
  CHECK(content_split(content_keys(x, {y}, 8), 1.0 / 3.0).held_out != split.held_out);
  const ContentSplit part = content_split(keys, 0.5, split.kept);
  CHECK(part.held_out.size() + part.kept.size() == 67);
  for (const long r : part.held_out) CHECK(std::find(split.kept.begin(), split.kept.end(), r) != split.kept.end());
  CHECK_THROWS_AS(content_split(keys, 1.5), Error);
  CHECK_THROWS_AS(content_split(keys, 0.5, {100}), Error);
  CHECK_THROWS_AS(content_keys(x, {std::vector<int>(99, 0)}, 1), Error);
}

TEST_CASE("content_split gives the same parts in the same order for permuted rows", "[content_split]") {
  const int n = 300;
  const Matrix x = random_rows(n, 2);  // 4 columns of 0..3: many identical rows
  std::vector<int> y(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = (i * 7) % 5 == 0;
  std::vector<long> permutation(static_cast<std::size_t>(n));
  std::iota(permutation.begin(), permutation.end(), 0L);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937_64(3));
  const Matrix permuted = select_rows(x, permutation);
  const std::vector<int> permuted_y = select_entries(y, permutation);

  const ContentSplit a = content_split(content_keys(x, {y}, 11), 0.25);
  const ContentSplit b = content_split(content_keys(permuted, {permuted_y}, 11), 0.25);
  // Row contents (features and label) of both parts, in order.
  auto contents = [](const Matrix& m, const std::vector<int>& labels, const std::vector<long>& rows) {
    std::vector<std::vector<double>> out;
    for (const long r : rows) {
      const Eigen::VectorXd dense = m.row(r).transpose();
      std::vector<double> row(dense.data(), dense.data() + dense.size());
      row.push_back(labels[static_cast<std::size_t>(r)]);
      out.push_back(row);
    }
    return out;
  };
  CHECK(contents(x, y, a.held_out) == contents(permuted, permuted_y, b.held_out));
  CHECK(contents(x, y, a.kept) == contents(permuted, permuted_y, b.kept));
  CHECK(select_rows(x, a.kept).rows() == static_cast<long>(a.kept.size()));
}
