// Family "binary" (thesis §5.1, Tables VIII and XI; NIPS 2015 Table 3): binary classification
// scored by F1 or precision@k, each data file one multivariate game. Protocol (thesis §5.1 and the
// authors' evaluation code): a seeded random `validation_fraction` of the training file is held
// out; every grid value is trained on the rest and scored on the held-out part (for MPG one game
// over the whole part); the value with the best validation score (first in grid order among ties)
// is scored on the test file (one game over the whole file) with the same model, not retrained.
// A data set is one task, or one task per class with `one_vs_rest` (the table macro-averages).
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
#include "lib/harness/families/binary_mpg_parameters.hpp"
#include "lib/harness/cache.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/harness/unit_samples.hpp"
#include "lib/models/binary/binary_mpg.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"
#include "lib/harness/families/binary.hpp"

namespace mpg::harness::binary_impl {

const MethodKind& mpg_kind() {
  static const MethodKind kind{
      "mpg",
      "MPG with the table's metric as the game (thesis Eq. 3.9): the training part is one game over its examples, "
      "Φ(x, y) = Σᵢ yᵢ xᵢ with a bias feature 1. Trained to a certified objective gap by cutting planes over the "
      "double oracle (P@k with its closed-form game: by the dual trainer; F1 optionally by the proximal bundle over "
      "games solved over marginals, the trainer parameter). Prediction: F1 by the maximin action of the validation "
      "or test game (lib/metrics/f1_decision.hpp: the best guaranteed action, stated on ψ alone, which no solver "
      "changes; the likeliest action of the solver's equilibrium is reported beside it), P@k by the top k by ψ.",
      binary_mpg_parameters()};
  return kind;
}

const MethodKind& logistic_regression_kind() {
  static const MethodKind kind{"logistic_regression",
                               "L2-regularized logistic regression (L-BFGS); F1 tables predict sign(w·x), P@k tables "
                               "the k highest w·x.",
                               ParameterTable({binary_mpg_parameters().at("lambda")})};
  return kind;
}

ParameterTable ssvm_parameters() {
  return ParameterTable({
      grid_parameter("C", 0.0, 1e9,
                     "grid of SVM^perf's C (svm_perf_learn -c C; baselines/structured_svm.hpp): one cell per value"),
      number_parameter("epsilon", 1e-3, 0.0, 1.0,
                       "stop when the most violated constraint is within this fraction of the loss of the slack "
                       "(1e-3 = SVM^perf's -e 0.1)",
                       true),
  });
}

const MethodKind& ssvm_kind() {
  static const MethodKind kind{"ssvm",
                               "Joachims' SVM^perf with Δ = 1 − the table's metric (1-slack cutting plane, exact "
                               "working-set QPs); predicts sign(w·x); in a P@k table its score counts hits among its "
                               "k highest values that are > 0, over k.",
                               ssvm_parameters()};
  return kind;
}

const MethodKind& ssvm_top_k_kind() {
  static const MethodKind kind{"ssvm_top_k",
                               "SSVM′ (P@k tables only): the SVM^perf P@k model, predicting its k highest w·x.",
                               ssvm_parameters()};
  return kind;
}

DataFile load_data_file(const RegistryChoice& choice, const std::string& part) {
  DataFile data;
  data.file = choice.read(part);
  data.file.content.clear();  // parsed from the file below; the hash is what was needed
  LibsvmReadOptions options;
  options.bias = 1.0;
  const std::string format = choice.entry().at("format").get<std::string>();
  LibsvmData raw;
  if (format == "libsvm") {
    options.min_features = choice.entry().value("features", 0L);
    raw = read_libsvm(data.file.path, options);
  } else {
    raw = read_optdigits(data.file.path, options);
  }
  data.features = std::move(raw.features);
  data.labels = std::move(raw.labels);
  return data;
}

SparseRowMatrix select_rows(const SparseRowMatrix& x, const std::vector<std::size_t>& rows) {
  SparseRowMatrix out(static_cast<Eigen::Index>(rows.size()), x.cols());
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (SparseRowMatrix::InnerIterator it(x, static_cast<Eigen::Index>(rows[r])); it; ++it)
      entries.emplace_back(static_cast<Eigen::Index>(r), it.col(), it.value());
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

// `f` with `columns` feature columns, its bias column moved to the last one.
void widen(SparseRowMatrix& f, Eigen::Index columns) {
  if (f.cols() == columns) return;
  SparseRowMatrix widened(f.rows(), columns);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index r = 0; r < f.rows(); ++r)
    for (SparseRowMatrix::InnerIterator it(f, r); it; ++it)
      entries.emplace_back(r, it.col() == f.cols() - 1 ? columns - 1 : it.col(), it.value());
  widened.setFromTriplets(entries.begin(), entries.end());
  f = std::move(widened);
}

std::vector<int> binary(const std::vector<double>& labels, double positive) {
  std::vector<int> out(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) out[i] = labels[i] == positive ? 1 : 0;
  return out;
}

// 0/1 labels of n examples from an action's positive indices.
std::vector<int> labels_of(const BinaryAction& action, std::size_t n) {
  std::vector<int> labels(n, 0);
  for (auto i : action) labels[i] = 1;
  return labels;
}

double TaskData::score(const std::vector<int>& predicted, const std::vector<int>& gold) const {
  return binary_metric_score(metric, predicted, gold);
}

Eigen::VectorXd weights_of(const json& result) {
  const auto w = result.at("weights").get<std::vector<double>>();
  return Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
}

// An MPG validation or test game, with the method's caps (a capped game is reported, not hidden).
BinaryPrediction predict_game(const BinaryModel& model, const BinaryProblem& problem, const ParameterValues& p) {
  BinaryPredictOptions options;
  options.solver = parse_binary_game_solver(p.choice("game_solver"));
  options.marginals.tolerance = options.double_oracle.tolerance = p.number("game_tolerance");
  options.marginals.max_seconds = options.double_oracle.max_seconds = p.number("max_game_seconds");
  options.marginals.max_rounds = static_cast<int>(p.integer("max_game_rounds"));
  options.double_oracle.max_iterations = static_cast<int>(p.integer("max_game_iterations"));
  return predict_binary_mpg(model, problem, options);
}

// Training picks the metric's own trainer (the dual over P@k's closed-form game, else cutting
// planes) unless the method names one.
json mpg_validate(const TaskData& t, const ParameterValues& p) {
  json result;
  const auto start = clock_type::now();
  BinaryTrainingOptions options;
  options.lambda = p.number("lambda");
  options.tolerance = p.number("objective_tolerance");
  options.max_seconds = p.number("max_seconds");
  options.max_game_solves = p.integer("max_game_solves");
  options.trainer = trainer_for_protocol(parse_training_protocol(p.choice("protocol"), "protocol"),
                                        parse_binary_trainer(p.choice("trainer")), "trainer");
  BinaryTrainingSummary summary;
  const BinaryModel model =
      train_binary_mpg_model({"train part", t.data.train, t.train_labels}, t.metric, options, &summary);
  result["training"] = summary.to_json();
  result["train_seconds"] = seconds_since(start);
  result["weights"] = to_std_vector(model.theta);
  const auto t0 = clock_type::now();
  const BinaryProblem validation{"validation part", t.data.validation, t.validation_labels};
  if (is_authors_trainer(options.trainer)) {
    // The authors' protocol: one game stopped by the reference's rule, its likeliest action.
    const BinaryPrediction prediction = predict_binary_mpg_authors(model, validation);
    result["validation_score"] = prediction.score;
    result["validation_game"] = {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()}};
  } else if (t.plugin().maximin_decision && !p.flag("solve_validation_game")) {
    // The maximin action is stated on psi alone (F1: lib/metrics/f1_decision.hpp): no game to solve.
    const Eigen::VectorXd psi = validation.potentials(model.aligned_theta(validation.features.cols() - 1));
    const MaximinDecision maximin = t.plugin().maximin_decision(to_std_vector(psi));
    result["validation_score"] = t.score(labels_of(maximin.action, t.validation_labels.size()), t.validation_labels);
  } else {
    const BinaryPrediction prediction = predict_game(model, validation, p);
    result["validation_score"] = prediction.score;
    result["validation_game"] = {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()}};
  }
  result["validation_seconds"] = seconds_since(t0);
  return result;
}

