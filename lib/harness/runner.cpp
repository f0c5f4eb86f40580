// Spec -> cells -> cached results -> tables. Protocol (thesis §5.1 and the authors' evaluation
// code): a seeded random `validation_fraction` of the training file is held out; every grid
// point is trained on the rest and scored on the held-out part (for MPG one game over the whole
// part); the grid point with the best validation score (first in grid order among ties) is
// scored on the test file (one game over the whole file) with the same model, not retrained.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "baselines/logistic_regression.hpp"
#include "baselines/structured_svm.hpp"
#include "lib/models/binary_mpg.hpp"  // MetricSettings, precision_k: the scoring of every method kind
#include "lib/models/binary_mpg_trainer.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/common.hpp"
#include "lib/harness/progress.hpp"
#include "lib/base/io.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/precision_at_k.hpp"
#include "lib/base/sha256.hpp"

namespace mpg::harness {

// Which code a binary-table cell's result depends on, per method kind: git pathspecs relative to
// the source directory (a directory is everything under it; explicit file names, no globs
// except the two below). The revision of a kind's paths is in its cells' cache keys, so a
// change elsewhere (e.g. to a baseline, for MPG cells) keeps them. tests/test_harness.cpp checks
// that every project file reached by #include from a kind's code (and X.cpp for each X.hpp)
// is covered.
namespace {

// Every kind: the harness (spec, quick patch and overrides, registry, loading with sha256
// checks, split, cell cache, tables), the data readers, and the scoring of runner.cpp.
const std::vector<std::string> kSharedPaths = {
    "CMakeLists.txt", "cli",  // build settings; `mpg run`
    "datasets/registry.json",  // file names, sha256s, formats and feature counts of the data
    "lib/harness",
    "lib/base/error.hpp", "lib/base/overloaded.hpp", "lib/base/choices.hpp",
    "lib/base/io.cpp", "lib/base/io.hpp",              // read_file (plain, .gz, .xz)
    "lib/base/sha256.cpp", "lib/base/sha256.hpp",      // data checks, cache file names
    "lib/data/libsvm.cpp", "lib/data/libsvm.hpp",      // LIBSVM files (ADULT, ...)
    "lib/data/optdigits.cpp", "lib/data/optdigits.hpp",  // OPTDIGITS files
    "lib/metrics",                           // f1_score, precision_at_k (+ the game headers they include)
    "lib/game/binary_action.cpp", "lib/game/binary_action.hpp", "lib/game/game.hpp",  // positives_of
    // MetricSettings, parse_binary_metric and precision_k: the k of every P@k score and of the
    // SSVM's P@k loss. binary_mpg.hpp includes the rest: the double oracle, the matrix games
    // with their LP backends (glpk/lp_solve_backend.cpp implement matrix_game.hpp), the optimizer.
    "lib/models/binary_mpg.cpp", "lib/models/binary_mpg.hpp", "lib/game/double_oracle.hpp", "lib/game/double_oracle.cpp", "lib/game/restricted_game.hpp",
    "lib/game/matrix_game.cpp", "lib/game/matrix_game.hpp", "lib/game/glpk_backend.cpp", "lib/game/lp_solve_backend.cpp",
    "lib/learn/optimizer.cpp", "lib/learn/optimizer.hpp", "lib/learn/simplex_qp.cpp", "lib/learn/simplex_qp.hpp",
    "lib/learn/game_statistics.cpp", "lib/learn/game_statistics.hpp"};

std::vector<std::string> shared_plus(const std::vector<std::string>& own) {
  std::vector<std::string> paths = kSharedPaths;
  paths.insert(paths.end(), own.begin(), own.end());
  return paths;
}

const std::map<std::string, std::vector<std::string>>& method_source_table() {
  static const std::map<std::string, std::vector<std::string>> table = [] {
    // The logistic regression and what it includes (L-BFGS in lib/learn/optimizer.*, whose .cpp uses
    // lib/learn/simplex_qp.*).
    const std::vector<std::string> logistic_regression = {
        "baselines/logistic_regression.cpp", "baselines/logistic_regression.hpp",
        "lib/learn/optimizer.cpp", "lib/learn/optimizer.hpp", "lib/learn/simplex_qp.cpp", "lib/learn/simplex_qp.hpp",
    "lib/learn/game_statistics.cpp", "lib/learn/game_statistics.hpp"};
    // SVM^perf: its header includes logistic_regression.hpp (decision_values, predict_threshold,
    // predict_top_k), its cutting plane solves QPs over the simplex (lib/learn/simplex_qp.*, and the
    // active-set solver of baselines/simplex_qp_active_set.*, named explicitly even before it is
    // committed), and any later baselines/simplex_qp* or baselines/active_set* file; its outer loop
    // is baselines/one_slack_cutting_plane.*.
    std::vector<std::string> ssvm = {
        "baselines/structured_svm.cpp", "baselines/structured_svm.hpp",
        "baselines/one_slack_cutting_plane.cpp", "baselines/one_slack_cutting_plane.hpp",
        "baselines/simplex_qp_active_set.cpp", "baselines/simplex_qp_active_set.hpp",
        "baselines/simplex_qp*", "baselines/active_set*"};
    ssvm.insert(ssvm.end(), logistic_regression.begin(), logistic_regression.end());
    return std::map<std::string, std::vector<std::string>>{
        // MPG: all the code but baselines/ (lib/ holds the harness, the trainers and games).
        {"mpg", {"lib", "cli", "CMakeLists.txt", "datasets/registry.json"}},
        {"logistic_regression", shared_plus(logistic_regression)},
        {"ssvm", shared_plus(ssvm)},
        {"ssvm_top_k", shared_plus(ssvm)}};
  }();
  return table;
}

}  // namespace

const std::vector<std::string>& method_source_paths(const std::string& kind) {
  const auto& table = method_source_table();
  const auto found = table.find(kind);
  if (found == table.end()) throw Error("method_source_paths: unknown method kind '" + kind + "'");
  return found->second;
}

namespace {

using nlohmann::json;
SparseRowMatrix select_rows(const SparseRowMatrix& x, const std::vector<std::size_t>& rows) {
  SparseRowMatrix out(static_cast<Eigen::Index>(rows.size()), x.cols());
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (SparseRowMatrix::InnerIterator it(x, static_cast<Eigen::Index>(rows[r])); it; ++it)
      entries.emplace_back(static_cast<Eigen::Index>(r), it.col(), it.value());
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

// One dataset of the spec: its files, split, and binary tasks.
struct Dataset {
  std::string label;
  std::string registry;
  std::string variant;
  DataFile train_file;
  DataFile test_file;
  SparseRowMatrix train;       // training part of the split
  SparseRowMatrix validation;  // held-out part
  std::vector<double> train_labels, validation_labels;
  std::vector<double> positive_labels;  // one binary task per entry
  bool one_vs_rest = false;
};

struct Task {
  const Dataset* dataset;
  double positive_label;
  std::string name() const {
    return dataset->one_vs_rest ? fmt::format("{}/class {}", dataset->label, positive_label)
                                : dataset->label;
  }
};

std::vector<int> binary(const std::vector<double>& labels, double positive) {
  std::vector<int> out(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) out[i] = labels[i] == positive ? 1 : 0;
  return out;
}

struct Cell {
  Task task;
  std::string method;
  json method_spec;
  std::string parameter_name;  // "lambda" or "C"
  double parameter = 0.0;
  int grid_index = 0;
};

class Experiment {
 public:
  Experiment(json spec, std::string spec_path, const RunOptions& options)
      : spec_(std::move(spec)), spec_path_(std::move(spec_path)), options_(options) {
    name_ = spec_["name"].get<std::string>();
    metric_ = spec_["metric"].get<std::string>();
    k_fraction_ = spec_.value("k_fraction", 0.5);
    tolerance_ = spec_.value("tolerance", 0.01);
    revision_ = source_revision();
    // Each kind's revision once (two git calls per kind used by the spec).
    for (const auto& [method, m] : spec_["methods"].items()) {
      const std::string kind = m["kind"].get<std::string>();
      if (!kind_revisions_.count(kind)) kind_revisions_[kind] = source_revision(method_source_paths(kind));
      method_revisions_[method] = kind_revisions_[kind];
    }
    results_dir_ = results_directory(options);
    cache_ = CellCache(cache_directory(options, name_));
  }

  RunSummary run();

 private:
  void load_data();
  json run_validation_cell(const Cell& cell) const;
  json run_test_cell(const Cell& cell, const json& validation) const;
  double score(const std::vector<int>& predicted, const std::vector<int>& gold) const;
  json cell_key(const Cell& cell, const std::string& phase) const;
  void write_tables(RunSummary& summary, const std::vector<Cell>& cells,
                    const std::vector<json>& validation, const std::map<std::string, json>& tests,
                    double seconds) const;

  json spec_;
  std::string spec_path_;
  RunOptions options_;
  std::string name_, metric_, revision_, results_dir_;  // revision_: of all the code, for the tables
  std::map<std::string, std::string> kind_revisions_;    // method kind -> revision of its paths, for cell keys
  json method_revisions_ = json::object();               // method label -> its kind's revision
  CellCache cache_{""};
  double k_fraction_ = 0.5;
  double tolerance_ = 0.01;
  std::vector<std::unique_ptr<Dataset>> datasets_;
};

void Experiment::load_data() {
  const double fraction = spec_["protocol"]["validation_fraction"].get<double>();
  const auto seed = spec_["protocol"]["split_seed"].get<std::uint64_t>();
  for (const auto& [label, d] : spec_["datasets"].items()) {
    auto dataset = std::make_unique<Dataset>();
    dataset->label = label;
    dataset->registry = d["registry"].get<std::string>();
    const json& entry = dataset_registry()[dataset->registry];
    dataset->variant = d.value("variant", entry["default_variant"].get<std::string>());
    dataset->train_file = load_registry_file(dataset->registry, dataset->variant, "train");
    dataset->test_file = load_registry_file(dataset->registry, dataset->variant, "test");
    // Both files get the same feature columns (bias last).
    const Eigen::Index columns = std::max(dataset->train_file.features.cols(), dataset->test_file.features.cols());
    for (DataFile* f : {&dataset->train_file, &dataset->test_file}) {
      if (f->features.cols() == columns) continue;
      SparseRowMatrix widened(f->features.rows(), columns);
      std::vector<Eigen::Triplet<double>> entries;
      for (Eigen::Index r = 0; r < f->features.rows(); ++r)
        for (SparseRowMatrix::InnerIterator it(f->features, r); it; ++it) {
          const Eigen::Index c = it.col() == f->features.cols() - 1 ? columns - 1 : it.col();
          entries.emplace_back(r, c, it.value());
        }
      widened.setFromTriplets(entries.begin(), entries.end());
      f->features = std::move(widened);
    }
    const auto [train_rows, validation_rows] =
        split_indices(dataset->train_file.labels.size(), fraction, seed);
    dataset->train = select_rows(dataset->train_file.features, train_rows);
    dataset->validation = select_rows(dataset->train_file.features, validation_rows);
    for (auto r : train_rows) dataset->train_labels.push_back(dataset->train_file.labels[r]);
    for (auto r : validation_rows) dataset->validation_labels.push_back(dataset->train_file.labels[r]);
    dataset->one_vs_rest = d.value("one_vs_rest", false);
    if (dataset->one_vs_rest) {
      if (d.contains("classes")) {
        dataset->positive_labels = d["classes"].get<std::vector<double>>();
      } else {
        std::set<double> classes(dataset->train_file.labels.begin(), dataset->train_file.labels.end());
        dataset->positive_labels.assign(classes.begin(), classes.end());
      }
    } else {
      dataset->positive_labels = {d["positive_label"].get<double>()};
    }
    datasets_.push_back(std::move(dataset));
  }
}

double Experiment::score(const std::vector<int>& predicted, const std::vector<int>& gold) const {
  const BinaryAction prediction = positives_of(predicted);
  const BinaryAction label = positives_of(gold);
  if (metric_ == "f1") return f1_score(prediction, label);
  MetricSettings settings;
  settings.metric = BinaryMetric::precision_at_k;
  settings.k_fraction = k_fraction_;
  return precision_at_k(prediction, label, precision_k(settings, gold));
}

MetricSettings settings_for(const std::string& metric, double k_fraction) {
  MetricSettings settings;
  settings.metric = parse_binary_metric(metric);
  settings.k_fraction = k_fraction;
  // P@k: the adversary is unrestricted, as in the reference code. (The NIPS text restricts it to
  // exactly k positives; then no adversary strategy matches the gold moments, whose labelling
  // has about 2k positives, and the dual objective runs off to about -||moment gap||^2 / 2 lambda:
  // measured -5e7 on OPTDIGITS with lambda = 0.5, test P@k 0.80.)
  settings.restriction = AdversaryRestriction::unrestricted;
  return settings;
}

// Decision rules of the structured SVM kinds (thesis §5.3): "ssvm" predicts sign(w . x_i)
// (value > 0); in a P@k table its score is the precision of its k highest values that are also
// positive, so fewer than k predicted positives count as misses (hits / k). "ssvm_top_k" (SSVM')
// predicts the k highest values. `k` is the evaluated part's precision_k (unused for F1).
std::vector<int> ssvm_predictions(const std::string& kind, const std::string& metric,
                                  const Eigen::VectorXd& values, std::size_t k) {
  if (kind == "ssvm_top_k") return predict_top_k(values, k);
  if (metric == "f1") return predict_threshold(values);
  std::vector<int> predicted = predict_top_k(values, k);
  const std::vector<int> positive = predict_threshold(values);
  for (std::size_t i = 0; i < predicted.size(); ++i) predicted[i] &= positive[i];
  return predicted;
}

// An MPG validation or test game, with the method's caps (a capped game is reported, not
// hidden): by double oracle, or for "game_solver": "marginals" over marginals (F1 only) to gap
// 1e-9 or max_game_rounds rounds.
BinaryPrediction predict_cell_game(const BinaryModel& model, const BinaryProblem& problem, const json& method) {
  BinaryPredictOptions options;
  options.solver = parse_binary_game_solver(method.value("game_solver", std::string("double_oracle")));
  options.marginals.tolerance = 1e-9;
  options.marginals.max_seconds = method.value("max_seconds", 0.0);
  options.marginals.max_rounds = method.value("max_game_rounds", 10);
  options.double_oracle.max_seconds = method.value("max_seconds", 0.0);
  options.double_oracle.max_iterations = method.value("max_game_iterations", options.double_oracle.max_iterations);
  return predict_binary_mpg(model, problem, options);
}

json Experiment::run_validation_cell(const Cell& cell) const {
  const Dataset& data = *cell.task.dataset;
  const std::vector<int> train_labels = binary(data.train_labels, cell.task.positive_label);
  const std::vector<int> validation_labels = binary(data.validation_labels, cell.task.positive_label);
  const std::string kind = cell.method_spec["kind"].get<std::string>();
  json result;
  const auto start = clock_type::now();
  if (kind == "mpg") {
    BinaryProblem problem{"train part", data.train, train_labels};
    // The metric's dual trainer where it has one (P@k over the closed-form game), else cutting planes.
    BinaryTrainingOptions options;
    options.lambda = cell.parameter;
    options.tolerance = cell.method_spec.value("tolerance", 1e-6);
    options.max_seconds = cell.method_spec.value("max_seconds", 0.0);
    options.cutting_plane.max_game_solves = cell.method_spec.value("max_game_solves", 0L);
    BinaryTrainingSummary summary;
    const BinaryModel model = train_binary_mpg_model(problem, settings_for(metric_, k_fraction_), options, &summary);
    result["training"] = summary.to_json();
    result["train_seconds"] = seconds_since(start);
    result["weights"] = std::vector<double>(model.theta.data(), model.theta.data() + model.theta.size());
    const auto t = clock_type::now();
    BinaryProblem validation{"validation part", data.validation, validation_labels};
    const BinaryPrediction prediction = predict_cell_game(model, validation, cell.method_spec);
    result["validation_seconds"] = seconds_since(t);
    result["validation_score"] = prediction.score;
    result["validation_game"] = {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()}};
  } else if (kind == "logistic_regression") {
    LogisticRegressionOptions options;
    options.lambda = cell.parameter;
    const LogisticRegressionModel model = train_logistic_regression(data.train, train_labels, options);
    result["train_seconds"] = seconds_since(start);
    result["weights"] = std::vector<double>(model.weights.data(), model.weights.data() + model.weights.size());
    const auto t = clock_type::now();
    const Eigen::VectorXd values = decision_values(model, data.validation);
    std::vector<int> predicted;
    if (metric_ == "f1") {
      predicted = predict_threshold(values);
    } else {
      predicted = predict_top_k(values, precision_k(settings_for(metric_, k_fraction_), validation_labels));
    }
    result["validation_seconds"] = seconds_since(t);
    result["validation_score"] = score(predicted, validation_labels);
  } else if (kind == "ssvm" || kind == "ssvm_top_k") {
    // SVM^perf (Joachims 2005): Delta = 1 - F1 in an F1 table; in a P@k table Delta = 1 - P@k
    // over labellings with exactly k positives, k from the training part's gold labels.
    if (kind == "ssvm_top_k" && metric_ == "f1")
      throw Error("method kind 'ssvm_top_k' needs a precision_at_k spec");
    const MetricSettings settings = settings_for(metric_, k_fraction_);
    StructuredSvmOptions options;
    options.C = cell.parameter;
    options.loss = metric_ == "f1" ? "f1" : "precision_at_k";
    if (metric_ != "f1") options.k = precision_k(settings, train_labels);
    options.epsilon = cell.method_spec.value("tolerance", 1e-3);
    StructuredSvmSummary summary;
    const StructuredSvmModel model = train_structured_svm(data.train, train_labels, options, &summary);
    result["train_seconds"] = seconds_since(start);
    result["training"] = summary.to_json();
    result["weights"] = std::vector<double>(model.weights.data(), model.weights.data() + model.weights.size());
    const auto t = clock_type::now();
    const Eigen::VectorXd values = decision_values(model, data.validation);
    const std::size_t k = metric_ == "f1" ? 0 : precision_k(settings, validation_labels);
    result["validation_seconds"] = seconds_since(t);
    result["validation_score"] = score(ssvm_predictions(kind, metric_, values, k), validation_labels);
  } else {
    result["not_implemented"] = true;
  }
  return result;
}

json Experiment::run_test_cell(const Cell& cell, const json& validation) const {
  const Dataset& data = *cell.task.dataset;
  const std::vector<int> test_labels = binary(data.test_file.labels, cell.task.positive_label);
  const auto weights = validation["weights"].get<std::vector<double>>();
  const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(weights.data(), static_cast<Eigen::Index>(weights.size()));
  const std::string kind = cell.method_spec["kind"].get<std::string>();
  json result;
  const auto start = clock_type::now();
  if (kind == "mpg") {
    const BinaryModel model = BinaryModel::trained(settings_for(metric_, k_fraction_), cell.parameter, w);
    BinaryProblem test{"test file", data.test_file.features, test_labels};
    const BinaryPrediction prediction = predict_cell_game(model, test, cell.method_spec);
    result["test_score"] = prediction.score;
    result["test_expected_score"] = prediction.expected_score;
    result["test_game"] = {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()},
                           {"iterations", prediction.game.iterations()}};
  } else if (kind == "ssvm" || kind == "ssvm_top_k") {
    StructuredSvmModel model;
    model.weights = w;
    model.C = cell.parameter;
    const Eigen::VectorXd values = decision_values(model, data.test_file.features);
    const std::size_t k = metric_ == "f1" ? 0 : precision_k(settings_for(metric_, k_fraction_), test_labels);
    result["test_score"] = score(ssvm_predictions(kind, metric_, values, k), test_labels);
  } else {
    LogisticRegressionModel model;
    model.weights = w;
    model.lambda = cell.parameter;
    const Eigen::VectorXd values = decision_values(model, data.test_file.features);
    const std::vector<int> predicted =
        metric_ == "f1" ? predict_threshold(values)
                        : predict_top_k(values, precision_k(settings_for(metric_, k_fraction_), test_labels));
    result["test_score"] = score(predicted, test_labels);
  }
  result["test_seconds"] = seconds_since(start);
  return result;
}

json Experiment::cell_key(const Cell& cell, const std::string& phase) const {
  const Dataset& d = *cell.task.dataset;
  json method = cell.method_spec;
  method.erase("lambda");
  method.erase("C");
  return {{"phase", phase},
          {"revision", kind_revisions_.at(cell.method_spec["kind"].get<std::string>())},
          {"metric", metric_},
          {"k_fraction", k_fraction_},
          {"protocol", spec_["protocol"]},
          {"data", {d.registry, d.variant, d.train_file.sha256, d.test_file.sha256}},
          {"positive_label", cell.task.positive_label},
          {"method", method},
          {cell.parameter_name, cell.parameter}};
}

RunSummary Experiment::run() {
  const auto start = clock_type::now();
  load_data();
  std::vector<Cell> cells;
  for (const auto& dataset : datasets_)
    for (double positive : dataset->positive_labels)
      for (const auto& [method, m] : spec_["methods"].items()) {
        const std::string parameter = m.contains("lambda") ? "lambda" : "C";
        int index = 0;
        for (const auto& value : m[parameter])
          cells.push_back({Task{dataset.get(), positive}, method, m, parameter, value.get<double>(), index++});
      }
  RunSummary summary;
  summary.name = name_;
  summary.cells = static_cast<int>(cells.size());
  std::vector<json> validation(cells.size());
  std::atomic<int> from_cache{0};
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, cell_threads(options_));
  CellProgress progress(name_, options_.progress, options_.heartbeat_seconds);
  auto describe = [](const Cell& c) {
    return fmt::format("{:<22} {:<6} {}={}", c.task.name(), c.method, c.parameter_name, c.parameter);
  };
  progress.start_phase(static_cast<int>(cells.size()));
  tbb::parallel_for(std::size_t{0}, cells.size(), [&](std::size_t i) {
    const Cell& cell = cells[i];
    const long token = progress.begin(describe(cell));
    auto [result, was_cached] = cache_.get_or_compute(cell_key(cell, "validation"), [&] { return run_validation_cell(cell); });
    from_cache += was_cached;
    std::string what = describe(cell);
    if (result.contains("validation_score"))
      what += fmt::format("  validation {} {:.4f}  ({:.1f} s)", metric_, result["validation_score"].get<double>(),
                          result.value("train_seconds", 0.0) + result.value("validation_seconds", 0.0));
    else
      what += "  not implemented";
    progress.finish(token, what, was_cached);
    validation[i] = std::move(result);
  });

