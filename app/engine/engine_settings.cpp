#include "app/engine/engine_settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/common/check.hpp"

namespace sweepline::engine {

using nlohmann::json;

gpu::PipelineParams ProcessingSettings::default_params() {
  gpu::PipelineParams p;
  p.label_enabled = true;
  p.label.connectivity = 8;
  p.label.min_area = 6;
  p.label.max_area = 20000;
  // The console detects targets, not blobs: Gain/Sea/Rain and the clutter map on, no display
  // filter after them and a threshold on what stands above the clutter (docs/detection.md;
  // chosen on the scorecard, `sweepline eval`, harbour/open-sea/stress seed 7).
  p.video.enabled = true;
  p.denoise = gpu::DenoiseMode::None;  // the video stage has smoothed the speckle already
  p.threshold = 72;
  return p;
}

namespace {

// Each plain field is named once here and both written and read through the same list, so the
// writer and the reader cannot drift apart. S is the settings type, const or not.
template <class S, class F>
void visit_source(S& s, F&& f) {
  f("uri", s.uri);
  f("scenario", s.scenario);
  f("seed", s.seed);
  f("rpm", s.rpm);
  f("file_path", s.file_path);
  f("udp_group", s.udp_group);
  f("udp_port", s.udp_port);
  f("udp_interface", s.udp_interface);
  f("speed", s.speed);
  f("loop", s.loop);
}

template <class S, class F>
void visit_fft(S& s, F&& f) {
  f("power", s.power);
  f("low_cut", s.low_cut);
  f("high_cut", s.high_cut);
  f("gain", s.gain);
  f("offset", s.offset);
  f("min_peak", s.min_peak);
}

template <class S, class F>
void visit_video(S& s, F&& f) {
  f("enabled", s.enabled);
  f("gain_auto", s.gain_auto);
  f("gain", s.gain);
  f("sea_auto", s.sea_auto);
  f("sea", s.sea);
  f("rain_auto", s.rain_auto);
  f("rain", s.rain);
  f("clutter_map", s.clutter_map);
}

template <class S, class F>
void visit_plot(S& s, F&& f) {
  f("beamwidth_deg", s.beamwidth_deg);
  f("pulse_m", s.pulse_m);
  f("max_target_m", s.max_target_m);
  f("confirm_scans", s.confirm_scans);
  f("max_speed_mps", s.max_speed_mps);
}

template <class S, class F>
void visit_tracking(S& s, F&& f) {
  f("enabled", s.enabled);
  f("auto_acquire", s.auto_acquire);
  f("confirm_hits", s.confirm_hits);
  f("confirm_window", s.confirm_window);
  f("keep_hits", s.keep_hits);
  f("keep_window", s.keep_window);
  f("delete_lost_scans", s.delete_lost_scans);
  f("delete_lost_s", s.delete_lost_s);
  f("capacity", s.capacity);
  f("cpa_limit_nm", s.cpa_limit_nm);
  f("tcpa_limit_min", s.tcpa_limit_min);
  f("vector_minutes", s.vector_minutes);
  f("vector_mode", s.vector_mode);
  f("trails", s.trails);
  f("trail_minutes", s.trail_minutes);
  f("trail_interval_s", s.trail_interval_s);
  f("range_sigma_m", s.range_sigma_m);
  f("bearing_sigma_deg", s.bearing_sigma_deg);
}

template <class S, class F>
void visit_navigation(S& s, F&& f) {
  f("udp", s.udp);
  f("stale_s", s.stale_s);
}

template <class S, class F>
void visit_processing(S& s, F&& f) {
  f("backend", s.backend);
  f("size", s.size);
  f("azimuths", s.azimuths);
  f("range_bins", s.range_bins);
}

// The two visitors: one stores each named field into a json object, one reads it back.
auto writer(json& j) {
  return [&j](const char* key, const auto& v) { j[key] = v; };
}
auto reader(const json& j) {
  return [&j](const char* key, auto& v) { read_field(j, key, v); };
}

template <class S, class V>
json group_json(const S& s, V&& visit) {
  json j = json::object();
  visit(s, writer(j));
  return j;
}

// Range checks with the settings file's key in the message: a bad value is refused, never
// clamped or carried into the pipeline.
[[noreturn]] void refuse(const std::string& key, const std::string& want, const std::string& got) {
  throw Error("settings: " + key + " must be " + want + " (got " + got + ")");
}
std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}
void check_range(const std::string& key, double v, double lo, double hi) {
  if (!std::isfinite(v) || v < lo || v > hi)
    refuse(key, number(lo) + " .. " + number(hi), number(v));
}

}  // namespace

