#pragma once
// The ImGui panels: Source, Processing, Tracking (ui/tracking_panels.hpp), Display, Targets,
// Alarms, Plots & timing. They read the engine's state and send it commands (a parameter change
// applies on the next processed frame); the Display panel edits the console's view settings.
// Processing leads with the operator's controls (Gain, Sea, Rain, each with Auto, and the clutter
// map); the image stages, labelling and the plot filters sit under its collapsed Advanced header.
namespace sweepline::engine {
class Engine;
}

namespace sweepline::ui {

class Console;

// Panel column width in pixels (the PPI takes the space between the two columns).
inline constexpr float kPanelWidth = 340.0f;

void apply_console_style();  // colours and spacing of the console look
// `reflow`: put every panel back in its column (the window changed size). Returns false when a
// panel lies outside its column or below the window (a layout from imgui.ini written for another
// window size): the caller re-flows the next frame.
bool draw_panels(engine::Engine& engine, Console& console, float fb_width, float fb_height,
                 bool reflow = false);

}  // namespace sweepline::ui