json mpg_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels) {
  const BinaryModel model = BinaryModel::trained(t.metric, p.number("lambda"), weights_of(validation));
  const BinaryProblem test{"test file", t.data.test_file.features, labels};
  if (is_authors_trainer(trainer_for_protocol(parse_training_protocol(p.choice("protocol"), "protocol"),
                                              parse_binary_trainer(p.choice("trainer")), "trainer"))) {
    const BinaryPrediction prediction = predict_binary_mpg_authors(model, test);
    return {{"test_score", prediction.score},
            {"test_predicted", labelling_text(labels_of(prediction.action, labels.size()))},
            {"test_decision", to_string(prediction.decision)},
            {"test_expected_score", prediction.expected_score},
            {"test_game",
             {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()},
              {"iterations", prediction.game.iterations()}}}};
  }
  const BinaryPrediction prediction = predict_game(model, test, p);
  return {{"test_score", prediction.score},
          {"test_predicted", labelling_text(labels_of(prediction.action, labels.size()))},
          {"test_decision", to_string(prediction.decision)},
          {"test_likeliest_score", prediction.likeliest_score},
          {"test_expected_score", prediction.expected_score},
          {"test_game",
           {{"converged", prediction.game.converged()}, {"gap", prediction.game.gap()},
            {"iterations", prediction.game.iterations()}}}};
}

