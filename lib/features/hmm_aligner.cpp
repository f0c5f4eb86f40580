// IBM Model 1 + HMM word aligner (lib/features/hmm_aligner.hpp).
#include "lib/features/hmm_aligner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <tbb/parallel_invoke.h>

#include "lib/base/error.hpp"

namespace mpg {

namespace {

// Emission floor: a word pair never seen together (or an unknown word) keeps a tiny probability,
// so every sentence pair has a positive likelihood.
constexpr double kMinTranslation = 1e-10;

std::uint64_t pair_key(std::uint32_t source, std::uint32_t target) {
  return (static_cast<std::uint64_t>(source) << 32) | target;
}

std::uint32_t add_word(const std::string& word, std::unordered_map<std::string, std::uint32_t>& index,
                       std::vector<std::string>& words) {
  const auto [it, fresh] = index.emplace(word, static_cast<std::uint32_t>(words.size()));
  if (fresh) words.push_back(word);
  return it->second;
}

std::vector<std::uint32_t> lookup(const std::vector<std::string>& words,
                                  const std::unordered_map<std::string, std::uint32_t>& index, std::uint32_t unknown) {
  std::vector<std::uint32_t> ids;
  ids.reserve(words.size());
  for (const std::string& w : words) {
    const auto it = index.find(lowercase_word(w));
    ids.push_back(it == index.end() ? unknown : it->second);
  }
  return ids;
}

}  // namespace

std::string lowercase_word(const std::string& word) {
  std::string out = word;
  for (std::size_t k = 0; k < out.size(); ++k) {
    auto byte = static_cast<unsigned char>(out[k]);
    if (byte >= 'A' && byte <= 'Z') {
      out[k] = static_cast<char>(byte + 32);
    } else if (byte == 0xC3 && k + 1 < out.size()) {
      // U+00C0..U+00DE except U+00D7 (multiplication sign): lower case is +0x20.
      auto next = static_cast<unsigned char>(out[k + 1]);
      if (next >= 0x80 && next <= 0x9E && next != 0x97) out[k + 1] = static_cast<char>(next + 0x20);
      ++k;
    } else if ((byte == 0xC4 || byte == 0xC5) && k + 1 < out.size()) {
      // Latin Extended-A U+0100..U+017F: pairs (even = upper, odd = lower) except the ranges
      // U+0138..U+0148 and U+0179..U+017E, where odd = upper; U+0178 (Ÿ) lower-cases to U+00FF.
      auto next = static_cast<unsigned char>(out[k + 1]);
      const unsigned code = ((byte & 0x1Fu) << 6) | (next & 0x3Fu);
      unsigned lower = code;
      if ((code >= 0x139 && code <= 0x148) || (code >= 0x179 && code <= 0x17E)) {
        if (code % 2 == 1) lower = code + 1;
      } else if (code == 0x178) {
        lower = 0xFF;
      } else if (code < 0x138 || (code >= 0x14A && code <= 0x177)) {
        if (code % 2 == 0) lower = code + 1;
      }
      if (lower != code) {
        out[k] = static_cast<char>(0xC0 | (lower >> 6));
        out[k + 1] = static_cast<char>(0x80 | (lower & 0x3F));
      }
      ++k;
    }
  }
  return out;
}

void IndexedCorpus::add(const std::vector<SentencePair>& pairs) {
  if (english_index_.empty()) {
    english_index_.emplace(english_words.front(), 0);
    french_index_.emplace(french_words.front(), 0);
  }
  for (const SentencePair& pair : pairs) {
    std::vector<std::uint32_t> e, f;
    for (const std::string& w : pair.english) e.push_back(add_word(lowercase_word(w), english_index_, english_words));
    for (const std::string& w : pair.french) f.push_back(add_word(lowercase_word(w), french_index_, french_words));
    english.push_back(std::move(e));
    french.push_back(std::move(f));
  }
}

std::vector<std::uint32_t> IndexedCorpus::english_ids(const std::vector<std::string>& words) const {
  return lookup(words, english_index_, static_cast<std::uint32_t>(english_words.size()));
}

std::vector<std::uint32_t> IndexedCorpus::french_ids(const std::vector<std::string>& words) const {
  return lookup(words, french_index_, static_cast<std::uint32_t>(french_words.size()));
}

DirectionalHmmAligner::DirectionalHmmAligner(AlignmentDirection direction, const HmmAlignerOptions& options)
    : direction_(direction), options_(options) {
  if (options.model1_iterations < 0 || options.hmm_iterations < 0)
    throw Error("HMM aligner: iteration counts must be >= 0");
  if (!(options.null_probability > 0.0 && options.null_probability < 1.0))
    throw Error("HMM aligner: null_probability must be in (0, 1)");
  if (options.max_jump < 1) throw Error("HMM aligner: max_jump must be >= 1");
  if (options.jump_mm_iterations < 1) throw Error("HMM aligner: jump_mm_iterations must be >= 1");
  // Before training: jumps weighted by 1 / (1 + |d|).
  jump_weights_.resize(static_cast<std::size_t>(2 * options.max_jump + 1));
  for (int b = -options.max_jump; b <= options.max_jump; ++b)
    jump_weights_[static_cast<std::size_t>(b + options.max_jump)] = 1.0 / (1.0 + std::abs(b));
}

const std::vector<std::vector<std::uint32_t>>& DirectionalHmmAligner::sources(const IndexedCorpus& corpus) const {
  return direction_ == AlignmentDirection::english_to_french ? corpus.english : corpus.french;
}

const std::vector<std::vector<std::uint32_t>>& DirectionalHmmAligner::targets(const IndexedCorpus& corpus) const {
  return direction_ == AlignmentDirection::english_to_french ? corpus.french : corpus.english;
}

double DirectionalHmmAligner::translation(std::uint32_t source, std::uint32_t target) const {
  if (!translation_trained_) return uniform_translation_;
  const auto it = parameter_ids_.find(pair_key(source, target));
  return it == parameter_ids_.end() ? 0.0 : translation_[it->second];
}

std::vector<double> DirectionalHmmAligner::emissions(const std::vector<std::uint32_t>& source,
                                                     const std::vector<std::uint32_t>& target) const {
  const std::size_t I = source.size(), J = target.size();
  std::vector<double> e(J * (I + 1));
  for (std::size_t j = 0; j < J; ++j) {
    e[j * (I + 1)] = std::max(translation(0, target[j]), kMinTranslation);
    for (std::size_t i = 0; i < I; ++i) e[j * (I + 1) + i + 1] = std::max(translation(source[i], target[j]), kMinTranslation);
  }
  return e;
}

std::vector<double> DirectionalHmmAligner::training_emissions(std::size_t k) const {
  const std::vector<std::uint32_t>& ids = cells_[k];
  std::vector<double> e(ids.size());
  for (std::size_t c = 0; c < ids.size(); ++c)
    e[c] = translation_trained_ ? std::max(translation_[ids[c]], kMinTranslation) : uniform_translation_;
  return e;
}

void DirectionalHmmAligner::index_parameters(const IndexedCorpus& corpus) {
  const auto& src = sources(corpus);
  const auto& tgt = targets(corpus);
  cells_.assign(src.size(), {});
  for (std::size_t k = 0; k < src.size(); ++k) {
    const std::size_t I = src[k].size();
    cells_[k].resize(tgt[k].size() * (I + 1));
    for (std::size_t j = 0; j < tgt[k].size(); ++j)
      for (std::size_t i = 0; i <= I; ++i) {
        const std::uint32_t source = i == 0 ? 0 : src[k][i - 1];
        const auto [it, fresh] =
            parameter_ids_.emplace(pair_key(source, tgt[k][j]), static_cast<std::uint32_t>(parameter_source_.size()));
        if (fresh) parameter_source_.push_back(source);
        cells_[k][j * (I + 1) + i] = it->second;
      }
  }
  translation_.assign(parameter_source_.size(), uniform_translation_);
}

void DirectionalHmmAligner::normalize_counts(const std::vector<double>& counts) {
  std::unordered_map<std::uint32_t, double> totals;
  for (std::size_t id = 0; id < counts.size(); ++id) totals[parameter_source_[id]] += counts[id];
  for (std::size_t id = 0; id < counts.size(); ++id) {
    const double total = totals[parameter_source_[id]];
    translation_[id] = total > 0.0 ? counts[id] / total : 0.0;
  }
  translation_trained_ = true;
}

double DirectionalHmmAligner::jump_probability(int from, int to, int source_length) const {
  const int D = options_.max_jump;
  auto weight = [&](int d) { return jump_weights_[static_cast<std::size_t>(std::clamp(d, -D, D) + D)]; };
  double total = 0.0;
  for (int i = 0; i < source_length; ++i) total += weight(i - from);
  return weight(to - from) / total;
}

std::vector<double> DirectionalHmmAligner::jump_matrix(int source_length) const {
  const int D = options_.max_jump;
  const auto I = static_cast<std::size_t>(source_length);
  std::vector<double> a((I + 1) * I);
  for (std::size_t p = 0; p <= I; ++p) {
    double total = 0.0;
    for (std::size_t i = 0; i < I; ++i) {
      const int d = std::clamp(static_cast<int>(i) - (static_cast<int>(p) - 1), -D, D);
      a[p * I + i] = jump_weights_[static_cast<std::size_t>(d + D)];
      total += a[p * I + i];
    }
    for (std::size_t i = 0; i < I; ++i) a[p * I + i] /= total;
  }
  return a;
}

void DirectionalHmmAligner::train(const IndexedCorpus& corpus) {
  const auto& target_side = direction_ == AlignmentDirection::english_to_french ? corpus.french_words : corpus.english_words;
  uniform_translation_ = 1.0 / static_cast<double>(std::max<std::size_t>(target_side.size() - 1, 1));
  index_parameters(corpus);
  for (int it = 0; it < options_.model1_iterations; ++it) model1_log_likelihood_.push_back(model1_iteration(corpus));
  for (int it = 0; it < options_.hmm_iterations; ++it) hmm_log_likelihood_.push_back(hmm_iteration(corpus));
}

double DirectionalHmmAligner::model1_iteration(const IndexedCorpus& corpus) {
  const auto& src = sources(corpus);
  std::vector<double> counts(translation_.size(), 0.0);
  double log_likelihood = 0.0;
  for (std::size_t k = 0; k < src.size(); ++k) {
    const std::size_t I = src[k].size();
    const std::vector<double> e = training_emissions(k);
    const std::vector<std::uint32_t>& ids = cells_[k];
    for (std::size_t row = 0; row < e.size(); row += I + 1) {
      double total = 0.0;
      for (std::size_t i = 0; i <= I; ++i) total += e[row + i];
      log_likelihood += std::log(total / static_cast<double>(I + 1));
      for (std::size_t i = 0; i <= I; ++i) counts[ids[row + i]] += e[row + i] / total;
    }
  }
  normalize_counts(counts);
  return log_likelihood;
}

namespace {

// The HMM quantities of one sentence pair under fixed parameters: the transition matrix to source
// words from each remembered position, the emissions, and scaled forward-backward.
struct HmmLattice {
  std::size_t I = 0, J = 0;
  double p0 = 0.0;
  std::vector<double> jump;       // (I + 1) x I: from remembered position p (row p + 1) to word i, times (1 - p0)
  std::vector<double> emission;   // J x (I + 1), column 0 = NULL
  std::vector<double> forward;    // J x (2I + 1): words 0..I-1, then NULL states remembering -1..I-1
  std::vector<double> backward;   // J x (I + 1): beta of the states remembering p (row p + 1)
  std::vector<double> scale;      // c_j
  std::vector<double> mass;       // J x (I + 1): forward mass by remembered position

