// Family "structured_auc" (Rosenfeld, Meshi, Tarlow and Globerson, supplement §3, the table of AUC
// and generalized AUCs; seed 002): structured examples whose items are ranked — the documents of a
// LETOR query (positive = relevance >= 1) or the labels of a multi-label example (item k has the
// joint features x (x) e_k, so w holds one weight vector per label) — and the fully factored model
// trained with the AUC loss (objective (1), by Prop. 3.1 the pairwise hinge with margin
// 1/(|pos||neg|) per example; lib/models/structured_auc.hpp). Every (data set, λ) is a cell trained
// on the training part and scored on the validation part by the mean example AUC; the best λ per
// data set is scored on the test part by the AUC and the binned AUC (bins of `bin_size` positions,
// a reconstruction). Table cells the library cannot produce (training with a generalized loss, the
// pairwise model, the NIPS data) are rows with the spec's reason, never dropped.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>

#include "lib/base/eigen_vectors.hpp"
#include "lib/base/error.hpp"
#include "lib/data/content_split.hpp"
#include "lib/data/letor.hpp"
#include "lib/data/multilabel.hpp"
#include "lib/harness/claims.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/registry.hpp"
#include "lib/harness/unit_samples.hpp"
#include "lib/models/structured_auc.hpp"

namespace mpg::harness {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::vector<MethodKind>& auc_methods() {
  static const std::vector<MethodKind> kinds = {
      {"factored_auc",
       "Fully factored model trained with the AUC loss: min_w λ/2‖w‖² + (1/M) Σ_m Σ_{i ∈ pos_m, j ∈ neg_m} max(0, "
       "c_m − w·(x_i − x_j)), c_m = 1/(|pos_m||neg_m|) (objective (1) by Prop. 3.1), by the certified cutting-plane "
       "method (BMRM; the supplement names no optimizer).",
       ParameterTable({grid_parameter("lambda", 0.0, 1e15,
                                      "grid of λ (one cell per value; unstated in the supplement: because c_m is tiny, "
                                      "useful λ are large, 10^3..10^8 on OHSUMED)"),
                       number_parameter("tolerance", 1e-4, 0.0, 1.0,
                                        "the cutting-plane method stops when the gap is certified within this × the "
                                        "objective (unstated)",
                                        true),
                       integer_parameter("max_iterations", 1000, 1, 1000000000,
                                         "cutting-plane iterations (a cap: reported when reached)")})},
  };
  return kinds;
}

// ---- Data --------------------------------------------------------------------------------------

struct Dataset {
  std::string label;
  RegistryChoice choice;
  std::vector<AucExample> train, validation, test;
  std::vector<std::string> sha256;
  std::string about;
};

std::vector<AucExample> letor_examples(const RegistryChoice& choice, int subset, std::vector<std::string>& hashes,
                                       std::string& about) {
  const json& entry = choice.variant_entry().at("subsets").at(static_cast<std::size_t>(subset));
  const VerifiedFile file =
      read_verified_file(entry, fmt::format("dataset '{}' ({}, subset S{})", choice.dataset, choice.variant, subset + 1));
  hashes.push_back(file.sha256);
  const LetorData data = read_letor(file.path, choice.entry().value("features", 0L));
  std::vector<AucExample> out;
  for (const auto& q : data.queries) {
    AucExample e;
    e.features = q.features;
    for (int r : q.relevance) e.labels.push_back(r > 0 ? 1 : 0);
    out.push_back(std::move(e));
  }
  about += fmt::format(" S{} `{}` sha256 `{}` ({} queries);", subset + 1, file.name, file.sha256.substr(0, 16), out.size());
  return out;
}

// A multi-label example's labels as items: item k's features are the example's features (with a
// bias 1) in block k of L blocks, zero elsewhere.
std::vector<AucExample> label_examples(const MultilabelData& data, const std::vector<long>& rows) {
  const long d = data.features.cols(), labels = data.label_count();
  std::vector<AucExample> out;
  for (long row : rows) {
    AucExample e;
    e.features = Eigen::MatrixXd::Zero(labels, labels * d);
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(data.features, row); it; ++it)
      for (long k = 0; k < labels; ++k) e.features(k, k * d + it.col()) = it.value();
    for (long k = 0; k < labels; ++k) e.labels.push_back(data.labels[static_cast<std::size_t>(k)][static_cast<std::size_t>(row)]);
    out.push_back(std::move(e));
  }
  return out;
}

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d) {
  auto data = std::make_unique<Dataset>();
  data->label = label;
  data->choice = registry_choice(d);
  const std::string format = data->choice.entry().value("format", std::string());
  if (format == "letor") {
    // LETOR fold K: train S_K..S_K+2, validation S_K+3, test S_K+4 (mod 5).
    const int k = d.value("fold", 1) - 1;
    data->about = fmt::format("LETOR fold {}:", k + 1);
    for (int s : {k % 5, (k + 1) % 5, (k + 2) % 5}) {
      auto part = letor_examples(data->choice, s, data->sha256, data->about);
      data->train.insert(data->train.end(), part.begin(), part.end());
    }
    data->validation = letor_examples(data->choice, (k + 3) % 5, data->sha256, data->about);
    data->test = letor_examples(data->choice, (k + 4) % 5, data->sha256, data->about);
    return data;
  }
  const long labels = data->choice.variant_entry().value("labels", 0L);
  MultilabelReadOptions o;
  o.labels = labels;
  o.bias = 1.0;
  const VerifiedFile train = data->choice.read("train"), test = data->choice.read("test");
  data->sha256 = {train.sha256, test.sha256};
  const MultilabelData train_data = read_multilabel_csv(train.path, o);
  MultilabelReadOptions test_options = o;
  test_options.min_features = train_data.features.cols() - 1;
  const MultilabelData test_data = read_multilabel_csv(test.path, test_options);
  // Validation: a share of the training rows chosen by their content (not their order in the file).
  const double fraction = d.value("validation_fraction", 0.2);
  const auto split = content_split(content_keys(train_data.features, train_data.labels, d.value("split_seed", 1)), fraction);
  data->train = label_examples(train_data, split.kept);
  data->validation = label_examples(train_data, split.held_out);
  std::vector<long> all(static_cast<std::size_t>(test_data.examples()));
  std::iota(all.begin(), all.end(), 0L);
  data->test = label_examples(test_data, all);
  data->about = fmt::format(
      "{} labels as the items of each example (joint features x ⊗ e_label, {} weights); train `{}` sha256 `{}` ({} "
      "examples: {} train, {} validation by content); test `{}` sha256 `{}` ({} examples);",
      labels, labels * train_data.features.cols(), train.name, train.sha256.substr(0, 16), train_data.examples(),
      data->train.size(), data->validation.size(), test.name, test.sha256.substr(0, 16), test_data.examples());
  return data;
}

