#include "ui/glfw_window.hpp"

#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <utility>

#include "app/common/check.hpp"
#include "render/egl_context.hpp"

namespace sweepline::ui {

GlfwLibrary::GlfwLibrary() {
  glfwSetErrorCallback([](int code, const char* text) { spdlog::warn("GLFW {}: {}", code, text); });
  SWL_CHECK(glfwInit(), "cannot initialise GLFW (no display? try `sweepline view --headless`)");
}

GlfwLibrary::~GlfwLibrary() {
  glfwTerminate();
}

GlfwWindow::GlfwWindow(int width, int height, const std::string& title) {
  for (auto [maj, min, glsl] :
       {std::tuple{4, 5, "#version 450"}, std::tuple{3, 3, "#version 330"}}) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, maj);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, min);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (window_) {
      glsl_version_ = glsl;
      break;
    }
  }
  SWL_CHECK(window_, "cannot create a GL 4.5 or 3.3 core window");
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  render::load_gl_functions();
}

GlfwWindow::~GlfwWindow() {
  if (window_) glfwDestroyWindow(window_);
}

GlfwWindow::GlfwWindow(GlfwWindow&& o) noexcept
    : window_(std::exchange(o.window_, nullptr)), glsl_version_(o.glsl_version_) {}

GlfwWindow& GlfwWindow::operator=(GlfwWindow&& o) noexcept {
  if (this != &o) {
    if (window_) glfwDestroyWindow(window_);
    window_ = std::exchange(o.window_, nullptr);
    glsl_version_ = o.glsl_version_;
  }
  return *this;
}

}  // namespace sweepline::ui
