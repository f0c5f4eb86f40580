// The learners of Parambath's thesis ch. 2 behind the CostSensitiveLearner interface of
// baselines/f_measure_reduction.hpp (binary relevance: one binary problem per label, trained on
// the training part, scored on the validation and test parts):
//   linear_svm     class-weighted hinge SVM, LIBLINEAR -s 3's problem, in-tree solver
//                  (baselines/weighted_svm.hpp: 50,000-pass cap, warm start along C);
//   liblinear_svm  the same problem by Debian's LIBLINEAR -s 3 (1,000-pass cap, no warm start);
//   logistic       class-weighted L2 logistic regression, LIBLINEAR -s 0 (warm start along C);
//   rbf_svm        bias-free class-weighted RBF SVM (baselines/kernel_svm.hpp), one gamma;
//   svm_perf       the F1 structural SVM (baselines/structured_svm.hpp), cost-insensitive only.
#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "baselines/f_measure_reduction.hpp"
#include "baselines/kernel_svm.hpp"
#include "baselines/liblinear.hpp"
#include "baselines/structured_svm.hpp"
#include "baselines/weighted_svm.hpp"

namespace mpg {

// One split for binary relevance: the parts' features (the constant feature column included if
// the learner expects one) and the training part's label vectors (label_count of them).
struct SplitFeatures {
  SparseRowMatrix train;
  SparseRowMatrix validation;
  SparseRowMatrix test;
  std::vector<std::vector<int>> train_labels;
};

enum class LinearLearnerKind { linear_svm, liblinear_svm, logistic };
// "svm" / "liblinear_svm" / "lr"; throws mpg::Error otherwise.
LinearLearnerKind parse_linear_learner(const std::string& name);

struct LinearLearnerOptions {
  LinearLearnerKind kind = LinearLearnerKind::linear_svm;
  WeightedSvmOptions svm;       // linear_svm (C and weights are set per training)
  LiblinearOptions liblinear;   // liblinear_svm / logistic (solver, C and weights set per training)
};

// Totals over the trainings of one learner, for summaries and benchmarks.
struct LearnerStatistics {
  long trainings = 0;
  long not_converged = 0;
  long iterations = 0;  // passes (SVM), Newton iterations (LR), coordinate updates (RBF)
  double seconds = 0.0;
};

class LinearCostSensitiveLearner : public CostSensitiveLearner {
 public:
  // Keeps a reference to `data`, which must outlive the learner.
  LinearCostSensitiveLearner(const SplitFeatures& data, LinearLearnerOptions options);
  ~LinearCostSensitiveLearner() override;
  TrainedScores train(int label, double positive_weight, double C, bool warm) override;
  const LearnerStatistics& statistics() const { return statistics_; }

 private:
  const SplitFeatures& data_;
  LinearLearnerOptions options_;
  LearnerStatistics statistics_;
  int problem_label_ = -1;                     // label of problem_ (LIBLINEAR)
  std::unique_ptr<LiblinearProblem> problem_;
  std::map<int, WeightedSvmModel> last_svm_;   // per label, for warm starts
  std::map<int, Eigen::VectorXd> last_weights_;
};

class KernelCostSensitiveLearner : public CostSensitiveLearner {
 public:
  // Points are dense rows (the constant feature, if any, does not change an RBF kernel).
  // Precomputes the validation and test cross kernels, and the training Gram matrix when it
  // fits in 512 MiB (otherwise each training computes columns through options.cache_bytes).
  KernelCostSensitiveLearner(const Eigen::MatrixXd& train, const std::vector<std::vector<int>>& train_labels,
                             const Eigen::MatrixXd& validation, const Eigen::MatrixXd& test,
                             double gamma, KernelSvmOptions options);
  TrainedScores train(int label, double positive_weight, double C, bool warm) override;
  double gamma() const override { return gram_.gamma(); }
  const LearnerStatistics& statistics() const { return statistics_; }

 private:
  std::vector<std::vector<int>> train_labels_;
  RbfGram gram_;
  Eigen::MatrixXd validation_kernel_;
  Eigen::MatrixXd test_kernel_;
  KernelSvmOptions options_;
  LearnerStatistics statistics_;
  std::map<int, KernelSvmModel> last_;
};

// SVM^perf with the F1 loss: only positive_weight 1 (run its grid with costs = {1}); C is
// SVM^perf's C. Warm start: the cuts of the label's previous training (valid at every C).
class StructuredSvmCostLearner : public CostSensitiveLearner {
 public:
  StructuredSvmCostLearner(const SplitFeatures& data, StructuredSvmOptions options);
  TrainedScores train(int label, double positive_weight, double C, bool warm) override;
  const LearnerStatistics& statistics() const { return statistics_; }

 private:
  const SplitFeatures& data_;
  StructuredSvmOptions options_;
  LearnerStatistics statistics_;
  std::map<int, OneSlackCuts> last_cuts_;  // per label, for warm starts
};

}  // namespace mpg
