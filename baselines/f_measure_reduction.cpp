#include "baselines/f_measure_reduction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

bool is_unit_cost(double t) { return std::abs(t - 1.0) <= 1e-12; }

// The order of the tie-breaks after the F value: smaller C, smaller gamma, t closer to 1, smaller t.
template <typename Evaluation>
bool tie_preferred(const Evaluation& a, const Evaluation& b) {
  return std::make_tuple(a.C, a.gamma, std::abs(a.t - 1.0), a.t) <
         std::make_tuple(b.C, b.gamma, std::abs(b.t - 1.0), b.t);
}

template <typename Evaluation>
const Confusion& validation_counts(const Evaluation& e, bool thresholded) {
  return thresholded ? e.validation_thresholded : e.validation;
}

template <typename Evaluation>
Choice make_choice(const Evaluation& e, bool thresholded, const SelectionOptions& options) {
  Choice c;
  c.t = e.t;
  c.C = e.C;
  c.gamma = e.gamma;
  c.thresholded = thresholded;
  c.threshold = thresholded ? e.threshold : 0.0;
  c.validation = validation_counts(e, thresholded);
  c.test = thresholded ? e.test_thresholded : e.test;
  c.validation_f = f_beta(c.validation, options.beta, options.empty_f);
  c.test_f = f_beta(c.test, options.beta, options.empty_f);
  return c;
}

// Ties of two floating costs (products of counts with decimal costs): relative 1e-12.
bool cost_less(double a, double b) { return a < b - 1e-12 * std::max({1.0, std::abs(a), std::abs(b)}); }

template <typename Evaluation>
Choice select_from(const std::vector<const Evaluation*>& all, const SelectionOptions& options) {
  const bool thresholded = is_thresholded(options.variant);
  std::vector<const Evaluation*> candidates;
  for (const Evaluation* e : all) {
    if (is_cost_sensitive(options.variant) || is_unit_cost(e->t)) candidates.push_back(e);
  }
  if (candidates.empty()) {
    throw Error(fmt::format("F selection: no model for variant \"{}\" (the cost-insensitive variants "
                            "need t = 1 in the cost grid)", f_variant_name(options.variant)));
  }
  auto f_of = [&](const Evaluation* e) {
    return f_beta(validation_counts(*e, thresholded), options.beta, options.empty_f);
  };
  // a better than b: higher F, then the tie-break order.
  auto better = [&](const Evaluation* a, double fa, const Evaluation* b, double fb) {
    return fa != fb ? fa > fb : tie_preferred(*a, *b);
  };

  if (options.rule == FSelection::max_f) {
    const Evaluation* best = candidates.front();
    double best_f = f_of(best);
    for (const Evaluation* e : candidates) {
      const double f = f_of(e);
      if (better(e, f, best, best_f)) {
        best = e;
        best_f = f;
      }
    }
    return make_choice(*best, thresholded, options);
  }

  // two_loop (Algorithms 1-2 / 3-4).
  std::vector<double> actual = options.actual_costs;
  if (actual.empty()) {  // every trained cost, also for the cost-insensitive variants
    for (const Evaluation* e : all) actual.push_back(e->t);
    std::sort(actual.begin(), actual.end());
    actual.erase(std::unique(actual.begin(), actual.end()), actual.end());
  }
  const double one_plus_b2 = 1.0 + options.beta * options.beta;
  const Evaluation* best = nullptr;
  double best_f = 0.0, best_actual = 0.0;
  for (const double t_actual : actual) {
    if (!(t_actual > 0.0 && t_actual < one_plus_b2)) {
      throw Error(fmt::format("F selection: actual cost {} outside (0, {})", t_actual, one_plus_b2));
    }
    const Evaluation* inner = nullptr;
    double inner_cost = 0.0;
    for (const Evaluation* e : candidates) {
      const double cost = (one_plus_b2 - t_actual) * static_cast<double>(e->validation.fn) +
                          t_actual * static_cast<double>(e->validation.fp);
      if (inner == nullptr || cost_less(cost, inner_cost) ||
          (!cost_less(inner_cost, cost) && tie_preferred(*e, *inner))) {
        inner = e;
        inner_cost = cost;
      }
    }
    const double f = f_of(inner);
    if (best == nullptr || better(inner, f, best, best_f)) {
      best = inner;
      best_f = f;
      best_actual = t_actual;
    }
  }
  Choice c = make_choice(*best, thresholded, options);
  c.actual_cost = best_actual;
  return c;
}

