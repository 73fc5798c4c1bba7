#pragma once
// Test images and the comparison against the oracle, shared by the CPU and the CUDA tests.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "app/sim/test_images.hpp"
#include "gpu/ccl/ccl.hpp"
#include "tests/support/ccl_oracle.hpp"

namespace sweepline::test {

struct Case {
  std::string name;
  Image8 image;
};

inline Image8 checkerboard(int w, int h, int cell) {
  Image8 img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img.at(x, y) = ((x / cell + y / cell) % 2) ? 255 : 0;
  return img;
}

// Frames touching every border, with holes of several sizes and a pixel island in a hole.
inline Image8 frames(int w, int h) {
  Image8 img(w, h, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
      bool inner = (x % 7 == 3) || (y % 5 == 2);
      bool island = (x % 7 == 5) && (y % 5 == 4);
      img.at(x, y) = (edge || inner || island) ? 200 : 0;
    }
  return img;
}

inline std::vector<Case> standard_cases(bool large) {
  std::vector<Case> c;
  auto add = [&](std::string n, Image8 i) { c.push_back({std::move(n), std::move(i)}); };
  add("1x1_on", Image8(1, 1, 255));
  add("1x1_off", Image8(1, 1, 0));
  add("1x97", sim::make_test_image("random:0.5", 1, 97, 1));
  add("113x1", sim::make_test_image("random:0.5", 113, 1, 2));
  add("empty_64x48", Image8(64, 48, 0));
  add("full_61x37", Image8(61, 37, 1));
  add("checker1_33x31", checkerboard(33, 31, 1));
  add("checker3_50x41", checkerboard(50, 41, 3));
  add("frames_67x45", frames(67, 45));
  add("3001x17", sim::make_test_image("random:0.45", 3001, 17, 3));
  add("17x301", sim::make_test_image("random:0.55", 17, 301, 4));
  for (double d : {0.01, 0.1, 0.3, 0.5, 0.59, 0.7, 0.9, 0.99}) {
    std::string s = "random:" + std::to_string(d);
    add("random" + std::to_string(int(d * 100)) + "_129x67", sim::make_test_image(s, 129, 67, 7));
    add("random" + std::to_string(int(d * 100)) + "_257x255",
        sim::make_test_image(s, 257, 255, 11));
  }
  add("spirals_300x260", sim::make_test_image("spirals", 300, 260, 0));
  add("stars_333x201", sim::make_test_image("stars", 333, 201, 5));
  if (large) {
    add("random50_1031x1023", sim::make_test_image("random:0.5", 1031, 1023, 13));
    add("random20_2049x511", sim::make_test_image("random:0.2", 2049, 511, 17));
    add("spirals_1024", sim::make_test_image("spirals", 1024, 1024, 0));
    add("stars_1024", sim::make_test_image("stars", 1024, 1024, 3));
  }
  return c;
}

// Labels must equal the oracle exactly (both number in raster order of the first pixel), and so
// must every statistic; centroids, range and bearing within 1e-9 relative.
inline void expect_equal_to_oracle(const ccl::LabelResult& got, const OracleResult& want,
                                   const std::string& what) {
  ASSERT_EQ(got.count, int32_t(want.components.size())) << what;
  ASSERT_EQ(got.components.size(), want.components.size()) << what;
  ASSERT_EQ(got.labels.width, want.labels.width) << what;
  ASSERT_EQ(got.labels.height, want.labels.height) << what;
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < want.labels.pixels.size(); ++i)
    if (got.labels.pixels[i] != want.labels.pixels[i] && mismatches++ == 0) first = i;
  ASSERT_EQ(mismatches, 0u) << what << ": first at pixel " << first << " (x "
                            << first % size_t(want.labels.width) << ", y "
                            << first / size_t(want.labels.width) << "): got "
                            << got.labels.pixels[first] << ", want " << want.labels.pixels[first];
  auto near = [](double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
  };
  for (size_t k = 0; k < want.components.size(); ++k) {
    const auto& g = got.components[k];
    const auto& o = want.components[k];
    std::string at = what + ", component " + std::to_string(k + 1);
    ASSERT_EQ(g.label, o.label) << at;
    ASSERT_EQ(g.area, o.area) << at;
    ASSERT_EQ(g.xmin, o.xmin) << at;
    ASSERT_EQ(g.xmax, o.xmax) << at;
    ASSERT_EQ(g.ymin, o.ymin) << at;
    ASSERT_EQ(g.ymax, o.ymax) << at;
    ASSERT_EQ(g.peak, o.peak) << at;
    ASSERT_TRUE(near(g.cx, o.cx)) << at << ": cx " << g.cx << " vs " << o.cx;
    ASSERT_TRUE(near(g.cy, o.cy)) << at << ": cy " << g.cy << " vs " << o.cy;
    ASSERT_TRUE(near(g.range_m, o.range_m)) << at << ": range " << g.range_m << " vs " << o.range_m;
    double db = std::fabs(g.bearing_deg - o.bearing_deg);
    ASSERT_TRUE(near(g.bearing_deg, o.bearing_deg) || std::fabs(db - 360.0) < 1e-9)
        << at << ": bearing " << g.bearing_deg << " vs " << o.bearing_deg;
  }
}

// An intensity image for weighted centroids and peaks: a seeded random field with zeros in it.
inline Image8 random_intensity(int w, int h, uint64_t seed) {
  Image8 img(w, h);
  std::mt19937_64 rng(seed);
  for (auto& p : img.pixels) p = uint8_t(rng() % 7 == 0 ? 0 : rng() % 256);
  return img;
}

// Calls check(case, params, intensity) for every standard case at connectivity 4 and 8 (base
// with the connectivity set), with a random intensity image (from `intensity_seed`) or null;
// stops at the first fatal failure.
template <class F>
void for_each_standard_case(bool large, const ccl::LabelParams& base, bool with_intensity,
                            uint64_t intensity_seed, F&& check) {
  for (const auto& c : standard_cases(large))
    for (int conn : {4, 8}) {
      ccl::LabelParams p = base;
      p.connectivity = conn;
      Image8 in;
      if (with_intensity) in = random_intensity(c.image.width, c.image.height, intensity_seed);
      check(c, p, with_intensity ? &in : nullptr);
      if (testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace sweepline::test
