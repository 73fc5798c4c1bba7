#pragma once
// An RGBA8 framebuffer object to render into without a window (headless mode, tests).
#include "render/gl_resource.hpp"

namespace sweepline::render {

class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);
  void bind() const;  // as the draw and read framebuffer, viewport set to its size
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_, height_;
  Renderbuffer colour_;
  Framebuffer fbo_;
};

}  // namespace sweepline::render
