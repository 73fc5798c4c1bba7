#include "ui/settings.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/common/check.hpp"

namespace sweepline::ui {

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

json style_json(const render::PpiStyle& s) {
  json layers = json::object();
  for (int i = 0; i < render::kLayerCount; ++i)
    layers[render::to_string(render::Layer(i))] = {{"visible", s.layers[size_t(i)].visible},
                                                   {"opacity", s.layers[size_t(i)].opacity}};
  return {{"palette", render::to_string(s.palette)},
          {"brightness", render::to_string(s.brightness)},
          {"afterglow", render::to_string(s.afterglow)},
          {"glow_rate_per_s", s.glow_rate_per_s},
          {"sweep_fade_floor", s.sweep_fade_floor},
          {"gain", s.gain},
          {"layers", layers}};
}

void style_from(const json& j, render::PpiStyle& s) {
  std::string t;
  if (j.contains("palette"))
    s.palette = render::palette_from_string(j["palette"].get<std::string>());
  if (j.contains("brightness"))
    s.brightness = render::brightness_from_string(j["brightness"].get<std::string>());
  if (j.contains("afterglow"))
    s.afterglow = render::afterglow_from_string(j["afterglow"].get<std::string>());
  get(j, "glow_rate_per_s", s.glow_rate_per_s);
  get(j, "sweep_fade_floor", s.sweep_fade_floor);
  get(j, "gain", s.gain);
  if (j.contains("layers"))
    for (int i = 0; i < render::kLayerCount; ++i) {
      const char* name = render::to_string(render::Layer(i));
      if (!j["layers"].contains(name)) continue;
      get(j["layers"][name], "visible", s.layers[size_t(i)].visible);
      get(j["layers"][name], "opacity", s.layers[size_t(i)].opacity);
    }
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

void params_from(const json& j, gpu::PipelineParams& p) {
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

json settings_json(const Settings& s) {
  const auto& so = s.source;
  const auto& v = s.view;
  const auto& pr = s.processing;
  return {{"source",
           {{"uri", so.uri},
            {"scenario", so.scenario},
            {"seed", so.seed},
            {"rpm", so.rpm},
            {"file_path", so.file_path},
            {"udp_group", so.udp_group},
            {"udp_port", so.udp_port},
            {"udp_interface", so.udp_interface},
            {"speed", so.speed},
            {"loop", so.loop}}},
          {"view",
           {{"style", style_json(v.style)},
            {"ring_spacing_m", v.ring_spacing_m},
            {"show_rings", v.show_rings},
            {"show_bearing_scale", v.show_bearing_scale},
            {"show_sweep_line", v.show_sweep_line},
            {"heading_deg", v.heading_deg},
            {"off_centre", v.off_centre},
            {"show_boxes", v.show_boxes},
            {"show_box_labels", v.show_box_labels},
            {"show_panels", v.show_panels}}},
          {"processing",
           {{"backend", pr.backend},
            {"size", pr.size},
            {"azimuths", pr.azimuths},
            {"range_bins", pr.range_bins},
            {"pipeline", params_json(pr.params)}}}};
}

}  // namespace

std::string to_json_text(const Settings& s) {
  return settings_json(s).dump(2);
}

bool load_settings(const std::string& path, Settings& out, std::string* error) {
  Settings s;
  std::ifstream in(path);
  if (!in) {
    out = s;
    return true;  // first run: defaults
  }
  try {
    json j = json::parse(in);
    if (j.contains("source")) {
      const json& so = j["source"];
      get(so, "uri", s.source.uri);
      get(so, "scenario", s.source.scenario);
      get(so, "seed", s.source.seed);
      get(so, "rpm", s.source.rpm);
      get(so, "file_path", s.source.file_path);
      get(so, "udp_group", s.source.udp_group);
      get(so, "udp_port", s.source.udp_port);
      get(so, "udp_interface", s.source.udp_interface);
      get(so, "speed", s.source.speed);
      get(so, "loop", s.source.loop);
    }
    if (j.contains("view")) {
      const json& v = j["view"];
      if (v.contains("style")) style_from(v["style"], s.view.style);
      get(v, "ring_spacing_m", s.view.ring_spacing_m);
      get(v, "show_rings", s.view.show_rings);
      get(v, "show_bearing_scale", s.view.show_bearing_scale);
      get(v, "show_sweep_line", s.view.show_sweep_line);
      get(v, "heading_deg", s.view.heading_deg);
      get(v, "off_centre", s.view.off_centre);
      get(v, "show_boxes", s.view.show_boxes);
      get(v, "show_box_labels", s.view.show_box_labels);
      get(v, "show_panels", s.view.show_panels);
    }
    if (j.contains("processing")) {
      const json& p = j["processing"];
      get(p, "backend", s.processing.backend);
      get(p, "size", s.processing.size);
      get(p, "azimuths", s.processing.azimuths);
      get(p, "range_bins", s.processing.range_bins);
      if (p.contains("pipeline")) params_from(p["pipeline"], s.processing.params);
    }
  } catch (const std::exception& e) {
    if (error) *error = "settings file " + path + " ignored: " + e.what();
    out = Settings{};
    return false;
  }
  out = s;
  return true;
}

void save_settings(const std::string& path, const Settings& s) {
  std::error_code ec;
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    SWL_CHECK(out, "cannot write settings file " + tmp);
    out << to_json_text(s) << "\n";
    SWL_CHECK(out.good(), "cannot write settings file " + tmp);
  }
  // Rename so that a crash mid-write never leaves a truncated settings file behind.
  std::filesystem::rename(tmp, path, ec);
  SWL_CHECK(!ec, "cannot replace settings file " + path + ": " + ec.message());
}

std::string default_settings_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return std::string(x) + "/sweepline/settings.json";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.config/sweepline/settings.json";
  return "sweepline-settings.json";
}

}  // namespace sweepline::ui
