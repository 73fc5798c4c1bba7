#pragma once
// The Source panel: the simulator, file and UDP forms, the replay transport and the source's
// status. It shows the source that is playing (its tab and its real parameters), and a source
// that fails to open leaves the working one running (the engine refuses it with the message).
#include <string>

#include "app/engine/engine_settings.hpp"

namespace sweepline::engine {
class Engine;
}

namespace sweepline::ui {

class Console;

enum class SourceTab { None, Simulator, File, Udp };

// Fills the Source panel's form with what `uri` names (scenario, seed and rpm; the file; group,
// port and interface) and returns the tab it belongs to; None (form unchanged) when the URI is
// malformed.
SourceTab form_from_uri(const std::string& uri, engine::SourceSettings& form);

void source_panel(engine::Engine& st, Console& console);

}  // namespace sweepline::ui
