#pragma once
// A subcommand: its CLI11 parser, and what to run once the whole command line has parsed.
// Running returns the process exit code; errors are thrown as sweepline::Error.
#include <CLI/CLI.hpp>

#include <functional>

namespace sweepline::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_dump_command(CLI::App& parent);
Command add_sim_command(CLI::App& parent);
Command add_label_command(CLI::App& parent);
Command add_bench_command(CLI::App& parent);
Command add_record_command(CLI::App& parent);
Command add_eval_command(CLI::App& parent);
Command add_serve_command(CLI::App& parent);
// Without the GUI build, `view` exists but explains that it was not built.
Command add_view_fallback_command(CLI::App& parent);

}  // namespace sweepline::cli
