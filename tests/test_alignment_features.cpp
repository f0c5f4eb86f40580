// Word-pair features for word alignment: the association counts and Dice by hand, every feature's
// definition on a hand-made pair, gold actions, and the aligner feature group.
#include <catch2/catch.hpp>

#include <cmath>

#include "lib/base/error.hpp"
#include "lib/features/alignment_features.hpp"

namespace {

mpg::SentencePair pair_of(std::vector<std::string> english, std::vector<std::string> french,
                          std::vector<mpg::WordLink> links = {}) {
  mpg::SentencePair p;
  p.english = std::move(english);
  p.french = std::move(french);
  p.links = std::move(links);
  return p;
}

std::vector<mpg::SentencePair> corpus() {
  return {pair_of({"the", "house"}, {"la", "maison"}), pair_of({"The", "flower"}, {"la", "fleur"}),
          pair_of({"a", "house"}, {"une", "maison"}), pair_of({"parliament", "."}, {"parlement", "."})};
}

// Value of the named feature at word pair (english, french).
double feature(const mpg::AlignmentInstance& instance, const std::vector<std::string>& names, const std::string& name,
               std::size_t english, std::size_t french) {
  const auto column = std::find(names.begin(), names.end(), name) - names.begin();
  REQUIRE(column < static_cast<long>(names.size()));
  return instance.features.coeff(static_cast<Eigen::Index>(english * instance.french_length + french), column);
}

}  // namespace

TEST_CASE("association counts and Dice by hand", "[alignment_features]") {
  const mpg::AssociationStatistics statistics(corpus());
  CHECK(statistics.pairs() == 4);
  CHECK(statistics.english_count("the") == 2);  // "The" lower-cased
  CHECK(statistics.french_count("maison") == 2);
  CHECK(statistics.dice("the", "la") == 1.0);
  CHECK(statistics.dice("house", "maison") == 1.0);
  CHECK(statistics.dice("the", "maison") == 0.5);  // 2 x 1 / (2 + 2)
  CHECK(statistics.dice("a", "la") == 0.0);
  CHECK(statistics.dice("unknown", "la") == 0.0);
}

TEST_CASE("every feature's definition on a hand-made pair", "[alignment_features]") {
  const mpg::AssociationStatistics statistics(corpus());
  const mpg::AlignmentFeatureOptions options;
  const auto names = mpg::alignment_feature_names(options);
  CHECK(names.size() == 13);
  // English: the house parliament . ; French: la maison parlement .
  const auto pair = pair_of({"the", "house", "parliament", "."}, {"la", "maison", "parlement", "."},
                            {{0, 0, true}, {1, 1, true}, {2, 2, false}, {3, 3, true}});
  const mpg::AlignmentInstance x = mpg::featurize_pair(pair, statistics, nullptr, options);
  REQUIRE(x.positions() == 16);
  REQUIRE(x.features.cols() == 13);
  CHECK(feature(x, names, "bias", 2, 1) == 1.0);
  CHECK(feature(x, names, "dice", 0, 1) == 0.5);
  CHECK(feature(x, names, "dice_best_english", 0, 0) == 1.0);  // la beats maison for "the"
  CHECK(feature(x, names, "dice_best_english", 0, 1) == 0.0);
  CHECK(feature(x, names, "dice_best_french", 1, 1) == 1.0);  // maison: house 1 beats the 0.5
  CHECK(feature(x, names, "dice_best_french", 0, 1) == 0.0);
  CHECK(feature(x, names, "dice_best_both", 1, 1) == 1.0);
  // Diagonal neighbours of (1, 1): (0, 0) Dice 1 and (2, 2) Dice 1.
  CHECK(feature(x, names, "dice_diagonal", 1, 1) == 1.0);
  CHECK(feature(x, names, "dice_diagonal", 0, 0) == 0.5);  // only (1, 1), halved
  CHECK(feature(x, names, "relative_distance", 0, 0) == 0.0);
  CHECK(feature(x, names, "relative_distance", 0, 3) == Approx(0.75));
  CHECK(feature(x, names, "identical", 3, 3) == 1.0);
  CHECK(feature(x, names, "identical", 2, 2) == 0.0);
  CHECK(feature(x, names, "prefix4", 2, 2) == 1.0);  // parl-
  CHECK(feature(x, names, "prefix4", 3, 3) == 0.0);
  // parliament -> parlement: drop 'i', a -> e: 2 edits over 10 bytes.
  CHECK(feature(x, names, "edit_similarity", 2, 2) == Approx(0.8));
  CHECK(feature(x, names, "edit_similarity", 0, 0) == 0.0);  // "la" is shorter than 3 bytes
  CHECK(feature(x, names, "punctuation_both", 3, 3) == 1.0);
  CHECK(feature(x, names, "punctuation_one", 2, 3) == 1.0);
  CHECK(feature(x, names, "punctuation_one", 2, 2) == 0.0);
  // |ln(1 + C(e)) - ln(1 + C(f))| / ln(1 + N): the and la both in 2 pairs; parliament in 1, maison in 2.
  CHECK(feature(x, names, "frequency_difference", 0, 0) == 0.0);
  CHECK(feature(x, names, "frequency_difference", 2, 1) == Approx((std::log(3.0) - std::log(2.0)) / std::log(5.0)));
  // Gold: sure and possible-only codes at english * 4 + french.
  CHECK(x.gold == mpg::AlignmentAction{mpg::link_code(0), mpg::link_code(5), mpg::link_code(10, true), mpg::link_code(15)});
}

