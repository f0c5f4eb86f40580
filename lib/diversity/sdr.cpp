#include "lib/diversity/sdr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include <Eigen/Cholesky>
#include <queue>

#include "lib/base/error.hpp"
#include "lib/diversity/protocol.hpp"

namespace mpg::diversity {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

enum class Saturation { modular, power, max };

Saturation saturation_of(double gamma) {
  if (gamma == 1.0) return Saturation::modular;
  if (gamma == 0.0) return Saturation::max;
  return Saturation::power;
}

// f(t) = t^gamma; sqrt for gamma = 1/2 (exact and several times faster than pow).
double saturate(double t, double gamma) { return gamma == 0.5 ? std::sqrt(t) : std::pow(t, gamma); }

// The per-profile-item state of a greedy run: s_kappa = f^{-1}-sum (or max) over the selected
// columns and f_kappa = f(s_kappa), and the gain of adding a column.
class CoverageState {
 public:
  explicit CoverageState(const CoverageProblem& problem)
      : problem_(problem),
        kind_(saturation_of(problem.gamma)),
        sum_(Eigen::VectorXd::Zero(problem.cover.rows())),
        saturated_(Eigen::VectorXd::Zero(problem.cover.rows())),
        slope_(Eigen::VectorXd::Zero(problem.cover.rows())) {}

  // cov(P, S + j) - cov(P, S). Every term is clamped at 0 so that rounding never makes a gain
  // negative; the same arithmetic in plain and lazy greedy gives bit-identical gains.
  double gain(Eigen::Index j) const {
    const double* cover = problem_.cover.col(j).data();
    const double* v = problem_.utility.data();
    const Eigen::Index m = problem_.cover.rows();
    double total = 0.0;
    switch (kind_) {
      case Saturation::modular:
        for (Eigen::Index r = 0; r < m; ++r) total += v[r] * cover[r];
        break;
      case Saturation::max:
        for (Eigen::Index r = 0; r < m; ++r)
          if (cover[r] > sum_[r]) total += v[r] * (cover[r] - sum_[r]);
        break;
      case Saturation::power: {
        const double* cached = problem_.saturated.size() > 0 ? problem_.saturated.col(j).data() : nullptr;
        for (Eigen::Index r = 0; r < m; ++r)
          if (cover[r] > 0.0) {
            // Not covered yet: f(0 + c) - f(0) = f(c), the cached value when there is one.
            const double f = cached != nullptr && sum_[r] == 0.0 ? cached[r] : saturate(sum_[r] + cover[r], problem_.gamma);
            total += v[r] * std::max(0.0, f - saturated_[r]);
          }
        break;
      }
    }
    return total;
  }

  // An upper bound of gain(j) without a pow, where one exists (power saturation with the f(cover)
  // cache): by concavity of f and f(0) = 0, f(s + c) - f(s) <= min(f(c), f'(s) c), and
  // f'(s) = gamma f(s) / s. For s = 0 the term is f(c) itself.
  bool has_upper_bound() const { return kind_ == Saturation::power && problem_.saturated.size() > 0; }
  double upper_bound(Eigen::Index j) const {
    const double* cover = problem_.cover.col(j).data();
    const double* cached = problem_.saturated.col(j).data();
    const double* v = problem_.utility.data();
    double total = 0.0;
    for (Eigen::Index r = 0; r < problem_.cover.rows(); ++r)
      if (cover[r] > 0.0) total += v[r] * (sum_[r] == 0.0 ? cached[r] : std::min(cached[r], slope_[r] * cover[r]));
    return total;
  }

  void add(Eigen::Index j) {
    const double* cover = problem_.cover.col(j).data();
    for (Eigen::Index r = 0; r < problem_.cover.rows(); ++r) {
      if (kind_ == Saturation::max) {
        sum_[r] = std::max(sum_[r], cover[r]);
      } else if (cover[r] > 0.0) {
        sum_[r] += cover[r];
        saturated_[r] = kind_ == Saturation::modular ? sum_[r] : saturate(sum_[r], problem_.gamma);
        if (kind_ == Saturation::power) slope_[r] = problem_.gamma * saturated_[r] / sum_[r];
      }
    }
  }

