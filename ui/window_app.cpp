// `sweepline view`: the window. The loop keeps Dear ImGui's GLFW/OpenGL3 example order.
#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>

#include "app/cli/stop_signals.hpp"
#include "app/engine/engine.hpp"
#include "gpu/backend/make_pipeline.hpp"
#include "render/readback.hpp"
#include "ui/console.hpp"
#include "ui/delayed_pipeline.hpp"
#include "ui/glfw_window.hpp"
#include "ui/imgui_layer.hpp"
#include "ui/key_taps.hpp"
#include "ui/panels.hpp"
#include "ui/script.hpp"
#include "ui/state_dump.hpp"
#include "ui/view_options.hpp"
#include "ui/view_setup.hpp"

namespace sweepline::ui {

namespace {

constexpr float kDoubleClickS = 0.30f;  // ImGui's default, the usual desktop setting

// A FIFO or a character device (/dev/stdin on a pipe): read once, never worth reopening.
bool is_pipe(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  return !ec && (st.type() == std::filesystem::file_type::fifo ||
                 st.type() == std::filesystem::file_type::character);
}

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void toggle_fullscreen(GLFWwindow* w, int& saved_x, int& saved_y, int& saved_w, int& saved_h) {
  if (glfwGetWindowMonitor(w)) {
    glfwSetWindowMonitor(w, nullptr, saved_x, saved_y, saved_w, saved_h, 0);
    return;
  }
  GLFWmonitor* m = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
  if (!mode) return;
  glfwGetWindowPos(w, &saved_x, &saved_y);
  glfwGetWindowSize(w, &saved_w, &saved_h);
  glfwSetWindowMonitor(w, m, 0, 0, mode->width, mode->height, mode->refreshRate);
}

}  // namespace

int run_window(const ViewOptions& opt) {
  std::string settings_path;
  Settings settings = effective_settings(opt, settings_path);
  // Scripts are read before the window opens so that a typo fails fast.
  std::unique_ptr<ScriptRunner> script;
  if (!opt.script.empty()) script = std::make_unique<ScriptRunner>(load_script(opt.script));

  GlfwLibrary glfw;
  GlfwWindow window(opt.width, opt.height, "Sweepline radar console");
  const auto config_dir = std::filesystem::path(settings_path).parent_path();
  std::error_code ec;
  if (!config_dir.empty()) std::filesystem::create_directories(config_dir, ec);
  const std::string ini = (config_dir / "imgui.ini").string();
  // The console's own rotating log beside the settings, unless --log-file already gave one.
  if (auto logger = spdlog::default_logger(); logger && logger->sinks().size() < 2) {
    try {
      const std::string log_path = (config_dir / "sweepline.log").string();
      logger->sinks().push_back(
          std::make_shared<spdlog::sinks::rotating_file_sink_mt>(log_path, 5 << 20, 3));
      spdlog::info("logging to {}", log_path);
    } catch (const std::exception& e) {
      spdlog::warn("no log file: {}", e.what());
    }
  }
  ImGuiLayer imgui(window.get(), window.glsl_version(), ini.c_str());
  KeyTaps taps(window.get());  // after the backend's callbacks: a short tap is never lost
  apply_console_style();
  load_console_font();
  spdlog::info("GL {} on {}", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  engine::PipelineFactory factory;
  if (opt.test_frame_delay_ms > 0)
    factory = [ms = opt.test_frame_delay_ms](gpu::Backend b) {
      return make_delayed_pipeline(gpu::make_pipeline(b), ms);
    };
  Engine eng(settings, factory);
  if (opt.stop) eng.set_stop_flag(&opt.stop->flag());
  eng.open_source(eng.settings().source.uri);  // a failure shows in the Source panel
  Console console(eng, settings.view);
  int saved[4] = {0, 0, opt.width, opt.height};
  double last = seconds();
  // What the settings file gets: the engine's and the console's settings, except that a source
  // read once (standard input, a pipe) is not one to open next time.
  const bool read_once = opt.source == "-" || is_pipe(opt.source);
  const std::string before_uri = [&] {
    Settings before;
    return load_settings(settings_path, before) ? before.source.uri
                                                : std::string(kDefaultSourceUri);
  }();
  auto current_settings = [&] {
    Settings s = combine(eng.settings(), console.view_settings());
    if (read_once) s.source.uri = before_uri;
    return s;
  };
  SettingsSaver saver(settings_path, current_settings());
  FrameRate rate;

  for (int frame = 0; !glfwWindowShouldClose(window.get()) && !(opt.stop && opt.stop->requested());
       ++frame) {
    glfwPollEvents();
    const double now = seconds();
    const double dt = now - last;
    last = now;
    console.update(12.0);
    // Two clicks are a double-click when ImGui sees them down in frames less than this apart;
    // they need a frame with the button up between them, so on slow frames the 0.3 s default
    // could never be met.
    ImGui::GetIO().MouseDoubleClickTime = std::max(kDoubleClickS, float(2.5 * dt));
    imgui.new_frame();
    if (script && !script->step(console, now)) glfwSetWindowShouldClose(window.get(), GLFW_TRUE);
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window.get(), &fb_w, &fb_h);
    console.build_ui(fb_w, fb_h, true);
    console.draw_ppi(fb_w, fb_h, dt);
    imgui.render();
    taps.end_frame();
    rate.tick(now);
    if (!opt.no_save) saver.tick(now, current_settings);
    if (auto dump = script ? script->take_dump(now) : std::nullopt) {
      try {
        write_state(*dump, state_json(console, {rate.frames(), rate.fps(), saver.writes()}));
      } catch (const std::exception& e) {
        spdlog::warn("state dump: {}", e.what());
      }
    }

    const bool last_frame = opt.frames > 0 && frame + 1 >= opt.frames;
    auto shot = console.take_screenshot_request();
    if (last_frame && !opt.screenshot.empty()) shot = opt.screenshot;
    if (shot) {
      try {
        glReadBuffer(GL_BACK);
        render::save_framebuffer_png(*shot, fb_w, fb_h);
        // Shown on the PPI for a moment (after this frame, so not in the picture itself).
        console.screenshot_saved(*shot);
      } catch (const std::exception& e) {
        spdlog::error("screenshot failed: {}", e.what());
      }
    }
    glfwSwapBuffers(window.get());
    if (console.take_fullscreen_request())
      toggle_fullscreen(window.get(), saved[0], saved[1], saved[2], saved[3]);
    if (last_frame) break;
  }
  if (!opt.no_save) {
    try {
      saver.flush(current_settings());  // also after SIGINT or SIGTERM: the loop ends the same
      spdlog::info("settings saved to {}", settings_path);
    } catch (const std::exception& e) {
      spdlog::warn("settings not saved: {}", e.what());
    }
  }
  return 0;
}

}  // namespace sweepline::ui
