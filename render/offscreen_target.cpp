#include "render/offscreen_target.hpp"

#include "render/gl_check.hpp"

namespace sweepline::render {

OffscreenTarget::OffscreenTarget(int width, int height)
    : width_(width), height_(height), colour_(make_renderbuffer()), fbo_(make_framebuffer()) {
  SWL_CHECK(width > 0 && height > 0 && width <= 16384 && height <= 16384,
            "offscreen size out of range");
  glBindRenderbuffer(GL_RENDERBUFFER, colour_.get());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_.get());
  SWL_CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
            "offscreen framebuffer incomplete");
  check_gl("offscreen target");
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  glViewport(0, 0, width_, height_);
}

}  // namespace sweepline::render
