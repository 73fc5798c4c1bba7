#include "render/gl_resource.hpp"

namespace sweepline::render {

namespace {
// glGen* entry points are GLEW function pointers resolved at glewInit, so they are passed as
// values and called at run time rather than bound as template arguments.
template <class Owner, class Generate>
Owner generate(Generate gen) {
  GLuint n = 0;
  gen(1, &n);
  return Owner(n);
}
}  // namespace

Texture make_texture() {
  return generate<Texture>(glGenTextures);
}
Buffer make_buffer() {
  return generate<Buffer>(glGenBuffers);
}
VertexArray make_vertex_array() {
  return generate<VertexArray>(glGenVertexArrays);
}
Framebuffer make_framebuffer() {
  return generate<Framebuffer>(glGenFramebuffers);
}
Renderbuffer make_renderbuffer() {
  return generate<Renderbuffer>(glGenRenderbuffers);
}

}  // namespace sweepline::render
