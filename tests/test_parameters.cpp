// Parameter tables (lib/harness/parameters.*) and what is generated from them: the validator's
// checks, the defaults a cell sees, the spec reference in experiments/README.md, and the method
// list of `mpg run --help`. A parameter added to a method's table appears in all of them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <limits>
#include <tuple>
#include <sstream>

#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/diversity/weighted_als.hpp"
#include "lib/harness/families/binary_mpg_parameters.hpp"
#include "lib/harness/experiment.hpp"
#include "lib/harness/family.hpp"
#include "lib/harness/parameters.hpp"
#include "lib/learn/block_coordinate.hpp"
#include "lib/models/alignment_mpg.hpp"
#include "lib/models/binary/binary_mpg_trainer.hpp"
#include "lib/models/cfg_mpg.hpp"
#include "lib/models/linear_chain_mpg.hpp"
#include "lib/models/ranking_mpg.hpp"
#include "lib/models/structured_auc.hpp"
#include "tests/run_mpg.hpp"
#include "tests/temp_dir.hpp"

using namespace mpg;
using namespace mpg::harness;
using mpg::testing::TempDir;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

ParameterTable example_table() {
  return ParameterTable({grid_parameter("lambda", 0.0, 100.0, "L2 weight"),
                         number_parameter("tolerance", 1e-6, 0.0, 1.0, "gap", true),
                         integer_parameter("max_iterations", 200, 0, 1000, "cap"),
                         choice_parameter("solver", "greedy", {"greedy", "lp"}, "how"),
                         flag_parameter("verbose", false, "say more")});
}

}  // namespace

TEST_CASE("A parameter table validates, resolves defaults and prints its reference", "[parameters]") {
  const ParameterTable table = example_table();
  const SpecValidator v("spec.json");
  CHECK_NOTHROW(table.validate(json::parse(R"({"kind": "x", "lambda": [1, 2]})"), "methods.M", v, {"kind"}));
  const auto rejects = [&](const char* text, const std::string& fragment) {
    INFO(text);
    CHECK_THROWS_WITH(table.validate(json::parse(text), "methods.M", v, {"kind"}),
                      Contains("spec.json: ") && Contains(fragment));
  };
  rejects(R"({"kind": "x"})", "methods.M: missing required key 'lambda'");
  rejects(R"({"lambda": []})", "methods.M.lambda: expected a non-empty array of numbers");
  rejects(R"({"lambda": [0]})", "methods.M.lambda: every value must be in (0, 100]");
  rejects(R"({"lambda": [1], "tolerance": 0})", "methods.M.tolerance: value 0 is outside (0, 1]");
  rejects(R"({"lambda": [1], "max_iterations": 2.5})", "methods.M.max_iterations: expected a whole number");
  rejects(R"({"lambda": [1], "solver": "simplex"})", "methods.M.solver: expected one of greedy, lp");
  rejects(R"({"lambda": [1], "verbose": 1})", "methods.M.verbose: expected true or false");
  rejects(R"({"lambda": [1], "colour": 1})",
          "methods.M: unknown key 'colour' (allowed: kind, lambda, tolerance, max_iterations, solver, verbose)");

  const ParameterValues values(table, json::parse(R"({"lambda": [1, 2], "solver": "lp"})"));
  CHECK(values.grid("lambda") == std::vector<double>{1, 2});
  CHECK(values.number("tolerance") == 1e-6);
  CHECK(values.integer("max_iterations") == 200);
  CHECK(values.choice("solver") == "lp");
  CHECK_FALSE(values.flag("verbose"));
  const ParameterValues cell = values.with("lambda", 2.0);
  CHECK(cell.number("lambda") == 2.0);
  CHECK(cell.all() == json::parse(R"({"lambda": 2.0, "tolerance": 1e-6, "max_iterations": 200, "solver": "lp",
                                      "verbose": false})"));
  CHECK_THROWS_AS(values.number("lambda"), Error);  // a grid is one value only inside a cell
  CHECK_THROWS_AS(values.number("missing"), Error);
  CHECK_THROWS_AS(values.choice("tolerance"), Error);

  CHECK(table.markdown() ==
        "| parameter | type | default | range | meaning |\n|---|---|---|---|---|\n"
        "| `lambda` | list of numbers | required | (0, 100] | L2 weight |\n"
        "| `tolerance` | number | 1e-6 | (0, 1] | gap |\n"
        "| `max_iterations` | integer | 200 | [0, 1000] | cap |\n"
        "| `solver` | `greedy` \\| `lp` | greedy |  | how |\n"
        "| `verbose` | true/false | false |  | say more |\n");
  CHECK(table.at("max_iterations").option_name() == "--max-iterations");
  CHECK_THROWS_AS(ParameterTable({flag_parameter("a", true, ""), flag_parameter("a", false, "")}), Error);
  CHECK_THROWS_AS(ParameterTable({number_parameter("a", 5.0, 0.0, 1.0, "")}), Error);  // default out of range
}

