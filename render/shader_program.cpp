#include "render/shader_program.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "shaders/shader_sources.hpp"

namespace sweepline::render {

namespace {

// Shaders and programs report status and logs through parallel entry points
// (glGetShaderiv/glGetShaderInfoLog, glGetProgramiv/glGetProgramInfoLog); throws with the log.
template <class GetIv, class GetLog>
void check_status(GLuint obj, GLenum status, GetIv get_iv, GetLog get_log, const char* what) {
  GLint ok = 0;
  get_iv(obj, status, &ok);
  if (ok) return;
  GLint n = 0;
  get_iv(obj, GL_INFO_LOG_LENGTH, &n);
  std::vector<char> log(size_t(std::max(n, 1)));
  get_log(obj, n, nullptr, log.data());
  SWL_CHECK(false, std::string(what) + log.data());
}

Shader compile(GLenum kind, std::string_view src) {
  Shader s(glCreateShader(kind));
  SWL_CHECK(s, "glCreateShader failed");
  const char* text = src.data();
  GLint len = GLint(src.size());
  glShaderSource(s.get(), 1, &text, &len);
  glCompileShader(s.get());
  check_status(s.get(), GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog,
               "shader compile failed: ");
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
  check_status(p.get(), GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog,
               "program link failed: ");
  return p;
}

Program build_program(std::string_view vertex_name, std::string_view fragment_name) {
  return build_program_from_source(shaders::source(vertex_name), shaders::source(fragment_name));
}

}  // namespace sweepline::render
