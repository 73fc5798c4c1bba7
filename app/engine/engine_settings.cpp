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

template <class T>
void get(const json& j, const char* key, T& v) {
  if (j.contains(key) && !j[key].is_null()) v = j[key].get<T>();
}

}  // namespace

json source_json(const SourceSettings& so) {
  return {
      {"uri", so.uri},           {"scenario", so.scenario},           {"seed", so.seed},
      {"rpm", so.rpm},           {"file_path", so.file_path},         {"udp_group", so.udp_group},
      {"udp_port", so.udp_port}, {"udp_interface", so.udp_interface}, {"speed", so.speed},
      {"loop", so.loop}};
}

void read_source(const json& so, SourceSettings& s) {
  get(so, "uri", s.uri);
  get(so, "scenario", s.scenario);
  get(so, "seed", s.seed);
  get(so, "rpm", s.rpm);
  get(so, "file_path", s.file_path);
  get(so, "udp_group", s.udp_group);
  get(so, "udp_port", s.udp_port);
  get(so, "udp_interface", s.udp_interface);
  get(so, "speed", s.speed);
  get(so, "loop", s.loop);
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
          {"fft",
           {{"power", p.fft.power},
            {"low_cut", p.fft.low_cut},
            {"high_cut", p.fft.high_cut},
            {"gain", p.fft.gain},
            {"offset", p.fft.offset},
            {"min_peak", p.fft.min_peak}}},
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
  get(j, "width", p.width);
  get(j, "height", p.height);
  get(j, "display_range_m", p.display_range_m);
  get(j, "origin_east_m", p.origin_east_m);
  get(j, "origin_north_m", p.origin_north_m);
  if (j.contains("scan")) p.scan = gpu::scan_mode_from_string(j["scan"].get<std::string>());
  if (j.contains("denoise"))
    p.denoise = gpu::denoise_mode_from_string(j["denoise"].get<std::string>());
  get(j, "gaussian_sigma", p.gaussian_sigma);
  get(j, "bilateral_sigma_s", p.bilateral_sigma_s);
  get(j, "bilateral_sigma_r", p.bilateral_sigma_r);
  if (j.contains("fft")) {
    const json& f = j["fft"];
    get(f, "power", p.fft.power);
    get(f, "low_cut", p.fft.low_cut);
    get(f, "high_cut", p.fft.high_cut);
    get(f, "gain", p.fft.gain);
    get(f, "offset", p.fft.offset);
    get(f, "min_peak", p.fft.min_peak);
  }
  get(j, "cfar_guard", p.cfar_guard);
  get(j, "cfar_train", p.cfar_train);
  get(j, "cfar_pfa", p.cfar_pfa);
  if (j.contains("threshold")) p.threshold = uint8_t(std::clamp(j["threshold"].get<int>(), 0, 255));
  get(j, "label_enabled", p.label_enabled);
  get(j, "connectivity", p.label.connectivity);
  if (j.contains("algorithm"))
    p.label.algorithm = ccl::algorithm_from_string(j["algorithm"].get<std::string>());
  if (j.contains("box_method"))
    p.label.box_method = ccl::box_method_from_string(j["box_method"].get<std::string>());
  get(j, "min_area", p.label.min_area);
  get(j, "max_area", p.label.max_area);
  get(j, "fill_holes", p.label.fill_holes);
  get(j, "hole_max_area", p.label.hole_max_area);
}

json processing_json(const ProcessingSettings& pr) {
  return {{"backend", pr.backend},
          {"size", pr.size},
          {"azimuths", pr.azimuths},
          {"range_bins", pr.range_bins},
          {"pipeline", params_json(pr.params)}};
}

void read_processing(const json& p, ProcessingSettings& s) {
  get(p, "backend", s.backend);
  get(p, "size", s.size);
  get(p, "azimuths", s.azimuths);
  get(p, "range_bins", s.range_bins);
  if (p.contains("pipeline")) read_params(p["pipeline"], s.params);
}

}  // namespace sweepline::engine
