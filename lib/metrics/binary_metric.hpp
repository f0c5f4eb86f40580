// The metrics of binary multivariate prediction games (F1, precision@k) as one plug-in point:
// their names, their parameters and how they resolve on a file's labels, the game over a file's
// examples, the score of a labelling, their fields in model files, and their capabilities. This
// file is the only place that switches on the metric: the models, trainers and the harness ask
// these functions, or the game they return (BinaryGame's exact-solve and over-marginals hooks).
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/metrics/binary_game.hpp"
#include "lib/metrics/precision_at_k.hpp"

namespace mpg {

enum class BinaryMetric { f1, precision_at_k };
BinaryMetric parse_binary_metric(const std::string& name);  // "f1" | "precision_at_k"
std::string to_string(BinaryMetric metric);

struct MetricSettings {
  BinaryMetric metric = BinaryMetric::f1;
  // P@k: k = floor(k_fraction * positives of the file being played), unless k is given.
  double k_fraction = 0.5;
  std::optional<std::size_t> k;
  AdversaryRestriction restriction = AdversaryRestriction::unrestricted;
};

// k of a P@k game over `labels`; throws mpg::Error if it is < 1 or > n.
std::size_t precision_k(const MetricSettings& settings, const std::vector<int>& labels);
// The metric's k on these labels (precision_k for P@k), 0 for a metric without one. Throws
// mpg::Error where precision_k does: call it to validate the settings against a file.
std::size_t metric_k(const MetricSettings& settings, const std::vector<int>& labels);

// The metric's game over a file's examples (labels 0/1 per example, for the parameters that
// depend on them) with potentials psi_i.
std::unique_ptr<BinaryGame> make_binary_game(const MetricSettings& settings, std::vector<double> potentials,
                                             const std::vector<int>& labels);

// The metric of a labelling against the gold labels (both 0/1 per example).
double binary_metric_score(const MetricSettings& settings, const std::vector<int>& predicted,
                           const std::vector<int>& gold);

// Capability: learning has an exact dual trainer (lib/models/binary/precision_at_k_trainer) because the
// metric's game has a closed-form equilibrium at every theta (P@k with the unrestricted
// adversary). Trainers that need it check it; train_binary_mpg_model prefers it when it is there.
bool has_dual_trainer(const MetricSettings& settings);
// Capability: the metric's game has a solver over marginals with exact bounds and the adversary's
// marginals (BinaryGame::solve_over_marginals; F1), so learning has the certified trainer over
// marginals (lib/models/binary/marginal_trainer).
bool has_marginal_solver(const MetricSettings& settings);

// The settings' fields in a model file: "metric" and the metric's parameters. read_* throws
// nlohmann::json exceptions for missing or mistyped fields and mpg::Error for unknown names.
void write_metric_settings(const MetricSettings& settings, nlohmann::json& model);
MetricSettings read_metric_settings(const nlohmann::json& model);

}  // namespace mpg
