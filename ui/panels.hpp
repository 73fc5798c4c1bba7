#pragma once
// The ImGui panels: Source, Processing, Display, Targets & timing. They read AppState and send
// it commands; a change of a parameter applies on the next processed frame.
namespace sweepline::ui {

class AppState;
class Console;

// Panel column width in pixels (the PPI takes the space between the two columns).
inline constexpr float kPanelWidth = 340.0f;

void apply_console_style();  // colours and spacing of the console look
void draw_panels(AppState& state, Console& console, float fb_width, float fb_height);

}  // namespace sweepline::ui
