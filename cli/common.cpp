#include <fmt/core.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <memory>

#include "cli/commands.hpp"
#include "lib/base/error.hpp"
#include "lib/base/io.hpp"
#include "lib/base/json_file.hpp"

namespace mpg::cli {

void add_game_progress(CLI::App& command, DoubleOracleOptions& options) {
  auto timer = std::make_shared<LineTimer>(2.0, 5.0);
  options.progress = [timer](const DoubleOracleSummary& summary) {
    if (!timer->due()) return;
    timer->printed();
    fmt::print(stderr, "  game: iteration {:6d}  gap {:.3e}  supports {}/{}  {:.0f} s\n",
               summary.iterations, summary.gap, summary.predictor_support, summary.adversary_support,
               summary.seconds);
  };
  command.add_flag_callback("--quiet", [&options] { options.progress = nullptr; },
                            "No progress lines on stderr (a game running longer than 2 s prints "
                            "one every 5 s)");
}

std::string input_limits_help() {
  return fmt::format("files up to {} MiB after decompression, lines up to {} MiB, JSON nested up to {} levels",
                     kMaxInputBytes >> 20, kMaxLineBytes >> 20, kMaxJsonDepth);
}

namespace {

// A validator of the number in the option's text by `accepts`; `rule` is the message ("must be > 0").
CLI::Validator number_check(std::function<bool(double)> accepts, const std::string& rule, const std::string& name) {
  return CLI::Validator(
      [accepts, rule](std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return std::string();  // not a number: the conversion reports it
        return accepts(value) ? std::string() : rule + ", got " + text;
      },
      name);
}

}  // namespace

CLI::Validator greater_than(double low) {
  return number_check([low](double v) { return v > low; }, fmt::format("must be > {}", low), fmt::format("NUMBER > {}", low));
}
CLI::Validator at_least(double low) {
  return number_check([low](double v) { return v >= low; }, fmt::format("must be >= {}", low), fmt::format("NUMBER >= {}", low));
}
CLI::Validator between(double low, double high) {
  return number_check([low, high](double v) { return v >= low && v <= high; },
                      fmt::format("must be from {} to {}", low, high), fmt::format("NUMBER in [{}, {}]", low, high));
}

void require_output_file(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(path, error)) throw Error(option + " " + path + ": is a directory, not a file");
  const fs::path parent = fs::absolute(path).parent_path();
  if (!fs::is_directory(parent, error))
    throw Error(option + " " + path + ": the directory " + parent.string() + " does not exist (create it first)");
  if (::access(parent.c_str(), W_OK) != 0)
    throw Error(option + " " + path + ": the directory " + parent.string() + " is not writable");
}

void add_game_options(CLI::App& command, DoubleOracleOptions& options) {
  command
      .add_option_function<std::string>(
          "--lp-backend",
          [&options](const std::string& name) {
            static std::vector<std::unique_ptr<LpBackend>> backends;  // live until exit
            backends.push_back(make_lp_backend(name));
            options.lp_backend = backends.back().get();
          },
          "LP solver of the sub-games, each over working sets of actions (docs/methods.md, How a game is solved): glpk (default) or lp_solve")
      ->check(CLI::IsMember({"glpk", "lp_solve"}));
  command.add_option("--tolerance", options.tolerance,
                     "Stop the double oracle when the equilibrium gap is at most this")
      ->capture_default_str()
      ->check(greater_than(0));
  command.add_option("--max-game-iterations", options.max_iterations,
                     "Cap on double-oracle iterations per game (0 = none); a capped game is "
                     "reported as not converged")
      ->capture_default_str()
      ->check(at_least(0));
  command.add_option("--max-seconds", options.max_seconds,
                     "Wall-clock cap per game, and per training for --optimizer cutting_plane, joint or dual "
                     "(0 = none); a capped run is reported as not converged")
      ->capture_default_str()
      ->check(at_least(0));
  command.add_option("--smoothing", options.smoothing,
                     "Weight of the best-bounding predictor strategy so far in the smoothed "
                     "strategy the adversary also best-responds to (0 = off; 2-5x fewer "
                     "double-oracle iterations on F1 games at small potentials)")
      ->capture_default_str()
      ->check(between(0.0, 0.99));
  command.add_option("--max-actions", options.max_actions,
                     "Cap on generated actions per player (0 = none)")
      ->capture_default_str()
      ->check(at_least(0));
}

}  // namespace mpg::cli
