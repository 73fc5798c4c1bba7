#pragma once
#include "app/cli/command.hpp"

namespace sweepline::ui {

// `sweepline view`: the radar display (the default subcommand).
cli::Command add_view_command(CLI::App& parent);

}  // namespace sweepline::ui
