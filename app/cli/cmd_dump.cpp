#include "app/cli/command.hpp"

#include <cstdio>

namespace sweepline::cli {

// Filled in by its own issue; until then it says so and fails.
Command add_dump_command(CLI::App& parent) {
  Command c;
  c.app = parent.add_subcommand("dump", "(not implemented yet)");
  c.run = [] {
    std::fprintf(stderr, "sweepline dump: not implemented yet\n");
    return 1;
  };
  return c;
}

}  // namespace sweepline::cli
