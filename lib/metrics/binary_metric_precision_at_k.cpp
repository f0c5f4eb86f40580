// The precision@k plug-in of the binary metric registry (lib/metrics/binary_metric.hpp).
#include "lib/metrics/binary_metric.hpp"
#include "lib/metrics/precision_at_k.hpp"

namespace mpg {

BinaryMetricPlugin precision_at_k_metric_plugin() {
  BinaryMetricPlugin plugin;
  plugin.name = "precision_at_k";
  plugin.title = "P@k";
  plugin.has_k = true;
  plugin.make_game = [](const MetricSettings& settings, std::vector<double> potentials, const std::vector<int>& labels) {
    return std::unique_ptr<BinaryGame>(std::make_unique<PrecisionAtKGame>(
        std::move(potentials), precision_k(settings, labels), settings.restriction));
  };
  plugin.score = [](const MetricSettings& settings, const std::vector<int>& predicted, const std::vector<int>& gold) {
    return precision_at_k(positives_of(predicted), positives_of(gold), precision_k(settings, gold));
  };
  plugin.dual_trainer = [](const MetricSettings& settings) {
    return settings.restriction == AdversaryRestriction::unrestricted;
  };
  plugin.baseline_decision = BaselineDecision::top_k;
  plugin.ssvm_loss = "precision_at_k";
  return plugin;
}

}  // namespace mpg
