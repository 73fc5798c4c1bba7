#include "ui/settings.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "app/common/check.hpp"

namespace sweepline::ui {

using nlohmann::json;

namespace {

using engine::read_field;

// The view's plain fields, named once for both the writer and the reader so they cannot drift.
template <class V, class F>
void visit_view(V& v, F&& f) {
  f("ring_spacing_m", v.ring_spacing_m);
  f("show_rings", v.show_rings);
  f("show_bearing_scale", v.show_bearing_scale);
  f("show_sweep_line", v.show_sweep_line);
  f("heading_deg", v.heading_deg);
  f("off_centre", v.off_centre);
  f("show_boxes", v.show_boxes);
  f("show_box_labels", v.show_box_labels);
  f("show_panels", v.show_panels);
  f("orientation", v.orientation);
  f("motion", v.motion);
  f("range_scale_nm", v.range_scale_nm);
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
  read_field(j, "glow_rate_per_s", s.glow_rate_per_s);
  read_field(j, "sweep_fade_floor", s.sweep_fade_floor);
  read_field(j, "gain", s.gain);
  if (j.contains("layers"))
    for (int i = 0; i < render::kLayerCount; ++i) {
      const char* name = render::to_string(render::Layer(i));
      if (!j["layers"].contains(name)) continue;
      read_field(j["layers"][name], "visible", s.layers[size_t(i)].visible);
      read_field(j["layers"][name], "opacity", s.layers[size_t(i)].opacity);
    }
}

json settings_json(const Settings& s) {
  json view = json::object();
  view["style"] = style_json(s.view.style);
  visit_view(s.view, [&view](const char* key, const auto& v) { view[key] = v; });
  return {{"source", engine::source_json(s.source)},
          {"view", view},
          {"processing", engine::processing_json(s.processing)},
          {"tracking", engine::tracking_json(s.tracking)},
          {"navigation", engine::navigation_json(s.navigation)}};
}

}  // namespace

Settings combine(const engine::EngineSettings& engine_part, const ViewSettings& view) {
  Settings s;
  static_cast<engine::EngineSettings&>(s) = engine_part;
  s.view = view;
  return s;
}

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
    if (j.contains("source")) engine::read_source(j["source"], s.source);
    if (j.contains("view")) {
      const json& v = j["view"];
      if (v.contains("style")) style_from(v["style"], s.view.style);
      visit_view(s.view, [&v](const char* key, auto& field) { read_field(v, key, field); });
    }
    if (j.contains("processing")) engine::read_processing(j["processing"], s.processing);
    if (j.contains("tracking")) engine::read_tracking(j["tracking"], s.tracking);
    if (j.contains("navigation")) engine::read_navigation(j["navigation"], s.navigation);
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

SettingsSaver::SettingsSaver(std::string path, const Settings& initial)
    : path_(std::move(path)), written_(to_json_text(initial)) {}

bool SettingsSaver::offer(const Settings& s, double now_s) {
  std::string text = to_json_text(s);
  if (text == written_) {
    pending_.clear();  // changed and changed back: nothing to write
    return false;
  }
  if (text != pending_) {
    pending_ = std::move(text);
    changed_at_s_ = now_s;
    return false;
  }
  if (now_s - changed_at_s_ < kSaveDelayS) return false;
  try {
    save_settings(path_, s);
  } catch (const std::exception& e) {
    spdlog::warn("settings not saved: {}", e.what());
    written_ = std::move(pending_);  // not again until the next change
    pending_.clear();
    return false;
  }
  written_ = std::move(pending_);
  pending_.clear();
  ++writes_;
  spdlog::debug("settings saved to {}", path_);
  return true;
}

void SettingsSaver::flush(const Settings& s) {
  save_settings(path_, s);
  written_ = to_json_text(s);
  pending_.clear();
  ++writes_;
}

std::string default_settings_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return std::string(x) + "/sweepline/settings.json";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.config/sweepline/settings.json";
  return "sweepline-settings.json";
}

}  // namespace sweepline::ui