// LR predicts sign(w.x) in an F1 table and the k highest w.x in a P@k table (the metric's
// baseline decision).
std::vector<int> logistic_predictions(const TaskData& t, const Eigen::VectorXd& values, const std::vector<int>& gold) {
  if (t.plugin().baseline_decision == BaselineDecision::threshold) return predict_threshold(values);
  return predict_top_k(values, precision_k(t.metric, gold));
}

json logistic_validate(const TaskData& t, const ParameterValues& p) {
  json result;
  const auto start = clock_type::now();
  LogisticRegressionOptions options;
  options.lambda = p.number("lambda");
  const LogisticRegressionModel model = train_logistic_regression(t.data.train, t.train_labels, options);
  result["train_seconds"] = seconds_since(start);
  result["weights"] = to_std_vector(model.weights);
  const auto t0 = clock_type::now();
  const Eigen::VectorXd values = decision_values(model, t.data.validation);
  const std::vector<int> predicted = logistic_predictions(t, values, t.validation_labels);
  result["validation_seconds"] = seconds_since(t0);
  result["validation_score"] = t.score(predicted, t.validation_labels);
  return result;
}

json logistic_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels) {
  LogisticRegressionModel model;
  model.weights = weights_of(validation);
  model.lambda = p.number("lambda");
  const Eigen::VectorXd values = decision_values(model, t.data.test_file.features);
  const std::vector<int> predicted = logistic_predictions(t, values, labels);
  return {{"test_score", t.score(predicted, labels)}, {"test_predicted", labelling_text(predicted)}};
}

// Decision rules of the structured SVM kinds (thesis §5.3): "ssvm" predicts sign(w . x_i); in a
// P@k table its score is the precision of its k highest values that are also positive, so fewer
// than k predicted positives count as misses (hits / k). "ssvm_top_k" (SSVM') predicts the k
// highest values. `gold` gives the evaluated part's k.
std::vector<int> ssvm_predictions(const TaskData& t, bool top_k, const Eigen::VectorXd& values,
                                  const std::vector<int>& gold) {
  if (t.plugin().baseline_decision == BaselineDecision::threshold) return predict_threshold(values);
  const std::size_t k = precision_k(t.metric, gold);
  if (top_k) return predict_top_k(values, k);
  std::vector<int> predicted = predict_top_k(values, k);
  const std::vector<int> positive = predict_threshold(values);
  for (std::size_t i = 0; i < predicted.size(); ++i) predicted[i] &= positive[i];
  return predicted;
}

