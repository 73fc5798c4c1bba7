#include "render/ppi_renderer.hpp"

#include <algorithm>
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

void PpiRenderer::ensure_cache(int width, int height) {
  if (cache_tex_ && cache_w_ == width && cache_h_ == height) return;
  GLint prev_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prev_fbo);
  cache_tex_ = make_texture();
  glBindTexture(GL_TEXTURE_2D, cache_tex_.get());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  cache_fbo_ = make_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, cache_fbo_.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cache_tex_.get(), 0);
  SWL_CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
            "PPI picture framebuffer incomplete");
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
  cache_w_ = width;
  cache_h_ = height;
  cached_ = false;
  check_gl("PPI picture framebuffer");
}

void PpiRenderer::draw(const DisplayTextures& tex, const DisplayGeometry& geo,
                       const PpiStyle& style, const PpiView& view, int fb_width, int fb_height,
                       double sweep_deg, double dt_s, bool have_data) {
  have_data =
      have_data && tex.width() > 0 && geo.width == tex.width() && geo.height == tex.height();
  const bool realtime =
      style.afterglow == Afterglow::RealTime && have_data && style.layers[0].visible;
  since_picture_s_ += std::max(dt_s, 0.0);

  const ScreenRect& r = view.rect();
  Inputs in;
  in.textures = tex.generation();
  in.fb_width = fb_width;
  in.fb_height = fb_height;
  in.rect[0] = int(r.x);
  in.rect[1] = int(float(fb_height) - (r.y + r.h));
  in.rect[2] = int(r.w);
  in.rect[3] = int(r.h);
  WorldPoint origin, dx, dy;
  view.screen_to_world_affine(origin, dx, dy);
  const float s2w[6] = {float(origin.east), float(origin.north), float(dx.east),
                        float(dx.north),    float(dy.east),      float(dy.north)};
  std::copy(s2w, s2w + 6, in.s2w);
  in.tex_origin[0] = float(geo.origin_east_m);
  in.tex_origin[1] = float(geo.origin_north_m);
  in.tex_mpp = float(geo.metres_per_pixel);
  in.tex_size[0] = float(std::max(geo.width, 1));
  in.tex_size[1] = float(std::max(geo.height, 1));
  in.range_m = float(geo.frame_range_m);
  in.have_data = have_data ? 1 : 0;
  in.palette = int(style.palette);
  in.brightness = brightness_factor(style.brightness);
  in.gain = style.gain;
  in.land = style.land_level ? 1 : 0;
  const Rgb bg = background_colour(style.brightness), out = outside_colour(style.brightness);
  in.background[0] = bg.r, in.background[1] = bg.g, in.background[2] = bg.b;
  in.outside[0] = out.r, in.outside[1] = out.g, in.outside[2] = out.b;
  for (int i = 0; i < 4; ++i)
    in.opacity[i] = style.layers[size_t(i)].visible ? style.layers[size_t(i)].opacity : 0.0f;
  in.afterglow = realtime ? 1 : style.afterglow == Afterglow::PerSweep ? 2 : 0;
  in.sweep_floor = style.sweep_fade_floor;
  in.sweep_deg = in.afterglow == 2 ? float(sweep_deg) : 0.0f;

  // Redraw when anything but time changed; when only time did (the sweep moved, the glow
  // decays), at most kFadeRedrawHz times a second.
  Inputs untimed = in, cached_untimed = cached_inputs_;
  untimed.sweep_deg = cached_untimed.sweep_deg = 0;
  const bool timed = in.afterglow != 0 && (realtime || in.sweep_deg != cached_inputs_.sweep_deg);
  const bool redraw = !cached_ || !(untimed == cached_untimed) ||
                      (timed && since_picture_s_ >= 1.0 / kFadeRedrawHz);

  GLint prev_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prev_fbo);
  ensure_cache(fb_width, fb_height);
  if (redraw) {
    if (realtime)
      update_glow(tex, float(std::exp(-double(style.glow_rate_per_s) * since_picture_s_)));
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, cache_fbo_.get());
    draw_picture(tex, in);
    cached_inputs_ = in;
    cached_ = true;
    since_picture_s_ = 0;
    ++pictures_drawn_;
  }
  // The picture's rectangle onto the caller's framebuffer, pixel for pixel.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, cache_fbo_.get());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(prev_fbo));
  glDisable(GL_SCISSOR_TEST);
  const int x0 = std::max(in.rect[0], 0), y0 = std::max(in.rect[1], 0);
  const int x1 = std::min(in.rect[0] + in.rect[2], fb_width);
  const int y1 = std::min(in.rect[1] + in.rect[3], fb_height);
  if (x1 > x0 && y1 > y0)
    glBlitFramebuffer(x0, y0, x1, y1, x0, y0, x1, y1, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(prev_fbo));
  check_gl("PPI picture copy");
}

void PpiRenderer::draw_picture(const DisplayTextures& tex, const Inputs& in) {
  glViewport(0, 0, in.fb_width, in.fb_height);
  glEnable(GL_SCISSOR_TEST);
  glScissor(in.rect[0], in.rect[1], in.rect[2], in.rect[3]);
  glDisable(GL_BLEND);
  glUseProgram(ppi_.get());
  const GLuint units[5] = {tex.texture(Layer::Scan), tex.texture(Layer::Denoised),
                           tex.texture(Layer::Binary), tex.texture(Layer::Labels),
                           in.afterglow == 1 ? glow_tex_[glow_cur_].get() : 0u};
  const char* names[5] = {"u_scan", "u_denoised", "u_binary", "u_labels", "u_glow"};
  for (int i = 0; i < 5; ++i) {
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, units[i]);
    glUniform1i(loc(ppi_, names[i]), i);
  }
  glUniform1f(loc(ppi_, "u_fb_height"), float(in.fb_height));
  glUniform2f(loc(ppi_, "u_s2w_origin"), in.s2w[0], in.s2w[1]);
  glUniform2f(loc(ppi_, "u_s2w_dx"), in.s2w[2], in.s2w[3]);
  glUniform2f(loc(ppi_, "u_s2w_dy"), in.s2w[4], in.s2w[5]);
  glUniform2f(loc(ppi_, "u_tex_origin"), in.tex_origin[0], in.tex_origin[1]);
  glUniform1f(loc(ppi_, "u_tex_mpp"), in.tex_mpp);
  glUniform2f(loc(ppi_, "u_tex_size"), in.tex_size[0], in.tex_size[1]);
  glUniform1f(loc(ppi_, "u_range_m"), in.range_m);
  glUniform1i(loc(ppi_, "u_have_data"), in.have_data);
  glUniform1i(loc(ppi_, "u_palette"), in.palette);
  glUniform1f(loc(ppi_, "u_brightness"), in.brightness);
  glUniform1f(loc(ppi_, "u_gain"), in.gain);
  glUniform1i(loc(ppi_, "u_land"), in.land);
  glUniform3f(loc(ppi_, "u_background"), in.background[0], in.background[1], in.background[2]);
  glUniform3f(loc(ppi_, "u_outside"), in.outside[0], in.outside[1], in.outside[2]);
  glUniform4f(loc(ppi_, "u_opacity"), in.opacity[0], in.opacity[1], in.opacity[2], in.opacity[3]);
  glUniform1i(loc(ppi_, "u_afterglow"), in.afterglow);
  glUniform1f(loc(ppi_, "u_sweep_deg"), in.sweep_deg);
  glUniform1f(loc(ppi_, "u_sweep_floor"), in.sweep_floor);
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
