#include "baselines/kernel_svm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// exp(-gamma max(0, |x|^2 + |z|^2 - 2 x.z)), the one formula used everywhere so a precomputed
// matrix and computed columns hold the same bits.
double rbf(double squared_x, double squared_z, double dot, double gamma) {
  return std::exp(-gamma * std::max(0.0, squared_x + squared_z - 2.0 * dot));
}

// Least-recently-used store of kernel columns for one training (Gram matrix not precomputed).
class ColumnCache {
 public:
  ColumnCache(const RbfGram& gram, std::size_t bytes)
      : gram_(gram),
        n_(gram.size()),
        capacity_(std::max<long>(2, static_cast<long>(bytes / (sizeof(double) * std::max<long>(n_, 1))))),
        slot_of_(static_cast<std::size_t>(n_), -1) {
    capacity_ = std::min(capacity_, n_);
    // Reserved once: column pointers handed out stay valid while the cache grows.
    storage_.reserve(static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(n_));
  }

  const double* column(long j) {
    if (gram_.precomputed()) return gram_.column(j);
    ++clock_;
    if (slot_of_[j] >= 0) {
      last_use_[slot_of_[j]] = clock_;
      return storage_.data() + static_cast<std::size_t>(slot_of_[j]) * n_;
    }
    long slot = static_cast<long>(owner_.size());
    if (slot < capacity_) {
      owner_.push_back(j);
      last_use_.push_back(clock_);
      storage_.resize(static_cast<std::size_t>(owner_.size()) * n_);
    } else {
      slot = static_cast<long>(std::min_element(last_use_.begin(), last_use_.end()) - last_use_.begin());
      slot_of_[owner_[slot]] = -1;
      owner_[slot] = j;
      last_use_[slot] = clock_;
    }
    slot_of_[j] = slot;
    double* out = storage_.data() + static_cast<std::size_t>(slot) * n_;
    gram_.compute_column(j, out);
    ++computed_;
    return out;
  }

  long computed() const { return computed_; }

 private:
  const RbfGram& gram_;
  long n_;
  long capacity_;
  std::vector<long> slot_of_;
  std::vector<long> owner_;
  std::vector<long> last_use_;
  std::vector<double> storage_;
  long clock_ = 0;
  long computed_ = 0;
};

double projected_gradient(double gradient, double alpha, double upper) {
  if (alpha <= 0.0) return std::min(gradient, 0.0);
  if (alpha >= upper) return std::max(gradient, 0.0);
  return gradient;
}

// One subspace Newton step on the free set F = {i : 0 < a_i < U_i}, the other coordinates held
// fixed: d_F = -Q_FF^{-1} G_F is the exact minimizer of (D) over that affine subspace (what
// coordinate descent approaches only slowly when Q_FF is ill-conditioned, e.g. an RBF kernel of
// small gamma, nearly constant). The step taken is a_F <- clip(a_F + s d_F) for the largest s in
// {1, 1/2, ..., 2^-20} whose exact change of the dual, g^T delta + 1/2 delta^T Q_FF delta, is
// negative; no step when Q_FF is not numerically positive definite or no s lowers the dual. The
// objective only decreases, so coordinate descent's convergence is kept. Returns whether a step
// was taken.
bool subspace_newton_step(ColumnCache& cache, const Eigen::VectorXd& sign, const Eigen::VectorXd& upper,
                          Eigen::VectorXd& alpha, Eigen::VectorXd& gradient) {
  std::vector<long> free;
  for (long i = 0; i < alpha.size(); ++i)
    if (alpha[i] > 0.0 && alpha[i] < upper[i]) free.push_back(i);
  if (free.empty()) return false;
  const long f = static_cast<long>(free.size());
  Eigen::MatrixXd q(f, f);
  Eigen::VectorXd g(f), d(f), delta(f);
  for (long c = 0; c < f; ++c) {
    const long j = free[static_cast<std::size_t>(c)];
    const double* column = cache.column(j);  // copied at once: a cached column may be evicted later
    for (long r = 0; r < f; ++r) {
      const long i = free[static_cast<std::size_t>(r)];
      q(r, c) = sign[i] * sign[j] * column[i];
    }
    g[c] = gradient[j];
  }
  const Eigen::LLT<Eigen::MatrixXd> cholesky(q);
  if (cholesky.info() != Eigen::Success) return false;
  d = -cholesky.solve(g);
  if (!d.allFinite()) return false;
  bool accepted = false;
  for (double scale = 1.0; scale >= 0x1p-20 && !accepted; scale *= 0.5) {
    for (long c = 0; c < f; ++c) {
      const long j = free[static_cast<std::size_t>(c)];
      delta[c] = std::clamp(alpha[j] + scale * d[c], 0.0, upper[j]) - alpha[j];
    }
    accepted = g.dot(delta) + 0.5 * delta.dot(q * delta) < 0.0;
  }
  if (!accepted) return false;
  for (long c = 0; c < f; ++c) {
    if (delta[c] == 0.0) continue;
    const long j = free[static_cast<std::size_t>(c)];
    alpha[j] += delta[c];
    const double* column = cache.column(j);
    const double change = delta[c] * sign[j];
    for (long i = 0; i < alpha.size(); ++i) gradient[i] += change * sign[i] * column[i];
  }
  return true;
}

}  // namespace

