// Structured AUC (lib/models/structured_auc): the nested-matrix encoding and its validator, the
// AUC loss, loss-augmented and label-consistent inference by sorting against brute force over all
// n! orders, Prop. 3.1 (structured hinge = pairwise hinge, digest A.3) for n <= 6, the O(n log n)
// hinge and its subgradient, the trainer, the compact LP (6) (integral with unary potentials, an
// upper bound with pairwise ones) and the unimodularity of (7). Digest Part C, 002.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include <filesystem>
#include <functional>

#include "lib/base/error.hpp"
#include "lib/data/multilabel.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/models/structured_auc.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using Catch::Matchers::Contains;

namespace {

std::vector<std::vector<int>> all_orders(int n) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::vector<int>> out;
  do out.push_back(order);
  while (std::next_permutation(order.begin(), order.end()));
  return out;
}

bool consistent(const std::vector<int>& order, const std::vector<int>& labels) {
  bool seen_negative = false;
  for (int item : order) {
    if (labels[static_cast<std::size_t>(item)] == 0) seen_negative = true;
    else if (seen_negative) return false;
  }
  return true;
}

std::vector<int> random_labels(int n, std::mt19937& engine) {
  std::vector<int> labels(static_cast<std::size_t>(n));
  do
    for (int& y : labels) y = static_cast<int>(engine() % 2);
  while (std::count(labels.begin(), labels.end(), 1) == 0 || std::count(labels.begin(), labels.end(), 0) == 0);
  return labels;
}

}  // namespace

TEST_CASE("nested encoding is a bijection with permutations", "[structured_auc]") {
  for (int n = 1; n <= 5; ++n)
    for (const auto& order : all_orders(n)) {
      const mpg::NestedRanking z = mpg::nested_from_order(order);
      CHECK(mpg::nested_ranking_violation(z).empty());
      CHECK(mpg::order_from_nested(z) == order);
      const std::vector<int> position = mpg::positions_of(order);
      for (int i = 0; i < n; ++i) CHECK(z.col(i).sum() == n - position[static_cast<std::size_t>(i)]);
    }
  mpg::NestedRanking z = mpg::nested_from_order({2, 0, 1});
  CHECK(z == (Eigen::Matrix3i() << 0, 0, 1, 1, 0, 1, 1, 1, 1).finished());
  z(0, 2) = 0;
  CHECK_THAT(mpg::nested_ranking_violation(z), Contains("row 0 sums to 0, expected 1"));
  z(0, 2) = 1;
  z(1, 0) = 0, z(1, 1) = 1, z(0, 2) = 0, z(0, 0) = 1;  // rows fine, nesting broken for item 0
  CHECK_THAT(mpg::nested_ranking_violation(z), Contains("nesting: z(0, 0) = 1 > z(1, 0) = 0"));
  z(0, 0) = 2;
  CHECK_THAT(mpg::nested_ranking_violation(z), Contains("is not 0 or 1"));
  CHECK_THROWS_WITH(mpg::order_from_nested(z), Contains("invalid nested ranking"));
  CHECK_THROWS_WITH(mpg::nested_from_order({0, 0, 1}), Contains("not a permutation"));
}

TEST_CASE("AUC loss and its reconstructed generalizations on a hand case", "[structured_auc]") {
  // Items 0..4, positives {1, 3}; order 0 1 2 3 4: negative 0 above positives 1 and 3, negative 2
  // above positive 3: 3 of 6 pairs swapped.
  const std::vector<int> labels = {0, 1, 0, 1, 0}, order = {0, 1, 2, 3, 4};
  CHECK(mpg::auc_margin(labels) == Approx(1.0 / 6.0));
  CHECK(mpg::auc_loss(order, labels) == Approx(0.5));
  CHECK(mpg::binned_auc(order, labels, 1) == Approx(0.5));
  CHECK(mpg::binned_auc(order, labels, 2) == Approx(1.0 - 1.0 / 6.0));  // (0,1) and (2,3) share a bin
  CHECK(mpg::binned_auc(order, labels, 5) == Approx(1.0));
  CHECK(mpg::auc_at_k(order, labels, 1) == Approx(1.0 - 2.0 / 6.0));    // only negative 0 counts
  CHECK(mpg::auc_at_k(order, labels, 5) == Approx(0.5));
  CHECK(mpg::auc_loss({1, 3, 0, 2, 4}, labels) == 0.0);
  CHECK_THROWS_WITH(mpg::auc_loss(order, {0, 0, 0, 0, 0}), Contains("AUC is undefined"));
}

