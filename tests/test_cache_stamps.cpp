// Per-family cache stamps (lib/harness/cache.hpp, family_stamp): a family's cached cells stay
// valid when code it cannot run changes, and are recomputed when anything it includes changes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "lib/harness/cache.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using mpg::harness::family_sources;
using mpg::harness::family_stamp;
using mpg::testing::TempDir;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// A tree of two families sharing a header, each with a header of its own, and the engine.
void make_tree(const fs::path& root) {
  write(root / "CMakeLists.txt", "project(x)\n");
  write(root / "lib/harness/pipeline.cpp", "#include \"lib/harness/family.hpp\"\n");
  write(root / "lib/harness/family.hpp", "#include <vector>\n");
  write(root / "lib/shared/measure.hpp", "int measure();\n");
  write(root / "lib/shared/measure.cpp", "#include \"lib/shared/measure.hpp\"\nint measure() { return 1; }\n");
  write(root / "lib/alpha/model.hpp", "#include \"lib/shared/measure.hpp\"\n");
  write(root / "lib/alpha/model.cpp", "#include \"lib/alpha/model.hpp\"\n");
  write(root / "lib/beta/model.hpp", "#include \"../shared/measure.hpp\"\n");  // relative to its folder
  write(root / "lib/harness/families/alpha.cpp", "#include \"lib/alpha/model.hpp\"\n#include \"lib/harness/family.hpp\"\n");
  write(root / "lib/harness/families/alpha_tables.cpp", "// the table part of alpha\n");
  write(root / "lib/harness/families/beta.cpp", "#include \"lib/beta/model.hpp\"\n");
  write(root / "lib/unused/other.cpp", "int other() { return 2; }\n");
}

}  // namespace

TEST_CASE("family_sources: the include closure of a family's files and the engine, headers with their .cpp",
          "[cache_stamps]") {
  TempDir dir;
  make_tree(dir.path());
  const std::string root = dir.path().string();
  CHECK(family_sources("alpha", root) ==
        std::vector<std::string>{"CMakeLists.txt", "lib/alpha/model.cpp", "lib/alpha/model.hpp",
                                 "lib/harness/families/alpha.cpp", "lib/harness/families/alpha_tables.cpp",
                                 "lib/harness/family.hpp", "lib/harness/pipeline.cpp", "lib/shared/measure.cpp",
                                 "lib/shared/measure.hpp"});
  CHECK(family_sources("beta", root) ==
        std::vector<std::string>{"CMakeLists.txt", "lib/beta/model.hpp", "lib/harness/families/beta.cpp",
                                 "lib/harness/family.hpp", "lib/harness/pipeline.cpp", "lib/shared/measure.cpp",
                                 "lib/shared/measure.hpp"});
  CHECK(family_sources("gamma", root).empty());
  CHECK(family_stamp("gamma", root) == "unknown");
}

