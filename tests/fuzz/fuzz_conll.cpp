// libFuzzer target: the CoNLL-2003 reader (lib/data/conll.hpp), whole file and a window of
// sentences, and the features of every token. Seed corpus: tests/fuzz/conll/.
#include "lib/data/conll.hpp"
#include "lib/eval/sequence_measures.hpp"
#include "tests/fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mpg::fuzz::parse_or_reject(data, size, [](const std::string& text) {
    const auto sentences = mpg::parse_conll(text, "fuzz.conll");
    for (const auto& sentence : sentences) {
      mpg::fuzz::require(sentence.size() > 0, "no empty sentence");
      mpg::fuzz::require(sentence.tags.size() == sentence.size() && sentence.labels.size() == sentence.size() &&
                             sentence.pos.size() == sentence.size() && sentence.chunks.size() == sentence.size(),
                         "one tag, label, POS and chunk per word");
      for (std::size_t t = 0; t < sentence.size(); ++t) (void)mpg::token_feature_strings(sentence, t);
    }
    const auto window = mpg::parse_conll(text, "fuzz.conll", 1, 2);
    mpg::fuzz::require(window.size() <= 2, "a window of at most 2 sentences");
    (void)mpg::conll_statistics(sentences);
  });
}
