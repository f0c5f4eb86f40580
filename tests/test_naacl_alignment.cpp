// The NAACL 2003 word-alignment reader: sentence files, gold alignment files (sure / possible),
// unlabeled parallel text, their error messages, and the shared Hansards files when present.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "lib/base/error.hpp"
#include "lib/data/naacl_alignment.hpp"
#include "tests/skip.hpp"
#include "tests/temp_dir.hpp"

using Catch::Matchers::Contains;
using mpg::testing::TempDir;

namespace {

template <typename Read>
std::string input_error(Read read) {
  try {
    read();
  } catch (const mpg::InputError& error) {
    return error.what();
  }
  return "";
}

std::string hansards_directory() {
  const char* dir = std::getenv("MPG_DATA_DIR");
  const std::string root = dir && *dir ? dir : std::string(MPG_SOURCE_DIR) + "/../shared/datasets";
  return root + "/hansards_naacl2003";
}

}  // namespace

TEST_CASE("labeled pairs: tokens, ids, sure and possible links", "[naacl_alignment]") {
  TempDir dir("naacl");
  const auto e = dir.write("t.e", "<s snum=0001> the house . </s>\n<s snum=0002> yes </s>\n");
  const auto f = dir.write("t.f", "<s snum=0001> la maison .  </s>\n<s snum=0002> oui </s>\n");
  // 'F-E' sure, 'F-E-P' possible only; the second pair has no links.
  const auto a = dir.write("t.align", "1-1 0-0-P 2-2\n\n");
  const auto pairs = mpg::read_naacl_labeled(e, f, a);
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].id == "0001");
  CHECK(pairs[0].english == std::vector<std::string>{"the", "house", "."});
  CHECK(pairs[0].french == std::vector<std::string>{"la", "maison", "."});
  CHECK(pairs[0].links == std::vector<mpg::WordLink>{{0, 0, false}, {1, 1, true}, {2, 2, true}});
  CHECK(pairs[0].sure_links() == 2);
  CHECK(pairs[0].possible_only_links() == 1);
  CHECK(pairs[1].links.empty());
  // Tag grid english * |f| + french: 0 = N, 1 = S, 2 = R.
  CHECK(mpg::gold_tag_grid(pairs[0]) == std::vector<std::uint8_t>{2, 0, 0, 0, 1, 0, 0, 0, 1});
  // French-first indices: "1-0" links French word 1 with English word 0.
  const auto b = dir.write("u.align", "1-0\n0-0-P\n");
  const auto swapped = mpg::read_naacl_labeled(e, f, b);
  CHECK(swapped[0].links == std::vector<mpg::WordLink>{{0, 1, true}});
}

TEST_CASE("bad sentence and alignment files name the file and line", "[naacl_alignment]") {
  TempDir dir("naacl_bad");
  const auto e = dir.write("t.e", "<s snum=1> a b </s>\n<s snum=2> c </s>\n");
  const auto f = dir.write("t.f", "<s snum=1> x y </s>\n<s snum=2> z </s>\n");
  CHECK_THAT(input_error([&] { mpg::read_naacl_sentences(dir.write("x.e", "<s snum=1> a </s>\nplain text\n")); }),
             Contains("x.e:2:") && Contains("<s snum=ID>"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_sentences(dir.write("y.e", "<s snum=1> a </s>\n<s snum=1> b </s>\n")); }),
             Contains("y.e:2:") && Contains("appears twice"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_sentences(dir.write("z.e", "<s snum=1> a </s>\n\n<s snum=2> b </s>\n")); }),
             Contains("z.e:2:") && Contains("empty line"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_sentences(dir.write("empty.e", "")); }), Contains("no sentences"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_alignments(dir.write("a1", "0-0\n0-x\n")); }),
             Contains("a1:2:") && Contains("bad link \"0-x\""));
  CHECK_THAT(input_error([&] { mpg::read_naacl_alignments(dir.write("a2", "0-0-Q\n")); }), Contains("a2:1:"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_alignments(dir.write("a3", "1-1 1-1-P\n")); }),
             Contains("a3:1:") && Contains("listed twice"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_alignments(dir.write("a4", "-1-0\n")); }), Contains("a4:1:"));
  // Links outside the sentence, line counts and ids that disagree.
  CHECK_THAT(input_error([&] { mpg::read_naacl_labeled(e, f, dir.write("a5", "0-0\n0-1\n")); }),
             Contains("a5:2:") && Contains("outside sentence 2"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_labeled(e, f, dir.write("a6", "0-0\n")); }),
             Contains("a6") && Contains("1 alignment lines"));
  const auto other = dir.write("o.f", "<s snum=1> x y </s>\n<s snum=3> z </s>\n");
  CHECK_THAT(input_error([&] { mpg::read_naacl_labeled(e, other, dir.write("a7", "\n\n")); }),
             Contains("o.f:2:") && Contains("snum \"3\""));
  CHECK_THAT(input_error([&] { mpg::read_naacl_labeled(e, dir.write("short.f", "<s snum=1> x </s>\n"), dir.write("a8", "\n\n")); }),
             Contains("short.f") && Contains("1 sentences"));
  CHECK_THAT(input_error([&] { mpg::read_naacl_labeled(dir.file("missing.e"), f, dir.write("a9", "\n\n")); }),
             Contains("missing.e"));
}

