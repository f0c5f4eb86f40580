// Word-pair features for word alignment (lib/features/alignment_features.hpp).
#include "lib/features/alignment_features.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <tbb/parallel_for.h>

#include "lib/base/error.hpp"

namespace mpg {

namespace {

std::uint32_t intern(const std::string& word, std::unordered_map<std::string, std::uint32_t>& ids,
                     std::vector<std::uint32_t>& counts) {
  const auto [it, fresh] = ids.emplace(word, static_cast<std::uint32_t>(counts.size()));
  if (fresh) counts.push_back(0);
  return it->second;
}

// Distinct ids of a sentence's lower-cased words, added to the vocabulary.
std::vector<std::uint32_t> distinct_ids(const std::vector<std::string>& words,
                                        std::unordered_map<std::string, std::uint32_t>& ids,
                                        std::vector<std::uint32_t>& counts) {
  std::vector<std::uint32_t> out;
  for (const std::string& w : words) out.push_back(intern(lowercase_word(w), ids, counts));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool is_punctuation(const std::string& word) {
  return std::none_of(word.begin(), word.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || std::isalnum(u) != 0;  // bytes of multi-byte UTF-8 letters count as letters
  });
}

std::size_t levenshtein(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

AssociationStatistics::AssociationStatistics(const std::vector<SentencePair>& corpus) {
  for (const SentencePair& pair : corpus) {
    ++pairs_;
    const auto e = distinct_ids(pair.english, english_ids_, english_counts_);
    const auto f = distinct_ids(pair.french, french_ids_, french_counts_);
    for (std::uint32_t x : e) ++english_counts_[x];
    for (std::uint32_t y : f) ++french_counts_[y];
    for (std::uint32_t x : e)
      for (std::uint32_t y : f) ++pair_counts_[(static_cast<std::uint64_t>(x) << 32) | y];
  }
}

std::size_t AssociationStatistics::english_count(const std::string& english) const {
  const auto it = english_ids_.find(english);
  return it == english_ids_.end() ? 0 : english_counts_[it->second];
}

std::size_t AssociationStatistics::french_count(const std::string& french) const {
  const auto it = french_ids_.find(french);
  return it == french_ids_.end() ? 0 : french_counts_[it->second];
}

double AssociationStatistics::dice(const std::string& english, const std::string& french) const {
  const auto e = english_ids_.find(english);
  const auto f = french_ids_.find(french);
  if (e == english_ids_.end() || f == french_ids_.end()) return 0.0;
  const auto both = pair_counts_.find((static_cast<std::uint64_t>(e->second) << 32) | f->second);
  if (both == pair_counts_.end()) return 0.0;
  return 2.0 * both->second / static_cast<double>(english_counts_[e->second] + french_counts_[f->second]);
}

std::vector<std::string> alignment_feature_names(const AlignmentFeatureOptions& options) {
  std::vector<std::string> names = {"bias",          "dice",          "dice_best_english", "dice_best_french",
                                    "dice_best_both", "dice_diagonal", "relative_distance", "identical",
                                    "prefix4",       "edit_similarity", "punctuation_both", "punctuation_one",
                                    "frequency_difference"};
  if (options.aligner) {
    names.push_back("aligner_intersection");
    names.push_back("aligner_grow_diag_final");
    if (options.aligner_posteriors) names.push_back("aligner_posterior");
  }
  return names;
}

AlignmentAction gold_action(const SentencePair& pair) {
  AlignmentAction gold;
  for (const WordLink& link : pair.links)
    gold.push_back(link_code(static_cast<std::uint32_t>(link.english * pair.french.size() + link.french), !link.sure));
  std::sort(gold.begin(), gold.end());
  return gold;
}

AlignmentInstance featurize_pair(const SentencePair& pair, const AssociationStatistics& statistics,
                                 const BidirectionalAligner* aligner, const AlignmentFeatureOptions& options) {
  if (options.aligner && aligner == nullptr) throw Error("alignment features: the aligner features need a trained aligner");
  if (pair.english.empty() || pair.french.empty()) throw Error("alignment features: empty sentence in pair " + pair.id);
  const std::size_t I = pair.english.size(), J = pair.french.size();
  std::vector<std::string> e(I), f(J);
  for (std::size_t i = 0; i < I; ++i) e[i] = lowercase_word(pair.english[i]);
  for (std::size_t j = 0; j < J; ++j) f[j] = lowercase_word(pair.french[j]);
  std::vector<double> dice(I * J);
  for (std::size_t i = 0; i < I; ++i)
    for (std::size_t j = 0; j < J; ++j) dice[i * J + j] = statistics.dice(e[i], f[j]);
  std::vector<double> best_for_english(I, 0.0), best_for_french(J, 0.0);
  for (std::size_t i = 0; i < I; ++i)
    for (std::size_t j = 0; j < J; ++j) {
      best_for_english[i] = std::max(best_for_english[i], dice[i * J + j]);
      best_for_french[j] = std::max(best_for_french[j], dice[i * J + j]);
    }
  std::vector<char> intersection(I * J, 0), grown(I * J, 0);
  std::vector<double> posterior;
  if (options.aligner) {
    for (const WordLink& l : aligner->align(pair, Symmetrization::intersection)) intersection[l.english * J + l.french] = 1;
    for (const WordLink& l : aligner->align(pair, Symmetrization::grow_diag_final)) grown[l.english * J + l.french] = 1;
    if (options.aligner_posteriors) {
      posterior = aligner->english_to_french_posteriors(pair);
      const std::vector<double> reverse = aligner->french_to_english_posteriors(pair);
      for (std::size_t p = 0; p < posterior.size(); ++p) posterior[p] = 0.5 * (posterior[p] + reverse[p]);
    }
  }
  const double log_pairs = std::log(1.0 + static_cast<double>(statistics.pairs()));
  const std::size_t d = alignment_feature_names(options).size();

  AlignmentInstance instance;
  instance.id = pair.id;
  instance.english_length = I;
  instance.french_length = J;
  instance.gold = gold_action(pair);
  instance.features.resize(static_cast<Eigen::Index>(I * J), static_cast<Eigen::Index>(d));
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t i = 0; i < I; ++i) {
    for (std::size_t j = 0; j < J; ++j) {
      const auto row = static_cast<Eigen::Index>(i * J + j);
      Eigen::Index column = 0;
      auto put = [&](double value) {
        if (value != 0.0) entries.emplace_back(row, column, value);
        ++column;
      };
      const double dj = dice[i * J + j];
      const bool best_e = dj > 0.0 && dj == best_for_english[i];
      const bool best_f = dj > 0.0 && dj == best_for_french[j];
      const double before = i > 0 && j > 0 ? dice[(i - 1) * J + j - 1] : 0.0;
      const double after = i + 1 < I && j + 1 < J ? dice[(i + 1) * J + j + 1] : 0.0;
      const std::string& a = e[i];
      const std::string& b = f[j];
      const bool punctuation_a = is_punctuation(a), punctuation_b = is_punctuation(b);
      const double longest = static_cast<double>(std::max(a.size(), b.size()));
      put(1.0);
      put(dj);
      put(best_e ? 1.0 : 0.0);
      put(best_f ? 1.0 : 0.0);
      put(best_e && best_f ? 1.0 : 0.0);
      put(0.5 * (before + after));
      put(std::abs((static_cast<double>(i) + 0.5) / static_cast<double>(I) -
                   (static_cast<double>(j) + 0.5) / static_cast<double>(J)));
      put(a == b ? 1.0 : 0.0);
      put(a != b && a.size() >= 4 && b.size() >= 4 && a.compare(0, 4, b, 0, 4) == 0 ? 1.0 : 0.0);
      put(a.size() >= 3 && b.size() >= 3 ? 1.0 - static_cast<double>(levenshtein(a, b)) / longest : 0.0);
      put(punctuation_a && punctuation_b ? 1.0 : 0.0);
      put(punctuation_a != punctuation_b ? 1.0 : 0.0);
      put(std::abs(std::log1p(static_cast<double>(statistics.english_count(a))) -
                   std::log1p(static_cast<double>(statistics.french_count(b)))) /
          log_pairs);
      if (options.aligner) {
        put(intersection[i * J + j] ? 1.0 : 0.0);
        put(grown[i * J + j] ? 1.0 : 0.0);
        if (options.aligner_posteriors) put(posterior[i * J + j]);
      }
    }
  }
  instance.features.setFromTriplets(entries.begin(), entries.end());
  return instance;
}

std::vector<AlignmentInstance> featurize_pairs(const std::vector<SentencePair>& pairs,
                                               const AssociationStatistics& statistics,
                                               const BidirectionalAligner* aligner,
                                               const AlignmentFeatureOptions& options) {
  if (options.aligner && aligner == nullptr) throw Error("alignment features: the aligner features need a trained aligner");
  std::vector<AlignmentInstance> instances(pairs.size());
  tbb::parallel_for(std::size_t{0}, pairs.size(), [&](std::size_t k) {
    instances[k] = featurize_pair(pairs[k], statistics, aligner, options);
  });
  return instances;
}

}  // namespace mpg