TEST_CASE("experiments/README.md holds the spec reference generated from the tables", "[parameters]") {
  const std::string readme = read_file(std::string(MPG_SOURCE_DIR) + "/experiments/README.md");
  const std::string begin = "<!-- BEGIN GENERATED: mpg run --spec-reference -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const auto from = readme.find(begin);
  const auto to = readme.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  INFO("regenerate the section with: build/mpg run --spec-reference");
  CHECK(readme.substr(from + begin.size(), to - from - begin.size()) == spec_reference());
}

TEST_CASE("The spec reference renders: every table row has its header's columns", "[parameters]") {
  // An unescaped '|' inside a cell (help text, a type) would split it; "\\|" is a literal bar.
  auto columns = [](const std::string& line) {
    int bars = 0;
    for (std::size_t i = 0; i < line.size(); ++i) bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    return bars;
  };
  std::istringstream text(spec_reference());
  int header = 0;
  for (std::string line; std::getline(text, line);) {
    if (line.empty() || line[0] != '|') {
      header = 0;
      continue;
    }
    INFO(line);
    if (header == 0) header = columns(line);
    CHECK(columns(line) == header);
  }
}

TEST_CASE("Every method parameter is in the reference, in mpg run --help, and checked by the validator",
          "[parameters]") {
  TempDir dir;
  const std::string reference = spec_reference();
  const auto help = mpg::testing::run_mpg(dir, "run --help");
  REQUIRE(help.exit_code == 0);
  // The shipped specs give one valid method of each kind they use; an out-of-range or ill-typed
  // value of each of its parameters must be rejected with the parameter's dotted key.
  std::map<std::string, std::pair<std::string, std::string>> example;  // family/kind -> spec, label
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MPG_SOURCE_DIR) + "/experiments")) {
    if (entry.path().extension() != ".json") continue;
    const json spec = load_spec(entry.path().string(), false);
    const json methods = spec.value("methods", json::object());  // items() of a temporary would dangle
    for (const auto& [label, m] : methods.items())
      example.emplace(spec.value("task", std::string("binary")) + "/" + m["kind"].get<std::string>(),
                      std::make_pair(entry.path().string(), label));
  }
  for (const Family* family : families())
    for (const auto& method : family->methods()) {
      INFO(family->name() << " method " << method.kind);
      CHECK_THAT(reference, Contains("#### `" + family->name() + "` method `" + method.kind + "`"));
      const auto found = example.find(family->name() + "/" + method.kind);
      for (const auto& p : method.parameters.entries()) {
        INFO("parameter " << p.name);
        CHECK_THAT(reference, Contains("| `" + p.name + "` |"));
        CHECK_THAT(help.out, Contains(p.name));
        if (found == example.end()) continue;
        const auto& [spec_path, label] = found->second;
        const std::string key = "methods." + label + "." + p.name;
        const std::string bad = p.type == Parameter::Type::choice ? "\"no-such-choice\""
                                : p.type == Parameter::Type::flag ? "\"yes\""
                                                                  : "\"text\"";
        CHECK_THROWS_WITH(load_spec(spec_path, false, {key + "=" + bad}), Contains(key));
        if (!p.required()) CHECK_NOTHROW(load_spec(spec_path, false, {key + "=" + p.default_value.dump()}));
      }
    }
}

