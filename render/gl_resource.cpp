#include "render/gl_resource.hpp"

namespace sweepline::render {

Texture make_texture() {
  GLuint n = 0;
  glGenTextures(1, &n);
  return Texture(n);
}
Buffer make_buffer() {
  GLuint n = 0;
  glGenBuffers(1, &n);
  return Buffer(n);
}
VertexArray make_vertex_array() {
  GLuint n = 0;
  glGenVertexArrays(1, &n);
  return VertexArray(n);
}
Framebuffer make_framebuffer() {
  GLuint n = 0;
  glGenFramebuffers(1, &n);
  return Framebuffer(n);
}
Renderbuffer make_renderbuffer() {
  GLuint n = 0;
  glGenRenderbuffers(1, &n);
  return Renderbuffer(n);
}

}  // namespace sweepline::render
