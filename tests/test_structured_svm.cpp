// Structured SVM baseline (baselines/structured_svm.*, Joachims 2005): exact loss-augmented
// inference against brute force over labellings, primal = dual at convergence (and the dual
// below the primal anywhere), training on a separated 2-D set, and input errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "baselines/structured_svm.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "tests/problems.hpp"

using namespace mpg;
using namespace mpg::testing;

namespace {

std::vector<int> bits_of(unsigned mask, std::size_t n) {
  std::vector<int> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = (mask >> i) & 1U;
  return out;
}

std::size_t count_ones(const std::vector<int>& y) {
  return static_cast<std::size_t>(std::count(y.begin(), y.end(), 1));
}

// Delta(ybar, y) + sum_i ybar_i s_i with ybar_i in {-1, +1}.
double augmented_value(const Eigen::VectorXd& scores, const std::vector<int>& predicted,
                       const std::vector<int>& labels, StructuredSvmLoss loss, std::size_t k) {
  double value = structured_svm_loss(predicted, labels, loss, k);
  for (std::size_t i = 0; i < predicted.size(); ++i)
    value += (predicted[i] == 1 ? 1.0 : -1.0) * scores[static_cast<Eigen::Index>(i)];
  return value;
}

// max over all labellings (P@k: those with exactly k positives) of augmented_value.
double brute_force_max(const Eigen::VectorXd& scores, const std::vector<int>& labels,
                       StructuredSvmLoss loss, std::size_t k) {
  const std::size_t n = labels.size();
  double best = -std::numeric_limits<double>::infinity();
  for (unsigned mask = 0; mask < (1U << n); ++mask) {
    const std::vector<int> ybar = bits_of(mask, n);
    if (loss == StructuredSvmLoss::precision_at_k && count_ones(ybar) != k) continue;
    best = std::max(best, augmented_value(scores, ybar, labels, loss, k));
  }
  return best;
}

// 1/2 ||w||^2 + 100 C max(0, max_ybar Delta(ybar, y) - w . (Psi(y) - Psi(ybar))) by brute force,
// with SVM^perf's Psi(ybar) = 1/(2n) sum_i ybar_i x_i.
double brute_force_primal(const BinaryProblem& problem, const Eigen::VectorXd& w, double C,
                          StructuredSvmLoss loss, std::size_t k) {
  const Eigen::VectorXd scores = problem.features * w / (2.0 * static_cast<double>(problem.labels.size()));
  double gold = 0.0;  // w . Psi(y)
  for (std::size_t i = 0; i < problem.labels.size(); ++i)
    gold += (problem.labels[i] == 1 ? 1.0 : -1.0) * scores[static_cast<Eigen::Index>(i)];
  const double slack = std::max(0.0, brute_force_max(scores, problem.labels, loss, k) - gold);
  return 0.5 * w.squaredNorm() + 100.0 * C * slack;
}

// Two unit-variance clouds at (2, 1) (label 1, every third example) and (-2, -1) (label 0).
BinaryProblem separated_problem(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> rows;
  std::vector<int> labels;
  for (int i = 0; i < n; ++i) {
    const int y = i % 3 == 0 ? 1 : 0;
    const double sign = y == 1 ? 1.0 : -1.0;
    rows.push_back({2.0 * sign + normal(rng), 1.0 * sign + normal(rng)});
    labels.push_back(y);
  }
  return make_problem(rows, labels);
}

}  // namespace

