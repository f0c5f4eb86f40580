#include "lib/stats/rank_tests.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg::stats {
namespace {

constexpr int kNodes = 20;

// Nodes and weights of the kNodes-point Gauss-Legendre rule on [-1, 1]: the roots of P_n by
// Newton's method from Chebyshev-like starting points, w = 2 / ((1 - x^2) P_n'(x)^2).
struct GaussLegendre {
  std::array<double, kNodes> x{}, w{};
  GaussLegendre() {
    for (int i = 0; i < kNodes; ++i) {
      double root = std::cos(std::numbers::pi * (i + 0.75) / (kNodes + 0.5));
      double derivative = 1.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double previous = 1.0, current = root;  // P_0, P_1
        for (int j = 1; j < kNodes; ++j) {
          const double next = ((2.0 * j + 1.0) * root * current - j * previous) / (j + 1.0);
          previous = current;
          current = next;
        }
        derivative = kNodes * (root * current - previous) / (root * root - 1.0);
        const double step = current / derivative;
        root -= step;
        if (std::abs(step) < 1e-16) break;
      }
      x[static_cast<std::size_t>(i)] = root;
      w[static_cast<std::size_t>(i)] = 2.0 / ((1.0 - root * root) * derivative * derivative);
    }
  }
};

// integral of f over [low, high] by the 20-point rule on panels of width <= 0.25.
template <class F>
double integrate(F f, double low, double high) {
  static const GaussLegendre rule;
  const int panels = std::max(1, static_cast<int>(std::ceil((high - low) / 0.25)));
  const double width = (high - low) / panels;
  double total = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double middle = low + (p + 0.5) * width;
    for (int i = 0; i < kNodes; ++i)
      total += rule.w[static_cast<std::size_t>(i)] * f(middle + 0.5 * width * rule.x[static_cast<std::size_t>(i)]);
  }
  return 0.5 * width * total;
}

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

void check_k(int k) {
  if (k < 2) throw Error(fmt::format("studentized range: k = {} must be >= 2", k));
}

// The normal density is below 1e-17 beyond |z| = 9, so [-9, 9] holds the whole integral.
constexpr double kZLimit = 9.0;

}  // namespace

double chi_square_survival(double x, int df) {
  if (df < 1) throw Error(fmt::format("chi-square: {} degrees of freedom", df));
  if (std::isnan(x)) throw Error("chi-square: the statistic is NaN");
  if (x <= 0.0) return 1.0;
  const double half = 0.5 * x;
  const double decay = std::exp(-half);
  double total = 0.0;
  if (df % 2 == 0) {
    // Q = e^{-x/2} sum_{i < df/2} (x/2)^i / i!
    double term = 1.0;
    for (int i = 0; i < df / 2; ++i) {
      total += term;
      term *= half / (i + 1);
    }
    return decay * total;
  }
  // Q = erfc(sqrt(x/2)) + e^{-x/2} sum_{i=1}^{(df-1)/2} (x/2)^{i-1/2} / Gamma(i + 1/2)
  double term = std::sqrt(half) / std::tgamma(1.5);
  for (int i = 1; i <= (df - 1) / 2; ++i) {
    total += term;
    term *= half / (i + 0.5);
  }
  return std::erfc(std::sqrt(half)) + decay * total;
}

double studentized_range_cdf(double q, int k) {
  check_k(k);
  if (!(q > 0.0)) return 0.0;
  const double value = k * integrate([&](double z) { return normal_pdf(z) * std::pow(normal_cdf(z) - normal_cdf(z - q), k - 1); },
                                     -kZLimit, kZLimit);
  return std::clamp(value, 0.0, 1.0);
}

double studentized_range_survival(double q, int k) {
  check_k(k);
  if (!(q > 0.0)) return 1.0;
  // 1 = k integral phi Phi^(k-1), so P(Q > q) = k integral phi (a^n - (a - b)^n), a = Phi(z),
  // b = Phi(z - q), n = k - 1, with a^n - (a - b)^n = b sum_i a^i (a - b)^(n-1-i) (no cancellation).
  const double value = k * integrate(
                               [&](double z) {
                                 const double a = normal_cdf(z), b = normal_cdf(z - q), c = a - b;
                                 double sum = 0.0;
                                 for (int i = 0; i < k - 1; ++i) sum += std::pow(a, i) * std::pow(c, k - 2 - i);
                                 return normal_pdf(z) * b * sum;
                               },
                               -kZLimit, kZLimit);
  return std::clamp(value, 0.0, 1.0);
}

