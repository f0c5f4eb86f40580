#include "baselines/weighted_svm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "baselines/weighted_svm_primal.hpp"
#include "lib/base/error.hpp"

namespace mpg {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The rows without the constant column, the signs y_i in {-1, +1} and the box U_i.
struct Problem {
  long n = 0;
  long d = 0;  // columns without the constant one
  std::vector<long> row_start;
  std::vector<int> column;
  std::vector<double> value;
  std::vector<double> sign;
  std::vector<double> upper;
  std::vector<double> squared_norm;  // Q_ii = ||x_i||^2
  double scale = 0.0;                // s (0: no offset)
};

void check_options(const WeightedSvmOptions& o) {
  auto positive = [](double v) { return v > 0.0 && std::isfinite(v); };
  if (!positive(o.C)) throw Error(fmt::format("weighted SVM: C must be positive, got {}", o.C));
  if (!positive(o.positive_weight) || !positive(o.negative_weight)) {
    throw Error(fmt::format("weighted SVM: class weights must be positive, got {} and {}",
                            o.positive_weight, o.negative_weight));
  }
  if (!(o.offset_feature >= 0.0) || !std::isfinite(o.offset_feature)) {
    throw Error(fmt::format("weighted SVM: offset_feature must be >= 0, got {}", o.offset_feature));
  }
  if (!positive(o.relative_gap) || !positive(o.inner_epsilon)) {
    throw Error("weighted SVM: relative_gap and inner_epsilon must be positive");
  }
  if (o.max_iterations < 1 || o.max_outer_iterations < 1 || o.max_newton_iterations < 1) {
    throw Error("weighted SVM: max_iterations, max_outer_iterations and max_newton_iterations must be >= 1");
  }
}

// Largest column count primal_newton accepts when asked for explicitly (a dense D x D system).
constexpr long kPrimalNewtonHardLimit = 4096;

WeightedSvmSolver resolve_solver(WeightedSvmSolver solver, long columns) {
  if (solver == WeightedSvmSolver::automatic) {
    return columns <= kPrimalNewtonMaxColumns ? WeightedSvmSolver::primal_newton : WeightedSvmSolver::dual_cd;
  }
  if (solver == WeightedSvmSolver::primal_newton && columns > kPrimalNewtonHardLimit) {
    throw Error(fmt::format("weighted SVM: primal_newton solves a dense system of one row per column, at most {} "
                            "columns, got {}; use dual_cd", kPrimalNewtonHardLimit, columns));
  }
  return solver;
}

Problem make_problem(const SparseRowMatrix& features, const std::vector<int>& labels,
                     const WeightedSvmOptions& o) {
  if (static_cast<long>(labels.size()) != features.rows()) {
    throw Error(fmt::format("weighted SVM: {} labels for {} rows", labels.size(), features.rows()));
  }
  Problem p;
  p.n = features.rows();
  p.scale = o.offset_feature;
  const long last = features.cols() - 1;
  p.d = p.scale > 0.0 ? last : features.cols();
  if (p.scale > 0.0 && last < 0) throw Error("weighted SVM: no column for the constant feature");
  p.row_start.reserve(static_cast<std::size_t>(p.n) + 1);
  p.row_start.push_back(0);
  p.column.reserve(static_cast<std::size_t>(features.nonZeros()));
  p.value.reserve(static_cast<std::size_t>(features.nonZeros()));
  for (long i = 0; i < p.n; ++i) {
    bool has_constant = false;
    double norm = 0.0;
    for (SparseRowMatrix::InnerIterator it(features, i); it; ++it) {
      const double v = it.value();
      if (!std::isfinite(v)) throw Error(fmt::format("weighted SVM: feature of row {} is not finite", i));
      if (p.scale > 0.0 && it.col() == last) {
        if (v != p.scale) {
          throw Error(fmt::format("weighted SVM: row {} has {} in the last column, not the constant "
                                  "feature {}", i, v, p.scale));
        }
        has_constant = true;
        continue;
      }
      if (v == 0.0) continue;
      p.column.push_back(static_cast<int>(it.col()));
      p.value.push_back(v);
      norm += v * v;
    }
    if (p.scale > 0.0 && !has_constant) {
      throw Error(fmt::format("weighted SVM: row {} lacks the constant feature {} in its last column",
                              i, p.scale));
    }
    p.row_start.push_back(static_cast<long>(p.column.size()));
    p.squared_norm.push_back(norm);
    const int y = labels[static_cast<std::size_t>(i)];
    if (y != 0 && y != 1) throw Error(fmt::format("weighted SVM: labels must be 0 or 1, got {}", y));
    p.sign.push_back(y == 1 ? 1.0 : -1.0);
    p.upper.push_back(o.C * (y == 1 ? o.positive_weight : o.negative_weight));
  }
  return p;
}

double row_dot(const Problem& p, long i, const Eigen::VectorXd& w) {
  double s = 0.0;
  for (long k = p.row_start[i]; k < p.row_start[i + 1]; ++k) s += p.value[k] * w[p.column[k]];
  return s;
}

void row_axpy(const Problem& p, long i, double a, Eigen::VectorXd& w) {
  for (long k = p.row_start[i]; k < p.row_start[i + 1]; ++k) w[p.column[k]] += a * p.value[k];
}

struct InnerResult {
  long passes = 0;
  long newton_steps = 0;
  bool capped = false;
};

// One subspace Newton step of the inner dual on its free set F = {i : 0 < a_i < U_i}, the other
// coordinates fixed. With A the f x d matrix of rows y_i x_i (i in F) and G_F = A w + y_F b - 1
// the gradient, the dual restricted to F is G_F^T delta + 1/2 ||A^T delta||^2 + const; A A^T is
// singular as soon as f > rank(A) <= d, so the step is the minimum-norm minimizer over the range
// of A A^T:  delta = -(A A^T)^+ G_F = -(A^+)^T A^+ G_F,  computed from one complete orthogonal
// decomposition of A. Its value change is -1/2 G_F^T (A A^T)^+ G_F <= 0. The step taken is
// a_F <- clip(a_F + s delta) for the largest s in {1, 1/2, ..., 2^-20} whose exact change
// G_F^T delta' + 1/2 ||A^T delta'||^2 is negative, so the dual only increases and coordinate
// descent's convergence (and the certificate) are untouched. Returns the increase of the dual
// (0: no step taken).
double subspace_newton_step(const Problem& p, double b, const std::vector<long>& free, Eigen::VectorXd& alpha,
                            Eigen::VectorXd& w) {
  if (free.empty()) return 0.0;
  const long f = static_cast<long>(free.size());
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(f, p.d);
  Eigen::VectorXd g(f);
  for (long r = 0; r < f; ++r) {
    const long i = free[static_cast<std::size_t>(r)];
    for (long k = p.row_start[i]; k < p.row_start[i + 1]; ++k) a(r, p.column[k]) = p.sign[i] * p.value[k];
    g[r] = p.sign[i] * (row_dot(p, i, w) + b) - 1.0;
  }
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> decomposition(a);
  const Eigen::MatrixXd pseudo_inverse = decomposition.pseudoInverse();  // d x f
  const Eigen::VectorXd direction = -(pseudo_inverse.transpose() * (pseudo_inverse * g));
  if (!direction.allFinite()) return 0.0;
  Eigen::VectorXd delta(f);
  for (double scale = 1.0; scale >= 0x1p-20; scale *= 0.5) {
    for (long r = 0; r < f; ++r) {
      const long i = free[static_cast<std::size_t>(r)];
      delta[r] = std::clamp(alpha[i] + scale * direction[r], 0.0, p.upper[i]) - alpha[i];
    }
    const Eigen::VectorXd moved = a.transpose() * delta;  // change of w
    const double change = g.dot(delta) + 0.5 * moved.squaredNorm();
    if (change < 0.0) {
      for (long r = 0; r < f; ++r) alpha[free[static_cast<std::size_t>(r)]] += delta[r];
      w += moved;
      return -change;
    }
  }
  return 0.0;
}

// Dual coordinate descent for max_{0<=a<=U} sum_i a_i (1 - y_i b) - 1/2 ||w(a)||^2 at fixed b,
// keeping w = w(a). Passes visit the active coordinates in a random order; a coordinate at a
// bound whose gradient points outwards beyond last pass's extreme projected gradients is shrunk
// (removed) until the active set satisfies the stopping rule, then all coordinates are checked
// again (Hsieh et al. 2008, §3 and Alg. 3). Stops when max PG - min PG <= epsilon over a pass of
// all coordinates.
InnerResult inner_solve(const Problem& p, double b, double epsilon, long max_passes, bool shrinking, bool newton,
                        std::mt19937_64& rng, Eigen::VectorXd& alpha, Eigen::VectorXd& w) {
  std::vector<long> index(static_cast<std::size_t>(p.n));
  std::iota(index.begin(), index.end(), 0L);
  long active = p.n;
  double pg_max_old = kInfinity;
  double pg_min_old = -kInfinity;
  InnerResult result;
  // Subspace Newton steps (if `newton`): one is tried once the work (multiply-adds) of the passes
  // since the last one exceeds the step's own cost, f d min(f, d) for f free coordinates (plus its
  // setup over the active set). Measured
  // on split 1 (C path 2^-6..2^6 warm-started, t = 0.1): Yeast label 1 0.97 / 1.03 / 1.63 s CPU with
  // 0.3 / 1 / 3 times that cost (15.6 s and capped at C = 64 without steps); Adult (one-hot rows,
  // cheap shrunk passes, where the steps do not save passes) pays 2-3x its CPU at 0.3, little at 1.
  double work = 0.0;
  std::vector<long> free;
  while (result.passes < max_passes) {
    for (long k = active - 1; k > 0; --k) {
      const long j = static_cast<long>(rng() % static_cast<std::uint64_t>(k + 1));
      std::swap(index[k], index[j]);
    }
    double pg_max = -kInfinity;
    double pg_min = kInfinity;
    for (long s = 0; s < active; ++s) {
      const long i = index[s];
      const double y = p.sign[i];
      const double gradient = y * (row_dot(p, i, w) + b) - 1.0;
      double projected = 0.0;
      if (alpha[i] == 0.0) {
        if (shrinking && gradient > pg_max_old) {
          std::swap(index[s], index[--active]);
          --s;
          continue;
        }
        projected = std::min(gradient, 0.0);
      } else if (alpha[i] == p.upper[i]) {
        if (shrinking && gradient < pg_min_old) {
          std::swap(index[s], index[--active]);
          --s;
          continue;
        }
        projected = std::max(gradient, 0.0);
      } else {
        projected = gradient;
      }
      pg_max = std::max(pg_max, projected);
      pg_min = std::min(pg_min, projected);
      if (std::abs(projected) > 1e-12) {
        const double old = alpha[i];
        // Exact minimization along coordinate i; with Q_ii = 0 the objective is linear in a_i.
        alpha[i] = p.squared_norm[i] > 0.0
                       ? std::clamp(old - gradient / p.squared_norm[i], 0.0, p.upper[i])
                       : (gradient < 0.0 ? p.upper[i] : 0.0);
        row_axpy(p, i, (alpha[i] - old) * y, w);
      }
    }
    ++result.passes;
    if (newton && pg_max - pg_min > epsilon) {
      free.clear();  // free coordinates are never shrunk
      for (long k = 0; k < active; ++k) {
        const long i = index[k];
        work += static_cast<double>(p.row_start[i + 1] - p.row_start[i]) + 1.0;
        if (alpha[i] > 0.0 && alpha[i] < p.upper[i]) free.push_back(i);
      }
      // The step's cost: the decomposition, and its setup over the active set (which dominates
      // for very few columns, e.g. Galaxy's 2).
      const double f = static_cast<double>(free.size()), d = static_cast<double>(p.d);
      if (!free.empty() && work >= f * d * std::min(f, d) + 16.0 * static_cast<double>(active)) {
        std::sort(free.begin(), free.end());  // a deterministic order, whatever the passes' order
        if (subspace_newton_step(p, b, free, alpha, w) > 0.0) ++result.newton_steps;
        work = 0.0;
      }
    }
    if (pg_max - pg_min <= epsilon) {
      if (active == p.n) return result;
      active = p.n;
      pg_max_old = kInfinity;
      pg_min_old = -kInfinity;
      continue;
    }
    pg_max_old = pg_max <= 0.0 ? kInfinity : pg_max;
    pg_min_old = pg_min >= 0.0 ? -kInfinity : pg_min;
  }
  result.capped = true;
  return result;
}

struct Gap {
  double primal = 0.0;
  double dual = 0.0;
  double inner_gap = 0.0;  // P_b(w) - D_b(a)
  double sigma = 0.0;      // sum_i a_i y_i
};

// P(w, b) and D(a) of problem (P) (see the header), and the inner gap at b.
Gap duality_gap(const Problem& p, double b, const Eigen::VectorXd& alpha, const Eigen::VectorXd& w) {
  double loss = 0.0;
  double alpha_sum = 0.0;
  double sigma = 0.0;
  for (long i = 0; i < p.n; ++i) {
    loss += p.upper[i] * std::max(0.0, 1.0 - p.sign[i] * (row_dot(p, i, w) + b));
    alpha_sum += alpha[i];
    sigma += alpha[i] * p.sign[i];
  }
  const double half_norm = 0.5 * w.squaredNorm();
  Gap g;
  g.sigma = sigma;
  const double inner_primal = half_norm + loss;
  const double inner_dual = alpha_sum - b * sigma - half_norm;
  g.inner_gap = inner_primal - inner_dual;
  if (p.scale > 0.0) {
    const double s2 = p.scale * p.scale;
    g.primal = inner_primal + b * b / (2.0 * s2);
    g.dual = alpha_sum - half_norm - 0.5 * s2 * sigma * sigma;
  } else {
    g.primal = inner_primal;
    g.dual = inner_dual;
  }
  return g;
}

// argmin_b b^2 / (2 s^2) + sum_i U_i max(0, 1 - y_i (w . x_i + b)) for a fixed w: the objective
// is convex and piecewise quadratic in b with breakpoints y_i - w . x_i; its derivative
// b / s^2 - sum_{i violated} U_i y_i increases in b, so the root is found by one sorted sweep.
double best_offset(const Problem& p, const Eigen::VectorXd& w) {
  const double s2 = p.scale * p.scale;
  // Example i is violated (1 - y_i (f_i + b) > 0) for b < 1 - f_i if positive, b > -1 - f_i if
  // negative. At b = -infinity every negative is violated, no positive.
  std::vector<std::pair<double, double>> events;  // (breakpoint, change of sum U_i y_i when b passes it)
  double slope_sum = 0.0;                          // sum over violated i of U_i y_i
  for (long i = 0; i < p.n; ++i) {
    const double f = row_dot(p, i, w);
    if (p.sign[i] > 0.0) {
      slope_sum += p.upper[i];  // violated for small b
      events.emplace_back(1.0 - f, -p.upper[i]);
    } else {
      events.emplace_back(-1.0 - f, -p.upper[i]);  // becomes violated: adds U_i * (-1)
    }
  }
  // Positives start violated; at -infinity every positive is violated and no negative is.
  std::sort(events.begin(), events.end());
  double previous = -kInfinity;
  for (const auto& [at, change] : events) {
    // On (previous, at) the derivative is b / s^2 - slope_sum: its root, if inside, is the answer.
    const double root = s2 * slope_sum;
    if (root <= at && root >= previous) return root;
    if (root < previous) return previous;  // the derivative jumped over 0 at a breakpoint
    slope_sum += change;
    previous = at;
  }
  return std::max(s2 * slope_sum, previous);
}

}  // namespace