TEST_CASE("loss-augmented inference matches brute force over all labellings",
          "[structured_svm]") {
  std::mt19937 rng(2005);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> scale(0.0, 1.5);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial % 10);
    std::vector<int> labels(n);
    // Every labelling of the gold, including none and all positive.
    const unsigned gold_mask = std::uniform_int_distribution<unsigned>(0, (1U << n) - 1)(rng);
    labels = bits_of(gold_mask, n);
    const double s = trial % 7 == 0 ? 0.0 : scale(rng);  // zero scores: all ties
    Eigen::VectorXd scores(static_cast<Eigen::Index>(n));
    for (auto& v : scores) v = s * normal(rng);
    if (trial % 5 == 0) scores[0] = scores[static_cast<Eigen::Index>(n - 1)];  // a tie
    const std::size_t k = std::uniform_int_distribution<std::size_t>(1, n)(rng);
    for (const StructuredSvmLoss loss : {StructuredSvmLoss::f1, StructuredSvmLoss::precision_at_k}) {
      INFO("trial " << trial << ", n = " << n << ", k = " << k << ", loss "
                    << (loss == StructuredSvmLoss::f1 ? "f1" : "precision_at_k"));
      const LossAugmentedLabelling found = most_violated_labelling(scores, labels, loss, k);
      REQUIRE(found.labels.size() == n);
      if (loss == StructuredSvmLoss::precision_at_k) CHECK(count_ones(found.labels) == k);
      CHECK(found.loss == Approx(structured_svm_loss(found.labels, labels, loss, k)).margin(1e-12));
      CHECK(found.value ==
            Approx(augmented_value(scores, found.labels, labels, loss, k)).margin(1e-12));
      CHECK(found.value == Approx(brute_force_max(scores, labels, loss, k)).margin(1e-12));
    }
  }
}

// max over every contingency table (a true, b false positives) of Delta(a, b) plus the scores of
// the a best positives and b best negatives marked +1, the others -1: the exhaustive
// (P + 1)(N + 1) scan the F1 inference replaces by a binary search per a.
double table_scan_max(const Eigen::VectorXd& scores, const std::vector<int>& labels) {
  std::vector<double> positive, negative;
  for (std::size_t i = 0; i < labels.size(); ++i)
    (labels[i] == 1 ? positive : negative).push_back(scores[static_cast<Eigen::Index>(i)]);
  std::sort(positive.begin(), positive.end(), std::greater<>());
  std::sort(negative.begin(), negative.end(), std::greater<>());
  const double total = scores.sum();
  double best = -std::numeric_limits<double>::infinity();
  double top_positive = 0.0;
  for (std::size_t a = 0; a <= positive.size(); ++a) {
    if (a > 0) top_positive += positive[a - 1];
    double top_negative = 0.0;
    for (std::size_t b = 0; b <= negative.size(); ++b) {
      if (b > 0) top_negative += negative[b - 1];
      const std::size_t denominator = positive.size() + a + b;
      const double loss = denominator == 0 ? 0.0 : 1.0 - 2.0 * static_cast<double>(a) / static_cast<double>(denominator);
      best = std::max(best, loss + 2.0 * (top_positive + top_negative) - total);
    }
  }
  return best;
}

TEST_CASE("F1 inference on hundreds of examples equals the scan of all contingency tables",
          "[structured_svm]") {
  std::mt19937 rng(2016);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 50 + static_cast<std::size_t>(trial) * 7;
    // Positive rates 0 (no positive), 1 (no negative) and in between; score scales from
    // all-zero (ties everywhere) to large (the loss negligible).
    const double rate = trial % 10 == 0 ? 0.0 : trial % 10 == 1 ? 1.0 : (trial % 10) / 10.0;
    const double scale = trial % 6 == 0 ? 0.0 : std::pow(10.0, (trial % 6) - 4.0);
    std::bernoulli_distribution positive(rate);
    std::vector<int> labels(n);
    Eigen::VectorXd scores(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) {
      labels[i] = positive(rng) ? 1 : 0;
      // Rounded scores make ties between and within the classes.
      scores[static_cast<Eigen::Index>(i)] = scale * std::round(4.0 * (normal(rng) + 0.5 * labels[i])) / 4.0;
    }
    INFO("trial " << trial << ", n = " << n);
    const LossAugmentedLabelling found = most_violated_labelling(scores, labels, StructuredSvmLoss::f1);
    CHECK(found.value == Approx(table_scan_max(scores, labels)).margin(1e-12));
    CHECK(found.value ==
          Approx(augmented_value(scores, found.labels, labels, StructuredSvmLoss::f1, 0)).margin(1e-12));
  }
}

