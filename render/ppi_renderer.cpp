#include "render/ppi_renderer.hpp"

#include <cmath>
#include <vector>

#include "render/gl_check.hpp"
#include "render/shader_program.hpp"

namespace sweepline::render {

namespace {

GLint loc(const Program& p, const char* name) {
  return glGetUniformLocation(p.get(), name);
}

}  // namespace

PpiRenderer::PpiRenderer()
    : ppi_(build_program("textured_quad.vert", "ppi.frag")),
      glow_(build_program("textured_quad.vert", "afterglow.frag")),
      vao_(make_vertex_array()) {}

void PpiRenderer::update_glow(const DisplayTextures& tex, float decay) {
  // Restore the caller's framebuffer afterwards (creating the glow targets binds them too).
  GLint prev_fbo = 0;
  GLint prev_viewport[4];
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prev_fbo);
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  if (glow_w_ != tex.width() || glow_h_ != tex.height()) {
    for (int i = 0; i < 2; ++i) {
      glow_tex_[i] = make_texture();
      glBindTexture(GL_TEXTURE_2D, glow_tex_[i].get());
      glTexImage2D(GL_TEXTURE_2D, 0, GL_R16F, tex.width(), tex.height(), 0, GL_RED, GL_FLOAT,
                   nullptr);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      glow_fbo_[i] = make_framebuffer();
      glBindFramebuffer(GL_FRAMEBUFFER, glow_fbo_[i].get());
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                             glow_tex_[i].get(), 0);
      SWL_CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
                "afterglow framebuffer incomplete");
    }
    glow_w_ = tex.width();
    glow_h_ = tex.height();
    glow_valid_ = false;
  }
  const int next = 1 - glow_cur_;
  glBindFramebuffer(GL_FRAMEBUFFER, glow_fbo_[next].get());
  glViewport(0, 0, glow_w_, glow_h_);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(glow_.get());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, tex.texture(Layer::Scan));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, glow_tex_[glow_cur_].get());
  glUniform1i(loc(glow_, "u_current"), 0);
  glUniform1i(loc(glow_, "u_previous"), 1);
  glUniform1f(loc(glow_, "u_decay"), glow_valid_ ? decay : 0.0f);
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glow_cur_ = next;
  glow_valid_ = true;
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  check_gl("afterglow pass");
}

void PpiRenderer::draw(const DisplayTextures& tex, const DisplayGeometry& geo,
                       const PpiStyle& style, const PpiView& view, int fb_width, int fb_height,
                       double sweep_deg, double dt_s, bool have_data) {
  have_data =
      have_data && tex.width() > 0 && geo.width == tex.width() && geo.height == tex.height();
  const bool realtime =
      style.afterglow == Afterglow::RealTime && have_data && style.layers[0].visible;
  if (realtime)
    update_glow(tex, float(std::exp(-double(style.glow_rate_per_s) * std::max(dt_s, 0.0))));

  const ScreenRect& r = view.rect();
  glViewport(0, 0, fb_width, fb_height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(int(r.x), int(float(fb_height) - (r.y + r.h)), int(r.w), int(r.h));
  glDisable(GL_BLEND);
  glUseProgram(ppi_.get());
  const GLuint units[5] = {tex.texture(Layer::Scan), tex.texture(Layer::Denoised),
                           tex.texture(Layer::Binary), tex.texture(Layer::Labels),
                           realtime ? glow_tex_[glow_cur_].get() : 0u};
  const char* names[5] = {"u_scan", "u_denoised", "u_binary", "u_labels", "u_glow"};
  for (int i = 0; i < 5; ++i) {
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, units[i]);
    glUniform1i(loc(ppi_, names[i]), i);
  }
  glUniform1f(loc(ppi_, "u_fb_height"), float(fb_height));
  WorldPoint origin, dx, dy;
  view.screen_to_world_affine(origin, dx, dy);
  glUniform2f(loc(ppi_, "u_s2w_origin"), float(origin.east), float(origin.north));
  glUniform2f(loc(ppi_, "u_s2w_dx"), float(dx.east), float(dx.north));
  glUniform2f(loc(ppi_, "u_s2w_dy"), float(dy.east), float(dy.north));
  glUniform2f(loc(ppi_, "u_tex_origin"), float(geo.origin_east_m), float(geo.origin_north_m));
  glUniform1f(loc(ppi_, "u_tex_mpp"), float(geo.metres_per_pixel));
  glUniform2f(loc(ppi_, "u_tex_size"), float(std::max(geo.width, 1)),
              float(std::max(geo.height, 1)));
  glUniform1f(loc(ppi_, "u_range_m"), float(geo.frame_range_m));
  glUniform1i(loc(ppi_, "u_have_data"), have_data ? 1 : 0);
  glUniform1i(loc(ppi_, "u_palette"), int(style.palette));
  glUniform1f(loc(ppi_, "u_brightness"), brightness_factor(style.brightness));
  glUniform1f(loc(ppi_, "u_gain"), style.gain);
  glUniform1i(loc(ppi_, "u_land"), style.land_level ? 1 : 0);
  const Rgb bg = background_colour(style.brightness), out = outside_colour(style.brightness);
  glUniform3f(loc(ppi_, "u_background"), bg.r, bg.g, bg.b);
  glUniform3f(loc(ppi_, "u_outside"), out.r, out.g, out.b);
  float op[4];
  for (int i = 0; i < 4; ++i)
    op[i] = style.layers[size_t(i)].visible ? style.layers[size_t(i)].opacity : 0.0f;
  glUniform4f(loc(ppi_, "u_opacity"), op[0], op[1], op[2], op[3]);
  glUniform1i(loc(ppi_, "u_afterglow"), realtime                                 ? 1
                                        : style.afterglow == Afterglow::PerSweep ? 2
                                                                                 : 0);
  glUniform1f(loc(ppi_, "u_sweep_deg"), float(sweep_deg));
  glUniform1f(loc(ppi_, "u_sweep_floor"), style.sweep_fade_floor);
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  for (int i = 4; i >= 0; --i) {
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  glDisable(GL_SCISSOR_TEST);
  check_gl("PPI draw");
}

}  // namespace sweepline::render