// Models by (label, gamma, t, C), pooled evaluations by (gamma, t, C).
void sort_grid(GridEvaluation& grid) {
  std::sort(grid.models.begin(), grid.models.end(), [](const ModelEvaluation& a, const ModelEvaluation& b) {
    return std::make_tuple(a.label, a.gamma, a.t, a.C) < std::make_tuple(b.label, b.gamma, b.t, b.C);
  });
  std::sort(grid.pooled.begin(), grid.pooled.end(), [](const PooledEvaluation& a, const PooledEvaluation& b) {
    return std::make_tuple(a.gamma, a.t, a.C) < std::make_tuple(b.gamma, b.t, b.C);
  });
}

template <typename Evaluation>
std::vector<const Evaluation*> pointers(const std::vector<Evaluation>& v) {
  std::vector<const Evaluation*> p;
  p.reserve(v.size());
  for (const Evaluation& e : v) p.push_back(&e);
  return p;
}

}  // namespace

std::vector<double> default_cost_grid() {
  std::vector<double> grid;
  for (int k = 1; k <= 19; ++k) grid.push_back(k / 10.0);
  return grid;
}

std::vector<double> default_c_grid() {
  std::vector<double> grid;
  for (int k = -6; k <= 6; ++k) grid.push_back(std::ldexp(1.0, k));
  return grid;
}

double fn_weight(double t, double beta) {
  const double one_plus_b2 = 1.0 + beta * beta;
  if (!(beta > 0.0) || !(t > 0.0 && t < one_plus_b2)) {
    throw Error(fmt::format("cost parameter t must be in (0, 1 + beta^2) = (0, {}), got {}", one_plus_b2, t));
  }
  return (one_plus_b2 - t) / t;
}

FVariant parse_f_variant(const std::string& name) {
  if (name == "-" || name == "plain") return FVariant::plain;
  if (name == "T" || name == "thresholded") return FVariant::thresholded;
  if (name == "CS" || name == "cs") return FVariant::cost_sensitive;
  if (name == "CS&T" || name == "cs_t") return FVariant::cost_sensitive_thresholded;
  throw Error(fmt::format("unknown F variant \"{}\" (expected -, T, CS or CS&T)", name));
}

std::string f_variant_name(FVariant variant) {
  switch (variant) {
    case FVariant::plain: return "-";
    case FVariant::thresholded: return "T";
    case FVariant::cost_sensitive: return "CS";
    case FVariant::cost_sensitive_thresholded: return "CS&T";
  }
  return "?";
}

bool is_thresholded(FVariant v) {
  return v == FVariant::thresholded || v == FVariant::cost_sensitive_thresholded;
}

bool is_cost_sensitive(FVariant v) {
  return v == FVariant::cost_sensitive || v == FVariant::cost_sensitive_thresholded;
}

FSelection parse_f_selection(const std::string& name) {
  if (name == "max_f") return FSelection::max_f;
  if (name == "two_loop") return FSelection::two_loop;
  throw Error(fmt::format("unknown selection rule \"{}\" (expected max_f or two_loop)", name));
}

CostSearch parse_cost_search(const std::string& name) {
  if (name == "full") return CostSearch::full;
  if (name == "bracket_per_label") return CostSearch::bracket_per_label;
  if (name == "bracket_pooled") return CostSearch::bracket_pooled;
  throw Error(fmt::format("unknown cost search \"{}\" (expected full, bracket_per_label or "
                          "bracket_pooled)", name));
}

ModelEvaluation evaluate_scores(int label, double t, double C, double gamma,
                                const Eigen::VectorXd& validation_scores,
                                const std::vector<int>& validation_labels,
                                const Eigen::VectorXd& test_scores, const std::vector<int>& test_labels,
                                double beta, double empty_f) {
  ModelEvaluation e;
  e.label = label;
  e.t = t;
  e.C = C;
  e.gamma = gamma;
  e.validation = confusion_at(validation_scores, validation_labels, 0.0, false);
  e.test = confusion_at(test_scores, test_labels, 0.0, false);
  const ThresholdChoice best = best_threshold(validation_scores, validation_labels, beta, empty_f);
  e.threshold = best.threshold;
  e.validation_thresholded = best.counts;
  e.test_thresholded = confusion_at(test_scores, test_labels, best.threshold, true);
  return e;
}

