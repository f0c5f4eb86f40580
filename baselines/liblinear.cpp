#include "baselines/liblinear.hpp"

#include <fmt/format.h>
#include <linear.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// LIBLINEAR prints through one global function pointer; ours appends to the calling thread's
// log, so concurrent trainings keep their messages apart.
thread_local std::string* training_log = nullptr;

void capture_output(const char* text) {
  if (training_log != nullptr) training_log->append(text);
}

void install_output_hook() {
  static std::once_flag once;
  std::call_once(once, [] { set_print_string_function(&capture_output); });
}

std::mutex& rand_lock() {
  static std::mutex lock;
  return lock;
}

// The last "#iter = N" of a -s 3 log, or the number of Newton "iter" lines of a -s 0 log.
long iterations_in_log(const std::string& log) {
  const std::size_t at = log.rfind("#iter = ");
  if (at != std::string::npos) return std::strtol(log.c_str() + at + 8, nullptr, 10);
  long count = 0;
  for (std::size_t pos = log.find("iter "); pos != std::string::npos; pos = log.find("iter ", pos + 5)) {
    if (pos == 0 || log[pos - 1] == '\n') ++count;
  }
  return count;
}

}  // namespace

struct LiblinearProblem::Storage {
  std::vector<feature_node> nodes;
  std::vector<feature_node*> rows;
  std::vector<double> labels;  // +1 / -1
  int columns = 0;
  // LIBLINEAR's first class is the label of the first row; w is oriented towards it.
  double orientation = 1.0;
};

LiblinearSolver parse_liblinear_solver(const std::string& name) {
  if (name == "lr") return LiblinearSolver::logistic_regression;
  if (name == "svm") return LiblinearSolver::hinge_svm_dual;
  throw Error(fmt::format("unknown LIBLINEAR solver \"{}\" (expected lr or svm)", name));
}

LiblinearProblem::LiblinearProblem(const SparseRowMatrix& features, const std::vector<int>& labels)
    : storage_(std::make_unique<Storage>()) {
  if (static_cast<long>(labels.size()) != features.rows()) {
    throw Error(fmt::format("LIBLINEAR: {} labels for {} rows", labels.size(), features.rows()));
  }
  if (features.rows() > INT_MAX || features.cols() >= INT_MAX) {
    throw Error("LIBLINEAR: more than INT_MAX rows or columns");
  }
  Storage& s = *storage_;
  s.columns = static_cast<int>(features.cols());
  s.nodes.reserve(static_cast<std::size_t>(features.nonZeros() + features.rows()));
  std::vector<std::size_t> row_start;
  for (long i = 0; i < features.rows(); ++i) {
    row_start.push_back(s.nodes.size());
    for (SparseRowMatrix::InnerIterator it(features, i); it; ++it) {
      if (!std::isfinite(it.value())) throw Error(fmt::format("LIBLINEAR: feature of row {} is not finite", i));
      if (it.value() != 0.0) s.nodes.push_back({static_cast<int>(it.col()) + 1, it.value()});
    }
    s.nodes.push_back({-1, 0.0});
    const int y = labels[static_cast<std::size_t>(i)];
    if (y != 0 && y != 1) throw Error(fmt::format("LIBLINEAR: labels must be 0 or 1, got {}", y));
    s.labels.push_back(y == 1 ? 1.0 : -1.0);
  }
  for (const std::size_t start : row_start) s.rows.push_back(s.nodes.data() + start);
  s.orientation = s.labels.empty() ? 1.0 : s.labels.front();
}

LiblinearProblem::~LiblinearProblem() = default;

long LiblinearProblem::rows() const { return static_cast<long>(storage_->rows.size()); }
long LiblinearProblem::columns() const { return storage_->columns; }

Eigen::VectorXd train_liblinear(const LiblinearProblem& problem, const LiblinearOptions& options,
                                LiblinearSummary* summary, const Eigen::VectorXd* initial_weights) {
  const auto start = std::chrono::steady_clock::now();
  auto positive = [](double v) { return v > 0.0 && std::isfinite(v); };
  if (!positive(options.C) || !positive(options.positive_weight) ||
      !positive(options.negative_weight)) {
    throw Error(fmt::format("LIBLINEAR: C and class weights must be positive (C {}, weights {}, {})",
                            options.C, options.positive_weight, options.negative_weight));
  }
  if (!(options.epsilon >= 0.0)) throw Error("LIBLINEAR: epsilon must be >= 0");
  const LiblinearProblem::Storage& s = *problem.storage_;
  if (s.rows.empty()) throw Error("LIBLINEAR: no examples");

  ::problem prob{};
  prob.l = static_cast<int>(s.rows.size());
  prob.n = s.columns;
  prob.y = const_cast<double*>(s.labels.data());
  prob.x = const_cast<feature_node**>(s.rows.data());
  prob.bias = -1.0;

  const bool svm = options.solver == LiblinearSolver::hinge_svm_dual;
  int weight_label[2] = {1, -1};
  double weight[2] = {options.positive_weight, options.negative_weight};
  Eigen::VectorXd initial;
  ::parameter param{};
  param.solver_type = svm ? L2R_L1LOSS_SVC_DUAL : L2R_LR;
  param.eps = options.epsilon > 0.0 ? options.epsilon : (svm ? 0.1 : 0.01);
  param.C = options.C;
  param.nr_weight = 2;
  param.weight_label = weight_label;
  param.weight = weight;
  param.p = 0.1;
  param.init_sol = nullptr;
  if (initial_weights != nullptr) {
    if (svm) throw Error("LIBLINEAR: -s 3 accepts no initial solution");
    if (initial_weights->size() != s.columns) {
      throw Error(fmt::format("LIBLINEAR: initial solution has {} weights for {} columns",
                              initial_weights->size(), s.columns));
    }
    initial = *initial_weights * s.orientation;
    param.init_sol = initial.data();
  }
  if (const char* error = check_parameter(&prob, &param); error != nullptr) {
    throw Error(fmt::format("LIBLINEAR rejected the parameters: {}", error));
  }

  install_output_hook();
  std::string log;
  training_log = &log;
  ::model* trained = nullptr;
  if (svm) {
    const std::lock_guard<std::mutex> lock(rand_lock());
    std::srand(options.seed);
    trained = train(&prob, &param);
  } else {
    trained = train(&prob, &param);
  }
  training_log = nullptr;
  if (trained == nullptr) throw Error("LIBLINEAR: train() returned no model");

  // With two classes w scores label[0]; with one class (every row alike) likewise.
  const double sign = trained->label[0] == 1 ? 1.0 : -1.0;
  Eigen::VectorXd w(s.columns);
  for (int j = 0; j < s.columns; ++j) w[j] = sign * trained->w[j];
  free_and_destroy_model(&trained);

  if (summary != nullptr) {
    summary->converged = log.find("reaching max number of iterations") == std::string::npos;
    summary->status = summary->converged ? "converged" : "iteration cap";
    summary->iterations = iterations_in_log(log);
    summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return w;
}

}  // namespace mpg
