#include "app/engine/engine_settings.hpp"

#include <algorithm>

namespace sweepline::engine {

using nlohmann::json;

gpu::PipelineParams ProcessingSettings::default_params() {
  gpu::PipelineParams p;
  p.label_enabled = true;
  p.label.connectivity = 8;
  p.label.min_area = 6;
  p.label.max_area = 20000;
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

json fft_json(const gpu::FftEnhanceParams& f) {
  json j = json::object();
  visit_fft(f, writer(j));
  return j;
}

}  // namespace

json source_json(const SourceSettings& so) {
  json j = json::object();
  visit_source(so, writer(j));
  return j;
}

void read_source(const json& so, SourceSettings& s) {
  visit_source(s, reader(so));
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
          {"fft", fft_json(p.fft)},
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
          {"hole_max_area", p.label.hole_max_area}};
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
  if (j.contains("threshold")) p.threshold = uint8_t(std::clamp(j["threshold"].get<int>(), 0, 255));
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
}

}  // namespace sweepline::engine
