#include "baselines/svm_compare.hpp"

#include <glpk.h>
#include <svm.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>

#include "lib/base/error.hpp"

namespace mpg {

KernelKind parse_kernel_kind(const std::string& name) {
  if (name == "linear") return KernelKind::linear;
  if (name == "polynomial") return KernelKind::polynomial;
  if (name == "gaussian") return KernelKind::gaussian;
  throw Error("unknown kernel '" + name + "' (expected linear, polynomial or gaussian)");
}

std::string to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::linear: return "linear";
    case KernelKind::polynomial: return "polynomial";
    case KernelKind::gaussian: return "gaussian";
  }
  return "?";
}

void Kernel::validate() const {
  if (kind == KernelKind::gaussian && !(sigma > 0.0 && std::isfinite(sigma)))
    throw Error("gaussian kernel: sigma = " + std::to_string(sigma) + " must be positive and finite");
  if (kind == KernelKind::polynomial && degree < 1)
    throw Error("polynomial kernel: degree = " + std::to_string(degree) + " must be >= 1");
  if (kind == KernelKind::polynomial && !(std::isfinite(scale) && std::isfinite(offset)))
    throw Error("polynomial kernel: scale and offset must be finite");
}

Eigen::MatrixXd Kernel::matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const {
  if (a.cols() != b.cols())
    throw Error("Kernel::matrix: rows with " + std::to_string(a.cols()) + " and " + std::to_string(b.cols()) +
                " features");
  Eigen::MatrixXd inner = a * b.transpose();
  switch (kind) {
    case KernelKind::linear:
      return inner;
    case KernelKind::polynomial:
      return (scale * inner.array() + offset).pow(static_cast<double>(degree)).matrix();
    case KernelKind::gaussian: {
      // ||a_i - b_j||^2 = ||a_i||^2 + ||b_j||^2 - 2 a_i . b_j, clamped at 0 against rounding.
      const Eigen::VectorXd na = a.rowwise().squaredNorm(), nb = b.rowwise().squaredNorm();
      Eigen::MatrixXd distance = (-2.0 * inner).colwise() + na;
      distance.rowwise() += nb.transpose();
      return (-sigma * distance.array().max(0.0)).exp().matrix();
    }
  }
  return inner;
}

FlippedPairs flip_pairs(const PairData& pairs) {
  pairs.validate("flip_pairs");
  FlippedPairs out;
  const std::size_t equal = pairs.count(0);
  const std::size_t m = pairs.size() + equal;
  out.first.resize(static_cast<long>(m), pairs.features());
  out.second.resize(static_cast<long>(m), pairs.features());
  out.labels.reserve(m);
  out.source.reserve(m);
  long row = 0;
  auto add = [&](std::size_t i, bool swap, int label) {
    const auto r = static_cast<long>(i);
    out.first.row(row) = swap ? pairs.second.row(r) : pairs.first.row(r);
    out.second.row(row) = swap ? pairs.first.row(r) : pairs.second.row(r);
    out.labels.push_back(label);
    out.source.push_back(i);
    ++row;
  };
  // Blocks in the order of Eq. (8): I_1, I_-1 (swapped), I_0, I_0 (swapped).
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (pairs.labels[i] == 1) add(i, false, 1);
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (pairs.labels[i] == -1) add(i, true, 1);
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (pairs.labels[i] == 0) add(i, false, -1);
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (pairs.labels[i] == 0) add(i, true, -1);
  return out;
}

Eigen::MatrixXd pair_kernel_matrix(const Kernel& kernel, const Eigen::MatrixXd& first, const Eigen::MatrixXd& second) {
  kernel.validate();
  if (first.rows() != second.rows() || first.cols() != second.cols())
    throw Error("pair_kernel_matrix: first and second have different shapes");
  if (kernel.kind == KernelKind::linear) {
    const Eigen::MatrixXd d = second - first;
    return d * d.transpose();
  }
  const long m = first.rows();
  Eigen::MatrixXd stacked(2 * m, first.cols());
  stacked << first, second;
  const Eigen::MatrixXd k = kernel.matrix(stacked, stacked);
  // M^T K M with M = [-I; I]: K'' - K'x - Kx' + Kxx.
  return k.bottomRightCorner(m, m) - k.bottomLeftCorner(m, m) - k.topRightCorner(m, m) + k.topLeftCorner(m, m);
}