json source_json(const SourceSettings& so) {
  json j = json::object();
  visit_source(so, writer(j));
  return j;
}

void read_source(const json& so, SourceSettings& s) {
  visit_source(s, reader(so));
  check_range("source.rpm", s.rpm, 0.1, 600);
  check_range("source.seed", s.seed, 0, 2147483647.0);
  check_range("source.udp_port", s.udp_port, 1, 65535);
  check_range("source.speed", s.speed, 0, 1000);
}

json params_json(const gpu::PipelineParams& p) {
  return {{"width", p.width},
          {"height", p.height},
          {"display_range_m", p.display_range_m},
          {"origin_east_m", p.origin_east_m},
          {"origin_north_m", p.origin_north_m},
          {"scan", gpu::to_string(p.scan)},
          {"denoise", gpu::to_string(p.denoise)},
          {"gaussian_sigma", p.gaussian_sigma},
          {"bilateral_sigma_s", p.bilateral_sigma_s},
          {"bilateral_sigma_r", p.bilateral_sigma_r},
          {"fft", group_json(p.fft, [](auto& x, auto&& f) { visit_fft(x, f); })},
          {"cfar_guard", p.cfar_guard},
          {"cfar_train", p.cfar_train},
          {"cfar_pfa", p.cfar_pfa},
          {"threshold", int(p.threshold)},
          {"label_enabled", p.label_enabled},
          {"connectivity", p.label.connectivity},
          {"algorithm", ccl::to_string(p.label.algorithm)},
          {"box_method", ccl::to_string(p.label.box_method)},
          {"min_area", p.label.min_area},
          {"max_area", p.label.max_area},
          {"fill_holes", p.label.fill_holes},
          {"hole_max_area", p.label.hole_max_area},
          {"video", group_json(p.video, [](auto& x, auto&& f) { visit_video(x, f); })},
          {"plot", group_json(p.plot, [](auto& x, auto&& f) { visit_plot(x, f); })}};
}

void read_params(const json& j, gpu::PipelineParams& p) {
  read_field(j, "width", p.width);
  read_field(j, "height", p.height);
  read_field(j, "display_range_m", p.display_range_m);
  read_field(j, "origin_east_m", p.origin_east_m);
  read_field(j, "origin_north_m", p.origin_north_m);
  if (j.contains("scan")) p.scan = gpu::scan_mode_from_string(j["scan"].get<std::string>());
  if (j.contains("denoise"))
    p.denoise = gpu::denoise_mode_from_string(j["denoise"].get<std::string>());
  read_field(j, "gaussian_sigma", p.gaussian_sigma);
  read_field(j, "bilateral_sigma_s", p.bilateral_sigma_s);
  read_field(j, "bilateral_sigma_r", p.bilateral_sigma_r);
  if (j.contains("fft")) visit_fft(p.fft, reader(j["fft"]));
  read_field(j, "cfar_guard", p.cfar_guard);
  read_field(j, "cfar_train", p.cfar_train);
  read_field(j, "cfar_pfa", p.cfar_pfa);
  if (j.contains("threshold")) {
    const double t = j["threshold"].get<double>();
    check_range("processing.pipeline.threshold", t, 0, 255);
    p.threshold = uint8_t(t);
  }
  read_field(j, "label_enabled", p.label_enabled);
  read_field(j, "connectivity", p.label.connectivity);
  if (j.contains("algorithm"))
    p.label.algorithm = ccl::algorithm_from_string(j["algorithm"].get<std::string>());
  if (j.contains("box_method"))
    p.label.box_method = ccl::box_method_from_string(j["box_method"].get<std::string>());
  read_field(j, "min_area", p.label.min_area);
  read_field(j, "max_area", p.label.max_area);
  read_field(j, "fill_holes", p.label.fill_holes);
  read_field(j, "hole_max_area", p.label.hole_max_area);
  if (j.contains("video")) visit_video(p.video, reader(j["video"]));
  if (j.contains("plot")) visit_plot(p.plot, reader(j["plot"]));
  check_params(p);
}

