#pragma once
// The Dear ImGui context and its GLFW/OpenGL3 backends for one window, as an owner.
struct GLFWwindow;

namespace sweepline::ui {

class ImGuiLayer {
 public:
  ImGuiLayer(GLFWwindow* window, const char* glsl_version, const char* ini_path);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  void new_frame();
  void render();  // draws the ImGui draw data into the current framebuffer
};

}  // namespace sweepline::ui
