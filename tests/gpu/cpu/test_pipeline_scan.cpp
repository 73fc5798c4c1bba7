// Scan conversion against a direct polar lookup in double precision (std::atan2, std::hypot).
// The pipeline's own arithmetic is float with a polynomial arctangent (shared with CUDA), so a
// pixel within 2e-3 of a cell boundary may take either neighbour; every other pixel must match.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "gpu/cpu/cpu_stages.hpp"
#include "gpu/cpu/stage_tables.hpp"
#include "tests/support/frames.hpp"

namespace sweepline::gpu {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Oracle {
  double u, v, step;  // range bins, azimuth units, pixel size in bins
};

Oracle oracle_polar(const PipelineParams& p, const PolarFrame& f, int x, int y) {
  const double range = p.display_range_m > 0 ? p.display_range_m : f.range_m;
  const double mpp = range / (std::min(p.width, p.height) / 2.0);
  const double east = p.origin_east_m + (x + 0.5 - p.width / 2.0) * mpp;
  const double north = p.origin_north_m - (y + 0.5 - p.height / 2.0) * mpp;
  double az = std::atan2(east, north);
  if (az < 0) az += 2 * kPi;
  const double k = f.range_bins / f.range_m;
  return {std::hypot(east, north) * k, az / (2 * kPi) * f.azimuths, mpp * k};
}

// Candidate cells for a coordinate that may sit on a boundary.
std::set<int> candidates(double c, double eps) {
  std::set<int> s;
  for (int i = int(std::floor(c - eps)); i <= int(std::floor(c + eps)); ++i) s.insert(i);
  return s;
}

// The float pixel position is off by ~1e-5 bins; seen from the radar that is an angle of
// 1e-5 / u radians, so the azimuth tolerance grows near the radar.
double azimuth_eps(const Oracle& o, int azimuths) {
  return std::min(double(azimuths), 2e-3 + azimuths / (2 * kPi) * 1e-4 / std::max(o.u, 1e-9));
}

int wrap(int a, int n) {
  return ((a % n) + n) % n;
}

struct Case {
  PipelineParams params;
  PolarFrame frame;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  PipelineParams p;
  p.width = 160;
  p.height = 120;
  out.push_back({p, testing::random_frame(360, 200, 20000, 1)});  // centred, full range
  p.display_range_m = 5000;                                       // zoom in
  p.origin_east_m = 3000;
  p.origin_north_m = -2000;  // off-centre
  out.push_back({p, testing::random_frame(512, 300, 20000, 2)});
  p.display_range_m = 40000;  // zoom out: corners past the range
  p.origin_east_m = -15000;
  p.origin_north_m = 25000;
  out.push_back({p, testing::structured_frame(1024, 256, 20000, 3)});
  p.width = 101;  // odd sizes
  p.height = 77;
  p.display_range_m = 0;
  p.origin_east_m = p.origin_north_m = 0;
  out.push_back({p, testing::structured_frame(4096, 512, 30000, 4)});
  return out;
}

// The case's display scan-converted by the CPU stage.
Image8 scan(ThreadPool& pool, const Case& c, ScanMode mode) {
  Image8 img;
  cpu::scan_convert(pool, make_scan_setup(c.params, c.frame), c.frame.cells.data(), mode, img);
  return img;
}

TEST(PipelineScan, NearestMatchesDirectPolarLookup) {
  ThreadPool pool(2);
  for (const Case& c : cases()) {
    const Image8 img = scan(pool, c, ScanMode::Nearest);
    ASSERT_EQ(img.width, c.params.width);
    int strict = 0, outside = 0;
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) {
        const Oracle o = oracle_polar(c.params, c.frame, x, y);
        const uint8_t got = img.at(x, y);
        if (o.u >= c.frame.range_bins + 1e-3) {
          ASSERT_EQ(got, 0) << "past the range at " << x << "," << y;
          ++outside;
          continue;
        }
        std::set<uint8_t> allowed;
        const auto rs = candidates(o.u, 2e-3),
                   as = candidates(o.v, azimuth_eps(o, c.frame.azimuths));
        for (int r : rs)
          for (int a : as)
            allowed.insert(r >= c.frame.range_bins || r < 0
                               ? uint8_t(0)
                               : c.frame.row(wrap(a, c.frame.azimuths))[r]);
        if (rs.size() == 1 && as.size() == 1) ++strict;
        ASSERT_TRUE(allowed.count(got))
            << "pixel " << x << "," << y << " u=" << o.u << " v=" << o.v;
      }
    EXPECT_GT(strict, img.width * img.height * 9 / 10 - outside);
  }
}

