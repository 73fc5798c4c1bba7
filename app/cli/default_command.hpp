#pragma once
// The default subcommand: `sweepline --source S` runs as `sweepline view --source S`. CLI11
// takes a subcommand's options only after its name, so the command line is completed before it
// is parsed: when no subcommand is named, `name` is inserted after the program's own options
// (--log-level LEVEL, --log-file FILE). --help and --version alone stay the program's.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace sweepline::cli {

// `args` without the program name; returns them with `name` inserted where it belongs, or as
// they were when a subcommand is named, there are no arguments, or the program's own --help or
// --version comes before anything else.
std::vector<std::string> with_default_subcommand(const CLI::App& app,
                                                 const std::vector<std::string>& args,
                                                 const std::string& name);

}  // namespace sweepline::cli