  // Selection: best validation score per (task, method), first in grid order among ties.
  std::map<std::string, std::size_t> selected;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!validation[i].contains("validation_score")) continue;
    const std::string key = cells[i].task.name() + "\n" + cells[i].method;
    const auto found = selected.find(key);
    if (found == selected.end() ||
        validation[i]["validation_score"].get<double>() > validation[found->second]["validation_score"].get<double>())
      selected[key] = i;
  }
  std::vector<std::size_t> chosen;
  for (const auto& [key, i] : selected) chosen.push_back(i);
  std::map<std::string, json> tests;
  std::mutex tests_mutex;
  progress.start_phase(static_cast<int>(chosen.size()));
  tbb::parallel_for(std::size_t{0}, chosen.size(), [&](std::size_t j) {
    const Cell& cell = cells[chosen[j]];
    const long token = progress.begin(describe(cell) + "  test");
    auto [result, was_cached] = cache_.get_or_compute(cell_key(cell, "test"), [&] { return run_test_cell(cell, validation[chosen[j]]); });
    from_cache += was_cached;
    progress.finish(token, describe(cell) + fmt::format("  test {} {:.4f}", metric_, result["test_score"].get<double>()),
                    was_cached);
    const std::lock_guard<std::mutex> lock(tests_mutex);
    tests[cell.task.name() + "\n" + cell.method] = {{"cell", chosen[j]}, {"result", result}};
  });
  summary.cached_cells = from_cache;
  write_tables(summary, cells, validation, tests, seconds_since(start));
  return summary;
}