// SVM^perf (Joachims 2005): Delta = 1 - F1 in an F1 table; in a P@k table Delta = 1 - P@k over
// labellings with exactly k positives, k from the training part's gold labels.
json ssvm_validate(const TaskData& t, const ParameterValues& p, bool top_k) {
  json result;
  const auto start = clock_type::now();
  StructuredSvmOptions options;
  options.C = p.number("C");
  options.loss = t.plugin().ssvm_loss;
  if (t.plugin().has_k) options.k = precision_k(t.metric, t.train_labels);
  options.epsilon = p.number("epsilon");
  StructuredSvmSummary summary;
  const StructuredSvmModel model = train_structured_svm(t.data.train, t.train_labels, options, &summary);
  result["train_seconds"] = seconds_since(start);
  result["training"] = summary.to_json();
  result["weights"] = to_std_vector(model.weights);
  const auto t0 = clock_type::now();
  const Eigen::VectorXd values = decision_values(model, t.data.validation);
  result["validation_seconds"] = seconds_since(t0);
  result["validation_score"] = t.score(ssvm_predictions(t, top_k, values, t.validation_labels), t.validation_labels);
  return result;
}

json ssvm_test(const TaskData& t, const ParameterValues& p, const json& validation, const std::vector<int>& labels,
               bool top_k) {
  StructuredSvmModel model;
  model.weights = weights_of(validation);
  model.C = p.number("C");
  const Eigen::VectorXd values = decision_values(model, t.data.test_file.features);
  const std::vector<int> predicted = ssvm_predictions(t, top_k, values, labels);
  json result = {{"test_score", t.score(predicted, labels)}, {"test_predicted", labelling_text(predicted)}};
  // P@k of "ssvm" counts hits among its k highest values over k, predicted or not: its k slots.
  if (t.plugin().has_k && !top_k)
    result["test_slots"] = labelling_text(predict_top_k(values, precision_k(t.metric, labels)));
  return result;
}

const std::vector<BinaryMethod>& binary_methods() {
  static const std::vector<BinaryMethod> methods = {
      {mpg_kind(), mpg_validate, mpg_test},
      {logistic_regression_kind(), logistic_validate, logistic_test},
      {ssvm_kind(), [](const TaskData& t, const ParameterValues& p) { return ssvm_validate(t, p, false); },
       [](const TaskData& t, const ParameterValues& p, const json& v, const std::vector<int>& labels) {
         return ssvm_test(t, p, v, labels, false);
       }},
      {ssvm_top_k_kind(), [](const TaskData& t, const ParameterValues& p) { return ssvm_validate(t, p, true); },
       [](const TaskData& t, const ParameterValues& p, const json& v, const std::vector<int>& labels) {
         return ssvm_test(t, p, v, labels, true);
       }},
  };
  return methods;
}

const BinaryMethod& binary_method(const std::string& kind) {
  for (const auto& m : binary_methods())
    if (m.kind.kind == kind) return m;
  throw Error("binary family: no method kind '" + kind + "'");
}