 private:
  const CoverageProblem& problem_;
  Saturation kind_;
  Eigen::VectorXd sum_;
  Eigen::VectorXd saturated_;
  Eigen::VectorXd slope_;  // f'(s_kappa) where s_kappa > 0
};

// (gain, column) pairs ordered best first: larger gain, then smaller candidate id.
struct Better {
  const std::vector<int>* ids;
  bool operator()(double gain_a, Eigen::Index a, double gain_b, Eigen::Index b) const {
    return gain_a != gain_b ? gain_a > gain_b : (*ids)[a] < (*ids)[b];
  }
};

void check_problem(const CoverageProblem& problem) {
  const Eigen::Index m = problem.cover.rows();
  if (problem.saturated.size() > 0 &&
      (problem.saturated.rows() != m || problem.saturated.cols() != problem.cover.cols()))
    throw Error("coverage problem: the saturated cache does not have the cover's shape");
  if (problem.utility.size() != m)
    throw Error(fmt::format("coverage problem: {} utilities for {} profile items", problem.utility.size(), m));
  if (static_cast<Eigen::Index>(problem.candidates.size()) != problem.cover.cols())
    throw Error(fmt::format("coverage problem: {} candidate ids for {} columns", problem.candidates.size(),
                            problem.cover.cols()));
  if (!(problem.gamma >= 0.0 && problem.gamma <= 1.0))
    throw Error(fmt::format("coverage problem: gamma = {} is outside [0, 1]", problem.gamma));
}

}  // namespace

Eigen::MatrixXd saturated_cover(const Eigen::MatrixXd& cover, double gamma) {
  if (saturation_of(gamma) != Saturation::power) return {};
  return cover.unaryExpr([gamma](double c) { return saturate(c, gamma); });
}

CoverageProblem make_coverage_problem(const Eigen::MatrixXd& similarity, Eigen::VectorXd utility,
                                      std::vector<int> candidates, double gamma) {
  if (!(gamma >= 0.0 && gamma <= 1.0)) throw Error(fmt::format("SDR: gamma = {} is outside [0, 1]", gamma));
  if (utility.size() != similarity.rows())
    throw Error(fmt::format("SDR: {} utilities for {} profile items", utility.size(), similarity.rows()));
  if (static_cast<Eigen::Index>(candidates.size()) != similarity.cols())
    throw Error(fmt::format("SDR: {} candidate ids for {} columns", candidates.size(), similarity.cols()));
  if ((utility.array() < 0.0).any() || !utility.allFinite()) throw Error("SDR: utilities must be finite and >= 0");
  if ((similarity.array() < 0.0).any() || (similarity.array() > 1.0).any() || similarity.hasNaN())
    throw Error("SDR: similarities must lie in [0, 1]");
  CoverageProblem problem;
  problem.gamma = gamma;
  const Saturation kind = saturation_of(gamma);
  problem.cover = kind == Saturation::power ? similarity.array().pow(1.0 / gamma).matrix() : similarity;
  problem.utility = std::move(utility);
  problem.candidates = std::move(candidates);
  return problem;
}

