#pragma once
// Move-only owners of GL object names. Each deletes its name in the destructor; a moved-from
// owner holds 0 and deletes nothing. Needs a current context on construction and destruction.
#include <GL/glew.h>

#include <utility>

namespace sweepline::render {

template <void (*Delete)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint name) : name_(name) {}
  ~GlName() { reset(); }
  GlName(GlName&& o) noexcept : name_(std::exchange(o.name_, 0)) {}
  GlName& operator=(GlName&& o) noexcept {
    if (this != &o) {
      reset();
      name_ = std::exchange(o.name_, 0);
    }
    return *this;
  }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;

  GLuint get() const { return name_; }
  explicit operator bool() const { return name_ != 0; }
  void reset() {
    if (name_) Delete(name_);
    name_ = 0;
  }

 private:
  GLuint name_ = 0;
};

namespace detail {
inline void delete_texture(GLuint n) {
  glDeleteTextures(1, &n);
}
inline void delete_buffer(GLuint n) {
  glDeleteBuffers(1, &n);
}
inline void delete_vertex_array(GLuint n) {
  glDeleteVertexArrays(1, &n);
}
inline void delete_framebuffer(GLuint n) {
  glDeleteFramebuffers(1, &n);
}
inline void delete_renderbuffer(GLuint n) {
  glDeleteRenderbuffers(1, &n);
}
inline void delete_program(GLuint n) {
  glDeleteProgram(n);
}
inline void delete_shader(GLuint n) {
  glDeleteShader(n);
}
}  // namespace detail

using Texture = GlName<detail::delete_texture>;
using Buffer = GlName<detail::delete_buffer>;
using VertexArray = GlName<detail::delete_vertex_array>;
using Framebuffer = GlName<detail::delete_framebuffer>;
using Renderbuffer = GlName<detail::delete_renderbuffer>;
using Program = GlName<detail::delete_program>;
using Shader = GlName<detail::delete_shader>;

Texture make_texture();
Buffer make_buffer();
VertexArray make_vertex_array();
Framebuffer make_framebuffer();
Renderbuffer make_renderbuffer();

}  // namespace sweepline::render