  double log_likelihood() const {
    double total = 0.0;
    for (double c : scale) total += std::log(c);
    return total;
  }
};

// Runs forward-backward on a lattice whose jump and emission are set.
void forward_backward(HmmLattice& h) {
  const std::size_t I = h.I, J = h.J, S = 2 * I + 1;
  h.forward.assign(J * S, 0.0);
  h.mass.assign(J * (I + 1), 0.0);
  h.scale.assign(J, 0.0);
  h.backward.assign(J * (I + 1), 0.0);
  for (std::size_t j = 0; j < J; ++j) {
    double* f = &h.forward[j * S];
    const double* e = &h.emission[j * (I + 1)];
    if (j == 0) {
      for (std::size_t i = 0; i < I; ++i) f[i] = h.jump[i] * e[i + 1];
      f[I] = h.p0 * e[0];  // NULL remembering -1
    } else {
      const double* m = &h.mass[(j - 1) * (I + 1)];
      for (std::size_t i = 0; i < I; ++i) {
        double total = 0.0;
        for (std::size_t p = 0; p <= I; ++p) total += m[p] * h.jump[p * I + i];
        f[i] = total * e[i + 1];
      }
      for (std::size_t p = 0; p <= I; ++p) f[I + p] = h.p0 * m[p] * e[0];
    }
    double c = 0.0;
    for (std::size_t s = 0; s < S; ++s) c += f[s];
    h.scale[j] = c;
    for (std::size_t s = 0; s < S; ++s) f[s] /= c;
    double* m = &h.mass[j * (I + 1)];
    m[0] = f[I];
    for (std::size_t p = 1; p <= I; ++p) m[p] = f[p - 1] + f[I + p];
  }
  // backward[j][p + 1] = beta of both states remembering p (word p and NULL_p), scaled.
  for (std::size_t p = 0; p <= I; ++p) h.backward[(J - 1) * (I + 1) + p] = 1.0;
  for (std::size_t j = J - 1; j-- > 0;) {
    const double* e = &h.emission[(j + 1) * (I + 1)];
    const double* next = &h.backward[(j + 1) * (I + 1)];
    double* b = &h.backward[j * (I + 1)];
    for (std::size_t p = 0; p <= I; ++p) {
      double total = h.p0 * e[0] * next[p];
      for (std::size_t i = 0; i < I; ++i) total += h.jump[p * I + i] * e[i + 1] * next[i + 1];
      b[p] = total / h.scale[j + 1];
    }
  }
}

HmmLattice make_lattice(const DirectionalHmmAligner& model, std::vector<double> emission, std::size_t I, std::size_t J,
                        double p0) {
  HmmLattice h;
  h.I = I;
  h.J = J;
  h.p0 = p0;
  h.emission = std::move(emission);
  h.jump = model.jump_matrix(static_cast<int>(I));
  for (double& a : h.jump) a *= 1.0 - p0;
  forward_backward(h);
  return h;
}

}  // namespace

double DirectionalHmmAligner::hmm_iteration(const IndexedCorpus& corpus) {
  const auto& src = sources(corpus);
  const auto& tgt = targets(corpus);
  const int D = options_.max_jump;
  const std::size_t buckets = jump_weights_.size();
  std::vector<double> counts(translation_.size(), 0.0);
  std::vector<double> bucket_counts(buckets, 0.0);
  // Expected jumps out of each context (I, p): context_counts[I][p + 1].
  std::vector<std::vector<double>> context_counts;
  double log_likelihood = 0.0;
  for (std::size_t k = 0; k < src.size(); ++k) {
    const std::size_t I = src[k].size(), J = tgt[k].size(), S = 2 * I + 1;
    const HmmLattice h = make_lattice(*this, training_emissions(k), I, J, options_.null_probability);
    const std::vector<std::uint32_t>& ids = cells_[k];
    log_likelihood += h.log_likelihood();
    if (context_counts.size() <= I) context_counts.resize(I + 1);
    auto& contexts = context_counts[I];
    contexts.resize(I + 1, 0.0);
    for (std::size_t j = 0; j < J; ++j) {
      const double* f = &h.forward[j * S];
      const double* b = &h.backward[j * (I + 1)];
      // State posteriors: word i: f[i] b[i + 1]; NULL remembering p: f[I + p + 1] b[p + 1].
      double null_posterior = 0.0;
      for (std::size_t p = 0; p <= I; ++p) null_posterior += f[I + p] * b[p];
      counts[ids[j * (I + 1)]] += null_posterior;
      for (std::size_t i = 0; i < I; ++i) counts[ids[j * (I + 1) + i + 1]] += f[i] * b[i + 1];
      // Expected jumps into word i at j, from each remembered position p.
      const double* e = &h.emission[j * (I + 1)];
      for (std::size_t p = 0; p <= I; ++p) {
        const double from = j == 0 ? (p == 0 ? 1.0 : 0.0) : h.mass[(j - 1) * (I + 1) + p];
        if (from == 0.0) continue;
        double out = 0.0;
        for (std::size_t i = 0; i < I; ++i) {
          const double xi = from * h.jump[p * I + i] * e[i + 1] * b[i + 1] / h.scale[j];
          out += xi;
          const int d = std::clamp(static_cast<int>(i) - (static_cast<int>(p) - 1), -D, D);
          bucket_counts[static_cast<std::size_t>(d + D)] += xi;
        }
        contexts[p] += out;
      }
    }
  }
  normalize_counts(counts);
  // Jump weights: minorize-maximize steps c_b <- N_b / sum_ctx N_ctx m(ctx, b) / Z_ctx(c).
  auto multiplicity = [D](int I, int p, int b) {  // targets i in 0..I-1 with clamp(i - p) = b
    const int low = -p, high = I - 1 - p;       // range of d = i - p
    if (b > -D && b < D) return (b >= low && b <= high) ? 1 : 0;
    if (b == D) return std::max(0, high - D + 1);
    return std::max(0, -D - low + 1);
  };
  for (int step = 0; step < options_.jump_mm_iterations; ++step) {
    std::vector<double> denominator(buckets, 0.0);
    for (std::size_t I = 1; I < context_counts.size(); ++I) {
      for (std::size_t slot = 0; slot < context_counts[I].size(); ++slot) {
        const double n = context_counts[I][slot];
        if (n == 0.0) continue;
        const int p = static_cast<int>(slot) - 1;
        double z = 0.0;
        for (int b = -D; b <= D; ++b)
          z += multiplicity(static_cast<int>(I), p, b) * jump_weights_[static_cast<std::size_t>(b + D)];
        for (int b = -D; b <= D; ++b)
          denominator[static_cast<std::size_t>(b + D)] += n * multiplicity(static_cast<int>(I), p, b) / z;
      }
    }
    double total = 0.0;
    for (std::size_t b = 0; b < buckets; ++b) {
      if (denominator[b] > 0.0) jump_weights_[b] = bucket_counts[b] / denominator[b];
      total += jump_weights_[b];
    }
    for (double& w : jump_weights_) w /= total;
  }
  hmm_trained_ = true;
  return log_likelihood;
}

std::vector<double> DirectionalHmmAligner::posteriors(const std::vector<std::uint32_t>& source,
                                                      const std::vector<std::uint32_t>& target) const {
  const std::size_t I = source.size(), J = target.size();
  std::vector<double> out(J * (I + 1), 0.0);
  if (I == 0 || J == 0) return out;
  std::vector<double> e = emissions(source, target);
  if (!hmm_trained_) {
    for (std::size_t j = 0; j < J; ++j) {
      double total = 0.0;
      for (std::size_t i = 0; i <= I; ++i) total += e[j * (I + 1) + i];
      for (std::size_t i = 0; i <= I; ++i) out[j * (I + 1) + i] = e[j * (I + 1) + i] / total;
    }
    return out;
  }
  const HmmLattice h = make_lattice(*this, std::move(e), I, J, options_.null_probability);
  const std::size_t S = 2 * I + 1;
  for (std::size_t j = 0; j < J; ++j) {
    const double* f = &h.forward[j * S];
    const double* b = &h.backward[j * (I + 1)];
    for (std::size_t p = 0; p <= I; ++p) out[j * (I + 1)] += f[I + p] * b[p];
    for (std::size_t i = 0; i < I; ++i) out[j * (I + 1) + i + 1] = f[i] * b[i + 1];
  }
  return out;
}

double DirectionalHmmAligner::log_likelihood(const std::vector<std::uint32_t>& source,
                                             const std::vector<std::uint32_t>& target) const {
  const std::size_t I = source.size(), J = target.size();
  std::vector<double> e = emissions(source, target);
  if (!hmm_trained_) {
    double total = 0.0;
    for (std::size_t j = 0; j < J; ++j) {
      double row = 0.0;
      for (std::size_t i = 0; i <= I; ++i) row += e[j * (I + 1) + i];
      total += std::log(row / static_cast<double>(I + 1));
    }
    return total;
  }
  return make_lattice(*this, std::move(e), I, J, options_.null_probability).log_likelihood();
}

std::vector<int> DirectionalHmmAligner::viterbi(const std::vector<std::uint32_t>& source,
                                                const std::vector<std::uint32_t>& target) const {
  const std::size_t I = source.size(), J = target.size();
  std::vector<int> alignment(J, -1);
  if (I == 0 || J == 0) return alignment;
  const std::vector<double> e = emissions(source, target);
  if (!hmm_trained_) {
    for (std::size_t j = 0; j < J; ++j) {
      std::size_t best = 0;  // NULL wins ties
      for (std::size_t i = 1; i <= I; ++i)
        if (e[j * (I + 1) + i] > e[j * (I + 1) + best]) best = i;
      alignment[j] = static_cast<int>(best) - 1;
    }
    return alignment;
  }
  const double p0 = options_.null_probability;
  constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
  std::vector<double> log_jump = jump_matrix(static_cast<int>(I));
  for (double& a : log_jump) a = std::log((1.0 - p0) * a);
  const std::size_t S = 2 * I + 1;
  // States: words 0..I-1, then NULL remembering -1..I-1. back[j][s] = previous state.
  std::vector<double> score(S, kMinusInfinity), next(S);
  std::vector<int> back(J * S, -1);
  for (std::size_t i = 0; i < I; ++i) score[i] = log_jump[i] + std::log(e[i + 1]);
  score[I] = std::log(p0) + std::log(e[0]);
  std::vector<double> best_by_position(I + 1);
  std::vector<int> state_by_position(I + 1);
  for (std::size_t j = 1; j < J; ++j) {
    // Best state remembering p: word p - 1 or NULL_{p-1} (slot p; slot 0 = -1, only NULL).
    for (std::size_t slot = 0; slot <= I; ++slot) {
      double best = score[I + slot];
      int state = static_cast<int>(I + slot);
      if (slot > 0 && score[slot - 1] > best) {
        best = score[slot - 1];
        state = static_cast<int>(slot - 1);
      }
      best_by_position[slot] = best;
      state_by_position[slot] = state;
    }
    const double* row = &e[j * (I + 1)];
    for (std::size_t i = 0; i < I; ++i) {
      double best = kMinusInfinity;
      int from = -1;
      for (std::size_t slot = 0; slot <= I; ++slot) {
        const double candidate = best_by_position[slot] + log_jump[slot * I + i];
        if (candidate > best) {
          best = candidate;
          from = state_by_position[slot];
        }
      }
      next[i] = best + std::log(row[i + 1]);
      back[j * S + i] = from;
    }
    for (std::size_t slot = 0; slot <= I; ++slot) {
      next[I + slot] = best_by_position[slot] + std::log(p0) + std::log(row[0]);
      back[j * S + I + slot] = state_by_position[slot];
    }
    score.swap(next);
  }
  int state = static_cast<int>(std::max_element(score.begin(), score.end()) - score.begin());
  for (std::size_t j = J; j-- > 0;) {
    alignment[j] = state < static_cast<int>(I) ? state : -1;
    if (j > 0) state = back[j * S + static_cast<std::size_t>(state)];
  }
  return alignment;
}

std::vector<WordLink> symmetrize(const std::vector<int>& english_to_french, const std::vector<int>& french_to_english,
                                 std::size_t english_length, std::size_t french_length, Symmetrization method) {
  if (english_to_french.size() != french_length || french_to_english.size() != english_length)
    throw Error("symmetrize: alignment lengths do not match the sentence lengths");
  const std::size_t I = english_length, J = french_length;
  std::vector<char> forward(I * J, 0), reverse(I * J, 0);
  for (std::size_t j = 0; j < J; ++j)
    if (english_to_french[j] >= 0) forward[static_cast<std::size_t>(english_to_french[j]) * J + j] = 1;
  for (std::size_t i = 0; i < I; ++i)
    if (french_to_english[i] >= 0) reverse[i * J + static_cast<std::size_t>(french_to_english[i])] = 1;
  std::vector<char> chosen(I * J, 0);
  for (std::size_t p = 0; p < I * J; ++p) {
    chosen[p] = method == Symmetrization::union_of_both ? (forward[p] || reverse[p]) : (forward[p] && reverse[p]);
  }
  if (method == Symmetrization::grow_diag_final || method == Symmetrization::grow_diag_final_and) {
    std::vector<char> english_aligned(I, 0), french_aligned(J, 0);
    for (std::size_t i = 0; i < I; ++i)
      for (std::size_t j = 0; j < J; ++j)
        if (chosen[i * J + j]) english_aligned[i] = french_aligned[j] = 1;
    auto in_union = [&](std::size_t i, std::size_t j) { return forward[i * J + j] || reverse[i * J + j]; };
    auto add = [&](std::size_t i, std::size_t j) {
      chosen[i * J + j] = 1;
      english_aligned[i] = french_aligned[j] = 1;
    };
    // Grow: repeat until nothing is added; links visited in (english, french) order.
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t i = 0; i < I; ++i)
        for (std::size_t j = 0; j < J; ++j) {
          if (!chosen[i * J + j]) continue;
          for (int di = -1; di <= 1; ++di)
            for (int dj = -1; dj <= 1; ++dj) {
              if (di == 0 && dj == 0) continue;
              const long ni = static_cast<long>(i) + di, nj = static_cast<long>(j) + dj;
              if (ni < 0 || nj < 0 || ni >= static_cast<long>(I) || nj >= static_cast<long>(J)) continue;
              const auto a = static_cast<std::size_t>(ni), b = static_cast<std::size_t>(nj);
              if (chosen[a * J + b] || !in_union(a, b)) continue;
              if (!english_aligned[a] || !french_aligned[b]) {
                add(a, b);
                grew = true;
              }
            }
        }
    }
    // Final: union links of still-unaligned words (both unaligned for "-and").
    const bool both = method == Symmetrization::grow_diag_final_and;
    for (std::size_t i = 0; i < I; ++i)
      for (std::size_t j = 0; j < J; ++j) {
        if (chosen[i * J + j] || !in_union(i, j)) continue;
        const bool free_e = !english_aligned[i], free_f = !french_aligned[j];
        if (both ? (free_e && free_f) : (free_e || free_f)) add(i, j);
      }
  }
  std::vector<WordLink> links;
  for (std::size_t i = 0; i < I; ++i)
    for (std::size_t j = 0; j < J; ++j)
      if (chosen[i * J + j]) links.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), true});
  return links;
}

