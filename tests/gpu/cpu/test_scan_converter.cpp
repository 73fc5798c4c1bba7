// The max-hold scan converter (gpu/cpu/cpu_stages.hpp ScanConverter: per-pixel spans kept from
// frame to frame, vector gathers along range, the azimuth pyramid) against a plain loop: for each
// pixel, the span the shared geometry defines (swl_pixel_polar, swl_pixel_span: the definition
// CUDA shares) and the maximum over every one of its cells read straight from the polar frame.
// Exact equality, on random and adversarial frames (all 0, all 255, single cells at the north seam
// and at both ends of the range), at the console's size and at odd, offset and zoomed displays,
// frames too narrow for a vector load, and a converter reused across frames and geometries.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "tests/support/frames.hpp"

namespace sweepline::gpu {
namespace {

Image8 oracle(const ScanSetup& s, const PolarFrame& f) {
  Image8 out(s.width, s.height);
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      const PixelPolar p = swl_pixel_polar(s, x, y);
      if (!(p.u < float(s.bins))) {
        out.at(x, y) = 0;
        continue;
      }
      const PixelSpan sp = swl_pixel_span(s, p);
      int m = 0;
      for (int i = 0; i < sp.na; ++i) {
        const uint8_t* row = f.row((sp.a0 + i) % s.azimuths);
        for (int r = sp.r0; r <= sp.r1; ++r) m = std::max<int>(m, row[r]);
      }
      out.at(x, y) = uint8_t(m);
    }
  return out;
}

PolarFrame adversarial(int kind, int az, int bins, uint32_t seed) {
  PolarFrame f(az, bins, 10000);
  std::mt19937 rng(seed);
  switch (kind) {
    case 0:  // all 0
      break;
    case 1:  // all 255
      std::fill(f.cells.begin(), f.cells.end(), uint8_t(255));
      break;
    case 2:  // single cells at the seams: azimuth 0 and the last, range 0 and the last bin
      f.row(0)[0] = 201;
      f.row(0)[bins - 1] = 255;
      f.row(az - 1)[bins - 1] = 254;
      f.row(az - 1)[0] = 99;
      f.row(az / 2)[bins / 2] = 180;
      f.row(1)[std::min(3, bins - 1)] = 77;
      f.row(az - 2)[bins - 2] = 250;
      break;
    default:  // random bytes
      for (auto& c : f.cells) c = uint8_t(rng());
      break;
  }
  return f;
}

void expect_matches(cpu::ScanConverter& conv, ThreadPool& pool, const ScanSetup& s,
                    const PolarFrame& f, const std::string& what) {
  Image8 got;
  conv.run(pool, s, f.cells.data(), ScanMode::MaxHold, got);
  const Image8 want = oracle(s, f);
  ASSERT_EQ(got.width, want.width) << what;
  ASSERT_EQ(got.height, want.height) << what;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x)
      ASSERT_EQ(int(got.at(x, y)), int(want.at(x, y))) << what << " pixel " << x << "," << y;
}

ScanSetup setup_for(const PolarFrame& f, int w, int h, double range_m, double east, double north) {
  PipelineParams p;
  p.width = w;
  p.height = h;
  p.display_range_m = range_m;
  p.origin_east_m = east;
  p.origin_north_m = north;
  return make_scan_setup(p, f);
}

TEST(ScanConverter, MaxHoldEqualsThePlainMaximumOnAdversarialFrames) {
  ThreadPool pool(2);
  for (auto [az, bins] : {std::pair{1024, 1024}, std::pair{300, 77}, std::pair{4100, 20},
                          std::pair{64, 4}, std::pair{16, 15}})
    for (int kind = 0; kind < 4; ++kind) {
      const PolarFrame f = adversarial(kind, az, bins, uint32_t(kind + az));
      const std::string what =
          std::to_string(az) + "x" + std::to_string(bins) + " kind " + std::to_string(kind);
      cpu::ScanConverter conv;
      expect_matches(conv, pool, setup_for(f, 256, 256, 0, 0, 0), f, what + " centred");
      expect_matches(conv, pool, setup_for(f, 97, 61, 0, 0, 0), f, what + " odd");
      expect_matches(conv, pool, setup_for(f, 120, 90, 25000, -9000, 4000), f, what + " off");
      expect_matches(conv, pool, setup_for(f, 128, 128, 900, 300, -200), f, what + " zoom");
    }
}

