// PPI rendering checked by pixels: palettes and brightness, north-up geometry, layer composition
// with opacity, both afterglow modes, and the view arithmetic. Headless through EGL.
#include <GL/glew.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu/pipeline.hpp"
#include "render/display_textures.hpp"
#include "render/egl_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/ppi_renderer.hpp"
#include "render/readback.hpp"
#include "ui/overlays.hpp"

using namespace sweepline;
using namespace sweepline::render;

namespace {

constexpr int kScreen = 256;
constexpr int kTex = 64;

struct Scene {
  EglContext ctx{"auto"};
  OffscreenTarget target{kScreen, kScreen};
  DisplayTextures tex;
  PpiRenderer renderer;
  DisplayGeometry geo;
  PpiView view;
  PpiStyle style;

  Scene() {
    tex.ensure(kTex, kTex);
    geo = {kTex, kTex, 1.0, 0.0, 0.0, 30.0};  // +-32 m of texture, a 30 m scope
    view.reset({0, 0, float(kScreen), float(kScreen)}, 32.0);
    style.afterglow = Afterglow::Off;
    for (auto& l : style.layers) l = {false, 1.0f};
    style.layers[0].visible = true;
  }
  void upload_scan(const Image8& img) { tex.upload(&img, nullptr, nullptr, nullptr); }
  std::vector<uint8_t> draw(double sweep_deg = 0, double dt = 0) {
    target.bind();
    renderer.draw(tex, geo, style, view, kScreen, kScreen, sweep_deg, dt, true);
    return read_framebuffer_rgba(kScreen, kScreen);
  }
};

struct Px {
  int r, g, b;
};
Px at(const std::vector<uint8_t>& px, int x, int y) {
  const uint8_t* p = px.data() + (size_t(y) * kScreen + size_t(x)) * 4;
  return {p[0], p[1], p[2]};
}
// Screen pixel of a world point in the scene's view.
void screen_of(const Scene& s, double e, double n, int& x, int& y) {
  float sx = 0, sy = 0;
  s.view.world_to_screen({e, n}, sx, sy);
  x = int(sx);
  y = int(sy);
}

// What ppi.frag computes for one intensity layer over the background.
Px predict_intensity(Palette p, Brightness b, float v, float opacity) {
  const Rgb bg = background_colour(b), c = palette_colour(p, v);
  const float k = brightness_factor(b), a = opacity * echo_alpha(p, v);
  auto mix = [&](float bgc, float cc) {
    return std::clamp((bgc + (cc * k + bgc * (1 - v) - bgc) * a) * 255.0f, 0.0f, 255.0f);
  };
  return {int(std::lround(mix(bg.r, c.r))), int(std::lround(mix(bg.g, c.g))),
          int(std::lround(mix(bg.b, c.b)))};
}

void expect_near(Px got, Px want, int tol, const char* what) {
  EXPECT_NEAR(got.r, want.r, tol) << what;
  EXPECT_NEAR(got.g, want.g, tol) << what;
  EXPECT_NEAR(got.b, want.b, tol) << what;
}

}  // namespace

TEST(PpiRender, EveryPaletteAndBrightnessGivesThePredictedColour) {
  Scene s;
  s.upload_scan(Image8(kTex, kTex, 200));
  for (int p = 0; p < 4; ++p)
    for (int b = 0; b < 3; ++b) {
      s.style.palette = Palette(p);
      s.style.brightness = Brightness(b);
      const auto px = s.draw();
      const std::string what = std::string(to_string(Palette(p))) + "/" + to_string(Brightness(b));
      expect_near(at(px, 150, 128),
                  predict_intensity(Palette(p), Brightness(b), 200 / 255.0f, 1.0f), 3,
                  what.c_str());
      // Outside the 30 m scope: the outside colour.
      const Rgb o = outside_colour(Brightness(b));
      expect_near(
          at(px, 2, 2),
          {int(std::lround(o.r * 255)), int(std::lround(o.g * 255)), int(std::lround(o.b * 255))},
          1, what.c_str());
    }
  // Distinct looks: green is green-dominant, amber red-dominant, night darker than day.
  s.style.brightness = Brightness::Day;
  s.style.palette = Palette::GreenPhosphor;
  const Px green = at(s.draw(), 150, 128);
  EXPECT_GT(green.g, green.r + 60);
  s.style.palette = Palette::Amber;
  const Px amber = at(s.draw(), 150, 128);
  EXPECT_GT(amber.r, amber.b + 60);
  s.style.brightness = Brightness::Night;
  const Px amber_night = at(s.draw(), 150, 128);
  EXPECT_LT(amber_night.r, amber.r - 60);
}

