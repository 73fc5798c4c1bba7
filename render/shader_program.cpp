#include "render/shader_program.hpp"

#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "shaders/shader_sources.hpp"

namespace sweepline::render {

namespace {

Shader compile(GLenum kind, std::string_view src) {
  Shader s(glCreateShader(kind));
  SWL_CHECK(s, "glCreateShader failed");
  const char* text = src.data();
  GLint len = GLint(src.size());
  glShaderSource(s.get(), 1, &text, &len);
  glCompileShader(s.get());
  GLint ok = 0;
  glGetShaderiv(s.get(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint n = 0;
    glGetShaderiv(s.get(), GL_INFO_LOG_LENGTH, &n);
    std::vector<char> log(size_t(std::max(n, 1)));
    glGetShaderInfoLog(s.get(), n, nullptr, log.data());
    SWL_CHECK(false, std::string("shader compile failed: ") + log.data());
  }
  return s;
}

}  // namespace

Program build_program_from_source(std::string_view vertex_src, std::string_view fragment_src) {
  Shader vs = compile(GL_VERTEX_SHADER, vertex_src);
  Shader fs = compile(GL_FRAGMENT_SHADER, fragment_src);
  Program p(glCreateProgram());
  glAttachShader(p.get(), vs.get());
  glAttachShader(p.get(), fs.get());
  glLinkProgram(p.get());
  GLint ok = 0;
  glGetProgramiv(p.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint n = 0;
    glGetProgramiv(p.get(), GL_INFO_LOG_LENGTH, &n);
    std::vector<char> log(size_t(std::max(n, 1)));
    glGetProgramInfoLog(p.get(), n, nullptr, log.data());
    SWL_CHECK(false, std::string("program link failed: ") + log.data());
  }
  return p;
}

Program build_program(std::string_view vertex_name, std::string_view fragment_name) {
  return build_program_from_source(shaders::source(vertex_name), shaders::source(fragment_name));
}

}  // namespace sweepline::render