TEST_CASE("inference by sorting equals brute force, and Prop. 3.1 holds exactly (n <= 6)", "[structured_auc]") {
  std::mt19937 engine(2014);
  std::normal_distribution<double> normal;
  for (int n = 2; n <= 6; ++n) {
    const auto orders = all_orders(n);
    for (int trial = 0; trial < 8; ++trial) {
      const std::vector<int> labels = random_labels(n, engine);
      Eigen::VectorXd a(n);
      for (int i = 0; i < n; ++i) a(i) = trial % 2 ? 0.05 * normal(engine) : normal(engine);  // small a: many active pairs
      double best_augmented = -1e300, best_consistent = -1e300;
      for (const auto& order : orders) {
        best_augmented = std::max(best_augmented, mpg::factored_score(a, order) + mpg::auc_loss(order, labels));
        if (consistent(order, labels)) best_consistent = std::max(best_consistent, mpg::factored_score(a, order));
      }
      const auto augmented = mpg::loss_augmented_order(a, labels);
      const auto label_consistent = mpg::label_consistent_order(a, labels);
      CHECK(mpg::factored_score(a, augmented) + mpg::auc_loss(augmented, labels) == Approx(best_augmented).margin(1e-12));
      CHECK(consistent(label_consistent, labels));
      CHECK(mpg::factored_score(a, label_consistent) == Approx(best_consistent).margin(1e-12));
      const double hinge = best_augmented - best_consistent;
      CHECK(mpg::structured_auc_hinge(a, labels) == Approx(hinge).margin(1e-12));
      CHECK(mpg::pairwise_auc_hinge_reference(a, labels) == Approx(hinge).margin(1e-12));
      CHECK(mpg::pairwise_auc_hinge(a, labels) == Approx(hinge).margin(1e-12));
      // hinge >= Delta(argmax score) >= 0.
      std::vector<int> by_score(static_cast<std::size_t>(n));
      std::iota(by_score.begin(), by_score.end(), 0);
      std::sort(by_score.begin(), by_score.end(), [&](int i, int j) { return a(i) > a(j); });
      CHECK(hinge >= mpg::auc_loss(by_score, labels) - 1e-12);
    }
  }
  // Zero hinge iff every positive leads every negative by at least c.
  const std::vector<int> labels = {1, 0, 1, 0};
  Eigen::Vector4d a(1.0, 0.0, 0.25, 0.0);  // c = 1/4: margins 1 and exactly 1/4
  CHECK(mpg::pairwise_auc_hinge(a, labels) == 0.0);
  a(2) = 0.2;
  CHECK(mpg::pairwise_auc_hinge(a, labels) == Approx(0.1));
}

