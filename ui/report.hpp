#pragma once
// The headless run's JSON report: the run's setup, then per frame the stage timings, the
// component count and the components (id, bbox in display pixels, area, range, bearing, ...).
#include <nlohmann/json.hpp>

#include "ui/app_state.hpp"

namespace sweepline::ui {

nlohmann::json frame_report(const AppState& state, int frame_index);
nlohmann::json run_report_header(const AppState& state);

}  // namespace sweepline::ui