Choice select_binary(const std::vector<ModelEvaluation>& models, const SelectionOptions& options) {
  return select_from(pointers(models), options);
}

MacroChoice select_macro(const std::vector<ModelEvaluation>& models, int label_count,
                         const SelectionOptions& options) {
  if (label_count < 1) throw Error("macro-F selection: label_count must be >= 1");
  std::vector<std::vector<const ModelEvaluation*>> by_label(static_cast<std::size_t>(label_count));
  for (const ModelEvaluation& m : models) {
    if (m.label < 0 || m.label >= label_count) {
      throw Error(fmt::format("macro-F selection: model of label {} outside 0..{}", m.label, label_count - 1));
    }
    by_label[static_cast<std::size_t>(m.label)].push_back(&m);
  }
  MacroChoice result;
  Confusion pooled_test;
  for (int k = 0; k < label_count; ++k) {
    if (by_label[static_cast<std::size_t>(k)].empty()) {
      throw Error(fmt::format("macro-F selection: no model of label {}", k));
    }
    result.labels.push_back(select_from(by_label[static_cast<std::size_t>(k)], options));
    result.validation_f += result.labels.back().validation_f / label_count;
    result.test_f += result.labels.back().test_f / label_count;
    pooled_test += result.labels.back().test;
  }
  result.test_micro_f = f_beta(pooled_test, options.beta, options.empty_f);
  return result;
}

Choice select_micro(const std::vector<PooledEvaluation>& pooled, const SelectionOptions& options) {
  return select_from(pointers(pooled), options);
}

BracketResult bracket_search(int m, const std::function<double(int)>& f, int preferred) {
  if (m < 1) throw Error("bracket search: empty grid");
  std::map<int, double> value;
  BracketResult result;
  auto evaluate = [&](int i) {
    if (value.count(i) != 0) return false;
    value[i] = f(i);
    result.evaluated.push_back(i);
    return true;
  };
  auto closer = [preferred](int a, int b) {
    return std::make_pair(std::abs(a - preferred), a) < std::make_pair(std::abs(b - preferred), b);
  };
  evaluate(0);
  evaluate(m - 1);
  evaluate((m - 1) / 2);
  for (;;) {
    int best = value.begin()->first;
    for (const auto& [i, v] : value) {
      if (v > value[best] || (v == value[best] && closer(i, best))) best = i;
    }
    result.best = best;
    const auto at = value.find(best);
    bool added = false;
    if (at != value.begin()) {
      const int left = std::prev(at)->first;
      if (best - left >= 2) added |= evaluate((left + best) / 2);
    }
    if (std::next(at) != value.end()) {
      const int right = std::next(at)->first;
      if (right - best >= 2) added |= evaluate((best + right) / 2);
    }
    if (!added) return result;
  }
}