RbfGram::RbfGram(Eigen::MatrixXd points, double gamma, std::size_t max_full_bytes)
    : points_(std::move(points)), gamma_(gamma) {
  if (!(gamma > 0.0) || !std::isfinite(gamma)) {
    throw Error(fmt::format("RBF kernel: gamma must be positive, got {}", gamma));
  }
  if (!points_.allFinite()) throw Error("RBF kernel: points must be finite");
  squared_norms_ = points_.rowwise().squaredNorm();
  const auto n = static_cast<std::size_t>(points_.rows());
  if (n > 0 && n * n <= max_full_bytes / sizeof(double)) {
    full_.resize(points_.rows(), points_.rows());
    for (long j = 0; j < size(); ++j) compute_column(j, full_.data() + j * full_.rows());
  }
}

double RbfGram::operator()(long i, long j) const {
  if (precomputed()) return full_(i, j);
  return i == j ? 1.0 : rbf(squared_norms_[i], squared_norms_[j], points_.row(i).dot(points_.row(j)), gamma_);
}

void RbfGram::compute_column(long j, double* out) const {
  const Eigen::VectorXd dots = points_ * points_.row(j).transpose();
  for (long i = 0; i < size(); ++i) out[i] = rbf(squared_norms_[i], squared_norms_[j], dots[i], gamma_);
  out[j] = 1.0;
}

Eigen::MatrixXd rbf_cross_kernel(const Eigen::MatrixXd& rows, const Eigen::MatrixXd& points,
                                 double gamma) {
  if (!(gamma > 0.0) || !std::isfinite(gamma)) {
    throw Error(fmt::format("RBF kernel: gamma must be positive, got {}", gamma));
  }
  if (rows.cols() != points.cols()) {
    throw Error(fmt::format("RBF kernel: {} columns against {}", rows.cols(), points.cols()));
  }
  const Eigen::VectorXd row_norms = rows.rowwise().squaredNorm();
  const Eigen::VectorXd point_norms = points.rowwise().squaredNorm();
  Eigen::MatrixXd k(rows.rows(), points.rows());
  for (long j = 0; j < points.rows(); ++j) {
    const Eigen::VectorXd dots = rows * points.row(j).transpose();
    for (long r = 0; r < rows.rows(); ++r) k(r, j) = rbf(row_norms[r], point_norms[j], dots[r], gamma);
  }
  return k;
}

