// The F1 plug-in of the binary metric registry (lib/metrics/binary_metric.hpp).
#include "lib/metrics/binary_metric.hpp"
#include "lib/metrics/f1.hpp"
#include "lib/metrics/f1_decision.hpp"

namespace mpg {

BinaryMetricPlugin f1_metric_plugin() {
  BinaryMetricPlugin plugin;
  plugin.name = "f1";
  plugin.title = "F1";
  plugin.make_game = [](const MetricSettings&, std::vector<double> potentials, const std::vector<int>&) {
    return std::unique_ptr<BinaryGame>(std::make_unique<F1Game>(std::move(potentials)));
  };
  plugin.score = [](const MetricSettings&, const std::vector<int>& predicted, const std::vector<int>& gold) {
    return f1_score(positives_of(predicted), positives_of(gold));
  };
  plugin.maximin_decision = [](const std::vector<double>& psi) {
    F1Decision decision = f1_maximin_decision(psi);
    return MaximinDecision{std::move(decision.action), decision.guarantee};
  };
  plugin.marginal_solver = true;
  plugin.joint_trainer = true;
  plugin.baseline_decision = BaselineDecision::threshold;
  plugin.ssvm_loss = "f1";
  return plugin;
}

}  // namespace mpg
