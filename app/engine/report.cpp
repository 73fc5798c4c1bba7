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
    f["plots"] = json::array();
    f["times_ms"] = json::object();
    f["error"] =
        engine.processing_error().empty() ? "no frame processed" : engine.processing_error();
    return f;
  }
  json times = json::object();
  for (const auto& t : r->times) times[t.stage] = t.ms;
  f["times_ms"] = times;
  f["count"] = r->count;
  f["components_found"] = r->components_found;
  if (r->label_limit_exceeded) f["label_limit_exceeded"] = true;
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
  // The plots (gpu/plot_extractor.hpp): the components that pass the plot filters, in radar
  // units, with the time their bearing was swept; `component` is the id above.
  json plots = json::array();
  for (const auto& p : r->plots)
    plots.push_back({{"component", p.label},
                     {"range_m", p.range_m},
                     {"bearing_deg", p.bearing_deg},
                     {"range_extent_m", p.range_extent_m},
                     {"azimuth_extent_deg", p.azimuth_extent_deg},
                     {"time_s", p.time_s},
                     {"peak", int(p.peak)},
                     {"area_px", p.area_px}});
  f["plots"] = plots;
  return f;
}

json input_report(const Engine& engine) {
  const SourceView& v = engine.source_view();
  const SourceStatus& s = v.status;
  json errors = json::object();
  for (const auto& [k, n] : s.errors) errors[k] = n;
  json not_recorded = json::object();
  for (const auto& [k, n] : s.not_recorded) not_recorded[k] = n;
  uint64_t queue_full = 0;
  if (auto it = s.errors.find("queue_full"); it != s.errors.end()) queue_full = it->second;
  return {{"live", v.live},
          {"state", s.state},
          {"datagrams", s.datagrams},
          {"records", s.records},
          {"bytes", s.bytes},
          {"skipped_not_cat240", s.skipped},
          {"errors", errors},
          {"lost_messages", s.lost_messages},
          {"kernel_dropped", s.kernel_dropped},
          {"queue_full", queue_full},
          {"rotations", v.rotations},
          {"rejected_records", v.rejected},
          {"frames_processed", engine.frames_processed()},
          {"frames_dropped", v.frames_dropped},
          {"recording",
           {{"active", s.recording}, {"recorded", s.recorded}, {"not_recorded", not_recorded}}}};
}

json run_report_header(const Engine& engine) {
  const auto g = engine.geometry();
  const auto& p = engine.applied_params();
  return {{"source", engine.settings().source.uri},
          {"input", input_report(engine)},
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