// The console's geometry (1536 pixels over a 4096 x 4096 rotation) on a structured frame, and the
// same converter on the next frames: the plan kept, the pyramid rebuilt.
TEST(ScanConverter, ConsoleSizeFrameAfterFrame) {
  ThreadPool pool(2);
  cpu::ScanConverter conv;
  PolarFrame f = testing::structured_frame(4096, 4096, 22224, 3);
  const ScanSetup s = setup_for(f, 1536, 1536, 0, 0, 0);
  expect_matches(conv, pool, s, f, "structured");
  f = adversarial(2, 4096, 4096, 1);
  expect_matches(conv, pool, s, f, "seams");
  f = adversarial(3, 4096, 4096, 2);
  expect_matches(conv, pool, s, f, "random");
}

// A converter whose display changes re-plans (and a frame of another shape too).
TEST(ScanConverter, ReplansWhenTheGeometryChanges) {
  ThreadPool pool(2);
  cpu::ScanConverter conv;
  const PolarFrame a = adversarial(3, 512, 300, 9), b = adversarial(3, 700, 128, 10);
  expect_matches(conv, pool, setup_for(a, 200, 200, 0, 0, 0), a, "first");
  expect_matches(conv, pool, setup_for(a, 200, 200, 4000, 0, 0), a, "zoomed");
  expect_matches(conv, pool, setup_for(a, 150, 210, 4000, 100, 0), a, "resized");
  expect_matches(conv, pool, setup_for(b, 150, 210, 4000, 100, 0), b, "other frame shape");
}

// Frame after frame with only some rows changed (spans through north, a single row, none, all):
// the pixels redone and those kept together equal the plain maximum over the new frame.
TEST(ScanConverter, ChangedRowsOnlyEqualsAWholeConversion) {
  ThreadPool pool(2);
  std::mt19937 rng(21);
  for (auto [az, bins, side] :
       {std::tuple{4096, 512, 384}, std::tuple{1000, 300, 200}, std::tuple{300, 64, 150}}) {
    PolarFrame f = adversarial(3, az, bins, 5);
    const ScanSetup s = setup_for(f, side, side, 0, 0, 0);
    cpu::ScanConverter conv;
    Image8 img;
    conv.run(pool, s, f.cells.data(), ScanMode::MaxHold, img);
    const RowSpan spans[] = {{az - 20, 45}, {0, 1},        {az / 3, 0},  {17, az},
                             {az - 1, 1},   {5, 300 % az}, {az / 2, 16}, {2 * az - 3, 7}};
    for (const RowSpan& sp : spans) {
      for (int i = 0; i < std::min(sp.count, az); ++i) {
        uint8_t* row = f.row((sp.first + i) % az);
        const int kind = int(rng() % 3);
        for (int r = 0; r < bins; ++r) row[r] = kind == 0 ? 0 : kind == 1 ? 255 : uint8_t(rng());
      }
      conv.run(pool, s, f.cells.data(), ScanMode::MaxHold, img, &sp);
      const Image8 want = oracle(s, f);
      ASSERT_EQ(img.pixels, want.pixels)
          << az << "x" << bins << " span " << sp.first << "+" << sp.count;
    }
    // Another image, or another mode in between: everything is redone, whatever `changed` says.
    Image8 other;
    f = adversarial(3, az, bins, 6);
    const RowSpan none{0, 0};
    conv.run(pool, s, f.cells.data(), ScanMode::MaxHold, other, &none);
    ASSERT_EQ(other.pixels, oracle(s, f).pixels);
    conv.run(pool, s, f.cells.data(), ScanMode::Nearest, other);
    f = adversarial(3, az, bins, 7);
    conv.run(pool, s, f.cells.data(), ScanMode::MaxHold, other, &none);
    ASSERT_EQ(other.pixels, oracle(s, f).pixels);
  }
}

// scan_convert (a converter per call) and the pipeline's kept converter give the same image.
TEST(ScanConverter, FreeFunctionMatches) {
  ThreadPool pool(1);
  const PolarFrame f = adversarial(3, 360, 200, 4);
  const ScanSetup s = setup_for(f, 180, 180, 0, 0, 0);
  Image8 got;
  cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, got);
  EXPECT_EQ(got.pixels, oracle(s, f).pixels);
}

}  // namespace
}  // namespace sweepline::gpu