TEST_CASE("the O(n log n) hinge and subgradient match the reference and finite differences", "[structured_auc]") {
  std::mt19937 engine(5);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 5 + trial * 7, d = 4;
    const std::vector<int> labels = random_labels(n, engine);
    Eigen::MatrixXd x(n, d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d; ++j) x(i, j) = trial % 3 == 0 ? std::round(2 * normal(engine)) / 2 : 0.02 * normal(engine);
    Eigen::VectorXd w(d);
    for (int j = 0; j < d; ++j) w(j) = normal(engine);
    const Eigen::VectorXd a = x * w;
    Eigen::VectorXd da;
    const double fast = mpg::pairwise_auc_hinge(a, labels, &da);
    CHECK(fast == Approx(mpg::pairwise_auc_hinge_reference(a, labels)).margin(1e-10));
    if (trial % 3 == 0) continue;  // ties make kinks
    const Eigen::VectorXd g = x.transpose() * da;
    for (int j = 0; j < d; ++j) {
      Eigen::VectorXd step = Eigen::VectorXd::Zero(d);
      step(j) = 1e-7;
      const double numeric = (mpg::pairwise_auc_hinge(x * (w + step), labels) - mpg::pairwise_auc_hinge(x * (w - step), labels)) / 2e-7;
      CHECK(g(j) == Approx(numeric).margin(1e-4));
    }
  }
}

TEST_CASE("the fully factored trainer reaches a certified optimum and ranks positives first", "[structured_auc]") {
  std::mt19937 engine(8);
  std::normal_distribution<double> normal;
  const Eigen::Vector3d truth(1.0, -2.0, 0.5);
  std::vector<mpg::AucExample> examples;
  for (int m = 0; m < 12; ++m) {
    mpg::AucExample e;
    e.features.resize(15, 3);
    for (int i = 0; i < 15; ++i) {
      for (int j = 0; j < 3; ++j) e.features(i, j) = normal(engine);
      e.labels.push_back(e.features.row(i).dot(truth) + 0.5 * normal(engine) > 0.0 ? 1 : 0);
    }
    examples.push_back(e);
  }
  examples.push_back({Eigen::MatrixXd::Ones(2, 3), {1, 1}});  // one class: skipped
  mpg::FactoredAucOptions options;
  options.lambda = 1.0;
  options.optimizer.cutting_plane_tolerance = 1e-6;
  mpg::FactoredAucSummary summary;
  const Eigen::VectorXd w = mpg::train_factored_auc(examples, options, &summary);
  CHECK(summary.examples_used == 12);
  CHECK(summary.examples_skipped == 1);
  CHECK(summary.converged);
  CHECK(summary.primal - summary.lower_bound <= 1e-6 * std::max(1.0, summary.primal));
  CHECK(summary.pairs > 12 * 14);
  CHECK(mpg::mean_example_auc(examples, w) > 0.9);
  CHECK(mpg::mean_example_auc(examples, Eigen::Vector3d::Zero()) == Approx(0.5));
  // The certified value is not above the objective at a perturbed w.
  auto objective = [&](const Eigen::VectorXd& v) {
    double value = 0.5 * options.lambda * v.squaredNorm();
    for (std::size_t m = 0; m < 12; ++m) value += mpg::pairwise_auc_hinge(examples[m].features * v, examples[m].labels) / 12.0;
    return value;
  };
  CHECK(objective(w) == Approx(summary.primal).epsilon(1e-12));
  for (int j = 0; j < 3; ++j) {
    Eigen::VectorXd step = Eigen::VectorXd::Zero(3);
    step(j) = 1e-3 * std::max(1.0, w.norm());
    CHECK(objective(w + step) >= summary.lower_bound);
    CHECK(objective(w - step) >= summary.lower_bound);
  }
  CHECK_THROWS_WITH(mpg::train_factored_auc({examples.back()}, options), Contains("no example has both"));
}

