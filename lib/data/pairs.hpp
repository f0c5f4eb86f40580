// Labeled pairs for learning to compare (SVMcompare, Venuto, Hocking et al., seed 004): pair i is
// (x_i, x'_i, y_i) with y_i = -1 if x_i is better, 0 if the two are as good, 1 if x'_i is better
// (Eq. 1). Sampling of train / validation / test sets with a fixed share rho of equality pairs,
// and the standardizer fit on the stacked rows [X; X'] of the training pairs.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace mpg {

// t_tau(d) (Eq. 4): -1 if d < -tau, 0 if |d| <= tau, 1 if d > tau. Odd in d, so c is
// antisymmetric: c(x, x') = -c(x', x).
int threshold_comparison(double difference, double tau);

struct PairData {
  Eigen::MatrixXd first;    // n x p, row i = x_i
  Eigen::MatrixXd second;   // n x p, row i = x'_i
  std::vector<int> labels;  // y_i in {-1, 0, 1}

  std::size_t size() const { return labels.size(); }
  long features() const { return first.cols(); }
  std::size_t count(int label) const;  // |I_label|
  // Throws mpg::Error naming `what` if the shapes disagree, a label is outside {-1, 0, 1} or a
  // feature is not finite.
  void validate(const std::string& what) const;
  PairData subset(const std::vector<std::size_t>& rows) const;
  // (x', x, -y) for every pair: the same comparisons seen from the other side.
  PairData swapped() const;
  // Concatenation of the pairs of both (same number of features).
  static PairData concatenate(const PairData& a, const PairData& b);
};

// mt19937_64-based generator of the library's random draws: uniform doubles in [0, 1) from the
// top 53 bits, uniform integers below a bound by rejection, standard normals by Box-Muller.
// Same numbers on every platform (std::*_distribution are implementation-defined).
class PairRandom {
 public:
  explicit PairRandom(std::uint64_t seed) : engine_(seed) {}
  double uniform();                            // [0, 1)
  double uniform(double low, double high);     // [low, high)
  std::uint64_t below(std::uint64_t bound);    // {0, ..., bound - 1}, bound > 0
  double normal();                             // N(0, 1)
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// An order of the pairs that depends only on their content (features and label), not on their
// position: sampling starts from it, so permuting the rows of a file does not change which pairs
// a seed draws. Identical pairs are interchangeable.
std::vector<std::size_t> content_order(const PairData& pairs);

// Draws `sets` disjoint sets of `pairs_per_set` pairs each, every set with round(rho * n)
// equality pairs (y = 0) and the rest inequality pairs, without replacement (§4.1: "train,
// validation, and test sets, each with the same number of pairs n and the same proportion rho").
// Each returned set is sorted by pair index. Throws mpg::Error if rho is outside [0, 1] or the
// pool has too few pairs of either kind.
std::vector<std::vector<std::size_t>> stratified_pair_sets(const PairData& pool, std::size_t pairs_per_set,
                                                           double equality_share, std::size_t sets,
                                                           std::uint64_t seed);

// Centring and scaling fit on the training pairs' stacked rows [X; X'] (mean and sample standard
// deviation with denominator N - 1, N = 2n); columns with zero variance are dropped, as in the
// authors' code. The same transformation is applied to every later x and x'.
struct PairStandardizer {
  std::vector<long> kept;   // original column of each output column
  Eigen::VectorXd mean;     // per kept column
  Eigen::VectorXd scale;    // sample standard deviation per kept column (> 0)

  static PairStandardizer fit(const PairData& training);
  // The identity on all p columns (for callers that want raw features).
  static PairStandardizer identity(long features);
  Eigen::MatrixXd apply(const Eigen::MatrixXd& rows) const;
  PairData apply(const PairData& pairs) const;
  long input_features() const { return input_features_; }

 private:
  long input_features_ = 0;
};

}  // namespace mpg
