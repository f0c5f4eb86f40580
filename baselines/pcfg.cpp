// Treebank and Markovized PCFGs, the stand-in for the Stanford parser (baselines/pcfg.hpp).
#include "baselines/pcfg.hpp"

#include <cmath>

#include "lib/base/error.hpp"

namespace mpg {

PcfgOptions pcfg_preset(const std::string& name) {
  if (name == "treebank") return PcfgOptions{{-1, false}};
  if (name == "markovized") return PcfgOptions{{2, true}};
  throw Error("PCFG: unknown preset '" + name + "' (expected treebank or markovized)");
}

Pcfg train_pcfg(const std::vector<PtbTree>& trees, const PcfgOptions& options) {
  if (trees.empty()) throw Error("PCFG: no training trees");
  std::vector<PtbTree> cnf;
  cnf.reserve(trees.size());
  for (const PtbTree& t : trees) cnf.push_back(to_cnf(t, options.binarization));
  Pcfg pcfg;
  pcfg.grammar = Grammar::from_cnf_trees(cnf);
  pcfg.binarization = options.binarization;
  pcfg.fallback_label = most_frequent_root(cnf);
  const Grammar& g = pcfg.grammar;
  std::vector<double> counts(g.rule_count(), 0.0);
  for (const PtbTree& t : cnf) {
    const std::vector<int> tags = g.tag_ids(cnf_tags(t));
    for (const auto& [rule, count] : rule_counts(g, tags, encode_parse(g, t))) counts[static_cast<std::size_t>(rule)] += count;
  }
  // Left-hand side of each rule: its parent / leaf label, or the shared TOP (index L).
  const std::size_t L = g.label_count();
  std::vector<std::size_t> lhs(g.rule_count(), L);
  for (std::size_t r = 0; r < g.binary_rule_count(); ++r) lhs[r] = static_cast<std::size_t>(g.binary_rules()[r].parent);
  for (std::size_t r = 0; r < g.lexical_rule_count(); ++r)
    lhs[g.binary_rule_count() + r] = static_cast<std::size_t>(g.lexical_rules()[r].label);
  std::vector<double> totals(L + 1, 0.0);
  for (std::size_t r = 0; r < counts.size(); ++r) totals[lhs[r]] += counts[r];
  pcfg.log_probabilities.resize(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) pcfg.log_probabilities[r] = std::log(counts[r] / totals[lhs[r]]);
  if (options.binarization.horizontal != 0 || options.binarization.parent_annotation)
    pcfg.backoff.push_back(train_pcfg(trees, PcfgOptions{{0, false}}));
  return pcfg;
}

TreePrediction pcfg_parse(const Pcfg& pcfg, const std::vector<std::string>& tags, const std::vector<std::string>& words) {
  TreePrediction prediction = predict_tree(pcfg.grammar, tags, words, pcfg.log_probabilities, pcfg.fallback_label);
  if (prediction.fallback && !pcfg.backoff.empty()) {
    prediction = pcfg_parse(pcfg.backoff.front(), tags, words);
    prediction.fallback = true;
  }
  return prediction;
}

}  // namespace mpg