TEST(PipelineScan, GeometryNorthUpClockwise) {
  // One bright cell at azimuth 90 degrees (east), half range: it must land right of centre.
  PolarFrame f(360, 100, 1000);
  f.row(90)[50] = 255;
  f.row(180)[25] = 200;  // south, quarter range
  PipelineParams p;
  p.width = p.height = 200;
  ThreadPool pool(1);
  Image8 img;
  cpu::scan_convert(pool, make_scan_setup(p, f), f.cells.data(), ScanMode::MaxHold, img);
  EXPECT_EQ(img.at(150, 100), 255);  // 50 px east of the centre (100, 100), y down
  EXPECT_EQ(img.at(99, 125), 200);   // 25 px south (cell 180 is just west of south)
  EXPECT_EQ(img.at(101, 125), 0);
  EXPECT_EQ(img.at(50, 100), 0);  // west is empty
  EXPECT_EQ(img.at(0, 0), 0);     // the corner is past the range
}

// Max-hold: the value must lie between the maximum over the cells the footprint certainly
// covers (spans shrunk by eps) and over those it may cover (spans grown by eps).
TEST(PipelineScan, MaxHoldMatchesDirectFootprintMaximum) {
  ThreadPool pool(2);
  for (const Case& c : cases()) {
    const Image8 img = scan(pool, c, ScanMode::MaxHold);
    const PolarFrame& f = c.frame;
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) {
        const Oracle o = oracle_polar(c.params, f, x, y);
        if (std::abs(o.u - f.range_bins) < 1e-3) continue;
        if (o.u > f.range_bins) {
          ASSERT_EQ(img.at(x, y), 0);
          continue;
        }
        auto span_max = [&](double eps) {
          const double rho = std::sqrt(0.5) * o.step;  // the disc around the pixel
          const int r0 = std::max(0, int(std::floor(std::max(0.0, o.u - rho) - eps)));
          const int r1 =
              std::min(f.range_bins - 1, std::max(r0, int(std::ceil(o.u + rho + eps)) - 1));
          int a0 = 0, na = f.azimuths;
          if (o.u > rho + 1e-6) {
            const double w = std::asin(std::min(1.0, rho / o.u)) / (2 * kPi) * f.azimuths;
            a0 = int(std::floor(o.v - w - eps));
            na = std::min(f.azimuths, std::max(1, int(std::ceil(o.v + w + eps)) - 1 - a0 + 1));
          }
          int m = 0;
          for (int i = 0; i < na; ++i)
            for (int r = r0; r <= r1; ++r) m = std::max<int>(m, f.row(wrap(a0 + i, f.azimuths))[r]);
          return m;
        };
        const int lo = span_max(-2e-3), hi = span_max(2e-3), got = img.at(x, y);
        ASSERT_LE(lo, got) << x << "," << y;
        ASSERT_LE(got, hi) << x << "," << y;
      }
  }
}

TEST(PipelineScan, MaxHoldKeepsSmallFarTargetsNearestDoesNot) {
  // 2048 x 2048 polar cells onto 128 x 128 pixels: each pixel covers many cells.
  PolarFrame f(2048, 2048, 10000);
  int kept_max = 0, kept_nearest = 0;
  ThreadPool pool(2);
  PipelineParams p;
  p.width = p.height = 128;
  for (int t = 0; t < 20; ++t) {
    std::fill(f.cells.begin(), f.cells.end(), 0);
    f.row(37 + t * 97)[1500 + t * 13] = 255;
    Image8 a, b;
    const ScanSetup s = make_scan_setup(p, f);
    cpu::scan_convert(pool, s, f.cells.data(), ScanMode::MaxHold, a);
    cpu::scan_convert(pool, s, f.cells.data(), ScanMode::Nearest, b);
    kept_max += *std::max_element(a.pixels.begin(), a.pixels.end()) == 255;
    kept_nearest += *std::max_element(b.pixels.begin(), b.pixels.end()) == 255;
  }
  EXPECT_EQ(kept_max, 20);
  EXPECT_LT(kept_nearest, 5);
}

