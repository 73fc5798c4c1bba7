#pragma once
// Draws the PPI picture (the layers through the palette, with afterglow) into a screen rectangle
// of the current framebuffer. Rings, scales, boxes and text are overlays drawn afterwards
// (ui/overlays.cpp) so that they stay crisp at any zoom.
#include "render/display_textures.hpp"
#include "render/gl_resource.hpp"
#include "render/ppi_style.hpp"
#include "render/ppi_view.hpp"

namespace sweepline::render {

class PpiRenderer {
 public:
  PpiRenderer();  // needs a current GL context; compiles the shaders
  // `have_data`: false shows only the background (no frame processed yet).
  // `dt_s`: seconds since the previous draw (real-time afterglow).
  void draw(const DisplayTextures& tex, const DisplayGeometry& geo, const PpiStyle& style,
            const PpiView& view, int fb_width, int fb_height, double sweep_deg, double dt_s,
            bool have_data);
  // Forget the persistence buffer (e.g. after a source or size change).
  void reset_afterglow() { glow_valid_ = false; }

 private:
  void update_glow(const DisplayTextures& tex, float decay);

  Program ppi_;
  Program glow_;
  VertexArray vao_;
  Texture glow_tex_[2];
  Framebuffer glow_fbo_[2];
  int glow_w_ = 0, glow_h_ = 0;
  int glow_cur_ = 0;
  bool glow_valid_ = false;
};

}  // namespace sweepline::render
