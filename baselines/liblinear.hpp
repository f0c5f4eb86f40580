// Class-weighted linear classifiers from LIBLINEAR (Fan et al. 2008; Debian liblinear-dev 2.3),
// the learners of Parambath's thesis ch. 2:
//   logistic_regression (-s 0): min_w 1/2 ||w||^2 + sum_i U_i log(1 + exp(-y_i w . x_i)), solved
//                              by a trust-region Newton method; accepts a warm start;
//   hinge_svm_dual      (-s 3): min_w 1/2 ||w||^2 + sum_i U_i max(0, 1 - y_i w . x_i), solved by
//                              dual coordinate descent capped at 1,000 passes (a constant of the
//                              library; the thesis raised it to 50,000 in its own build, which
//                              baselines/weighted_svm.hpp provides), no warm start;
// with U_i = C c_{y_i} (-w1 c_+ -w-1 c_-) and no separate bias (-B -1): the thesis appends a
// constant feature of value 100 to the data instead.
// LIBLINEAR permutes coordinates with the C library's rand(); the -s 3 trainings are therefore
// serialized under one lock and preceded by srand(seed), so a training gives the same model
// whatever else runs (at the price of running one -s 3 training at a time).
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

namespace mpg {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

enum class LiblinearSolver { logistic_regression, hinge_svm_dual };

// "lr" / "svm"; throws mpg::Error otherwise.
LiblinearSolver parse_liblinear_solver(const std::string& name);

struct LiblinearOptions {
  LiblinearSolver solver = LiblinearSolver::logistic_regression;
  double C = 1.0;                // > 0
  double positive_weight = 1.0;  // c_+ > 0 (the FN cost)
  double negative_weight = 1.0;  // c_- > 0 (the FP cost)
  // Stopping tolerance; 0 takes LIBLINEAR's default for the solver (-s 0: 0.01, -s 3: 0.1).
  double epsilon = 0.0;
  unsigned seed = 1;  // srand(seed) before a -s 3 training
};

struct LiblinearSummary {
  bool converged = false;
  std::string status;   // "converged" or "iteration cap" (LIBLINEAR's warning was printed)
  long iterations = 0;  // -s 3: passes ("#iter"); -s 0: Newton iterations
  double seconds = 0.0;
};

// The examples in LIBLINEAR's layout (one feature_node array per row, labels +1/-1), built once
// and shared by every training on the same rows (a grid over C and class weights).
class LiblinearProblem {
 public:
  // labels are 0/1. Throws mpg::Error on a size mismatch, labels other than 0/1, non-finite
  // features or more than INT_MAX rows or columns.
  LiblinearProblem(const SparseRowMatrix& features, const std::vector<int>& labels);
  ~LiblinearProblem();
  LiblinearProblem(const LiblinearProblem&) = delete;
  LiblinearProblem& operator=(const LiblinearProblem&) = delete;

  long rows() const;
  long columns() const;

  struct Storage;

 private:
  friend Eigen::VectorXd train_liblinear(const LiblinearProblem&, const LiblinearOptions&,
                                         LiblinearSummary*, const Eigen::VectorXd*);
  std::unique_ptr<Storage> storage_;
};

// Trains and returns w (one weight per column) oriented so that w . x > 0 means positive.
// `initial_weights` (logistic_regression only; size = columns) starts the Newton method there.
// Throws mpg::Error on bad options or when LIBLINEAR rejects the parameters.
Eigen::VectorXd train_liblinear(const LiblinearProblem& problem, const LiblinearOptions& options,
                                LiblinearSummary* summary = nullptr,
                                const Eigen::VectorXd* initial_weights = nullptr);

}  // namespace mpg