TEST_CASE("the loss is 1 - F1 (F1(0, 0) = 1) or 1 - P@k", "[structured_svm]") {
  const std::vector<int> gold{1, 1, 0, 0};
  CHECK(structured_svm_loss({1, 0, 1, 0}, gold, StructuredSvmLoss::f1) == Approx(0.5));
  CHECK(structured_svm_loss({0, 0, 0, 0}, {0, 0, 0, 0}, StructuredSvmLoss::f1) == 0.0);
  CHECK(structured_svm_loss({0, 0, 1, 0}, {0, 0, 0, 0}, StructuredSvmLoss::f1) == 1.0);
  CHECK(structured_svm_loss({1, 0, 1, 0}, gold, StructuredSvmLoss::precision_at_k, 2) ==
        Approx(0.5));
  CHECK_THROWS_AS(structured_svm_loss({1, 1, 1, 0}, gold, StructuredSvmLoss::precision_at_k, 2),
                  mpg::Error);
}

TEST_CASE("at convergence the primal is within C epsilon of the working-set dual",
          "[structured_svm]") {
  std::mt19937 rng(77);
  for (const std::string loss_name : {"f1", "precision_at_k"}) {
    for (int trial = 0; trial < 4; ++trial) {
      // Small and overlapping, so the slack stays positive at the optimum.
      const BinaryProblem problem = random_problem(9, 2, rng);
      StructuredSvmOptions options;
      options.loss = loss_name;
      options.C = trial % 2 == 0 ? 0.5 : 4.0;
      options.k = 3;
      options.epsilon = 1e-5;
      const StructuredSvmLoss loss = parse_structured_svm_loss(loss_name);
      StructuredSvmSummary summary;
      const StructuredSvmModel model =
          train_structured_svm(problem.features, problem.labels, options, &summary);
      INFO(loss_name << " trial " << trial << ": " << summary.message);
      REQUIRE(summary.converged());
      CHECK(summary.constraints <= summary.iterations + 1);
      // The reported primal is the exact objective at the returned w.
      CHECK(summary.objective == Approx(brute_force_primal(problem, model.weights, options.C,
                                                           loss, options.k))
                                     .margin(1e-9));
      const double gap = summary.objective - summary.dual_objective;
      CHECK(gap >= -1e-9);
      CHECK(gap <= 100.0 * options.C * options.epsilon + 1e-12);
      // The dual is a lower bound on the primal everywhere (weak duality).
      std::normal_distribution<double> normal(0.0, 1.0);
      for (int probe = 0; probe < 20; ++probe) {
        Eigen::VectorXd w = model.weights;
        for (auto& v : w) v += (probe < 10 ? 0.05 : 1.0) * normal(rng);
        CHECK(brute_force_primal(problem, w, options.C, loss, options.k) >=
              summary.dual_objective - 1e-9);
      }
    }
  }
}

TEST_CASE("a warm start from the cuts of a smaller C reaches the cold start's certified optimum",
          "[structured_svm]") {
  std::mt19937 rng(1409);
  for (const std::string loss_name : {"f1", "precision_at_k"}) {
    for (int trial = 0; trial < 3; ++trial) {
      const BinaryProblem problem = random_problem(9, 2, rng);
      const StructuredSvmLoss loss = parse_structured_svm_loss(loss_name);
      StructuredSvmOptions options;
      options.loss = loss_name;
      options.k = 3;
      options.epsilon = 1e-5;
      OneSlackCuts cuts;
      double previous_objective = 0.0;
      for (const double C : {0.25, 1.0, 4.0, 16.0}) {
        options.C = C;
        StructuredSvmSummary cold, warm;
        train_structured_svm(problem.features, problem.labels, options, &cold);
        const bool first = cuts.cuts.empty();
        const StructuredSvmModel model =
            train_structured_svm(problem.features, problem.labels, options, &warm, &cuts);
        INFO(loss_name << " trial " << trial << " C " << C << ": cold " << cold.message << "; warm "
                       << warm.message);
        REQUIRE(cold.converged());
        REQUIRE(warm.converged());
        // Both objectives are certified within 100 C epsilon of the same optimum, and the warm
        // one is exact at its w.
        CHECK(std::abs(warm.objective - cold.objective) <= 100.0 * C * options.epsilon + 1e-12);
        CHECK(warm.objective == Approx(brute_force_primal(problem, model.weights, C, loss, options.k)).margin(1e-9));
        CHECK(warm.objective >= previous_objective - 1e-12);  // the optimum grows with C
        previous_objective = warm.objective;
        if (!first) CHECK(warm.iterations <= cold.iterations);
        CHECK(!cuts.cuts.empty());
      }
    }
  }
}

