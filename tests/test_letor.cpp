// LETOR files: the reader (format, errors with file and line), transparent .xz reading in
// read_file (fixtures written here with liblzma), and the shared MQ2008 / OHSUMED subsets when
// the data directory is present.
#include <catch2/catch.hpp>
#include <lzma.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"
#include "lib/base/error.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/base/io.hpp"
#include "lib/data/letor.hpp"
#include "lib/base/sha256.hpp"

using mpg::testing::TempDir;
using Catch::Matchers::Contains;

namespace {

std::string xz_compress(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t used = 0;
  REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                  text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &used, out.size()) == LZMA_OK);
  out.resize(used);
  return out;
}

std::string error_of(const std::string& path) {
  try {
    mpg::read_letor(path);
  } catch (const mpg::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kSample =
    "2 qid:10 1:0.5 2:1 3:0 #docid = GX1 inc = 1 prob = 0.5\n"
    "0 qid:10 1:0.25 3:1e-01 #docid = GX2\n"
    "\n"
    "1 qid:7 2:0.75\r\n";

}  // namespace

TEST_CASE("read_file decompresses .xz files, including concatenated streams", "[letor]") {
  const TempDir dir("letor");
  const std::string text = "line one\nline two\n" + std::string(200000, 'x');
  const std::string path = dir.write("a.txt.xz", xz_compress(text));
  CHECK(mpg::read_file(path) == text);
  const std::string twice = dir.write("b.txt.xz", xz_compress("first\n") + xz_compress("second\n"));
  CHECK(mpg::read_file(twice) == "first\nsecond\n");
  // The same bytes without the .xz name are read raw.
  CHECK(mpg::read_file(dir.write("c.bin", xz_compress("z"))).size() > 1);
}

TEST_CASE("read_file rejects broken .xz files with the file name", "[letor]") {
  const TempDir dir("letor");
  const std::string good = xz_compress(std::string(5000, 'y'));
  const std::string not_xz = dir.write("plain.xz", "just text, not compressed at all\n");
  CHECK_THROWS_WITH(mpg::read_file(not_xz), Contains(not_xz) && Contains("not an xz file"));
  const std::string truncated = dir.write("cut.xz", good.substr(0, good.size() / 2));
  CHECK_THROWS_WITH(mpg::read_file(truncated), Contains(truncated) && Contains("truncated xz data"));
  std::string flipped = good;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x55);
  const std::string corrupt = dir.write("bad.xz", flipped);
  CHECK_THROWS_WITH(mpg::read_file(corrupt), Contains(corrupt) && Contains("corrupt xz data"));
}

TEST_CASE("read_letor parses queries, labels, sparse features and comments", "[letor]") {
  const TempDir dir("letor");
  for (const std::string name : {"sample.txt", "sample.txt.xz"}) {
    const std::string path = dir.write(name, name.ends_with(".xz") ? xz_compress(kSample) : kSample);
    const mpg::LetorData data = mpg::read_letor(path, 4);
    CHECK(data.features == 4);
    REQUIRE(data.queries.size() == 2);
    CHECK(data.documents() == 3);
    CHECK(data.queries[0].id == "10");
    CHECK(data.queries[0].relevance == std::vector<int>{2, 0});
    CHECK(data.queries[0].relevant_documents() == 1);
    CHECK(data.queries[0].features.rows() == 2);
    CHECK(data.queries[0].features.cols() == 4);
    CHECK(data.queries[0].features(0, 1) == 1.0);
    CHECK(data.queries[0].features(1, 1) == 0.0);  // absent
    CHECK(data.queries[0].features(1, 2) == 0.1);
    CHECK(data.queries[1].id == "7");
    CHECK(data.queries[1].features(0, 1) == 0.75);
  }
  CHECK(mpg::read_letor(dir.write("d.txt", kSample)).features == 3);
}

TEST_CASE("read_letor errors name the file and line", "[letor]") {
  const TempDir dir("letor");
  const auto check = [&](const std::string& text, const std::string& where, const std::string& what) {
    const std::string path = dir.write("bad.txt", text);
    const std::string message = error_of(path);
    CHECK_THAT(message, Contains(path + ":" + where) && Contains(what));
  };
  check("1 qid:1 1:0.5\nx qid:1 1:0.5\n", "2:", "relevance label \"x\"");
  check("-1 qid:1 1:0.5\n", "1:", "relevance label \"-1\"");
  check("1 1:0.5\n", "1:", "expected 'qid:<id>'");
  check("1 qid:1 0:0.5\n", "1:", "feature index");
  check("1 qid:1 2:0.5 1:0.5\n", "1:", "feature indices must increase");
  check("1 qid:1 1:abc\n", "1:", "feature value");
  check("1 qid:1 1:1\n0 qid:2 1:1\n0 qid:1 1:1\n", "3:", "query \"1\" continues");
  const std::string empty = dir.write("empty.txt", "\n# nothing\n");
  CHECK_THAT(error_of(empty), Contains(empty) && Contains("no documents"));
  CHECK_THAT(error_of(dir.file("missing.txt")), Contains("missing.txt") && Contains("cannot open"));
}

TEST_CASE("Shared LETOR subsets: counts and sha256 of the registry", "[letor_shared]") {
  const std::string dir = mpg::harness::data_directory();
  if (!std::filesystem::exists(dir + "/letor4_mq2008/S1.txt.xz")) {
    MPG_SKIP("no LETOR data under " << dir << " (set MPG_DATA_DIR)");
  }
  const auto& registry = mpg::harness::dataset_registry();
  struct Expect {
    const char* name;
    const char* variant;
    std::size_t queries, documents;
  };
  for (const Expect& e : {Expect{"letor4_mq2008", "letor4", 784, 15211}, Expect{"letor3_ohsumed", "querylevelnorm", 106, 16140}}) {
    std::size_t queries = 0, documents = 0;
    for (const auto& s : registry[e.name]["variants"][e.variant]["subsets"]) {
      const std::string path = dir + "/" + s["file"].get<std::string>();
      CHECK(mpg::sha256_hex(mpg::read_file(path)) == s["sha256"].get<std::string>());
      const auto data = mpg::read_letor(path, registry[e.name]["features"].get<long>());
      CHECK(data.features == registry[e.name]["features"].get<long>());
      queries += data.queries.size();
      documents += data.documents();
    }
    CHECK(queries == e.queries);
    CHECK(documents == e.documents);
  }
}
