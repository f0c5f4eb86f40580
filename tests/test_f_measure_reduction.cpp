// The reduction of baselines/f_measure_reduction (thesis ch. 2, Algorithms 1-4): the grids,
// the variants and selection rules on hand-made counts (tie-breaks, two loops vs one grid,
// macro-F, F_max, micro-F), the bracketing search on unimodal sequences, and the grid driver
// with a scripted learner (order of trainings, warm-start requests, pooled thresholds).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "baselines/f_measure_reduction.hpp"
#include "lib/base/error.hpp"

using namespace mpg;

namespace {

// A model of label `label` with validation counts (default and thresholded) and test counts.
ModelEvaluation model(int label, double t, double C, Confusion validation, Confusion validation_thresholded,
                      Confusion test = {1, 1, 1, 1}, Confusion test_thresholded = {2, 0, 0, 2}) {
  ModelEvaluation m;
  m.label = label;
  m.t = t;
  m.C = C;
  m.validation = validation;
  m.validation_thresholded = validation_thresholded;
  m.threshold = 0.25;
  m.test = test;
  m.test_thresholded = test_thresholded;
  return m;
}

SelectionOptions options(FVariant variant, FSelection rule = FSelection::max_f,
                         std::vector<double> actual = {}) {
  SelectionOptions o;
  o.variant = variant;
  o.rule = rule;
  o.actual_costs = std::move(actual);
  return o;
}

// A learner whose scores are fixed functions of (label, weight, C): validation score of example
// i is base[i] + log(weight) + 0.01 C, the test score the same on its own base; records calls.
class ScriptedLearner : public CostSensitiveLearner {
 public:
  ScriptedLearner(std::vector<Eigen::VectorXd> validation, std::vector<Eigen::VectorXd> test)
      : validation_(std::move(validation)), test_(std::move(test)) {}
  TrainedScores train(int label, double weight, double C, bool warm) override {
    calls.emplace_back(label, weight, C, warm);
    TrainedScores s;
    const double shift = std::log(weight) + 0.01 * C;
    s.validation = validation_[static_cast<std::size_t>(label)].array() + shift;
    s.test = test_[static_cast<std::size_t>(label)].array() + shift;
    return s;
  }
  std::vector<std::tuple<int, double, double, bool>> calls;

 private:
  std::vector<Eigen::VectorXd> validation_, test_;
};

}  // namespace

TEST_CASE("cost and C grids of the thesis", "[f_measure_reduction]") {
  const std::vector<double> costs = default_cost_grid();
  REQUIRE(costs.size() == 19);
  CHECK(costs.front() == 0.1);
  CHECK(costs[9] == 1.0);
  CHECK(costs.back() == 1.9);
  CHECK(fn_weight(0.1) == Approx(19.0).margin(1e-12));
  CHECK(fn_weight(1.0) == 1.0);
  CHECK(fn_weight(1.9) == Approx(0.0526316).margin(1e-7));
  CHECK(fn_weight(1.0, 2.0) == 4.0);
  CHECK_THROWS_AS(fn_weight(2.0), Error);
  CHECK_THROWS_AS(fn_weight(0.0), Error);
  const std::vector<double> cs = default_c_grid();
  REQUIRE(cs.size() == 13);
  CHECK(cs.front() == 1.0 / 64.0);
  CHECK(cs[6] == 1.0);
  CHECK(cs.back() == 64.0);
  CHECK(parse_f_variant("CS&T") == FVariant::cost_sensitive_thresholded);
  CHECK(f_variant_name(FVariant::plain) == "-");
  CHECK_THROWS_AS(parse_f_variant("cs&t"), Error);
  CHECK(parse_f_selection("two_loop") == FSelection::two_loop);
  CHECK(parse_cost_search("bracket_pooled") == CostSearch::bracket_pooled);
}

