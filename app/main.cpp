// sweepline: wires the input, pipeline, renderer and UI layers into one executable.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/default_command.hpp"
#include "app/cli/option_checks.hpp"
#include "app/common/allocator.hpp"
#include "app/common/check.hpp"
#include "app/common/logging.hpp"
#include "sweepline/version.hpp"
#ifdef SWEEPLINE_HAVE_GUI
#include "ui/view_command.hpp"
#endif

int main(int argc, char** argv) {
  using namespace sweepline;
  keep_frame_memory();
  CLI::App app{"Sweepline: real-time radar video display and plot extractor"};
  app.set_version_flag("--version", std::string("sweepline ") + kVersion);
  std::string log_level = "info";
  std::string log_file;
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical, off")
      ->check(cli::log_level_check())
      ->capture_default_str();
  app.add_option("--log-file", log_file, "Also log to this rotating file (its folder must exist)")
      ->check(cli::output_file_check());
  app.require_subcommand(0, 1);
  app.footer("With no subcommand, `view` runs: the GUI on the built-in simulator source.");

#ifdef SWEEPLINE_HAVE_GUI
  cli::Command view = ui::add_view_command(app);
#else
  cli::Command view = cli::add_view_fallback_command(app);
#endif
  std::vector<cli::Command> commands = {view,
                                        cli::add_dump_command(app),
                                        cli::add_sim_command(app),
                                        cli::add_label_command(app),
                                        cli::add_bench_command(app),
                                        cli::add_eval_command(app),
                                        cli::add_record_command(app),
                                        cli::add_serve_command(app)};
  try {
    // `view` is the default subcommand: its options work without naming it.
    std::vector<std::string> args = cli::with_default_subcommand(
        app, std::vector<std::string>(argv + 1, argv + argc), view.app->get_name());
    if (app.get_name().empty()) app.name(argv[0]);  // as parse(argc, argv) would
    std::reverse(args.begin(), args.end());         // CLI11 takes them last first
    app.parse(std::move(args));
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  try {
    setup_logging(log_level, log_file);
  } catch (const Error& e) {  // the level was checked while parsing: the file failed
    std::fprintf(stderr, "sweepline: --log-file: %s\n", e.what());
    return 2;
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
    return view.run();  // the default subcommand
  } catch (const Error& e) {
    std::fprintf(stderr, "sweepline: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweepline: unexpected error: %s\n", e.what());
    return 1;
  }
}