// The binned AUC (bins of `bin` positions) of each example with both classes, of the order by
// descending score; equal scores are ordered by their feature rows (lexicographically), so the order
// does not depend on the item order of the file. Also counts (pos, neg) pairs with equal scores.
std::pair<std::vector<double>, std::size_t> binned_aucs(const std::vector<AucExample>& examples, const Eigen::VectorXd& w,
                                                        int bin) {
  std::vector<double> values;
  std::size_t tied = 0;
  for (const auto& e : examples) {
    const auto positives = std::count(e.labels.begin(), e.labels.end(), 1);
    if (positives == 0 || positives == static_cast<long>(e.labels.size())) continue;
    const Eigen::VectorXd a = e.features * w;
    std::vector<int> order(e.labels.size());
    std::iota(order.begin(), order.end(), 0);
    auto row_less = [&](int i, int j) {
      for (long c = 0; c < e.features.cols(); ++c)
        if (e.features(i, c) != e.features(j, c)) return e.features(i, c) < e.features(j, c);
      return false;
    };
    std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return a(i) != a(j) ? a(i) > a(j) : row_less(i, j); });
    for (std::size_t p = 0; p + 1 < order.size(); ++p)
      for (std::size_t q = p + 1; q < order.size() && a(order[q]) == a(order[p]); ++q)
        tied += e.labels[static_cast<std::size_t>(order[p])] != e.labels[static_cast<std::size_t>(order[q])];
    values.push_back(binned_auc(order, e.labels, bin));
  }
  return {values, tied};
}

