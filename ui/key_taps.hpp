#pragma once
// Keeps a short key tap for the next frame. ImGui 1.86's GLFW backend sets io.KeysDown on the
// press and clears it on the release; when both arrive in one glfwPollEvents() (a tap shorter
// than a frame, or a frame made long by a loaded machine) the frame never sees the key down and
// the tap is lost. This sits in front of the backend's key callback: a release that follows its
// press within the same frame is held back and handed on after that frame has been built, so
// ImGui::IsKeyPressed() sees the tap once. Mouse buttons need no help: the backend keeps a press
// that is released within a frame (its MouseJustPressed).
#include <vector>

struct GLFWwindow;

namespace sweepline::ui {

class KeyTaps {
 public:
  // After ImGui's GLFW backend has installed its callbacks; uses the window's user pointer.
  explicit KeyTaps(GLFWwindow* window);
  ~KeyTaps();  // puts the backend's callback back
  KeyTaps(const KeyTaps&) = delete;
  KeyTaps& operator=(const KeyTaps&) = delete;

  // Call once the frame has been built (after ImGui::Render): the held releases go through.
  void end_frame();

 private:
  static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);

  struct Release {
    int key, scancode, mods;
  };
  GLFWwindow* window_;
  void (*next_)(GLFWwindow*, int, int, int, int) = nullptr;  // the backend's callback
  std::vector<int> pressed_;        // keys pressed since the last end_frame()
  std::vector<Release> held_back_;  // their releases, for after the frame
};

}  // namespace sweepline::ui