BinaryRun::BinaryRun(json spec) : spec_(std::move(spec)) {
  metric_name_ = spec_["metric"].get<std::string>();
  metric_.metric = parse_binary_metric(metric_name_);
  metric_.k_fraction = spec_.value("k_fraction", 0.5);
  // P@k: the adversary is unrestricted, as in the reference code. (The NIPS text restricts it to
  // exactly k positives; then no adversary strategy matches the gold moments, whose labelling has
  // about 2k positives, and the dual objective runs off to about -||moment gap||^2 / 2 lambda:
  // measured -5e7 on OPTDIGITS with lambda = 0.5, test P@k 0.80.)
  metric_.restriction = AdversaryRestriction::unrestricted;
  tolerance_ = tolerance_of(spec_, 0.01);
  const double fraction = spec_["protocol"]["validation_fraction"].get<double>();
  const auto seed = spec_["protocol"]["split_seed"].get<std::uint64_t>();
  for (const auto& [label, d] : spec_["datasets"].items()) {
    auto data = std::make_unique<Dataset>();
    data->label = label;
    data->choice = registry_choice(d);
    data->train_file = load_data_file(data->choice, "train");
    data->test_file = load_data_file(data->choice, "test");
    // Both files get the same feature columns (bias last).
    const Eigen::Index columns = std::max(data->train_file.features.cols(), data->test_file.features.cols());
    widen(data->train_file.features, columns);
    widen(data->test_file.features, columns);
    const auto [train_rows, validation_rows] = split_indices(data->train_file.labels.size(), fraction, seed);
    data->train = select_rows(data->train_file.features, train_rows);
    data->validation = select_rows(data->train_file.features, validation_rows);
    for (auto r : train_rows) data->train_labels.push_back(data->train_file.labels[r]);
    for (auto r : validation_rows) data->validation_labels.push_back(data->train_file.labels[r]);
    data->one_vs_rest = d.value("one_vs_rest", false);
    if (d.contains("method_settings")) data->method_settings = d["method_settings"];
    if (!data->one_vs_rest) {
      data->positive_labels = {d["positive_label"].get<double>()};
    } else if (d.contains("classes")) {
      data->positive_labels = d["classes"].get<std::vector<double>>();
    } else {
      const std::set<double> classes(data->train_file.labels.begin(), data->train_file.labels.end());
      data->positive_labels.assign(classes.begin(), classes.end());
    }
    datasets_.push_back(std::move(data));
  }
  for (const auto& data : datasets_)
    for (double positive : data->positive_labels)
      for (const auto& [method, entry] : spec_["methods"].items()) {
        const json m = data->method_entry(method, entry);
        const MethodKind& kind = binary_method(m["kind"].get<std::string>()).kind;
        const ParameterValues values(kind.parameters, m);
        const std::string grid = kind.parameters.grid()->name;
        for (const auto& value : m[grid]) {
          cells_.push_back({data.get(), positive, method, kind.kind});
          plans_.push_back({method,
                            fmt::format("{:<22} {:<6} {}={}", data->task_name(positive), method, grid,
                                        value.get<double>()),
                            {{"metric", metric_name_},
                             {"k_fraction", metric_.k_fraction},
                             {"protocol", spec_["protocol"]},
                             {"data",
                              {data->choice.dataset, data->choice.variant, data->train_file.file.sha256,
                               data->test_file.file.sha256}},
                             {"positive_label", positive}},
                            values.with(grid, value)});
        }
      }
}

json BinaryRun::validate(std::size_t cell) const {
  return binary_method(cells_[cell].kind).validate(task_data(cell), plans_[cell].parameters);
}

json BinaryRun::test(std::size_t cell, const json& validation) const {
  const Cell& c = cells_[cell];
  const auto start = clock_type::now();
  json result = binary_method(c.kind).test(task_data(cell), plans_[cell].parameters, validation,
                                           binary(c.dataset->test_file.labels, c.positive));
  result["test_seconds"] = seconds_since(start);
  return result;
}

// ---- The family --------------------------------------------------------------------------------