GridEvaluation run_cost_grid(CostSensitiveLearner& learner,
                             const std::vector<std::vector<int>>& validation_labels,
                             const std::vector<std::vector<int>>& test_labels,
                             const CostGridOptions& options,
                             const std::function<void(long, long)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const int label_count = static_cast<int>(validation_labels.size());
  if (label_count < 1 || test_labels.size() != validation_labels.size()) {
    throw Error(fmt::format("cost grid: {} validation and {} test label vectors (need the same "
                            "number, >= 1)", validation_labels.size(), test_labels.size()));
  }
  std::vector<double> costs = options.costs;
  std::vector<double> cs = options.Cs;
  std::sort(costs.begin(), costs.end());
  std::sort(cs.begin(), cs.end());
  if (costs.empty() || cs.empty()) throw Error("cost grid: empty cost or C grid");
  if (std::adjacent_find(costs.begin(), costs.end()) != costs.end() ||
      std::adjacent_find(cs.begin(), cs.end()) != cs.end()) {
    throw Error("cost grid: repeated cost or C value");
  }
  for (const double t : costs) (void)fn_weight(t, options.beta);  // range check
  for (const double c : cs) {
    if (!(c > 0.0) || !std::isfinite(c)) throw Error(fmt::format("cost grid: C must be positive, got {}", c));
  }
  const double gamma = learner.gamma();
  const long full_size = static_cast<long>(label_count) * static_cast<long>(costs.size() * cs.size());

  GridEvaluation grid;
  grid.label_count = label_count;
  const bool bracket_thresholded = is_thresholded(options.bracket_variant);

  // Trains every C of (label, t), appends the evaluations; returns the scores (one per C).
  auto train_column = [&](int label, double t) {
    std::vector<TrainedScores> scores;
    const double weight = fn_weight(t, options.beta);
    for (std::size_t c = 0; c < cs.size(); ++c) {
      TrainedScores s = learner.train(label, weight, cs[c], options.warm_start && c > 0);
      ModelEvaluation e = evaluate_scores(label, t, cs[c], gamma, s.validation,
                                          validation_labels[static_cast<std::size_t>(label)], s.test,
                                          test_labels[static_cast<std::size_t>(label)], options.beta,
                                          options.empty_f);
      e.converged = s.converged;
      ++grid.trainings;
      if (!s.converged) ++grid.not_converged;
      grid.models.push_back(e);
      scores.push_back(std::move(s));
      if (progress) progress(grid.trainings, full_size);
    }
    return scores;
  };
  // Best validation F over C of the models just appended (the bracketing criterion).
  auto best_f_of_last = [&](std::size_t count) {
    double best = 0.0;
    for (std::size_t i = grid.models.size() - count; i < grid.models.size(); ++i) {
      best = std::max(best, f_beta(bracket_thresholded ? grid.models[i].validation_thresholded
                                                       : grid.models[i].validation,
                                   options.beta, options.empty_f));
    }
    return best;
  };
  // Trains every label at t and appends the pooled evaluation of each C; returns the best
  // pooled validation F over C.
  auto train_all_labels = [&](double t) {
    std::vector<std::vector<TrainedScores>> by_label;
    const std::size_t first_model = grid.models.size();
    for (int k = 0; k < label_count; ++k) by_label.push_back(train_column(k, t));
    double best = 0.0;
    for (std::size_t c = 0; c < cs.size(); ++c) {
      PooledEvaluation p;
      p.t = t;
      p.C = cs[c];
      p.gamma = gamma;
      std::vector<const Eigen::VectorXd*> scores;
      std::vector<const std::vector<int>*> labels;
      for (int k = 0; k < label_count; ++k) {
        const ModelEvaluation& m = grid.models[first_model + static_cast<std::size_t>(k) * cs.size() + c];
        p.validation += m.validation;
        p.test += m.test;
        scores.push_back(&by_label[static_cast<std::size_t>(k)][c].validation);
        labels.push_back(&validation_labels[static_cast<std::size_t>(k)]);
      }
      const ThresholdChoice global = best_pooled_threshold(scores, labels, options.beta, options.empty_f);
      p.threshold = global.threshold;
      p.validation_thresholded = global.counts;
      for (int k = 0; k < label_count; ++k) {
        p.test_thresholded += confusion_at(by_label[static_cast<std::size_t>(k)][c].test,
                                           test_labels[static_cast<std::size_t>(k)], global.threshold, true);
      }
      best = std::max(best, f_beta(bracket_thresholded ? p.validation_thresholded : p.validation,
                                   options.beta, options.empty_f));
      grid.pooled.push_back(p);
    }
    return best;
  };
  const int unit_index = static_cast<int>(
      std::min_element(costs.begin(), costs.end(),
                       [](double a, double b) { return std::abs(a - 1.0) < std::abs(b - 1.0); }) -
      costs.begin());

  switch (options.search) {
    case CostSearch::full:
      for (const double t : costs) train_all_labels(t);
      break;
    case CostSearch::bracket_pooled:
      bracket_search(static_cast<int>(costs.size()),
                     [&](int i) { return train_all_labels(costs[static_cast<std::size_t>(i)]); },
                     unit_index);
      break;
    case CostSearch::bracket_per_label:
      for (int k = 0; k < label_count; ++k) {
        bracket_search(static_cast<int>(costs.size()),
                       [&](int i) {
                         train_column(k, costs[static_cast<std::size_t>(i)]);
                         return best_f_of_last(cs.size());
                       },
                       unit_index);
      }
      break;
  }
  sort_grid(grid);
  grid.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return grid;
}

