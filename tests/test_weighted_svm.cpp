// The class-weighted hinge SVM of baselines/weighted_svm (LIBLINEAR -s 3's problem with the
// thesis' constant feature handled as an offset): closed form, brute force over a grid of
// (w, b), the class weight as duplication, agreement with Debian's LIBLINEAR where it converges,
// warm starts, determinism and errors; each for both solvers (dual coordinate descent, primal Newton).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <vector>

#include "baselines/liblinear.hpp"
#include "baselines/weighted_svm.hpp"
#include "lib/base/error.hpp"
#include "lib/data/content_split.hpp"
#include "lib/data/multilabel.hpp"
#include "tests/shared_data.hpp"
#include "tests/skip.hpp"

using namespace mpg;

namespace {

// Rows (x_1..x_d [, s]) from dense values, with the constant column s if s > 0.
SparseRowMatrix rows_of(const std::vector<std::vector<double>>& x, double s) {
  const long d = static_cast<long>(x.front().size());
  SparseRowMatrix m(static_cast<long>(x.size()), d + (s > 0.0 ? 1 : 0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (long j = 0; j < d; ++j) {
      if (x[i][static_cast<std::size_t>(j)] != 0.0) m.insert(static_cast<long>(i), j) = x[i][static_cast<std::size_t>(j)];
    }
    if (s > 0.0) m.insert(static_cast<long>(i), d) = s;
  }
  m.makeCompressed();
  return m;
}

// The primal 1/2 ||w||^2 + sum_i U_i max(0, 1 - y_i w . x_i) over all columns (the constant one
// included), computed from scratch.
double primal(const SparseRowMatrix& x, const std::vector<int>& y, const Eigen::VectorXd& w, double C,
              double positive_weight, double negative_weight) {
  const Eigen::VectorXd margins = x * w;
  double value = 0.5 * w.squaredNorm();
  for (long i = 0; i < x.rows(); ++i) {
    const double sign = y[static_cast<std::size_t>(i)] == 1 ? 1.0 : -1.0;
    const double upper = C * (y[static_cast<std::size_t>(i)] == 1 ? positive_weight : negative_weight);
    value += upper * std::max(0.0, 1.0 - sign * margins[i]);
  }
  return value;
}

WeightedSvmOptions tight(double C, double positive_weight, double offset, double relative_gap = 1e-5,
                         WeightedSvmSolver solver = WeightedSvmSolver::dual_cd) {
  WeightedSvmOptions o;
  o.solver = solver;
  o.C = C;
  o.positive_weight = positive_weight;
  o.offset_feature = offset;
  o.relative_gap = relative_gap;
  return o;
}

// The primal is 1-strongly convex in all weights, so a solution whose duality gap is g lies
// within sqrt(2 g) of the optimum: two certified solutions differ by at most the sum.
double certified_distance(const WeightedSvmSummary& a, const WeightedSvmSummary& b) {
  return std::sqrt(2.0 * std::max(a.gap, 0.0)) + std::sqrt(2.0 * std::max(b.gap, 0.0));
}

}  // namespace

TEST_CASE("weighted SVM: closed form of a symmetric two-point problem", "[weighted_svm]") {
  // x = +1 (positive), -1 (negative): 1/2 w^2 + (U+ + U-) max(0, 1 - w), so w* = min(1, U+ + U-).
  const SparseRowMatrix x = rows_of({{1.0}, {-1.0}}, 0.0);
  const std::vector<int> y = {1, 0};
  const WeightedSvmSolver solver = GENERATE(WeightedSvmSolver::dual_cd, WeightedSvmSolver::primal_newton);
  // The primal certificate is a difference of two sums of size ~P, so it ends near 1e-9 relative.
  const double gap = solver == WeightedSvmSolver::dual_cd ? 1e-10 : 1e-8;
  for (const auto& [C, weight, expected] : std::vector<std::tuple<double, double, double>>{
           {0.2, 1.5, 0.5}, {0.1, 1.0, 0.2}, {10.0, 19.0, 1.0}, {0.4, 0.25, 0.5}}) {
    CAPTURE(weighted_svm_solver_name(solver), C, weight);
    WeightedSvmSummary summary;
    const WeightedSvmModel model = train_weighted_svm(x, y, tight(C, weight, 0.0, gap, solver), &summary);
    CHECK(summary.converged);
    CHECK(summary.solver == solver);
    CHECK(model.weights[0] == Approx(expected).margin(std::sqrt(2.0 * summary.gap) + 1e-12));
    CHECK(summary.gap <= gap * summary.primal);
  }
}

TEST_CASE("weighted SVM with the constant feature: no grid point of (w, b) beats the solution",
          "[weighted_svm]") {
  const std::vector<std::vector<double>> points = {{0.3}, {1.2}, {2.0}, {-0.4}, {0.9}, {-1.5}, {0.1}, {1.7}};
  const std::vector<int> y = {0, 1, 1, 0, 0, 0, 1, 1};
  const double s = 100.0;
  const SparseRowMatrix x = rows_of(points, s);
  // On such tiny one-dimensional data the inner problems near the optimal b are degenerate and
  // coordinate descent crawls: the certificate is asked for 1e-5 here (the default is 1e-4).
  const WeightedSvmSolver solver = GENERATE(WeightedSvmSolver::dual_cd, WeightedSvmSolver::primal_newton);
  for (const auto& [C, weight] : std::vector<std::pair<double, double>>{{0.5, 1.0}, {8.0, 0.25}, {1.0, 1.0}}) {
    CAPTURE(weighted_svm_solver_name(solver), C, weight);
    WeightedSvmSummary summary;
    const WeightedSvmModel model = train_weighted_svm(x, y, tight(C, weight, s, 1e-5, solver), &summary);
    REQUIRE(summary.converged);
    const double value = primal(x, y, model.weights, C, weight, 1.0);
    CHECK(value == Approx(summary.primal).epsilon(1e-12));
    CHECK(model.offset == Approx(s * model.weights[1]).epsilon(1e-12));
    // Brute force: a 401 x 401 grid of (w, b) around the solution (P is convex, so a better point
    // anywhere implies better points nearby in its direction).
    double grid_min = std::numeric_limits<double>::infinity();
    Eigen::VectorXd trial(2);
    for (int a = -200; a <= 200; ++a) {
      for (int c = -200; c <= 200; ++c) {
        trial[0] = model.weights[0] + 0.0025 * a;
        trial[1] = (model.offset + 0.0025 * c) / s;
        grid_min = std::min(grid_min, primal(x, y, trial, C, weight, 1.0));
      }
    }
    CHECK(value <= grid_min + summary.gap);
    CHECK(summary.gap <= 1e-5 * value);
  }
}

TEST_CASE("weighted SVM: a positive weight k is k copies of every positive example", "[weighted_svm]") {
  std::mt19937_64 rng(17);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> points, copies;
  std::vector<int> y, y_copies;
  for (int i = 0; i < 30; ++i) {
    const int label = i % 3 == 0 ? 1 : 0;
    points.push_back({normal(rng) + label, normal(rng) - label, normal(rng)});
    y.push_back(label);
    for (int k = 0; k < (label == 1 ? 3 : 1); ++k) {
      copies.push_back(points.back());
      y_copies.push_back(label);
    }
  }
  const WeightedSvmSolver solver = GENERATE(WeightedSvmSolver::dual_cd, WeightedSvmSolver::primal_newton);
  CAPTURE(weighted_svm_solver_name(solver));
  WeightedSvmSummary weighted_summary, copied_summary;
  const WeightedSvmModel weighted =
      train_weighted_svm(rows_of(points, 100.0), y, tight(0.7, 3.0, 100.0, 1e-5, solver), &weighted_summary);
  const WeightedSvmModel copied =
      train_weighted_svm(rows_of(copies, 100.0), y_copies, tight(0.7, 1.0, 100.0, 1e-5, solver), &copied_summary);
  REQUIRE(weighted_summary.converged);
  REQUIRE(copied_summary.converged);
  CHECK(std::abs(weighted_summary.primal - copied_summary.primal) <= weighted_summary.gap + copied_summary.gap);
  CHECK((weighted.weights - copied.weights).norm() <= certified_distance(weighted_summary, copied_summary));
}

TEST_CASE("weighted SVM agrees with LIBLINEAR -s 3 where LIBLINEAR converges", "[weighted_svm]") {
  std::mt19937_64 rng(23);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> points;
  std::vector<int> y;
  for (int i = 0; i < 60; ++i) {
    const int label = normal(rng) > 0.3 ? 1 : 0;
    points.push_back({normal(rng) + 0.8 * label, normal(rng), 1.0});  // a constant 1 column, regularized
    y.push_back(label);
  }
  const SparseRowMatrix x = rows_of(points, 0.0);
  const LiblinearProblem problem(x, y);
  const WeightedSvmSolver solver = GENERATE(WeightedSvmSolver::dual_cd, WeightedSvmSolver::primal_newton);
  for (const auto& [C, weight] : std::vector<std::pair<double, double>>{{0.25, 1.0}, {1.0, 4.0}, {4.0, 0.5}}) {
    CAPTURE(weighted_svm_solver_name(solver), C, weight);
    LiblinearOptions options;
    options.solver = LiblinearSolver::hinge_svm_dual;
    options.C = C;
    options.positive_weight = weight;
    options.epsilon = 1e-7;
    LiblinearSummary reference_summary;
    const Eigen::VectorXd reference = train_liblinear(problem, options, &reference_summary);
    REQUIRE(reference_summary.converged);
    WeightedSvmSummary summary;
    const WeightedSvmModel model = train_weighted_svm(x, y, tight(C, weight, 0.0, 1e-5, solver), &summary);
    REQUIRE(summary.converged);
    const double ours = primal(x, y, model.weights, C, weight, 1.0);
    const double theirs = primal(x, y, reference, C, weight, 1.0);
    CHECK(ours <= theirs + summary.gap);
    CHECK(ours == Approx(theirs).epsilon(1e-5));
    // LIBLINEAR's w within the distance its primal excess allows, ours within sqrt(2 gap).
    const double excess = std::max(0.0, theirs - summary.dual);
    CHECK((model.weights - reference).norm() <= std::sqrt(2.0 * excess) + std::sqrt(2.0 * std::max(0.0, summary.gap)));
  }
}

TEST_CASE("weighted SVM: warm starts along C reach the cold-start optimum; runs are repeatable",
          "[weighted_svm]") {
  std::mt19937_64 rng(29);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> points;
  std::vector<int> y;
  for (int i = 0; i < 200; ++i) {
    const int label = i % 4 == 0 ? 1 : 0;
    points.push_back({normal(rng) + label, normal(rng) + 0.5 * label, normal(rng)});
    y.push_back(label);
  }
  const SparseRowMatrix x = rows_of(points, 100.0);
  // Either solver warm-starts from a model of either solver (the previous C's, alternating).
  const WeightedSvmSolver solver = GENERATE(WeightedSvmSolver::dual_cd, WeightedSvmSolver::primal_newton);
  WeightedSvmOptions options = tight(0.125, 3.0, 100.0, 1e-5, solver);
  WeightedSvmModel previous = train_weighted_svm(x, y, options);
  for (double C = 0.25; C <= 8.0; C *= 2.0) {
    CAPTURE(weighted_svm_solver_name(options.solver), C);
    options.C = C;
    options.solver = options.solver == WeightedSvmSolver::dual_cd ? WeightedSvmSolver::primal_newton
                                                                    : WeightedSvmSolver::dual_cd;
    WeightedSvmSummary warm_summary, cold_summary;
    const WeightedSvmModel warm = train_weighted_svm(x, y, options, &warm_summary, &previous);
    const WeightedSvmModel cold = train_weighted_svm(x, y, options, &cold_summary);
    REQUIRE(warm_summary.converged);
    REQUIRE(cold_summary.converged);
    CHECK(std::abs(warm_summary.primal - cold_summary.primal) <= warm_summary.gap + cold_summary.gap);
    CHECK((warm.weights - cold.weights).norm() <= certified_distance(warm_summary, cold_summary));
    previous = warm;
  }
  const WeightedSvmModel again = train_weighted_svm(x, y, options);
  const WeightedSvmModel once_more = train_weighted_svm(x, y, options);
  CHECK(again.weights == once_more.weights);
  CHECK(again.dual == once_more.dual);
}

TEST_CASE("weighted SVM reports the pass cap and rejects bad input", "[weighted_svm]") {
  const SparseRowMatrix x = rows_of({{0.3}, {1.2}, {2.0}, {-0.4}}, 100.0);
  const std::vector<int> y = {0, 1, 1, 0};
  WeightedSvmOptions capped = tight(64.0, 19.0, 100.0);  // dual_cd
  capped.max_iterations = 1;
  WeightedSvmSummary summary;
  const WeightedSvmModel stopped = train_weighted_svm(x, y, capped, &summary);
  CHECK_FALSE(summary.converged);
  CHECK(summary.status == "iteration cap");
  // Stopped early, the offset is still the best one for the returned w.
  const double at = primal(x, y, stopped.weights, 64.0, 19.0, 1.0);
  CHECK(at == Approx(summary.primal).epsilon(1e-12));
  for (const double delta : {-1e-3, 1e-3, -0.1, 0.1}) {
    Eigen::VectorXd moved = stopped.weights;
    moved[1] += delta / 100.0;
    CHECK(primal(x, y, moved, 64.0, 19.0, 1.0) >= at - 1e-9);
  }

  WeightedSvmOptions newton_capped = tight(64.0, 19.0, 100.0, 1e-10, WeightedSvmSolver::primal_newton);
  newton_capped.max_newton_iterations = 1;
  const WeightedSvmModel newton_stopped = train_weighted_svm(x, y, newton_capped, &summary);
  CHECK_FALSE(summary.converged);
  CHECK(summary.status == "Newton cap");
  CHECK(summary.newton_steps == 1);
  CHECK(primal(x, y, newton_stopped.weights, 64.0, 19.0, 1.0) == Approx(summary.primal).epsilon(1e-12));

  CHECK(parse_weighted_svm_solver("auto") == WeightedSvmSolver::automatic);
  CHECK(parse_weighted_svm_solver("primal_newton") == WeightedSvmSolver::primal_newton);
  CHECK_THROWS_WITH(parse_weighted_svm_solver("newton"), Catch::Contains("auto, dual_cd, primal_newton"));
  // primal_newton's dense Newton system: refused, naming the alternative, beyond 4096 columns.
  SparseRowMatrix wide(2, 5000);
  wide.insert(0, 0) = 1.0;
  wide.insert(1, 1) = 1.0;
  wide.makeCompressed();
  CHECK_THROWS_WITH(train_weighted_svm(wide, {0, 1}, tight(1.0, 1.0, 0.0, 1e-4, WeightedSvmSolver::primal_newton)),
                    Catch::Contains("use dual_cd"));
  CHECK_THROWS_AS(train_weighted_svm(x, y, tight(0.0, 1.0, 100.0)), Error);
  CHECK_THROWS_AS(train_weighted_svm(x, y, tight(1.0, -1.0, 100.0)), Error);
  CHECK_THROWS_AS(train_weighted_svm(x, {0, 1, 1}, tight(1.0, 1.0, 100.0)), Error);
  CHECK_THROWS_AS(train_weighted_svm(x, {0, 1, 2, 0}, tight(1.0, 1.0, 100.0)), Error);
  // The last column must hold the constant feature on every row.
  CHECK_THROWS_AS(train_weighted_svm(x, y, tight(1.0, 1.0, 10.0)), Error);
  CHECK_THROWS_AS(train_weighted_svm(rows_of({{0.3}, {1.2}}, 0.0), {0, 1}, tight(1.0, 1.0, 100.0)), Error);
  const WeightedSvmModel model = train_weighted_svm(x, y, tight(1.0, 1.0, 100.0));
  CHECK_THROWS_AS(train_weighted_svm(rows_of({{0.3}, {1.2}}, 100.0), {0, 1}, tight(1.0, 1.0, 100.0), nullptr, &model),
                  Error);
}

TEST_CASE("weighted SVM: subspace Newton steps, shrinking and warm starts reach the plain optimum",
          "[weighted_svm]") {
  std::mt19937_64 rng(41);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> points;
  std::vector<int> y;
  for (int i = 0; i < 300; ++i) {
    const int label = i % 3 == 0 ? 1 : 0;
    std::vector<double> x;
    for (int j = 0; j < 8; ++j) x.push_back(0.3 * normal(rng) + (j < 2 ? 0.3 * label : 0.0));
    points.push_back(x);
    y.push_back(label);
  }
  const SparseRowMatrix x = rows_of(points, 100.0);
  WeightedSvmModel previous;
  for (const double C : {1.0, 4.0, 16.0, 64.0}) {
    CAPTURE(C);
    const WeightedSvmOptions newton = tight(C, 4.0, 100.0, 1e-4);
    WeightedSvmOptions plain = newton, unshrunk = newton, primal_newton = newton;
    primal_newton.solver = WeightedSvmSolver::primal_newton;
    plain.subspace_newton = false;
    unshrunk.shrinking = false;
    WeightedSvmSummary a_summary, b_summary, c_summary, warm_summary, p_summary;
    const WeightedSvmModel a = train_weighted_svm(x, y, newton, &a_summary);
    const WeightedSvmModel b = train_weighted_svm(x, y, plain, &b_summary);
    const WeightedSvmModel c = train_weighted_svm(x, y, unshrunk, &c_summary);
    const WeightedSvmModel warm = train_weighted_svm(x, y, newton, &warm_summary, C > 1.0 ? &previous : nullptr);
    const WeightedSvmModel p = train_weighted_svm(x, y, primal_newton, &p_summary);
    REQUIRE(p_summary.converged);
    REQUIRE(a_summary.converged);
    REQUIRE(b_summary.converged);
    REQUIRE(c_summary.converged);
    REQUIRE(warm_summary.converged);
    CHECK(b_summary.newton_steps == 0);
    // The same problem certified to the same relative gap: optima within the certificates.
    for (const auto& [model, summary] : {std::pair{&b, &b_summary}, std::pair{&c, &c_summary},
                                         std::pair{&warm, &warm_summary}, std::pair{&p, &p_summary}}) {
      CHECK(std::abs(a_summary.primal - summary->primal) <= a_summary.gap + summary->gap);
      CHECK((a.weights - model->weights).norm() <= certified_distance(a_summary, *summary));
    }
    previous = warm;
  }
}

TEST_CASE("weighted SVM on Yeast: subspace Newton steps cut the passes of a C path, same optimum",
          "[weighted_svm_shared]") {
  const std::string path = mpg::testing::shared_data_directory() + "/multilabel_mulan/yeast-train.data.csv.gz";
  if (!std::filesystem::exists(path)) MPG_SKIP(path << " not found");
  MultilabelReadOptions read;
  read.labels = 14;
  read.bias = 100.0;
  const MultilabelData data = read_multilabel_csv(path, read);
  // Split 1's training part (as the cost_sensitive family cuts it), label 1, FN weight 19.
  const ContentSplit split = content_split(content_keys(data.features, data.labels, 1), 1.0 / 3.0);
  const SparseRowMatrix x = select_rows(data.features, split.kept);
  const std::vector<int> y = select_entries(data.labels[0], split.kept);
  long newton_passes = 0, plain_passes = 0;
  WeightedSvmModel previous_newton, previous_plain, previous_primal;
  for (const double C : {0.015625, 0.0625, 0.25, 1.0, 4.0}) {
    CAPTURE(C);
    WeightedSvmOptions newton = tight(C, 19.0, 100.0, 1e-4);
    WeightedSvmOptions plain = newton;
    plain.subspace_newton = false;
    WeightedSvmSummary a_summary, b_summary;
    const bool warm = C > 0.02;
    const WeightedSvmModel a = train_weighted_svm(x, y, newton, &a_summary, warm ? &previous_newton : nullptr);
    const WeightedSvmModel b = train_weighted_svm(x, y, plain, &b_summary, warm ? &previous_plain : nullptr);
    WeightedSvmSummary p_summary;
    const WeightedSvmModel p = train_weighted_svm(x, y, tight(C, 19.0, 100.0, 1e-4, WeightedSvmSolver::primal_newton),
                                                  &p_summary, warm ? &previous_primal : nullptr);
    REQUIRE(a_summary.converged);
    REQUIRE(b_summary.converged);
    REQUIRE(p_summary.converged);
    CHECK(std::abs(a_summary.primal - b_summary.primal) <= a_summary.gap + b_summary.gap);
    CHECK((a.weights - b.weights).norm() <= certified_distance(a_summary, b_summary));
    CHECK((a.weights - p.weights).norm() <= certified_distance(a_summary, p_summary));
    previous_primal = p;
    newton_passes += a_summary.passes;
    plain_passes += b_summary.passes;
    previous_newton = a;
    previous_plain = b;
  }
  CAPTURE(newton_passes, plain_passes);
  CHECK(3 * newton_passes < plain_passes);
}

TEST_CASE("weighted SVM: primal Newton certifies a weak-signal problem where coordinate descent caps",
          "[weighted_svm]") {
  // Labels barely related to 20 noisy features, C x FN weight large: most examples end up free
  // (0 < a_i < U_i) and the dual is badly conditioned, so coordinate descent crawls, while the
  // smoothed primal's Newton systems are 21 x 21.
  std::mt19937_64 rng(53);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> points;
  std::vector<int> y;
  for (int i = 0; i < 400; ++i) {
    const int label = i % 5 == 0 ? 1 : 0;
    std::vector<double> x;
    for (int j = 0; j < 20; ++j) x.push_back(normal(rng) + (j == 0 ? 0.2 * label : 0.0));
    points.push_back(x);
    y.push_back(label);
  }
  const SparseRowMatrix x = rows_of(points, 100.0);
  int dual_capped = 0;
  WeightedSvmModel previous;
  for (const double C : {4.0, 16.0, 64.0}) {
    CAPTURE(C);
    WeightedSvmOptions dual = tight(C, 19.0, 100.0, 1e-4);
    dual.max_iterations = 2000;
    WeightedSvmOptions primal_newton = dual;
    primal_newton.solver = WeightedSvmSolver::primal_newton;
    WeightedSvmSummary d_summary, p_summary, warm_summary;
    train_weighted_svm(x, y, dual, &d_summary);
    const WeightedSvmModel cold = train_weighted_svm(x, y, primal_newton, &p_summary);
    const WeightedSvmModel warm =
        train_weighted_svm(x, y, primal_newton, &warm_summary, C > 4.0 ? &previous : nullptr);
    if (!d_summary.converged) ++dual_capped;
    REQUIRE(p_summary.converged);
    REQUIRE(warm_summary.converged);
    CHECK(p_summary.newton_steps <= 50);
    CHECK(warm_summary.newton_steps <= 50);
    CHECK((cold.weights - warm.weights).norm() <= certified_distance(p_summary, warm_summary));
    // Whatever the dual reached is a lower bound on the certified optimum.
    CHECK(d_summary.dual <= p_summary.primal + 1e-9 * p_summary.primal);
    previous = warm;
  }
  CHECK(dual_capped >= 1);
}
