// SHA-256 after FIPS 180-4 §6.2: 64-byte blocks, a 64-word message schedule, 64 rounds per block.
#include "lib/base/sha256.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "lib/base/error.hpp"

namespace mpg {
namespace {

// K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
constexpr std::array<std::uint32_t, 64> kRoundConstants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes
// (§5.3.3).
constexpr std::array<std::uint32_t, 8> kInitialHash = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                                       0xa54ff53a, 0x510e527f, 0x9b05688c,
                                                       0x1f83d9ab, 0x5be0cd19};

constexpr std::size_t kBlockBytes = 64;

// Incremental hasher: feed bytes with update(), then call hex_digest() once.
class Sha256 {
 public:
  void update(std::string_view bytes) {
    total_bytes_ += bytes.size();
    if (buffered_ > 0) {  // top up a partial block first
      const std::size_t take = std::min(kBlockBytes - buffered_, bytes.size());
      std::copy_n(bytes.data(), take, pending_.data() + buffered_);
      buffered_ += take;
      bytes.remove_prefix(take);
      if (buffered_ < kBlockBytes) return;
      compress(pending_.data());
      buffered_ = 0;
    }
    for (; bytes.size() >= kBlockBytes; bytes.remove_prefix(kBlockBytes)) compress(bytes.data());
    std::copy_n(bytes.data(), bytes.size(), pending_.data());
    buffered_ = bytes.size();
  }

  // Pads the message (§5.1.1: a 1 bit, zeros, the 64-bit big-endian bit length) and formats H.
  std::string hex_digest() {
    const std::uint64_t bit_length = total_bytes_ * 8;
    pending_[buffered_++] = static_cast<char>(0x80);
    if (buffered_ > kBlockBytes - 8) {
      std::fill(pending_.begin() + static_cast<std::ptrdiff_t>(buffered_), pending_.end(), '\0');
      compress(pending_.data());
      buffered_ = 0;
    }
    std::fill(pending_.begin() + static_cast<std::ptrdiff_t>(buffered_), pending_.end() - 8, '\0');
    for (std::size_t i = 0; i < 8; ++i) {
      pending_[kBlockBytes - 1 - i] = static_cast<char>((bit_length >> (8 * i)) & 0xff);
    }
    compress(pending_.data());
    buffered_ = 0;

    std::string hex;
    hex.reserve(64);
    for (const std::uint32_t word : hash_) fmt::format_to(std::back_inserter(hex), "{:08x}", word);
    return hex;
  }

 private:
  // Processes one 64-byte block (§6.2.2 steps 1-4).
  void compress(const char* block) {
    std::array<std::uint32_t, 64> w{};
    for (std::size_t t = 0; t < 16; ++t) {
      std::uint32_t word = 0;
      for (std::size_t b = 0; b < 4; ++b) {
        word = (word << 8) | static_cast<unsigned char>(block[4 * t + b]);
      }
      w[t] = word;
    }
    for (std::size_t t = 16; t < 64; ++t) {
      const std::uint32_t w15 = w[t - 15];
      const std::uint32_t w2 = w[t - 2];
      const std::uint32_t small_sigma0 = std::rotr(w15, 7) ^ std::rotr(w15, 18) ^ (w15 >> 3);
      const std::uint32_t small_sigma1 = std::rotr(w2, 17) ^ std::rotr(w2, 19) ^ (w2 >> 10);
      w[t] = w[t - 16] + small_sigma0 + w[t - 7] + small_sigma1;
    }

    std::uint32_t a = hash_[0], b = hash_[1], c = hash_[2], d = hash_[3];
    std::uint32_t e = hash_[4], f = hash_[5], g = hash_[6], h = hash_[7];
    for (std::size_t t = 0; t < 64; ++t) {
      const std::uint32_t big_sigma1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
      const std::uint32_t choose = (e & f) ^ (~e & g);
      const std::uint32_t t1 = h + big_sigma1 + choose + kRoundConstants[t] + w[t];
      const std::uint32_t big_sigma0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
      const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
      const std::uint32_t t2 = big_sigma0 + majority;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    hash_[0] += a;
    hash_[1] += b;
    hash_[2] += c;
    hash_[3] += d;
    hash_[4] += e;
    hash_[5] += f;
    hash_[6] += g;
    hash_[7] += h;
  }

  std::array<std::uint32_t, 8> hash_ = kInitialHash;
  std::array<char, kBlockBytes> pending_{};  // bytes of the current, incomplete block
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.hex_digest();
}

std::string sha256_file_hex(const std::string& path) {
  std::error_code ignored;
  // An ifstream opens a directory without complaint and then reads nothing; refuse it here.
  if (std::filesystem::is_directory(path, ignored)) throw InputError(path, "cannot open file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open file");
  Sha256 hasher;
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    hasher.update(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) throw InputError(path, "cannot read file");
  return hasher.hex_digest();
}

}  // namespace mpg