TEST_CASE("variants select among their models with the stated tie-breaks", "[f_measure_reduction]") {
  const std::vector<ModelEvaluation> models = {
      model(0, 1.0, 4.0, {6, 4, 4, 86}, {7, 3, 3, 87}),    // F 0.6,  thresholded 0.7
      model(0, 1.0, 1.0, {6, 4, 4, 86}, {7, 4, 3, 86}),    // F 0.6 (tie: smaller C wins "-")
      model(0, 0.5, 2.0, {8, 4, 2, 86}, {8, 3, 2, 87}),    // F 0.727, thresholded 0.762
      model(0, 1.5, 2.0, {8, 4, 2, 86}, {8, 3, 2, 87}),    // the same counts at t = 1.5
      model(0, 0.7, 2.0, {8, 4, 2, 86}, {8, 3, 3, 86}),    // same F 0.727 (t = 0.7 closer to 1), thresholded 0.727
  };
  const Choice plain = select_binary(models, options(FVariant::plain));
  CHECK(plain.t == 1.0);
  CHECK(plain.C == 1.0);
  CHECK_FALSE(plain.thresholded);
  CHECK(plain.validation_f == Approx(0.6).margin(1e-15));
  CHECK(plain.test == Confusion{1, 1, 1, 1});
  const Choice thresholded = select_binary(models, options(FVariant::thresholded));
  CHECK(thresholded.C == 4.0);
  CHECK(thresholded.thresholded);
  CHECK(thresholded.threshold == 0.25);
  CHECK(thresholded.test == Confusion{2, 0, 0, 2});
  CHECK(thresholded.test_f == 1.0);
  const Choice cs = select_binary(models, options(FVariant::cost_sensitive));
  CHECK(cs.t == 0.7);  // F ties at 0.727 among t = 0.5, 0.7, 1.5: |t - 1| decides
  const Choice cst = select_binary(models, options(FVariant::cost_sensitive_thresholded));
  CHECK(cst.t == 0.5);  // 0.762 at t = 0.5 and 1.5: equally far from 1, the smaller t
  CHECK_THROWS_AS(select_binary({model(0, 0.5, 1.0, {1, 0, 0, 1}, {1, 0, 0, 1})}, options(FVariant::plain)),
                  Error);
}

TEST_CASE("two_loop picks the minimum validation cost per actual cost, then the maximum F",
          "[f_measure_reduction]") {
  // Ten validation positives.
  const std::vector<ModelEvaluation> models = {
      model(0, 0.5, 1.0, {8, 8, 2, 82}, {8, 8, 2, 82}),  // F 16/26 = 0.615; cost at 1.0: 10
      model(0, 1.0, 1.0, {6, 2, 4, 88}, {9, 2, 1, 88}),  // F 0.667, thresholded 0.857; cost 6
      model(0, 1.5, 1.0, {7, 1, 3, 89}, {7, 1, 3, 89}),  // F 0.778;  cost at 1.0: 4
  };
  // One grid, thresholded: the t = 1 model (0.857).
  CHECK(select_binary(models, options(FVariant::cost_sensitive_thresholded)).t == 1.0);
  // Algorithms 1-2 with the actual cost 1 only: the inner loop keeps the cheapest model (t = 1.5,
  // cost FN + FP = 4) and thresholds it.
  const Choice two = select_binary(models, options(FVariant::cost_sensitive_thresholded, FSelection::two_loop, {1.0}));
  CHECK(two.t == 1.5);
  CHECK(two.actual_cost == 1.0);
  CHECK(two.validation_f == Approx(14.0 / 18.0).margin(1e-15));
  // Actual cost 0.2 (FN cost 1.8): costs 3.6 + 1.6, 7.2 + 0.4, 5.4 + 0.2 -> t = 0.5 (5.2), F 0.615;
  // with both actual costs the outer loop keeps the better F of the two inner choices.
  CHECK(select_binary(models, options(FVariant::cost_sensitive, FSelection::two_loop, {0.2})).t == 0.5);
  CHECK(select_binary(models, options(FVariant::cost_sensitive, FSelection::two_loop, {0.2, 1.0})).t == 1.5);
  // The trained t values are the default actual costs.
  CHECK(select_binary(models, options(FVariant::cost_sensitive, FSelection::two_loop)).t == 1.5);
  // Also for "T": actual costs 0.5, 1, 1.5 over the single t = 1 model.
  const Choice plain_t = select_binary(models, options(FVariant::thresholded, FSelection::two_loop));
  CHECK(plain_t.t == 1.0);
  CHECK(plain_t.actual_cost == 0.5);  // equal F for every actual cost: the first one stays
  CHECK_THROWS_AS(select_binary(models, options(FVariant::cost_sensitive, FSelection::two_loop, {2.5})), Error);
}

