// The LIBLINEAR wrapper (baselines/liblinear): w oriented towards the positive class whatever the
// first row's label, class weights as duplicated examples, warm starts of -s 0, the
// repeatability of -s 3 (it permutes with rand()), its iteration cap, and errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "baselines/liblinear.hpp"
#include "lib/base/error.hpp"

using namespace mpg;

namespace {

struct Data {
  SparseRowMatrix x;
  std::vector<int> y;
};

// n examples of d Gaussian features, a constant column (value `constant`) last; the positives'
// first feature shifted by 1. With `copies`, every positive is repeated that many times.
Data make_data(int n, int d, double constant, std::uint64_t seed, int copies = 1, bool positive_first = true) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  for (int i = 0; i < n; ++i) {
    const int label = (i % 3 == 0) == positive_first ? 1 : 0;
    std::vector<double> row;
    for (int j = 0; j < d; ++j) row.push_back(normal(rng) + (j == 0 ? label : 0.0));
    for (int k = 0; k < (label == 1 ? copies : 1); ++k) {
      rows.push_back(row);
      labels.push_back(label);
    }
  }
  Data data;
  data.x.resize(static_cast<long>(rows.size()), d + 1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (int j = 0; j < d; ++j) data.x.insert(static_cast<long>(i), j) = rows[i][static_cast<std::size_t>(j)];
    data.x.insert(static_cast<long>(i), d) = constant;
  }
  data.x.makeCompressed();
  data.y = labels;
  return data;
}

LiblinearOptions options_for(LiblinearSolver solver, double C, double weight, double epsilon) {
  LiblinearOptions o;
  o.solver = solver;
  o.C = C;
  o.positive_weight = weight;
  o.epsilon = epsilon;
  return o;
}

}  // namespace

TEST_CASE("LIBLINEAR wrapper: w scores the positive class whichever label comes first", "[liblinear]") {
  for (const LiblinearSolver solver : {LiblinearSolver::logistic_regression, LiblinearSolver::hinge_svm_dual}) {
    const Data a = make_data(90, 3, 1.0, 5, 1, true);   // first row positive
    Data b = a;                                         // the same rows, first one moved last
    std::vector<long> order;
    for (long i = 1; i < a.x.rows(); ++i) order.push_back(i);
    order.push_back(0);
    SparseRowMatrix moved(a.x.rows(), a.x.cols());
    for (std::size_t r = 0; r < order.size(); ++r) {
      for (SparseRowMatrix::InnerIterator it(a.x, order[r]); it; ++it) moved.insert(static_cast<long>(r), it.col()) = it.value();
      b.y[r] = a.y[static_cast<std::size_t>(order[r])];
    }
    moved.makeCompressed();
    b.x = moved;
    REQUIRE(a.y.front() == 1);
    REQUIRE(b.y.front() == 0);
    const Eigen::VectorXd wa = train_liblinear(LiblinearProblem(a.x, a.y), options_for(solver, 1.0, 2.0, 1e-8));
    const Eigen::VectorXd wb = train_liblinear(LiblinearProblem(b.x, b.y), options_for(solver, 1.0, 2.0, 1e-8));
    CHECK(wa[0] > 0.0);  // the positives' feature pushes towards positive
    CHECK((wa - wb).norm() <= 1e-3 * wa.norm());
  }
}

TEST_CASE("LIBLINEAR wrapper: a positive weight k is k copies of every positive (-s 0)", "[liblinear]") {
  const Data weighted = make_data(120, 4, 1.0, 7);
  const Data copied = make_data(120, 4, 1.0, 7, 3);
  const Eigen::VectorXd w1 = train_liblinear(LiblinearProblem(weighted.x, weighted.y),
                                             options_for(LiblinearSolver::logistic_regression, 0.5, 3.0, 1e-8));
  const Eigen::VectorXd w2 = train_liblinear(LiblinearProblem(copied.x, copied.y),
                                             options_for(LiblinearSolver::logistic_regression, 0.5, 1.0, 1e-8));
  CHECK((w1 - w2).norm() <= 1e-5 * w1.norm());
}

TEST_CASE("LIBLINEAR wrapper: -s 0 warm start reaches the cold-start solution; -s 3 is repeatable",
          "[liblinear]") {
  const Data d = make_data(200, 5, 1.0, 11);
  const LiblinearProblem problem(d.x, d.y);
  const Eigen::VectorXd previous =
      train_liblinear(problem, options_for(LiblinearSolver::logistic_regression, 0.5, 2.0, 1e-8));
  LiblinearSummary warm_summary;
  const Eigen::VectorXd warm = train_liblinear(
      problem, options_for(LiblinearSolver::logistic_regression, 1.0, 2.0, 1e-8), &warm_summary, &previous);
  const Eigen::VectorXd cold =
      train_liblinear(problem, options_for(LiblinearSolver::logistic_regression, 1.0, 2.0, 1e-8));
  CHECK(warm_summary.converged);
  CHECK((warm - cold).norm() <= 1e-5 * cold.norm());

  const LiblinearOptions svm = options_for(LiblinearSolver::hinge_svm_dual, 1.0, 2.0, 0.1);
  const Eigen::VectorXd first = train_liblinear(problem, svm);
  (void)std::rand();  // other users of rand() do not change the next training
  const Eigen::VectorXd second = train_liblinear(problem, svm);
  CHECK(first == second);
  CHECK_THROWS_AS(train_liblinear(problem, svm, nullptr, &previous), Error);
}

TEST_CASE("LIBLINEAR wrapper: -s 3 on the thesis' constant feature 100 reports its pass cap", "[liblinear]") {
  const Data d = make_data(400, 3, 100.0, 13);
  LiblinearSummary summary;
  (void)train_liblinear(LiblinearProblem(d.x, d.y),
                        options_for(LiblinearSolver::hinge_svm_dual, 64.0, 19.0, 1e-6), &summary);
  CHECK_FALSE(summary.converged);
  CHECK(summary.status == "iteration cap");
  CHECK(summary.iterations == 1000);
}

TEST_CASE("LIBLINEAR wrapper rejects bad input", "[liblinear]") {
  const Data d = make_data(10, 2, 1.0, 1);
  CHECK_THROWS_AS(LiblinearProblem(d.x, std::vector<int>(9, 0)), Error);
  CHECK_THROWS_AS(LiblinearProblem(d.x, std::vector<int>(10, 3)), Error);
  const LiblinearProblem problem(d.x, d.y);
  CHECK_THROWS_AS(train_liblinear(problem, options_for(LiblinearSolver::logistic_regression, 0.0, 1.0, 0.0)), Error);
  const Eigen::VectorXd wrong_size = Eigen::VectorXd::Zero(2);
  CHECK_THROWS_AS(train_liblinear(problem, options_for(LiblinearSolver::logistic_regression, 1.0, 1.0, 0.0),
                                  nullptr, &wrong_size),
                  Error);
  CHECK(parse_liblinear_solver("lr") == LiblinearSolver::logistic_regression);
  CHECK_THROWS_AS(parse_liblinear_solver("svr"), Error);
}
