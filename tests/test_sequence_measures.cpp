// Entity-level F1 by the conlleval rules and token-level F1 of one class.
#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "lib/eval/sequence_measures.hpp"

TEST_CASE("conlleval chunk counts on a test vector", "[sequence_measures]") {
  const std::vector<std::string> gold = {"I-PER", "I-PER", "O", "I-LOC", "B-LOC", "O", "I-ORG"};
  const std::vector<std::string> guess = {"I-PER", "I-PER", "O", "I-LOC", "I-LOC", "O", "I-MISC"};
  const mpg::ChunkCounts counts = mpg::conlleval_counts(gold, guess);
  CHECK(counts.correct == std::array<std::size_t, 5>{0, 1, 0, 0, 0});
  CHECK(counts.gold == std::array<std::size_t, 5>{0, 1, 2, 1, 0});
  CHECK(counts.guessed == std::array<std::size_t, 5>{0, 1, 1, 0, 1});
  CHECK(counts.overall_f1() == Approx(2.0 / 7.0));
  CHECK(counts.f1(1) == 1.0);
  CHECK(counts.f1(2) == 0.0);
  // A chunk whose type differs inside, a chunk cut short, and a chunk at the sentence end.
  const std::vector<std::string> gold2 = {"I-ORG", "I-ORG", "I-ORG", "O", "I-PER"};
  const std::vector<std::string> guess2 = {"I-ORG", "I-ORG", "O", "O", "I-PER"};
  const auto c2 = mpg::conlleval_counts(gold2, guess2);
  CHECK(c2.correct == std::array<std::size_t, 5>{0, 1, 0, 0, 0});
  CHECK(c2.gold[3] == 1);
  CHECK(c2.guessed[3] == 1);
  // IOB2-style B- starts after O are chunk starts too; same chunks -> all correct.
  const std::vector<std::string> iob2 = {"B-LOC", "I-LOC", "O", "B-PER"};
  const std::vector<std::string> iob1 = {"I-LOC", "I-LOC", "O", "I-PER"};
  const auto c3 = mpg::conlleval_counts(iob2, iob1);
  CHECK(c3.correct == c3.gold);
  CHECK(c3.overall_f1() == 1.0);
  CHECK(mpg::tags_of_labels({0, 2, 2, 1}) == std::vector<std::string>{"O", "I-LOC", "I-LOC", "I-PER"});
}

TEST_CASE("token-level F1 of one class", "[sequence_measures]") {
  mpg::TokenCounts counts;
  counts.add({1, 1, 0, 2}, {1, 0, 1, 2}, 1);
  CHECK(counts.true_positives == 1);
  CHECK(counts.predicted == 2);
  CHECK(counts.gold == 2);
  CHECK(counts.f1() == 0.5);
  mpg::TokenCounts none;
  none.add({0, 2}, {0, 0}, 1);
  CHECK(none.f1() == 1.0);
}
