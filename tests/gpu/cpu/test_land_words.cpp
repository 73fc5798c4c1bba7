// The land words (gpu/land_words.hpp): a bit per 8 range cells of the video stage's land mask,
// against a cell-by-cell oracle, and the plots' near-land flag that the tracker's automatic
// acquisition reads.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpu/land_words.hpp"
#include "gpu/plot_extractor.hpp"
#include "gpu/video_math.hpp"
#include "gpu/video_tuning.hpp"

namespace sweepline::gpu {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The oracle: is any cell of rows [a0, a1] (mod az) and cells [c0, c1] land, cell by cell.
bool oracle_any(const std::vector<uint8_t>& video, int az, int bins, int a0, int a1, int c0,
                int c1) {
  for (int a = a0; a <= a1 && a < a0 + az; ++a)
    for (int c = std::max(0, c0); c <= std::min(bins - 1, c1); ++c)
      if (video[size_t(((a % az) + az) % az) * bins + c] == kVideoLand) return true;
  return false;
}

std::vector<uint32_t> words_of(const std::vector<uint8_t>& video, int az, int bins) {
  const int wpr = land_words_per_row(bins);
  std::vector<uint32_t> w(size_t(az) * wpr, 0xDEADBEEFu);  // every word is written
  for (int a = 0; a < az; ++a) land_words_row(video.data() + size_t(a) * bins, bins, &w[a * wpr]);
  return w;
}

TEST(LandWords, EachBitIsItsGroupOfEightCells) {
  std::mt19937 rng(5);
  for (int bins : {1, 7, 8, 255, 256, 257, 1000, 2048}) {
    std::vector<uint8_t> row(static_cast<size_t>(bins));
    for (auto& v : row) {  // land rare, its neighbouring levels (0, 2) and any level common
      const int r = int(rng() % 100);
      v = uint8_t(r < 3 ? kVideoLand : r < 6 ? kVideoLand + 1 : r < 50 ? 0 : int(rng() % 256));
    }
    std::vector<uint32_t> w(size_t(land_words_per_row(bins)), 0xFFFFFFFFu);
    land_words_row(row.data(), bins, w.data());
    for (int g = 0; g < land_words_per_row(bins) * kLandGroupsPerWord; ++g) {
      bool any = false;
      for (int c = g * kLandGroupCells; c < std::min(bins, (g + 1) * kLandGroupCells); ++c)
        any |= row[size_t(c)] == kVideoLand;
      EXPECT_EQ(bool((w[size_t(g / 32)] >> (g % 32)) & 1u), any) << "bins " << bins << " g " << g;
    }
  }
}

TEST(LandWords, AnyAgreesWithTheCellOracleOnRandomQueries) {
  std::mt19937 rng(9);
  const int az = 64, bins = 600;
  std::vector<uint8_t> video(size_t(az) * bins, 0);
  // A few blobs of land, one across north.
  for (int k = 0; k < 6; ++k) {
    const int a = int(rng() % az), c = int(rng() % bins), da = 1 + int(rng() % 3),
              dc = 1 + int(rng() % 20);
    for (int i = -da; i <= da; ++i)
      for (int j = 0; j < dc && c + j < bins; ++j)
        video[size_t(((a + i) % az + az) % az) * bins + c + j] = uint8_t(kVideoLand);
  }
  const std::vector<uint32_t> w = words_of(video, az, bins);
  const std::vector<uint8_t> age(static_cast<size_t>(az), static_cast<uint8_t>(kLandMinAge));
  const LandView view{w.data(), age.data(), az, bins, land_words_per_row(bins)};
  int hits = 0;
  for (int q = 0; q < 4000; ++q) {
    const int a0 = int(rng() % (3 * az)) - az, a1 = a0 + int(rng() % 10);
    // Query whole groups, as the oracle sees cells and the words see groups of 8.
    const int g0 = int(rng() % (bins / 8 + 4)) - 2, g1 = g0 + int(rng() % 12);
    const int c0 = g0 * 8, c1 = g1 * 8 + 7;
    const bool expect = oracle_any(video, az, bins, a0, a1, c0, c1);
    hits += expect;
    EXPECT_EQ(view.any(a0, a1, c0, c1), expect) << a0 << ".." << a1 << " x " << c0 << ".." << c1;
  }
  EXPECT_GT(hits, 100);  // both answers were exercised
  EXPECT_LT(hits, 3900);
  EXPECT_FALSE(LandView{}.any(0, 10, 0, 10));
  EXPECT_TRUE(view.known(-5, 70));
  std::vector<uint8_t> young = age;
  young[3] = uint8_t(kLandMinAge - 1);
  const LandView v2{w.data(), young.data(), az, bins, land_words_per_row(bins)};
  EXPECT_FALSE(v2.known(0, 5));
  EXPECT_FALSE(v2.known(-70, -60));  // rows 58..4 through north
  EXPECT_TRUE(v2.known(4, 60));
}

// A display of 1000 x 1000 px, 10 m each, the radar in the middle; a polar frame of 360 rows and
// 500 cells of 10 m.
TEST(LandWords, PlotsNextToLandAreFlagged) {
  DisplayGeometry g;
  g.metres_per_pixel = 10;
  g.radar_x = g.radar_y = 500;
  auto echo = [&](int label, double range_m, double bearing_deg) {
    ccl::Component c;
    c.label = label;
    const double e = range_m * std::sin(bearing_deg * kPi / 180),
                 n = range_m * std::cos(bearing_deg * kPi / 180);
    c.cx = g.radar_x + e / 10;
    c.cy = g.radar_y - n / 10;
    c.xmin = int(c.cx) - 2;
    c.xmax = int(c.cx) + 2;
    c.ymin = int(c.cy) - 2;
    c.ymax = int(c.cy) + 2;
    c.area = 25;
    c.range_m = range_m;
    c.bearing_deg = bearing_deg;
    c.peak = 200;
    return c;
  };
  const int az = 360, bins = 500;
  PolarFrame f(az, bins, 5000);
  std::vector<uint8_t> video(size_t(az) * bins, 0);
  // Land on bearings 88..92 from 3000 to 3200 m.
  for (int a = 88; a <= 92; ++a)
    for (int c = 300; c < 320; ++c) video[size_t(a) * bins + c] = uint8_t(kVideoLand);
  const std::vector<uint32_t> w = words_of(video, az, bins);
  std::vector<uint8_t> age(static_cast<size_t>(az), static_cast<uint8_t>(kLandMinAge));
  const LandView view{w.data(), age.data(), az, bins, land_words_per_row(bins)};
  PlotParams p;
  p.confirm_scans = 1;
  p.land_margin_m = 150;
  const std::vector<ccl::Component> cs = {
      echo(1, 2900, 90),   // 100 m short of the land: near
      echo(2, 3330, 90),   // beyond it by 130 m (the box reaches 20 m further): near
      echo(3, 2500, 90),   // 500 m short: open water
      echo(4, 3100, 100),  // 8 deg off (430 m across): open water
      echo(5, 3100, 94),   // 2 deg off (110 m across): near
      echo(6, 3100, 270),  // the other side
  };
  PlotExtractor x;
  const std::vector<Plot> plots = x.extract(cs, g, f, p, &view);
  ASSERT_EQ(plots.size(), cs.size());
  const bool want[] = {true, true, false, false, true, false};
  for (size_t i = 0; i < plots.size(); ++i) {
    EXPECT_EQ(plots[i].near_land, want[plots[i].label - 1]) << "echo " << plots[i].label;
    EXPECT_FALSE(plots[i].land_unknown) << "echo " << plots[i].label;
  }
  // A row the clutter map has seen too few times (bearing 270's): land not known there yet.
  age[270] = uint8_t(kLandMinAge - 1);
  PlotExtractor young;
  for (const Plot& pl : young.extract(cs, g, f, p, &view))
    EXPECT_EQ(pl.land_unknown, pl.label == 6) << "echo " << pl.label;
  PlotExtractor y;
  for (const Plot& pl : y.extract(cs, g, f, p)) {  // no land words
    EXPECT_FALSE(pl.near_land);
    EXPECT_FALSE(pl.land_unknown);
  }
  // No margin in range: the echoes short of and beyond the land are in open water (across the
  // beam, a beamwidth stays: an echo is smeared that far).
  p.land_margin_m = 0;
  PlotExtractor z;
  for (const Plot& pl : z.extract(cs, g, f, p, &view))
    if (pl.label <= 2) {
      EXPECT_FALSE(pl.near_land) << pl.label;
    }
}

}  // namespace
}  // namespace sweepline::gpu