namespace {

// Greedy (plain or lazy); `singletons`, when given, are the gains of every column with nothing
// selected (the lazy greedy's first pass), the same doubles CoverageState computes.
GreedyResult greedy(const CoverageProblem& problem, const GreedyOptions& options, const Eigen::VectorXd* singletons) {
  const auto start = Clock::now();
  const Eigen::Index p = problem.cover.cols();
  const std::size_t k = std::min(options.k, static_cast<std::size_t>(p));
  const Better better{&problem.candidates};
  CoverageState state(problem);
  GreedyResult result;
  auto select = [&](Eigen::Index column, double gain) {
    state.add(column);
    result.columns.push_back(static_cast<int>(column));
    result.items.push_back(problem.candidates[column]);
    result.gains.push_back(gain);
  };
  if (!options.lazy) {
    std::vector<bool> chosen(p, false);
    for (std::size_t step = 0; step < k; ++step) {
      Eigen::Index best = -1;
      double best_gain = 0.0;
      for (Eigen::Index j = 0; j < p; ++j) {
        if (chosen[j]) continue;
        const double g = state.gain(j);
        ++result.summary.gain_evaluations;
        if (best < 0 || better(g, j, best_gain, best)) best = j, best_gain = g;
      }
      chosen[best] = true;
      select(best, best_gain);
    }
  } else if (k > 0) {
    // Stale gains are upper bounds of fresh ones (submodularity). Bounds are inflated by a
    // relative 1e-9 and an absolute 1e-12 of the largest singleton gain so that rounding in a
    // fresh gain can never exceed its stale bound: the selection is then exactly plain greedy's
    // argmax (larger gain, then smaller id) over the fresh gains.
    struct Entry {
      double gain;
      Eigen::Index column;
    };
    auto worse = [&](const Entry& a, const Entry& b) { return better(b.gain, b.column, a.gain, a.column); };
    std::priority_queue<Entry, std::vector<Entry>, decltype(worse)> stale(worse);
    double largest = 0.0;
    std::vector<Entry> fresh;
    fresh.reserve(static_cast<std::size_t>(p));
    for (Eigen::Index j = 0; j < p; ++j) {
      fresh.push_back({singletons != nullptr ? (*singletons)[j] : state.gain(j), j});
      largest = std::max(largest, fresh.back().gain);
    }
    result.summary.gain_evaluations += static_cast<std::size_t>(p);
    const double slack = 1e-12 * largest + std::numeric_limits<double>::min();
    auto bound = [&](const Entry& e) { return e.gain * (1.0 + 1e-9) + slack; };
    auto is_better = [&](const Entry& a, const Entry& b) { return better(a.gain, a.column, b.gain, b.column); };
    for (std::size_t step = 0; step < k; ++step) {
      std::size_t best = 0;  // index of the best fresh entry
      for (std::size_t i = 1; i < fresh.size(); ++i)
        if (is_better(fresh[i], fresh[best])) best = i;
      // Re-evaluate stale candidates while one could still beat (or tie) the best fresh gain; a
      // candidate whose pow-free upper bound already falls short goes back with that bound.
      while (!stale.empty() && (fresh.empty() || bound(stale.top()) >= fresh[best].gain)) {
        const Entry top = stale.top();
        const Eigen::Index column = top.column;
        stale.pop();
        if (!fresh.empty() && state.has_upper_bound()) {
          const Entry tighter{std::min(top.gain, state.upper_bound(column)), column};
          ++result.summary.bound_evaluations;
          if (bound(tighter) < fresh[best].gain) {
            stale.push(tighter);
            continue;
          }
        }
        fresh.push_back({state.gain(column), column});
        ++result.summary.gain_evaluations;
        if (is_better(fresh.back(), fresh[best])) best = fresh.size() - 1;
      }
      const Entry chosen = fresh[best];
      fresh.erase(fresh.begin() + static_cast<std::ptrdiff_t>(best));
      for (const Entry& e : fresh) stale.push(e);
      fresh.clear();
      select(chosen.column, chosen.gain);
    }
  }
  result.summary.objective = profile_coverage(problem, result.columns);
  result.summary.seconds = seconds_since(start);
  return result;
}

}  // namespace

double profile_coverage(const CoverageProblem& problem, const std::vector<int>& selected) {
  check_problem(problem);
  const Saturation kind = saturation_of(problem.gamma);
  double total = 0.0;
  for (Eigen::Index r = 0; r < problem.cover.rows(); ++r) {
    double t = 0.0;
    for (const int j : selected) t = kind == Saturation::max ? std::max(t, problem.cover(r, j)) : t + problem.cover(r, j);
    total += problem.utility[r] * (kind == Saturation::power ? saturate(t, problem.gamma) : t);
  }
  return total;
}

GreedyResult sdr_greedy(const CoverageProblem& problem, const GreedyOptions& options) {
  check_problem(problem);
  return greedy(problem, options, nullptr);
}

Eigen::MatrixXd gather_symmetric_block(const Eigen::MatrixXd& symmetric, const std::vector<int>& rows,
                                       const std::vector<int>& columns) {
  // Block(r, j) = M(columns[j], rows[r]): whole columns rows[r] read in order, eight at a time, so
  // that both the reads (eight increasing streams) and the writes (a cache line per j) are dense.
  constexpr std::size_t kTile = 8;
  const auto m = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd block(m, static_cast<Eigen::Index>(columns.size()));
  for (std::size_t r0 = 0; r0 < rows.size(); r0 += kTile) {
    const std::size_t tile = std::min(kTile, rows.size() - r0);
    const double* source[kTile];
    for (std::size_t t = 0; t < tile; ++t) source[t] = symmetric.col(rows[r0 + t]).data();
    for (std::size_t j = 0; j < columns.size(); ++j) {
      double* out = block.data() + static_cast<Eigen::Index>(j) * m + static_cast<Eigen::Index>(r0);
      for (std::size_t t = 0; t < tile; ++t) out[t] = source[t][columns[j]];
    }
  }
  return block;
}

