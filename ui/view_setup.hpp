#pragma once
// What the window and the headless renderer share before their loops: the settings with the
// command line's overrides, and the console font.
#include <string>

#include "ui/settings.hpp"
#include "ui/view_options.hpp"

namespace sweepline::ui {

// Loads the settings file (a bad one is reported and replaced by defaults) and applies the
// command-line overrides. `path_out`: the file in use.
Settings effective_settings(const ViewOptions& opt, std::string& path_out);
// Adds DejaVu Sans when the system has it (ImGui's built-in font otherwise).
void load_console_font();

}  // namespace sweepline::ui
