#include "ui/view_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "app/cli/option_checks.hpp"
#include "app/cli/stop_signals.hpp"
#include "app/sim/scenario.hpp"
#include "app/source/sim_navigation.hpp"
#include "app/source/source.hpp"
#include "app/source/source_uri.hpp"
#include "render/ppi_style.hpp"
#include "ui/view_options.hpp"

namespace sweepline::ui {

namespace {

// The values are checked while the command line is parsed (exit status 2, a message naming the
// option), as for the other commands (app/cli/option_checks.hpp, docs/limits.md).
CLI::Validator palette_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        try {
          render::palette_from_string(v);
          return {};
        } catch (const std::exception&) {
          return "palette must be green, amber, multi or imo, not '" + v + "'";
        }
      },
      "PALETTE");
}

// --size: 0 (automatic) or a display side the renderer takes, never clamped silently.
CLI::Validator display_size_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' ||
            !(n == 0 || (n >= kMinDisplaySide && n <= kMaxDisplaySide)))
          return "display size must be 0 (automatic) or " + std::to_string(kMinDisplaySide) + ".." +
                 std::to_string(kMaxDisplaySide) + " pixels, not '" + v + "'";
        return {};
      },
      "PIXELS");
}

// The settings file: an existing file, or a new one in an existing folder (it need not be
// writable: with --no-save it is only read, and a failed save is a warning).
CLI::Validator config_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path p(v);
        if (v.empty()) return "empty file name";
        if (fs::is_directory(p, ec)) return "'" + v + "' is a folder, not a settings file";
        if (fs::exists(p, ec)) return {};
        const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        if (!fs::is_directory(dir, ec)) return "folder '" + dir.string() + "' does not exist";
        return {};
      },
      "FILE");
}

// The source: a URI whose form is wrong is refused before anything opens ("-" is standard input).
CLI::Validator source_check() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        try {
          const source::ParsedUri u = source::parse_uri(v);
          if (u.scheme == "sim") {
            bool navigation = true;
            sim::parse_sim_uri(source::strip_nav_option(v, navigation));
          }
          if (u.scheme == "udp") source::live_options(u, SourceOptions{}, v);
          if (u.scheme == "file" && v.rfind("file://", 0) == 0)
            source::replay_options(u, SourceOptions{}, v);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      "URI");
}

// A number in lo..hi (CLI::Range lets NaN through). `name` starts the message: CLI11 names the
// option itself, except a hidden one.
CLI::Validator number_check(const std::string& name, const std::string& unit, double lo,
                            double hi) {
  return CLI::Validator(
      [name, unit, lo, hi](std::string& v) -> std::string {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || !(d >= lo && d <= hi)) {
          char range[64];
          std::snprintf(range, sizeof range, "%g..%g", lo, hi);
          return (name.empty() ? "" : name + " ") + "must be " + range + " " + unit + ", not '" +
                 v + "'";
        }
        return {};
      },
      "NUMBER");
}

}  // namespace

cli::Command add_view_command(CLI::App& parent) {
  auto opt = std::make_shared<ViewOptions>();
  cli::Command c;
  c.app = parent.add_subcommand("view", "Radar display (the default subcommand)");
  c.app
      ->add_option("--source", opt->source,
                   "Source URI: sim://SCENARIO?seed=N&rpm=R, a capture file, a pipe or - "
                   "(standard input, read whole first), udp://GROUP:PORT (default: the "
                   "settings' source, first run " +
                       std::string(kDefaultSourceUri) + ")")
      ->check(source_check());
  c.app
      ->add_option("--frames", opt->frames,
                   "Window: stop after N frames (0: run until closed). Headless: N rotations")
      ->check(CLI::Range(0, 1 << 30));
  c.app->add_option("--screenshot", opt->screenshot, "Window: write a PNG of the last frame")
      ->check(cli::output_file_check());
  c.app->add_option("--width", opt->width, "Window or offscreen width")
      ->check(CLI::Range(kMinDisplaySide, kMaxDisplaySide))
      ->capture_default_str();
  c.app->add_option("--height", opt->height, "Window or offscreen height")
      ->check(CLI::Range(kMinDisplaySide, kMaxDisplaySide))
      ->capture_default_str();
  c.app
      ->add_option("--config", opt->config,
                   "Settings file (default ~/.config/sweepline/settings.json)")
      ->check(config_check());
  c.app->add_flag("--no-save", opt->no_save, "Do not write the settings back on exit");
  c.app->add_option("--script", opt->script, "Window: run scripted commands (see docs/display.md)")
      ->check(CLI::ExistingFile);
  c.app->add_flag("--headless", opt->headless,
                  "Render offscreen through EGL (no window, no X server)");
  c.app
      ->add_option("--snapshot", opt->snapshot,
                   "Headless: PNG of the composed display after the last frame")
      ->check(cli::output_file_check());
  c.app
      ->add_option("--report", opt->report,
                   "Headless: JSON report (per frame: timings and components; the input's "
                   "counters)")
      ->check(cli::output_file_check());
  c.app->add_option("--egl", opt->egl, "Headless EGL platform: auto, device, surfaceless")
      ->check(CLI::IsMember({"auto", "device", "surfaceless"}))
      ->capture_default_str();
  c.app
      ->add_option("--backend", opt->backend,
                   "Pipeline backend: cuda or cpu (default: the settings', cuda)")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  c.app->add_option("--size", opt->size, "Display texture side in pixels (0: auto)")
      ->check(display_size_check());
  c.app->add_option("--palette", opt->palette, "green, amber, multi, imo")->check(palette_check());
  c.app->add_flag("--hide-panels", opt->hide_panels, "Show the PPI only");
  c.app
      ->add_option("--frame-radials", opt->frame_radials,
                   "Headless: a frame every N radials, as a window at its frame rate (0: every "
                   "rotation)")
      ->check(CLI::Range(0, 1 << 20));
  c.app
      ->add_option("--timeout", opt->timeout_s,
                   "Headless: seconds to wait for each rotation (more than 0)")
      ->check(number_check("", "seconds", 0.001, 86400.0))
      ->capture_default_str();
  // Hidden (no group): for the window's tests, which show that nothing waits for processing.
  c.app
      ->add_option("--test-frame-delay-ms", opt->test_frame_delay_ms,
                   "Tests: every frame takes at least this long to process (CPU backend)")
      ->check(number_check("--test-frame-delay-ms", "milliseconds", 0, 60000))
      ->group("");
  c.run = [opt] {
    cli::StopSignals signals;  // before the engine's threads start (see stop_signals.hpp)
    ViewOptions o = *opt;
    o.stop = &signals;
    return o.headless ? run_headless(o) : run_window(o);
  };
  return c;
}

}  // namespace sweepline::ui