Eigen::VectorXd ComparisonModel::rank(const Eigen::MatrixXd& rows) const {
  if (!usable)
    throw Error("SVMcompare solution with beta >= 0 has no ranking function (Lemma 3.1 needs beta < 0); "
                "choose another C or kernel");
  const Eigen::MatrixXd standardized = standardizer.apply(rows);
  if (points.rows() == 0) return Eigen::VectorXd::Zero(rows.rows());
  return kernel.matrix(standardized, points) * coefficients;
}

std::vector<double> ComparisonModel::differences(const PairData& pairs) const {
  pairs.validate("ComparisonModel::differences");
  const Eigen::VectorXd d = rank(pairs.second) - rank(pairs.first);
  return {d.data(), d.data() + d.size()};
}

std::vector<int> ComparisonModel::predict(const PairData& pairs) const {
  const std::vector<double> d = differences(pairs);
  std::vector<int> out(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) out[i] = d[i] < -threshold ? -1 : (d[i] > threshold ? 1 : 0);
  return out;
}

Eigen::VectorXd ComparisonModel::linear_weights() const {
  if (kernel.kind != KernelKind::linear) throw Error("ComparisonModel::linear_weights: the kernel is not linear");
  if (points.rows() == 0) return Eigen::VectorXd::Zero(static_cast<long>(standardizer.kept.size()));
  return points.transpose() * coefficients;
}