TEST(PpiRender, NorthIsUpAndEastIsRight) {
  Scene s;
  Image8 img(kTex, kTex, 0);
  // A block north-east of the radar: texture x 48..51 (east), y 8..11 (north; rows go down).
  for (int y = 8; y < 12; ++y)
    for (int x = 48; x < 52; ++x) img.at(x, y) = 255;
  s.upload_scan(img);
  const auto px = s.draw();
  int x = 0, y = 0;
  screen_of(s, 50 - 32.0, 32.0 - 10, x, y);  // the block's centre in world metres
  EXPECT_GT(at(px, x, y).g, 150) << "block missing at " << x << "," << y;
  int mx = 0, my = 0;
  screen_of(s, -(50 - 32.0), 32.0 - 10, mx, my);  // mirrored to the west: empty
  EXPECT_LT(at(px, mx, my).g, 40);
  screen_of(s, 50 - 32.0, -(32.0 - 10), mx, my);  // mirrored to the south: empty
  EXPECT_LT(at(px, mx, my).g, 40);
}

TEST(PpiRender, LayersComposeWithTheirOpacity) {
  Scene s;
  const Image8 zero(kTex, kTex, 0), full(kTex, kTex, 255);
  ImageI32 labels(kTex, kTex, 7);
  // Label 7 shows as identity 19 (app/engine/label_identities.hpp).
  std::vector<int32_t> ids(8, 0);
  ids[7] = 19;
  s.tex.upload(&zero, &zero, &full, &labels, &ids);
  s.style.brightness = Brightness::Day;
  const Rgb bg = background_colour(Brightness::Day);
  const float k = brightness_factor(Brightness::Day);
  auto mix = [](float a, float b, float t) { return int(std::lround((a + (b - a) * t) * 255)); };

  s.style.layers = {{{false, 1}, {false, 1}, {true, 0.5f}, {false, 1}}};
  expect_near(at(s.draw(), 150, 128),
              {mix(bg.r, 0.25f * k, 0.5f), mix(bg.g, 0.75f * k, 0.5f), mix(bg.b, 1.0f * k, 0.5f)},
              2, "binary at 0.5");

  const uint32_t lc = gpu::label_colour(19);
  const float lr = float(lc & 0xFF) / 255, lg = float((lc >> 8) & 0xFF) / 255,
              lb = float((lc >> 16) & 0xFF) / 255;
  s.style.layers = {{{false, 1}, {false, 1}, {false, 1}, {true, 1.0f}}};
  expect_near(at(s.draw(), 150, 128),
              {mix(bg.r, lr * k, 1), mix(bg.g, lg * k, 1), mix(bg.b, lb * k, 1)}, 2,
              "labels by identity");

  // Label 0 is transparent; a hidden layer draws nothing.
  labels = ImageI32(kTex, kTex, 0);
  s.tex.upload(nullptr, nullptr, nullptr, &labels);
  expect_near(at(s.draw(), 150, 128), {mix(bg.r, 0, 0), mix(bg.g, 0, 0), mix(bg.b, 0, 0)}, 1,
              "label 0");
  s.style.layers = {{{false, 1}, {false, 1}, {false, 1}, {false, 1}}};
  s.tex.upload(&full, &full, &full, nullptr);
  expect_near(at(s.draw(), 150, 128), {mix(bg.r, 0, 0), mix(bg.g, 0, 0), mix(bg.b, 0, 0)}, 1,
              "all hidden");
}

TEST(PpiRender, PerSweepFadeDimsEchoesTheSweepPassedLongAgo) {
  Scene s;
  s.upload_scan(Image8(kTex, kTex, 255));
  s.style.afterglow = Afterglow::PerSweep;
  s.style.sweep_fade_floor = 0.2f;
  const auto px = s.draw(90.0);
  int xa = 0, ya = 0, xb = 0, yb = 0;
  const double r = 20, d = 3.14159265358979 / 180;
  screen_of(s, r * std::sin(85 * d), r * std::cos(85 * d), xa, ya);  // swept just now
  screen_of(s, r * std::sin(95 * d), r * std::cos(95 * d), xb, yb);  // swept a rotation ago
  EXPECT_GT(at(px, xa, ya).g, at(px, xb, yb).g + 80);
}

TEST(PpiRender, RealTimeAfterglowDecaysAtItsRate) {
  Scene s;
  s.style.afterglow = Afterglow::RealTime;
  s.style.glow_rate_per_s = float(std::log(2.0));  // halves every second
  s.upload_scan(Image8(kTex, kTex, 255));
  s.draw(0, 0);
  s.upload_scan(Image8(kTex, kTex, 0));  // the echo is gone; the glow remains
  auto px = s.draw(0, 1.0);
  expect_near(at(px, 150, 128), predict_intensity(s.style.palette, s.style.brightness, 0.5f, 1), 4,
              "after 1 s");
  px = s.draw(0, 1.0);
  expect_near(at(px, 150, 128), predict_intensity(s.style.palette, s.style.brightness, 0.25f, 1), 4,
              "after 2 s");
  s.renderer.reset_afterglow();
  px = s.draw(0, 1.0);
  expect_near(at(px, 150, 128), predict_intensity(s.style.palette, s.style.brightness, 0.0f, 1), 2,
              "after reset");
}

