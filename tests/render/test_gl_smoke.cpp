// Headless GL smoke test: an EGL context, a texture, a shader from shaders/, a quad drawn into a
// framebuffer object, and the pixels read back and checked.
#include <GL/glew.h>
#include <gtest/gtest.h>

#include <vector>

#include "render/egl_context.hpp"
#include "render/gl_check.hpp"
#include "render/gl_resource.hpp"
#include "render/readback.hpp"
#include "render/shader_program.hpp"

using namespace sweepline::render;

TEST(GlSmoke, TexturedQuadReadsBackThroughEgl) {
  EglContext ctx("auto");
  std::printf("EGL platform %s, GL %s, renderer %s\n", ctx.platform().c_str(),
              ctx.version().c_str(), ctx.renderer().c_str());
  constexpr int W = 64, H = 32;
  // Left half 255, right half 64; the shader tints by (1, 0.5, 0).
  std::vector<uint8_t> image(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) image[y * W + x] = x < W / 2 ? 255 : 64;
  Texture tex = make_texture();
  glBindTexture(GL_TEXTURE_2D, tex.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, W, H, 0, GL_RED, GL_UNSIGNED_BYTE, image.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  check_gl("texture upload");

  Renderbuffer color = make_renderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, color.get());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
  Framebuffer fbo = make_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color.get());
  ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));

  Program prog = build_program("textured_quad.vert", "textured_quad.frag");
  VertexArray vao = make_vertex_array();
  glViewport(0, 0, W, H);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(prog.get());
  glUniform1i(glGetUniformLocation(prog.get(), "u_image"), 0);
  glUniform3f(glGetUniformLocation(prog.get(), "u_tint"), 1.0f, 0.5f, 0.0f);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, tex.get());
  glBindVertexArray(vao.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  check_gl("draw");

  auto px = read_framebuffer_rgba(W, H);
  auto at = [&](int x, int y, int c) { return int(px[(size_t(y) * W + x) * 4 + c]); };
  // Every pixel was drawn (no clear colour left) and each half has its tinted value.
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int v = x < W / 2 ? 255 : 64;
      ASSERT_NEAR(at(x, y, 0), v, 1) << x << "," << y;
      ASSERT_NEAR(at(x, y, 1), v / 2, 1) << x << "," << y;
      ASSERT_EQ(at(x, y, 2), 0) << x << "," << y;
    }
}

TEST(GlSmoke, MissingShaderIsAClearError) {
  EglContext ctx("auto");
  EXPECT_THROW(build_program("no_such.vert", "textured_quad.frag"), sweepline::Error);
  EXPECT_THROW(build_program_from_source("#version 330 core\nvoid main(){ nonsense }", "x"),
               sweepline::Error);
}