void check_params(const gpu::PipelineParams& p) {
  const std::string k = "processing.pipeline.";
  check_range(k + "display_range_m", p.display_range_m, 0, 1e7);
  check_range(k + "origin_east_m", p.origin_east_m, -1e7, 1e7);
  check_range(k + "origin_north_m", p.origin_north_m, -1e7, 1e7);
  check_range(k + "gaussian_sigma", p.gaussian_sigma, 0.5, 5);
  check_range(k + "bilateral_sigma_s", p.bilateral_sigma_s, 0.5, 5);
  check_range(k + "bilateral_sigma_r", p.bilateral_sigma_r, 1, 255);
  check_range(k + "fft.power", p.fft.power, 0, 2);
  check_range(k + "fft.low_cut", p.fft.low_cut, 0, 32);
  check_range(k + "fft.high_cut", p.fft.high_cut, 0, 32);
  check_range(k + "fft.gain", p.fft.gain, -1e4, 1e4);
  check_range(k + "fft.offset", p.fft.offset, -1e4, 1e4);
  check_range(k + "fft.min_peak", p.fft.min_peak, 1e-6, 1e6);
  check_range(k + "cfar_guard", p.cfar_guard, 0, 128);
  check_range(k + "cfar_train", p.cfar_train, 1, 128);
  check_range(k + "cfar_pfa", p.cfar_pfa, 1e-12, 0.5);
  if (p.label.connectivity != 4 && p.label.connectivity != 8)
    refuse(k + "connectivity", "4 or 8", std::to_string(p.label.connectivity));
  check_range(k + "min_area", double(p.label.min_area), 0, 1e9);
  check_range(k + "max_area", double(p.label.max_area), 0, 1e9);
  check_range(k + "hole_max_area", double(p.label.hole_max_area), 0, 1e9);
  check_range(k + "video.gain", p.video.gain, 0, 100);
  check_range(k + "video.sea", p.video.sea, 0, 100);
  check_range(k + "video.rain", p.video.rain, 0, 100);
  check_range(k + "plot.beamwidth_deg", p.plot.beamwidth_deg, 0.05, 30);
  check_range(k + "plot.pulse_m", p.plot.pulse_m, 1, 5000);
  check_range(k + "plot.max_target_m", p.plot.max_target_m, 1, 100000);
  check_range(k + "plot.confirm_scans", p.plot.confirm_scans, 1, 2);
  check_range(k + "plot.max_speed_mps", p.plot.max_speed_mps, 0, 1000);
}

json processing_json(const ProcessingSettings& pr) {
  json j = json::object();
  visit_processing(pr, writer(j));
  j["pipeline"] = params_json(pr.params);
  return j;
}

void read_processing(const json& p, ProcessingSettings& s) {
  visit_processing(s, reader(p));
  if (p.contains("pipeline")) read_params(p["pipeline"], s.params);
  if (s.backend != "cpu" && s.backend != "cuda")
    refuse("processing.backend", "cpu or cuda", s.backend);
  // Sizes bounded before anything is allocated for them (docs/limits.md, "Settings"): the
  // display as large as the largest image the console reads, the polar frame as large as the
  // CAT240 geometry the benchmarks use times four.
  if (s.size != 0) check_range("processing.size", s.size, 256, kMaxDisplaySide);
  check_range("processing.azimuths", s.azimuths, 4, kMaxPolarSide);
  check_range("processing.range_bins", s.range_bins, 4, kMaxPolarSide);
  if (double(s.azimuths) * double(s.range_bins) > double(kMaxPolarCells))
    refuse("processing.azimuths x processing.range_bins",
           "at most " + std::to_string(kMaxPolarCells),
           std::to_string(s.azimuths) + " x " + std::to_string(s.range_bins));
}

}  // namespace sweepline::engine

namespace sweepline::engine {

json zone_json(const track::AcquisitionZone& z) {
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    json pts = json::array();
    for (const auto& p : z.polygon) pts.push_back({p.x_m, p.y_m});
    return {{"kind", "polygon"}, {"points", pts}};
  }
  return {{"kind", "arc"},
          {"range_min_m", z.range_min_m},
          {"range_max_m", z.range_max_m},
          {"bearing_from_deg", z.bearing_from_deg},
          {"bearing_to_deg", z.bearing_to_deg},
          {"relative_to_heading", z.relative_to_heading}};
}