class BinaryFamily : public Family {
 public:
  std::string name() const override { return "binary"; }
  std::string summary() const override {
    return "Binary classification scored by F1 or precision@k, each data file one multivariate game (thesis Tables "
           "VIII and XI): a seeded random `validation_fraction` of the training file is held out, every grid value is "
           "trained on the rest and scored on it, and the best (first in grid order among ties) is scored on the test "
           "file, not retrained.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"metric", true, "`f1` or `precision_at_k`: the metric of validation, test and MPG's game"},
            {"k_fraction", false, "P@k: k = floor(k_fraction × positives of the evaluated file), in (0, 1], default 0.5"},
            {"datasets", true,
             "`{label: {registry, variant, positive_label or one_vs_rest, classes, method_settings}}`: a `libsvm` or "
             "`optdigits` data set of the registry, `variant` default the registry's; either `positive_label` (one task) or "
             "`\"one_vs_rest\": true` (one task per class, macro-averaged; `classes` restricts them); "
             "`method_settings` `{method: {parameter: value}}`: this data set's values of a method's parameters, merged "
             "over the method's own (e.g. another trainer where one does not scale)"},
            {"protocol", true,
             "`validation_fraction` in (0, 1): the held-out part of the training file; `split_seed`: seed of the split "
             "(64-bit Mersenne twister + Fisher–Yates, identical on every platform)"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"published", false, "`{method: {dataset: value}}`: the paper's numbers, compared with ours"},
            {"published_seconds", false, "`{method: {dataset: seconds}}`: the paper's run times, shown beside ours"},
            {"tolerance", false, "a cell is within tolerance when \\|ours − published\\| ≤ this (default 0.01)"}};
  }
  const std::vector<MethodKind>& methods() const override {
    static const std::vector<MethodKind> kinds = [] {
      std::vector<MethodKind> k;
      for (const auto& m : binary_methods()) k.push_back(m.kind);
      return k;
    }();
    return kinds;
  }
  void validate(const json& spec, const SpecValidator& v) const override;
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<BinaryRun>(spec); }
  std::vector<std::string> split_seeds(const json&) const override { return {"protocol.split_seed"}; }
};

// The checks of one method entry (`where`: its place in the spec) that its parameter table cannot
// state alone: what the table's metric allows (its capabilities; nullptr: an unknown metric).
void check_method_entry(const BinaryMetricPlugin* metric, const std::string& where, const json& m,
                        const SpecValidator& v) {
  if (!metric) return;
  const std::string kind = m["kind"].get<std::string>();
  if (kind == "ssvm_top_k" && !metric->has_k) v.fail(where + ".kind", "ssvm_top_k needs a precision_at_k table");
  if ((kind == "ssvm" || kind == "ssvm_top_k") && metric->ssvm_loss.empty())
    v.fail(where + ".kind", "the structured SVM has no loss for metric " + metric->name);
  if (m.value("game_solver", std::string()) == "marginals" && !metric->marginal_solver)
    v.fail(where + ".game_solver", "marginals solves the games of F1 tables only");
  const std::string trainer = m.value("trainer", std::string());
  if (trainer == "dual" && !metric->dual_trainer)
    v.fail(where + ".trainer", "dual trains the MPG of precision_at_k tables only");
  if ((trainer == "marginals" && !metric->marginal_solver) || (trainer == "joint" && !metric->joint_trainer))
    v.fail(where + ".trainer", trainer + " trains the MPG of F1 tables only");
  if (!m.value("solve_validation_game", true) && !metric->maximin_decision)
    v.fail(where + ".solve_validation_game", "only F1 tables score validation by the maximin action without a game");
  // An authors' protocol runs its own trainer (the same message as `mpg train`'s).
  try {
    trainer_for_protocol(parse_training_protocol(m.value("protocol", std::string("certified")), "protocol"),
                         parse_binary_trainer(m.value("trainer", std::string("auto"))), "trainer");
  } catch (const Error& e) {
    v.fail(where, e.what());
  }
  // The joint trainer plays no restricted games: a cap on their solves would be dropped unread.
  if (m.value("trainer", std::string()) == "joint" && m.value("max_game_solves", 0L) > 0)
    v.fail(where + ".max_game_solves",
           "caps trainings over games (marginals, cutting_plane); trainer joint counts rounds: use max_seconds");
}

