#include "baselines/cost_sensitive_learners.hpp"

#include <fmt/format.h>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

void check_label(int label, std::size_t label_count) {
  if (label < 0 || static_cast<std::size_t>(label) >= label_count) {
    throw Error(fmt::format("cost-sensitive learner: label {} outside 0..{}", label,
                            static_cast<long>(label_count) - 1));
  }
}

// The learner's options with this training's C and class weights (c_+, 1).
template <typename Options>
Options with_costs(Options options, double C, double positive_weight) {
  options.C = C;
  options.positive_weight = positive_weight;
  options.negative_weight = 1.0;
  return options;
}

// The label's previous model if a warm start is asked for and there is one.
template <typename Model>
const Model* warm_start_of(const std::map<int, Model>& last, int label, bool warm) {
  const auto previous = last.find(label);
  return warm && previous != last.end() ? &previous->second : nullptr;
}

void count(LearnerStatistics& statistics, bool converged, long iterations, double seconds) {
  ++statistics.trainings;
  if (!converged) ++statistics.not_converged;
  statistics.iterations += iterations;
  statistics.seconds += seconds;
}

}  // namespace

LinearLearnerKind parse_linear_learner(const std::string& name) {
  if (name == "svm") return LinearLearnerKind::linear_svm;
  if (name == "liblinear_svm") return LinearLearnerKind::liblinear_svm;
  if (name == "lr") return LinearLearnerKind::logistic;
  throw Error(fmt::format("unknown linear learner \"{}\" (expected svm, liblinear_svm or lr)", name));
}

LinearCostSensitiveLearner::LinearCostSensitiveLearner(const SplitFeatures& data,
                                                       LinearLearnerOptions options)
    : data_(data), options_(std::move(options)) {
  for (const auto& labels : data_.train_labels) {
    if (static_cast<long>(labels.size()) != data_.train.rows()) {
      throw Error(fmt::format("cost-sensitive learner: a label vector has {} entries for {} rows",
                              labels.size(), data_.train.rows()));
    }
  }
}

LinearCostSensitiveLearner::~LinearCostSensitiveLearner() = default;

TrainedScores LinearCostSensitiveLearner::train(int label, double positive_weight, double C, bool warm) {
  check_label(label, data_.train_labels.size());
  const std::vector<int>& labels = data_.train_labels[static_cast<std::size_t>(label)];
  TrainedScores out;
  Eigen::VectorXd w;
  if (options_.kind == LinearLearnerKind::linear_svm) {
    WeightedSvmSummary summary;
    WeightedSvmModel model = train_weighted_svm(data_.train, labels, with_costs(options_.svm, C, positive_weight),
                                                &summary, warm_start_of(last_svm_, label, warm));
    count(statistics_, summary.converged, summary.passes + summary.newton_steps, summary.seconds);
    out.converged = summary.converged;
    w = model.weights;
    last_svm_[label] = std::move(model);
  } else {
    if (problem_label_ != label) {
      problem_ = std::make_unique<LiblinearProblem>(data_.train, labels);
      problem_label_ = label;
    }
    LiblinearOptions o = with_costs(options_.liblinear, C, positive_weight);
    o.solver = options_.kind == LinearLearnerKind::logistic ? LiblinearSolver::logistic_regression
                                                            : LiblinearSolver::hinge_svm_dual;
    LiblinearSummary summary;
    // LIBLINEAR accepts a start point for -s 0 only.
    w = train_liblinear(*problem_, o, &summary,
                        warm_start_of(last_weights_, label, warm && o.solver == LiblinearSolver::logistic_regression));
    count(statistics_, summary.converged, summary.iterations, summary.seconds);
    out.converged = summary.converged;
    last_weights_[label] = w;
  }
  out.validation = data_.validation * w;
  out.test = data_.test * w;
  out.weights = std::move(w);
  return out;
}

KernelCostSensitiveLearner::KernelCostSensitiveLearner(const Eigen::MatrixXd& train,
                                                       const std::vector<std::vector<int>>& train_labels,
                                                       const Eigen::MatrixXd& validation,
                                                       const Eigen::MatrixXd& test, double gamma,
                                                       KernelSvmOptions options)
    : train_labels_(train_labels),
      gram_(train, gamma),
      validation_kernel_(rbf_cross_kernel(validation, train, gamma)),
      test_kernel_(rbf_cross_kernel(test, train, gamma)),
      options_(options) {}

TrainedScores KernelCostSensitiveLearner::train(int label, double positive_weight, double C, bool warm) {
  check_label(label, train_labels_.size());
  KernelSvmSummary summary;
  KernelSvmModel model = train_kernel_svm(gram_, train_labels_[static_cast<std::size_t>(label)],
                                          with_costs(options_, C, positive_weight), &summary,
                                          warm_start_of(last_, label, warm));
  count(statistics_, summary.converged, summary.iterations, summary.seconds);
  TrainedScores out;
  out.converged = summary.converged;
  out.validation = decision_values(model, validation_kernel_);
  out.test = decision_values(model, test_kernel_);
  last_[label] = std::move(model);
  return out;
}

StructuredSvmCostLearner::StructuredSvmCostLearner(const SplitFeatures& data, StructuredSvmOptions options)
    : data_(data), options_(std::move(options)) {}

TrainedScores StructuredSvmCostLearner::train(int label, double positive_weight, double C, bool warm) {
  check_label(label, data_.train_labels.size());
  if (positive_weight != 1.0) {
    throw Error(fmt::format("SVM^perf learner: cost-insensitive only (FN weight {}); run its grid "
                            "with costs = {{1}}", positive_weight));
  }
  StructuredSvmOptions o = options_;
  o.C = C;
  StructuredSvmSummary summary;
  OneSlackCuts& cuts = last_cuts_[label];
  if (!warm) cuts.cuts.clear();
  const StructuredSvmModel model =
      train_structured_svm(data_.train, data_.train_labels[static_cast<std::size_t>(label)], o, &summary, &cuts);
  count(statistics_, summary.converged(), summary.iterations, summary.seconds);
  TrainedScores out;
  out.converged = summary.converged();
  out.validation = decision_values(model, data_.validation);
  out.test = decision_values(model, data_.test);
  out.weights = model.weights;
  return out;
}

}  // namespace mpg
