#include "render/gl_check.hpp"

namespace sweepline::render {

std::string gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error " + std::to_string(e);
  }
}

void check_gl(const char* what) {
  GLenum e = glGetError();
  SWL_CHECK(e == GL_NO_ERROR, std::string(what) + ": " + gl_error_name(e));
}

}  // namespace sweepline::render
