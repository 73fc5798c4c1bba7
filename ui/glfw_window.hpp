#pragma once
// The GLFW library and one window with a current GL context, as move-only owners.
#include <string>

struct GLFWwindow;

namespace sweepline::ui {

class GlfwLibrary {
 public:
  GlfwLibrary();  // throws if glfwInit fails (no display)
  ~GlfwLibrary();
  GlfwLibrary(const GlfwLibrary&) = delete;
  GlfwLibrary& operator=(const GlfwLibrary&) = delete;
};

class GlfwWindow {
 public:
  // Tries GL 4.5 core, then 3.3 core; loads GL functions; vsync on.
  GlfwWindow(int width, int height, const std::string& title);
  ~GlfwWindow();
  GlfwWindow(GlfwWindow&& o) noexcept;
  GlfwWindow& operator=(GlfwWindow&& o) noexcept;
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  GLFWwindow* get() const { return window_; }
  const char* glsl_version() const { return glsl_version_; }

 private:
  GLFWwindow* window_ = nullptr;
  const char* glsl_version_ = "#version 330";
};

}  // namespace sweepline::ui