KernelSvmModel train_kernel_svm(const RbfGram& gram, const std::vector<int>& labels,
                                const KernelSvmOptions& options, KernelSvmSummary* summary,
                                const KernelSvmModel* warm_start) {
  const auto start = std::chrono::steady_clock::now();
  auto positive = [](double v) { return v > 0.0 && std::isfinite(v); };
  if (!positive(options.C) || !positive(options.positive_weight) ||
      !positive(options.negative_weight) || !positive(options.epsilon)) {
    throw Error(fmt::format("kernel SVM: C, class weights and epsilon must be positive (C {}, "
                            "weights {}, {}, epsilon {})", options.C, options.positive_weight,
                            options.negative_weight, options.epsilon));
  }
  if (options.max_iterations < 1) throw Error("kernel SVM: max_iterations must be >= 1");
  const long n = gram.size();
  if (static_cast<long>(labels.size()) != n) {
    throw Error(fmt::format("kernel SVM: {} labels for a Gram matrix of {} points", labels.size(), n));
  }
  Eigen::VectorXd sign(n), upper(n);
  for (long i = 0; i < n; ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    if (y != 0 && y != 1) throw Error(fmt::format("kernel SVM: labels must be 0 or 1, got {}", y));
    sign[i] = y == 1 ? 1.0 : -1.0;
    upper[i] = options.C * (y == 1 ? options.positive_weight : options.negative_weight);
  }

  ColumnCache cache(gram, options.cache_bytes);
  Eigen::VectorXd alpha = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd gradient = Eigen::VectorXd::Constant(n, -1.0);  // G = Q a - 1
  if (warm_start != nullptr) {
    if (warm_start->dual.size() != n) {
      throw Error(fmt::format("kernel SVM: warm start has {} dual variables for {} points",
                              warm_start->dual.size(), n));
    }
    const double ratio_positive = options.C * options.positive_weight / warm_start->positive_bound;
    const double ratio_negative = options.C * options.negative_weight / warm_start->negative_bound;
    for (long j = 0; j < n; ++j) {
      const double a = std::clamp(warm_start->dual[j] * (sign[j] > 0.0 ? ratio_positive : ratio_negative),
                                  0.0, upper[j]);
      if (!(a > 0.0)) continue;
      alpha[j] = a;
      const double* column = cache.column(j);
      for (long i = 0; i < n; ++i) gradient[i] += sign[i] * sign[j] * a * column[i];
    }
  }

  // The coordinate with the largest |projected gradient| (ties: the smaller index).
  auto most_violating = [&](double& violation) {
    long best = -1;
    violation = 0.0;
    for (long i = 0; i < n; ++i) {
      const double v = std::abs(projected_gradient(gradient[i], alpha[i], upper[i]));
      if (v > violation) {
        violation = v;
        best = i;
      }
    }
    return best;
  };

  KernelSvmSummary s;
  double violation = 0.0;
  long i = most_violating(violation);
  // A subspace Newton step is tried every n / 16 coordinate updates once the updates since the
  // last one outweigh its cost: the Cholesky factorization of Q_FF costs f^3 / 3 flops for f
  // free coordinates, n updates about 2 n^2. The constants were measured on Yeast and Scene
  // (gamma 2^-6 to 2^3; every n updates instead of n / 16: 1.9x the CPU of a cell): where
  // coordinate descent converges within a few n updates (large gamma, K close to the identity,
  // many free coordinates) no Newton step is taken at all.
  const long newton_check = std::max(1L, n / 16);
  long since_newton = 0;
  while (violation > options.epsilon) {
    if (s.iterations >= options.max_iterations) break;
    if (options.subspace_newton && since_newton > 0 && since_newton % newton_check == 0) {
      long free = 0;
      for (long j = 0; j < n; ++j) free += alpha[j] > 0.0 && alpha[j] < upper[j] ? 1 : 0;
      const double f = static_cast<double>(free);
      if (static_cast<double>(since_newton) >= f * f * f / (48.0 * static_cast<double>(n))) {
        since_newton = 0;
        if (subspace_newton_step(cache, sign, upper, alpha, gradient)) ++s.newton_steps;
        i = most_violating(violation);
        continue;
      }
    }
    ++s.iterations;
    ++since_newton;
    const double* column = cache.column(i);
    const double q_ii = column[i];
    const double old = alpha[i];
    alpha[i] = std::clamp(old - gradient[i] / q_ii, 0.0, upper[i]);
    const double delta = (alpha[i] - old) * sign[i];
    // Update G with column i of Q and find the next coordinate in the same pass.
    long next = -1;
    violation = 0.0;
    for (long j = 0; j < n; ++j) {
      gradient[j] += delta * sign[j] * column[j];
      const double v = std::abs(projected_gradient(gradient[j], alpha[j], upper[j]));
      if (v > violation) {
        violation = v;
        next = j;
      }
    }
    i = next;
  }
  s.converged = violation <= options.epsilon;
  s.status = s.converged ? "converged" : "iteration cap";
  s.max_violation = violation;

  double quadratic = 0.0, alpha_sum = 0.0, loss = 0.0;
  for (long j = 0; j < n; ++j) {
    quadratic += alpha[j] * (gradient[j] + 1.0);
    alpha_sum += alpha[j];
    loss += upper[j] * std::max(0.0, -gradient[j]);
    if (alpha[j] > 0.0) ++s.support_vectors;
  }
  s.primal = 0.5 * quadratic + loss;
  s.dual = alpha_sum - 0.5 * quadratic;
  s.gap = s.primal - s.dual;
  s.columns_computed = cache.computed();

  KernelSvmModel model;
  model.coefficients = alpha.cwiseProduct(sign);
  model.dual = std::move(alpha);
  model.positive_bound = options.C * options.positive_weight;
  model.negative_bound = options.C * options.negative_weight;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (summary != nullptr) *summary = s;
  return model;
}

Eigen::VectorXd decision_values(const KernelSvmModel& model, const Eigen::MatrixXd& cross_kernel) {
  if (cross_kernel.cols() != model.coefficients.size()) {
    throw Error(fmt::format("kernel SVM: cross kernel has {} columns for {} training points",
                            cross_kernel.cols(), model.coefficients.size()));
  }
  return cross_kernel * model.coefficients;
}

}  // namespace mpg