CoverageMatrices make_coverage_matrices(const Eigen::MatrixXd& similarity, double gamma, bool with_saturated) {
  if (!(gamma >= 0.0 && gamma <= 1.0)) throw Error(fmt::format("SDR: gamma = {} is outside [0, 1]", gamma));
  require_symmetric(similarity, "SDR");
  if ((similarity.array() < 0.0).any() || (similarity.array() > 1.0).any() || similarity.hasNaN())
    throw Error("SDR: similarities must lie in [0, 1]");
  CoverageMatrices matrices;
  matrices.gamma = gamma;
  matrices.cover = saturation_of(gamma) == Saturation::power ? similarity.array().pow(1.0 / gamma).matrix() : similarity;
  if (with_saturated) matrices.saturated = saturated_cover(matrices.cover, gamma);
  return matrices;
}

GreedyResult sdr_greedy(const CoverageMatrices& matrices, const std::vector<int>& profile, const Eigen::VectorXd& utility,
                        const std::vector<int>& candidates, const GreedyOptions& options) {
  const Eigen::Index n = matrices.cover.rows();
  if (utility.size() != static_cast<Eigen::Index>(profile.size()))
    throw Error(fmt::format("SDR: {} utilities for {} profile items", utility.size(), profile.size()));
  for (const std::vector<int>* indices : {&profile, &candidates})
    for (const int i : *indices)
      if (i < 0 || i >= n) throw Error(fmt::format("SDR: item {} outside the {} x {} coverage matrices", i, n, n));
  if ((utility.array() < 0.0).any() || !utility.allFinite()) throw Error("SDR: utilities must be finite and >= 0");
  CoverageProblem problem;
  problem.gamma = matrices.gamma;
  problem.cover = gather_symmetric_block(matrices.cover, profile, candidates);
  if (matrices.saturated.size() > 0) problem.saturated = gather_symmetric_block(matrices.saturated, profile, candidates);
  problem.utility = utility;
  problem.candidates = candidates;
  if (!options.lazy) return greedy(problem, options, nullptr);
  // Singleton gains sum_kappa v_kappa f(cover(kappa, j)) for every item at once: by symmetry row
  // kappa is column kappa, so they are m contiguous column sums (in kappa order, as the state's
  // own loop adds them: the same doubles).
  const Eigen::MatrixXd& values = matrices.saturated.size() > 0 ? matrices.saturated : matrices.cover;
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(n);
  for (std::size_t r = 0; r < profile.size(); ++r) sums.noalias() += utility[static_cast<Eigen::Index>(r)] * values.col(profile[r]);
  Eigen::VectorXd singletons(static_cast<Eigen::Index>(candidates.size()));
  for (std::size_t j = 0; j < candidates.size(); ++j) singletons[static_cast<Eigen::Index>(j)] = sums[candidates[j]];
  return greedy(problem, options, &singletons);
}

double relaxed_coverage(const CoverageProblem& problem, const Eigen::VectorXd& alpha) {
  check_problem(problem);
  const Eigen::VectorXd t = problem.cover * alpha;
  const Saturation kind = saturation_of(problem.gamma);
  if (kind == Saturation::max) throw Error("SDR relaxation: gamma must be in (0, 1]");
  return kind == Saturation::modular ? problem.utility.dot(t) : problem.utility.dot(t.array().pow(problem.gamma).matrix());
}

