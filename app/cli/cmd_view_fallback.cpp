#include <cstdio>

#include "app/cli/command.hpp"

namespace sweepline::cli {

Command add_view_fallback_command(CLI::App& parent) {
  Command c;
  c.app = parent.add_subcommand("view", "Radar display (this build has no GUI: SWEEPLINE_GUI=OFF)");
  c.app->allow_extras();
  c.run = [] {
    std::fprintf(stderr,
                 "sweepline view: this build has no GUI (configure with -DSWEEPLINE_GUI=ON)\n");
    return 1;
  };
  return c;
}

}  // namespace sweepline::cli