TEST_CASE("family_stamp: one family's edit keeps the other's cells, a shared header's edit recomputes both",
          "[cache_stamps]") {
  TempDir dir;
  make_tree(dir.path());
  const fs::path root = dir.path();
  const std::string r = root.string();
  const std::string alpha = family_stamp("alpha", r), beta = family_stamp("beta", r);
  REQUIRE(alpha.size() == 64);
  CHECK(alpha != beta);
  // Stable: the same tree gives the same stamps (no time, order of listing or absolute path in it).
  CHECK(family_stamp("alpha", r) == alpha);
  const fs::path copy = root.parent_path() / (root.filename().string() + "-copy");
  fs::copy(root, copy, fs::copy_options::recursive);
  CHECK(family_stamp("alpha", copy.string()) == alpha);
  fs::remove_all(copy);

  // Code neither family includes.
  write(root / "lib/unused/other.cpp", "int other() { return 3; }\n");
  CHECK(family_stamp("alpha", r) == alpha);
  CHECK(family_stamp("beta", r) == beta);

  // One family's own file, and its table part: the other family's cells stay valid.
  write(root / "lib/harness/families/alpha_tables.cpp", "// changed\n");
  const std::string alpha2 = family_stamp("alpha", r);
  CHECK(alpha2 != alpha);
  CHECK(family_stamp("beta", r) == beta);
  write(root / "lib/alpha/model.cpp", "#include \"lib/alpha/model.hpp\"\n// changed\n");
  const std::string alpha3 = family_stamp("alpha", r);
  CHECK(alpha3 != alpha2);
  CHECK(family_stamp("beta", r) == beta);

  // A header both include, and its implementation file: both recompute.
  write(root / "lib/shared/measure.hpp", "int measure();  // changed\n");
  const std::string alpha4 = family_stamp("alpha", r), beta4 = family_stamp("beta", r);
  CHECK(alpha4 != alpha3);
  CHECK(beta4 != beta);
  write(root / "lib/shared/measure.cpp", "#include \"lib/shared/measure.hpp\"\nint measure() { return 2; }\n");
  CHECK(family_stamp("alpha", r) != alpha4);
  CHECK(family_stamp("beta", r) != beta4);

  // The engine and the build file belong to every family.
  const std::string alpha5 = family_stamp("alpha", r), beta5 = family_stamp("beta", r);
  write(root / "lib/harness/pipeline.cpp", "#include \"lib/harness/family.hpp\"\n// changed\n");
  CHECK(family_stamp("alpha", r) != alpha5);
  CHECK(family_stamp("beta", r) != beta5);
  const std::string alpha6 = family_stamp("alpha", r);
  write(root / "CMakeLists.txt", "project(y)\n");
  CHECK(family_stamp("alpha", r) != alpha6);
}

TEST_CASE("family_stamp: every family of this tree has a stamp", "[cache_stamps]") {
  for (const char* family : {"binary", "sequence_labeling", "ranking", "parsing", "cost_sensitive", "comparison",
                             "chess", "structured_auc", "diversity", "alignment"}) {
    INFO(family);
    CHECK(family_stamp(family).size() == 64);
    // The family reaches the metric/model code it runs, not only the engine.
    CHECK(family_sources(family).size() > 20);
  }
  // Table VIII's family does not run the CoNLL reader; Table X's does.
  const auto binary = family_sources("binary"), sequence = family_sources("sequence_labeling");
  CHECK(std::find(binary.begin(), binary.end(), "lib/data/conll.cpp") == binary.end());
  CHECK(std::find(sequence.begin(), sequence.end(), "lib/data/conll.cpp") != sequence.end());
  // The binary F1 trainer (the code most often tuned for speed) is the binary family's alone: the
  // engine does not include it, so an edit to it leaves every other family's cells cached.
  for (const char* family : {"sequence_labeling", "ranking", "parsing", "cost_sensitive", "comparison", "chess",
                             "structured_auc", "diversity", "alignment"}) {
    INFO(family);
    const auto sources = family_sources(family);
    CHECK(std::find(sources.begin(), sources.end(), "lib/models/binary/joint_trainer.cpp") == sources.end());
  }
  CHECK(std::find(binary.begin(), binary.end(), "lib/models/binary/joint_trainer.cpp") != binary.end());
}

TEST_CASE("family_sources of this tree: the families that play no game do not depend on the game code",
          "[cache_stamps]") {
  // The engine (lib/harness/*) reaches lib/learn only through the protocols' names
  // (lib/learn/training_protocol.hpp), so a change to lib/game or to the optimizers keeps the
  // cells of Parambath's and SVMcompare's tables; the MPG families keep depending on it.
  auto depends_on_games = [](const std::string& family) {
    for (const std::string& file : family_sources(family, MPG_SOURCE_DIR))
      if (file.rfind("lib/game/", 0) == 0) return true;
    return false;
  };
  for (const char* family : {"cost_sensitive", "diversity", "comparison", "chess"}) {
    INFO(family);
    CHECK_FALSE(depends_on_games(family));
  }
  for (const char* family : {"binary", "sequence_labeling", "ranking", "parsing", "alignment"}) {
    INFO(family);
    CHECK(depends_on_games(family));
  }
}