TEST_CASE("compact LP (6): integral with unary potentials, an upper bound with pairwise ones", "[structured_auc]") {
  std::mt19937 engine(6);
  std::normal_distribution<double> normal;
  for (int n = 2; n <= 5; ++n) {
    const auto orders = all_orders(n);
    for (int trial = 0; trial < 4; ++trial) {
      mpg::RankingPotentials potentials;
      potentials.unary_off = Eigen::VectorXd(n);
      potentials.unary_on = Eigen::VectorXd(n);
      for (int i = 0; i < n; ++i) potentials.unary_off(i) = normal(engine), potentials.unary_on(i) = normal(engine);
      double best = -1e300;
      for (const auto& order : orders) best = std::max(best, mpg::ranking_score(potentials, mpg::nested_from_order(order)));
      const mpg::RankingLpResult lp = mpg::solve_ranking_lp(potentials);
      CHECK(lp.integral);
      CHECK(lp.value == Approx(best).margin(1e-9));
      CHECK(mpg::ranking_score(potentials, mpg::nested_from_order(lp.order)) == Approx(best).margin(1e-9));
      // Add pairwise factors: the LP bounds the integral optimum from above.
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
          mpg::RankingFactor f;
          f.i = i, f.j = j;
          for (double& t : f.theta) t = normal(engine);
          potentials.factors.push_back(f);
        }
      best = -1e300;
      for (const auto& order : orders) best = std::max(best, mpg::ranking_score(potentials, mpg::nested_from_order(order)));
      const mpg::RankingLpResult relaxed = mpg::solve_ranking_lp(potentials);
      CHECK(relaxed.value >= best - 1e-9);
      if (relaxed.integral) CHECK(relaxed.value == Approx(best).margin(1e-9));
    }
  }
}

TEST_CASE("the constraint matrix of (7) is totally unimodular (n = 3, all square submatrices)", "[structured_auc]") {
  const Eigen::MatrixXi a = mpg::nested_constraint_matrix(3);
  CHECK(a.rows() == 12);
  CHECK(a.cols() == 9);
  CHECK(mpg::is_totally_unimodular(a));
  CHECK(mpg::is_totally_unimodular(mpg::nested_constraint_matrix(2)));
  Eigen::MatrixXi broken = a;
  broken(6, 3) = -1;  // rows {0, 6} x columns {0, 3} become [[1, 1], [1, -1]], det -2
  CHECK_FALSE(mpg::is_totally_unimodular(broken));
}

TEST_CASE("multi-label CSV rows: features, labels and errors", "[structured_auc]") {
  mpg::testing::TempDir dir("multilabel");
  auto labels = [](int count) {
    mpg::MultilabelReadOptions options;
    options.labels = count;
    return options;
  };
  const auto data = mpg::read_multilabel_csv(dir.write("ok.csv", "0.5,-1,1,0\n2,3e-1,0,1\n\n"), labels(2));
  CHECK(Eigen::MatrixXd(data.features) == (Eigen::Matrix2d() << 0.5, -1, 2, 0.3).finished());
  CHECK(mpg::label_matrix(data) == (Eigen::Matrix2i() << 1, 0, 0, 1).finished());
  auto error_of = [](const std::function<void()>& read) -> std::string {
    try {
      read();
    } catch (const mpg::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(error_of([&] { mpg::read_multilabel_csv(dir.write("a", "1,2,0\n1,0\n"), labels(1)); }),
             Contains("a:2: expected 3 comma-separated fields (as the first row), got 2"));
  CHECK_THAT(error_of([&] { mpg::read_multilabel_csv(dir.write("b", "1,2,0.5\n"), labels(1)); }),
             Contains("b:1: label 1 must be 0 or 1, got \"0.5\""));
  CHECK_THAT(error_of([&] { mpg::read_multilabel_csv(dir.write("c", "1,x,0\n"), labels(1)); }),
             Contains("c:1: feature 2 is not a finite number: \"x\""));
  CHECK_THAT(error_of([&] { mpg::read_multilabel_csv(dir.write("d", "1,0\n"), labels(2)); }), Contains("no feature"));
}

TEST_CASE("multi-label CSV rows: the shared Yeast training file", "[structured_auc_shared]") {
  const std::string shared = mpg::harness::data_directory() + "/multilabel_mulan/yeast-train.data.csv.gz";
  if (!std::filesystem::exists(shared)) MPG_SKIP(shared << " not found");
  mpg::MultilabelReadOptions options;
  options.labels = 14;
  const auto yeast = mpg::read_multilabel_csv(shared, options);
  CHECK(yeast.features.rows() == 1500);
  CHECK(yeast.features.cols() == 103);
}
