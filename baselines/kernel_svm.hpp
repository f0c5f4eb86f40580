// Class-weighted RBF-kernel SVM WITHOUT bias, as Parambath's thesis (ch. 2, Tables 2.5 and 2.7)
// trained it ("trained RBF SVM without a bias term"; LIBSVM always fits one, so this is built
// here). With K(x, z) = exp(-gamma ||x - z||^2), Q_ij = y_i y_j K(x_i, x_j) and U_i = C c_{y_i},
// the dual is the box-constrained QP
//     min_a  1/2 a^T Q a - sum_i a_i     s.t.  0 <= a_i <= U_i,                           (D)
// with no equality constraint (that constraint is what a bias adds), and f(x) = sum_i a_i y_i
// K(x_i, x). It is solved by greedy dual coordinate descent: keep G = Q a - 1, pick the
// coordinate whose projected gradient is largest in magnitude (LIBSVM's maximal-violation rule
// without the pairing the equality constraint forces), minimize exactly along it (a_i <- clip(a_i
// - G_i / Q_ii)) and update G with column i of Q. At small gamma K is nearly constant, Q_FF on
// the free set F = {0 < a_i < U_i} ill-conditioned, and coordinate descent alone zigzags for
// hundreds of thousands of updates; so every n / 16 updates (once they outweigh its cost) a
// subspace Newton step solves Q_FF d = -G_F by Cholesky and moves to clip(a_F + s d) for the
// largest s in {1, 1/2, ...} that lowers (D) (Bertsekas' projected Newton restricted to the free
// set; it only decreases (D), so convergence is that of coordinate descent). Stops when every
// |projected gradient| <= epsilon (LIBSVM's -e 0.001 by default). The duality gap P - D is
// reported from G alone:
//     P = 1/2 a^T Q a + sum_i U_i max(0, -G_i),   D = sum_i a_i - 1/2 a^T Q a.
// A constant feature (the thesis appends 100 to every example) cancels in ||x - z||, so it has
// no effect on this model.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <string>
#include <vector>

namespace mpg {

// The RBF Gram matrix of a set of points: precomputed in full when n^2 doubles fit in
// `max_full_bytes` (then shared read-only by every training on these points, e.g. all costs, C
// values and labels of one gamma), otherwise computed column by column by each training through
// its own LRU cache.
class RbfGram {
 public:
  // points: one example per row. Throws mpg::Error for gamma <= 0 or non-finite entries.
  RbfGram(Eigen::MatrixXd points, double gamma, std::size_t max_full_bytes = std::size_t{1} << 29);

  long size() const { return static_cast<long>(points_.rows()); }
  double gamma() const { return gamma_; }
  bool precomputed() const { return full_.size() > 0; }
  // K(x_i, x_j).
  double operator()(long i, long j) const;
  // Column j: out[i] = K(x_i, x_j) for every i (computed even when precomputed() is true).
  void compute_column(long j, double* out) const;
  // Column j of the precomputed matrix; only when precomputed().
  const double* column(long j) const { return full_.data() + j * full_.rows(); }
  const Eigen::MatrixXd& points() const { return points_; }

 private:
  Eigen::MatrixXd points_;
  Eigen::VectorXd squared_norms_;
  double gamma_;
  Eigen::MatrixXd full_;
};

// K(x_r, z_j) for the rows x_r of `rows` and z_j of `points` (m x n): the kernel between
// validation or test examples and training examples.
Eigen::MatrixXd rbf_cross_kernel(const Eigen::MatrixXd& rows, const Eigen::MatrixXd& points,
                                 double gamma);

struct KernelSvmOptions {
  double C = 1.0;                // > 0
  double positive_weight = 1.0;  // c_+ > 0 (the FN cost)
  double negative_weight = 1.0;  // c_- > 0 (the FP cost; 1 in the thesis)
  double epsilon = 1e-3;         // stop when max_i |projected gradient_i| <= epsilon
  long max_iterations = 10000000;  // coordinate updates; reaching it is "not converged"
  // Interleave subspace Newton steps on the free set with the coordinate updates (see
  // train_kernel_svm); false: plain greedy coordinate descent.
  bool subspace_newton = true;
  // Memory for kernel columns when the Gram matrix is not precomputed.
  std::size_t cache_bytes = std::size_t{1} << 27;
};

struct KernelSvmModel {
  Eigen::VectorXd dual;          // a_i
  Eigen::VectorXd coefficients;  // a_i y_i: f(x) = sum_i coefficients_i K(x_i, x)
  double positive_bound = 0.0;   // U_i of the positive and negative examples
  double negative_bound = 0.0;
};

struct KernelSvmSummary {
  bool converged = false;
  std::string status;           // "converged" or "iteration cap"
  long iterations = 0;          // coordinate updates
  long newton_steps = 0;        // accepted subspace Newton steps
  double max_violation = 0.0;   // max_i |projected gradient_i| at the end
  double primal = 0.0;
  double dual = 0.0;            // -(D): the maximized dual objective sum a - 1/2 a^T Q a
  double gap = 0.0;             // primal - dual
  long support_vectors = 0;     // a_i > 0
  long columns_computed = 0;    // kernel columns evaluated (0 when precomputed)
  double seconds = 0.0;
};

// Trains from a = 0 or from `warm_start` (same rows, e.g. the previous C of a grid; a_i rescaled
// by U_i(new) / U_i(old)). Labels are 0/1. Throws mpg::Error on bad options, a label count
// different from the Gram size, labels other than 0/1, or a warm start of another size.
KernelSvmModel train_kernel_svm(const RbfGram& gram, const std::vector<int>& labels,
                                const KernelSvmOptions& options, KernelSvmSummary* summary = nullptr,
                                const KernelSvmModel* warm_start = nullptr);

// f(x_r) = sum_i coefficients_i K(x_r, x_i) for the rows of a cross kernel (m x n).
Eigen::VectorXd decision_values(const KernelSvmModel& model, const Eigen::MatrixXd& cross_kernel);

}  // namespace mpg
