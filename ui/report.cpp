#include "ui/report.hpp"

namespace sweepline::ui {

using nlohmann::json;

json frame_report(const AppState& state, int frame_index) {
  json f;
  f["frame"] = frame_index;
  f["rotation"] = state.polar().rotation;
  f["sweep_azimuth_deg"] = state.sweep_azimuth_deg();
  const gpu::FrameResult* r = state.result();
  if (!r) {
    f["count"] = 0;
    f["components"] = json::array();
    f["times_ms"] = json::object();
    f["error"] = state.processing_error().empty() ? "no frame processed" : state.processing_error();
    return f;
  }
  json times = json::object();
  for (const auto& t : r->times) times[t.stage] = t.ms;
  f["times_ms"] = times;
  f["count"] = r->count;
  json comps = json::array();
  for (const auto& c : r->components)
    comps.push_back({{"id", c.label},
                     {"bbox", {c.xmin, c.ymin, c.xmax, c.ymax}},
                     {"area", c.area},
                     {"range_m", c.range_m},
                     {"bearing_deg", c.bearing_deg},
                     {"cx", c.cx},
                     {"cy", c.cy},
                     {"peak", int(c.peak)}});
  f["components"] = comps;
  return f;
}

json run_report_header(const AppState& state) {
  const auto g = state.texture_geometry();
  const auto& p = state.applied_params();
  return {{"source", state.settings().source.uri},
          {"backend", state.backend_name()},
          {"backend_note", state.backend_note()},
          {"interop", state.in_place()},
          {"display",
           {{"width", g.width},
            {"height", g.height},
            {"metres_per_pixel", g.metres_per_pixel},
            {"origin_east_m", g.origin_east_m},
            {"origin_north_m", g.origin_north_m},
            {"frame_range_m", g.frame_range_m}}},
          {"pipeline",
           {{"scan", gpu::to_string(p.scan)},
            {"denoise", gpu::to_string(p.denoise)},
            {"threshold", int(p.threshold)},
            {"label_enabled", p.label_enabled},
            {"connectivity", p.label.connectivity},
            {"algorithm", ccl::to_string(p.label.algorithm)},
            {"min_area", p.label.min_area},
            {"max_area", p.label.max_area}}}};
}

}  // namespace sweepline::ui