TEST_CASE("training on a well-separated 2-D set gives a high training F1 and P@k",
          "[structured_svm]") {
  const BinaryProblem problem = separated_problem(240, 1357);
  const BinaryAction gold = positives_of(problem.labels);
  StructuredSvmOptions options;
  options.C = 10.0;
  StructuredSvmSummary summary;
  const StructuredSvmModel model =
      train_structured_svm(problem.features, problem.labels, options, &summary);
  INFO(summary.message);
  CHECK(summary.converged());
  CHECK(summary.objective - summary.dual_objective <= 100.0 * options.C * options.epsilon);
  const Eigen::VectorXd values = decision_values(model, problem.features);
  const Eigen::MatrixXd dense(problem.features);
  CHECK((values - dense * model.weights).norm() < 1e-9);
  const std::vector<int> predicted = predict_threshold(values);
  CHECK(f1_score(positives_of(predicted), gold) >= 0.95);
  CHECK(model.weights[0] > 0.0);

  options.loss = "precision_at_k";
  options.k = 40;  // half the 80 positives
  const StructuredSvmModel ranker =
      train_structured_svm(problem.features, problem.labels, options, &summary);
  INFO(summary.message);
  CHECK(summary.converged());
  const std::vector<int> top = predict_top_k(decision_values(ranker, problem.features), 40);
  CHECK(precision_at_k(positives_of(top), gold, 40) >= 0.95);
}

TEST_CASE("bad options, labels or sizes are errors", "[structured_svm]") {
  const BinaryProblem problem = make_problem({{1.0}, {-1.0}, {0.5}}, {1, 0, 1});
  const auto train = [&](const StructuredSvmOptions& options, const std::vector<int>& labels) {
    return train_structured_svm(problem.features, labels, options);
  };
  StructuredSvmOptions options;
  CHECK_NOTHROW(train(options, problem.labels));
  for (const double C : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::infinity()}) {
    INFO("C = " << C);
    options.C = C;
    CHECK_THROWS_AS(train(options, problem.labels), mpg::Error);
  }
  options = StructuredSvmOptions{};
  options.loss = "hamming";
  CHECK_THROWS_WITH(train(options, problem.labels),
                    "structured SVM: unknown loss 'hamming' (expected f1 or precision_at_k)");
  options.loss = "precision_at_k";
  options.k = 4;
  CHECK_THROWS_AS(train(options, problem.labels), mpg::Error);
  options.k = 0;
  CHECK_THROWS_AS(train(options, problem.labels), mpg::Error);
  options.k = 3;
  CHECK_NOTHROW(train(options, problem.labels));
  options = StructuredSvmOptions{};
  options.epsilon = 0.0;
  CHECK_THROWS_AS(train(options, problem.labels), mpg::Error);
  options = StructuredSvmOptions{};
  options.max_iterations = 0;
  CHECK_THROWS_AS(train(options, problem.labels), mpg::Error);
  options = StructuredSvmOptions{};
  CHECK_THROWS_WITH(train(options, {1, 0}), "structured SVM: 2 labels for 3 feature rows");
  CHECK_THROWS_AS(train(options, {1, 0, 2}), mpg::Error);
  BinaryProblem with_nan = problem;
  with_nan.features.coeffRef(1, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(train_structured_svm(with_nan.features, with_nan.labels, options), mpg::Error);
  const StructuredSvmModel model = train(options, problem.labels);
  CHECK_THROWS_AS(decision_values(model, make_problem({{1.0, 2.0}}, {1}).features), mpg::Error);
  CHECK_THROWS_AS(most_violated_labelling(Eigen::VectorXd::Zero(2), {1, 0, 1},
                                          StructuredSvmLoss::f1),
                  mpg::Error);
}

TEST_CASE("an iteration cap is reported as not converged", "[structured_svm]") {
  const BinaryProblem problem = separated_problem(60, 11);
  StructuredSvmOptions options;
  options.C = 100.0;
  options.epsilon = 1e-9;
  options.max_iterations = 1;
  StructuredSvmSummary summary;
  train_structured_svm(problem.features, problem.labels, options, &summary);
  CHECK_FALSE(summary.converged());
  CHECK(summary.iterations == 1);
  CHECK(summary.message.find("not converged") != std::string::npos);
}
