// The binary family's tables (lib/harness/families/binary.cpp has its methods, cells and spec keys).
#include "lib/harness/families/binary.hpp"
#include "lib/harness/unit_samples.hpp"

namespace mpg::harness::binary_impl {

Tables BinaryRun::tables(const Outcome& outcome) const {
  const json published = published_of(spec_);
  const json published_seconds = spec_.value("published_seconds", json::object());
  ComparisonTable table({{"dataset", "dataset"}, {"method", "method"}},
                        {{"seconds", "time (s)", 1}, {"published_seconds", "published time (s)", 0}}, tolerance_);
  json task_rows = json::array();
  std::vector<std::string> notes;
  bool other_rules_shown = false;
  for (const auto& data : datasets_)
    for (const auto& [method, m] : spec_["methods"].items()) {
      const std::string grid = binary_method(m["kind"].get<std::string>()).kind.parameters.grid()->name;
      // What the run itself recorded that can explain a miss: caps hit, and a data substitute.
      int grid_cells = 0, capped_trainings = 0, capped_validation_games = 0, capped_test_games = 0, tasks = 0;
      double seconds = 0.0, total = 0.0;
      // MPG's F1 test games also score the papers' likeliest action and the expected F1 of the
      // equilibrium (lib/models/binary/binary_mpg.hpp); macro-averaged like the table's own rule.
      double likeliest_total = 0.0, expected_total = 0.0;
      int other_rule_tasks = 0;
      std::vector<double> parameters;
      // Per test example, one block per task: the interval's units (lib/harness/unit_samples.hpp).
      const stats::UnitMeasure unit_measure =
          binary_metric_plugin(metric_.metric).has_k ? stats::UnitMeasure::precision : stats::UnitMeasure::f1;
      std::vector<std::vector<double>> unit_rows;
      for (std::size_t i = 0; i < cells_.size(); ++i) {
        if (cells_[i].dataset != data.get() || cells_[i].method != method) continue;
        const json& v = outcome.validation[i];
        ++grid_cells;
        seconds += v.value("train_seconds", 0.0) + v.value("validation_seconds", 0.0);
        std::vector<std::string> capped;
        if (v.contains("training") && !v["training"].value("converged", true)) {
          capped.push_back("training " + v["training"]["status"].get<std::string>());
          ++capped_trainings;
        }
        if (v.contains("validation_game") && !v["validation_game"].value("converged", true)) {
          capped.push_back(fmt::format("the validation game did not converge (gap {:.2e})",
                                       v["validation_game"]["gap"].get<double>()));
          ++capped_validation_games;
        }
        if (!capped.empty())
          notes.push_back(fmt::format("{} {} {}={}: {}", data->task_name(cells_[i].positive), method, grid,
                                      plans_[i].parameters.number(grid), fmt::join(capped, "; ")));
      }
      for (double positive : data->positive_labels) {
        const auto found = outcome.selected.find(data->task_name(positive) + "\n" + method);
        if (found == outcome.selected.end()) continue;
        const std::size_t i = found->second;
        const json& result = outcome.test.at(i);
        total += result["test_score"].get<double>();
        const std::vector<int> gold = binary(data->test_file.labels, positive);
        const std::string where = fmt::format("{} {} test result", data->task_name(positive), method);
        const std::vector<int> predicted = labelling_of(result.value("test_predicted", json()), gold.size(), where);
        append_binary_block(unit_rows, unit_measure, predicted, gold,
                            result.contains("test_slots") ? labelling_of(result["test_slots"], gold.size(), where)
                                                          : predicted);
        seconds += result.value("test_seconds", 0.0);
        ++tasks;
        const double value = plans_[i].parameters.number(grid);
        parameters.push_back(value);
        json task_row = {{"task", data->task_name(positive)},
                         {"method", method},
                         {grid, value},
                         {"validation", outcome.validation[i]["validation_score"]},
                         {"test", result["test_score"]}};
        if (result.contains("test_likeliest_score") && binary_metric_plugin(metric_.metric).maximin_decision) {
          task_row["test_likeliest"] = result["test_likeliest_score"];
          task_row["test_expected"] = result["test_expected_score"];
          likeliest_total += result["test_likeliest_score"].get<double>();
          expected_total += result["test_expected_score"].get<double>();
          ++other_rule_tasks;
        }
        task_rows.push_back(std::move(task_row));
        if (result.contains("test_game") && !result["test_game"].value("converged", true)) {
          notes.push_back(fmt::format("{} {}: the test game did not converge (gap {:.2e})", data->task_name(positive),
                                      method, result["test_game"]["gap"].get<double>()));
          ++capped_test_games;
        }
      }
      std::optional<double> ours, pub;
      if (tasks > 0) ours = total / tasks;
      if (published.contains(method) && published[method].contains(data->label))
        pub = published[method][data->label].get<double>();
      auto& row = table.add({data->label, method}, ours, pub);
      if (tasks > 0) {
        const stats::UnitSample sample = stats::per_unit("example", unit_measure, std::move(unit_rows), tasks);
        // The units must give back the row's own number: a check of the per-unit statistics.
        if (std::abs(sample.score() - *ours) > 1e-9)
          throw Error(fmt::format("{} {}: the per-example statistics give {} where the test scores give {}", data->label,
                                  method, sample.score(), *ours));
        ComparisonTable::set_interval(row, sample);
      }
      // The authors' protocols stand beside the certified row, counted apart; other data likewise.
      row.standing = standing_of(
          {.papers_data = data->choice.exact(),
           .counted_protocol = spec_["methods"][method].value("protocol", std::string("certified")) == "certified"});
      row.extra["seconds"] = seconds;
      if (published_seconds.contains(method) && published_seconds[method].contains(data->label))
        row.extra["published_seconds"] = published_seconds[method][data->label];
      row.extra["parameters"] = parameters;
      if (capped_trainings > 0) row.causes.push_back(fmt::format("{} of {} trainings capped", capped_trainings, grid_cells));
      if (capped_validation_games > 0)
        row.causes.push_back(fmt::format("{} of {} validation games capped", capped_validation_games, grid_cells));
      if (capped_test_games > 0)
        row.causes.push_back(fmt::format("{} of {} test games capped", capped_test_games, tasks));
      if (!data->choice.exact())
        row.causes.push_back(fmt::format("data: variant {} ({})", data->choice.variant, data->choice.fidelity()));
      if (ours && pub && !table.within(row))
        notes.push_back(fmt::format("Outside tolerance: {} {} ({:+.3f}); recorded: {}", data->label, method,
                                    *ours - *pub,
                                    row.causes.empty() ? std::string("no cap or data substitute recorded (see the table's notes)")
                                                       : fmt::format("{}", fmt::join(row.causes, "; "))));
      if (other_rule_tasks > 0 && other_rule_tasks == tasks) {
        // The same test games under the other two rules: no published value (the papers report one rule).
        table.add({data->label, method + " (likeliest action)"}, likeliest_total / tasks, std::nullopt);
        table.add({data->label, method + " (expected f1)"}, expected_total / tasks, std::nullopt);
        other_rules_shown = true;
      }
    }

  Tables out;
  out.tally = table.tally();
  std::string& md = out.markdown;
  md += fmt::format("Metric: {} on the test file (macro average over one-vs-rest classes where a data set has several). "
                    "Tolerance ±{}.\n\n",
                    metric_name_, tolerance_);
  md += table.markdown();
  md += "\nTimes: our training of every grid point, validation and test (one core per cell, 2-core machine); "
        "published: the thesis' validation and test times.\n\n## Data\n\n";
  for (const auto& data : datasets_) {
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}): train `{}` sha256 `{}`, test `{}` sha256 `{}`; "
                      "split {} train / {} validation (seed {}).",
                      data->label, data->choice.dataset, data->choice.variant, data->choice.fidelity(),
                      data->train_file.file.name, data->train_file.file.sha256.substr(0, 16), data->test_file.file.name,
                      data->test_file.file.sha256.substr(0, 16), data->train.rows(), data->validation.rows(),
                      spec_["protocol"]["split_seed"].get<std::uint64_t>());
    // A data set's own method settings are part of what ran: listed, never implied.
    for (const auto& [method, given] : data->method_settings.items()) {
      std::vector<std::string> settings;
      for (const auto& [name, value] : given.items()) settings.push_back(fmt::format("`{} = {}`", name, value.dump()));
      md += fmt::format(" {} on this data set: {}.", method, fmt::join(settings, ", "));
    }
    md += "\n";
  }
  md += "\n## Selected hyper-parameters per task\n\n| task | method | parameter | validation | test |\n|---|---|---|---|---|\n";
  for (const auto& t : task_rows) {
    const std::string parameter = t.contains("lambda") ? fmt::format("lambda = {}", t["lambda"].get<double>())
                                                       : fmt::format("C = {}", t["C"].get<double>());
    md += fmt::format("| {} | {} | {} | {:.4f} | {:.4f} |\n", t["task"].get<std::string>(), t["method"].get<std::string>(),
                      parameter, t["validation"].get<double>(), t["test"].get<double>());
  }
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_, notes);
  if (other_rules_shown)
    md += "- Rows \"(likeliest action)\" and \"(expected f1)\": the same MPG test games scored by two other rules, "
          "without published values: the likeliest action of the predictor's equilibrium strategy the solver "
          "returned (the papers' rule; it can differ between exact equilibria), and the expected F1 of that "
          "strategy, E_P[F1(Y_hat, y)]. The MPG row itself is the maximin action (lib/metrics/f1_decision.hpp).\n";
  const BinaryMetricPlugin& plugin = binary_metric_plugin(metric_.metric);
  for (const auto& [method, m] : spec_["methods"].items()) {
    const std::string kind = m["kind"].get<std::string>();
    if (kind != "ssvm" && kind != "ssvm_top_k") continue;
    md += fmt::format("- {}: in-tree linear SVM^perf (Joachims 2005) with its C convention (Psi = 1/(2n) sum of "
                      "ybar_i x_i, slack weight 100 C), 1-slack cutting plane with exact working-set QPs to "
                      "epsilon = {} on the slack, Delta = 1 - {}; {}.\n",
                      method, ParameterValues(ssvm_kind().parameters, m).number("epsilon"),
                      plugin.has_k ? plugin.title + " (k from the training part)" : plugin.title,
                      kind == "ssvm_top_k"                                     ? "predicts the top k by w . x"
                      : plugin.baseline_decision == BaselineDecision::threshold ? "predicts sign(w . x)"
                                                                                : "predicts sign(w . x); P@k counts hits among its k highest "
                                                                                  "values that are > 0, over k");
  }
  out.csv = table.csv();
  out.fields = {{"metric", metric_name_}, {"tolerance", tolerance_}, {"rows", table.rows_json()},
                {"tasks", task_rows},     {"notes", notes}};
  return out;
}

}  // namespace mpg::harness::binary_impl