TEST_CASE("macro-F tunes each label alone; F_max pools those choices; micro-F shares one choice",
          "[f_measure_reduction]") {
  const std::vector<ModelEvaluation> models = {
      model(0, 1.0, 1.0, {5, 0, 5, 90}, {5, 0, 5, 90}, {4, 1, 5, 90}),  // label 0: F 0.667
      model(0, 1.0, 2.0, {4, 0, 6, 90}, {4, 0, 6, 90}, {9, 9, 9, 9}),   // worse
      model(1, 1.0, 2.0, {2, 2, 0, 96}, {2, 2, 0, 96}, {1, 0, 1, 98}),  // label 1: F 0.667 at C = 2
  };
  const MacroChoice macro = select_macro(models, 2, options(FVariant::plain));
  REQUIRE(macro.labels.size() == 2);
  CHECK(macro.labels[0].C == 1.0);
  CHECK(macro.labels[1].C == 2.0);
  CHECK(macro.validation_f == Approx(2.0 / 3.0).margin(1e-15));
  // Test F: label 0 2*4/(8+5+1) = 0.5714, label 1 2/(2+1) = 0.6667; pooled {5, 1, 6}: 10/17.
  CHECK(macro.test_f == Approx((8.0 / 14.0 + 2.0 / 3.0) / 2.0).margin(1e-15));
  CHECK(macro.test_micro_f == Approx(10.0 / 17.0).margin(1e-15));
  CHECK_THROWS_AS(select_macro(models, 3, options(FVariant::plain)), Error);

  PooledEvaluation a, b;
  a.C = 1.0;
  a.validation = {7, 6, 5, 82};
  b.C = 2.0;
  b.validation = {6, 2, 6, 86};
  b.test = {3, 3, 3, 3};
  const Choice micro = select_micro({a, b}, options(FVariant::plain));
  CHECK(micro.C == 2.0);  // 12/20 = 0.6 against 14/25
  CHECK(micro.test == Confusion{3, 3, 3, 3});
}

TEST_CASE("bracket_search finds the maximum of unimodal sequences with fewer evaluations",
          "[f_measure_reduction]") {
  for (const int m : {1, 2, 3, 5, 19, 40}) {
    int most = 0;
    for (int peak = 0; peak < m; ++peak) {
      std::map<int, int> calls;
      const BracketResult r = bracket_search(m, [&](int i) { ++calls[i]; return -std::abs(i - peak) * 1.0; }, m / 2);
      CHECK(r.best == peak);
      for (const auto& [i, count] : calls) CHECK(count == 1);
      CHECK(r.evaluated.size() == calls.size());
      most = std::max(most, static_cast<int>(r.evaluated.size()));
    }
    if (m == 19) CHECK(most == 10);
    if (m == 40) CHECK(most == 12);
  }
  // A plateau: the tie goes to the index closer to the preferred one.
  const BracketResult plateau = bracket_search(19, [](int i) { return i >= 5 && i <= 13 ? 1.0 : 0.0; }, 9);
  CHECK(plateau.best == 9);
  CHECK_THROWS_AS(bracket_search(0, [](int) { return 0.0; }, 0), Error);
}

