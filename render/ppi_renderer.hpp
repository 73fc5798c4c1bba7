#pragma once
// Draws the PPI picture (the layers through the palette, with afterglow) into a screen rectangle
// of the current framebuffer. Rings, scales, boxes and text are overlays drawn afterwards
// (ui/overlays.cpp) so that they stay crisp at any zoom.
//
// The picture is kept in a framebuffer of its own and copied to the screen while nothing it
// depends on has changed: on a software renderer (Mesa's llvmpipe, display-only machines) the
// PPI's per-pixel work costs most of a window frame, and the window must keep drawing its
// overlays, cursor and panels at its own rate. The fade behind the sweep and the real-time
// afterglow change with time alone; those redraw at kFadeRedrawHz, which steps the fade by about
// a degree of sweep at 24 rpm (below what the eye sees of a fade over a whole rotation).
#include <cstdint>

#include "render/display_textures.hpp"
#include "render/gl_resource.hpp"
#include "render/ppi_style.hpp"
#include "render/ppi_view.hpp"

namespace sweepline::render {

// How often a picture that changes with time alone (sweep fade, afterglow) is redrawn.
inline constexpr double kFadeRedrawHz = 15.0;

class PpiRenderer {
 public:
  PpiRenderer();  // needs a current GL context; compiles the shaders
  // `have_data`: false shows only the background (no frame processed yet).
  // `dt_s`: seconds since the previous draw (real-time afterglow).
  void draw(const DisplayTextures& tex, const DisplayGeometry& geo, const PpiStyle& style,
            const PpiView& view, int fb_width, int fb_height, double sweep_deg, double dt_s,
            bool have_data);
  // Forget the persistence buffer (e.g. after a source or size change).
  void reset_afterglow() {
    glow_valid_ = false;
    cached_ = false;
  }
  // Pictures drawn (not copied from the cache) so far: for tests and the timing panel.
  uint64_t pictures_drawn() const { return pictures_drawn_; }

  // The values the PPI shader gets: equal inputs draw equal pictures.
  struct Inputs {
    uint64_t textures = 0;  // DisplayTextures::generation()
    int fb_width = 0, fb_height = 0;
    int rect[4] = {0, 0, 0, 0};  // scissor, GL's bottom-left pixels
    float s2w[6] = {0, 0, 0, 0, 0, 0};
    float tex_origin[2] = {0, 0}, tex_size[2] = {0, 0};
    float tex_mpp = 0, range_m = 0, brightness = 0, gain = 0, sweep_floor = 0;
    float background[3] = {0, 0, 0}, outside[3] = {0, 0, 0}, opacity[4] = {0, 0, 0, 0};
    int have_data = 0, palette = 0, land = 0, afterglow = 0;
    float sweep_deg = 0;  // only where afterglow is per sweep
    bool operator==(const Inputs&) const = default;
  };

 private:
  void update_glow(const DisplayTextures& tex, float decay);
  void ensure_cache(int width, int height);
  void draw_picture(const DisplayTextures& tex, const Inputs& in);

  Program ppi_;
  Program glow_;
  VertexArray vao_;
  Texture glow_tex_[2];
  Framebuffer glow_fbo_[2];
  int glow_w_ = 0, glow_h_ = 0;
  int glow_cur_ = 0;
  bool glow_valid_ = false;
  Texture cache_tex_;
  Framebuffer cache_fbo_;
  int cache_w_ = 0, cache_h_ = 0;
  bool cached_ = false;
  Inputs cached_inputs_;
  double since_picture_s_ = 0;  // time since the cached picture was drawn
  uint64_t pictures_drawn_ = 0;
};

}  // namespace sweepline::render
