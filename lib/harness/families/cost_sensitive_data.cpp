// The cost_sensitive family's data (lib/harness/families/cost_sensitive.cpp has its methods, cells and spec
// keys): loading a spec's data sets, cutting a split's parts, the optional feature scaling fitted on the
// training part, and Table 2.2's attributes.
#include "lib/harness/families/cost_sensitive.hpp"

namespace mpg::harness::cost_sensitive_impl {

std::vector<int> binary_labels(const std::vector<double>& raw) {
  std::vector<int> out;
  out.reserve(raw.size());
  for (double l : raw) out.push_back(l > 0 ? 1 : 0);
  return out;
}

std::vector<std::vector<int>> select_columns(const std::vector<std::vector<int>>& columns, const std::vector<long>& rows) {
  std::vector<std::vector<int>> out;
  for (const auto& c : columns) out.push_back(select_entries(c, rows));
  return out;
}

std::unique_ptr<Dataset> load_dataset(const std::string& label, const json& d, double bias,
                                      const std::vector<int>& default_splits) {
  auto data = std::make_unique<Dataset>();
  data->label = label;
  data->splits = d.value("splits", default_splits);
  if (d.contains("generator")) {
    data->source = "generated (galaxy, lib/data/galaxy.hpp)";
    data->fidelity = "substitute geometry: four isotropic Gaussians (sd 0.5) at (-2, 2), (-2, -2), (2, 2), (2, -2) "
                     "with the thesis' masses and positive rates; the thesis gives no geometry";
    data->generated_train = d.value("train", 18000L);
    data->generated_test = d.value("test", 7000L);
    data->features = 2;
    data->hashes = {fmt::format("galaxy {} {}", data->generated_train, data->generated_test)};
    return data;
  }
  const RegistryChoice choice = registry_choice(d);
  data->source = fmt::format("registry `{}` (`{}`)", choice.dataset, choice.variant);
  data->fidelity = choice.fidelity();
  data->exact = choice.exact();
  const std::string format = choice.entry().value("format", std::string());
  const std::string what = fmt::format("dataset '{}' ({})", choice.dataset, choice.variant);
  auto verified = [&](const json& file, const std::string& part) {
    VerifiedFile f = read_verified_file(file, what + " " + part);
    data->hashes.push_back(f.sha256);
    return f.path;  // parsed from the file by its reader; the hash is what was needed
  };
  if (format == "adult") {
    LibsvmReadOptions o;
    o.bias = bias;
    const LibsvmData train = read_adult(verified(choice.variant_entry().at("train"), "train"), o);
    const LibsvmData test = read_adult(verified(choice.variant_entry().at("test"), "test"), o);
    data->train = train.features;
    data->test = test.features;
    data->train_labels = {binary_labels(train.labels)};
    data->test_labels = {binary_labels(test.labels)};
    data->features = kAdultFeatures;
    return data;
  }
  data->multilabel = true;
  MultilabelReadOptions o;
  o.labels = choice.variant_entry().value("labels", choice.entry().value("labels", 0L));
  o.min_features = choice.entry().value("features", 0L);
  o.bias = bias;
  data->labels = o.labels;
  if (format == "multilabel_csv") {
    const MultilabelData train = read_multilabel_csv(verified(choice.variant_entry().at("train"), "train"), o);
    const MultilabelData test = read_multilabel_csv(verified(choice.variant_entry().at("test"), "test"), o);
    data->train = train.features;
    data->test = test.features;
    data->train_labels = train.labels;
    data->test_labels = test.labels;
  } else {  // multilabel_svm: one file split by rows (train_rows), or subsets without a test set
    const json& subsets = choice.variant_entry().at("subsets");
    const long train_rows = choice.variant_entry().value("train_rows", 0L);
    for (std::size_t s = 0; s < subsets.size(); ++s) {
      MultilabelData part = read_multilabel_svm(verified(subsets[s], fmt::format("subset {}", s + 1)), o);
      if (train_rows == 0) {
        data->subsets.push_back(std::move(part));
        continue;
      }
      if (part.examples() <= train_rows)
        throw InputError(part.path, fmt::format("has {} rows; the registry's train_rows is {}", part.examples(), train_rows));
      std::vector<long> train, test;
      for (long i = 0; i < part.examples(); ++i) (i < train_rows ? train : test).push_back(i);
      data->train = select_rows(part.features, train);
      data->test = select_rows(part.features, test);
      data->train_labels = select_columns(part.labels, train);
      data->test_labels = select_columns(part.labels, test);
    }
  }
  const SparseRowMatrix& any = data->subsets.empty() ? data->train : data->subsets.front().features;
  data->features = any.cols() - (bias > 0 ? 1 : 0);
  return data;
}

// Split k of a data set: test set (fixed, generated, or 1/4 of subset k), then 1/3 of the
// training data held out for validation, both content-keyed (row order does not matter).
SplitParts make_split(const Dataset& d, int split, double bias, FeatureScaling scaling) {
  SparseRowMatrix train, test;
  std::vector<std::vector<int>> train_labels, test_labels;
  if (d.generated_train > 0) {
    const GalaxySample tr = generate_galaxy(d.generated_train, kGalaxyTrainSeed + static_cast<std::uint64_t>(split));
    const GalaxySample te = generate_galaxy(d.generated_test, kGalaxyTestSeed + static_cast<std::uint64_t>(split));
    train = tr.features(bias);
    test = te.features(bias);
    train_labels = {tr.labels};
    test_labels = {te.labels};
  } else if (!d.subsets.empty()) {
    const MultilabelData& all = d.subsets.at(static_cast<std::size_t>(split - 1));
    const ContentSplit parts =
        content_split(content_keys(all.features, all.labels, kTestSeedOffset + static_cast<std::uint64_t>(split)),
                      kTestFraction);
    train = select_rows(all.features, parts.kept);
    test = select_rows(all.features, parts.held_out);
    train_labels = select_columns(all.labels, parts.kept);
    test_labels = select_columns(all.labels, parts.held_out);
  } else {
    train = d.train;
    test = d.test;
    train_labels = d.train_labels;
    test_labels = d.test_labels;
  }
  const ContentSplit parts =
      content_split(content_keys(train, train_labels, static_cast<std::uint64_t>(split)), kValidationFraction);
  SplitParts out;
  out.features.train = select_rows(train, parts.kept);
  out.features.validation = select_rows(train, parts.held_out);
  out.features.test = std::move(test);
  out.features.train_labels = select_columns(train_labels, parts.kept);
  out.validation_labels = select_columns(train_labels, parts.held_out);
  out.test_labels = std::move(test_labels);
  if (scaling != FeatureScaling::none) {
    const FeatureScaler scaler = FeatureScaler::fit(out.features.train, out.features.train.cols() - (bias > 0 ? 1 : 0), scaling);
    out.features.train = scaler.apply(out.features.train);
    out.features.validation = scaler.apply(out.features.validation);
    out.features.test = scaler.apply(out.features.test);
  }
  return out;
}

Attributes attributes_of(const Dataset& d, double bias) {
  Attributes a;
  std::vector<std::vector<int>> labels;
  if (d.generated_train > 0 || !d.subsets.empty()) {
    const SplitParts parts = make_split(d, 1, bias);
    a.train = parts.features.train.rows() + parts.features.validation.rows();
    a.test = parts.features.test.rows();
    for (std::size_t k = 0; k < parts.features.train_labels.size(); ++k) {
      std::vector<int> all = parts.features.train_labels[k];
      all.insert(all.end(), parts.validation_labels[k].begin(), parts.validation_labels[k].end());
      labels.push_back(std::move(all));
    }
  } else {
    a.train = d.train.rows();
    a.test = d.test.rows();
    labels = d.train_labels;
  }
  a.min_frequency = 100.0;
  for (const auto& column : labels) {
    long positives = 0;
    for (int y : column) positives += y;
    const double f = column.empty() ? 0.0 : 100.0 * static_cast<double>(positives) / static_cast<double>(column.size());
    a.min_frequency = std::min(a.min_frequency, f);
    a.max_frequency = std::max(a.max_frequency, f);
    const long negatives = static_cast<long>(column.size()) - positives;
    a.positive_ratio = negatives > 0 ? static_cast<double>(positives) / static_cast<double>(negatives) : 0.0;
  }
  return a;
}

}  // namespace mpg::harness::cost_sensitive_impl