namespace {

// The largest face on which SDR conv takes Newton steps (its Hessian costs m |F|^2).
constexpr std::size_t kMaxNewtonFace = 64;

// The maximizer of the concave phi(eta) = sum_r v_r (t_r + eta d_r)^gamma on [0, eta_max] (exact
// line search), by Newton's method safeguarded with bisection on the sign of phi'.
double line_search(const Eigen::VectorXd& v, double gamma, const Eigen::VectorXd& t, const Eigen::VectorXd& d,
                   double eta_max) {
  auto derivatives = [&](double eta, double& first, double& second) {
    first = second = 0.0;
    for (Eigen::Index r = 0; r < t.size(); ++r) {
      if (d[r] == 0.0) continue;
      const double x = std::max(t[r] + eta * d[r], 0.0);
      const double power = std::pow(x, gamma - 2.0);  // x^(gamma-2); x^(gamma-1) = x * power
      first += v[r] * gamma * x * power * d[r];
      second += v[r] * gamma * (gamma - 1.0) * power * d[r] * d[r];
    }
  };
  double first = 0.0, second = 0.0;
  derivatives(eta_max, first, second);
  if (first >= 0.0) return eta_max;  // (x = 0 gives -inf or NaN: not >= 0)
  double low = 0.0, high = eta_max, eta = 0.0;
  for (int iteration = 0; iteration < 100 && high - low > 1e-16 * std::max(1.0, high); ++iteration) {
    derivatives(eta, first, second);
    if (first == 0.0) return eta;
    (first > 0.0 ? low : high) = eta;
    const double newton = eta - first / second;
    eta = std::isfinite(newton) && newton > low && newton < high ? newton : 0.5 * (low + high);
  }
  return low;
}

// Indices of the k largest entries of values[index[i]] (ties to the smaller index), unordered.
std::vector<Eigen::Index> top_k(const Eigen::VectorXd& values, std::vector<Eigen::Index> index, Eigen::Index k) {
  std::nth_element(index.begin(), index.begin() + k, index.end(), [&](Eigen::Index a, Eigen::Index b) {
    return values[a] != values[b] ? values[a] > values[b] : a < b;
  });
  index.resize(static_cast<std::size_t>(k));
  return index;
}

}  // namespace

