#pragma once
// The tracking panels (docs/tracking.md): Tracking (the operator's settings, acquisition zones,
// own ship and the tracker's state), Targets (the sortable track table with the selected
// target's data) and Alarms (the list, acknowledge). They read Engine::tracking() and send the
// engine's commands; the settings they change persist with the console's settings file.
namespace sweepline::engine {
class Engine;
}

namespace sweepline::ui {

class Console;

void tracking_panel(engine::Engine& engine, Console& console);
void targets_panel(engine::Engine& engine, Console& console);
void alarms_panel(engine::Engine& engine, Console& console);

}  // namespace sweepline::ui
