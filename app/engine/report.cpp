#include "app/engine/report.hpp"

namespace sweepline::engine {

using nlohmann::json;

namespace {

constexpr double kMetresPerNm = 1852.0;
constexpr double kMpsPerKnot = 1852.0 / 3600.0;

const char* alarm_name(track::Alarm::Kind k) {
  switch (k) {
    case track::Alarm::Kind::NewTargetInZone:
      return "new_target";
    case track::Alarm::Kind::LostTarget:
      return "lost_target";
    case track::Alarm::Kind::Cpa:
      break;
  }
  return "cpa";
}

}  // namespace

const char* track_status_name(track::Track::Status s) {
  switch (s) {
    case track::Track::Status::Tracked:
      return "tracked";
    case track::Track::Status::Lost:
      return "lost";
    case track::Track::Status::Acquiring:
      break;
  }
  return "acquiring";
}

json tracks_report(const TrackingView& v) {
  json tracks = json::array();
  for (const track::Track& t : v.tracks)
    tracks.push_back({{"id", t.id},
                      {"status", track_status_name(t.status)},
                      {"range_m", t.range_m},
                      {"bearing_deg", t.bearing_deg},
                      {"x_m", t.x_m},
                      {"y_m", t.y_m},
                      {"course_deg", t.course_deg},
                      {"speed_kn", t.speed_mps / kMpsPerKnot},
                      {"rel_course_deg", t.rel_course_deg},
                      {"rel_speed_kn", t.rel_speed_mps / kMpsPerKnot},
                      {"cpa_nm", t.cpa_m / kMetresPerNm},
                      {"tcpa_min", t.tcpa_s / 60.0},
                      {"dangerous", t.dangerous},
                      {"manual", t.manual}});
  return tracks;
}

json own_ship_report(const TrackingView& v) {
  const nav::OwnShipState& o = v.own_ship;
  return {{"valid", o.valid},
          {"source", to_string(v.own_ship_source)},
          {"relative_only", v.relative_only},
          {"time_s", v.time_s},
          {"x_m", o.x_m},
          {"y_m", o.y_m},
          {"lat_deg", o.lat_deg},
          {"lon_deg", o.lon_deg},
          {"course_deg", o.course_deg},
          {"speed_kn", o.speed_mps / kMpsPerKnot},
          {"heading_deg", o.heading_deg},
          {"heading_valid", o.heading_valid},
          {"heading_from_cog", o.heading_from_cog},
          {"warning", v.warning}};
}

json alarms_report(const TrackingView& v) {
  json alarms = json::array();
  for (const track::Alarm& a : v.alarms)
    alarms.push_back({{"id", a.id},
                      {"kind", alarm_name(a.kind)},
                      {"track_id", a.track_id},
                      {"time_s", a.time_s},
                      {"acknowledged", a.acknowledged}});
  return alarms;
}

namespace {

// Tracking's part of a frame: tracks, own ship and alarms, and the update's cost.
void add_tracking(const Engine& engine, json& f) {
  const TrackingView& v = engine.tracking();
  f["tracks"] = tracks_report(v);
  f["own_ship"] = own_ship_report(v);
  f["alarms"] = alarms_report(v);
  f["tracking"] = {{"enabled", v.enabled},
                   {"plots_fed", v.plots_fed},
                   {"update_ms", v.update_ms},
                   {"unacknowledged", v.unacknowledged}};
}

}  // namespace

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
    add_tracking(engine, f);
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
  add_tracking(engine, f);
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
            {"max_area", p.label.max_area}}},
          {"tracking", tracking_report(engine)}};
}

json tracking_report(const Engine& engine) {
  const TrackingView& v = engine.tracking();
  const track::TrackerStats& s = v.stats;
  json nmea = json::object();
  if (v.nmea_active || !v.nmea_error.empty()) {
    json accepted = json::object(), refused = json::object();
    for (std::size_t i = 0; i < nav::kNmeaTypeCount; ++i)
      accepted[name_of(nav::kNmeaTypeNames, nav::NmeaType(i))] = v.nmea.accepted[i];
    for (std::size_t i = 0; i < nav::kNmeaRejectCount; ++i)
      if (v.nmea.refused[i] > 0)
        refused[name_of(nav::kNmeaRejectNames, nav::NmeaReject(i))] = v.nmea.refused[i];
    nmea = {{"active", v.nmea_active},
            {"error", v.nmea_error},
            {"lines", v.nmea.lines},
            {"accepted", accepted},
            {"refused", refused},
            {"flagged_invalid", v.nmea.flagged_invalid},
            {"datagrams", v.nmea_udp.datagrams}};
  }
  return {{"settings", tracking_json(v.settings)},
          {"navigation", navigation_json(engine.settings().navigation)},
          {"enabled", v.enabled},
          {"own_ship_source", to_string(v.own_ship_source)},
          {"relative_only", v.relative_only},
          {"warning", v.warning},
          {"updates", v.updates},
          {"resets", v.resets},
          {"update_ms_max", v.update_ms_max},
          {"nmea", nmea},
          {"stats",
           {{"plots", s.plots},
            {"plots_associated", s.plots_associated},
            {"tracks_started", s.tracks_started},
            {"tracks_confirmed", s.tracks_confirmed},
            {"tracks_lost", s.tracks_lost},
            {"tracks_deleted", s.tracks_deleted},
            {"refused_capacity", s.refused_capacity},
            {"greedy_clusters", s.greedy_clusters},
            {"bad_plots", s.bad_plots},
            {"near_land_plots", s.near_land_plots},
            {"land_tracks_dropped", s.land_tracks_dropped}}}};
}

}  // namespace sweepline::engine
