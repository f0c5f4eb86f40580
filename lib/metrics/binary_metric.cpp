#include "lib/metrics/binary_metric.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "lib/base/choices.hpp"
#include "lib/base/error.hpp"
#include "lib/metrics/f1.hpp"

namespace mpg {

namespace {
const Choice<BinaryMetric> kMetrics[] = {{"f1", BinaryMetric::f1}, {"precision_at_k", BinaryMetric::precision_at_k}};
}  // namespace

BinaryMetric parse_binary_metric(const std::string& name) { return parse_choice(name, kMetrics, "metric"); }
std::string to_string(BinaryMetric metric) { return choice_name(metric, kMetrics); }

std::size_t precision_k(const MetricSettings& settings, const std::vector<int>& labels) {
  std::size_t positives = 0;
  for (int y : labels) positives += y == 1;
  const std::size_t k = settings.k ? *settings.k
                                   : static_cast<std::size_t>(std::floor(
                                         settings.k_fraction * static_cast<double>(positives)));
  if (k < 1 || k > labels.size())
    throw Error("precision@k needs 1 <= k <= n; got k = " + std::to_string(k) + " for n = " +
                std::to_string(labels.size()) + " with " + std::to_string(positives) +
                " positives");
  return k;
}

std::size_t metric_k(const MetricSettings& settings, const std::vector<int>& labels) {
  return settings.metric == BinaryMetric::precision_at_k ? precision_k(settings, labels) : 0;
}

std::unique_ptr<BinaryGame> make_binary_game(const MetricSettings& settings, std::vector<double> potentials,
                                             const std::vector<int>& labels) {
  if (settings.metric == BinaryMetric::f1) return std::make_unique<F1Game>(std::move(potentials));
  return std::make_unique<PrecisionAtKGame>(std::move(potentials), precision_k(settings, labels),
                                            settings.restriction);
}

double binary_metric_score(const MetricSettings& settings, const std::vector<int>& predicted,
                           const std::vector<int>& gold) {
  const BinaryAction prediction = positives_of(predicted);
  const BinaryAction label = positives_of(gold);
  if (settings.metric == BinaryMetric::f1) return f1_score(prediction, label);
  return precision_at_k(prediction, label, precision_k(settings, gold));
}

bool has_dual_trainer(const MetricSettings& settings) {
  return settings.metric == BinaryMetric::precision_at_k &&
         settings.restriction == AdversaryRestriction::unrestricted;
}

bool has_marginal_solver(const MetricSettings& settings) { return settings.metric == BinaryMetric::f1; }

void write_metric_settings(const MetricSettings& settings, nlohmann::json& model) {
  model["metric"] = to_string(settings.metric);
  if (settings.metric == BinaryMetric::precision_at_k) {
    model["k_fraction"] = settings.k_fraction;
    if (settings.k) model["k"] = *settings.k;
    model["adversary"] = to_string(settings.restriction);
  }
}

MetricSettings read_metric_settings(const nlohmann::json& model) {
  MetricSettings settings;
  settings.metric = parse_binary_metric(model.at("metric").get<std::string>());
  if (settings.metric == BinaryMetric::precision_at_k) {
    settings.k_fraction = model.at("k_fraction").get<double>();
    if (model.contains("k")) settings.k = model.at("k").get<std::size_t>();
    settings.restriction = parse_adversary_restriction(model.at("adversary").get<std::string>());
  }
  return settings;
}

}  // namespace mpg
