#pragma once
// Everything the user can set that outlives a run, as one settings.json: the engine's part (the
// "source", "processing", "tracking" and "navigation" objects, app/engine/engine_settings.hpp) and
// the view's (the "view" object: palette, layers, overlays). Unknown keys are ignored and missing
// ones keep their defaults, so old files keep loading. ImGui's window layout lives separately in
// its ini file.
#include <cstdint>
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
  // The picture (ui/console.cpp): orientation and motion by name (render/orientation.hpp:
  // north-up, head-up, course-up; relative, true) and the range scale, the displayed radius in
  // NM (0: the standard scale nearest the video's range).
  std::string orientation = "head-up";
  std::string motion = "relative";
  double range_scale_nm = 0;
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
// Writes the settings while the console runs, not only when it ends: a run killed or stopped
// by a signal keeps what the operator set. A change is written once the settings have stood
// still for kSaveDelayS, so a slider drag or a typed path is one write, not one per frame.
class SettingsSaver {
 public:
  // Seconds the settings must stand unchanged before they are written: a drag or typing
  // settles well within it, and a crash right after a change loses at most that much.
  static constexpr double kSaveDelayS = 1.0;
  // Seconds between two looks at the settings (each look serialises them).
  static constexpr double kLookIntervalS = 0.2;

  // `initial`: what the run started with (written only once something differs from it).
  SettingsSaver(std::string path, const Settings& initial);
  // Called every frame with the time (seconds, a monotonic clock) and a way to read the
  // settings now; looks at most every kLookIntervalS. True when it wrote the file.
  template <class Read>
  bool tick(double now_s, Read&& read) {
    if (now_s - last_look_s_ < kLookIntervalS) return false;
    last_look_s_ = now_s;
    return offer(read(), now_s);
  }
  bool offer(const Settings& s, double now_s);
  // Writes now (the end of a run); throws sweepline::Error when the file cannot be written.
  void flush(const Settings& s);
  uint64_t writes() const { return writes_; }

 private:
  std::string path_;
  std::string written_;  // the text last written (or the initial settings')
  std::string pending_;  // a changed text waiting for kSaveDelayS of calm
  double changed_at_s_ = 0;
  double last_look_s_ = -1e300;
  uint64_t writes_ = 0;
};

// Default place: $XDG_CONFIG_HOME/sweepline/settings.json or ~/.config/sweepline/settings.json.
std::string default_settings_path();

}  // namespace sweepline::ui
