#include "lib/data/galaxy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

void check(const GalaxyOptions& options) {
  double total = 0.0;
  for (const GalaxyCluster& c : options.clusters) {
    if (!(c.mass >= 0.0) || !(c.positive_rate >= 0.0 && c.positive_rate <= 1.0) ||
        !(c.spread > 0.0) || !std::isfinite(c.center_x) || !std::isfinite(c.center_y)) {
      throw Error(fmt::format("Galaxy: bad cluster (mass {}, positive rate {}, spread {})", c.mass,
                              c.positive_rate, c.spread));
    }
    total += c.mass;
  }
  if (std::abs(total - 1.0) > 1e-9) throw Error(fmt::format("Galaxy: masses sum to {}, not 1", total));
}

// Uniform in [0, 1) from the top 53 bits.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Two independent standard normals (Box-Muller).
std::pair<double, double> normal_pair(std::mt19937_64& rng) {
  const double u = 1.0 - uniform(rng);  // (0, 1]
  const double v = uniform(rng);
  const double radius = std::sqrt(-2.0 * std::log(u));
  return {radius * std::cos(2.0 * std::numbers::pi * v), radius * std::sin(2.0 * std::numbers::pi * v)};
}

int draw_cluster(const GalaxyOptions& options, std::mt19937_64& rng) {
  const double u = uniform(rng);
  double cumulative = 0.0;
  for (int z = 0; z < 3; ++z) {
    cumulative += options.clusters[static_cast<std::size_t>(z)].mass;
    if (u < cumulative) return z;
  }
  return 3;
}

}  // namespace

Eigen::SparseMatrix<double, Eigen::RowMajor> GalaxySample::features(double bias) const {
  const long columns = bias > 0.0 ? 3 : 2;
  Eigen::SparseMatrix<double, Eigen::RowMajor> x(points.rows(), columns);
  x.reserve(Eigen::VectorXi::Constant(points.rows(), static_cast<int>(columns)));
  for (long i = 0; i < points.rows(); ++i) {
    if (points(i, 0) != 0.0) x.insert(i, 0) = points(i, 0);
    if (points(i, 1) != 0.0) x.insert(i, 1) = points(i, 1);
    if (bias > 0.0) x.insert(i, 2) = bias;
  }
  x.makeCompressed();
  return x;
}

GalaxySample generate_galaxy(long n, std::uint64_t seed, const GalaxyOptions& options) {
  check(options);
  if (n < 1) throw Error(fmt::format("Galaxy: the sample size must be >= 1, got {}", n));
  std::mt19937_64 rng(seed);
  GalaxySample sample;
  sample.points.resize(n, 2);
  sample.labels.reserve(static_cast<std::size_t>(n));
  sample.clusters.reserve(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) {
    const int z = draw_cluster(options, rng);
    const GalaxyCluster& c = options.clusters[static_cast<std::size_t>(z)];
    const auto [dx, dy] = normal_pair(rng);
    sample.points(i, 0) = c.center_x + c.spread * dx;
    sample.points(i, 1) = c.center_y + c.spread * dy;
    sample.labels.push_back(uniform(rng) < c.positive_rate ? 1 : 0);
    sample.clusters.push_back(z);
  }
  return sample;
}

double galaxy_posterior(const GalaxyOptions& options, double x, double y) {
  // Work with log densities relative to the largest, so far-away points do not underflow to 0/0.
  std::array<double, 4> log_weight{};
  for (std::size_t z = 0; z < 4; ++z) {
    const GalaxyCluster& c = options.clusters[z];
    const double dx = (x - c.center_x) / c.spread;
    const double dy = (y - c.center_y) / c.spread;
    log_weight[z] = c.mass > 0.0 ? std::log(c.mass) - 2.0 * std::log(c.spread) - 0.5 * (dx * dx + dy * dy)
                                 : -std::numeric_limits<double>::infinity();
  }
  const double top = *std::max_element(log_weight.begin(), log_weight.end());
  double total = 0.0, positive = 0.0;
  for (std::size_t z = 0; z < 4; ++z) {
    const double w = std::exp(log_weight[z] - top);
    total += w;
    positive += w * options.clusters[z].positive_rate;
  }
  return positive / total;
}

double galaxy_cluster_rule_f1(const GalaxyOptions& options, const std::vector<int>& positive_clusters) {
  check(options);
  double tp = 0.0, predicted = 0.0, positives = 0.0;
  for (const GalaxyCluster& c : options.clusters) positives += c.mass * c.positive_rate;
  for (const int z : positive_clusters) {
    if (z < 0 || z > 3) throw Error(fmt::format("Galaxy: no cluster {}", z));
    const GalaxyCluster& c = options.clusters[static_cast<std::size_t>(z)];
    tp += c.mass * c.positive_rate;
    predicted += c.mass;
  }
  return predicted + positives > 0.0 ? 2.0 * tp / (predicted + positives) : 1.0;
}

GalaxyBayesF1 galaxy_bayes_f1(const GalaxyOptions& options, long points, std::uint64_t seed) {
  const GalaxySample sample = generate_galaxy(points, seed, options);
  std::vector<double> eta(static_cast<std::size_t>(points));
  double expected_positives = 0.0;
  for (long i = 0; i < points; ++i) {
    eta[static_cast<std::size_t>(i)] = galaxy_posterior(options, sample.points(i, 0), sample.points(i, 1));
    expected_positives += eta[static_cast<std::size_t>(i)];
  }
  std::sort(eta.begin(), eta.end(), std::greater<>());
  GalaxyBayesF1 best;
  double tp = 0.0;
  for (std::size_t k = 0; k < eta.size(); ++k) {
    tp += eta[k];
    // Only at the end of a run of equal values: a rule cannot split equal posteriors.
    if (k + 1 < eta.size() && eta[k + 1] == eta[k]) continue;
    const double f1 = 2.0 * tp / (static_cast<double>(k + 1) + expected_positives);
    if (f1 > best.f1) best = {f1, eta[k], k + 1 < eta.size() ? eta[k + 1] : 0.0};
  }
  return best;
}

}  // namespace mpg