TEST_CASE("run_cost_grid trains every (label, t, C) in order, requests warm starts along C and pools "
          "the labels with one threshold", "[f_measure_reduction]") {
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::bernoulli_distribution coin(0.3);
  std::vector<Eigen::VectorXd> validation(2), test(2);
  std::vector<std::vector<int>> validation_labels(2), test_labels(2);
  for (int k = 0; k < 2; ++k) {
    validation[static_cast<std::size_t>(k)].resize(40);
    test[static_cast<std::size_t>(k)].resize(30);
    for (int i = 0; i < 40; ++i) {
      validation_labels[static_cast<std::size_t>(k)].push_back(coin(rng) ? 1 : 0);
      validation[static_cast<std::size_t>(k)][i] = normal(rng) + validation_labels[static_cast<std::size_t>(k)].back() - 1.0;
    }
    for (int i = 0; i < 30; ++i) {
      test_labels[static_cast<std::size_t>(k)].push_back(coin(rng) ? 1 : 0);
      test[static_cast<std::size_t>(k)][i] = normal(rng) + test_labels[static_cast<std::size_t>(k)].back() - 1.0;
    }
  }
  CostGridOptions grid_options;
  grid_options.costs = {1.5, 0.5, 1.0};  // sorted by the driver
  grid_options.Cs = {2.0, 1.0};
  ScriptedLearner learner(validation, test);
  const GridEvaluation grid = run_cost_grid(learner, validation_labels, test_labels, grid_options);
  CHECK(grid.trainings == 12);
  REQUIRE(learner.calls.size() == 12);
  // Order: t ascending, then label, then C ascending with a warm start from the second C on.
  CHECK(learner.calls[0] == std::make_tuple(0, 3.0, 1.0, false));
  CHECK(learner.calls[1] == std::make_tuple(0, 3.0, 2.0, true));
  CHECK(learner.calls[2] == std::make_tuple(1, 3.0, 1.0, false));
  CHECK(std::get<1>(learner.calls[4]) == 1.0);
  REQUIRE(grid.models.size() == 12);
  REQUIRE(grid.pooled.size() == 6);
  for (std::size_t i = 1; i < grid.models.size(); ++i) {
    const auto& a = grid.models[i - 1];
    const auto& b = grid.models[i];
    CHECK(std::make_tuple(a.label, a.t, a.C) < std::make_tuple(b.label, b.t, b.C));
  }
  // Each model's counts are evaluate_scores of its scores; each pooled entry has the best
  // global threshold over both labels.
  for (const PooledEvaluation& p : grid.pooled) {
    const double shift = std::log(fn_weight(p.t)) + 0.01 * p.C;
    const Eigen::VectorXd v0 = validation[0].array() + shift, v1 = validation[1].array() + shift;
    const ThresholdChoice expected = best_pooled_threshold({&v0, &v1}, {&validation_labels[0], &validation_labels[1]});
    CHECK(p.threshold == expected.threshold);
    CHECK(p.validation_thresholded == expected.counts);
    const Eigen::VectorXd t0 = test[0].array() + shift, t1 = test[1].array() + shift;
    CHECK(p.test_thresholded == confusion_at(t0, test_labels[0], expected.threshold, true) +
                                    confusion_at(t1, test_labels[1], expected.threshold, true));
    CHECK(p.validation == confusion_at(v0, validation_labels[0], 0.0, false) +
                              confusion_at(v1, validation_labels[1], 0.0, false));
  }
  const ModelEvaluation& first = grid.models.front();
  const Eigen::VectorXd v = validation[0].array() + std::log(fn_weight(first.t)) + 0.01 * first.C;
  const Eigen::VectorXd t = test[0].array() + std::log(fn_weight(first.t)) + 0.01 * first.C;
  const ModelEvaluation expected = evaluate_scores(0, first.t, first.C, 0.0, v, validation_labels[0], t, test_labels[0]);
  CHECK(first.validation == expected.validation);
  CHECK(first.threshold == expected.threshold);
  CHECK(first.test_thresholded == expected.test_thresholded);

  // Bracketing on the full 19-value grid trains fewer models and (F unimodal here: the scores
  // only shift with the cost) selects what the full grid selects.
  CostGridOptions full_options;
  full_options.Cs = {1.0};
  ScriptedLearner full_learner(validation, test), bracket_learner(validation, test);
  const GridEvaluation full = run_cost_grid(full_learner, validation_labels, test_labels, full_options);
  CostGridOptions bracket_options = full_options;
  bracket_options.search = CostSearch::bracket_pooled;
  const GridEvaluation bracketed = run_cost_grid(bracket_learner, validation_labels, test_labels, bracket_options);
  CHECK(full.trainings == 38);
  CHECK(bracketed.trainings < full.trainings);
  const SelectionOptions cst = options(FVariant::cost_sensitive_thresholded);
  CHECK(select_micro(bracketed.pooled, cst).validation_f == select_micro(full.pooled, cst).validation_f);
  bracket_options.search = CostSearch::bracket_per_label;
  ScriptedLearner per_label_learner(validation, test);
  const GridEvaluation per_label = run_cost_grid(per_label_learner, validation_labels, test_labels, bracket_options);
  CHECK(per_label.pooled.empty());
  CHECK(per_label.trainings < full.trainings);

  CostGridOptions bad = grid_options;
  bad.costs = {1.0, 1.0};
  CHECK_THROWS_AS(run_cost_grid(learner, validation_labels, test_labels, bad), Error);
  bad.costs = {2.0};
  CHECK_THROWS_AS(run_cost_grid(learner, validation_labels, test_labels, bad), Error);
  CHECK_THROWS_AS(run_cost_grid(learner, validation_labels, {test_labels[0]}, grid_options), Error);
}

