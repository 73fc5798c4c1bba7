#pragma once
#include <string>

namespace sweepline::cli {
class StopSignals;
}

namespace sweepline::ui {

// Window, offscreen and display texture sides the command line accepts (docs/limits.md): the
// renderer's texture limit, and the smallest the engine draws (it would raise a smaller one).
inline constexpr int kMinDisplaySide = 64;
inline constexpr int kMaxDisplaySide = 16384;

struct ViewOptions {
  std::string source;      // empty: the one in the settings (default sim://harbour)
  int frames = 0;          // window: stop after N frames (0 = until closed); headless: N rotations
  std::string screenshot;  // window: PNG of the last frame
  int width = 1600;
  int height = 1000;
  std::string config;    // settings file; empty: default_settings_path()
  bool no_save = false;  // do not write the settings back on exit
  std::string script;    // window: scripted commands
  bool headless = false;
  std::string snapshot;      // headless: PNG of the composed display after the last frame
  std::string report;        // headless: JSON report
  std::string egl = "auto";  // headless: auto | device | surfaceless
  std::string backend;       // override the settings' backend
  int size = -1;             // override the display texture size
  std::string palette;       // override the palette
  bool hide_panels = false;  // PPI only
  double timeout_s = 120;    // headless: give up waiting for a rotation after this long
  int frame_radials = 0;     // headless: a frame every N radials (0: every rotation)
  // Window tests: each frame takes at least this long to process (ui/delayed_pipeline.hpp).
  int test_frame_delay_ms = 0;
  // SIGINT/SIGTERM: the loops stop at the next frame and shut down as at their end.
  const cli::StopSignals* stop = nullptr;
};

int run_window(const ViewOptions& opt);
int run_headless(const ViewOptions& opt);

}  // namespace sweepline::ui
