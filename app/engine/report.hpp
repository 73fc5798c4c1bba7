#pragma once
// The headless run's JSON report, from the engine's state alone: the run's setup, then per frame
// the stage timings, the component count and the components (id, bbox in display pixels, area,
// range, bearing, ...). The headless runner (ui/headless.cpp) adds what only the display knows
// (EGL platform, GL renderer, the view transform).
#include <nlohmann/json.hpp>

#include "app/engine/engine.hpp"

namespace sweepline::engine {

nlohmann::json frame_report(const Engine& engine, int frame_index);
nlohmann::json run_report_header(const Engine& engine);

}  // namespace sweepline::engine