TEST_CASE("the aligner feature group", "[alignment_features]") {
  const auto text = corpus();
  const mpg::AssociationStatistics statistics(text);
  mpg::AlignmentFeatureOptions options;
  options.aligner = true;
  CHECK_THROWS_AS(mpg::featurize_pair(text[0], statistics, nullptr, options), mpg::Error);
  const mpg::BidirectionalAligner aligner = mpg::BidirectionalAligner::train(text);
  const auto names = mpg::alignment_feature_names(options);
  REQUIRE(names.size() == 15);
  const mpg::AlignmentInstance x = mpg::featurize_pair(text[0], statistics, &aligner, options);
  // the-la and house-maison in both directions.
  CHECK(feature(x, names, "aligner_intersection", 0, 0) == 1.0);
  CHECK(feature(x, names, "aligner_intersection", 1, 1) == 1.0);
  CHECK(feature(x, names, "aligner_intersection", 0, 1) == 0.0);
  CHECK(feature(x, names, "aligner_grow_diag_final", 1, 1) == 1.0);
  options.aligner_posteriors = true;
  const auto with_posteriors = mpg::alignment_feature_names(options);
  REQUIRE(with_posteriors.back() == "aligner_posterior");
  const mpg::AlignmentInstance y = mpg::featurize_pair(text[0], statistics, &aligner, options);
  const double p = feature(y, with_posteriors, "aligner_posterior", 1, 1);
  CHECK(p > 0.5);
  CHECK(p <= 1.0);
}

TEST_CASE("featurize_pairs keeps the order of the pairs", "[alignment_features]") {
  const auto text = corpus();
  const mpg::AssociationStatistics statistics(text);
  const auto all = mpg::featurize_pairs(text, statistics, nullptr, {});
  REQUIRE(all.size() == text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    const auto one = mpg::featurize_pair(text[k], statistics, nullptr, {});
    CHECK(all[k].english_length == one.english_length);
    CHECK(Eigen::MatrixXd(all[k].features) == Eigen::MatrixXd(one.features));
  }
  mpg::AlignmentFeatureOptions with_aligner;
  with_aligner.aligner = true;
  CHECK_THROWS_AS(mpg::featurize_pairs(text, statistics, nullptr, with_aligner), mpg::Error);
}