std::string format_number(double x, int digits = 3) { return fmt::format("{:.{}f}", x, digits); }

void Experiment::write_tables(RunSummary& summary, const std::vector<Cell>& cells,
                              const std::vector<json>& validation, const std::map<std::string, json>& tests,
                              double seconds) const {
  const json published = spec_.value("published", json::object());
  const json published_seconds = spec_.value("published_seconds", json::object());
  json rows = json::array();
  json task_rows = json::array();
  std::vector<std::string> notes;
  for (const auto& dataset : datasets_) {
    for (const auto& [method, m] : spec_["methods"].items()) {
      double total = 0.0;
      int tasks = 0;
      double cell_seconds = 0.0;
      bool implemented = true;
      std::vector<double> parameters;
      // What the run itself recorded that can explain a miss: caps hit, and a data substitute.
      int grid_cells = 0;
      int capped_trainings = 0;
      int capped_validation_games = 0;
      int capped_test_games = 0;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].task.dataset != dataset.get() || cells[i].method != method) continue;
        ++grid_cells;
        if (validation[i].value("not_implemented", false)) implemented = false;
        cell_seconds += validation[i].value("train_seconds", 0.0) + validation[i].value("validation_seconds", 0.0);
        // Caps hit by this grid point: its training, and the validation game whose most probable
        // action gave the score that selects the grid value.
        std::vector<std::string> capped;
        if (validation[i].contains("training") && !validation[i]["training"].value("converged", true)) {
          capped.push_back("training " + validation[i]["training"]["status"].get<std::string>());
          ++capped_trainings;
        }
        if (validation[i].contains("validation_game") && !validation[i]["validation_game"].value("converged", true)) {
          capped.push_back(fmt::format("the validation game did not converge (gap {:.2e})",
                                       validation[i]["validation_game"]["gap"].get<double>()));
          ++capped_validation_games;
        }
        if (!capped.empty())
          notes.push_back(fmt::format("{} {} {}={}: {}", cells[i].task.name(), method, cells[i].parameter_name,
                                      cells[i].parameter, fmt::join(capped, "; ")));
      }
      for (double positive : dataset->positive_labels) {
        const Task task{dataset.get(), positive};
        const auto found = tests.find(task.name() + "\n" + method);
        if (found == tests.end()) continue;
        const Cell& cell = cells[found->second["cell"].get<std::size_t>()];
        const json& result = found->second["result"];
        total += result["test_score"].get<double>();
        cell_seconds += result.value("test_seconds", 0.0);
        ++tasks;
        parameters.push_back(cell.parameter);
        task_rows.push_back({{"task", task.name()}, {"method", method}, {cell.parameter_name, cell.parameter},
                             {"validation", validation[found->second["cell"].get<std::size_t>()]["validation_score"]},
                             {"test", result["test_score"]}});
        if (result.contains("test_game") && !result["test_game"].value("converged", true)) {
          notes.push_back(fmt::format("{} {}: the test game did not converge (gap {:.2e})", task.name(), method,
                                      result["test_game"]["gap"].get<double>()));
          ++capped_test_games;
        }
      }
      std::vector<std::string> causes;
      if (capped_trainings > 0) causes.push_back(fmt::format("{} of {} trainings capped", capped_trainings, grid_cells));
      if (capped_validation_games > 0)
        causes.push_back(fmt::format("{} of {} validation games capped", capped_validation_games, grid_cells));
      if (capped_test_games > 0) causes.push_back(fmt::format("{} of {} test games capped", capped_test_games, tasks));
      const std::string fidelity =
          dataset_registry()[dataset->registry]["variants"][dataset->variant].value("matches", "");
      if (fidelity.rfind("exact", 0) != 0)
        causes.push_back(fmt::format("data: variant {} ({})", dataset->variant, fidelity));
      json row = {{"dataset", dataset->label}, {"method", method}, {"seconds", cell_seconds}, {"recorded_causes", causes}};
      if (implemented && tasks > 0) row["ours"] = total / tasks;
      if (published.contains(method) && published[method].contains(dataset->label)) {
        const double p = published[method][dataset->label].get<double>();
        row["published"] = p;
        ++summary.published_cells;
        if (row.contains("ours")) {
          const double delta = row["ours"].get<double>() - p;
          row["delta"] = delta;
          row["within_tolerance"] = std::abs(delta) <= tolerance_;
          if (std::abs(delta) <= tolerance_) {
            ++summary.within_tolerance;
          } else {
            const std::string why = causes.empty() ? "no cap or data substitute recorded (see the table's notes)"
                                                   : fmt::format("{}", fmt::join(causes, "; "));
            summary.outside.push_back(fmt::format("{} {} {}: ours {:.3f} vs published {:.3f} ({:+.3f}); {}", name_,
                                                  dataset->label, method, row["ours"].get<double>(), p, delta, why));
            notes.push_back(fmt::format("Outside tolerance: {} {} ({:+.3f}); recorded: {}", dataset->label, method,
                                        delta, why));
          }
        } else {
          summary.outside.push_back(fmt::format("{} {} {}: not implemented yet", name_, dataset->label, method));
        }
      }
      if (published_seconds.contains(method) && published_seconds[method].contains(dataset->label))
        row["published_seconds"] = published_seconds[method][dataset->label];
      row["parameters"] = parameters;
      rows.push_back(row);
    }
  }

  // Markdown.
  std::string md = fmt::format("# {}\n\n", spec_.value("title", name_));
  md += fmt::format("Generated by `mpg run experiments/{}.json{}` with the code of revision `{}`{}. Metric: {} on the test file "
                    "(macro average over one-vs-rest classes where a dataset has several). Tolerance ±{}.\n\n",
                    name_, overrides_text(options_), revision_, options_.quick ? " with --quick (reduced grid)" : "",
                    metric_, tolerance_);
  md += "| dataset | method | ours | published | delta | within tolerance | time (s) | published time (s) |\n";
  md += "|---|---|---|---|---|---|---|---|\n";
  std::string csv = "dataset,method,ours,published,delta,within_tolerance,seconds,published_seconds\n";
  auto cell_text = [](const json& row, const char* key, int digits, bool sign = false) -> std::string {
    if (!row.contains(key)) return "";
    return sign ? fmt::format("{:+.{}f}", row[key].get<double>(), digits) : format_number(row[key].get<double>(), digits);
  };
  for (const auto& row : rows) {
    const std::string ours = row.contains("ours") ? format_number(row["ours"].get<double>()) : "not implemented";
    const std::string within = row.contains("within_tolerance") ? (row["within_tolerance"].get<bool>() ? "yes" : "**no**") : "";
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", row["dataset"].get<std::string>(),
                      row["method"].get<std::string>(), ours, cell_text(row, "published", 3),
                      cell_text(row, "delta", 3, true), within, format_number(row["seconds"].get<double>(), 1),
                      cell_text(row, "published_seconds", 0));
    csv += fmt::format("{},{},{},{},{},{},{},{}\n", row["dataset"].get<std::string>(), row["method"].get<std::string>(),
                       cell_text(row, "ours", 6), cell_text(row, "published", 6), cell_text(row, "delta", 6),
                       row.contains("within_tolerance") ? (row["within_tolerance"].get<bool>() ? "true" : "false") : "",
                       format_number(row["seconds"].get<double>(), 3), cell_text(row, "published_seconds", 0));
  }
  md += "\nTimes: our training of every grid point, validation and test (one core per cell, "
        "2-core machine); published: the thesis' validation and test times.\n\n## Data\n\n";
  for (const auto& dataset : datasets_) {
    const json& variant = dataset_registry()[dataset->registry]["variants"][dataset->variant];
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}): train `{}` sha256 `{}`, test `{}` sha256 `{}`; "
                      "split {} train / {} validation (seed {}).\n",
                      dataset->label, dataset->registry, dataset->variant, variant.value("matches", ""),
                      dataset_registry()[dataset->registry]["variants"][dataset->variant]["train"]["file"].get<std::string>(),
                      dataset->train_file.sha256.substr(0, 16),
                      dataset_registry()[dataset->registry]["variants"][dataset->variant]["test"]["file"].get<std::string>(),
                      dataset->test_file.sha256.substr(0, 16), dataset->train.rows(), dataset->validation.rows(),
                      spec_["protocol"]["split_seed"].get<std::uint64_t>());
  }
  md += "\n## Selected hyper-parameters per task\n\n| task | method | parameter | validation | test |\n|---|---|---|---|---|\n";
  for (const auto& t : task_rows) {
    const std::string parameter = t.contains("lambda") ? fmt::format("lambda = {}", t["lambda"].get<double>())
                                                       : fmt::format("C = {}", t["C"].get<double>());
    md += fmt::format("| {} | {} | {} | {:.4f} | {:.4f} |\n", t["task"].get<std::string>(), t["method"].get<std::string>(),
                      parameter, t["validation"].get<double>(), t["test"].get<double>());
  }
  md += "\n## Notes\n\n";
  for (const auto& note : spec_.value("notes", json::array())) md += "- " + note.get<std::string>() + "\n";
  for (const auto& note : notes) md += "- " + note + "\n";
  for (const auto& [method, m] : spec_["methods"].items())
    if (m["kind"] == "ssvm" || m["kind"] == "ssvm_top_k")
      md += fmt::format("- {}: in-tree linear SVM^perf (Joachims 2005) with its C convention (Psi = 1/(2n) sum of "
                        "ybar_i x_i, slack weight 100 C), 1-slack cutting plane with exact working-set QPs to "
                        "epsilon = {} on the slack, Delta = 1 - {}; {}.\n",
                        method, m.value("tolerance", 1e-3), metric_ == "f1" ? "F1" : "P@k (k from the training part)",
                        m["kind"] == "ssvm_top_k" ? "predicts the top k by w . x"
                        : metric_ == "f1"         ? "predicts sign(w . x)"
                                                  : "predicts sign(w . x); P@k counts hits among its k highest "
                                                    "values that are > 0, over k");

  json out = {{"name", name_}, {"title", spec_.value("title", name_)}, {"revision", revision_},
              {"method_revisions", method_revisions_}, {"quick", options_.quick}, {"overrides", options_.overrides}, {"metric", metric_},
              {"tolerance", tolerance_}, {"seconds", seconds}, {"rows", rows}, {"tasks", task_rows}, {"notes", notes}};
  summary.result_files = write_result_files(results_dir_, name_, options_.quick, md, csv, out);
}

}  // namespace

RunSummary run_binary_experiment(json spec, const std::string& path, const RunOptions& options) {
  Experiment experiment(std::move(spec), path, options);
  return experiment.run();
}

RunSummary run_experiment(const std::string& spec_path, const RunOptions& options) {
  json spec = load_spec(spec_path, options.quick, options.overrides);
  const std::string task = spec.value("task", "binary");
  if (task == "sequence_labeling") return run_sequence_labeling_experiment(std::move(spec), spec_path, options);
  if (task == "ranking") return run_ranking_experiment(std::move(spec), spec_path, options);
  return run_binary_experiment(std::move(spec), spec_path, options);
}

}  // namespace mpg::harness
