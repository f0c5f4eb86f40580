// mpg: command-line front end of mpg-repro.
#include <fmt/core.h>

#include <cstdio>
#include <new>

#include "cli/commands.hpp"
#include "lib/base/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mpg-repro: multivariate prediction games (Wang et al., NIPS 2015; Wang 2017)\n"
               "Run `mpg <command> --help` for a command's options."};
  app.set_version_flag("--version", std::string("mpg ") + MPG_VERSION);
  app.require_subcommand(1);
  const auto solve = mpg::cli::add_solve_game(app);
  const auto train = mpg::cli::add_train(app);
  const auto predict = mpg::cli::add_predict(app);
  const auto run = mpg::cli::add_run(app);
  const auto report = mpg::cli::add_report(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; a usage error exits 1 like every other bad input (CLI11's own
    // statuses, 105 for a value out of range and so on, are its internals), --help and --version 0.
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    if (app.got_subcommand("solve-game")) solve();
    if (app.got_subcommand("train")) train();
    if (app.got_subcommand("predict")) predict();
    if (app.got_subcommand("run")) run();
    if (app.got_subcommand("report")) report();
  } catch (const mpg::cli::ExitCode& e) {
    return e.code;
  } catch (const mpg::Error& e) {
    fmt::print(stderr, "mpg: error: {}\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    // Readers and trainers say which file; this is whatever else ran out.
    fmt::print(stderr, "mpg: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "mpg: internal error: {}\n", e.what());
    return 2;
  }
  return 0;
}
