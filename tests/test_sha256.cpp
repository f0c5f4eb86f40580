// Tests for SHA-256: the FIPS 180-4 example messages, padding boundaries, and file hashing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/temp_dir.hpp"
#include "lib/base/error.hpp"
#include "lib/base/sha256.hpp"

namespace fs = std::filesystem;
using mpg::testing::TempDir;

namespace {

// The first `length` letters of "abcdefghijklmnopqrstuvwxyzabcd...".
std::string alphabet_prefix(std::size_t length) {
  std::string text(length, 'a');
  for (std::size_t i = 0; i < length; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

}  // namespace

TEST_CASE("sha256_hex matches the FIPS 180-4 examples", "[sha256]") {
  CHECK(mpg::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(mpg::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(mpg::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(mpg::sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                        "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(mpg::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256_hex pads correctly around the 56- and 64-byte block boundaries", "[sha256]") {
  // Reference digests from coreutils sha256sum.
  const std::vector<std::pair<std::size_t, std::string>> cases = {
      {55, "595615dbe4f0f407ae397d08b4c2cb870cb9b0e11937416f950c5160acf9c005"},
      {56, "784f623b787495078e93ff28a25b581df0584055a7e71d8cd90c454716b92f51"},
      {63, "5ca3e1ef5207490eac01a795e5cc94d59582a5118bf9534665c8668d87aa647c"},
      {64, "2fcd5a0d60e4c941381fcc4e00a4bf8be422c3ddfafb93c809e8d1e2bfffae8e"},
      {65, "1b3cd1877ab2f2f19f7be001722554f336cb799df0329de0bb4c118dc6abc06d"},
      {119, "faef67da856d6fd9c8d12f9ed0a4fefd3cf0ce085ab43e2907418d457e3c354b"},
      {120, "c9512b08619c19fbb503c7da6b46ef20301e5f7a7a5f43989182398536f5c5c8"},
      {128, "6c05be2c4268843ae47e68e611277ce62c02153f2f4d2e1e2a1a4b44f766cf74"},
  };
  for (const auto& [length, digest] : cases) {
    INFO("length " << length);
    CHECK(mpg::sha256_hex(alphabet_prefix(length)) == digest);
  }
}

TEST_CASE("sha256_file_hex hashes a file's bytes as sha256_hex does", "[sha256]") {
  TempDir dir;
  const std::string empty = dir.write("empty.bin", "");
  CHECK(mpg::sha256_file_hex(empty) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string abc = dir.write("abc.txt", "abc");
  CHECK(mpg::sha256_file_hex(abc) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

  // Larger than the read chunk, a multiple of neither it nor the block size, all byte values.
  std::string bytes(200003, '\0');
  std::mt19937 random(7);
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xff);
  const std::string binary = dir.write("random.bin", bytes);
  CHECK(mpg::sha256_file_hex(binary) == mpg::sha256_hex(bytes));

  const std::string million = dir.write("million.txt", std::string(1000000, 'a'));
  CHECK(mpg::sha256_file_hex(million) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256_file_hex reports files it cannot read", "[sha256]") {
  TempDir dir;
  const std::string missing = dir.path().string() + "/missing.bin";
  CHECK_THROWS_MATCHES(mpg::sha256_file_hex(missing), mpg::InputError,
                       Catch::Matchers::Message(missing + ": cannot open file"));
  CHECK_THROWS_MATCHES(mpg::sha256_file_hex(dir.path().string()), mpg::InputError,
                       Catch::Matchers::Message(dir.path().string() + ": cannot open file"));
}