TEST_CASE("A spec and mpg train reject the same bad value with the same message", "[parameters]") {
  // `mpg train`'s --lambda, --trainer and --objective-tolerance are generated from the binary MPG's
  // table, which the spec's `mpg` method uses: one check, one message (Parameter::problem).
  TempDir dir;
  const std::string spec = std::string(MPG_SOURCE_DIR) + "/experiments/table11_precision_at_k.json";
  const std::string data = dir.file("train.svm");
  {
    std::ofstream out(data);
    out << "1 1:0.5\n-1 1:-0.5\n";
  }
  const std::string model = dir.file("model.json");
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> cases = {
      // spec key, spec value, option, option value
      {"lambda", "[-1]", "--lambda", "-1"},
      {"trainer", "\"newton\"", "--trainer", "newton"},
      {"trainer", "\"newton\"", "--optimizer", "newton"},  // the option's older name
      {"objective_tolerance", "2", "--objective-tolerance", "2"},
      {"max_game_solves", "-3", "--max-game-solves", "-3"},
  };
  for (const auto& [key, spec_value, option, option_value] : cases) {
    INFO(key << " = " << spec_value << ", " << option << " " << option_value);
    const Parameter& p = binary_mpg_parameters().at(key);
    const std::string message = p.problem(json::parse(spec_value));
    REQUIRE(!message.empty());
    CHECK_THROWS_WITH(load_spec(spec, false, {"methods.MPG." + key + "=" + spec_value}),
                      Contains("methods.MPG." + key + ": " + message));
    std::string arguments = "train --train " + mpg::testing::quote(data) + " --model " + mpg::testing::quote(model);
    if (key != "lambda") arguments += " --lambda 0.5";
    const auto r = mpg::testing::run_mpg(dir, arguments + " " + option + " " + mpg::testing::quote(option_value));
    INFO("stderr: " << r.err);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.err, Contains(message));
    CHECK(!std::filesystem::exists(model));
  }
}

TEST_CASE("Options structs validate themselves", "[parameters]") {
  BinaryTrainingOptions binary;
  CHECK_NOTHROW(binary.validate());
  binary.lambda = -1;
  CHECK_THROWS_WITH(binary.validate(), "binary MPG training: lambda must be a finite number >= 0, got -1");
  binary.lambda = 1;
  binary.tolerance = 0;
  CHECK_THROWS_WITH(binary.validate(), Contains("tolerance must be a finite number > 0, got 0"));
  LinearChainMpgOptions chain;
  CHECK_NOTHROW(chain.validate());
  chain.lambda = 0;
  CHECK_THROWS_WITH(chain.validate(), "linear-chain MPG: lambda must be a finite number > 0, got 0");
  chain.lambda = 1;
  chain.max_iterations = 0;
  CHECK_THROWS_WITH(chain.validate(), "linear-chain MPG: max_iterations must be >= 1, got 0");
  CfgMpgOptions cfg;
  cfg.lambda = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(cfg.validate(), Contains("MPG_cfg: lambda must be a finite number > 0"));
  AlignmentMpgOptions alignment;
  alignment.max_game_iterations = -1;
  CHECK_THROWS_WITH(alignment.validate(), "alignment MPG: max_game_iterations must be >= 0, got -1");
  RankingMpgOptions ranking;
  ranking.levels = 1;
  CHECK_THROWS_WITH(ranking.validate(), "ranking MPG: levels must be >= 2, got 1");
  FactoredAucOptions auc;
  auc.lambda = -2;
  CHECK_THROWS_WITH(auc.validate(), Contains("factored AUC: lambda"));
  BlockCoordinateOptions planes;
  planes.lambda = 0;
  CHECK_THROWS_WITH(planes.validate(), Contains("instance planes: lambda"));
  WeightedAlsOptions als;
  als.rank = 0;
  CHECK_THROWS_WITH(als.validate(), "weighted ALS: rank must be >= 1, got 0");
}

TEST_CASE("The linear-chain MPG's library defaults are the spec's", "[parameters]") {
  const MethodKind& mpg = family_named("sequence_labeling").method("mpg");
  const LinearChainMpgOptions defaults;
  CHECK(defaults.instance_planes);
  CHECK(mpg.parameters.at("optimizer").default_value == "instance_planes");
  CHECK(mpg.parameters.at("max_iterations").default_value.get<long>() == defaults.max_iterations);
  CHECK(mpg.parameters.at("objective_tolerance").default_value.get<double>() == defaults.objective_tolerance);
  CHECK(mpg.parameters.at("game_tolerance").default_value.get<double>() == defaults.game_tolerance);
}
