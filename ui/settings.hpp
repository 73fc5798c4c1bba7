#pragma once
// Everything the user can set that outlives a run, as one settings.json: the engine's part (the
// "source", "processing", "tracking" and "navigation" objects, app/engine/engine_settings.hpp) and
// the view's (the "view" object: palette, layers, overlays). Unknown keys are ignored and missing
// ones keep their defaults, so old files keep loading. ImGui's window layout lives separately in
// its ini file.
#include <string>

#include "app/engine/engine_settings.hpp"
#include "render/ppi_style.hpp"

namespace sweepline::ui {

using engine::ProcessingSettings;
using engine::SourceSettings;

struct ViewSettings {
  render::PpiStyle style;
  double ring_spacing_m = 0;  // 0: automatic (about five rings over the range)
  bool show_rings = true;
  bool show_bearing_scale = true;
  bool show_sweep_line = true;
  double heading_deg = 0;  // heading marker (and the look-ahead direction when off-centre)
  bool off_centre = false;
  bool show_boxes = true;
  bool show_box_labels = false;  // id and area beside each box
  bool show_panels = true;
};

// The engine's settings (handed to engine::Engine, which keeps them from then on) and the
// view's (kept by the console).
struct Settings : engine::EngineSettings {
  ViewSettings view;
};

// The file's contents from what the engine and the console hold at the end of a run.
Settings combine(const engine::EngineSettings& engine_part, const ViewSettings& view);

// Missing file -> defaults. A malformed file -> defaults and a warning naming the problem (the
// app must start); returns false then.
bool load_settings(const std::string& path, Settings& out, std::string* error = nullptr);
void save_settings(const std::string& path, const Settings& s);  // throws sweepline::Error
std::string to_json_text(const Settings& s);
// Default place: $XDG_CONFIG_HOME/sweepline/settings.json or ~/.config/sweepline/settings.json.
std::string default_settings_path();

}  // namespace sweepline::ui
