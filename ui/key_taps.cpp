#include "ui/key_taps.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace sweepline::ui {

KeyTaps::KeyTaps(GLFWwindow* window) : window_(window) {
  glfwSetWindowUserPointer(window_, this);
  next_ = glfwSetKeyCallback(window_, &KeyTaps::on_key);
}

KeyTaps::~KeyTaps() {
  glfwSetKeyCallback(window_, next_);
  glfwSetWindowUserPointer(window_, nullptr);
}

void KeyTaps::on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  auto* self = static_cast<KeyTaps*>(glfwGetWindowUserPointer(w));
  if (!self) return;
  if (action == GLFW_PRESS) {
    self->pressed_.push_back(key);
  } else if (action == GLFW_RELEASE &&
             std::find(self->pressed_.begin(), self->pressed_.end(), key) != self->pressed_.end()) {
    self->held_back_.push_back({key, scancode, mods});  // the frame has not seen it down yet
    return;
  }
  if (self->next_) self->next_(w, key, scancode, action, mods);
}

void KeyTaps::end_frame() {
  pressed_.clear();
  std::vector<Release> releases;
  releases.swap(held_back_);
  if (next_)
    for (const Release& r : releases) next_(window_, r.key, r.scancode, GLFW_RELEASE, r.mods);
}

}  // namespace sweepline::ui
