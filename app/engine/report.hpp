#pragma once
// The headless run's JSON report, from the engine's state alone: the run's setup and the input's
// counters, then per frame the stage timings, the component count and the components (id, bbox
// in display pixels, area, range, bearing, ...), the plots, and the tracks, own ship and alarms.
// The headless runner (ui/headless.cpp) adds what only the display knows (EGL platform, GL
// renderer, the view transform).
#include <nlohmann/json.hpp>

#include "app/engine/engine.hpp"

namespace sweepline::engine {

nlohmann::json frame_report(const Engine& engine, int frame_index);
// The source's counters as of the last Engine::refresh_status(): datagrams, records, errors by
// reason, messages lost (I240/020 gaps), datagrams dropped by the kernel and by the receive
// queue, frames processed and dropped by the pipeline, and the recording's counts.
nlohmann::json input_report(const Engine& engine);
// The run's setup, with input_report() under "input" and tracking_report() under "tracking".
nlohmann::json run_report_header(const Engine& engine);
// Tracking's setup and counters: settings, navigation, own ship's source, the tracker's
// statistics, the NMEA receiver's counters, the largest update cost.
nlohmann::json tracking_report(const Engine& engine);
// Per frame (frame_report() adds them): "tracks" (id, status acquiring|tracked|lost, range_m,
// bearing_deg (true), x_m, y_m, course_deg, speed_kn, rel_course_deg, rel_speed_kn, cpa_nm,
// tcpa_min, dangerous, manual), "own_ship" and "alarms" (id, kind cpa|new_target|lost_target,
// track_id, time_s, acknowledged).
nlohmann::json tracks_report(const TrackingView& v);
// A track's status as the reports spell it: "acquiring", "tracked", "lost".
const char* track_status_name(track::Track::Status s);
nlohmann::json own_ship_report(const TrackingView& v);
nlohmann::json alarms_report(const TrackingView& v);

}  // namespace sweepline::engine