void BinaryFamily::validate(const json& spec, const SpecValidator& v) const {
  const std::string metric = v.string(spec, "metric", "").get<std::string>();
  const BinaryMetricPlugin* plugin = find_binary_metric(metric);
  if (!plugin) v.fail("metric", "expected " + binary_metric_choices("\"") + ", got \"" + metric + "\"");
  if (spec.contains("k_fraction")) v.number(spec, "k_fraction", "", 0.0, 1.0, true);
  validate_tolerance(spec, v, 1.0);
  const json& datasets = spec["datasets"];
  if (!datasets.is_object() || datasets.empty()) v.fail("datasets", "expected a non-empty object");
  for (const auto& [label, d] : datasets.items()) {
    const std::string where = "datasets." + label;
    v.keys(d, where, {"registry", "variant", "positive_label", "one_vs_rest", "classes", "method_settings"}, {"registry"});
    v.registry_dataset(d, where, {"libsvm", "optdigits"});
    if (d.contains("one_vs_rest") && !d["one_vs_rest"].is_boolean()) v.fail(where + ".one_vs_rest", "expected true or false");
    const bool one_vs_rest = d.value("one_vs_rest", false);
    if (one_vs_rest == d.contains("positive_label")) v.fail(where, "give exactly one of positive_label or one_vs_rest: true");
    if (d.contains("positive_label") && !d["positive_label"].is_number())
      v.fail(where + ".positive_label", "expected a number");
    if (d.contains("classes")) {
      if (!one_vs_rest) v.fail(where + ".classes", "only with one_vs_rest: true");
      if (!d["classes"].is_array() || d["classes"].empty()) v.fail(where + ".classes", "expected a non-empty array of labels");
      for (const auto& c : d["classes"])
        if (!c.is_number()) v.fail(where + ".classes", "expected numbers, got " + c.dump());
    }
    if (d.contains("method_settings")) {
      const json& settings = d["method_settings"];
      if (!settings.is_object()) v.fail(where + ".method_settings", "expected an object {method: {parameter: value}}");
      for (const auto& [method, given] : settings.items()) {
        const std::string at = where + ".method_settings." + method;
        if (!spec["methods"].contains(method)) v.fail(at, "no method '" + method + "' in methods");
        if (!given.is_object()) v.fail(at, "expected an object {parameter: value}");
        if (given.contains("kind")) v.fail(at + ".kind", "a data set's settings cannot change a method's kind");
        json merged = spec["methods"][method];
        merged.merge_patch(given);
        // Checked as the method's own entry would be, with this data set's values in it.
        binary_method(merged["kind"].get<std::string>()).kind.parameters.validate(merged, at, v, {"kind"});
        check_method_entry(plugin, at, merged, v);
      }
    }
  }
  const json& protocol = spec["protocol"];
  v.keys(protocol, "protocol", {"validation_fraction", "split_seed"}, {"validation_fraction", "split_seed"});
  v.number(protocol, "validation_fraction", "protocol", 0.0, 1.0, true);
  if (protocol["validation_fraction"].get<double>() >= 1.0) v.fail("protocol.validation_fraction", "must be < 1");
  if (!protocol["split_seed"].is_number_unsigned()) v.fail("protocol.split_seed", "expected a non-negative integer");
  for (const auto& [label, m] : spec["methods"].items()) check_method_entry(plugin, "methods." + label, m, v);
  for (const char* table : {"published", "published_seconds"}) {
    if (!spec.contains(table)) continue;
    v.number_table(spec[table], table, 2);
    for (const auto& [method, row] : spec[table].items()) {
      if (!spec["methods"].contains(method)) v.fail(std::string(table) + "." + method, "no method '" + method + "' in methods");
      for (const auto& [dataset, value] : row.items())
        if (!datasets.contains(dataset)) v.fail(std::string(table) + "." + method + "." + dataset, "no such dataset in datasets");
    }
  }
}

}  // namespace mpg::harness::binary_impl

namespace mpg::harness {
const Family& binary_family() {
  static const binary_impl::BinaryFamily family;
  return family;
}

}  // namespace mpg::harness