// The mean of per-example values, and the values as the interval's units (one per example).
std::pair<double, json> mean_with_units(const std::vector<double>& values) {
  double sum = 0.0;
  std::vector<std::vector<double>> rows;
  for (double v : values) {
    sum += v;
    rows.push_back({v});
  }
  if (rows.empty()) return {0.0, json()};
  return {sum / static_cast<double>(values.size()),
          unit_sample_json(stats::per_unit("example", stats::UnitMeasure::mean, std::move(rows)).canonical())};
}

// ---- The run -----------------------------------------------------------------------------------

class AucRun : public FamilyRun {
 public:
  explicit AucRun(json spec);
  std::vector<CellPlan> cells() override { return plans_; }
  json validate(std::size_t cell) const override;
  std::vector<std::pair<std::string, double>> selection(std::size_t cell, const json& v) const override {
    return {{datasets_[dataset_of_[cell]]->label + "\n" + plans_[cell].method, v["validation_auc"].get<double>()}};
  }
  std::string validation_line(const json& v) const override {
    return fmt::format("validation AUC {:.4f}  ({} iterations, {:.1f} s)", v["validation_auc"].get<double>(),
                       v["training"]["iterations"].get<int>(), v["training"]["seconds"].get<double>());
  }
  json test(std::size_t cell, const json& validation) const override;
  std::string test_line(const json& t) const override {
    return fmt::format("test AUC {:.4f}  binned {:.4f}", t["auc"].get<double>(), t["binned_auc"].get<double>());
  }
  Tables tables(const Outcome& outcome) const override;

 private:
  json spec_;
  int bin_size_;
  std::vector<std::unique_ptr<Dataset>> datasets_;
  std::vector<std::size_t> dataset_of_;
  std::vector<CellPlan> plans_;
};

AucRun::AucRun(json spec) : spec_(std::move(spec)) {
  bin_size_ = spec_.value("bin_size", 10);
  for (const auto& [label, d] : spec_["datasets"].items()) datasets_.push_back(load_dataset(label, d));
  for (std::size_t i = 0; i < datasets_.size(); ++i) {
    const Dataset& d = *datasets_[i];
    const json key = {{"data", {d.choice.dataset, d.choice.variant, d.sha256}}, {"split", spec_["datasets"][d.label]}};
    for (const auto& [method, m] : spec_["methods"].items()) {
      const ParameterValues values(family_named("structured_auc").method(m["kind"].get<std::string>()).parameters, m);
      // A data set may give its own λ grid: the margins c_m, hence the useful λ, differ by data set.
      const json& grid = spec_["datasets"][d.label].contains("lambda") ? spec_["datasets"][d.label]["lambda"] : m["lambda"];
      for (const auto& lambda : grid) {
        dataset_of_.push_back(i);
        plans_.push_back({method, fmt::format("{:<8} {} lambda={:g}", d.label, method, lambda.get<double>()), key,
                          values.with("lambda", lambda), static_cast<int>(d.train.size())});
      }
    }
  }
}

Eigen::VectorXd weights_of(const json& v) {
  const auto w = v["weights"].get<std::vector<double>>();
  return Eigen::Map<const Eigen::VectorXd>(w.data(), static_cast<long>(w.size()));
}