TEST(PipelineScan, BilinearWithinOneLevelOfDirectInterpolation) {
  ThreadPool pool(2);
  for (const Case& c : cases()) {
    const Image8 img = scan(pool, c, ScanMode::Bilinear);
    const PolarFrame& f = c.frame;
    int far_off = 0;
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) {
        const Oracle o = oracle_polar(c.params, f, x, y);
        if (std::abs(o.u - f.range_bins) < 1e-3 || o.u < 1.0) continue;  // azimuth ill-defined
        if (o.u > f.range_bins) {
          ASSERT_EQ(img.at(x, y), 0);
          continue;
        }
        const double fu = o.u - 0.5, fv = o.v - 0.5;
        const int r0 = int(std::floor(fu)), a0 = int(std::floor(fv));
        const double tr = fu - r0, ta = fv - a0;
        auto cell = [&](int a, int r) {
          return double(f.row(wrap(a, f.azimuths))[std::clamp(r, 0, f.range_bins - 1)]);
        };
        const double v = (1 - ta) * ((1 - tr) * cell(a0, r0) + tr * cell(a0, r0 + 1)) +
                         ta * ((1 - tr) * cell(a0 + 1, r0) + tr * cell(a0 + 1, r0 + 1));
        const double d = std::abs(v + 0.5 - std::floor(v + 0.5) - 0.5);
        const int want = int(std::floor(v + 0.5));
        // The float position differs from the double one by ~1e-3 of a cell: up to 0.3 levels
        // on a 255-level edge, so one level off is allowed, two never.
        ASSERT_LE(std::abs(int(img.at(x, y)) - want), 1) << x << "," << y << " d=" << d;
        far_off += int(img.at(x, y)) != want;
      }
    EXPECT_LT(far_off, img.width * img.height / 20);
  }
}

// The pyramid-gathered span maximum equals the plain maximum over the span's cells for any
// span: wrapping past north, azimuth counts that are not multiples of the block sizes, spans
// that cover every azimuth.
TEST(PipelineScan, PyramidSpanMaxEqualsPlainMaximum) {
  ThreadPool pool(2);
  std::mt19937 rng(77);
  for (int az : {360, 512, 4096, 4100, 300}) {
    const PolarFrame f = testing::random_frame(az, 64, 1000, uint32_t(az));
    std::vector<uint8_t> pyr_cells(az_pyramid_cells(az, 64));
    cpu::az_pyramid(pool, f.cells.data(), az, 64, pyr_cells.data());
    AzPyramid pyr{pyr_cells.data(), pyr_cells.data() + size_t(az / kAzBlock1) * 64};
    ScanSetup s;
    s.azimuths = az;
    s.bins = 64;
    for (int t = 0; t < 3000; ++t) {
      PixelSpan sp;
      sp.a0 = int(rng() % unsigned(az));
      sp.na = t % 10 == 0 ? az : 1 + int(rng() % unsigned(t % 3 == 0 ? az : 600));
      sp.na = std::min(sp.na, az);
      sp.r0 = int(rng() % 64);
      sp.r1 = std::min(63, sp.r0 + int(rng() % 3));
      int want = 0;
      for (int i = 0; i < sp.na; ++i)
        for (int r = sp.r0; r <= sp.r1; ++r) want = std::max<int>(want, f.row((sp.a0 + i) % az)[r]);
      ASSERT_EQ(int(swl_span_max(s, f.cells.data(), pyr, sp)), want)
          << "az " << az << " a0 " << sp.a0 << " na " << sp.na;
    }
  }
}

}  // namespace
}  // namespace sweepline::gpu
