#pragma once
// Image comparisons and test images shared by the filter and pipeline tests (CPU and GPU).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "app/common/image.hpp"

namespace sweepline::test {

// The largest per-pixel difference; 999 when the sizes differ.
inline int max_diff(const Image8& a, const Image8& b) {
  if (a.width != b.width || a.height != b.height) return 999;
  int m = 0;
  for (size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
  return m;
}

// Pixels that differ (over the common prefix), plus one when the sizes differ.
inline size_t count_diff(const Image8& a, const Image8& b) {
  size_t n = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += a.pixels[i] != b.pixels[i];
  return n + (a.width != b.width || a.height != b.height ? 1 : 0);
}

inline Image8 random_image(int w, int h, uint32_t seed) {
  Image8 img(w, h);
  std::mt19937 rng(seed);
  for (auto& p : img.pixels) p = uint8_t(rng() & 0xFF);
  return img;
}

// Speckle, a ramp, hard-edged rectangles, lines and isolated impulses.
inline Image8 structured_image(int w, int h, uint32_t seed) {
  Image8 img(w, h);
  std::mt19937 rng(seed);
  std::exponential_distribution<double> speckle(1.0 / 10.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.at(x, y) = uint8_t(std::min(255.0, speckle(rng) + 40.0 * x / w));
  std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
  for (int i = 0; i < 20; ++i) {
    const int x0 = ux(rng), y0 = uy(rng), dx = 1 + int(rng() % 40), dy = 1 + int(rng() % 40);
    const uint8_t v = uint8_t(120 + rng() % 136);
    for (int y = y0; y < std::min(h, y0 + dy); ++y)
      for (int x = x0; x < std::min(w, x0 + dx); ++x) img.at(x, y) = v;
  }
  for (int x = 0; x < w; ++x) img.at(x, h / 3) = 255;
  for (int i = 0; i < 50; ++i) img.at(ux(rng), uy(rng)) = 255;
  return img;
}

}  // namespace sweepline::test