TEST(PpiView, RangeScaleIsTheDisplayedRadius) {
  PpiView v;
  v.reset({100, 50, 800, 600}, 22224);
  // The display circle: radius 300 - 46 px about the rectangle's centre (500, 350).
  EXPECT_NEAR(v.radius_px(), 254.0, 1e-9);
  EXPECT_NEAR(v.px_per_m() * v.range_scale_m(), v.radius_px(), 1e-9);
  float x = 0, y = 0;
  v.world_to_screen({0, 22224}, x, y);  // the range scale due north: the circle's top
  EXPECT_NEAR(x, 500, 1e-3);
  EXPECT_NEAR(y, 350 - 254, 1e-3);
  v.set_range_scale(22224 / 3.0);
  EXPECT_NEAR(v.px_per_m(), 3 * 254.0 / 22224, 1e-12);
  const WorldPoint back = v.screen_to_world(x, y);
  EXPECT_NEAR(back.north, 22224 / 3.0, 1e-6);
  // Dragging right moves the picture right: the world under a fixed pixel moves west.
  const WorldPoint c0 = v.screen_to_world(500, 350);
  v.pan(10, 0);
  EXPECT_LT(v.screen_to_world(500, 350).east, c0.east);
  EXPECT_NEAR(bearing_of({1, 0}), 90, 1e-9);
  EXPECT_NEAR(bearing_of({0, -1}), 180, 1e-9);
  EXPECT_NEAR(bearing_of({-1, 0}), 270, 1e-9);
}

TEST(PpiView, OffCentreShowsMoreAhead) {
  PpiView centred, ahead;
  centred.reset({0, 0, 800, 800}, 10000);
  ahead.reset({0, 0, 800, 800}, 10000, true, 0);
  float cy = 0, ay = 0, x = 0;
  centred.world_to_screen({0, 0}, x, cy);
  ahead.world_to_screen({0, 0}, x, ay);
  // The radar moves down (astern) when looking north, by 0.6 of the radius, the scale unchanged.
  EXPECT_NEAR(ay - cy, kOffCentreFraction * centred.radius_px(), 1e-3);
  EXPECT_NEAR(ahead.px_per_m(), centred.px_per_m(), 1e-12);
}

TEST(Overlays, RingSpacingIsANiceStep) {
  EXPECT_NEAR(ui::ring_spacing_m(12 * 1852.0, 0), 2 * 1852.0, 1e-6);
  EXPECT_NEAR(ui::ring_spacing_m(3 * 1852.0, 0), 0.5 * 1852.0, 1e-6);
  EXPECT_NEAR(ui::ring_spacing_m(0.75 * 1852.0, 0), 0.25 * 1852.0, 1e-6);
  EXPECT_NEAR(ui::ring_spacing_m(12 * 1852.0, 926), 926, 1e-9);
}

TEST(PpiRender, PictureIsCopiedUntilItsInputsChange) {
  Scene s;
  Image8 img(kTex, kTex, 0);
  img.pixels[size_t(kTex / 2) * kTex + kTex / 2 + 8] = 255;
  s.upload_scan(img);
  const auto first = s.draw();
  const uint64_t drawn = s.renderer.pictures_drawn();
  EXPECT_EQ(s.draw(0, 0.5), first);  // nothing changed: the picture is copied
  EXPECT_EQ(s.renderer.pictures_drawn(), drawn);
  s.upload_scan(Image8(kTex, kTex, 255));  // a new frame
  const auto second = s.draw();
  EXPECT_EQ(s.renderer.pictures_drawn(), drawn + 1);
  EXPECT_NE(second, first);
  s.style.palette = Palette::Amber;  // a style change
  EXPECT_NE(s.draw(), second);
  s.view.set_range_scale(16.0);  // a view change
  s.draw();
  EXPECT_EQ(s.renderer.pictures_drawn(), drawn + 3);
}

TEST(PpiRender, SweepFadeRedrawsAtItsRate) {
  Scene s;
  s.upload_scan(Image8(kTex, kTex, 255));
  s.style.afterglow = Afterglow::PerSweep;
  const auto first = s.draw(90.0, 0);
  const uint64_t drawn = s.renderer.pictures_drawn();
  // The sweep moved, but sooner than a redraw is due: the same picture.
  EXPECT_EQ(s.draw(120.0, 0.2 / kFadeRedrawHz), first);
  EXPECT_EQ(s.renderer.pictures_drawn(), drawn);
  // Due now: the fade follows the sweep.
  EXPECT_NE(s.draw(150.0, 1.0 / kFadeRedrawHz), first);
  EXPECT_EQ(s.renderer.pictures_drawn(), drawn + 1);
}

TEST(PpiRender, CopyKeepsWhatLiesOutsideThePpi) {
  Scene s;
  s.upload_scan(Image8(kTex, kTex, 255));
  s.view.set_rect({64, 32, 128, 128});
  s.target.bind();
  glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  s.renderer.draw(s.tex, s.geo, s.style, s.view, kScreen, kScreen, 0, 0, true);
  const auto px = read_framebuffer_rgba(kScreen, kScreen);
  const Px outside = at(px, 10, 10), inside = at(px, 128, 96);
  EXPECT_EQ(outside.r, 255);
  EXPECT_EQ(outside.g, 0);
  EXPECT_EQ(outside.b, 255);
  EXPECT_FALSE(inside.r == 255 && inside.g == 0 && inside.b == 255);
}