GridEvaluation merge_grids(const std::vector<GridEvaluation>& grids) {
  GridEvaluation merged;
  if (grids.empty()) return merged;
  merged.label_count = grids.front().label_count;
  for (const GridEvaluation& g : grids) {
    if (g.label_count != merged.label_count) {
      throw Error(fmt::format("merge_grids: grids of {} and {} labels", merged.label_count, g.label_count));
    }
    merged.models.insert(merged.models.end(), g.models.begin(), g.models.end());
    merged.pooled.insert(merged.pooled.end(), g.pooled.begin(), g.pooled.end());
    merged.trainings += g.trainings;
    merged.not_converged += g.not_converged;
    merged.seconds += g.seconds;
  }
  sort_grid(merged);
  return merged;
}

}  // namespace mpg

namespace mpg {
namespace {

nlohmann::json counts_json(const Confusion& c) { return nlohmann::json::array({c.tp, c.fp, c.fn, c.tn}); }

Confusion counts_from(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 4) throw Error("grid JSON: confusion counts must be [tp, fp, fn, tn]");
  return {j[0].get<long>(), j[1].get<long>(), j[2].get<long>(), j[3].get<long>()};
}

nlohmann::json threshold_json(double threshold) {
  return std::isinf(threshold) ? nlohmann::json(nullptr) : nlohmann::json(threshold);
}

double threshold_from(const nlohmann::json& j) {
  return j.is_null() ? std::numeric_limits<double>::infinity() : j.get<double>();
}

// The fields common to models and pooled entries, after the label (models only).
template <typename Evaluation>
void append_common(nlohmann::json& row, const Evaluation& e) {
  row.push_back(e.t);
  row.push_back(e.C);
  row.push_back(e.gamma);
  row.push_back(threshold_json(e.threshold));
  row.push_back(counts_json(e.validation));
  row.push_back(counts_json(e.test));
  row.push_back(counts_json(e.validation_thresholded));
  row.push_back(counts_json(e.test_thresholded));
}

template <typename Evaluation>
void read_common(const nlohmann::json& row, std::size_t at, Evaluation& e) {
  e.t = row.at(at).get<double>();
  e.C = row.at(at + 1).get<double>();
  e.gamma = row.at(at + 2).get<double>();
  e.threshold = threshold_from(row.at(at + 3));
  e.validation = counts_from(row.at(at + 4));
  e.test = counts_from(row.at(at + 5));
  e.validation_thresholded = counts_from(row.at(at + 6));
  e.test_thresholded = counts_from(row.at(at + 7));
}

}  // namespace

nlohmann::json grid_to_json(const GridEvaluation& grid) {
  nlohmann::json out;
  out["labels"] = grid.label_count;
  out["trainings"] = grid.trainings;
  out["not_converged"] = grid.not_converged;
  out["seconds"] = grid.seconds;
  out["models"] = nlohmann::json::array();
  for (const ModelEvaluation& m : grid.models) {
    nlohmann::json row = nlohmann::json::array({m.label});
    append_common(row, m);
    row.push_back(m.converged);
    out["models"].push_back(std::move(row));
  }
  out["pooled"] = nlohmann::json::array();
  for (const PooledEvaluation& p : grid.pooled) {
    nlohmann::json row = nlohmann::json::array();
    append_common(row, p);
    out["pooled"].push_back(std::move(row));
  }
  return out;
}

GridEvaluation grid_from_json(const nlohmann::json& json) {
  try {
    GridEvaluation grid;
    grid.label_count = json.at("labels").get<int>();
    grid.trainings = json.at("trainings").get<long>();
    grid.not_converged = json.at("not_converged").get<long>();
    grid.seconds = json.at("seconds").get<double>();
    for (const nlohmann::json& row : json.at("models")) {
      ModelEvaluation m;
      m.label = row.at(0).get<int>();
      read_common(row, 1, m);
      m.converged = row.at(9).get<bool>();
      grid.models.push_back(m);
    }
    for (const nlohmann::json& row : json.at("pooled")) {
      PooledEvaluation p;
      read_common(row, 0, p);
      grid.pooled.push_back(p);
    }
    return grid;
  } catch (const nlohmann::json::exception& error) {
    throw Error(std::string("grid JSON: ") + error.what());
  }
}

}  // namespace mpg