TEST_CASE("a grid survives its JSON round trip", "[f_measure_reduction]") {
  GridEvaluation grid;
  grid.label_count = 2;
  grid.trainings = 3;
  grid.not_converged = 1;
  grid.seconds = 0.5;
  ModelEvaluation m = model(1, 0.3, 0.25, {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16});
  m.gamma = 0.125;
  m.converged = false;
  grid.models.push_back(m);
  m.threshold = std::numeric_limits<double>::infinity();
  grid.models.push_back(m);
  PooledEvaluation p;
  p.t = 1.9;
  p.C = 64.0;
  p.threshold = -0.75;
  p.validation = {3, 2, 1, 0};
  p.test_thresholded = {7, 7, 7, 7};
  grid.pooled.push_back(p);
  const GridEvaluation back = grid_from_json(nlohmann::json::parse(grid_to_json(grid).dump()));
  CHECK(back.label_count == 2);
  CHECK(back.trainings == 3);
  CHECK(back.not_converged == 1);
  REQUIRE(back.models.size() == 2);
  CHECK(back.models[0].label == 1);
  CHECK(back.models[0].t == 0.3);
  CHECK(back.models[0].gamma == 0.125);
  CHECK(back.models[0].threshold == 0.25);
  CHECK_FALSE(back.models[0].converged);
  CHECK(back.models[0].test_thresholded == Confusion{13, 14, 15, 16});
  CHECK(back.models[1].threshold == std::numeric_limits<double>::infinity());
  REQUIRE(back.pooled.size() == 1);
  CHECK(back.pooled[0].threshold == -0.75);
  CHECK(back.pooled[0].validation == Confusion{3, 2, 1, 0});
  CHECK(back.pooled[0].test_thresholded == Confusion{7, 7, 7, 7});
  CHECK_THROWS_AS(grid_from_json(nlohmann::json::parse(R"({"labels": 1})")), Error);
}
