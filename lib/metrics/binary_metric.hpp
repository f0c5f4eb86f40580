// The metrics of binary multivariate prediction games as plug-ins: a metric is one
// BinaryMetricPlugin (its name, its parameters, its game over a file's examples, the score of a
// labelling and its capabilities), registered by name. F1 (binary_metric_f1.cpp) and P@k
// (binary_metric_precision_at_k.cpp) are built in; register_binary_metric adds another (a test
// fixture does: tests/test_metric_plugin.cpp). This registry is the only place that dispatches on
// the metric: the models, trainers, CLI and the harness ask the plug-in's capabilities, or the
// game it returns (BinaryGame's exact-solve and over-marginals hooks).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/metrics/binary_game.hpp"
#include "lib/metrics/precision_at_k.hpp"

namespace mpg {

// A binary metric, by its registered name. BinaryMetric::f1 and ::precision_at_k name the
// built-in ones; parse_binary_metric gives any registered one (its name lives in the registry).
struct BinaryMetric {
  std::string_view name;
  static const BinaryMetric f1;
  static const BinaryMetric precision_at_k;
  friend bool operator==(const BinaryMetric&, const BinaryMetric&) = default;
};
inline constexpr BinaryMetric BinaryMetric::f1{"f1"};
inline constexpr BinaryMetric BinaryMetric::precision_at_k{"precision_at_k"};

// A registered name ("f1" | "precision_at_k" | ...); throws mpg::Error for another.
BinaryMetric parse_binary_metric(const std::string& name);
std::string to_string(BinaryMetric metric);

struct MetricSettings {
  BinaryMetric metric = BinaryMetric::f1;
  // Metrics with k (BinaryMetricPlugin::has_k): k = floor(k_fraction * positives of the file
  // being played), unless k is given; the adversary's restriction.
  double k_fraction = 0.5;
  std::optional<std::size_t> k;
  AdversaryRestriction restriction = AdversaryRestriction::unrestricted;
};

// A decision stated on the potentials alone, with the score it guarantees against every labelling
// (F1: the maximin action, lib/metrics/f1_decision.hpp).
struct MaximinDecision {
  BinaryAction action;
  double guarantee = 0.0;
};

// How the non-game baselines (logistic regression, SSVM) turn values w . x into a labelling for
// this metric: sign(w . x), or the k highest (metrics with k).
enum class BaselineDecision { threshold, top_k };

// One binary metric. make_game and score are required; every capability is optional.
struct BinaryMetricPlugin {
  std::string name;   // in model files, specs and --metric: "f1"
  std::string title;  // in reports: "F1"
  // Parameters: the metric has k (MetricSettings::k_fraction, k, restriction; their model-file
  // fields "k_fraction", "k", "adversary"), resolved on a file's labels by precision_k.
  bool has_k = false;
  // The game over a file's examples (labels 0/1 per example, for the parameters that depend on
  // them) with potentials psi_i.
  std::function<std::unique_ptr<BinaryGame>(const MetricSettings&, std::vector<double> potentials,
                                            const std::vector<int>& labels)>
      make_game;
  // The metric of a labelling against the gold labels (both 0/1 per example).
  std::function<double(const MetricSettings&, const std::vector<int>& predicted, const std::vector<int>& gold)> score;

  // Capabilities.
  // The maximin decision on psi alone (no game to solve), or empty.
  std::function<MaximinDecision(const std::vector<double>& psi)> maximin_decision;
  // Learning has an exact dual trainer (lib/models/binary/precision_at_k_trainer) because the
  // game has a closed-form equilibrium at every theta (P@k with the unrestricted adversary).
  std::function<bool(const MetricSettings&)> dual_trainer;
  // The game has a solver over marginals with exact bounds and the adversary's marginals
  // (BinaryGame::solve_over_marginals), so learning has the certified trainer over marginals.
  bool marginal_solver = false;
  // The joint trainer (lib/models/binary/joint_trainer) encodes this metric's game in its LP (F1).
  bool joint_trainer = false;
  BaselineDecision baseline_decision = BaselineDecision::threshold;
  // The structured SVM's loss for this metric (baselines/structured_svm), empty if it has none.
  std::string ssvm_loss;
};

// Adds a metric; throws mpg::Error if its name is taken or make_game or score is missing.
void register_binary_metric(BinaryMetricPlugin plugin);
// Removes a metric register_binary_metric added (a test's, when it is done with it); settings
// naming it must not be used afterwards. Throws mpg::Error for a built-in or unknown name.
void unregister_binary_metric(const std::string& name);
// The registered metric (throws mpg::Error for an unknown one), or nullptr for an unknown name.
const BinaryMetricPlugin& binary_metric_plugin(BinaryMetric metric);
const BinaryMetricPlugin* find_binary_metric(const std::string& name);
// The registered names, built-ins first.
std::vector<std::string> binary_metric_names();
// "\"f1\" or \"precision_at_k\"": the names for messages (quoted as given).
std::string binary_metric_choices(const std::string& quote = "");

// The built-in plug-ins (registered first).
BinaryMetricPlugin f1_metric_plugin();
BinaryMetricPlugin precision_at_k_metric_plugin();

// k of a metric with k over `labels`; throws mpg::Error if it is < 1 or > n.
std::size_t precision_k(const MetricSettings& settings, const std::vector<int>& labels);
// The metric's k on these labels (precision_k for a metric with k), 0 for one without. Throws
// mpg::Error where precision_k does: call it to validate the settings against a file.
std::size_t metric_k(const MetricSettings& settings, const std::vector<int>& labels);

// The plug-in's game and score (above) for these settings.
std::unique_ptr<BinaryGame> make_binary_game(const MetricSettings& settings, std::vector<double> potentials,
                                             const std::vector<int>& labels);
double binary_metric_score(const MetricSettings& settings, const std::vector<int>& predicted,
                           const std::vector<int>& gold);

// Capability queries (BinaryMetricPlugin). Trainers that need one check it;
// train_binary_mpg_model prefers the dual trainer when it is there.
bool has_dual_trainer(const MetricSettings& settings);
bool has_marginal_solver(const MetricSettings& settings);
bool has_joint_trainer(const MetricSettings& settings);
// The maximin decision on psi alone, or nullopt when the metric has none.
std::optional<MaximinDecision> maximin_decision(const MetricSettings& settings, const std::vector<double>& psi);

// The settings' fields in a model file: "metric" and the metric's parameters. read_* throws
// nlohmann::json exceptions for missing or mistyped fields and mpg::Error for unknown names.
void write_metric_settings(const MetricSettings& settings, nlohmann::json& model);
MetricSettings read_metric_settings(const nlohmann::json& model);

}  // namespace mpg
