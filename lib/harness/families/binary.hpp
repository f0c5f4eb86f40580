// The binary family's own header (private to lib/harness/families/binary*.cpp): its run class and the
// types and functions its files share.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "baselines/logistic_regression.hpp"
#include "baselines/structured_svm.hpp"
#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/libsvm.hpp"
#include "lib/data/optdigits.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/f1_decision.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"

namespace mpg::harness::binary_impl {

using nlohmann::json;

// ---- Methods -----------------------------------------------------------------------------------

const Parameter kLambda = grid_parameter("lambda", 0.0, 1e9, "grid of the L2 weight λ in λ/2‖θ‖² (one cell per value)");

const MethodKind& mpg_kind();

const MethodKind& logistic_regression_kind();

ParameterTable ssvm_parameters();

const MethodKind& ssvm_kind();

const MethodKind& ssvm_top_k_kind();

// ---- Data --------------------------------------------------------------------------------------

// One data file of a binary task: features (bias 1 last) and raw labels.
struct DataFile {
  VerifiedFile file;
  SparseRowMatrix features;
  std::vector<double> labels;
};

DataFile load_data_file(const RegistryChoice& choice, const std::string& part);

SparseRowMatrix select_rows(const SparseRowMatrix& x, const std::vector<std::size_t>& rows);

// `f` with `columns` feature columns, its bias column moved to the last one.
void widen(SparseRowMatrix& f, Eigen::Index columns);

// One data set of the spec: its files, split, and binary tasks (one per positive label).
struct Dataset {
  std::string label;
  RegistryChoice choice;
  DataFile train_file, test_file;
  SparseRowMatrix train, validation;  // the split of the training file
  std::vector<double> train_labels, validation_labels;
  std::vector<double> positive_labels;
  bool one_vs_rest = false;
  nlohmann::json method_settings = nlohmann::json::object();  // {method: {parameter: value}} for this data set

  // The method's entry of the spec with this data set's settings for it merged over it.
  nlohmann::json method_entry(const std::string& method, const nlohmann::json& entry) const {
    nlohmann::json merged = entry;
    if (method_settings.contains(method)) merged.merge_patch(method_settings[method]);
    return merged;
  }

  std::string task_name(double positive) const {
    return one_vs_rest ? fmt::format("{}/class {}", label, positive) : label;
  }
};

std::vector<int> binary(const std::vector<double>& labels, double positive);

// ---- Cells -------------------------------------------------------------------------------------

// What every method's cell sees: its data, the task's labels, the metric's settings.
struct TaskData {
  const Dataset& data;
  std::vector<int> train_labels, validation_labels;
  MetricSettings metric;
  double score(const std::vector<int>& predicted, const std::vector<int>& gold) const;
  const BinaryMetricPlugin& plugin() const { return binary_metric_plugin(metric.metric); }
};

Eigen::VectorXd weights_of(const json& result);

// An MPG validation or test game, with the method's caps (a capped game is reported, not hidden).
BinaryPrediction predict_game(const BinaryModel& model, const BinaryProblem& problem, const ParameterValues& p);

// Training picks the metric's own trainer (the dual over P@k's closed-form game, else cutting
// planes) unless the method names one.
json mpg_validate(const TaskData& t, const ParameterValues& p);

json mpg_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels);

// LR predicts sign(w.x) in an F1 table and the k highest w.x in a P@k table.
std::vector<int> logistic_predictions(const TaskData& t, const Eigen::VectorXd& values, const std::vector<int>& gold);

json logistic_validate(const TaskData& t, const ParameterValues& p);

json logistic_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels);

// Decision rules of the structured SVM kinds (thesis §5.3): "ssvm" predicts sign(w . x_i); in a
// P@k table its score is the precision of its k highest values that are also positive, so fewer
// than k predicted positives count as misses (hits / k). "ssvm_top_k" (SSVM') predicts the k
// highest values. `gold` gives the evaluated part's k.
std::vector<int> ssvm_predictions(const TaskData& t, bool top_k, const Eigen::VectorXd& values,
                                  const std::vector<int>& gold);

// SVM^perf (Joachims 2005): Delta = 1 - F1 in an F1 table; in a P@k table Delta = 1 - P@k over
// labellings with exactly k positives, k from the training part's gold labels.
json ssvm_validate(const TaskData& t, const ParameterValues& p, bool top_k);

json ssvm_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels,
               bool top_k);

// A method kind's declaration and its two steps.
struct BinaryMethod {
  const MethodKind& kind;
  std::function<json(const TaskData&, const ParameterValues&)> validate;
  std::function<json(const TaskData&, const ParameterValues&, const json&, const std::vector<int>&)> test;
};

const std::vector<BinaryMethod>& binary_methods();

const BinaryMethod& binary_method(const std::string& kind);

// ---- The experiment ----------------------------------------------------------------------------

struct Cell {
  const Dataset* dataset;
  double positive;
  std::string method;
  std::string kind;
};

class BinaryRun : public FamilyRun {
 public:
  explicit BinaryRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& validation) const override {
    return {{group(cell), validation.at("validation_score").get<double>()}};
  }
  std::string validation_line(const json& v) const override {
    return fmt::format("validation {} {:.4f}  ({:.1f} s)", metric_name_, v["validation_score"].get<double>(),
                       v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0));
  }
  json test(std::size_t cell, const json& validation) const override;
  std::string test_line(const json& t) const override {
    return fmt::format("test {} {:.4f}", metric_name_, t["test_score"].get<double>());
  }
  Tables tables(const Outcome& outcome) const override;

 private:
  std::string group(std::size_t cell) const {
    return cells_[cell].dataset->task_name(cells_[cell].positive) + "\n" + cells_[cell].method;
  }
  TaskData task_data(std::size_t cell) const {
    const Cell& c = cells_[cell];
    return {*c.dataset, binary(c.dataset->train_labels, c.positive), binary(c.dataset->validation_labels, c.positive),
            metric_};
  }

  json spec_;
  std::string metric_name_;
  MetricSettings metric_;
  double tolerance_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<Cell> cells_;
  std::vector<CellPlan> plans_;
};

}  // namespace mpg::harness::binary_impl