track::AcquisitionZone read_zone(const json& j) {
  if (!j.is_object()) throw Error("settings: tracking.zones: each zone must be an object");
  track::AcquisitionZone z;
  const std::string kind = j.value("kind", std::string("arc"));
  if (kind == "polygon") {
    z.kind = track::AcquisitionZone::Kind::Polygon;
    if (!j.contains("points") || !j["points"].is_array())
      throw Error("settings: tracking.zones: a polygon needs \"points\": [[x_m, y_m], ...]");
    for (const auto& p : j["points"]) {
      if (!p.is_array() || p.size() != 2)
        throw Error("settings: tracking.zones: a polygon point must be [x_m, y_m]");
      z.polygon.push_back({p[0].get<double>(), p[1].get<double>()});
    }
  } else if (kind == "arc") {
    read_field(j, "range_min_m", z.range_min_m);
    read_field(j, "range_max_m", z.range_max_m);
    read_field(j, "bearing_from_deg", z.bearing_from_deg);
    read_field(j, "bearing_to_deg", z.bearing_to_deg);
    read_field(j, "relative_to_heading", z.relative_to_heading);
  } else {
    refuse("tracking.zones[].kind", "arc or polygon", kind);
  }
  try {
    track::validate(z);
  } catch (const std::exception& e) {
    throw Error(std::string("settings: tracking.zones: ") + e.what());
  }
  return z;
}

json tracking_json(const TrackingSettings& t) {
  json j = json::object();
  visit_tracking(t, writer(j));
  json zones = json::array();
  for (const auto& z : t.zones) zones.push_back(zone_json(z));
  j["zones"] = zones;
  return j;
}

void read_tracking(const json& j, TrackingSettings& s) {
  TrackingSettings t = s;
  visit_tracking(t, reader(j));
  if (j.contains("zones") && !j["zones"].is_null()) {
    if (!j["zones"].is_array()) throw Error("settings: tracking.zones must be an array");
    t.zones.clear();
    for (const auto& z : j["zones"]) t.zones.push_back(read_zone(z));
  }
  check_tracking(t);
  s = std::move(t);
}

void check_tracking(const TrackingSettings& t) {
  const std::string k = "tracking.";
  check_range(k + "confirm_window", t.confirm_window, 1, 32);
  check_range(k + "confirm_hits", t.confirm_hits, 1, t.confirm_window);
  check_range(k + "keep_window", t.keep_window, 1, 32);
  check_range(k + "keep_hits", t.keep_hits, 1, t.keep_window);
  check_range(k + "delete_lost_scans", t.delete_lost_scans, 1, 1000);
  check_range(k + "delete_lost_s", t.delete_lost_s, 1, 3600);
  check_range(k + "capacity", t.capacity, 1, 1000000);
  check_range(k + "cpa_limit_nm", t.cpa_limit_nm, 0, 20);
  check_range(k + "tcpa_limit_min", t.tcpa_limit_min, 0, 120);
  check_range(k + "vector_minutes", t.vector_minutes, 0, 60);
  if (t.vector_mode != "true" && t.vector_mode != "relative")
    refuse(k + "vector_mode", "true or relative", t.vector_mode);
  check_range(k + "trail_minutes", t.trail_minutes, 0, 60);
  check_range(k + "trail_interval_s", t.trail_interval_s, 1, 600);
  check_range(k + "trail points (trail_minutes x 60 / trail_interval_s)",
              t.trail_minutes * 60.0 / t.trail_interval_s, 0, 1024);
  check_range(k + "range_sigma_m", t.range_sigma_m, 0, 10000);
  check_range(k + "bearing_sigma_deg", t.bearing_sigma_deg, 0, 30);
  for (const auto& z : t.zones) {
    try {
      track::validate(z);
    } catch (const std::exception& e) {
      throw Error(std::string("settings: tracking.zones: ") + e.what());
    }
  }
}

json navigation_json(const NavigationSettings& n) {
  json j = json::object();
  visit_navigation(n, writer(j));
  return j;
}

void read_navigation(const json& j, NavigationSettings& s) {
  NavigationSettings n = s;
  visit_navigation(n, reader(j));
  check_navigation(n);
  s = std::move(n);
}

void check_navigation(const NavigationSettings& n) {
  check_range("navigation.stale_s", n.stale_s, 0.1, 3600);
  if (!n.udp.empty() && n.udp.rfind("udp://", 0) != 0)
    refuse("navigation.udp", "\"\" or udp://GROUP:PORT[?iface=IF]", n.udp);
}

}  // namespace sweepline::engine