json AucRun::validate(std::size_t cell) const {
  const Dataset& d = *datasets_[dataset_of_[cell]];
  const ParameterValues& p = plans_[cell].parameters;
  FactoredAucOptions o;
  o.lambda = p.number("lambda");
  o.optimizer.cutting_plane_tolerance = p.number("tolerance");
  o.optimizer.max_iterations = static_cast<int>(p.integer("max_iterations"));
  FactoredAucSummary s;
  const Eigen::VectorXd w = train_factored_auc(d.train, o, &s);
  return {{"validation_auc", mean_example_auc(d.validation, w)},
          {"weights", to_std_vector(w)},
          {"training",
           {{"converged", s.converged}, {"iterations", s.iterations}, {"objective", s.primal},
            {"lower_bound", s.lower_bound}, {"pairs", s.pairs}, {"examples_used", s.examples_used},
            {"examples_skipped", s.examples_skipped}, {"seconds", s.seconds}, {"message", s.message}}}};
}

json AucRun::test(std::size_t cell, const json& validation) const {
  const Dataset& d = *datasets_[dataset_of_[cell]];
  const Eigen::VectorXd w = weights_of(validation);
  const auto [binned_values, tied] = binned_aucs(d.test, w, bin_size_);
  const auto [auc, auc_units] = mean_with_units(example_aucs(d.test, w));
  const auto [binned, binned_units] = mean_with_units(binned_values);
  if (auc_units.is_null()) throw Error(d.label + ": no test example has both positive and negative items");
  return {{"auc", auc}, {"binned_auc", binned}, {"tied_pairs", tied}, {"auc_units", auc_units}, {"binned_units", binned_units}};
}

