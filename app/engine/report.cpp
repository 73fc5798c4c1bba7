#include "app/engine/report.hpp"

namespace sweepline::engine {

using nlohmann::json;

json frame_report(const Engine& engine, int frame_index) {
  json f;
  f["frame"] = frame_index;
  f["rotation"] = engine.polar().rotation;
  f["sweep_azimuth_deg"] = engine.sweep_azimuth_deg();
  const gpu::FrameResult* r = engine.result();
  if (!r) {
    f["count"] = 0;
    f["components"] = json::array();
    f["times_ms"] = json::object();
    f["error"] =
        engine.processing_error().empty() ? "no frame processed" : engine.processing_error();
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

json run_report_header(const Engine& engine) {
  const auto g = engine.geometry();
  const auto& p = engine.applied_params();
  return {{"source", engine.settings().source.uri},
          {"backend", engine.backend_name()},
          {"backend_note", engine.backend_note()},
          {"interop", engine.in_place()},
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

}  // namespace sweepline::engine
