#include "lib/metrics/binary_metric.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "lib/base/error.hpp"

namespace mpg {

namespace {

// The registered metrics, built-ins first; a plug-in's address (and so its name) never moves.
std::vector<std::unique_ptr<BinaryMetricPlugin>>& registry() {
  static std::vector<std::unique_ptr<BinaryMetricPlugin>> plugins = [] {
    std::vector<std::unique_ptr<BinaryMetricPlugin>> built_in;
    built_in.push_back(std::make_unique<BinaryMetricPlugin>(f1_metric_plugin()));
    built_in.push_back(std::make_unique<BinaryMetricPlugin>(precision_at_k_metric_plugin()));
    return built_in;
  }();
  return plugins;
}

}  // namespace

void register_binary_metric(BinaryMetricPlugin plugin) {
  if (plugin.name.empty() || !plugin.make_game || !plugin.score)
    throw Error("a binary metric needs a name, make_game and score");
  if (find_binary_metric(plugin.name)) throw Error("binary metric '" + plugin.name + "' is already registered");
  registry().push_back(std::make_unique<BinaryMetricPlugin>(std::move(plugin)));
}

void unregister_binary_metric(const std::string& name) {
  auto& plugins = registry();
  for (auto it = plugins.begin() + 2; it < plugins.end(); ++it)  // after the two built-ins
    if ((*it)->name == name) {
      plugins.erase(it);
      return;
    }
  throw Error("binary metric '" + name + "' is not a registered one that can be removed");
}

const BinaryMetricPlugin* find_binary_metric(const std::string& name) {
  for (const auto& plugin : registry())
    if (plugin->name == name) return plugin.get();
  return nullptr;
}

const BinaryMetricPlugin& binary_metric_plugin(BinaryMetric metric) {
  const BinaryMetricPlugin* plugin = find_binary_metric(std::string(metric.name));
  if (!plugin) throw Error("unknown metric '" + std::string(metric.name) + "' (expected " + binary_metric_choices() + ")");
  return *plugin;
}

std::vector<std::string> binary_metric_names() {
  std::vector<std::string> names;
  for (const auto& plugin : registry()) names.push_back(plugin->name);
  return names;
}

std::string binary_metric_choices(const std::string& quote) {
  const std::vector<std::string> names = binary_metric_names();
  std::string expected;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) expected += i + 1 == names.size() ? " or " : ", ";
    expected += quote + names[i] + quote;
  }
  return expected;
}

BinaryMetric parse_binary_metric(const std::string& name) {
  const BinaryMetricPlugin* plugin = find_binary_metric(name);
  if (!plugin) throw Error("unknown metric '" + name + "' (expected " + binary_metric_choices() + ")");
  return BinaryMetric{plugin->name};
}

std::string to_string(BinaryMetric metric) { return std::string(metric.name); }

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
  return binary_metric_plugin(settings.metric).has_k ? precision_k(settings, labels) : 0;
}

std::unique_ptr<BinaryGame> make_binary_game(const MetricSettings& settings, std::vector<double> potentials,
                                             const std::vector<int>& labels) {
  return binary_metric_plugin(settings.metric).make_game(settings, std::move(potentials), labels);
}

double binary_metric_score(const MetricSettings& settings, const std::vector<int>& predicted,
                           const std::vector<int>& gold) {
  return binary_metric_plugin(settings.metric).score(settings, predicted, gold);
}

bool has_dual_trainer(const MetricSettings& settings) {
  const BinaryMetricPlugin& plugin = binary_metric_plugin(settings.metric);
  return plugin.dual_trainer && plugin.dual_trainer(settings);
}

bool has_marginal_solver(const MetricSettings& settings) {
  return binary_metric_plugin(settings.metric).marginal_solver;
}

bool has_joint_trainer(const MetricSettings& settings) { return binary_metric_plugin(settings.metric).joint_trainer; }

std::optional<MaximinDecision> maximin_decision(const MetricSettings& settings, const std::vector<double>& psi) {
  const BinaryMetricPlugin& plugin = binary_metric_plugin(settings.metric);
  if (!plugin.maximin_decision) return std::nullopt;
  return plugin.maximin_decision(psi);
}

void write_metric_settings(const MetricSettings& settings, nlohmann::json& model) {
  model["metric"] = to_string(settings.metric);
  if (binary_metric_plugin(settings.metric).has_k) {
    model["k_fraction"] = settings.k_fraction;
    if (settings.k) model["k"] = *settings.k;
    model["adversary"] = to_string(settings.restriction);
  }
}

MetricSettings read_metric_settings(const nlohmann::json& model) {
  MetricSettings settings;
  settings.metric = parse_binary_metric(model.at("metric").get<std::string>());
  if (binary_metric_plugin(settings.metric).has_k) {
    settings.k_fraction = model.at("k_fraction").get<double>();
    if (model.contains("k")) settings.k = model.at("k").get<std::size_t>();
    settings.restriction = parse_adversary_restriction(model.at("adversary").get<std::string>());
  }
  return settings;
}

}  // namespace mpg
