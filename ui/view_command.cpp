#include "ui/view_command.hpp"

#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

#include "app/source/source.hpp"
#include "render/readback.hpp"
#include "sweepline/version.hpp"
#include "ui/glfw_window.hpp"
#include "ui/imgui_layer.hpp"

namespace sweepline::ui {

namespace {

struct ViewOptions {
  std::string source = kDefaultSourceUri;
  int frames = 0;  // 0 = until the window closes
  std::string screenshot;
  int width = 1280;
  int height = 800;
};

int run_window(const ViewOptions& opt) {
  GlfwLibrary glfw;
  GlfwWindow window(opt.width, opt.height, "Sweepline");
  ImGuiLayer imgui(window.get(), window.glsl_version(), "sweepline-imgui.ini");
  spdlog::info("GL {} on {}", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  for (int frame = 0; !glfwWindowShouldClose(window.get()); ++frame) {
    // The loop order of Dear ImGui's GLFW/OpenGL3 example: poll, new frame, UI, app GL, ImGui, swap.
    glfwPollEvents();
    imgui.new_frame();
    ImGui::Begin("Sweepline");
    ImGui::Text("Sweepline %s", kVersion);
    ImGui::Text("Source: %s", opt.source.c_str());
    ImGui::Text("%.1f frames/s", double(ImGui::GetIO().Framerate));
    ImGui::End();

    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window.get(), &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.02f, 0.06f, 0.03f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui.render();

    const bool last = opt.frames > 0 && frame + 1 >= opt.frames;
    if (last && !opt.screenshot.empty()) {
      glReadBuffer(GL_BACK);
      render::save_framebuffer_png(opt.screenshot, fb_w, fb_h);
      spdlog::info("screenshot written to {}", opt.screenshot);
    }
    glfwSwapBuffers(window.get());
    if (last) break;
  }
  return 0;
}

}  // namespace

cli::Command add_view_command(CLI::App& parent) {
  auto opt = std::make_shared<ViewOptions>();
  cli::Command c;
  c.app = parent.add_subcommand("view", "Radar display (the default subcommand)");
  c.app->add_option("--source", opt->source, "Source URI: sim://SCENARIO?seed=N&rpm=R, a capture file, udp://GROUP:PORT")
      ->capture_default_str();
  c.app->add_option("--frames", opt->frames, "Stop after N frames (0: run until closed)");
  c.app->add_option("--screenshot", opt->screenshot, "Write a PNG of the last frame");
  c.app->add_option("--width", opt->width, "Window width")->capture_default_str();
  c.app->add_option("--height", opt->height, "Window height")->capture_default_str();
  c.run = [opt] { return run_window(*opt); };
  return c;
}

}  // namespace sweepline::ui