WeightedSvmModel train_weighted_svm(const SparseRowMatrix& features, const std::vector<int>& labels,
                                    const WeightedSvmOptions& options, WeightedSvmSummary* summary,
                                    const WeightedSvmModel* warm_start) {
  const auto start = std::chrono::steady_clock::now();
  check_options(options);
  const Problem p = make_problem(features, labels, options);
  std::mt19937_64 rng(options.seed);

  if (warm_start != nullptr &&
      (warm_start->dual.size() != p.n || warm_start->weights.size() != features.cols())) {
    throw Error(fmt::format("weighted SVM: warm start has {} dual variables and {} weights for {} rows and {} columns",
                            warm_start->dual.size(), warm_start->weights.size(), p.n, features.cols()));
  }
  if (resolve_solver(options.solver, features.cols()) == WeightedSvmSolver::primal_newton) {
    PrimalNewtonResult primal = train_weighted_svm_primal(features, p.sign, p.upper, options,
                                                          warm_start != nullptr ? &warm_start->weights : nullptr);
    WeightedSvmModel model;
    model.offset = p.scale > 0.0 ? p.scale * primal.weights[p.d] : 0.0;
    model.weights = std::move(primal.weights);
    model.dual = std::move(primal.dual);
    model.positive_bound = options.C * options.positive_weight;
    model.negative_bound = options.C * options.negative_weight;
    primal.summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (summary != nullptr) *summary = primal.summary;
    return model;
  }

  Eigen::VectorXd alpha = Eigen::VectorXd::Zero(p.n);
  double b = 0.0;
  if (warm_start != nullptr) {
    const double ratio_positive = options.C * options.positive_weight / warm_start->positive_bound;
    const double ratio_negative = options.C * options.negative_weight / warm_start->negative_bound;
    for (long i = 0; i < p.n; ++i) {
      const double ratio = p.sign[i] > 0.0 ? ratio_positive : ratio_negative;
      alpha[i] = std::clamp(warm_start->dual[i] * ratio, 0.0, p.upper[i]);
      if (!std::isfinite(alpha[i])) alpha[i] = 0.0;
    }
    if (p.scale > 0.0 && std::isfinite(warm_start->offset)) b = warm_start->offset;
  }
  Eigen::VectorXd w = Eigen::VectorXd::Zero(p.d);
  for (long i = 0; i < p.n; ++i) {
    if (alpha[i] != 0.0) row_axpy(p, i, alpha[i] * p.sign[i], w);
  }

  WeightedSvmSummary s;
  s.solver = WeightedSvmSolver::dual_cd;
  double epsilon = options.inner_epsilon;
  const double s2 = p.scale * p.scale;
  // The ends of the bracket of the root of phi(b) = b / s^2 - sigma(b), with their inner
  // solutions: phi(lo) < 0 < phi(hi) once both are set.
  struct End {
    bool set = false;
    double b = 0.0;
    double phi = 0.0;       // true phi
    double step_phi = 0.0;  // phi as used by the Illinois steps (halved when an end is kept)
    Eigen::VectorXd alpha, w;
  } lo, hi;
  int same_side = 0;  // consecutive updates of the same end
  // First step of the offset's expansion (below): a warm start's b is usually close to the new one.
  double step = warm_start != nullptr ? 0.05 * std::max(1.0, std::abs(b)) : 1.0;
  int expansions = 0;
  Gap gap;
  auto certified = [&](const Gap& g) {
    return g.primal - g.dual <= options.relative_gap * std::max(g.primal, 1e-12);
  };
  // The candidate of smallest duality gap so far, returned if a cap stops the search.
  struct Candidate {
    double gap = kInfinity;
    double b = 0.0;
    Eigen::VectorXd alpha, w;
    Gap g;
  } best;
  auto remember = [&](const Gap& g, double b_value, const Eigen::VectorXd& a, const Eigen::VectorXd& w_value) {
    if (g.primal - g.dual < best.gap) best = {g.primal - g.dual, b_value, a, w_value, g};
  };
  for (;;) {
    const InnerResult inner = inner_solve(p, b, epsilon, options.max_iterations, options.shrinking,
                                          options.subspace_newton, rng, alpha, w);
    s.passes += inner.passes;
    s.newton_steps += inner.newton_steps;
    // w from a afresh: the certificate needs w = w(a) exactly, not up to the rounding that the
    // incremental updates of the passes and steps accumulate.
    w.setZero();
    for (long i = 0; i < p.n; ++i)
      if (alpha[i] != 0.0) row_axpy(p, i, alpha[i] * p.sign[i], w);
    gap = duality_gap(p, b, alpha, w);
    if (certified(gap)) {
      s.converged = true;
      s.status = "converged";
      break;
    }
    if (p.scale > 0.0) {
      // D(a) does not depend on b, so the pair (w(a), best offset for w(a)) is certified by the
      // same dual bound whenever its primal is close enough, possibly before phi(b) = 0 is found.
      const double offset = best_offset(p, w);
      const Gap at_offset = duality_gap(p, offset, alpha, w);
      if (certified(at_offset)) {
        b = offset;
        gap = at_offset;
        s.converged = true;
        s.status = "converged";
        break;
      }
    }
    remember(gap, b, alpha, w);
    if (inner.capped) {
      s.status = "iteration cap";
      break;
    }
    const double tolerance = options.relative_gap * std::max(gap.primal, 1e-12);
    if (p.scale == 0.0 || gap.inner_gap > 0.5 * tolerance) {
      // The inner solve is not accurate enough for the certificate: tighten it at the same b.
      if (epsilon < 1e-12) {
        s.status = "inner tolerance exhausted";
        break;
      }
      epsilon /= 10.0;
      continue;
    }
    if (++s.outer_iterations > options.max_outer_iterations) {
      s.status = "outer iteration cap";
      break;
    }
    const double phi = b / s2 - gap.sigma;
    End& end = phi < 0.0 ? lo : hi;
    End& other = phi < 0.0 ? hi : lo;
    end = {true, b, phi, phi, alpha, w};
    same_side = phi < 0.0 ? std::max(same_side, 0) + 1 : std::min(same_side, 0) - 1;
    if (std::abs(same_side) > 1 && other.set) other.step_phi *= 0.5;
    if (!lo.set || !hi.set) {
      // Expand until phi changes sign. The first move goes to the best offset for the current w
      // when that lies on the side phi points to (it should: w is the inner optimum at b, so phi(b)
      // is the partial derivative of P(w, .) at b by the envelope theorem), and sets the step to at
      // least twice that move; the step doubles at each further expansion.
      const double towards = expansions == 0 ? best_offset(p, w) : b;
      if (expansions++ == 0 && (phi < 0.0 ? towards > b : towards < b)) {
        step = std::max(step, 2.0 * std::abs(towards - b));
        b = towards;
      } else {
        b += phi < 0.0 ? step : -step;
        step *= 2.0;
      }
      continue;
    }
    // h(b) is piecewise quadratic, so phi may jump at its root (a kink): combine the two ends'
    // solutions with the weight that makes phi vanish. phi is affine along the segment, so the
    // combination has phi = 0, and by convexity its inner gap is at most the ends' gaps mixed
    // plus theta (1 - theta) (hi - lo) |sigma_hi - sigma_lo|, which vanishes as the bracket shrinks.
    const double theta = lo.phi / (lo.phi - hi.phi);
    Eigen::VectorXd mixed_alpha = (1.0 - theta) * lo.alpha + theta * hi.alpha;
    Eigen::VectorXd mixed_w = (1.0 - theta) * lo.w + theta * hi.w;
    const double mixed_b = (1.0 - theta) * lo.b + theta * hi.b;
    const Gap mixed = duality_gap(p, mixed_b, mixed_alpha, mixed_w);
    if (certified(mixed)) {
      alpha = std::move(mixed_alpha);
      w = std::move(mixed_w);
      b = mixed_b;
      gap = mixed;
      s.converged = true;
      s.status = "converged";
      break;
    }
    remember(mixed, mixed_b, mixed_alpha, mixed_w);
    // Illinois steps; bisection once the same end has moved three times in a row (phi jumps at
    // a kink, where secant steps crawl).
    b = std::abs(same_side) >= 3
            ? 0.5 * (lo.b + hi.b)
            : (lo.b * hi.step_phi - hi.b * lo.step_phi) / (hi.step_phi - lo.step_phi);
    if (!(b > lo.b && b < hi.b)) b = 0.5 * (lo.b + hi.b);
  }
  if (!s.converged && best.gap < gap.primal - gap.dual) {
    alpha = std::move(best.alpha);
    w = std::move(best.w);
    b = best.b;
    gap = best.g;
  }
  if (!s.converged && p.scale > 0.0) {
    // Stopped by a cap: at least make b the best offset for the returned w (the primal can only
    // improve, the dual bound stays).
    const double repaired = best_offset(p, w);
    const Gap g = duality_gap(p, repaired, alpha, w);
    if (g.primal < gap.primal) {
      b = repaired;
      gap.primal = g.primal;
    }
    if (certified(gap)) {  // the repaired pair meets the certificate after all
      s.converged = true;
      s.status = "converged";
    }
  }

  WeightedSvmModel model;
  model.weights = Eigen::VectorXd::Zero(features.cols());
  model.weights.head(p.d) = w;
  if (p.scale > 0.0) model.weights[p.d] = b / p.scale;
  model.dual = std::move(alpha);
  model.offset = b;
  model.positive_bound = options.C * options.positive_weight;
  model.negative_bound = options.C * options.negative_weight;
  s.primal = gap.primal;
  s.dual = gap.dual;
  s.gap = gap.primal - gap.dual;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (summary != nullptr) *summary = s;
  return model;
}

WeightedSvmSolver parse_weighted_svm_solver(const std::string& name) {
  if (name == "auto") return WeightedSvmSolver::automatic;
  if (name == "dual_cd") return WeightedSvmSolver::dual_cd;
  if (name == "primal_newton") return WeightedSvmSolver::primal_newton;
  throw Error(fmt::format("weighted SVM: solver must be one of auto, dual_cd, primal_newton, got \"{}\"", name));
}

const char* weighted_svm_solver_name(WeightedSvmSolver solver) {
  switch (solver) {
    case WeightedSvmSolver::automatic: return "auto";
    case WeightedSvmSolver::dual_cd: return "dual_cd";
    case WeightedSvmSolver::primal_newton: return "primal_newton";
  }
  return "auto";
}

Eigen::VectorXd decision_values(const WeightedSvmModel& model, const SparseRowMatrix& features) {
  if (features.cols() != model.weights.size()) {
    throw Error(fmt::format("weighted SVM: {} feature columns for {} weights", features.cols(),
                            model.weights.size()));
  }
  return features * model.weights;
}

}  // namespace mpg