Tables AucRun::tables(const Outcome& outcome) const {
  Tables out;
  const json published = published_of(spec_);
  const json reasons = spec_.value("not_reproduced", json::object());
  ComparisonTable table({{"dataset", "data set"}, {"test", "test measure"}, {"train", "training loss"}},
                        {{"model", "model", 0}, {"lambda", "selected λ", 0}, {"note", "why it may differ / why not run", 0}},
                        tolerance_of(spec_, 1.0), 1);
  std::string selected_md =
      "| data set | method | λ | validation AUC | test AUC | test binned AUC | training | tied (pos, neg) test scores |\n"
      "|---|---|---|---|---|---|---|---|\n";
  std::set<std::string> covered;
  for (const auto& [group, cell] : outcome.selected) {
    const Dataset& d = *datasets_[dataset_of_[cell]];
    const json& v = outcome.validation[cell];
    const json& t = outcome.test.at(cell);
    const double lambda = plans_[cell].parameters.number("lambda");
    const json& tr = v["training"];
    selected_md += fmt::format("| {} | {} | {:g} | {:.4f} | {:.4f} | {:.4f} | {} iterations, {:.1f} s, {} | {} |\n", d.label,
                               plans_[cell].method, lambda, v["validation_auc"].get<double>(), t["auc"].get<double>(),
                               t["binned_auc"].get<double>(), tr["iterations"].get<int>(), tr["seconds"].get<double>(),
                               tr["converged"].get<bool>() ? "certified" : "**not certified (cap)**",
                               t["tied_pairs"].get<std::size_t>());
    const json pub = published.value(d.label, json::object());
    const bool other_model = spec_["datasets"][d.label].contains("model_note");
    const std::string model = other_model ? "factored (see note)" : "factored";
    for (const auto& [measure, value] : {std::pair<std::string, double>{"AUC", t["auc"].get<double>()},
                                         {"Binned", t["binned_auc"].get<double>()}}) {
      if (measure == "Binned" && !pub.contains("Binned") && d.choice.entry().value("format", std::string()) != "letor")
        continue;
      std::optional<double> p;
      if (pub.contains(measure) && pub[measure].contains("train_AUC")) p = pub[measure]["train_AUC"].get<double>();
      auto& row = table.add({d.label, measure, "AUC"}, 100.0 * value, p);
      ComparisonTable::set_interval(row,
                                    unit_sample_from_json(t.value(measure == "AUC" ? "auc_units" : "binned_units", json()),
                                                          d.label + " " + measure + " test result"),
                                    100.0);
      row.extra = {{"model", model}, {"lambda", fmt::format("{:g}", lambda)}};
      if (!tr["converged"].get<bool>()) row.causes.push_back("training stopped at its iteration cap");
      if (other_model) {
        row.causes.push_back(spec_["datasets"][d.label]["model_note"].get<std::string>());
        row.standing = Standing::stand_in;  // another model in the supplement's model's place
      }
      if (measure == "Binned") row.causes.push_back("binned AUC definition reconstructed (bins of " + std::to_string(bin_size_) + ")");
      row.extra["note"] = fmt::format("{}", fmt::join(row.causes, "; "));
      covered.insert(d.label + "/" + measure + "/AUC");
    }
  }
  // The published cells this run does not produce: a row each, with the spec's reason.
  for (const auto& [dataset, rows] : published.items())
    for (const auto& [measure, columns] : rows.items())
      for (const auto& [column, value] : columns.items()) {
        const std::string train = column.substr(6);  // "train_AUC" -> "AUC"
        if (covered.count(dataset + "/" + measure + "/" + train)) continue;
        auto& row = table.add({dataset, measure, train}, std::nullopt, value.get<double>());
        std::string why = "not run by this spec";
        for (const std::string& k : {dataset + "/" + measure + "/" + train, dataset + "/*/" + train, dataset})
          if (reasons.contains(k)) {
            why = reasons[k].get<std::string>();
            break;
          }
        row.causes.push_back(why);
        row.extra["note"] = why;
      }
  out.tally = table.tally();
  std::string md = fmt::format(
      "Rows: test measure; training loss as the supplement's columns; values in %. λ selected per data set by the mean "
      "validation AUC (ties: the first in grid order). Binned AUC: bins of {} positions, swaps inside a bin not "
      "counted (reconstruction: the supplement gives no definition); equal scores ordered by their feature rows.\n\n",
      bin_size_);
  md += "## Supplement table (\"Table 3\" in the text, \"Table 1\" in its caption)\n\n" + table.markdown();
  md += "\n## Selected λ\n\n" + selected_md;
  md += "\n## Every λ (validation)\n\n| data set | method | λ | validation AUC | iterations | certified | s |\n|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < plans_.size(); ++i) {
    const json& v = outcome.validation[i];
    md += fmt::format("| {} | {} | {:g} | {:.4f} | {} | {} | {:.1f} |\n", datasets_[dataset_of_[i]]->label, plans_[i].method,
                      plans_[i].parameters.number("lambda"), v["validation_auc"].get<double>(),
                      v["training"]["iterations"].get<int>(), v["training"]["converged"].get<bool>() ? "yes" : "no",
                      v["training"]["seconds"].get<double>());
  }
  md += "\n## Data\n\n";
  for (const auto& d : datasets_)
    md += fmt::format("- **{}**: registry `{}`, variant `{}` ({}); {}\n", d->label, d->choice.dataset, d->choice.variant,
                      d->choice.fidelity(), d->about);
  md += "\n## Notes\n\n";
  md += notes_markdown(spec_);
  out.markdown = md;
  out.csv = table.csv();
  out.fields = {{"bin_size", bin_size_}, {"comparison", table.rows_json()}, {"published", published}};
  return out;
}

// ---- The family --------------------------------------------------------------------------------