TEST_CASE("unlabeled parallel text is read line by line", "[naacl_alignment]") {
  TempDir dir("parallel");
  const auto e = dir.write("p.e", "the house\nHANSARD \\* NUMBER 1\n");
  const auto f = dir.write("p.f", "la maison \nhansard RÉVISÉ * NUMÉRO 1\n");
  const auto pairs = mpg::read_parallel_text(e, f);
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[1].english == std::vector<std::string>{"HANSARD", "\\*", "NUMBER", "1"});
  CHECK(pairs[1].french.size() == 5);
  CHECK(pairs[0].links.empty());
  CHECK_THAT(input_error([&] { mpg::read_parallel_text(e, dir.write("q.f", "la maison\n")); }),
             Contains("q.f") && Contains("1 lines") && Contains("line-aligned"));
  CHECK_THAT(input_error([&] { mpg::read_parallel_text(e, dir.write("r.f", "la maison\n  \n")); }),
             Contains("r.f:2:") && Contains("empty sentence"));
}

TEST_CASE("the shared NAACL 2003 Hansards files", "[naacl_alignment_shared]") {
  const std::string dir = hansards_directory();
  if (!std::filesystem::exists(dir + "/test/test.align")) {
    MPG_SKIP(dir << " not found");
  }
  const auto test = mpg::read_naacl_labeled(dir + "/test/test.e", dir + "/test/test.f", dir + "/test/test.align");
  const auto trial = mpg::read_naacl_labeled(dir + "/dev/trial.e", dir + "/dev/trial.f", dir + "/dev/trial.align");
  REQUIRE(test.size() == 447);
  REQUIRE(trial.size() == 37);
  std::size_t sure = 0, possible = 0;
  for (const auto& p : test) {
    sure += p.sure_links();
    possible += p.possible_only_links();
  }
  CHECK(sure == 4038);  // SOURCES.md: 4,038 sure + 13,400 possible
  CHECK(possible == 13400);
  sure = possible = 0;
  for (const auto& p : trial) {
    sure += p.sure_links();
    possible += p.possible_only_links();
  }
  CHECK(sure == 338);
  CHECK(possible == 1446);
  CHECK(test.front().id == "0001");
  CHECK(trial.front().id == "1001");
  // The trial file's first link "0-0" and "1-1-P": chacun-each sure, en-of possible.
  CHECK(trial.front().links.front() == mpg::WordLink{0, 0, true});
  std::size_t unlabeled = 0;
  for (const char* part : {"001", "002", "003"}) {
    const std::string stem = dir + "/train/hansard.36.1.house.debates." + part;
    unlabeled += mpg::read_parallel_text(stem + ".e", stem + ".f").size();
  }
  CHECK(unlabeled == 2383);
}