Eigen::MatrixXd ranks_within_blocks(const Eigen::MatrixXd& values, bool higher_is_better) {
  Eigen::MatrixXd ranks(values.rows(), values.cols());
  std::vector<Eigen::Index> order(static_cast<std::size_t>(values.cols()));
  for (Eigen::Index b = 0; b < values.rows(); ++b) {
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::sort(order.begin(), order.end(), [&](Eigen::Index x, Eigen::Index y) {
      return higher_is_better ? values(b, x) > values(b, y) : values(b, x) < values(b, y);
    });
    for (std::size_t first = 0; first < order.size();) {
      std::size_t last = first + 1;
      while (last < order.size() && values(b, order[last]) == values(b, order[first])) ++last;
      const double mid_rank = 0.5 * static_cast<double>(first + 1 + last);  // mean of first+1 .. last
      for (std::size_t i = first; i < last; ++i) ranks(b, order[i]) = mid_rank;
      first = last;
    }
  }
  return ranks;
}

FriedmanResult friedman_test(const Eigen::MatrixXd& values, const FriedmanOptions& options) {
  if (values.cols() < 2) throw Error(fmt::format("Friedman test: {} treatments (need >= 2)", values.cols()));
  if (values.rows() < 1) throw Error("Friedman test: no block");
  if (!values.allFinite()) throw Error("Friedman test: a value is not finite");
  FriedmanResult result;
  result.blocks = static_cast<int>(values.rows());
  result.treatments = static_cast<int>(values.cols());
  const double n = result.blocks, k = result.treatments;
  const Eigen::MatrixXd ranks = ranks_within_blocks(values, options.higher_is_better);
  const Eigen::VectorXd mean = ranks.colwise().mean();
  result.mean_ranks.assign(mean.data(), mean.data() + mean.size());
  result.statistic = 12.0 * n / (k * (k + 1.0)) * (mean.squaredNorm() - k * (k + 1.0) * (k + 1.0) / 4.0);
  if (options.tie_correction) {
    double ties = 0.0;  // sum over tie groups of t^3 - t
    for (Eigen::Index b = 0; b < ranks.rows(); ++b) {
      std::vector<double> row;
      for (Eigen::Index j = 0; j < ranks.cols(); ++j) row.push_back(ranks(b, j));
      std::sort(row.begin(), row.end());
      for (std::size_t first = 0; first < row.size();) {
        std::size_t last = first + 1;
        while (last < row.size() && row[last] == row[first]) ++last;
        const double t = static_cast<double>(last - first);
        ties += t * t * t - t;
        first = last;
      }
    }
    const double correction = 1.0 - ties / (n * (k * k * k - k));
    if (correction > 0.0) result.statistic /= correction;
  }
  result.statistic = std::max(0.0, result.statistic);
  result.degrees_of_freedom = result.treatments - 1;
  result.p_value = chi_square_survival(result.statistic, result.degrees_of_freedom);
  return result;
}

Eigen::MatrixXd nemenyi_p_values(const std::vector<double>& mean_ranks, int blocks) {
  const auto k = static_cast<int>(mean_ranks.size());
  check_k(k);
  if (blocks < 1) throw Error("Nemenyi test: no block");
  const double scale = std::sqrt(k * (k + 1.0) / (12.0 * blocks));
  Eigen::MatrixXd p = Eigen::MatrixXd::Ones(k, k);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < i; ++j) {
      const double q = std::abs(mean_ranks[static_cast<std::size_t>(i)] - mean_ranks[static_cast<std::size_t>(j)]) / scale;
      p(i, j) = p(j, i) = studentized_range_survival(q, k);
    }
  return p;
}

double nemenyi_critical_difference(int treatments, int blocks, double alpha) {
  check_k(treatments);
  if (blocks < 1) throw Error("Nemenyi critical difference: no block");
  if (!(alpha > 0.0 && alpha < 1.0)) throw Error(fmt::format("Nemenyi critical difference: alpha = {}", alpha));
  double low = 0.0, high = 20.0;  // P(Q > 20) is far below any useful alpha
  for (int i = 0; i < 100 && high - low > 1e-12; ++i) {
    const double mid = 0.5 * (low + high);
    (studentized_range_survival(mid, treatments) > alpha ? low : high) = mid;
  }
  const double q_alpha = 0.5 * (low + high) / std::numbers::sqrt2;
  return q_alpha * std::sqrt(treatments * (treatments + 1.0) / (6.0 * blocks));
}

double kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw Error(fmt::format("Kendall tau: {} and {} values", x.size(), y.size()));
  if (x.size() < 2) throw Error("Kendall tau: fewer than 2 pairs");
  double concordant_minus_discordant = 0.0, tied_x = 0.0, tied_y = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx == 0.0) tied_x += 1.0;
      if (dy == 0.0) tied_y += 1.0;
      if (dx != 0.0 && dy != 0.0) concordant_minus_discordant += (dx > 0.0) == (dy > 0.0) ? 1.0 : -1.0;
    }
  const double pairs = 0.5 * static_cast<double>(x.size()) * static_cast<double>(x.size() - 1);
  const double denominator = std::sqrt((pairs - tied_x) * (pairs - tied_y));
  return denominator > 0.0 ? concordant_minus_discordant / denominator : std::nan("");
}

}  // namespace mpg::stats