RelaxationResult sdr_relaxed(const CoverageProblem& problem, const FrankWolfeOptions& options) {
  check_problem(problem);
  const auto start = Clock::now();
  const double gamma = problem.gamma;
  if (!(gamma > 0.0)) throw Error("SDR relaxation: gamma must be in (0, 1] (gamma -> 0 has no concave relaxation)");
  if (options.max_iterations < 1) throw Error("SDR relaxation: max_iterations must be >= 1");
  if (!(options.tolerance >= 0.0)) throw Error("SDR relaxation: the tolerance must be >= 0");
  const Eigen::Index p = problem.cover.cols();
  const auto k = static_cast<Eigen::Index>(std::min(options.k, static_cast<std::size_t>(p)));
  RelaxationResult result;
  FrankWolfeSummary& summary = result.summary;
  result.alpha = Eigen::VectorXd::Zero(p);

  // Profile items with v > 0 and some cover: the others add nothing to F or its gradient.
  std::vector<Eigen::Index> rows;
  const Eigen::VectorXd row_max = p > 0 ? problem.cover.rowwise().maxCoeff().eval() : Eigen::VectorXd::Zero(problem.cover.rows());
  for (Eigen::Index r = 0; r < problem.cover.rows(); ++r)
    if (problem.utility[r] > 0.0 && row_max[r] > 0.0) rows.push_back(r);
  const auto m = static_cast<Eigen::Index>(rows.size());
  // The problem's own block when every row stays (the usual case: no copy).
  const bool every_row = m == problem.cover.rows();
  Eigen::MatrixXd kept_cover;
  Eigen::VectorXd kept_utility;
  if (!every_row) kept_cover = problem.cover(rows, Eigen::all), kept_utility = problem.utility(rows);
  const Eigen::MatrixXd& cover = every_row ? problem.cover : kept_cover;
  const Eigen::VectorXd& v = every_row ? problem.utility : kept_utility;
  auto objective = [&](const Eigen::VectorXd& t) { return v.dot(t.array().pow(gamma).matrix()); };
  auto weights = [&](const Eigen::VectorXd& t) { return (v.array() * gamma * t.array().pow(gamma - 1.0)).matrix().eval(); };

  // Working set W: the 3k (at least 64) best singletons and each profile item's best cover, so
  // that every t_r > 0 while alpha > 0 on W. Columns enter W when the full gradient says so.
  std::vector<bool> in_set(static_cast<std::size_t>(p), false);
  std::vector<Eigen::Index> working;
  auto enter = [&](Eigen::Index j) {
    if (!in_set[j]) in_set[j] = true, working.push_back(j);
  };
  Eigen::VectorXd full_gradient = cover.transpose() * v;  // singleton values (up to gamma) for the start
  std::vector<Eigen::Index> all(static_cast<std::size_t>(p));
  std::iota(all.begin(), all.end(), Eigen::Index{0});
  for (const Eigen::Index j : top_k(full_gradient, all, std::min<Eigen::Index>(p, std::max<Eigen::Index>(3 * k, 64)))) enter(j);
  for (Eigen::Index i = 0; i < m; ++i) {
    Eigen::Index best = 0;
    cover.row(i).maxCoeff(&best);
    enter(best);
  }
  for (const Eigen::Index j : working) result.alpha[j] = static_cast<double>(k) / static_cast<double>(working.size());
  Eigen::VectorXd t = cover * result.alpha;

  // Pairwise (in-face) Frank-Wolfe steps on W (Garber and Meshi 2016): s = the linear oracle's
  // vertex (1 on the k largest gradients), a = the away vertex in the minimal face of alpha
  // (1 where alpha = 1, 0 where alpha = 0, and 1 on the free coordinates of smallest gradient);
  // alpha moves along s - a. The duality gap of the full problem, <g, s_full - alpha>, is checked
  // whenever W's gap meets the tolerance.
  Eigen::VectorXd gradient(p);
  Eigen::VectorXd direction(m);
  int iterations = 0;
  // alpha += eta * delta on `coordinates` with the exact line search over the feasible steps;
  // a coordinate that reaches its bound at the longest step is set to the bound exactly.
  auto take_step = [&](const std::vector<Eigen::Index>& coordinates, const std::vector<double>& delta) {
    double eta_max = std::numeric_limits<double>::infinity();
    direction.setZero();
    for (std::size_t i = 0; i < coordinates.size(); ++i) {
      const double a = result.alpha[coordinates[i]];
      if (delta[i] > 0.0) eta_max = std::min(eta_max, (1.0 - a) / delta[i]);
      if (delta[i] < 0.0) eta_max = std::min(eta_max, a / -delta[i]);
      direction += delta[i] * cover.col(coordinates[i]);
    }
    if (!(eta_max > 0.0) || !std::isfinite(eta_max)) return;
    const double eta = line_search(v, gamma, t, direction, eta_max);
    for (std::size_t i = 0; i < coordinates.size(); ++i) {
      double& a = result.alpha[coordinates[i]];
      const double limit = delta[i] > 0.0 ? (1.0 - a) / delta[i] : delta[i] < 0.0 ? a / -delta[i] : 0.0;
      if (eta == eta_max && limit == eta_max) a = delta[i] > 0.0 ? 1.0 : 0.0;
      else a = std::clamp(a + eta * delta[i], 0.0, 1.0);
    }
    t = iterations % 50 == 0 ? (cover * result.alpha).eval() : (t + eta * direction).eval();
  };
  // Newton's direction for max F over the free coordinates F with their sum fixed, in the
  // basis d = Z z of {1^T d = 0}, Z = [I; -1^T]: (Z^T A Z + ridge) z = Z^T g_F, where
  // A = -H_F = C_F^T diag(v gamma (1 - gamma) t^(gamma-2)) C_F (PSD) and g_F = C_F^T u.
  auto face_newton_step = [&](const std::vector<Eigen::Index>& face) {
    const auto n = static_cast<Eigen::Index>(face.size());
    Eigen::MatrixXd block(m, n);
    for (Eigen::Index i = 0; i < n; ++i) block.col(i) = cover.col(face[static_cast<std::size_t>(i)]);
    // Z^T C_F^T = (C_F Z)^T: column i of C_F Z is C_i - C_last.
    const Eigen::MatrixXd reduced = block.leftCols(n - 1).colwise() - block.col(n - 1);
    const Eigen::VectorXd curvature = (v.array() * gamma * (1.0 - gamma) * t.array().pow(gamma - 2.0)).matrix();
    Eigen::MatrixXd hessian = reduced.transpose() * curvature.asDiagonal() * reduced;
    hessian.diagonal().array() += 1e-12 * std::max(1e-300, hessian.diagonal().maxCoeff());
    const Eigen::VectorXd g = reduced.transpose() * weights(t);
    const Eigen::VectorXd z = hessian.ldlt().solve(g);
    if (!z.allFinite() || g.dot(z) <= 0.0) return;
    std::vector<double> delta(z.data(), z.data() + (n - 1));
    delta.push_back(-z.sum());
    take_step(face, delta);
  };
  for (;;) {
    const Eigen::VectorXd u = weights(t);
    for (const Eigen::Index j : working) gradient[j] = cover.col(j).dot(u);
    summary.objective = objective(t);
    const double tolerance = options.tolerance * std::max(1.0, summary.objective);
    const std::vector<Eigen::Index> toward = top_k(gradient, working, k);
    double gap = -gradient(working).dot(result.alpha(working));
    for (const Eigen::Index j : toward) gap += gradient[j];
    if (gap <= tolerance || iterations == options.max_iterations) {
      // Full check: the gap over every candidate (alpha is 0 outside W).
      full_gradient.noalias() = cover.transpose() * u;
      const std::vector<Eigen::Index> best = top_k(full_gradient, all, k);
      double full_gap = -full_gradient.dot(result.alpha);
      for (const Eigen::Index j : best) full_gap += full_gradient[j];
      summary.gap = std::max(0.0, full_gap);
      if (summary.gap <= tolerance) {
        summary.converged = true;
        break;
      }
      if (iterations == options.max_iterations) break;
      // Violators: columns outside W above W's k-th largest gradient (the best 2k of them).
      double threshold = gradient[toward[0]];
      for (const Eigen::Index j : toward) threshold = std::min(threshold, gradient[j]);
      std::vector<Eigen::Index> outside;
      for (Eigen::Index j = 0; j < p; ++j)
        if (!in_set[j] && full_gradient[j] > threshold) outside.push_back(j);
      if (outside.empty()) {  // W's gap is the full gap up to rounding: nothing left to add
        summary.converged = true;
        break;
      }
      for (const Eigen::Index j : top_k(full_gradient, outside, std::min<Eigen::Index>(2 * k, static_cast<Eigen::Index>(outside.size()))))
        enter(j);
      continue;
    }
    ++iterations;
    // The away vertex: fixed ones, then the free coordinates of smallest gradient.
    std::vector<Eigen::Index> ones, free;
    for (const Eigen::Index j : working) {
      if (result.alpha[j] >= 1.0) ones.push_back(j);
      else if (result.alpha[j] > 0.0) free.push_back(j);
    }
    const auto need = std::clamp<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(k) - static_cast<std::ptrdiff_t>(ones.size()), 0,
                                                 static_cast<std::ptrdiff_t>(free.size()));
    std::nth_element(free.begin(), free.begin() + need, free.end(), [&](Eigen::Index a, Eigen::Index b) {
      return gradient[a] != gradient[b] ? gradient[a] < gradient[b] : a > b;
    });
    std::vector<bool> in_toward(static_cast<std::size_t>(p), false), in_away(static_cast<std::size_t>(p), false);
    for (const Eigen::Index j : toward) in_toward[j] = true;
    for (const Eigen::Index j : ones) in_away[j] = true;
    for (std::ptrdiff_t i = 0; i < need; ++i) in_away[free[static_cast<std::size_t>(i)]] = true;
    std::vector<Eigen::Index> up, down;  // +1 and -1 coordinates of s - a
    for (const Eigen::Index j : working) {
      if (in_toward[j] && !in_away[j]) up.push_back(j);
      if (in_away[j] && !in_toward[j]) down.push_back(j);
    }
    std::vector<Eigen::Index> moved = up;
    moved.insert(moved.end(), down.begin(), down.end());
    std::vector<double> delta(up.size(), 1.0);
    delta.resize(moved.size(), -1.0);
    take_step(moved, delta);
    // Then a Newton step on the face of alpha when it has few free coordinates: pairwise steps
    // alone zigzag inside a face (their direction s - a is combinatorial).
    free.clear();
    for (const Eigen::Index j : working)
      if (result.alpha[j] > 0.0 && result.alpha[j] < 1.0) free.push_back(j);
    if (free.size() >= 2 && free.size() <= kMaxNewtonFace && iterations < options.max_iterations) {
      ++iterations;
      face_newton_step(free);
    }
  }
  summary.iterations = iterations;
  summary.working_set = working.size();

  // The ranking: alpha descending, then the final gradient, then the smaller id.
  std::vector<Eigen::Index> order = all;
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](Eigen::Index a, Eigen::Index b) {
    if (result.alpha[a] != result.alpha[b]) return result.alpha[a] > result.alpha[b];
    if (full_gradient[a] != full_gradient[b]) return full_gradient[a] > full_gradient[b];
    return problem.candidates[a] < problem.candidates[b];
  });
  for (Eigen::Index i = 0; i < k; ++i) {
    result.columns.push_back(static_cast<int>(order[i]));
    result.items.push_back(problem.candidates[order[i]]);
  }
  summary.seconds = seconds_since(start);
  return result;
}

}  // namespace mpg::diversity
