#pragma once
// The headless run's JSON report, from the engine's state alone: the run's setup and the input's
// counters, then per frame the stage timings, the component count and the components (id, bbox
// in display pixels, area, range, bearing, ...). The headless runner (ui/headless.cpp) adds what
// only the display knows (EGL platform, GL renderer, the view transform).
#include <nlohmann/json.hpp>

#include "app/engine/engine.hpp"

namespace sweepline::engine {

nlohmann::json frame_report(const Engine& engine, int frame_index);
// The source's counters as of the last Engine::refresh_status(): datagrams, records, errors by
// reason, messages lost (I240/020 gaps), datagrams dropped by the kernel and by the receive
// queue, frames processed and dropped by the pipeline, and the recording's counts.
nlohmann::json input_report(const Engine& engine);
// The run's setup, with input_report() under "input".
nlohmann::json run_report_header(const Engine& engine);

}  // namespace sweepline::engine