namespace {

// libsvm prints through one global function; training output is discarded.
void discard_libsvm_output(const char*) {}

struct LibsvmModelDeleter {
  void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

SvmCompareProblem prepare_svm_compare(const PairData& training, const Kernel& kernel, bool standardize) {
  training.validate("train_svm_compare");
  kernel.validate();
  const std::size_t equal = training.count(0);
  if (equal == 0 || equal == training.size())
    throw Error("train_svm_compare: needs equality (y = 0) and inequality (y = +-1) pairs, got " +
                std::to_string(equal) + " of " + std::to_string(training.size()) +
                " equality pairs (the flipped SVM would have one class)");
  SvmCompareProblem problem;
  problem.kernel = kernel;
  problem.standardizer = standardize ? PairStandardizer::fit(training) : PairStandardizer::identity(training.features());
  problem.flipped = flip_pairs(problem.standardizer.apply(training));
  problem.reduced = pair_kernel_matrix(kernel, problem.flipped.first, problem.flipped.second);
  return problem;
}

ComparisonModel train_svm_compare(const PairData& training, const SvmCompareOptions& options,
                                  SvmCompareSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  const SvmCompareProblem problem = prepare_svm_compare(training, options.kernel, options.standardize);
  ComparisonModel model = train_svm_compare(problem, options, summary);
  if (summary) summary->seconds = seconds_since(start);
  return model;
}

ComparisonModel train_svm_compare(const SvmCompareProblem& problem, const SvmCompareOptions& options,
                                  SvmCompareSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  if (!(options.C > 0.0 && std::isfinite(options.C)))
    throw Error("train_svm_compare: C = " + std::to_string(options.C) + " must be positive and finite");
  if (!(options.tolerance > 0.0)) throw Error("train_svm_compare: tolerance must be positive");
  ComparisonModel model;
  model.kernel = problem.kernel;
  model.threshold = 1.0;
  model.standardizer = problem.standardizer;
  const FlippedPairs& flipped = problem.flipped;
  const Eigen::MatrixXd& reduced = problem.reduced;
  const int m = static_cast<int>(flipped.labels.size());

  // libsvm's precomputed-kernel input: row i is (0: serial i + 1), (j: K~(i, j - 1)), (-1).
  std::vector<svm_node> nodes(static_cast<std::size_t>(m) * static_cast<std::size_t>(m + 2));
  std::vector<svm_node*> rows(static_cast<std::size_t>(m));
  std::vector<double> labels(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) {
    svm_node* row = nodes.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(m + 2);
    row[0] = {0, static_cast<double>(i + 1)};
    for (int j = 0; j < m; ++j) row[j + 1] = {j + 1, reduced(i, j)};
    row[m + 1] = {-1, 0.0};
    rows[static_cast<std::size_t>(i)] = row;
    labels[static_cast<std::size_t>(i)] = flipped.labels[static_cast<std::size_t>(i)];
  }
  svm_problem libsvm_problem{m, labels.data(), rows.data()};
  svm_parameter parameter{};
  parameter.svm_type = C_SVC;
  parameter.kernel_type = PRECOMPUTED;
  parameter.cache_size = options.cache_mb;
  parameter.eps = options.tolerance;
  parameter.C = options.C;
  parameter.shrinking = 1;
  parameter.probability = 0;
  if (const char* message = svm_check_parameter(&libsvm_problem, &parameter))
    throw Error(std::string("train_svm_compare: libsvm rejects the parameters: ") + message);
  static std::once_flag quiet;
  std::call_once(quiet, [] { svm_set_print_string_function(&discard_libsvm_output); });
  std::unique_ptr<svm_model, LibsvmModelDeleter> trained(svm_train(&libsvm_problem, &parameter));
  if (!trained) throw SolverError("train_svm_compare: libsvm returned no model");

  // libsvm's decision value is sum_k coef_k K~(sv_k, .) - rho for the class label[0]; turn it
  // into f = beta + sum_i y~_i v_i K~(i, .) for y~ = +1 (so coef_k = y~ v, beta = -rho).
  int class_labels[2] = {0, 0};
  svm_get_labels(trained.get(), class_labels);
  const double sign = class_labels[0] == 1 ? 1.0 : -1.0;
  const int support = svm_get_nr_sv(trained.get());
  std::vector<int> indices(static_cast<std::size_t>(support));
  svm_get_sv_indices(trained.get(), indices.data());
  Eigen::VectorXd signed_dual = Eigen::VectorXd::Zero(m);  // y~_i v_i
  for (int k = 0; k < support; ++k) signed_dual(indices[static_cast<std::size_t>(k)] - 1) = sign * trained->sv_coef[0][k];
  const double beta = -sign * trained->rho[0];

  SvmCompareSummary result;
  result.beta = beta;
  result.flipped_pairs = static_cast<std::size_t>(m);
  result.support_vectors = static_cast<std::size_t>(support);
  result.usable = beta < 0.0;
  result.status = result.usable ? "ok" : "nonnegative_bias";
  model.usable = result.usable;
  // Dual (18) in v: 1/2 v^T Y K~ Y v - 1^T v, with Y v = signed_dual; gradient G = Y K~ Y v - 1.
  const Eigen::VectorXd kv = reduced * signed_dual;
  result.dual.resize(static_cast<std::size_t>(m));
  double up = -std::numeric_limits<double>::infinity(), low = std::numeric_limits<double>::infinity();
  for (int i = 0; i < m; ++i) {
    const double y = flipped.labels[static_cast<std::size_t>(i)];
    const double v = y * signed_dual(i);
    result.dual[static_cast<std::size_t>(i)] = v;
    result.dual_objective += 0.5 * signed_dual(i) * kv(i) - v;
    const double minus_y_gradient = -y * (y * kv(i) - 1.0);
    const bool below_cap = v < options.C, above_zero = v > 0.0;
    if ((y > 0 && below_cap) || (y < 0 && above_zero)) up = std::max(up, minus_y_gradient);
    if ((y < 0 && below_cap) || (y > 0 && above_zero)) low = std::min(low, minus_y_gradient);
  }
  result.max_kkt_violation = std::max(0.0, up - low);
  // libsvm stops when this violation is below eps, or after its iteration cap (it then only
  // prints a warning on stderr): the violation tells which. libsvm keeps the kernel in single
  // precision, so its gradients differ from ours by up to ~2^-23 sum_j v_j max|K~| each; that
  // much slack is allowed.
  const double rounding = 2.0 * std::ldexp(1.0, -23) * reduced.cwiseAbs().maxCoeff() *
                          std::accumulate(result.dual.begin(), result.dual.end(), 0.0);
  result.converged = result.max_kkt_violation <= options.tolerance * (1.0 + 1e-9) + rounding;

  // r(x) = sum_i y~_i v_i [k(x~'_i, x) - k(x~_i, x)] / (-beta), Eqs. (13) and (19).
  if (result.usable) {
    model.points.resize(2 * support, flipped.first.cols());
    model.coefficients.resize(2 * support);
    for (int k = 0; k < support; ++k) {
      const int i = indices[static_cast<std::size_t>(k)] - 1;
      model.points.row(2 * k) = flipped.second.row(i);
      model.points.row(2 * k + 1) = flipped.first.row(i);
      model.coefficients(2 * k) = signed_dual(i) / -beta;
      model.coefficients(2 * k + 1) = -signed_dual(i) / -beta;
    }
  }
  result.seconds = seconds_since(start);
  if (summary) *summary = std::move(result);
  return model;
}

std::string to_string(LpStatus status) {
  switch (status) {
    case LpStatus::optimal: return "optimal";
    case LpStatus::infeasible: return "infeasible";
    case LpStatus::unbounded: return "unbounded";
  }
  return "?";
}

HardMarginLpResult solve_hard_margin_comparison_lp(const PairData& pairs, bool nonnegative_margin) {
  const auto start = std::chrono::steady_clock::now();
  pairs.validate("solve_hard_margin_comparison_lp");
  const int p = static_cast<int>(pairs.features());
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
  glp_set_obj_dir(lp.get(), GLP_MAX);
  // Columns 1..p: w (free); column p + 1: mu.
  glp_add_cols(lp.get(), p + 1);
  for (int j = 1; j <= p; ++j) glp_set_col_bnds(lp.get(), j, GLP_FR, 0.0, 0.0);
  glp_set_col_bnds(lp.get(), p + 1, nonnegative_margin ? GLP_LO : GLP_FR, 0.0, 0.0);
  glp_set_obj_coef(lp.get(), p + 1, 1.0);
  std::vector<int> index(static_cast<std::size_t>(p) + 2);
  std::vector<double> value(static_cast<std::size_t>(p) + 2);
  for (int j = 1; j <= p + 1; ++j) index[static_cast<std::size_t>(j)] = j;
  // Row: sign * w . d + mu <= upper.
  auto add_row = [&](long i, double sign, double upper) {
    const int row = glp_add_rows(lp.get(), 1);
    for (int j = 0; j < p; ++j)
      value[static_cast<std::size_t>(j) + 1] = sign * (pairs.second(i, j) - pairs.first(i, j));
    value[static_cast<std::size_t>(p) + 1] = 1.0;
    glp_set_mat_row(lp.get(), row, p + 1, index.data(), value.data());
    glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, upper);
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto r = static_cast<long>(i);
    if (pairs.labels[i] == 0) {
      add_row(r, 1.0, 1.0);   // mu <= 1 - w . d
      add_row(r, -1.0, 1.0);  // mu <= 1 + w . d
    } else {
      add_row(r, -static_cast<double>(pairs.labels[i]), -1.0);  // mu <= -1 + y w . d
    }
  }
  glp_smcp control;
  glp_init_smcp(&control);
  control.msg_lev = GLP_MSG_OFF;
  HardMarginLpResult result;
  if (pairs.size() == 0) {
    result.status = LpStatus::unbounded;
  } else {
    const int code = glp_simplex(lp.get(), &control);
    if (code != 0) throw SolverError("solve_hard_margin_comparison_lp: GLPK simplex failed with code " + std::to_string(code));
    const int status = glp_get_status(lp.get());
    if (status == GLP_OPT) {
      result.status = LpStatus::optimal;
      result.margin = glp_get_obj_val(lp.get());
      result.weights.resize(p);
      for (int j = 0; j < p; ++j) result.weights(j) = glp_get_col_prim(lp.get(), j + 1);
    } else if (status == GLP_UNBND) {
      result.status = LpStatus::unbounded;
    } else if (status == GLP_NOFEAS) {
      result.status = LpStatus::infeasible;
    } else {
      throw SolverError("solve_hard_margin_comparison_lp: GLPK ended with status " + std::to_string(status));
    }
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace mpg
