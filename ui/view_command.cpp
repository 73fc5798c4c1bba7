#include "ui/view_command.hpp"

#include <memory>

#include "app/source/source.hpp"
#include "ui/view_options.hpp"

namespace sweepline::ui {

cli::Command add_view_command(CLI::App& parent) {
  auto opt = std::make_shared<ViewOptions>();
  cli::Command c;
  c.app = parent.add_subcommand("view", "Radar display (the default subcommand)");
  c.app->add_option(
      "--source", opt->source,
      "Source URI: sim://SCENARIO?seed=N&rpm=R, a capture file, udp://GROUP:PORT (default: the "
      "settings' source, first run " +
          std::string(kDefaultSourceUri) + ")");
  c.app->add_option("--frames", opt->frames,
                    "Window: stop after N frames (0: run until closed). Headless: N rotations");
  c.app->add_option("--screenshot", opt->screenshot, "Window: write a PNG of the last frame");
  c.app->add_option("--width", opt->width, "Window or offscreen width")->capture_default_str();
  c.app->add_option("--height", opt->height, "Window or offscreen height")->capture_default_str();
  c.app->add_option("--config", opt->config,
                    "Settings file (default ~/.config/sweepline/settings.json)");
  c.app->add_flag("--no-save", opt->no_save, "Do not write the settings back on exit");
  c.app->add_option("--script", opt->script, "Window: run scripted commands (see docs/display.md)");
  c.app->add_flag("--headless", opt->headless,
                  "Render offscreen through EGL (no window, no X server)");
  c.app->add_option("--snapshot", opt->snapshot,
                    "Headless: PNG of the composed display after the last frame");
  c.app->add_option("--report", opt->report,
                    "Headless: JSON report (per frame: timings and components)");
  c.app->add_option("--egl", opt->egl, "Headless EGL platform: auto, device, surfaceless")
      ->capture_default_str();
  c.app->add_option("--backend", opt->backend,
                    "Pipeline backend: cuda or cpu (default: the settings', cuda)");
  c.app->add_option("--size", opt->size, "Display texture side in pixels (0: auto)");
  c.app->add_option("--palette", opt->palette, "green, amber, multi, imo");
  c.app->add_flag("--hide-panels", opt->hide_panels, "Show the PPI only");
  c.app
      ->add_option("--frame-radials", opt->frame_radials,
                   "Headless: a frame every N radials, as a window at its frame rate (0: every "
                   "rotation)")
      ->check(CLI::Range(0, 1 << 20));
  c.app->add_option("--timeout", opt->timeout_s, "Headless: seconds to wait for each rotation")
      ->capture_default_str();
  c.run = [opt] { return opt->headless ? run_headless(*opt) : run_window(*opt); };
  return c;
}

}  // namespace sweepline::ui