BidirectionalAligner BidirectionalAligner::train(const std::vector<SentencePair>& pairs, const HmmAlignerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BidirectionalAligner aligner;
  aligner.corpus.add(pairs);
  aligner.english_to_french = DirectionalHmmAligner(AlignmentDirection::english_to_french, options);
  aligner.french_to_english = DirectionalHmmAligner(AlignmentDirection::french_to_english, options);
  // The two directions are independent: trained in parallel (the same result on any thread count).
  tbb::parallel_invoke([&] { aligner.english_to_french.train(aligner.corpus); },
                       [&] { aligner.french_to_english.train(aligner.corpus); });
  aligner.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return aligner;
}

std::vector<WordLink> BidirectionalAligner::align(const SentencePair& pair, Symmetrization method) const {
  const auto e = corpus.english_ids(pair.english);
  const auto f = corpus.french_ids(pair.french);
  // english_to_french: sources are English words; its Viterbi gives the English index of each
  // French word.
  return symmetrize(english_to_french.viterbi(e, f), french_to_english.viterbi(f, e), e.size(), f.size(), method);
}

namespace {

// Link posteriors of a direction as an |e| x |f| grid: `model` aligns target words to source words
// (posteriors() is |target| x (|source| + 1), column 0 = NULL); source_is_english says which side
// the grid's rows are.
std::vector<double> link_posteriors(const DirectionalHmmAligner& model, const std::vector<std::uint32_t>& source,
                                    const std::vector<std::uint32_t>& target, bool source_is_english) {
  const std::vector<double> post = model.posteriors(source, target);
  const std::size_t I = source.size(), J = target.size();
  std::vector<double> out(I * J);
  for (std::size_t j = 0; j < J; ++j)
    for (std::size_t i = 0; i < I; ++i)
      out[source_is_english ? i * J + j : j * I + i] = post[j * (I + 1) + i + 1];
  return out;
}

}  // namespace

std::vector<double> BidirectionalAligner::english_to_french_posteriors(const SentencePair& pair) const {
  return link_posteriors(english_to_french, corpus.english_ids(pair.english), corpus.french_ids(pair.french), true);
}

std::vector<double> BidirectionalAligner::french_to_english_posteriors(const SentencePair& pair) const {
  return link_posteriors(french_to_english, corpus.french_ids(pair.french), corpus.english_ids(pair.english), false);
}

}  // namespace mpg
