#pragma once
// Everything the user can set that outlives a run: source, view, pipeline parameters, palette.
// Stored as JSON (nlohmann_json); unknown keys are ignored and missing ones keep their defaults,
// so old files keep loading. ImGui's window layout lives separately in its ini file.
#include <string>

#include "gpu/pipeline.hpp"
#include "render/ppi_style.hpp"

namespace sweepline::ui {

struct SourceSettings {
  std::string uri = "sim://harbour?seed=1&rpm=24";
  std::string scenario = "harbour";  // for the simulator tab
  int seed = 1;
  double rpm = 24;
  std::string file_path;
  std::string udp_group = "239.0.1.2";
  int udp_port = 8600;
  std::string udp_interface;
  double speed = 1.0;  // 0 = unpaced
  bool loop = true;
};

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

struct ProcessingSettings {
  std::string backend = "cuda";  // preferred; falls back to cpu with a message
  int size = 0;                  // display texture side; 0: 4096 with CUDA, 1536 on the CPU
  int azimuths = 4096;           // polar frame the sweep assembler keeps
  int range_bins = 4096;
  gpu::PipelineParams params = default_params();
  static gpu::PipelineParams default_params();
};

struct Settings {
  SourceSettings source;
  ViewSettings view;
  ProcessingSettings processing;
};

// Missing file -> defaults. A malformed file -> defaults and a warning naming the problem (the
// app must start); returns false then.
bool load_settings(const std::string& path, Settings& out, std::string* error = nullptr);
void save_settings(const std::string& path, const Settings& s);  // throws sweepline::Error
std::string to_json_text(const Settings& s);
// Default place: $XDG_CONFIG_HOME/sweepline/settings.json or ~/.config/sweepline/settings.json.
std::string default_settings_path();

}  // namespace sweepline::ui