class AucFamily : public Family {
 public:
  std::string name() const override { return "structured_auc"; }
  std::string summary() const override {
    return "The structured AUC supplement's table (Rosenfeld et al., §3): the fully factored model trained with the AUC "
           "loss on LETOR queries (documents as items, fold K of the LETOR rotation) or multi-label examples (labels "
           "as items, a content-chosen validation share of the training rows); λ selected on the mean validation AUC, "
           "then the test AUC and binned AUC. Published cells the library cannot produce are rows with the reason "
           "given in `not_reproduced`.";
  }
  std::vector<SpecKey> keys() const override {
    return {{"datasets", true,
             "`{label: {registry, variant, fold \\| validation_fraction, split_seed, model_note, lambda}}`: a `letor` "
             "data set (fold 1..5, default 1) or a `multilabel_csv` one (validation_fraction default 0.2, split_seed "
             "default 1); `model_note` marks a model other than the paper's (shown as a cause); `lambda` replaces the "
             "method's λ grid on this data set (the margins c_m, hence the useful λ, differ by data set)"},
            {"methods", true, "`{label: {kind, parameters}}`, kinds below"},
            {"bin_size", false, "positions per bin of the binned AUC (default 10)"},
            {"published", false,
             "`{dataset: {test measure: {train_<loss>: value}}}` in %: the supplement's table"},
            {"not_reproduced", false,
             "`{\"dataset/measure/loss\" \\| \"dataset/*/loss\" \\| dataset: reason}` for published cells not run"},
            {"tolerance", false, "a published number is matched when \\|ours − published\\| ≤ this, in % (default 1)"}};
  }
  const std::vector<MethodKind>& methods() const override { return auc_methods(); }
  void validate(const json& spec, const SpecValidator& v) const override {
    if (!spec["datasets"].is_object() || spec["datasets"].empty()) v.fail("datasets", "expected a non-empty object");
    for (const auto& [label, d] : spec["datasets"].items()) {
      const std::string where = "datasets." + label;
      v.keys(d, where, {"registry", "variant", "fold", "validation_fraction", "split_seed", "model_note", "lambda"},
             {"registry"});
      if (d.contains("lambda")) {
        const json& grid = d["lambda"];
        if (!grid.is_array() || grid.empty()) v.fail(where + ".lambda", "expected a non-empty array of positive numbers");
        for (const auto& x : grid)
          if (!x.is_number() || !(x.get<double>() > 0.0)) v.fail(where + ".lambda", "expected positive numbers, got " + x.dump());
      }
      v.registry_dataset(d, where, {"letor", "multilabel_csv"});
      if (d.contains("fold")) {
        if (!d["fold"].is_number_integer() || d["fold"].get<int>() < 1 || d["fold"].get<int>() > 5)
          v.fail(where + ".fold", "expected an integer 1..5, got " + d["fold"].dump());
      }
      if (d.contains("validation_fraction")) v.number(d, "validation_fraction", where, 0.0, 1.0, true);
      if (d.contains("split_seed")) v.number(d, "split_seed", where, 0, 1e15);
      if (d.contains("model_note")) v.string(d, "model_note", where);
    }
    if (spec.contains("bin_size")) v.number(spec, "bin_size", "", 1, 1e6);
    validate_tolerance(spec, v, 100.0);
    if (spec.contains("published")) {
      v.number_table(spec["published"], "published", 3);
      for (const auto& [dataset, rows] : spec["published"].items())
        for (const auto& [measure, columns] : rows.items())
          for (const auto& [column, value] : columns.items())
            if (column.rfind("train_", 0) != 0)
              v.fail("published." + dataset + "." + measure + "." + column, "expected a column named train_<loss>");
    }
    if (spec.contains("not_reproduced")) {
      const json& r = spec["not_reproduced"];
      if (!r.is_object()) v.fail("not_reproduced", "expected an object {cell: reason}");
      for (const auto& [k, why] : r.items())
        if (!why.is_string()) v.fail("not_reproduced." + k, "expected a string (the reason)");
    }
  }
  std::unique_ptr<FamilyRun> prepare(const json& spec) const override { return std::make_unique<AucRun>(spec); }
  // The data sets split by a seed (a MULAN set's validation part; LETOR folds are fixed files).
  std::vector<std::string> split_seeds(const json& spec) const override {
    std::vector<std::string> seeds;
    for (const auto& [label, d] : spec.value("datasets", json::object()).items())
      if (d.contains("split_seed")) seeds.push_back("datasets." + label + ".split_seed");
    return seeds;
  }
};

}  // namespace

const Family& structured_auc_family() {
  static const AucFamily family;
  return family;
}

}  // namespace mpg::harness
